//! A grid: a base preset, fixed overrides, and axes whose cartesian product gives the
//! configurations. From a TOML file, from `--set KEY=V1,V2,…`, or both (command-line axes come
//! after the file's and replace an axis of the same key).
//!
//! With `engines`, the grid also runs external UCI engines: `uci.NAME` axes and `[set]` keys are
//! their options, the other keys configure the project's own engine (`builtin`); each engine
//! gets the product of its own axes, and an `engine` column names it.
//!
//! ```toml
//! name = "dynlimit"
//! preset = "fischerle"
//! suites = ["suites:wac.epd", "selfplay.epd"]  # `suites:` = the shared suites directory
//! depth = 6          # or `nodes = N`, or `movetime = MS` (a command-line limit replaces these)
//! node_cap = 5000000
//! [set]
//! "qsearch.min_level" = -30
//! [axes]
//! "selective.candidate_limit" = [0, 1, 2, 3, 4, 5]
//! "selective.dyn_levels" = [2, 4, 6]
//! ```

pub mod checks;
pub mod files;
pub mod players;
pub mod resolve;

use engine::SearchConfig;
use players::{NamedPlayer, PlayerTable, PLAYER_COLUMN};
use serde::Deserialize;
use thiserror::Error;

use crate::engines::{EngineSpec, BUILTIN, UCI_PREFIX};

/// Why a grid cannot be run.
#[derive(Debug, Error)]
pub enum GridError {
    /// The TOML file is not a grid.
    #[error("invalid grid file: {0}")]
    Toml(#[from] toml::de::Error),
    /// A `--set` argument is not `KEY=V1,V2,…`.
    #[error("expected `--set KEY=V1,V2,...`, found `{0}`")]
    SetSyntax(String),
    /// An axis has no values, so the product is empty.
    #[error("axis `{0}` has no values: the grid would have no configuration")]
    EmptyAxis(String),
    /// An axis or fixed value applies to no engine of the grid, or an engine lacks an option.
    #[error("{0}")]
    Engines(String),
    /// Named players that cannot be told apart or built.
    #[error("{0}")]
    Players(String),
    /// An axis lists a value twice: two identical configurations.
    #[error("axis `{key}` lists `{value}` twice: two configurations would be the same (give each value once)")]
    RepeatedValue {
        /// The axis.
        key: String,
        /// The value given twice.
        value: String,
    },
    /// A grid file names more than one kind of limit.
    #[error("a grid file gives one limit, found {0}: keep one of depth, nodes and movetime")]
    Limits(String),
    /// The preset or a key/value is not accepted by the engine.
    #[error("{context}: {reason}")]
    Config {
        /// Where the value came from.
        context: String,
        /// The engine's reason.
        reason: engine::config::ConfigError,
    },
}

/// The axis key that picks the preset instead of setting a field.
pub const PRESET_AXIS: &str = "preset";
/// The prefix of keys that are UCI options of external engines (`uci.Hash`).
pub use crate::engines::UCI_KEY;
/// The column naming the engine when a grid has `engines`.
pub const ENGINE_AXIS: &str = "engine";

/// One axis: a dotted `SearchConfig` key and the values it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// Dotted key (`selective.candidate_limit`).
    pub key: String,
    /// Values as text, as `SearchConfig::set` reads them.
    pub values: Vec<String>,
}

impl Axis {
    /// Each value once: in a grid a repeated value would search the same configuration twice (a
    /// match may repeat one, to give the copies different limits).
    pub fn check_distinct(&self) -> Result<(), GridError> {
        let mut seen = std::collections::HashSet::new();
        match self.values.iter().find(|v| !seen.insert(v.as_str())) {
            Some(value) => Err(GridError::RepeatedValue {
                key: self.key.clone(),
                value: value.clone(),
            }),
            None => Ok(()),
        }
    }
}

/// A grid before expansion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GridSpec {
    /// Name used in the output directory.
    pub name: String,
    /// Base preset.
    pub preset: String,
    /// Fixed overrides applied to the preset, in order.
    pub fixed: Vec<(String, String)>,
    /// Axes, in column order.
    pub axes: Vec<Axis>,
    /// Suites named by the file (resolved by the caller).
    pub suites: Vec<String>,
    /// Depth named by the file.
    pub depth: Option<i32>,
    /// Node cap named by the file.
    pub node_cap: Option<u64>,
    /// Node budget per search named by the file.
    pub nodes: Option<u64>,
    /// Milliseconds per search named by the file.
    pub movetime: Option<u64>,
    /// Engines named by the file (`builtin`, `uci:PATH`); empty: the project's engine alone.
    pub engines: Vec<String>,
    /// Parameters for `harness tune`, as `--param` takes them (`KEY=START,MIN,MAX…`), from the
    /// file's `[params]` table (`KEY = [START, MIN, MAX]` or `KEY = "START,MIN,MAX"`).
    pub params: Vec<String>,
    /// Named players (`[[players]]`, then `--player`): when any, the grid's points.
    pub players: Vec<NamedPlayer>,
}

