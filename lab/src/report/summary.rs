//! Per-configuration totals: `summary.csv`, the first table of `report.md` and the table `grid`
//! prints at the end.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::data::{Run, RunDir};
use super::format::{duration_ms, opt};
use super::stats::{geomean, mean, median};

/// One configuration's totals.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SummaryRow {
    /// Configuration id.
    pub config_id: String,
    /// `key=value` of each axis.
    pub values: String,
    /// Positions of the configuration's jobs (failed ones included).
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Searches stopped by the node cap.
    pub censored: usize,
    /// Jobs that failed (external engine crashed, hung or spoke garbage): unsolved, not counted.
    pub failed: usize,
    /// Sum of nodes.
    pub total_nodes: u64,
    /// Geometric mean of nodes.
    pub geomean_nodes: f64,
    /// Median time to solution over solved positions, milliseconds.
    pub median_time_to_solution_ms: Option<f64>,
    /// Median nodes to solution over solved positions.
    pub median_nodes_to_solution: Option<f64>,
    /// Mean of the per-position EBF (last iteration over the one before).
    pub mean_ebf: Option<f64>,
    /// Mean fail-high-first rate.
    pub mean_fail_high_first: Option<f64>,
    /// QS nodes over all nodes, pooled (when every run counted them).
    pub qs_share: Option<f64>,
    /// Sum of wall time, milliseconds.
    pub total_time_ms: f64,
    /// Partial-credit points over the positions that give credit (STS), if any do.
    pub points: Option<f64>,
    /// The most points those positions give (10 each in STS).
    pub max_points: Option<f64>,
}

impl SummaryRow {
    /// The cells after `solved`, as every table shows them: censored, failed, total and geomean
    /// nodes, median nodes and time to solution, EBF, FHF, QS share (a dash where unknown).
    pub fn cells(&self) -> [String; 9] {
        [
            self.censored.to_string(),
            self.failed.to_string(),
            self.total_nodes.to_string(),
            format!("{:.0}", self.geomean_nodes),
            opt(self.median_nodes_to_solution, 0),
            duration_ms(self.median_time_to_solution_ms),
            opt(self.mean_ebf, 2),
            opt(self.mean_fail_high_first, 3),
            opt(self.qs_share, 2),
        ]
    }
}

/// The summary rows of a run directory, in grid order.
pub fn summarise(run: &RunDir) -> Vec<SummaryRow> {
    run.config_ids()
        .iter()
        .map(|id| {
            let runs: Vec<&Run> = run.runs_of(id).collect();
            row(id, run.label(id), &runs, run.failed_of(id).count())
        })
        .collect()
}

fn row(id: &str, values: String, runs: &[&Run], failed: usize) -> SummaryRow {
    let nodes: Vec<f64> = runs.iter().map(|r| r.nodes).collect();
    let solved: Vec<&&Run> = runs.iter().filter(|r| r.solved).collect();
    let total: f64 = nodes.iter().sum();
    let qnodes: Option<f64> = runs.iter().map(|r| r.qnodes).sum();
    let of_solved =
        |f: fn(&Run) -> Option<f64>| solved.iter().filter_map(|r| f(r)).collect::<Vec<_>>();
    SummaryRow {
        config_id: id.to_string(),
        values,
        positions: runs.len() + failed,
        solved: solved.len(),
        censored: runs.iter().filter(|r| r.censored).count(),
        failed,
        total_nodes: total as u64,
        geomean_nodes: round(geomean(&nodes).unwrap_or(0.0), 1),
        median_time_to_solution_ms: median(&of_solved(|r| r.time_to_solution_ms)),
        median_nodes_to_solution: median(&of_solved(|r| r.nodes_to_solution)),
        mean_ebf: mean(&runs.iter().filter_map(|r| r.ebf).collect::<Vec<_>>()).map(|x| round(x, 3)),
        mean_fail_high_first: mean(
            &runs
                .iter()
                .filter_map(|r| r.fail_high_first)
                .collect::<Vec<_>>(),
        )
        .map(|x| round(x, 3)),
        qs_share: qnodes.map(|q| round(if total > 0.0 { q / total } else { 0.0 }, 3)),
        total_time_ms: runs.iter().map(|r| r.time_ms).sum::<f64>().round(),
        points: runs
            .iter()
            .filter_map(|r| r.points)
            .map(|p| p.0)
            .reduce(|a, b| a + b),
        max_points: runs
            .iter()
            .filter_map(|r| r.points)
            .map(|p| p.1)
            .reduce(|a, b| a + b),
    }
}

/// `x` rounded to `digits` decimals (the CSVs and tables show no more than that).
pub fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// Writes `rows` as a CSV with a header (`summary.csv`, `paired.csv`).
pub fn write_rows(path: &Path, rows: &[impl serde::Serialize]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// The summary as an aligned text table (the end of `grid`'s output); `solved` is out of the
/// `targets` positions that have something to solve (a `bm`, `am` or mate), as far as each
/// configuration searched them.
pub fn table(rows: &[SummaryRow], targets: usize) -> String {
    let mut s = format!(
        "{:<6} {:>9} {:>8} {:>6} {:>14} {:>12} {:>12} {:>10} {:>7} {:>6} {:>5}  {}\n",
        "config",
        "solved",
        "censored",
        "failed",
        "total nodes",
        "geomean",
        "med nts",
        "med tts",
        "ebf",
        "fhf",
        "qs",
        "values"
    );
    const WIDTHS: [usize; 9] = [8, 6, 14, 12, 12, 10, 7, 6, 5];
    for r in rows {
        s += &format!(
            "{:<6} {:>4}/{:<4}",
            r.config_id,
            r.solved,
            targets.min(r.positions)
        );
        for (cell, width) in r.cells().iter().zip(WIDTHS) {
            s += &format!(" {cell:>width$}");
        }
        s += &format!("  {}\n", r.values);
    }
    s
}
