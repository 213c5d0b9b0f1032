//! Paired comparison of two sets of runs, position by position: a configuration against the
//! baseline of its grid, or one run directory against another (`harness compare`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::data::Run;
use super::stats::{geomean_ratio_ci, mcnemar_exact, median, Estimate};

/// One position searched by both sides.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    /// Suite label.
    pub suite: String,
    /// Position id.
    pub position: String,
    /// Nodes of the baseline.
    pub base_nodes: f64,
    /// Nodes of the variant.
    pub nodes: f64,
    /// Baseline solved it.
    pub base_solved: bool,
    /// Variant solved it.
    pub solved: bool,
    /// Variant was stopped by the node cap (its node count is a lower bound).
    pub censored: bool,
    /// CPU time of the baseline's search, milliseconds.
    pub base_cpu_ms: f64,
    /// CPU time of the variant's search, milliseconds.
    pub cpu_ms: f64,
    /// The position.
    pub fen: String,
}

impl Pair {
    /// Variant nodes over baseline nodes (both at least 1).
    pub fn ratio(&self) -> f64 {
        self.nodes.max(1.0) / self.base_nodes.max(1.0)
    }

    /// Variant CPU time over baseline CPU time (both at least 1 µs: the CSV's resolution). CPU
    /// time, not wall time: other processes on a shared machine stretch wall time, not CPU time.
    pub fn time_ratio(&self) -> f64 {
        self.cpu_ms.max(0.001) / self.base_cpu_ms.max(0.001)
    }
}

/// The paired statistics of a variant against a baseline.
#[derive(Debug, Clone)]
pub struct Paired {
    /// The pairs, sorted by node ratio (smallest first).
    pub pairs: Vec<Pair>,
    /// Geometric-mean node ratio with its 95 % bootstrap interval.
    pub geomean_ratio: Option<Estimate>,
    /// Median node ratio.
    pub median_ratio: Option<f64>,
    /// Positions with fewer nodes than the baseline.
    pub faster: usize,
    /// Positions with more nodes.
    pub slower: usize,
    /// Solved by the variant only.
    pub gained: u64,
    /// Solved by the baseline only.
    pub lost: u64,
    /// Exact McNemar p-value of gained against lost.
    pub mcnemar_p: f64,
    /// Geometric-mean CPU-time ratio with its 95 % bootstrap interval.
    pub geomean_time_ratio: Option<Estimate>,
    /// Baseline positions the variant did not search.
    pub unmatched: usize,
}

/// Pairs `variant` with `base` by (suite, position) and computes the statistics.
pub fn compare<'a>(
    base: impl IntoIterator<Item = &'a Run>,
    variant: impl IntoIterator<Item = &'a Run>,
) -> Paired {
    let by_key: BTreeMap<_, &Run> = variant.into_iter().map(|r| (r.position_key(), r)).collect();
    let base: Vec<&Run> = base.into_iter().collect();
    let mut pairs: Vec<Pair> = base
        .iter()
        .filter_map(|b| by_key.get(&b.position_key()).map(|v| pair(b, v)))
        .collect();
    pairs.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
    let ratios: Vec<f64> = pairs.iter().map(Pair::ratio).collect();
    let gained = pairs.iter().filter(|p| p.solved && !p.base_solved).count() as u64;
    let lost = pairs.iter().filter(|p| !p.solved && p.base_solved).count() as u64;
    Paired {
        geomean_ratio: geomean_ratio_ci(&ratios),
        median_ratio: median(&ratios),
        faster: ratios.iter().filter(|&&r| r < 1.0).count(),
        slower: ratios.iter().filter(|&&r| r > 1.0).count(),
        gained,
        lost,
        mcnemar_p: mcnemar_exact(lost, gained),
        geomean_time_ratio: geomean_ratio_ci(
            &pairs.iter().map(Pair::time_ratio).collect::<Vec<_>>(),
        ),
        unmatched: base.len() - pairs.len(),
        pairs,
    }
}

fn pair(base: &Run, variant: &Run) -> Pair {
    Pair {
        suite: base.suite.clone(),
        position: base.position.clone(),
        base_nodes: base.nodes,
        nodes: variant.nodes,
        base_solved: base.solved,
        solved: variant.solved,
        censored: variant.censored,
        base_cpu_ms: base.cpu_ms,
        cpu_ms: variant.cpu_ms,
        fen: base.fen.clone(),
    }
}

