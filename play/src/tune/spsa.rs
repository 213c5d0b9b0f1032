//! SPSA as the Stockfish project's fishtest runs it, with OpenBench's integer rounding.
//!
//! Sources (read, not copied): `server/fishtest/spsa_handler.py` in official-stockfish/fishtest
//! (`_generate_data`, `__update_spsa_data`) and `OpenBench/spsa_utils.py` in AndyGrant/OpenBench
//! (`spsa_workload_assignment_dict`, `spsa_param_digest`). Per parameter, with N iterations:
//!
//! - A = 0.1·N, α = 0.602, γ = 0.101 (fishtest's defaults for `A`, `alpha`, `gamma`);
//! - c = C_END·N^γ and a = R_END·C_END²·(A + N)^α are fixed when the tune starts (fishtest's
//!   run creation), so that c_N = C_END and R_N = R_END;
//! - c_k = c / k^γ (fishtest: `param["c"] / iter_local ** gamma`, `iter_local = iter + 1`);
//! - R_k = a / (A + k)^α / c_k² (fishtest: `param["a"] / (A + iter_local) ** alpha / c**2`);
//! - the probes θ ± c_k·Δ, Δ ∈ {−1, +1}^p drawn per iteration, clipped to [MIN, MAX]
//!   (fishtest's `_param_clip`); an integer parameter's probes are rounded stochastically first,
//!   ⌊θ ± c_k·Δ + u⌋ with one u ~ U[0, 1) for both (OpenBench's `rand_mat`);
//! - θ ← clip(θ + R_k·c_k·(W − L)·Δ), W − L the game points of the θ + c_k·Δ side
//!   (fishtest: `_param_clip(param, R * c * result * flip)`).
//!
//! k counts iterations of P game pairs, as OpenBench does (`iteration = 1 + games /
//! (pairs_per * 2)`); fishtest counts k in pairs (`iter += num_games // 2`). The two agree at one pair per
//! iteration. An integer's c_k is at least 0.5, as in OpenBench (`np.maximum(c_ends /
//! c_compression, 0.5)`, R_k then computed with it): with a shared u, ⌊θ + ½ + u⌋ − ⌊θ − ½ + u⌋ = 1
//! always, so the two probes never round to the same integer — with Stockfish's default C_END of
//! (MAX − MIN)/20, a parameter ranging over 1–4 would otherwise play identical probes four times
//! in five.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

/// α of the gain sequence.
pub const ALPHA: f64 = 0.602;
/// γ of the perturbation sequence.
pub const GAMMA: f64 = 0.101;
/// A as a share of the iterations.
pub const A_SHARE: f64 = 0.1;
/// R_END when none is given (Stockfish's `TUNE` default).
pub const DEFAULT_R_END: f64 = 0.002;
/// C_END = (MAX − MIN) / this when none is given (Stockfish's `TUNE` default).
pub const C_END_DIVISOR: f64 = 20.0;

/// The smallest perturbation of an integer parameter (OpenBench).
pub const MIN_INTEGER_C: f64 = 0.5;

/// One tuned parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// `SearchConfig` key or `uci.NAME`.
    pub key: String,
    /// Where θ starts.
    pub start: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
    /// Whether probes are whole numbers.
    pub integer: bool,
}

impl Param {
    fn clip(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }
}

/// The schedule of a tune of `iterations` iterations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// N.
    pub iterations: u64,
}

impl Schedule {
    fn big_a(&self) -> f64 {
        A_SHARE * self.iterations as f64
    }

    /// c_k of `p` at iteration `k` (from 1); at least [`MIN_INTEGER_C`] for an integer.
    pub fn c(&self, p: &Param, k: u64) -> f64 {
        let c = p.c_end * (self.iterations as f64).powf(GAMMA) / (k as f64).powf(GAMMA);
        if p.integer {
            c.max(MIN_INTEGER_C)
        } else {
            c
        }
    }

    /// R_k of `p` at iteration `k` (from 1).
    pub fn r(&self, p: &Param, k: u64) -> f64 {
        let a = p.r_end * p.c_end.powi(2) * (self.big_a() + self.iterations as f64).powf(ALPHA);
        a / (self.big_a() + k as f64).powf(ALPHA) / self.c(p, k).powi(2)
    }
}

/// The two probes of one iteration.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// Iteration (from 1).
    pub k: u64,
    /// Δ: +1 or −1 per parameter.
    pub flips: Vec<f64>,
    /// c_k per parameter.
    pub c: Vec<f64>,
    /// R_k per parameter.
    pub r: Vec<f64>,
    /// θ + c_k·Δ (rounded, clipped).
    pub plus: Vec<f64>,
    /// θ − c_k·Δ (rounded, clipped).
    pub minus: Vec<f64>,
}

/// The random stream of iteration `k` of a tune seeded `seed`: a function of both alone, so a
/// resumed tune draws what the uninterrupted one drew.
fn stream(seed: u64, k: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(k);
    rng
}

