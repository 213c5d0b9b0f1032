//! AdamW (Loshchilov and Hutter): Adam's moments with the weight decay applied to the weights
//! directly rather than through the gradient, then every weight clipped to ±[`WEIGHT_CLIP`]
//! (biases too: the export quantises them alike).

use super::WEIGHT_CLIP;

/// Adam's first and second moments, and the steps taken.
#[derive(Debug, Clone, PartialEq)]
pub struct AdamW {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl AdamW {
    /// Zero moments for `len` parameters.
    pub fn new(len: usize) -> Self {
        Self {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step of `params` along `grad` (a batch's mean gradient) at rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, decay: f32) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPSILON);
            *p = (*p * (1.0 - lr * decay) - lr * update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}
