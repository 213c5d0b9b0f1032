//! The fit: logistic regression of game results on the evaluation's coefficient form (Texel's
//! method). A position's evaluation is `E = Σ cᵢ (mgᵢ ρ + egᵢ (1 − ρ) s)` with ρ = phase / 24 and
//! s the draw scaling's scale of the endgame sum (1 when it is off) (the
//! engine's taper without its integer division), its predicted score `σ(E) = 1 / (1 + 10^(−K E /
//! 400))`, the loss the mean squared error against the label. K is given or fitted first, with the
//! starting weights (golden-section search); then every active weight at once by Adam on the full
//! batch. Sums run over fixed chunks of positions added in order, so a fit is the same on any
//! number of threads.

use rayon::prelude::*;

use super::data::{Dataset, Entry};

/// Positions per chunk of a sum (fixed, so the order of additions never depends on threads).
const CHUNK: usize = 4096;
/// ln(10) / 400: the sigmoid's slope per centipawn at K = 1.
const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;
/// The largest weight the engine accepts (a configuration refuses more).
const LIMIT: f64 = engine::config::MAX_EVAL_WEIGHT as f64;
/// The range K is searched in.
const K_RANGE: (f64, f64) = (0.05, 5.0);

/// Weights as the fit moves them: `[mg, eg]` per index of the engine's layout.
pub type Weights = Vec<[f64; 2]>;

/// The positions a loss is taken over, with their labels.
pub struct Sample<'a> {
    data: &'a Dataset,
    /// Indices into `data.entries`.
    pub rows: Vec<usize>,
    /// Label of each row (the game's result, blended toward the reference by λ).
    labels: Vec<f64>,
}

impl<'a> Sample<'a> {
    /// `rows` of `data`, labelled by `label(entry)`.
    pub fn new(data: &'a Dataset, rows: Vec<usize>, label: impl Fn(&Entry) -> f64) -> Self {
        let labels = rows.iter().map(|&r| label(&data.entries[r])).collect();
        Self { data, rows, labels }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The evaluation of `row`, and the shares of a middle-game and an endgame weight in it.
    fn evaluation(&self, row: usize, weights: &Weights) -> (f64, f64, f64) {
        let entry = &self.data.entries[row];
        let full = engine::eval::PHASE_MAX;
        let rho = f64::from(i32::from(entry.phase).min(full)) / f64::from(full);
        let eg_share =
            (1.0 - rho) * f64::from(entry.scale) / f64::from(engine::eval::scaling::FULL);
        let e = self
            .data
            .coefficients_of(entry)
            .iter()
            .map(|&(i, c)| {
                let w = weights[i as usize];
                f64::from(c) * (w[0] * rho + w[1] * eg_share)
            })
            .sum();
        (e, rho, eg_share)
    }

    /// The mean squared error at `weights` and `k`.
    pub fn loss(&self, weights: &Weights, k: f64) -> f64 {
        let total: f64 = self
            .chunks()
            .map(|range| {
                range
                    .map(|j| {
                        let (e, _, _) = self.evaluation(self.rows[j], weights);
                        (self.labels[j] - sigmoid(k, e)).powi(2)
                    })
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum();
        total / self.len().max(1) as f64
    }

    /// The loss and its gradient with respect to every weight (0 for indices no position uses).
    pub fn gradient(&self, weights: &Weights, k: f64) -> (f64, Weights) {
        let parts: Vec<(f64, Weights)> = self
            .chunks()
            .map(|range| {
                let mut g = vec![[0.0; 2]; weights.len()];
                let mut loss = 0.0;
                for j in range {
                    let row = self.rows[j];
                    let (e, rho, eg_share) = self.evaluation(row, weights);
                    let s = sigmoid(k, e);
                    let err = s - self.labels[j];
                    loss += err * err;
                    // d(err²)/dE = 2 err σ (1 − σ) K ln10 / 400.
                    let d = 2.0 * err * s * (1.0 - s) * k * SLOPE;
                    let entry = &self.data.entries[row];
                    for &(i, c) in self.data.coefficients_of(entry) {
                        let dc = d * f64::from(c);
                        g[i as usize][0] += dc * rho;
                        g[i as usize][1] += dc * eg_share;
                    }
                }
                (loss, g)
            })
            .collect();
        let n = self.len().max(1) as f64;
        let mut total = vec![[0.0; 2]; weights.len()];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (t, x) in total.iter_mut().zip(g) {
                t[0] += x[0];
                t[1] += x[1];
            }
        }
        for t in &mut total {
            t[0] /= n;
            t[1] /= n;
        }
        (loss / n, total)
    }

    /// Index ranges of the fixed chunks, in parallel but collected in order.
    fn chunks(&self) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> + '_ {
        let n = self.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
    }
}

/// The predicted score of an evaluation `e` (centipawns, White's side) at scale `k`.
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * SLOPE * e).exp())
}

/// The K minimising the loss at `weights` (golden-section search on `K_RANGE`, to 1e-4).
pub fn fit_k(sample: &Sample, weights: &Weights) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = K_RANGE;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (sample.loss(weights, c), sample.loss(weights, d));
    while b - a > 1e-4 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = sample.loss(weights, c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = sample.loss(weights, d);
        }
    }
    (a + b) / 2.0
}

/// Adam (Kingma and Ba 2015) over the active weights; the others never move, and none leaves
/// ±[`MAX_EVAL_WEIGHT`](engine::config::MAX_EVAL_WEIGHT).
pub struct Adam {
    /// Step size, centipawns.
    pub rate: f64,
    beta1: f64,
    beta2: f64,
    m: Weights,
    v: Weights,
    t: i32,
    active: Vec<bool>,
}

