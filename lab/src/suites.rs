//! Where a grid's suites come from: a path, `suites:NAME` (the shared public suites,
//! `$FISCHERLE_SUITES`, default `../shared/suites`) or `builtin:NAME` (the project's own, compiled
//! in so the default experiment needs no files). Unreadable lines are reported with `file:line`
//! and left out; the run goes on with the rest.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::plan::SuiteInput;

/// The project's own suites, built into the binary so the default experiment needs no files:
/// self-play positions with a clear best move, every endgame position of the blowup study's
/// unselected self-play games, and the positions selected (on other games) for blowing up.
const BUILTIN_SUITES: [(&str, &str); 3] = [
    ("selfplay.epd", include_str!("../../suites/selfplay.epd")),
    (
        "unselected-endgame.epd",
        include_str!("../../suites/unselected-endgame.epd"),
    ),
    ("blowup.epd", include_str!("../../suites/blowup.epd")),
];
/// The environment variable naming the shared public suites (`suites:NAME` in grid files).
pub const SUITES_ENV: &str = "FISCHERLE_SUITES";

/// The built-in suites' names (`builtin:NAME`), the default experiment's suites.
pub fn builtin_names() -> Vec<String> {
    BUILTIN_SUITES
        .iter()
        .map(|(name, _)| format!("builtin:{name}"))
        .collect()
}

/// Loads the named suites (each a path, `suites:NAME` or `builtin:NAME`).
pub fn load(names: &[String]) -> Result<Vec<SuiteInput>> {
    let suites: Vec<SuiteInput> = names
        .iter()
        .map(|name| load_suite(name))
        .collect::<Result<_>>()?;
    check_distinct_labels(&suites)?;
    Ok(suites)
}

/// A job is keyed by suite label and position id, so two suites with one label (the same file given
/// twice, or `a/s.epd` and `b/s.epd`) would share keys and `--resume` would count one's jobs as the
/// other's: such a plan is refused before any search.
fn check_distinct_labels(suites: &[SuiteInput]) -> Result<()> {
    for (i, a) in suites.iter().enumerate() {
        if let Some(b) = suites[..i].iter().find(|b| b.label == a.label) {
            bail!(
                "two suites are both labelled `{}` ({} and {}), so their jobs would share keys: \
                give each suite once, with distinct file names",
                a.label,
                b.source,
                a.source
            );
        }
    }
    Ok(())
}

fn load_suite(name: &str) -> Result<SuiteInput> {
    let builtin = BUILTIN_SUITES
        .iter()
        .find(|(n, _)| name.strip_prefix("builtin:") == Some(n));
    let (source, bytes) = if let Some((_, text)) = builtin {
        (name.to_string(), text.as_bytes().to_vec())
    } else {
        let path = resolve_suite(name);
        let bytes =
            std::fs::read(&path).with_context(|| format!("reading suite {}", path.display()))?;
        (path.display().to_string(), bytes)
    };
    let label = Path::new(name.rsplit(':').next().unwrap_or(name))
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().to_string());
    let (suite, parsed) = SuiteInput::new(label, source, &bytes);
    for error in &parsed.errors {
        eprintln!("warning: skipping {error}");
    }
    Ok(suite)
}

/// `suites:NAME` is NAME in the shared suites directory (`$FISCHERLE_SUITES`, default `../shared/suites`).
pub fn resolve_suite(name: &str) -> PathBuf {
    match name.strip_prefix("suites:") {
        Some(rest) => shared_suites_dir().join(rest),
        None => PathBuf::from(name),
    }
}

/// The shared public suites directory.
pub fn shared_suites_dir() -> PathBuf {
    std::env::var_os(SUITES_ENV).map_or_else(|| PathBuf::from("../shared/suites"), PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_suites_are_valid() {
        // (suite, least positions, every record has exactly one bm)
        for ((name, text), (at_least, with_bm)) in
            BUILTIN_SUITES
                .iter()
                .zip([(40, true), (700, false), (5, false)])
        {
            let (suite, parsed) =
                SuiteInput::new((*name).into(), "builtin".into(), text.as_bytes());
            assert!(parsed.errors.is_empty(), "{name}: {:?}", parsed.errors);
            assert!(
                suite.records.len() >= at_least,
                "{name}: {}",
                suite.records.len()
            );
            assert!(suite.records.iter().all(|r| r.op("c0").is_some()));
            assert!(
                suite
                    .records
                    .iter()
                    .all(|r| r.best_moves.len() == usize::from(with_bm)),
                "{name}"
            );
        }
    }

    #[test]
    fn suites_prefix_names_the_shared_directory() {
        let path = resolve_suite("suites:wac.epd");
        assert!(path.ends_with("wac.epd") && path != Path::new("wac.epd"));
        assert_eq!(resolve_suite("x/y.epd"), PathBuf::from("x/y.epd"));
    }
}
