//! What a tune starts from, before its plan: the player tuned (a configuration of the builtin
//! engine or a UCI engine with its options), and a grid file's player and parameters as the
//! tune's own arguments.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use lab::engines::{self, EngineSpec};
use lab::uci::bounds::UciBounds;

use super::params::{Base, UCI_KEY};
use super::{Tuned, UciBase};

/// The player tuned, what its parameters are checked against, and its name for `tuned.toml`:
/// `engine` (default the builtin one) with the `fixed` settings, a builtin one from `preset`
/// (default `fischerle`).
pub fn tuned_player(
    engine: Option<&str>,
    preset: Option<&str>,
    fixed: &[(String, String)],
    slack: UciBounds,
) -> Result<(Tuned, Base, String)> {
    let engine = engine.unwrap_or(lab::engines::BUILTIN).to_string();
    let engines = engines::resolve(&[engine], slack.handshake)?;
    match engines.into_iter().next() {
        Some(spec @ EngineSpec::Uci { .. }) => uci_player(spec, fixed, slack),
        _ => {
            let preset = preset.unwrap_or("fischerle");
            let config = engine::SearchConfig::with_settings(preset, fixed.iter().cloned())
                .context("--preset and --set")?;
            config.validate().context("the configuration tuned")?;
            let base = Base::Builtin(Box::new(config.clone()));
            Ok((Tuned::Builtin(config), base, preset.to_string()))
        }
    }
}

/// A UCI engine tuned: its `uci.NAME=V` settings as options.
fn uci_player(
    spec: EngineSpec,
    fixed: &[(String, String)],
    slack: UciBounds,
) -> Result<(Tuned, Base, String)> {
    if let Some((key, _)) = fixed.iter().find(|(k, _)| !k.starts_with(UCI_KEY)) {
        bail!("--set {key}: a UCI engine takes `uci.NAME=V` settings");
    }
    let options = spec
        .uci_options(fixed.iter().map(|(k, v)| (k, v)))
        .map_err(|e| anyhow!("--set {e}"))?;
    let EngineSpec::Uci {
        path,
        identity,
        label,
    } = spec
    else {
        unreachable!("called with a UCI engine")
    };
    let base = Base::Uci {
        declared: identity.declared.clone(),
    };
    let tuned = Tuned::Uci(UciBase {
        path,
        options,
        slack,
    });
    Ok((tuned, base, label))
}

/// A grid file read as a tune's start: one player, no axes.
#[derive(Debug, Clone, PartialEq)]
pub struct GridStart {
    /// The named player's preset, else the file's.
    pub preset: String,
    /// The named player's engine, else the file's first.
    pub engine: Option<String>,
    /// `KEY=VALUE` settings: the file's, then the named player's.
    pub sets: Vec<String>,
    /// The file's `[params]`.
    pub params: Vec<String>,
}

/// The start a grid file describes; refused when it names more than one player.
pub fn grid_start(path: &Path) -> Result<GridStart> {
    let spec = lab::grid::files::grid_file(path)?;
    let refuse = |what: String| -> Result<GridStart> {
        bail!(
            "--grid {}: a tune starts from one player; the file {what}",
            path.display()
        )
    };
    if !spec.axes.is_empty() {
        return refuse("has axes ([axes])".to_string());
    }
    if spec.engines.len() > 1 {
        return refuse(format!("names {} engines", spec.engines.len()));
    }
    let named = match &spec.players[..] {
        [] => None,
        [one] => Some(one),
        many => return refuse(format!("names {} ([[players]])", many.len())),
    };
    let sets = spec.fixed.iter().chain(named.iter().flat_map(|p| &p.set));
    Ok(GridStart {
        preset: named
            .and_then(|p| p.preset.clone())
            .unwrap_or(spec.preset.clone()),
        engine: named
            .and_then(|p| p.engine.clone())
            .or(spec.engines.first().cloned()),
        sets: sets.map(|(k, v)| format!("{k}={v}")).collect(),
        params: spec.params.clone(),
    })
}
