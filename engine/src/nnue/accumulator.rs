//! A position's two accumulators (White's perspective, then Black's): the first layer's biases
//! plus the rows of the inputs on the board. A child's is its parent's plus the rows a move adds
//! and minus those it removes — two to four rows per perspective, never the whole board.

use cozy_chess::{Board, Color, File, Move, Piece, Square};

use super::features::index;
use super::{Activation, Network};

/// Both perspectives' sums, `2 × H` values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

/// A piece on a square, as a move adds or removes it.
type Placed = (Color, Piece, Square);

impl Accumulator {
    /// The accumulators of `board`, summed from scratch.
    pub fn of(net: &Network, board: &Board) -> Self {
        let mut acc = Self::default();
        acc.refresh(net, board);
        acc
    }

    /// Sums `board` from scratch into this accumulator.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        let h = net.hidden();
        self.values.clear();
        self.values.extend_from_slice(net.bias());
        self.values.extend_from_slice(net.bias());
        for color in Color::ALL {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    for (p, half) in [Color::White, Color::Black].iter().zip([0, h]) {
                        let row = net.row(index(*p, color, piece, square));
                        add(&mut self.values[half..half + h], row);
                    }
                }
            }
        }
    }

    /// Makes this the accumulator after `mv` from `board`, whose accumulator is `parent`.
    pub fn set_after(&mut self, parent: &Accumulator, net: &Network, board: &Board, mv: Move) {
        let (removed, added) = changes(board, mv);
        let h = net.hidden();
        self.values.clear();
        self.values.extend_from_slice(&parent.values);
        for (p, half) in [Color::White, Color::Black].into_iter().zip([0, h]) {
            let out = &mut self.values[half..half + h];
            for &(c, piece, sq) in removed.iter().flatten() {
                sub(out, net.row(index(p, c, piece, sq)));
            }
            for &(c, piece, sq) in added.iter().flatten() {
                add(out, net.row(index(p, c, piece, sq)));
            }
        }
    }

    /// The network's score of this position for `stm`, the side to move.
    pub fn evaluate(&self, net: &Network, stm: Color, activation: Activation, scale: i32) -> i32 {
        let (white, black) = self.values.split_at(net.hidden());
        match stm {
            Color::White => net.evaluate(white, black, activation, scale),
            Color::Black => net.evaluate(black, white, activation, scale),
        }
    }
}

fn add(out: &mut [i16], row: &[i16]) {
    for (o, &w) in out.iter_mut().zip(row) {
        *o = o.wrapping_add(w);
    }
}

fn sub(out: &mut [i16], row: &[i16]) {
    for (o, &w) in out.iter_mut().zip(row) {
        *o = o.wrapping_sub(w);
    }
}

/// The pieces `mv` takes off and puts on (at most two each): castling moves king and rook (in
/// cozy-chess the king takes its own rook), en passant removes the pawn beside the target, a
/// promotion puts the new piece on.
fn changes(board: &Board, mv: Move) -> ([Option<Placed>; 2], [Option<Placed>; 2]) {
    let us = board.side_to_move();
    let piece = board.piece_on(mv.from).expect("a move starts on a piece");
    if board.colors(us).has(mv.to) {
        let rank = mv.from.rank();
        let (king, rook) = if mv.to.file() > mv.from.file() {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        return (
            [
                Some((us, Piece::King, mv.from)),
                Some((us, Piece::Rook, mv.to)),
            ],
            [
                Some((us, Piece::King, Square::new(king, rank))),
                Some((us, Piece::Rook, Square::new(rook, rank))),
            ],
        );
    }
    let captured = match board.piece_on(mv.to) {
        Some(victim) => Some((!us, victim, mv.to)),
        None if piece == Piece::Pawn && mv.from.file() != mv.to.file() => {
            Some((!us, Piece::Pawn, Square::new(mv.to.file(), mv.from.rank())))
        }
        None => None,
    };
    let placed = mv.promotion.unwrap_or(piece);
    (
        [Some((us, piece, mv.from)), captured],
        [Some((us, placed, mv.to)), None],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Plays `choices` (each picks one legal move, modulo their count) from `fen`, checking after
    /// every move that the accumulators made from the parent's equal the board's summed afresh.
    fn incremental_equals_fresh(fen: &str, choices: &[usize]) {
        let net = crate::nnue::network::random(16, 5);
        let mut board: Board = fen.parse().unwrap();
        let mut acc = Accumulator::of(&net, &board);
        for &choice in choices {
            let mut moves = Vec::new();
            board.generate_moves(|m| {
                moves.extend(m);
                false
            });
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice % moves.len()];
            let mut child = Accumulator::default();
            child.set_after(&acc, &net, &board, mv);
            board.play_unchecked(mv);
            assert_eq!(
                child,
                Accumulator::of(&net, &board),
                "after {mv} to {board}"
            );
            acc = child;
        }
    }

    #[test]
    fn castling_en_passant_and_promotion_update_like_a_refresh() {
        // Both castlings, an en passant capture, promotions with and without capture.
        incremental_equals_fresh("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 2", &[0; 1]);
        for first in 0..60 {
            incremental_equals_fresh(
                "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 2",
                &[first, 7, 3, 11, 5],
            );
        }
    }

    proptest! {
        #[test]
        fn random_games_update_like_a_refresh(
            start in 0usize..3,
            choices in proptest::collection::vec(0usize..256, 1..80),
        ) {
            let fen = [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/2P5/8/3pP3/8/8/5p2/K6k w - d6 0 1",
            ][start];
            incremental_equals_fresh(fen, &choices);
        }
    }
}
