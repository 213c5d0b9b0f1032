//! Figures by iteration depth: the cost of an iterative-deepening search to depth d (median and
//! interquartile range over positions), its effective branching factor, and how far a
//! configuration is from the Knuth–Moore minimal tree.

use std::collections::BTreeMap;

use super::data::{short_axis, RunDir};
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

/// Depth series arranged for reading: one panel per combination of the grid's other axes, one
/// curve per value of its first axis (the one under study), so no panel holds more curves than
/// that axis has values. A grid with one axis (or none) is one panel.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthPanels {
    /// The curves' names, in colour order: `candidate_limit=3`, … (the whole label with one axis).
    pub legend: Vec<String>,
    /// The panels, in grid order.
    pub panels: Vec<DepthPanel>,
}

/// One panel: the other axes' values and its curves.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthPanel {
    /// `dyn_levels=4`, or empty for a single panel.
    pub title: String,
    /// (index into the legend, the series).
    pub curves: Vec<(usize, Vec<DepthPoint>)>,
}

/// Every configuration's depth series, in panels.
pub fn panels(run: &RunDir) -> DepthPanels {
    let axes = &run.manifest.axes;
    let mut out = DepthPanels {
        legend: Vec::new(),
        panels: Vec::new(),
    };
    for id in run.config_ids() {
        let values = run
            .manifest
            .configs
            .iter()
            .find(|c| c.id == id)
            .map_or(&[][..], |c| c.values.as_slice());
        let (curve, title) = if axes.len() >= 2 && values.len() == axes.len() {
            let named = |i: usize| format!("{}={}", short_axis(&axes[i]), values[i]);
            let others: Vec<String> = (1..axes.len())
                .filter(|&i| !values[i].is_empty())
                .map(named)
                .collect();
            (named(0), others.join(" "))
        } else {
            (run.label(&id), String::new())
        };
        let colour = match out.legend.iter().position(|l| *l == curve) {
            Some(i) => i,
            None => {
                out.legend.push(curve);
                out.legend.len() - 1
            }
        };
        let panel = match out.panels.iter().position(|p| p.title == title) {
            Some(i) => i,
            None => {
                out.panels.push(DepthPanel {
                    title,
                    curves: Vec::new(),
                });
                out.panels.len() - 1
            }
        };
        out.panels[panel].curves.push((colour, series(run, &id)));
    }
    out
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
