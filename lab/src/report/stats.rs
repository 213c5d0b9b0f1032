//! The statistics of a report, each a small pure function tested against textbook values:
//! quantiles, the geometric mean, the percentile bootstrap and the exact McNemar test.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Bootstrap resamples: enough for a stable 2.5 % tail (250 resamples below it).
pub const BOOTSTRAP_RESAMPLES: usize = 10_000;
/// The bootstrap's seed, fixed so that a report is reproducible byte for byte.
pub const BOOTSTRAP_SEED: u64 = 0x00f1_5c4e_21e0;

/// The `q`-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics (Hyndman–Fan
/// type 7, the default of R, NumPy and polars), or `None` for an empty sample.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// The median (type-7 0.5 quantile: the mean of the two middle values for even sizes).
pub fn median(xs: &[f64]) -> Option<f64> {
    quantile(xs, 0.5)
}

/// The arithmetic mean, or `None` for an empty sample.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// exp(mean(ln x)); node counts below 1 count as 1 so that a zero cannot sink the mean.
pub fn geomean(xs: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = xs.iter().map(|x| x.max(1.0).ln()).collect();
    mean(&logs).map(f64::exp)
}

/// exp(mean(ln r)) of ratios, which (unlike node counts in [`geomean`]) may lie below 1.
pub fn geomean_of_ratios(ratios: &[f64]) -> Option<f64> {
    mean(&ratios.iter().map(|r| r.ln()).collect::<Vec<_>>()).map(f64::exp)
}

/// A point estimate with its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The statistic on the sample itself.
    pub point: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// The geometric mean of paired ratios with a 95 % percentile-bootstrap interval: positions are
/// resampled with replacement, so the interval reflects which positions happen to be in the suite.
pub fn geomean_ratio_ci(ratios: &[f64]) -> Option<Estimate> {
    let point = geomean_of_ratios(ratios)?;
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
    let n = logs.len();
    let means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| (0..n).map(|_| logs[rng.random_range(0..n)]).sum::<f64>() / n as f64)
        .collect();
    Some(Estimate {
        point,
        low: quantile(&means, 0.025)?.exp(),
        high: quantile(&means, 0.975)?.exp(),
    })
}

/// The exact (binomial) McNemar test, two-sided: `lost` and `gained` are the discordant pairs
/// (solved by only the baseline, only the variant). Under the null hypothesis each discordant pair
/// goes either way with probability ½, so p = min(1, 2·P[X ≤ min(lost, gained)]), X ~ Bin(n, ½).
pub fn mcnemar_exact(lost: u64, gained: u64) -> f64 {
    let n = lost + gained;
    let k = lost.min(gained);
    // Σ C(n, i) / 2ⁿ, with each term built from the previous one in log space to avoid overflow.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = log_term.exp();
    for i in 1..=k {
        log_term += ((n - i + 1) as f64).ln() - (i as f64).ln();
        tail += log_term.exp();
    }
    (2.0 * tail).min(1.0)
}