/// The TOML form of a grid file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    name: Option<String>,
    preset: Option<String>,
    #[serde(default)]
    suites: Vec<String>,
    depth: Option<i32>,
    node_cap: Option<u64>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    #[serde(default)]
    engines: Vec<String>,
    #[serde(default)]
    set: toml::Table,
    #[serde(default)]
    axes: toml::Table,
    #[serde(default)]
    params: toml::Table,
    #[serde(default)]
    players: Vec<PlayerTable>,
}

/// One configuration of the expanded grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPoint {
    /// `c00`, `c01`, … in product order (the last axis varies fastest).
    pub id: String,
    /// The axis values of this point, in axis order (empty where an axis is not this engine's).
    pub values: Vec<String>,
    /// Which engine searches, configured how.
    pub player: Player,
}

/// Pairs of points (`(earlier, later)` ids) whose builtin configurations search identically, as
/// [`SearchConfig::canonical`] tells (`tt_move` without `tt`): the later adds rows, not information.
pub fn same_search(points: &[GridPoint]) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (i, later) in points.iter().enumerate() {
        let Some(config) = later.config() else {
            continue;
        };
        let canonical = config.canonical();
        let earlier = points[..i]
            .iter()
            .find(|p| p.config().is_some_and(|c| c.canonical() == canonical));
        if let Some(earlier) = earlier {
            pairs.push((earlier.id.clone(), later.id.clone()));
        }
    }
    pairs
}

/// The engine of a configuration and its settings.
// A grid has a handful of these: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Player {
    /// The project's search with this configuration.
    Builtin(SearchConfig),
    /// An external UCI engine with these options (name as the engine spells it, value).
    Uci {
        /// Index into the grid's engines.
        engine: usize,
        /// `setoption` pairs, fixed ones first.
        options: Vec<(String, String)>,
    },
}

impl GridPoint {
    /// The configuration of the project's engine (`None` for an external engine).
    pub fn config(&self) -> Option<&SearchConfig> {
        match &self.player {
            Player::Builtin(config) => Some(config),
            Player::Uci { .. } => None,
        }
    }
}

/// The values of `V1,V2,…`: split at the commas outside brackets, so a weight `[7,3]` or a table
/// `{…}` is one value.
pub fn split_values(text: &str) -> Vec<String> {
    let mut values = vec![String::new()];
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                values.push(String::new());
                continue;
            }
            _ => {}
        }
        values.last_mut().expect("one value at least").push(c);
    }
    values
        .into_iter()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

/// A table entry's values: an array's items, or the one value.
fn values_of(v: &toml::Value) -> Vec<String> {
    match v {
        toml::Value::Array(items) => items.iter().map(scalar_text).collect(),
        single => vec![scalar_text(single)],
    }
}

