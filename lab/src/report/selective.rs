//! The mechanism of selective deepening, from the search counters: how many levels were
//! inserted, how deep the extensions went, how much of the tree lies below an inserted level, and
//! how common the nodes are that a candidate limit makes eligible (few legal moves).

use super::data::{Run, RunDir};
use super::stats::median;

/// Legal-move counts shown one by one (the counts a candidate limit of 0…5 can admit).
pub const MOVE_COUNTS: std::ops::RangeInclusive<usize> = 1..=5;

/// One configuration's selective-deepening counters, over all its positions.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectiveRow {
    /// Configuration id.
    pub config: String,
    /// Dynamic levels inserted, summed.
    pub dyn_levels: f64,
    /// Trivial (single-move) levels inserted, summed.
    pub triv_levels: f64,
    /// Median over positions of the most levels inserted on one path.
    pub median_max_extension: f64,
    /// The most levels inserted on one path, over all positions.
    pub max_extension: f64,
    /// Main-search nodes below at least one dynamic level, over all main-search nodes.
    pub below_dyn_share: f64,
    /// Share of main-search nodes with exactly n legal moves, for n in [`MOVE_COUNTS`].
    pub move_count_shares: Vec<f64>,
}

/// The rows, or nothing when the runs lack the counters (older runs or other engines).
pub fn table(run: &RunDir) -> Vec<SelectiveRow> {
    // Other engines' configurations have no selective-deepening counters to show.
    run.config_ids()
        .iter()
        .map(|id| run.runs_of(id).collect::<Vec<_>>())
        .filter(|runs| runs.iter().all(|r| r.counters.contains_key("dyn_levels")))
        .filter_map(|runs| Some(row(&runs.first()?.config, &runs)))
        .collect()
}

fn counter(r: &Run, name: &str) -> f64 {
    r.counters.get(name).copied().unwrap_or(0.0)
}

fn row(id: &str, runs: &[&Run]) -> SelectiveRow {
    let sum = |name: &str| runs.iter().map(|r| counter(r, name)).sum::<f64>();
    let main_nodes: f64 = runs
        .iter()
        .map(|r| r.nodes - r.qnodes.unwrap_or(0.0))
        .sum::<f64>()
        .max(1.0);
    let histogram_total: f64 = (0..9)
        .map(|n| sum(&format!("legal_moves_{n}")))
        .sum::<f64>()
        .max(1.0);
    let extensions: Vec<f64> = runs.iter().map(|r| counter(r, "max_extension")).collect();
    SelectiveRow {
        config: id.to_string(),
        dyn_levels: sum("dyn_levels"),
        triv_levels: sum("triv_levels"),
        median_max_extension: median(&extensions).unwrap_or(0.0),
        max_extension: extensions.iter().copied().fold(0.0, f64::max),
        below_dyn_share: sum("nodes_below_dyn") / main_nodes,
        move_count_shares: MOVE_COUNTS
            .map(|n| sum(&format!("legal_moves_{n}")) / histogram_total)
            .collect(),
    }
}
