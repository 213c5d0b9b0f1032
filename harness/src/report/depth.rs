//! Figures by iteration depth: the cost of an iterative-deepening search to depth d (median and
//! interquartile range over positions), its effective branching factor, and how far a
//! configuration is from the Knuth–Moore minimal tree.

use std::collections::BTreeMap;

use super::data::RunDir;
use super::stats::{mean, median, minimal_tree_leaves, quantile};

/// One configuration at one depth, over the positions that completed that depth.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthPoint {
    /// Nominal depth.
    pub depth: i32,
    /// Positions that completed it.
    pub positions: usize,
    /// Median nodes of the whole search up to this depth.
    pub median_nodes: f64,
    /// First quartile of the same.
    pub q1_nodes: f64,
    /// Third quartile of the same.
    pub q3_nodes: f64,
    /// Median of this iteration's nodes over the previous iteration's.
    pub median_ebf: Option<f64>,
}

/// Whether a depth that `reached` of `positions` searches completed is shown: at least half of
/// them, so a median is not that of a few outliers (an engine that finds a mate runs on to its
/// maximum depth; a timed search reaches different depths on different positions).
fn shown(reached: usize, positions: usize) -> bool {
    2 * reached >= positions
}

/// The depth series of one configuration, at depths that at least half its positions completed.
pub fn series(run: &RunDir, config: &str) -> Vec<DepthPoint> {
    let positions = run.runs_of(config).count();
    let mut by_depth: BTreeMap<i32, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for it in run.iterations.iter().filter(|it| it.config == config) {
        let entry = by_depth.entry(it.depth).or_default();
        entry.0.push(it.total_nodes);
        entry.1.extend(it.ebf);
    }
    by_depth
        .into_iter()
        .filter(|(_, (nodes, _))| shown(nodes.len(), positions))
        .map(|(depth, (nodes, ebfs))| DepthPoint {
            depth,
            positions: nodes.len(),
            median_nodes: median(&nodes).unwrap_or(0.0),
            q1_nodes: quantile(&nodes, 0.25).unwrap_or(0.0),
            q3_nodes: quantile(&nodes, 0.75).unwrap_or(0.0),
            median_ebf: median(&ebfs),
        })
        .collect()
}

/// A configuration's iteration at one depth on one suite, against the minimal tree.
#[derive(Debug, Clone, PartialEq)]
pub struct MinimalTreeRow {
    /// Configuration id.
    pub config: String,
    /// Suite label.
    pub suite: String,
    /// Nominal depth.
    pub depth: i32,
    /// Mean legal moves at the root over the suite: the b of the bound.
    pub branching: f64,
    /// b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
    pub minimal_leaves: f64,
    /// Mean nodes of the depth-d iteration alone (main + QS).
    pub mean_nodes: f64,
}

impl MinimalTreeRow {
    /// How many times the minimal tree the iteration cost.
    pub fn ratio(&self) -> f64 {
        self.mean_nodes / self.minimal_leaves
    }
}

/// Knuth–Moore rows for every configuration, suite and depth (suites without `root_moves` are
/// left out: their runs predate the column).
pub fn minimal_tree(run: &RunDir) -> Vec<MinimalTreeRow> {
    let mut rows = Vec::new();
    for suite in run.suites() {
        let moves: Vec<f64> = run
            .runs
            .iter()
            .filter(|r| r.suite == suite)
            .filter_map(|r| r.root_moves)
            .collect();
        let Some(b) = mean(&moves) else { continue };
        for config in run.config_ids() {
            let positions = run.runs_of(&config).filter(|r| r.suite == suite).count();
            let mut by_depth: BTreeMap<i32, Vec<f64>> = BTreeMap::new();
            for it in run
                .iterations
                .iter()
                .filter(|it| it.config == config && it.suite == suite)
            {
                by_depth.entry(it.depth).or_default().push(it.nodes);
            }
            let kept = by_depth
                .into_iter()
                .filter(|(_, n)| shown(n.len(), positions));
            rows.extend(kept.map(|(depth, nodes)| MinimalTreeRow {
                config: config.clone(),
                suite: suite.clone(),
                depth,
                branching: b,
                minimal_leaves: minimal_tree_leaves(b, depth),
                mean_nodes: mean(&nodes).unwrap_or(0.0),
            }));
        }
    }
    rows
}
