//! The quantised network: first layer × QA, output weights × QB, output bias × QA·QB, rounded —
//! the layout of [`engine::nnue::network`] — and how far its integer scores lie from the float
//! network's.

use bulletformat::ChessBoard;
use engine::nnue::features::of_record;
use engine::nnue::{Network, QA, QB};
use serde::{Deserialize, Serialize};

use super::model::{inputs, Shape};

/// The quantised network of `params`.
pub fn quantise(shape: Shape, params: &[f32]) -> Network {
    let q = |v: &[f32], by: i32| -> Vec<i16> {
        v.iter()
            .map(|&x| (x * by as f32).round().clamp(-32767.0, 32767.0) as i16)
            .collect()
    };
    let (fb, ow, ob) = (shape.ft_bias(), shape.out_weights(), shape.out_bias());
    Network::from_parts(
        shape.hidden,
        q(&params[..fb], QA),
        q(&params[fb..ow], QA),
        q(&params[ow..ob], QB),
        q(&params[ob..], QA * QB)[0],
    )
}

/// How the quantised network's scores differ from the float network's, in centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QuantisationError {
    /// Positions compared.
    pub positions: usize,
    /// Mean absolute difference.
    pub mean_abs_cp: f64,
    /// Largest absolute difference.
    pub max_abs_cp: f64,
}

/// The integer score of `record` (side to move's) by `net`, summed the engine's way.
pub fn integer_score(net: &Network, shape: Shape, record: &ChessBoard, scale: i32) -> i32 {
    let h = net.hidden();
    let (mut us, mut them) = (net.bias().to_vec(), net.bias().to_vec());
    for (piece, square) in *record {
        let (u, t) = of_record(piece, square);
        for (acc, row) in [(&mut us, net.row(u)), (&mut them, net.row(t))] {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
    }
    debug_assert_eq!(us.len(), h);
    net.evaluate(&us, &them, shape.activation, scale)
}

/// The quantisation error of `net` against `params` over `records`.
pub fn error(
    shape: Shape,
    params: &[f32],
    net: &Network,
    records: &[ChessBoard],
    scale: f64,
) -> QuantisationError {
    let diffs: Vec<f64> = records
        .iter()
        .map(|r| {
            let float = f64::from(shape.output(params, &inputs(r))) * scale;
            let int = f64::from(integer_score(net, shape, r, scale as i32));
            (float - int).abs()
        })
        .collect();
    QuantisationError {
        positions: diffs.len(),
        mean_abs_cp: diffs.iter().sum::<f64>() / diffs.len().max(1) as f64,
        max_abs_cp: diffs.iter().cloned().fold(0.0, f64::max),
    }
}
