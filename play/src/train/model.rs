//! The float network and its gradient. Parameters lie in one vector in the order of the stored
//! layout — first-layer weights input-major, first-layer biases, output weights (side to move's,
//! then the other's), output bias — so the optimiser, the checkpoint and the export walk it alike.

use bulletformat::ChessBoard;
use engine::nnue::features::of_record;
use engine::nnue::{Activation, INPUTS};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The inputs of one record: the side to move's and the other side's, at most 32 each.
pub struct Inputs {
    /// Count.
    pub len: usize,
    /// The side to move's perspective.
    pub us: [u16; 32],
    /// The other side's.
    pub them: [u16; 32],
}

/// The inputs of `record`.
pub fn inputs(record: &ChessBoard) -> Inputs {
    let mut out = Inputs {
        len: 0,
        us: [0; 32],
        them: [0; 32],
    };
    for (piece, square) in *record {
        let (us, them) = of_record(piece, square);
        out.us[out.len] = us as u16;
        out.them[out.len] = them as u16;
        out.len += 1;
    }
    out
}

/// The shape of a network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The hidden width.
    pub hidden: usize,
    /// The activation.
    pub activation: Activation,
}

impl Shape {
    /// Parameters in all.
    pub fn params(self) -> usize {
        INPUTS * self.hidden + 3 * self.hidden + 1
    }

    /// Where the first-layer biases start.
    pub fn ft_bias(self) -> usize {
        INPUTS * self.hidden
    }

    /// Where the output weights start.
    pub fn out_weights(self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    /// The output bias.
    pub fn out_bias(self) -> usize {
        self.params() - 1
    }

    /// Initial parameters from `seed`: first-layer weights uniform in ±0.1 (32 inputs then sum
    /// to about ±0.3), output weights uniform in ±1/√(2H), biases 0.
    pub fn init(self, seed: u64) -> Vec<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = vec![0.0f32; self.params()];
        for w in &mut p[..self.ft_bias()] {
            *w = rng.random_range(-0.1f32..0.1);
        }
        let bound = 1.0 / (2.0 * self.hidden as f32).sqrt();
        for w in &mut p[self.out_weights()..self.out_bias()] {
            *w = rng.random_range(-bound..bound);
        }
        p
    }

    fn act(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self.activation {
            Activation::Crelu => c,
            Activation::Screlu => c * c,
        }
    }

    fn act_grad(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self.activation {
            Activation::Crelu => 1.0,
            Activation::Screlu => 2.0 * x,
        }
    }

    /// The two accumulators of `inputs` under `params`.
    fn accumulate(self, params: &[f32], x: &Inputs) -> (Vec<f32>, Vec<f32>) {
        let h = self.hidden;
        let bias = &params[self.ft_bias()..self.ft_bias() + h];
        let (mut us, mut them) = (bias.to_vec(), bias.to_vec());
        for i in 0..x.len {
            add_row(&mut us, &params[usize::from(x.us[i]) * h..][..h]);
            add_row(&mut them, &params[usize::from(x.them[i]) * h..][..h]);
        }
        (us, them)
    }

    /// The network's output (in units: × scale is centipawns) for `inputs`.
    pub fn output(self, params: &[f32], x: &Inputs) -> f32 {
        let (us, them) = self.accumulate(params, x);
        let w = &params[self.out_weights()..self.out_bias()];
        let (wu, wt) = w.split_at(self.hidden);
        let dot = |acc: &[f32], w: &[f32]| {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| self.act(a) * w)
                .sum::<f32>()
        };
        dot(&us, wu) + dot(&them, wt) + params[self.out_bias()]
    }

    /// Adds the gradient of (sigmoid(output) − target)² for `inputs` into `grad`; returns the
    /// loss.
    pub fn backprop(self, params: &[f32], x: &Inputs, target: f32, grad: &mut [f32]) -> f32 {
        let h = self.hidden;
        let (us, them) = self.accumulate(params, x);
        let (ow, ob) = (self.out_weights(), self.out_bias());
        let (wu, wt) = params[ow..ob].split_at(h);
        let mut out = params[ob];
        for j in 0..h {
            out += self.act(us[j]) * wu[j] + self.act(them[j]) * wt[j];
        }
        let pred = sigmoid(out);
        let err = pred - target;
        let d = 2.0 * err * pred * (1.0 - pred);
        grad[ob] += d;
        let (d_us, d_them): (Vec<f32>, Vec<f32>) = (0..h)
            .map(|j| {
                grad[ow + j] += d * self.act(us[j]);
                grad[ow + h + j] += d * self.act(them[j]);
                (
                    d * wu[j] * self.act_grad(us[j]),
                    d * wt[j] * self.act_grad(them[j]),
                )
            })
            .unzip();
        let fb = self.ft_bias();
        for j in 0..h {
            grad[fb + j] += d_us[j] + d_them[j];
        }
        for i in 0..x.len {
            add_row(&mut grad[usize::from(x.us[i]) * h..][..h], &d_us);
            add_row(&mut grad[usize::from(x.them[i]) * h..][..h], &d_them);
        }
        err * err
    }
}

fn add_row(out: &mut [f32], row: &[f32]) {
    for (o, &r) in out.iter_mut().zip(row) {
        *o += r;
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of `record` (the side to move's): λ·result + (1−λ)·sigmoid(score / scale).
pub fn target(record: &ChessBoard, lambda: f32, scale: f32) -> f32 {
    let result = f32::from(record.result) / 2.0;
    lambda * result + (1.0 - lambda) * sigmoid(f32::from(record.score) / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fen: &str, score: i16) -> ChessBoard {
        format!("{fen} | {score} | 0.5").parse().unwrap()
    }

    /// The analytic gradient equals a central difference of the loss, for both activations.
    #[test]
    fn the_gradient_is_the_losss_derivative() {
        let r = record(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3",
            80,
        );
        let x = inputs(&r);
        for activation in [Activation::Crelu, Activation::Screlu] {
            let shape = Shape {
                hidden: 8,
                activation,
            };
            let mut params = shape.init(3);
            for b in &mut params[shape.ft_bias()..shape.out_weights()] {
                *b = 0.3;
            }
            let t = 0.8;
            let mut grad = vec![0.0; shape.params()];
            shape.backprop(&params, &x, t, &mut grad);
            let loss = |p: &[f32]| (sigmoid(shape.output(p, &x)) - t).powi(2);
            let probe = [
                usize::from(x.us[0]) * 8 + 1,
                usize::from(x.them[3]) * 8 + 5,
                shape.ft_bias() + 2,
                shape.out_weights() + 4,
                shape.out_weights() + 8 + 6,
                shape.out_bias(),
            ];
            for &i in &probe {
                let eps = 1e-2;
                let (mut up, mut down) = (params.clone(), params.clone());
                up[i] += eps;
                down[i] -= eps;
                let numeric = (loss(&up) - loss(&down)) / (2.0 * eps);
                assert!(
                    (numeric - grad[i]).abs() < 1e-4 + 0.02 * numeric.abs(),
                    "{activation:?} {i}: {numeric} vs {}",
                    grad[i]
                );
            }
        }
    }
}