/// The probes of iteration `k` around `theta`.
pub fn probe(schedule: Schedule, params: &[Param], theta: &[f64], k: u64, seed: u64) -> Probe {
    let mut rng = stream(seed, k);
    let mut out = Probe {
        k,
        flips: Vec::new(),
        c: Vec::new(),
        r: Vec::new(),
        plus: Vec::new(),
        minus: Vec::new(),
    };
    for (p, &t) in params.iter().zip(theta) {
        let flip = if rng.random::<bool>() { 1.0 } else { -1.0 };
        let u: f64 = rng.random();
        let c = schedule.c(p, k);
        let round = |x: f64| if p.integer { (x + u).floor() } else { x };
        out.plus.push(p.clip(round(t + c * flip)));
        out.minus.push(p.clip(round(t - c * flip)));
        out.flips.push(flip);
        out.c.push(c);
        out.r.push(schedule.r(p, k));
    }
    out
}

/// θ after an iteration whose + side scored `result` = W − L game points.
pub fn update(params: &[Param], theta: &[f64], probe: &Probe, result: f64) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| p.clip(theta[i] + probe.r[i] * probe.c[i] * result * probe.flips[i]))
        .collect()
}

/// One pair from the θ+ side's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairScore {
    /// Games the + side won, drew and lost.
    pub wdl: [u32; 3],
    /// Time on the worker, ms.
    pub busy_ms: f64,
    /// Of which inside searches, ms.
    pub search_ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(integer: bool) -> Param {
        Param {
            key: "x".into(),
            start: 100.0,
            min: 0.0,
            max: 200.0,
            c_end: 10.0,
            r_end: 0.002,
            integer,
        }
    }

    #[test]
    fn an_integer_with_a_small_c_end_still_plays_different_probes() {
        let s = Schedule { iterations: 100 };
        let p = Param {
            c_end: 0.15,
            min: 1.0,
            max: 4.0,
            start: 2.0,
            ..param(true)
        };
        assert_eq!(s.c(&p, 100), 0.5);
        for k in 1..=100 {
            let pr = probe(s, std::slice::from_ref(&p), &[2.3], k, 9);
            assert_eq!((pr.plus[0] - pr.minus[0]).abs(), 1.0, "iteration {k}");
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = Schedule { iterations: 1000 };
        let p = param(false);
        assert!((s.c(&p, 1000) - 10.0).abs() < 1e-12);
        assert!((s.r(&p, 1000) - 0.002).abs() < 1e-15);
    }

    #[test]
    fn values_worked_out_by_hand() {
        // N = 100: A = 10; c = 10·100^0.101 = 15.9221…; at k = 1: c_1 = c = 15.9221…;
        // a = 0.002·10²·110^0.602 = 3.38812…; R_1 = a / 11^0.602 / c_1² = 0.0031552…
        let s = Schedule { iterations: 100 };
        let p = param(false);
        let c1 = 10.0 * 100f64.powf(0.101);
        assert!((s.c(&p, 1) - c1).abs() < 1e-12);
        assert!((c1 - 15.922_087).abs() < 1e-5, "{c1}");
        let r1 = 0.002 * 100.0 * 110f64.powf(0.602) / 11f64.powf(0.602) / (c1 * c1);
        assert!((s.r(&p, 1) - r1).abs() < 1e-15);
        assert!((r1 - 0.003_155_2).abs() < 1e-7, "{r1}");
        // One iteration, + side scores W − L = 3 with Δ = +1: θ moves by R·c·3.
        let probe = Probe {
            k: 1,
            flips: vec![1.0],
            c: vec![c1],
            r: vec![r1],
            plus: vec![100.0 + c1],
            minus: vec![100.0 - c1],
        };
        let theta = update(std::slice::from_ref(&p), &[100.0], &probe, 3.0);
        assert!((theta[0] - (100.0 + r1 * c1 * 3.0)).abs() < 1e-12);
        assert!((theta[0] - 100.150_71).abs() < 1e-4, "{}", theta[0]);
        // Clipped at MAX.
        assert_eq!(update(&[p], &[199.9], &probe, 100.0)[0], 200.0);
    }

    #[test]
    fn probes_are_reproducible_symmetric_and_rounded_for_integers() {
        let s = Schedule { iterations: 50 };
        let params = [param(false), param(true)];
        let a = probe(s, &params, &[100.0, 100.3], 7, 42);
        assert_eq!(a, probe(s, &params, &[100.0, 100.3], 7, 42));
        assert!((a.plus[0] + a.minus[0] - 200.0).abs() < 1e-12);
        assert_eq!(a.plus[1].fract(), 0.0);
        assert_eq!(a.minus[1].fract(), 0.0);
        // Stochastic rounding is unbiased: over many iterations the mean probe is θ ± c_k.
        let mut sum = 0.0;
        for k in 1..=4000 {
            let p = probe(Schedule { iterations: 4000 }, &params[1..], &[100.3], k, 1);
            sum += (p.plus[0] + p.minus[0]) / 2.0;
        }
        assert!((sum / 4000.0 - 100.3).abs() < 0.02, "{}", sum / 4000.0);
    }
}
