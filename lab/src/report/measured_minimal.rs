//! The measured minimal tree (`grid --minimal-tree`): per configuration and suite, how many times
//! its minimal tree the search's last iteration cost, main search and QS apart.

use super::data::{MinimalRun, Run, RunDir};
use super::md_table::{Align, MdTable};
use super::stats::{geomean_ratio_ci, median, Estimate};

/// One configuration on one suite.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredRow {
    /// Configuration id.
    pub config: String,
    /// Suite label.
    pub suite: String,
    /// Positions measured.
    pub positions: usize,
    /// Main search: geometric mean over positions of last iteration / minimal tree, with its
    /// bootstrap interval.
    pub main: Estimate,
    /// The same for QS nodes.
    pub qs: Option<Estimate>,
    /// Median of the main-search ratio.
    pub median_main: f64,
    /// Share of positions whose last iteration searched fewer main-search nodes than the minimal
    /// tree (the TT's transpositions and the previous iterations' ordering can do that).
    pub below_one: f64,
    /// What measuring took over what searching took (wall time).
    pub cost: f64,
}

/// The rows, or nothing for a run made without `--minimal-tree`.
pub fn table(run: &RunDir) -> Vec<MeasuredRow> {
    let mut rows = Vec::new();
    for suite in run.suites() {
        for config in run.config_ids() {
            let measured: Vec<&Run> = run
                .runs_of(&config)
                .filter(|r| r.suite == suite && r.minimal.is_some())
                .collect();
            if let Some(row) = row(&config, &suite, &measured) {
                rows.push(row);
            }
        }
    }
    rows
}

fn row(config: &str, suite: &str, runs: &[&Run]) -> Option<MeasuredRow> {
    let measured: Vec<MinimalRun> = runs.iter().filter_map(|r| r.minimal).collect();
    let main: Vec<f64> = measured.iter().map(|m| m.over_main).collect();
    let qs: Vec<f64> = measured.iter().filter_map(|m| m.over_qs).collect();
    let spent: f64 = measured.iter().map(|m| m.ms).sum();
    let searched: f64 = runs.iter().map(|r| r.time_ms).sum();
    Some(MeasuredRow {
        config: config.to_string(),
        suite: suite.to_string(),
        positions: runs.len(),
        main: geomean_ratio_ci(&main)?,
        qs: geomean_ratio_ci(&qs),
        median_main: median(&main)?,
        below_one: main.iter().filter(|x| **x < 1.0).count() as f64 / main.len() as f64,
        cost: spent / searched.max(1e-9),
    })
}

/// The section of `report.md` (nothing without rows).
pub fn markdown(md: &mut String, run: &RunDir, rows: &[MeasuredRow]) {
    if rows.is_empty() {
        return;
    }
    md.push_str("## The measured minimal tree\n\n");
    md.push_str("Each position's minimal tree at the depth searched (`--minimal-tree`): the same search \
        re-run without the TT and aspiration windows, its recorded best moves tried first at every node \
        (with a perfect ordering alpha-beta visits exactly the minimal tree), distinct lines counted. \
        Below: the last iteration's nodes over the minimal tree's, geometric mean over positions with a \
        95 % bootstrap interval. The last iteration has the TT and the earlier iterations' ordering, \
        so it can come in under 1.\n\n");
    let mut table = MdTable::new().left("config").left("suite").columns(
        ["positions", "main search", "median", "< 1", "QS", "cost"],
        Align::Right,
    );
    for r in rows {
        table.row([
            run.label(&r.config),
            r.suite.clone(),
            r.positions.to_string(),
            super::format::estimate(Some(r.main)),
            format!("{:.2}", r.median_main),
            format!("{:.0} %", 100.0 * r.below_one),
            super::format::estimate(r.qs),
            format!("{:.1} ×", r.cost),
        ]);
    }
    md.push_str(&table.render());
    md.push_str("\n*cost*: the measurement's wall time over the search's.\n\n");
}
