//! The network's side of the search (`nnue` on): one accumulator pair per ply, the root's summed
//! from scratch at each iteration, every other ply's made from its parent's as the move is
//! entered (a pass copies it), so the evaluation of a node reads its own frame.

use std::sync::Arc;

use cozy_chess::{Board, Move};

use super::score::MATE_BOUND;
use super::MAX_PLY;
use crate::eval::Score;
use crate::nnue::{Accumulator, Activation, Network, Nnue};

/// The network and the accumulators of the current path.
pub(crate) struct NetworkStack {
    net: Arc<Network>,
    activation: Activation,
    scale: i32,
    accumulators: Vec<Accumulator>,
}

impl NetworkStack {
    /// The stack of `nnue`'s network (a validated configuration's: it loads).
    pub fn new(nnue: &Nnue) -> Self {
        let net = nnue
            .load()
            .expect("a validated configuration's network loads");
        let empty = Accumulator::of(&net, &Board::default());
        Self {
            net,
            activation: nnue.activation,
            scale: nnue.scale,
            accumulators: vec![empty; MAX_PLY + 2],
        }
    }

    /// Sums the root position from scratch.
    pub fn root(&mut self, board: &Board) {
        self.accumulators[0].refresh(&self.net, board);
    }

    /// Ply + 1's accumulators after `mv` from `board`, the position at `ply`.
    pub fn enter(&mut self, ply: usize, board: &Board, mv: Move) {
        let (done, rest) = self.accumulators.split_at_mut(ply + 1);
        rest[0].set_after(&done[ply], &self.net, board, mv);
    }

    /// Ply + 1's accumulators after a pass: the same pieces.
    pub fn pass(&mut self, ply: usize) {
        let (done, rest) = self.accumulators.split_at_mut(ply + 1);
        rest[0].clone_from(&done[ply]);
    }

    /// The network's score of `board`, the position at `ply`, kept below the mate scores.
    pub fn evaluate(&self, ply: usize, board: &Board) -> Score {
        let score = self.accumulators[ply].evaluate(
            &self.net,
            board.side_to_move(),
            self.activation,
            self.scale,
        );
        score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether ply's accumulators are `board`'s summed from scratch (the engine's own tests
    /// check every evaluation with it).
    #[cfg(test)]
    pub fn is_fresh(&self, ply: usize, board: &Board) -> bool {
        self.accumulators[ply] == Accumulator::of(&self.net, board)
    }
}
