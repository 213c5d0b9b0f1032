//! Maximum-likelihood distributions under a constraint, the core of the generalized SPRT: the
//! distribution closest (in likelihood) to the observed one whose expected score, or whose
//! t-value, has a given value. Derivations: Van den Bergh, "A note on the MLE of a multinomial
//! distribution with given expectation" and "Normalized Elo, practical" §4.1, as used by fishtest.

use super::mean_var;

/// Solves Σ pᵢ aᵢ / (1 + x aᵢ) = 0 for x, where the aᵢ take both signs: the function falls
/// strictly on the open interval (−1/max a, −1/min a), so bisection finds its one root.
pub fn secular(points: &[(f64, f64)]) -> Option<f64> {
    let lo_a = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi_a = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if lo_a >= 0.0 || hi_a <= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 { points.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum() };
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / hi_a + eps, -1.0 / lo_a - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 * (1.0 + mid.abs()) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The MLE of the distribution with expected score `s`, given the observed `points`.
pub fn with_expectation(points: &[(f64, f64)], s: f64) -> Option<Vec<(f64, f64)>> {
    let shifted: Vec<(f64, f64)> = points.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        points
            .iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// The MLE of the distribution whose t-value (μ − `reference`) / σ is `t`, given the observed
/// `points`: a fixed-point iteration from the uniform distribution, each step a secular equation.
pub fn with_t_value(points: &[(f64, f64)], reference: f64, t: f64) -> Option<Vec<(f64, f64)>> {
    let n = points.len() as f64;
    let mut current: Vec<(f64, f64)> = points.iter().map(|&(a, _)| (a, 1.0 / n)).collect();
    for _ in 0..10 {
        let (mu, var) = mean_var(&current);
        let sigma = var.sqrt();
        let shifted: Vec<(f64, f64)> = points
            .iter()
            .map(|&(a, p)| {
                let z = (mu - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted)?;
        let next: Vec<(f64, f64)> = points
            .iter()
            .zip(&shifted)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        let change = next
            .iter()
            .zip(&current)
            .map(|(u, v)| (u.1 - v.1).abs())
            .fold(0.0, f64::max);
        current = next;
        if change < 1e-9 {
            break;
        }
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OBSERVED: [(f64, f64); 3] = [(0.0, 0.3), (0.5, 0.3), (1.0, 0.4)];

    #[test]
    fn the_expectation_mle_has_the_expectation_and_sums_to_one() {
        for s in [0.45, 0.5, 0.55] {
            let pdf = with_expectation(&OBSERVED, s).unwrap();
            let (mu, _) = mean_var(&pdf);
            assert!((mu - s).abs() < 1e-9, "{mu} vs {s}");
            assert!((pdf.iter().map(|p| p.1).sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_observed_mean_leaves_the_distribution_as_it_is() {
        let pdf = with_expectation(&OBSERVED, 0.55).unwrap();
        for (a, b) in pdf.iter().zip(OBSERVED) {
            assert!((a.1 - b.1).abs() < 1e-9);
        }
    }

    #[test]
    fn the_t_value_mle_has_the_t_value() {
        for t in [-0.1, 0.0, 0.05] {
            let pdf = with_t_value(&OBSERVED, 0.5, t).unwrap();
            let (mu, var) = mean_var(&pdf);
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-5, "t {t}");
        }
    }

    #[test]
    fn one_signed_values_have_no_root() {
        assert_eq!(secular(&[(0.1, 0.5), (0.2, 0.5)]), None);
    }
}