pub(crate) fn scalar_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl GridSpec {
    /// Reads a grid file's text.
    pub fn from_toml(text: &str) -> Result<Self, GridError> {
        let file: GridFile = toml::from_str(text)?;
        let limits: Vec<&str> = [
            ("depth", file.depth.is_some()),
            ("nodes", file.nodes.is_some()),
            ("movetime", file.movetime.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect();
        if limits.len() > 1 {
            return Err(GridError::Limits(limits.join(" and ")));
        }
        let axes: Vec<Axis> = file
            .axes
            .iter()
            .map(|(key, v)| Axis {
                key: key.clone(),
                values: values_of(v),
            })
            .collect();

        Ok(Self {
            name: file.name.unwrap_or_else(|| "grid".to_string()),
            preset: file.preset.unwrap_or_else(|| "fischerle".to_string()),
            fixed: file
                .set
                .iter()
                .map(|(k, v)| (k.clone(), scalar_text(v)))
                .collect(),
            axes,
            suites: file.suites,
            depth: file.depth,
            node_cap: file.node_cap,
            nodes: file.nodes,
            movetime: file.movetime,
            engines: file.engines,
            params: file
                .params
                .iter()
                .map(|(key, v)| format!("{key}={}", values_of(v).join(",")))
                .collect(),
            players: file.players.into_iter().map(NamedPlayer::from).collect(),
        })
    }

    /// Adds (or replaces) an axis from `KEY=V1,V2,…`.
    pub fn add_set(&mut self, arg: &str) -> Result<(), GridError> {
        let (key, values) = arg
            .split_once('=')
            .ok_or_else(|| GridError::SetSyntax(arg.to_string()))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(GridError::SetSyntax(arg.to_string()));
        }
        let values = split_values(values);
        let axis = Axis {
            key: key.to_string(),
            values,
        };
        match self.axes.iter_mut().find(|a| a.key == key) {
            Some(existing) => *existing = axis,
            None => self.axes.push(axis),
        }
        Ok(())
    }

    /// The configurations of the project's engine alone, every value checked by the engine
    /// before any search. An axis named `preset` chooses the base configuration of each point.
    pub fn expand(&self) -> Result<Vec<GridPoint>, GridError> {
        self.expand_with(&[EngineSpec::Builtin])
    }

    /// The configurations of every engine: for each, the product of the axes that are its own
    /// (`uci.*` for external engines, the others for `builtin`). With more than the builtin
    /// engine, the first value of each point is the engine's name ([`GridSpec::columns`]).
    pub fn expand_with(&self, engines: &[EngineSpec]) -> Result<Vec<GridPoint>, GridError> {
        if let Some(empty) = self.axes.iter().find(|a| a.values.is_empty()) {
            return Err(GridError::EmptyAxis(empty.key.clone()));
        }
        self.check_keys_have_engines(engines)?;
        if !self.players.is_empty() {
            return self.expand_players(engines);
        }
        let named = Self::names_engines(engines);
        let mut points = Vec::new();
        for (index, engine) in engines.iter().enumerate() {
            let uci = !matches!(engine, EngineSpec::Builtin);
            let own: Vec<Axis> = self
                .axes
                .iter()
                .filter(|a| a.key.starts_with(UCI_KEY) == uci)
                .cloned()
                .collect();
            for combo in cartesian(&own) {
                let settings: Vec<(String, String)> = own
                    .iter()
                    .map(|a| a.key.clone())
                    .zip(combo.clone())
                    .collect();
                let player = if uci {
                    self.uci_player(index, engine, &settings)?
                } else {
                    Player::Builtin(self.builtin_config(&settings)?)
                };
                let mut values: Vec<String> = named
                    .then(|| engine.label().to_string())
                    .into_iter()
                    .collect();
                values.extend(self.axes.iter().map(|a| {
                    own.iter()
                        .position(|o| o.key == a.key)
                        .map_or(String::new(), |i| combo[i].clone())
                }));
                points.push(GridPoint {
                    id: format!("c{:02}", points.len()),
                    values,
                    player,
                });
            }
        }
        Ok(points)
    }

    /// The engines to start, as `--engine` spells them: the grid's, then those of its named
    /// players (each once).
    pub fn engine_args(&self) -> Vec<String> {
        let mut args = self.engines.clone();
        for p in &self.players {
            if !args.iter().any(|a| a == p.engine_arg()) {
                args.push(p.engine_arg().to_string());
            }
        }
        args
    }

    /// One point per named player, in order; an axis must have one value (a fixed setting of all).
    fn expand_players(&self, engines: &[EngineSpec]) -> Result<Vec<GridPoint>, GridError> {
        players::check(&self.players)?;
        if let Some(axis) = self.axes.iter().find(|a| a.values.len() > 1) {
            return Err(GridError::Players(format!(
                "named players and an axis with {} values (`{}`): give one or the other (a named player's own settings go in its `set`)",
                axis.values.len(),
                axis.key
            )));
        }
        let fixed: Vec<(String, String)> = self
            .axes
            .iter()
            .map(|a| (a.key.clone(), a.values[0].clone()))
            .collect();
        let mut points = Vec::new();
        for p in &self.players {
            let index = engine_index(engines, p.engine_arg()).ok_or_else(|| {
                GridError::Engines(format!(
                    "player `{}`: engine `{}` was not started",
                    p.name,
                    p.engine_arg()
                ))
            })?;
            // A player's own preset is a `preset` setting, read as the preset axis is.
            let preset = p
                .preset
                .iter()
                .map(|v| (PRESET_AXIS.to_string(), v.clone()));
            let settings: Vec<(String, String)> = preset
                .chain(
                    fixed
                        .iter()
                        .filter(|(k, _)| k.starts_with(UCI_KEY) == p.is_uci())
                        .cloned(),
                )
                .chain(p.set.iter().cloned())
                .collect();
            let player = if p.is_uci() {
                self.uci_player(index, &engines[index], &settings)?
            } else {
                Player::Builtin(
                    self.builtin_config(&settings)
                        .map_err(|e| GridError::Players(format!("player `{}`: {e}", p.name)))?,
                )
            };
            points.push(GridPoint {
                id: format!("c{:02}", points.len()),
                values: vec![p.name.clone()],
                player,
            });
        }
        Ok(points)
    }

    /// The grid's columns: `player` (with named players), else `engine` (when it has external
    /// engines) and the axis keys.
    pub fn columns(&self, engines: &[EngineSpec]) -> Vec<String> {
        if !self.players.is_empty() {
            return vec![PLAYER_COLUMN.to_string()];
        }
        let named = Self::names_engines(engines);
        named
            .then(|| ENGINE_AXIS.to_string())
            .into_iter()
            .chain(self.axes.iter().map(|a| a.key.clone()))
            .collect()
    }

    fn names_engines(engines: &[EngineSpec]) -> bool {
        engines != [EngineSpec::Builtin]
    }

    /// Every axis and fixed key must configure some engine of the grid.
    fn check_keys_have_engines(&self, engines: &[EngineSpec]) -> Result<(), GridError> {
        let has_builtin = engines.contains(&EngineSpec::Builtin);
        let has_uci = engines.iter().any(|e| !matches!(e, EngineSpec::Builtin));
        let keys = self
            .axes
            .iter()
            .map(|a| &a.key)
            .chain(self.fixed.iter().map(|(k, _)| k));
        for key in keys {
            let uci = key.starts_with(UCI_KEY);
            if uci && !has_uci {
                return Err(GridError::Engines(format!("`{key}` is a UCI option, but the grid has no UCI engine (add `--engine uci:PATH`)")));
            }
            if !uci && !has_builtin {
                return Err(GridError::Engines(format!("`{key}` configures the builtin engine, which is not in the grid (add `--engine builtin`, or write `uci.{key}` for an option of a UCI engine)")));
            }
        }
        Ok(())
    }

    /// The builtin configuration of `settings` (key, value) over the base: a `preset` setting
    /// chooses the base preset, the others are set in order.
    fn builtin_config(&self, settings: &[(String, String)]) -> Result<SearchConfig, GridError> {
        let preset = settings
            .iter()
            .find(|(k, _)| k == PRESET_AXIS)
            .map_or(&self.preset, |(_, v)| v);
        let mut config = self.base(preset)?;
        for (key, value) in settings.iter().filter(|(k, _)| k != PRESET_AXIS) {
            config.set(key, value).map_err(|reason| GridError::Config {
                context: format!("axis `{key}` value `{value}`"),
                reason,
            })?;
        }
        Ok(config)
    }

    fn uci_player(
        &self,
        index: usize,
        engine: &EngineSpec,
        settings: &[(String, String)],
    ) -> Result<Player, GridError> {
        let fixed = self.fixed.iter().filter(|(k, _)| k.starts_with(UCI_KEY));
        let options = engine
            .uci_options(fixed.chain(settings).map(|(k, v)| (k, v)))
            .map_err(GridError::Engines)?;
        Ok(Player::Uci {
            engine: index,
            options,
        })
    }

    fn base(&self, preset: &str) -> Result<SearchConfig, GridError> {
        let settings = self
            .fixed
            .iter()
            .filter(|(k, _)| !k.starts_with(UCI_KEY))
            .map(|(k, v)| (k, v));
        SearchConfig::with_settings(preset, settings).map_err(|reason| GridError::Config {
            context: format!("preset {preset} and [set]"),
            reason,
        })
    }
}

/// The engine `--engine ARG` started.
fn engine_index(engines: &[EngineSpec], arg: &str) -> Option<usize> {
    engines.iter().position(|e| match e {
        EngineSpec::Builtin => arg == BUILTIN,
        EngineSpec::Uci { path, .. } => {
            arg.strip_prefix(UCI_PREFIX) == Some(path.to_string_lossy().as_ref())
        }
    })
}

/// Every combination of axis values, the last axis varying fastest. No axes: one empty combination.
fn cartesian(axes: &[Axis]) -> Vec<Vec<String>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests;