impl Paired {
    /// Positions whose node ratio is at least `factor` (a blowup count: ×2, ×10, ×100).
    pub fn at_least(&self, factor: f64) -> usize {
        self.pairs.iter().filter(|p| p.ratio() >= factor).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(position: &str, nodes: f64, solved: bool) -> Run {
        Run {
            config: "c".into(),
            suite: "s".into(),
            position: position.into(),
            solved,
            points: None,
            censored: false,
            nodes,
            qnodes: Some(0.0),
            time_ms: 0.0,
            cpu_ms: 0.0,
            nodes_to_solution: None,
            time_to_solution_ms: None,
            depth_to_solution: None,
            ebf: None,
            fail_high_first: None,
            root_moves: None,
            fen: String::new(),
            failure: String::new(),
            minimal: None,
            counters: BTreeMap::new(),
        }
    }

    #[test]
    fn pairs_by_position_and_counts_both_ways() {
        let base = [
            run("a", 100.0, true),
            run("b", 100.0, false),
            run("c", 100.0, true),
        ];
        let variant = [
            run("c", 400.0, false),
            run("a", 25.0, true),
            run("b", 100.0, true),
        ];
        let p = compare(&base, &variant);
        let ratios: Vec<f64> = p.pairs.iter().map(Pair::ratio).collect();
        assert_eq!(ratios, [0.25, 1.0, 4.0]);
        assert!((p.geomean_ratio.unwrap().point - 1.0).abs() < 1e-12);
        assert_eq!(p.median_ratio, Some(1.0));
        assert_eq!((p.faster, p.slower, p.gained, p.lost), (1, 1, 1, 1));
        assert_eq!(p.mcnemar_p, 1.0);
        assert_eq!(p.at_least(2.0), 1);
        assert_eq!(p.unmatched, 0);
    }

    #[test]
    fn a_position_only_the_baseline_has_is_counted_unmatched() {
        let base = [run("a", 10.0, true), run("z", 10.0, true)];
        let p = compare(&base, &[run("a", 20.0, true)]);
        assert_eq!((p.pairs.len(), p.unmatched), (1, 1));
    }
}

/// A row of `paired.csv`: one configuration against the baseline.
#[derive(Debug, Clone, Serialize)]
pub struct PairedRow {
    /// The configuration.
    pub config_id: String,
    /// Its axis values.
    pub values: String,
    /// The baseline it is paired with.
    pub baseline: String,
    /// Positions searched by both.
    pub pairs: usize,
    /// Geometric-mean node ratio (variant / baseline) and its 95 % bootstrap interval.
    pub geomean_ratio: Option<f64>,
    /// Lower end of the interval.
    pub ratio_low: Option<f64>,
    /// Upper end of the interval.
    pub ratio_high: Option<f64>,
    /// Median node ratio.
    pub median_ratio: Option<f64>,
    /// Geometric-mean CPU-time ratio and its 95 % bootstrap interval.
    pub geomean_time_ratio: Option<f64>,
    /// Lower end of the interval.
    pub time_low: Option<f64>,
    /// Upper end of the interval.
    pub time_high: Option<f64>,
    /// Positions with fewer nodes than the baseline.
    pub faster: usize,
    /// Positions with more.
    pub slower: usize,
    /// Solved by the variant only.
    pub gained: u64,
    /// Solved by the baseline only.
    pub lost: u64,
    /// Exact McNemar p-value of gained against lost.
    pub mcnemar_p: f64,
}

impl PairedRow {
    /// The row of `config` (labelled `values`) against `baseline`.
    pub fn new(config: &str, values: String, baseline: &str, p: &Paired) -> Self {
        let (ratio, time) = (p.geomean_ratio, p.geomean_time_ratio);
        Self {
            config_id: config.to_string(),
            values,
            baseline: baseline.to_string(),
            pairs: p.pairs.len(),
            geomean_ratio: ratio.map(|e| e.point),
            ratio_low: ratio.map(|e| e.low),
            ratio_high: ratio.map(|e| e.high),
            median_ratio: p.median_ratio,
            geomean_time_ratio: time.map(|e| e.point),
            time_low: time.map(|e| e.low),
            time_high: time.map(|e| e.high),
            faster: p.faster,
            slower: p.slower,
            gained: p.gained,
            lost: p.lost,
            mcnemar_p: p.mcnemar_p,
        }
    }
}
