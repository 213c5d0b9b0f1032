//! The cost of completing each depth, step by step: for every step along a numeric axis and every
//! nominal depth, the per-position ratio (after / before) of the nodes and the wall time spent
//! until that iteration completed. Fischerle's author searched to a preselected depth, so the
//! question a player asks is how often one move takes five or ten times as long — the tail of
//! this ratio, not its mean.

use std::collections::HashMap;

use super::data::{IterationPoint, Run, RunDir};
use super::stats::{geomean_of_ratios, quantile};
use super::steps::Step;

/// Nominal depths below this are left out: their times are a few milliseconds, all noise.
pub const MIN_DEPTH: i32 = 3;

/// The growth factors whose shares are counted.
pub const FACTORS: [f64; 2] = [5.0, 10.0];

/// p50, p90, p99 and the largest value of a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tail {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

impl Tail {
    fn of(xs: &[f64]) -> Option<Self> {
        Some(Self {
            p50: quantile(xs, 0.5)?,
            p90: quantile(xs, 0.9)?,
            p99: quantile(xs, 0.99)?,
            max: quantile(xs, 1.0)?,
        })
    }
}

/// One step at one depth.
#[derive(Debug, Clone)]
pub struct TailRow {
    /// The step's axis.
    pub axis: String,
    /// The other axes' values.
    pub context: String,
    /// Axis value before.
    pub from: String,
    /// Axis value after.
    pub to: String,
    /// Nominal depth.
    pub depth: i32,
    /// Positions where both searches reached this depth (or the one after was cut by the node cap).
    pub pairs: usize,
    /// Of them, the searches after the step cut by the node cap before completing this depth:
    /// their ratio counts with what they spent, a lower bound.
    pub censored: usize,
    /// Positions left out because the search *before* the step was cut by the cap before this
    /// depth (no ratio can be formed; they bias the tail downwards).
    pub dropped: usize,
    /// Geometric mean of the node ratios: the typical cost of the step at this depth.
    pub geomean_nodes: f64,
    /// Node ratios.
    pub nodes: Tail,
    /// Wall-time ratios (each time counted as at least 1 ms: below that, timer and scheduling noise).
    pub time: Tail,
    /// Positions whose node ratio is above each of [`FACTORS`].
    pub nodes_over: [usize; 2],
    /// Positions whose time ratio is above each of [`FACTORS`].
    pub time_over: [usize; 2],
    /// The per-position time ratios, ascending (for the figure).
    pub time_ratios: Vec<f64>,
}

/// Nodes and milliseconds until an iteration completed.
type Cost = (f64, f64);

/// Every step at every depth from [`MIN_DEPTH`] that both sides searched.
pub fn tails(run: &RunDir, steps: &[Step]) -> Vec<TailRow> {
    let mut at: HashMap<(&str, &str, &str, i32), Cost> = HashMap::new();
    for it in &run.iterations {
        at.insert(key(it), (it.total_nodes, it.time_ms));
    }
    let censored: HashMap<(&str, &str, &str), &Run> = run
        .runs
        .iter()
        .filter(|r| r.censored)
        .map(|r| {
            (
                (r.config.as_str(), r.suite.as_str(), r.position.as_str()),
                r,
            )
        })
        .collect();
    let max_depth = run.iterations.iter().map(|i| i.depth).max().unwrap_or(0);
    let mut rows = Vec::new();
    for step in steps {
        for depth in MIN_DEPTH..=max_depth {
            let mut pairs: Vec<(Cost, bool)> = Vec::new();
            let mut dropped = 0;
            for r in run.runs_of(&step.from_id) {
                let Some(&(n0, t0)) = at.get(&(
                    step.from_id.as_str(),
                    r.suite.as_str(),
                    r.position.as_str(),
                    depth,
                )) else {
                    dropped += usize::from(r.censored);
                    continue;
                };
                let after = (step.to_id.as_str(), r.suite.as_str(), r.position.as_str());
                let cost = match at.get(&(after.0, after.1, after.2, depth)) {
                    Some(&c) => Some((c, false)),
                    // Cut by the cap before this depth: what it spent is a lower bound.
                    None => censored.get(&after).map(|v| ((v.nodes, v.time_ms), true)),
                };
                if let Some(((n1, t1), cut)) = cost {
                    pairs.push(((n1 / n0.max(1.0), t1.max(1.0) / t0.max(1.0)), cut));
                }
            }
            if let Some(row) = row(step, depth, &pairs) {
                rows.push(TailRow { dropped, ..row });
            }
        }
    }
    rows
}

fn key(it: &IterationPoint) -> (&str, &str, &str, i32) {
    (
        it.config.as_str(),
        it.suite.as_str(),
        it.position.as_str(),
        it.depth,
    )
}

fn row(step: &Step, depth: i32, pairs: &[(Cost, bool)]) -> Option<TailRow> {
    let nodes: Vec<f64> = pairs.iter().map(|((n, _), _)| *n).collect();
    let mut time: Vec<f64> = pairs.iter().map(|((_, t), _)| *t).collect();
    time.sort_by(f64::total_cmp);
    let over = |xs: &[f64]| FACTORS.map(|f| xs.iter().filter(|&&x| x > f).count());
    Some(TailRow {
        axis: step.axis.clone(),
        context: step.context.clone(),
        from: step.from.clone(),
        to: step.to.clone(),
        depth,
        pairs: pairs.len(),
        censored: pairs.iter().filter(|(_, cut)| *cut).count(),
        dropped: 0,
        geomean_nodes: geomean_of_ratios(&nodes)?,
        nodes: Tail::of(&nodes)?,
        time: Tail::of(&time)?,
        nodes_over: over(&nodes),
        time_over: over(&time),
        time_ratios: time,
    })
}
