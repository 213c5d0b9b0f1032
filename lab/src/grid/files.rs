//! Grid files: the shipped grids (runnable by name from any directory), reading a grid file, and
//! the command line's preset, `--set` axes and `--engine`s applied to it. Shared by `grid` and
//! `match`, whose players are a grid's configurations.

use std::path::Path;

use anyhow::{Context, Result};

use super::players::NamedPlayer;
use super::GridSpec;

/// The experiment `harness grid` runs with no arguments.
pub const DEFAULT_GRID: &str = include_str!("../../../harness/grids/default.toml");
/// The shipped grid files, also runnable by name (`--grid dynlimit`) from any directory.
const SHIPPED_GRIDS: [(&str, &str); 6] = [
    ("default", DEFAULT_GRID),
    (
        "presets-wac",
        include_str!("../../../harness/grids/presets-wac.toml"),
    ),
    (
        "ordering",
        include_str!("../../../harness/grids/ordering.toml"),
    ),
    (
        "dynlimit",
        include_str!("../../../harness/grids/dynlimit.toml"),
    ),
    (
        "dynlimit-split",
        include_str!("../../../harness/grids/dynlimit-split.toml"),
    ),
    (
        "engines-wac",
        include_str!("../../../harness/grids/engines-wac.toml"),
    ),
];
/// The command line's preset, `--set` axes, `--engine`s and `--player`s applied to a grid (the grid file's or
/// a default one): shared by `grid` and `match`, whose players are a grid's configurations.
pub fn with_overrides(
    mut spec: GridSpec,
    preset: Option<&str>,
    sets: &[String],
    engines: &[String],
    players: &[String],
) -> Result<GridSpec> {
    if let Some(preset) = preset {
        spec.preset = preset.to_string();
    }
    let mut keys = std::collections::HashSet::new();
    for set in sets {
        let key = set.split_once('=').map_or(set.as_str(), |(k, _)| k.trim());
        if !keys.insert(key) {
            anyhow::bail!(
                "--set {key}=… is given twice: give one --set per key with every value (`--set {key}=V1,V2`)"
            );
        }
        spec.add_set(set)?;
    }
    for player in players {
        spec.players.push(NamedPlayer::parse(player)?);
    }
    if !engines.is_empty() {
        spec.engines = engines.to_vec();
    }
    Ok(spec)
}

/// A grid file, or a shipped grid when `path` is one's name and no such file exists.
pub fn grid_file(path: &Path) -> Result<GridSpec> {
    GridSpec::from_toml(&grid_text(path)?).with_context(|| format!("in {}", path.display()))
}

/// A grid file's text, or a shipped grid's when `path` is one's name and no such file exists.
pub(crate) fn grid_text(path: &Path) -> Result<String> {
    let shipped = SHIPPED_GRIDS
        .iter()
        .find(|(name, _)| path == Path::new(name));
    match shipped {
        Some((_, text)) if !path.exists() => Ok(text.to_string()),
        _ => std::fs::read_to_string(path).with_context(|| {
            let names: Vec<&str> = SHIPPED_GRIDS.iter().map(|(n, _)| *n).collect();
            format!(
                "reading grid {} (a file, or one of the shipped grids: {})",
                path.display(),
                names.join(", ")
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_experiment_and_the_shipped_grids_are_valid() {
        let points = GridSpec::from_toml(DEFAULT_GRID).unwrap().expand().unwrap();
        assert_eq!(points.len(), 4);
        for (name, text) in SHIPPED_GRIDS {
            assert!(GridSpec::from_toml(text).is_ok(), "shipped grid {name}");
            assert_eq!(grid_text(Path::new(name)).unwrap(), text);
        }
    }
}
