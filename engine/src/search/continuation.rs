//! Continuation history: quiet moves that cut off right after a given move, by the previous
//! move's piece and target square and this move's piece and target square, weighted by the square
//! of the remaining level like the history table. Off in every preset.

use cozy_chess::{Board, Move, Piece};

use crate::search::history::CEILING;

/// Piece kinds × squares: one side of the table.
const CELLS: usize = 6 * 64;

/// The previous move as the table knows it: the piece now on its target square, and that square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Previous(usize);

impl Previous {
    /// The previous move `mv` seen from `board`, the position it led to; `None` when its target
    /// square is empty (castling, which cozy-chess writes as the king taking its own rook).
    pub fn of(board: &Board, mv: Move) -> Option<Self> {
        board.piece_on(mv.to).map(|piece| Self(cell(piece, mv)))
    }
}

fn cell(piece: Piece, mv: Move) -> usize {
    piece as usize * 64 + mv.to as usize
}

/// The continuation-history table of one search.
#[derive(Debug, Clone)]
pub struct ContinuationTable {
    scores: Box<[i32]>,
}

impl Default for ContinuationTable {
    fn default() -> Self {
        Self {
            scores: vec![0; CELLS * CELLS].into_boxed_slice(),
        }
    }
}

impl ContinuationTable {
    /// The score of `mv`, a move of `piece`, after `previous`.
    pub fn score(&self, previous: Previous, piece: Piece, mv: Move) -> i32 {
        self.scores[previous.0 * CELLS + cell(piece, mv)]
    }

    /// Rewards `mv`, a quiet move of `piece` that cut off at `level` after `previous`.
    pub fn reward(&mut self, previous: Previous, piece: Piece, mv: Move, level: i32) {
        let entry = &mut self.scores[previous.0 * CELLS + cell(piece, mv)];
        *entry += level * level;
        if *entry > CEILING {
            self.scores.iter_mut().for_each(|s| *s /= 2);
        }
    }

    /// The gravity update of a quiet cutoff by `moved` (its piece and move) at `level` after
    /// `previous`: it gains and every quiet move `tried` before it (played from `board`) loses
    /// min(level², 400), each scaled so a score stays within
    /// ±[`GRAVITY_LIMIT`](crate::search::history::GRAVITY_LIMIT).
    pub fn reward_with_malus(
        &mut self,
        board: &Board,
        previous: Previous,
        (piece, mv): (Piece, Move),
        tried: &[Move],
        level: i32,
    ) {
        let bonus = (level * level).min(400);
        self.gravity(previous, piece, mv, bonus);
        for &other in tried {
            if let Some(piece) = board.piece_on(other.from) {
                self.gravity(previous, piece, other, -bonus);
            }
        }
    }

    fn gravity(&mut self, previous: Previous, piece: Piece, mv: Move, bonus: i32) {
        let entry = &mut self.scores[previous.0 * CELLS + cell(piece, mv)];
        *entry += 32 * bonus - *entry * bonus.abs() / 512;
    }

    /// Forgets every score.
    pub fn reset(&mut self) {
        self.scores.iter_mut().for_each(|s| *s = 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_belong_to_the_previous_move_and_age() {
        let mut board = Board::default();
        let e4: Move = "e2e4".parse().unwrap();
        board.play(e4);
        let after_e4 = Previous::of(&board, e4).unwrap();
        let d4: Move = "d2d4".parse().unwrap();
        let mut other = Board::default();
        other.play(d4);
        let after_d4 = Previous::of(&other, d4).unwrap();
        let e5: Move = "e7e5".parse().unwrap();
        let mut table = ContinuationTable::default();
        table.reward(after_e4, Piece::Pawn, e5, 3);
        assert_eq!(table.score(after_e4, Piece::Pawn, e5), 9);
        assert_eq!(table.score(after_d4, Piece::Pawn, e5), 0);
        assert_eq!(table.score(after_e4, Piece::Queen, e5), 0);
        for _ in 0..20 {
            table.reward(after_e4, Piece::Pawn, e5, 300);
        }
        assert!(table.score(after_e4, Piece::Pawn, e5) <= CEILING);
        table.reset();
        assert_eq!(table.score(after_e4, Piece::Pawn, e5), 0);
    }

    #[test]
    fn castling_leaves_no_previous_move() {
        let board: Board = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1".parse().unwrap();
        assert_eq!(Previous::of(&board, "e1h1".parse().unwrap()), None);
    }
}