/// A share `k / n` with its 95 % Wilson score interval (good coverage for shares near 0, where
/// the normal approximation would reach below zero), or `None` for `n = 0`.
pub fn wilson(k: usize, n: usize) -> Option<Estimate> {
    const Z: f64 = 1.959_963_984_540_054;
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Estimate {
        point: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// The Knuth–Moore minimal tree: the leaves a perfectly ordered alpha-beta search of a uniform
/// tree with branching factor `b` visits at depth `d`, b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
pub fn minimal_tree_leaves(b: f64, d: i32) -> f64 {
    let d = d.max(0);
    b.powi((d + 1) / 2) + b.powi(d / 2) - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn quantiles_match_numpy_type_7() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert!(close(quantile(&xs, 0.25).unwrap(), 1.75));
        assert!(close(quantile(&xs, 0.75).unwrap(), 3.25));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(quantile(&[7.0], 0.9), Some(7.0));
    }

    #[test]
    fn geometric_mean_of_textbook_samples() {
        assert!(close(geomean(&[2.0, 8.0]).unwrap(), 4.0));
        assert!(close(geomean(&[1.0, 100.0]).unwrap(), 10.0));
        assert!(close(geomean(&[1.0, 3.0, 9.0]).unwrap(), 3.0));
        // A search of 0 nodes counts as 1, so it cannot sink the mean to zero.
        assert!(close(geomean(&[0.0, 100.0]).unwrap(), 10.0));
        assert_eq!(geomean(&[]), None);
    }

    #[test]
    fn mcnemar_exact_matches_the_binomial_tail() {
        // n = 10, k = 1: 2 · (1 + 10) / 1024.
        assert!(close(mcnemar_exact(1, 9), 22.0 / 1024.0));
        assert!(close(mcnemar_exact(9, 1), 22.0 / 1024.0));
        // n = 12, k = 2: 2 · (1 + 12 + 66) / 4096 (Agresti's textbook layout).
        assert!(close(mcnemar_exact(2, 10), 158.0 / 4096.0));
        // No discordant pairs, or a balanced split: no evidence at all.
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // n = 6, all one way: 2 / 64.
        assert!(close(mcnemar_exact(0, 6), 2.0 / 64.0));
        // Large n stays finite: 2 · P[X ≤ 400] for Bin(1000, ½) is about 2.7e-10.
        let p = mcnemar_exact(400, 600);
        assert!(p > 1e-10 && p < 1e-9, "{p}");
    }

    #[test]
    fn bootstrap_interval_brackets_the_point_and_is_reproducible() {
        let ratios: Vec<f64> = (1..=40).map(|i| 1.0 + f64::from(i) / 20.0).collect();
        let e = geomean_ratio_ci(&ratios).unwrap();
        assert!(close(e.point, geomean(&ratios).unwrap()));
        assert!(e.low < e.point && e.point < e.high, "{e:?}");
        assert_eq!(geomean_ratio_ci(&ratios), Some(e));
        // The standard error of the mean log is s/√n; the 95 % interval is about ±1.96 of it.
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        let m = mean(&logs).unwrap();
        let sd = (logs.iter().map(|l| (l - m).powi(2)).sum::<f64>() / 39.0).sqrt();
        let half = 1.96 * sd / 40f64.sqrt();
        assert!(((e.high.ln() - e.low.ln()) / 2.0 - half).abs() < 0.1 * half);
    }

    #[test]
    fn a_constant_ratio_has_a_degenerate_interval() {
        let e = geomean_ratio_ci(&[2.0; 10]).unwrap();
        assert!(close(e.low, 2.0) && close(e.point, 2.0) && close(e.high, 2.0));
        assert_eq!(geomean_ratio_ci(&[]), None);
    }

    #[test]
    fn wilson_interval_of_textbook_shares() {
        // Newcombe (1998), Statistics in Medicine 17, table I: 81/263 → 0.2553–0.3662;
        // 0/10 → 0–0.2775; 1/29 → 0.0061–0.1718.
        let e = wilson(81, 263).unwrap();
        assert!(
            (e.low - 0.2553).abs() < 5e-5 && (e.high - 0.3662).abs() < 5e-5,
            "{e:?}"
        );
        let e = wilson(0, 10).unwrap();
        assert!(e.low == 0.0 && (e.high - 0.2775).abs() < 5e-5, "{e:?}");
        let e = wilson(1, 29).unwrap();
        assert!(
            (e.low - 0.0061).abs() < 5e-5 && (e.high - 0.1718).abs() < 5e-5,
            "{e:?}"
        );
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn minimal_tree_of_knuth_and_moore() {
        // b = 2: depth 1 → 2 leaves, depth 2 → 3, depth 3 → 5, depth 4 → 7.
        assert_eq!(minimal_tree_leaves(2.0, 1), 2.0);
        assert_eq!(minimal_tree_leaves(2.0, 2), 3.0);
        assert_eq!(minimal_tree_leaves(2.0, 3), 5.0);
        assert_eq!(minimal_tree_leaves(2.0, 4), 7.0);
        // Chess-like b = 40 at depth 6: 2 · 40³ − 1.
        assert_eq!(minimal_tree_leaves(40.0, 6), 127_999.0);
    }
}