impl Adam {
    /// Adam with the usual β₁ = 0.9, β₂ = 0.999.
    pub fn new(rate: f64, active: Vec<bool>) -> Self {
        let n = active.len();
        Self {
            rate,
            beta1: 0.9,
            beta2: 0.999,
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
            active,
        }
    }

    /// One step against `gradient`.
    pub fn step(&mut self, weights: &mut Weights, gradient: &Weights) {
        self.t += 1;
        let (c1, c2) = (1.0 - self.beta1.powi(self.t), 1.0 - self.beta2.powi(self.t));
        for i in (0..weights.len()).filter(|&i| self.active[i]) {
            for p in 0..2 {
                let g = gradient[i][p];
                self.m[i][p] = self.beta1 * self.m[i][p] + (1.0 - self.beta1) * g;
                self.v[i][p] = self.beta2 * self.v[i][p] + (1.0 - self.beta2) * g * g;
                let (m, v) = (self.m[i][p] / c1, self.v[i][p] / c2);
                weights[i][p] -= self.rate * m / (v.sqrt() + 1e-12);
                // A weight the engine would refuse is never written.
                weights[i][p] = weights[i][p].clamp(-LIMIT, LIMIT);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texel::data::Entry;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// `n` positions over `params` weights with random sparse counts and phases.
    fn synthetic(n: usize, params: usize, seed: u64) -> Dataset {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut data = Dataset::default();
        for g in 0..n {
            let start = data.coefficients.len() as u32;
            let mut used: Vec<u16> = (0..params as u16)
                .filter(|_| rng.random_bool(0.3))
                .collect();
            used.dedup();
            for &i in &used {
                data.coefficients.push((i, rng.random_range(-2..=2i16)));
            }
            data.entries.push(Entry {
                start,
                len: used.len() as u16,
                phase: rng.random_range(0..=24),
                scale: 64,
                game: g as u32,
                result: 0.0,
                reference: None,
            });
        }
        data
    }

    fn truth(params: usize) -> Weights {
        (0..params)
            .map(|i| {
                [
                    (i as f64 * 37.0) % 120.0 - 60.0,
                    (i as f64 * 53.0) % 90.0 - 45.0,
                ]
            })
            .collect()
    }

    /// Labels from a known linear evaluation through the sigmoid, with noise: the fit from
    /// zero finds the weights again.
    #[test]
    fn recovers_known_weights() {
        let params = 12;
        let data = synthetic(6000, params, 1);
        let truth = truth(params);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let noise: Vec<f64> = (0..data.entries.len())
            .map(|_| rng.random_range(-0.02..0.02))
            .collect();
        let probe = Sample::new(&data, (0..data.entries.len()).collect(), |_| 0.0);
        let labels: Vec<f64> = (0..data.entries.len())
            .map(|r| (sigmoid(1.0, probe.evaluation(r, &truth).0) + noise[r]).clamp(0.0, 1.0))
            .collect();
        let sample = Sample::new(&data, (0..data.entries.len()).collect(), |e| {
            labels[e.game as usize]
        });
        let mut w = vec![[0.0; 2]; params];
        let mut adam = Adam::new(2.0, vec![true; params]);
        for _ in 0..1500 {
            let (_, g) = sample.gradient(&w, 1.0);
            adam.step(&mut w, &g);
        }
        for (i, (got, want)) in w.iter().zip(&truth).enumerate() {
            for p in 0..2 {
                assert!(
                    (got[p] - want[p]).abs() < 3.0,
                    "weight {i}.{p}: {} vs {}",
                    got[p],
                    want[p]
                );
            }
        }
        // K: labels made at K = 1 are best fitted at K near 1 with the true weights.
        let k = fit_k(&sample, &truth);
        assert!((k - 1.0).abs() < 0.05, "{k}");
    }

    /// The analytic gradient equals central finite differences of the loss.
    #[test]
    fn gradient_equals_finite_differences() {
        let params = 8;
        let data = synthetic(500, params, 3);
        let sample = Sample::new(&data, (0..500).collect(), |e| f64::from(e.game % 3) / 2.0);
        let w = truth(params);
        let k = 1.3;
        let (loss, g) = sample.gradient(&w, k);
        assert!((loss - sample.loss(&w, k)).abs() < 1e-12);
        let h = 1e-3;
        for i in 0..params {
            for p in 0..2 {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[i][p] += h;
                down[i][p] -= h;
                let numeric = (sample.loss(&up, k) - sample.loss(&down, k)) / (2.0 * h);
                let scale = numeric.abs().max(1e-9);
                assert!(
                    (g[i][p] - numeric).abs() / scale < 1e-4,
                    "{i}.{p}: {} vs {numeric}",
                    g[i][p]
                );
            }
        }
    }

    /// The loss and gradient are the same bits on one thread and on several.
    #[test]
    fn sums_do_not_depend_on_threads() {
        let data = synthetic(20_000, 10, 4);
        let sample = Sample::new(&data, (0..20_000).collect(), |e| f64::from(e.game % 2));
        let w = truth(10);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let a = one.install(|| sample.gradient(&w, 1.0));
        let b = four.install(|| sample.gradient(&w, 1.0));
        assert_eq!(a.0.to_bits(), b.0.to_bits());
        assert!(a
            .1
            .iter()
            .zip(&b.1)
            .all(|(x, y)| x[0].to_bits() == y[0].to_bits() && x[1].to_bits() == y[1].to_bits()));
    }
}
