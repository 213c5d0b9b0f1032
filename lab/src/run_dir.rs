//! The contract of a run directory, owned here: its file names and the columns its readers rely
//! on. The writer (`export::sink`), resume (the same), the report's reader (`report::data`) and a
//! match directory (`arena`) take every name from this module; the writer's other columns come
//! from its row types (`export::rows`), and a test checks that every column a reader needs is one
//! the writer writes.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// One row per job (configuration × position), written as jobs finish.
pub const RUNS: &str = "runs.csv";
/// One row per completed iteration of each job, flushed before the job's `runs.csv` row.
pub const ITERATIONS: &str = "iterations.csv";
/// The plan (configurations, suites with hashes, limits, bench signature), written at the start.
pub const MANIFEST: &str = "manifest.json";
/// One row per configuration (and suite), written by the report.
pub const SUMMARY: &str = "summary.csv";
/// One row per configuration against the baseline, paired by position (node and time ratios with
/// their intervals, gained and lost positions), written by the report.
pub const PAIRED: &str = "paired.csv";
/// A match's results, one row per pairing (W/D/L, pentanomial counts, Elo and nElo with their
/// intervals, LOS, LLR), written by the match report.
pub const PAIRINGS: &str = "pairings.csv";
/// The report in Markdown, written last.
pub const REPORT: &str = "report.md";
/// The same report as a self-contained page (`report::page`), written with it.
pub const REPORT_HTML: &str = "report.html";
/// The report's tables as data (`report::tables`), written with it: what study scripts read.
pub const REPORT_JSON: &str = "report.json";
/// A match's games, one row each (`play::arena::output`): what makes a directory a match's.
pub const GAMES_CSV: &str = "games.csv";
/// A match's games as PGN (`play::arena::pgn`); where `moves.csv` is kept, built again from the
/// tables, so not part of a run's size in the index.
pub const GAMES_PGN: &str = "games.pgn";
/// A budget ladder's rungs (`play::arena::ladder`).
pub const LADDER_JSON: &str = "ladder.json";
/// A tune's iterations (`play::tune::output`).
pub const TUNE_CSV: &str = "tune.csv";
/// A texel fit's epochs (`play::texel::output`).
pub const TEXEL_CSV: &str = "texel.csv";
/// `harness kpk check`'s positions.
pub const POSITIONS_CSV: &str = "positions.csv";
/// `harness kpk validate`'s comparison with the table (`play::kpk::validation_report`).
pub const COMPARISON_CSV: &str = "comparison.csv";

/// `results/<timestamp>-<name>/`.
pub fn default_out(name: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', 'Z'], "");
    PathBuf::from("results").join(format!("{stamp}-{name}"))
}

/// Refuses to start a new run in `out` when it holds anything but a run's own files: a run never
/// writes into a directory of someone else's (a `report.md` of another kind, notes, data). A run
/// directory (one with a manifest) passes: its writer refuses it in its own words and points to
/// `--resume`. A lock left alone by a run killed before its manifest counts as empty.
pub fn check_fresh_out(out: &Path) -> Result<()> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", out.display())),
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != crate::run_lock::LOCK_FILE)
        .collect();
    if names.is_empty() || names.iter().any(|n| n == MANIFEST) {
        return Ok(());
    }
    names.sort();
    let shown: Vec<String> = names.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(5);
    anyhow::bail!(
        "--out {} is not empty and is not a run directory (it holds {}{}): choose a new or empty directory",
        out.display(),
        shown.join(", "),
        if more > 0 { format!(" and {more} more") } else { String::new() }
    )
}

/// What committed results append to a large table they keep compressed (`runs.csv.gz`): readers
/// take a table from it where the plain file is not there.
pub const GZIP_SUFFIX: &str = ".gz";

/// `path` with [`GZIP_SUFFIX`] appended.
fn gzipped(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(GZIP_SUFFIX);
    PathBuf::from(name)
}

/// Whether the table at `path` is there, plain or gzipped.
pub fn table_exists(path: &Path) -> bool {
    path.exists() || gzipped(path).exists()
}

/// The bytes of the table at `path`, or of `path.gz` decompressed where only that is there;
/// `None` when neither is.
pub fn read_table(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => return Ok(Some(bytes)),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("reading {}", path.display()))
        }
        Err(_) => {}
    }
    let packed = gzipped(path);
    let file = match std::fs::File::open(&packed) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", packed.display())),
    };
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .with_context(|| format!("decompressing {}", packed.display()))?;
    Ok(Some(bytes))
}

