//! The coefficient form of the evaluation: for a position, how many times each weight counts
//! (White's count minus Black's) and the game phase. The evaluation is then
//! `taper(Σ cᵢ·wᵢ)`, linear in the weights — what a Texel tuner fits. Written by the same term
//! code as the evaluation ([`terms`](super::terms)), so the two agree on every position.

use cozy_chess::{Board, Color, Piece};

use super::layout::{self, LEN};
use super::scaling::FULL;
use super::terms::{pawn_terms, piece_terms, Sink, Switches};
use super::weights::{Evaluation, Pair};
use super::{game_phase, scale_eg, taper, Score};

/// One position's coefficients, from White's point of view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// `(index, count)` for every weight whose count is not zero, by index.
    pub coefficients: Vec<(u16, i16)>,
    /// The phase, 0 (pawn ending) … 24 (every piece on).
    pub phase: u8,
    /// The endgame sum's scale out of [`FULL`] (draw scaling; `FULL` when it is off). It is
    /// taken from the sign of the endgame sum at the weights the trace is made with, so it holds
    /// for weights near them.
    pub scale: u8,
}

/// Records counts instead of adding weights.
struct Tracer {
    counts: Vec<Score>,
}

impl Sink for Tracer {
    fn add(&mut self, index: usize, color: Color, count: Score) {
        let sign = if color == Color::White { 1 } else { -1 };
        self.counts[index] += sign * count;
    }
}

impl Trace {
    /// The coefficients of `board` under the terms `eval` switches on (its weights are not read).
    pub fn of(board: &Board, eval: &Evaluation) -> Self {
        let on = Switches::of(eval);
        let mut tracer = Tracer {
            counts: vec![0; LEN],
        };
        for color in Color::ALL {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    let white_square = match color {
                        Color::White => square,
                        Color::Black => square.flip_rank(),
                    };
                    if piece != Piece::King {
                        tracer.add(layout::material(piece), color, 1);
                    }
                    tracer.add(layout::psqt(piece, white_square), color, 1);
                }
            }
        }
        let passed = Color::ALL.map(|c| pawn_terms(board, c, &on, &mut tracer));
        if on.piece_terms() {
            piece_terms(board, &on, passed, &mut tracer);
        }
        let coefficients = tracer
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect();
        let mut trace = Self {
            coefficients,
            phase: game_phase(board) as u8,
            scale: FULL as u8,
        };
        if let Some(scaling) = &eval.scaling {
            let weights = layout::Params::of(eval).weights;
            let eg = trace.sums(&weights).1;
            trace.scale = scaling.scale(board, eg) as u8;
        }
        trace
    }

    /// The evaluation from White's point of view with `weights` (indexed as
    /// [`layout`]), in the engine's integer arithmetic: equal to the search's
    /// evaluation of the position when `weights` are its own.
    pub fn evaluate(&self, weights: &[Pair]) -> Score {
        let (mg, eg) = self.sums(weights);
        taper(
            mg,
            scale_eg(eg, Score::from(self.scale)),
            Score::from(self.phase),
        )
    }

    /// The middle-game and endgame sums, unscaled.
    fn sums(&self, weights: &[Pair]) -> (Score, Score) {
        let (mut mg, mut eg) = (0, 0);
        for &(i, c) in &self.coefficients {
            mg += weights[i as usize].mg * Score::from(c);
            eg += weights[i as usize].eg * Score::from(c);
        }
        (mg, eg)
    }
}
