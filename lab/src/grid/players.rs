//! Named players: a configuration with a name, from a `[[players]]` table of a grid or match file
//! or from `--player NAME:KEY=V,KEY=V…`. With named players a grid's points are those players (in
//! the order given, the file's first), labelled by name in the `player` column of every CSV and
//! report; the grid's `preset`, `[set]` and single-valued `--set` apply to each before its own `set`.
//!
//! ```toml
//! [[players]]
//! name = "no-singular"
//! preset = "modern"
//! set = { singular = "off" }
//!
//! [[players]]
//! name = "toga-no-null"
//! engine = "uci:/usr/games/toga2"
//! set = { "uci.NullMove Pruning" = "Never" }
//! ```

use serde::Deserialize;

use super::GridError;
use crate::engines::{BUILTIN, UCI_PREFIX};

/// The column that names a named player in every CSV and report.
pub const PLAYER_COLUMN: &str = "player";
/// The keys of `--player` that are not settings.
const PRESET_KEY: &str = "preset";
const ENGINE_KEY: &str = "engine";

/// A configuration with a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPlayer {
    /// Its label everywhere.
    pub name: String,
    /// Its preset (builtin engine); `None`: the grid's.
    pub preset: Option<String>,
    /// `builtin` or `uci:PATH`; `None`: the builtin engine.
    pub engine: Option<String>,
    /// Its own settings (`uci.NAME` keys for a UCI engine), applied last, in order.
    pub set: Vec<(String, String)>,
}

/// The TOML form of one `[[players]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerTable {
    name: String,
    preset: Option<String>,
    engine: Option<String>,
    #[serde(default)]
    set: toml::Table,
}

impl From<PlayerTable> for NamedPlayer {
    fn from(t: PlayerTable) -> Self {
        Self {
            name: t.name,
            preset: t.preset,
            engine: t.engine,
            set: t
                .set
                .iter()
                .map(|(k, v)| (k.clone(), super::scalar_text(v)))
                .collect(),
        }
    }
}

impl NamedPlayer {
    /// Reads `NAME:KEY=V,KEY=V…` (`preset=` and `engine=` choose the base; a bare `NAME` is the
    /// grid's preset as it is).
    pub fn parse(arg: &str) -> Result<Self, GridError> {
        let bad = |why: &str| {
            GridError::Players(format!(
                "--player `{}`: {why} (expected `NAME:KEY=V,KEY=V…`, e.g. `nosing:preset=modern,singular=off`)",
                excerpt(arg)
            ))
        };
        let (name, rest) = arg.split_once(':').unwrap_or((arg, ""));
        let mut player = Self {
            name: name.trim().to_string(),
            preset: None,
            engine: None,
            set: Vec::new(),
        };
        for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(&format!("`{item}` is not KEY=V")))?;
            let (key, value) = (key.trim(), value.trim().to_string());
            match key {
                PRESET_KEY => player.preset = Some(value),
                ENGINE_KEY => player.engine = Some(value),
                "" => return Err(bad("a setting has no key")),
                _ => player.set.push((key.to_string(), value)),
            }
        }
        Ok(player)
    }

    /// Its engine as `--engine` spells it.
    pub fn engine_arg(&self) -> &str {
        self.engine.as_deref().unwrap_or(BUILTIN)
    }

    /// Whether it is an external engine.
    pub fn is_uci(&self) -> bool {
        self.engine_arg().starts_with(UCI_PREFIX)
    }
}

/// Names must be given and distinct, a UCI player has no preset, and its settings are options.
pub fn check(players: &[NamedPlayer]) -> Result<(), GridError> {
    for (i, p) in players.iter().enumerate() {
        if p.name.is_empty() {
            return Err(GridError::Players(format!(
                "player {} has an empty name: every named player needs one",
                i + 1
            )));
        }
        if players[..i].iter().any(|q| q.name == p.name) {
            return Err(GridError::Players(format!(
                "two players are named `{}`: names label rows and must differ",
                p.name
            )));
        }
        if p.is_uci() && p.preset.is_some() {
            return Err(GridError::Players(format!(
                "player `{}` is a UCI engine and has a preset: presets configure the builtin engine",
                p.name
            )));
        }
        let engine_key = |(k, _): &&(String, String)| k.starts_with(super::UCI_KEY) != p.is_uci();
        if let Some((key, _)) = p.set.iter().find(engine_key) {
            let expected = if p.is_uci() {
                "a UCI player's settings are `uci.NAME` options"
            } else {
                "a builtin player's settings are SearchConfig keys; `uci.NAME` needs engine=uci:PATH"
            };
            return Err(GridError::Players(format!(
                "player `{}`: `{key}`: {expected}",
                p.name
            )));
        }
    }
    Ok(())
}

/// At most 80 characters of a long argument.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_form_reads_base_and_settings() {
        let p = NamedPlayer::parse("nosing:preset=modern, singular=off,lmr.base=1").unwrap();
        assert_eq!(p.name, "nosing");
        assert_eq!(p.preset.as_deref(), Some("modern"));
        assert_eq!(
            p.set,
            [
                ("singular".into(), "off".into()),
                ("lmr.base".into(), "1".into())
            ]
        );
        let t = NamedPlayer::parse("toga:engine=uci:/usr/games/toga2,uci.Hash=16").unwrap();
        assert!(t.is_uci());
        assert_eq!(t.engine_arg(), "uci:/usr/games/toga2");
        assert_eq!(NamedPlayer::parse("plain").unwrap().set, []);
        let e = NamedPlayer::parse("x:singular").unwrap_err().to_string();
        assert!(e.contains("`singular` is not KEY=V"), "{e}");
    }

    #[test]
    fn names_must_be_given_and_distinct_and_settings_fit_the_engine() {
        let p = |s: &str| NamedPlayer::parse(s).unwrap();
        let e = check(&[p("a"), p("b:lmr=off"), p("a:preset=modern")]).unwrap_err();
        assert!(e.to_string().contains("two players are named `a`"), "{e}");
        let e = check(&[p(":lmr=off")]).unwrap_err();
        assert!(e.to_string().contains("empty name"), "{e}");
        let e = check(&[p("t:engine=uci:/x,lmr=off")]).unwrap_err();
        assert!(e.to_string().contains("`uci.NAME` options"), "{e}");
        let e = check(&[p("b:uci.Hash=1")]).unwrap_err();
        assert!(e.to_string().contains("needs engine=uci:PATH"), "{e}");
        assert!(check(&[p("a"), p("b:preset=modern")]).is_ok());
    }
}