/// Names of the columns a reader relies on. The writer's names come from serialising its rows;
/// these constants are what readers (and the tests that tie them to the writer) spell.
pub mod column {
    /// Configuration id (first column of both CSVs).
    pub const CONFIG_ID: &str = "config_id";
    /// Suite label.
    pub const SUITE: &str = "suite";
    /// Position id within its suite.
    pub const POSITION_ID: &str = "position_id";
    /// Final move correct.
    pub const SOLVED: &str = "solved";
    /// Partial-credit points of the final move (STS `c7`/`c8`).
    pub const POINTS: &str = "points";
    /// The most points the position gives.
    pub const MAX_POINTS: &str = "max_points";
    /// Stopped by the node cap.
    pub const CENSORED: &str = "censored";
    /// Nodes (main + QS); in `iterations.csv` the nodes of that iteration.
    pub const NODES: &str = "nodes";
    /// QS nodes.
    pub const QNODES: &str = "qnodes";
    /// Wall time in milliseconds; in `iterations.csv` since the search started.
    pub const TIME_MS: &str = "time_ms";
    /// The worker thread's CPU time, milliseconds.
    pub const CPU_MS: &str = "cpu_ms";
    /// Nodes when the answer was found and kept.
    pub const NODES_TO_SOLUTION: &str = "nodes_to_solution";
    /// Milliseconds when the answer was found and kept.
    pub const TIME_TO_SOLUTION_MS: &str = "time_to_solution_ms";
    /// Depth at which the answer was found and kept.
    pub const DEPTH_TO_SOLUTION: &str = "depth_to_solution";
    /// Effective branching factor of the last iteration.
    pub const EBF: &str = "ebf";
    /// Share of cutoffs made by the first move.
    pub const FAIL_HIGH_FIRST: &str = "fail_high_first";
    /// Legal moves at the root.
    pub const ROOT_MOVES: &str = "root_moves";
    /// Final best move (UCI).
    pub const BEST_MOVE: &str = "best_move";
    /// The position as FEN.
    pub const FEN: &str = "fen";
    /// Why the job failed; empty for a search that ran.
    pub const FAILURE: &str = "failure";
    /// Main-search nodes of the measured minimal tree (`grid --minimal-tree`).
    pub const MINIMAL_MAIN: &str = "minimal_main";
    /// QS nodes of the measured minimal tree.
    pub const MINIMAL_QS: &str = "minimal_qs";
    /// The last iteration's main-search nodes over the minimal tree's.
    pub const OVER_MINIMAL_MAIN: &str = "over_minimal_main";
    /// The last iteration's QS nodes over the minimal tree's.
    pub const OVER_MINIMAL_QS: &str = "over_minimal_qs";
    /// Milliseconds the minimal-tree measurement took.
    pub const MINIMAL_MS: &str = "minimal_ms";
    /// Nominal depth of an iteration.
    pub const DEPTH: &str = "depth";
    /// Nodes of the search up to and including an iteration.
    pub const TOTAL_NODES: &str = "total_nodes";
}

/// The key columns around a configuration's axis values: `config_id, <axes…>, suite,
/// position_id`, the head of both CSVs.
pub fn key_columns(axes: &[String]) -> Vec<String> {
    let mut head = vec![column::CONFIG_ID.to_string()];
    head.extend(axes.iter().cloned());
    head.extend([column::SUITE.to_string(), column::POSITION_ID.to_string()]);
    head
}

/// The columns of `runs.csv` that the report reads by name (every other numeric one is a counter).
pub const RUNS_READ: &[&str] = &[
    column::CONFIG_ID,
    column::SUITE,
    column::POSITION_ID,
    column::SOLVED,
    column::POINTS,
    column::MAX_POINTS,
    column::CENSORED,
    column::NODES,
    column::QNODES,
    column::TIME_MS,
    column::CPU_MS,
    column::NODES_TO_SOLUTION,
    column::TIME_TO_SOLUTION_MS,
    column::DEPTH_TO_SOLUTION,
    column::EBF,
    column::FAIL_HIGH_FIRST,
    column::ROOT_MOVES,
    column::BEST_MOVE,
    column::FEN,
    column::FAILURE,
    column::MINIMAL_MAIN,
    column::MINIMAL_QS,
    column::OVER_MINIMAL_MAIN,
    column::OVER_MINIMAL_QS,
    column::MINIMAL_MS,
];

/// The columns of `iterations.csv` that the report reads.
pub const ITERATIONS_READ: &[&str] = &[
    column::CONFIG_ID,
    column::SUITE,
    column::POSITION_ID,
    column::DEPTH,
    column::NODES,
    column::TOTAL_NODES,
    column::EBF,
    column::TIME_MS,
];

/// The manifest of run directory `dir` as a `T`; `what` names the kind of run in the error.
pub fn read_manifest<T: serde::de::DeserializeOwned>(dir: &Path, what: &str) -> Result<T> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("{}: no {what} to resume", dir.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{}: not a {what}'s manifest", path.display()))
}

/// Writes `manifest` as `dir/manifest.json`, whole or not at all (through a file renamed into
/// place, so a kill leaves the old one).
pub fn write_manifest(dir: &Path, manifest: &impl serde::Serialize) -> Result<()> {
    let path = dir.join(MANIFEST);
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, crate::json::to_lines(manifest))
        .with_context(|| format!("writing {}", partial.display()))?;
    std::fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::rows::{IterationRow, RunRow};

    fn written(row_columns: Vec<String>) -> Vec<String> {
        let mut all = key_columns(&["selective.candidate_limit".to_string()]);
        all.extend(row_columns);
        all
    }

    #[test]
    fn every_column_the_report_reads_from_runs_csv_is_written() {
        let columns = written(RunRow::column_names());
        for name in RUNS_READ {
            assert!(columns.iter().any(|c| c == name), "runs.csv lacks `{name}`");
        }
    }

    #[test]
    fn every_column_the_report_reads_from_iterations_csv_is_written() {
        let columns = written(IterationRow::column_names());
        for name in ITERATIONS_READ {
            assert!(
                columns.iter().any(|c| c == name),
                "iterations.csv lacks `{name}`"
            );
        }
    }

    #[test]
    fn the_key_columns_frame_the_axes() {
        let axes = ["a".to_string(), "b".to_string()];
        assert_eq!(
            key_columns(&axes),
            ["config_id", "a", "b", "suite", "position_id"]
        );
    }
}
