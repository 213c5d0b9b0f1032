//! Did a parameter move? Its drift against the noise of the tune's own steps.
//!
//! SPSA moves θ by R_k·c_k·(W − L)_k·Δ_k each iteration ([`super::spsa::update`]), Δ_k = ±1 at
//! random. If the parameter did not matter, (W − L)_k would not depend on Δ_k: the steps would be
//! independent with mean 0, and the drift (final − start) / C_END would have the standard deviation
//!
//! ```text
//! noise = sqrt(Σ_k (R_k·c_k)² · mean_k (W − L)_k²) / C_END
//! ```
//!
//! (W − L)² averaged over the tune's iterations: the variance of W − L under no effect, a little
//! over it if some parameter matters, so the estimate errs toward more noise. z = drift / noise, its
//! two-sided normal p, Holm-adjusted across the tune's parameters; "moved" where that is below
//! [`ALPHA`]. The clip at the range's ends is ignored, except that a parameter starting at a bound
//! can drift one way only: a walk clipped there ends distributed as the unclipped walk's maximum,
//! P(max > x) = 2·P(walk > x) (reflection principle), which is the same two-sided p.
//! `scripts/tuning_drift.py` is the independent implementation a test compares with.

use super::spsa::Param;
use lab::elo::holm::holm;

/// The family-wise error rate across a tune's parameters.
pub const ALPHA: f64 = 0.05;

/// One parameter's drift against its noise, both in units of its C_END.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drift {
    /// (final − start) / C_END.
    pub drift: f64,
    /// The drift's standard deviation had the parameter not mattered.
    pub noise: f64,
    /// drift / noise (0 where the noise is 0: no step was ever taken).
    pub z: f64,
    /// Two-sided normal p of z.
    pub p: f64,
    /// p Holm-adjusted across the tune's parameters.
    pub holm: f64,
    /// Whether the parameter started at MIN or MAX (one-way drift: see the module's doc).
    pub at_bound: bool,
}

impl Drift {
    /// Beyond the noise after the correction across the tune's parameters.
    pub fn moved(&self) -> bool {
        self.holm < ALPHA
    }
}

/// What a tune did, as the estimate reads it.
#[derive(Debug, Clone, Copy)]
pub struct Walks<'a> {
    /// The parameters.
    pub params: &'a [Param],
    /// θ at the end, per parameter.
    pub end: &'a [f64],
    /// R_k·c_k per parameter, per iteration.
    pub steps: &'a [Vec<f64>],
    /// (W − L)_k of the + side per iteration.
    pub results: &'a [f64],
}

/// Each parameter's drift, noise, z, p and Holm p.
pub fn estimate(walks: Walks) -> Vec<Drift> {
    let mean_square = mean_square(walks.results);
    let mut out: Vec<Drift> = walks
        .params
        .iter()
        .zip(walks.end)
        .zip(walks.steps)
        .map(|((p, &end), steps)| one(p, end, steps, mean_square))
        .collect();
    let adjusted = holm(&out.iter().map(|d| d.p).collect::<Vec<_>>());
    for (d, h) in out.iter_mut().zip(adjusted) {
        d.holm = h;
    }
    out
}

/// mean_k (W − L)_k², 0 for no iterations.
pub fn mean_square(results: &[f64]) -> f64 {
    if results.is_empty() {
        return 0.0;
    }
    results.iter().map(|r| r * r).sum::<f64>() / results.len() as f64
}

fn one(p: &Param, end: f64, steps: &[f64], mean_square: f64) -> Drift {
    let drift = (end - p.start) / p.c_end;
    let squares: f64 = steps.iter().map(|s| s * s).sum();
    let noise = (squares * mean_square).sqrt() / p.c_end;
    // No noise means no step was taken (every W − L was 0), so no drift either.
    let z = if noise > 0.0 { drift / noise } else { 0.0 };
    Drift {
        drift,
        noise,
        z,
        p: libm::erfc(z.abs() / std::f64::consts::SQRT_2),
        holm: f64::NAN,
        at_bound: p.start == p.min || p.start == p.max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64) -> Param {
        Param {
            key: "x".into(),
            start,
            min: 0.0,
            max: 100.0,
            c_end: 5.0,
            r_end: 0.002,
            integer: false,
        }
    }

    #[test]
    fn values_worked_out_by_hand() {
        // Steps 3 and 4 (Σ squares 25), W − L of 2 and −2 (mean square 4): noise = √100 / 5 = 2;
        // a drift of 60 − 50 = 10 is 2 C_END, z = 1, p = erfc(1/√2) = 0.3173.
        let params = [param(50.0), param(0.0)];
        let steps = [vec![3.0, 4.0], vec![3.0, 4.0]];
        let d = estimate(Walks {
            params: &params,
            end: &[60.0, 0.0],
            steps: &steps,
            results: &[2.0, -2.0],
        });
        assert_eq!((d[0].drift, d[0].noise, d[0].z), (2.0, 2.0, 1.0));
        assert!((d[0].p - 0.317_310_5).abs() < 1e-7, "{}", d[0].p);
        // Holm across two: the smaller p doubled, the larger at least that.
        assert!((d[0].holm - (2.0 * d[0].p).min(1.0)).abs() < 1e-12);
        assert_eq!((d[1].z, d[1].p, d[1].holm), (0.0, 1.0, 1.0));
        assert!(!d[0].at_bound && d[1].at_bound);
        assert!(!d[0].moved());
    }

    #[test]
    fn a_tune_without_iterations_has_moved_nothing() {
        let d = estimate(Walks {
            params: &[param(50.0)],
            end: &[50.0],
            steps: &[vec![]],
            results: &[],
        });
        assert_eq!(
            (d[0].drift, d[0].noise, d[0].p, d[0].holm),
            (0.0, 0.0, 1.0, 1.0)
        );
    }
}
