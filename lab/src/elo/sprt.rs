//! The generalized sequential probability ratio test on match results, as fishtest runs it:
//! H0 "the Elo difference is `elo0`" against H1 "it is `elo1`", in logistic Elo (statistic: the
//! expected score) or in normalized Elo (statistic: the t-value), with the log-likelihood ratio of
//! the maximum-likelihood distributions under each hypothesis, and Wald's bounds.

use serde::{Deserialize, Serialize};

use super::mle::{with_expectation, with_t_value};
use super::{score_of_elo, Pdf, NELO_PER_T};

/// The Elo scale of the hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum EloModel {
    /// Logistic Elo: the hypotheses are expected scores.
    Logistic,
    /// Normalized Elo: the hypotheses are t-values (fishtest's default since 2020).
    Normalized,
}

/// The test's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Scale of `elo0` and `elo1`.
    pub model: EloModel,
}

/// Where the test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// LLR ≥ upper bound: H1 accepted.
    H1,
    /// LLR ≤ lower bound: H0 accepted.
    H0,
    /// Between the bounds: go on.
    Continue,
}

impl Sprt {
    /// Wald's bounds: (ln(β / (1 − α)), ln((1 − β) / α)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of results given as counts in ascending score order: trinomial (L, D, W) or
    /// pentanomial (LL, LD, DD+WL, WD, WW). Empty cells are regularised as fishtest does.
    pub fn llr(&self, counts: &[u64]) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let pdf = Pdf::from_counts(counts, true);
        let pentanomial = counts.len() == 5;
        let (h0, h1) = match self.model {
            EloModel::Logistic => (
                with_expectation(&pdf.points, score_of_elo(self.elo0)),
                with_expectation(&pdf.points, score_of_elo(self.elo1)),
            ),
            EloModel::Normalized => {
                // A pair's t-value is √2 times a game's: its score has half the spread.
                let scale = if pentanomial {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let t = |nelo: f64| nelo / NELO_PER_T * scale;
                (
                    with_t_value(&pdf.points, 0.5, t(self.elo0)),
                    with_t_value(&pdf.points, 0.5, t(self.elo1)),
                )
            }
        };
        let (Some(h0), Some(h1)) = (h0, h1) else {
            return 0.0;
        };
        let per_observation: f64 = pdf
            .points
            .iter()
            .zip(h0.iter().zip(&h1))
            .map(|((_, p), (q0, q1))| p * (q1.1.ln() - q0.1.ln()))
            .sum();
        pdf.n * per_observation
    }

    /// The decision at this LLR.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// fastchess's `Stats(w, l, d)` as counts (L, D, W).
    fn tri(w: u64, l: u64, d: u64) -> [u64; 3] {
        [l, d, w]
    }

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as counts (LL, LD, DD+WL, WD, WW).
    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> [u64; 5] {
        [ll, ld, wl + dd, wd, ww]
    }

    /// The LLRs fastchess's tests publish (tests/sprt_test.cpp; two decimals, relative 1 %).
    #[test]
    fn llr_matches_the_published_values() {
        use EloModel::*;
        let cases: [(Sprt, Vec<u64>, f64); 8] = [
            (
                test(0.0, 2.0, Normalized),
                tri(36433, 36027, 68692).to_vec(),
                0.92,
            ),
            (
                test(-1.75, 0.25, Normalized),
                tri(10871, 10650, 20431).to_vec(),
                2.30,
            ),
            (
                test(0.5, 2.5, Logistic),
                tri(21404, 21184, 40708).to_vec(),
                -1.57,
            ),
            (
                test(0.0, 2.0, Logistic),
                tri(57433, 57030, 106593).to_vec(),
                -2.59,
            ),
            (
                test(0.0, 2.0, Normalized),
                penta(365, 16618, 36029, 200, 16974, 390).to_vec(),
                2.25,
            ),
            (
                test(-1.75, 0.25, Normalized),
                penta(127, 4883, 10311, 401, 5150, 104).to_vec(),
                3.01,
            ),
            (
                test(0.5, 2.5, Logistic),
                penta(223, 9863, 20279, 1000, 10037, 246).to_vec(),
                -3.07,
            ),
            (
                test(0.0, 2.0, Logistic),
                penta(871, 26175, 55003, 980, 26678, 821).to_vec(),
                -4.98,
            ),
        ];
        for (sprt, counts, want) in cases {
            let got = sprt.llr(&counts);
            assert!(
                (got - want).abs() <= 0.01 * want.abs() + 0.005,
                "{sprt:?} {counts:?}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn wald_bounds_for_five_percent_errors() {
        let (lo, hi) = test(0.0, 2.0, EloModel::Normalized).bounds();
        assert!((lo + 2.944_438_979_166_440_3).abs() < 1e-12);
        assert!((hi - 2.944_438_979_166_440_3).abs() < 1e-12);
    }

    #[test]
    fn a_large_difference_passes_and_no_difference_fails() {
        let s = test(0.0, 10.0, EloModel::Normalized);
        assert_eq!(s.decide(s.llr(&[10, 60, 200, 120, 40])), Decision::H1);
        assert_eq!(s.decide(s.llr(&[160, 800, 2080, 800, 160])), Decision::H0);
        assert_eq!(
            s.decide(s.llr(&[40, 200, 520, 200, 40])),
            Decision::Continue
        );
        assert_eq!(s.llr(&[0, 0, 0, 0, 0]), 0.0);
    }
}
