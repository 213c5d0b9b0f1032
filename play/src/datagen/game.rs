//! From a finished self-play game to its training positions: every position a player searched,
//! less those a static evaluation cannot be asked to score — in check, a noisy best move (a
//! capture or a promotion: the score belongs to the position after it), a mate score — each
//! recorded with the score of the search that moved from it and the game's result.

use cozy_chess::{Board, Move, Piece};
use engine::search::score::MATE_BOUND;
use serde::{Deserialize, Serialize};

use super::record::Sample;
use crate::arena::game::GameRecord;

/// What a game's positions came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// Positions kept.
    pub positions: u64,
    /// Left out: the side to move was in check.
    pub in_check: u64,
    /// Left out: the move played captured or promoted.
    pub noisy: u64,
    /// Left out: a mate score, or no score.
    pub unscored: u64,
}

impl Kept {
    /// Both counts together.
    pub fn add(&mut self, other: Kept) {
        self.positions += other.positions;
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.unscored += other.unscored;
    }
}

/// Why a searched position is left out, if it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    InCheck,
    Noisy,
    Unscored,
}

/// The training positions of `game` (which started from `start`) and what was left out.
pub fn samples(start: &Board, game: &GameRecord) -> (Vec<Sample>, Kept) {
    let mut board = start.clone();
    let mut out = Vec::new();
    let mut kept = Kept::default();
    for played in &game.moves {
        let report = &played.report;
        match skip(&board, report.mv, report.score) {
            Some(Skip::InCheck) => kept.in_check += 1,
            Some(Skip::Noisy) => kept.noisy += 1,
            Some(Skip::Unscored) => kept.unscored += 1,
            None => {
                let own = report.score.expect("skip() keeps only scored positions");
                let white = if board.side_to_move() == cozy_chess::Color::White {
                    own
                } else {
                    -own
                };
                out.push(Sample {
                    board: board.clone(),
                    white_score: white as i16,
                    result: game.outcome,
                });
                kept.positions += 1;
            }
        }
        board.play_unchecked(report.mv);
    }
    (out, kept)
}

fn skip(board: &Board, mv: Move, score: Option<i32>) -> Option<Skip> {
    if !board.checkers().is_empty() {
        return Some(Skip::InCheck);
    }
    if is_noisy(board, mv) {
        return Some(Skip::Noisy);
    }
    match score {
        Some(s) if s.abs() < MATE_BOUND => None,
        _ => Some(Skip::Unscored),
    }
}

/// A capture (en passant included) or a promotion. Castling is king-takes-own-rook in
/// cozy-chess, so only an enemy piece on the target square is a capture.
fn is_noisy(board: &Board, mv: Move) -> bool {
    let enemy = board.colors(!board.side_to_move());
    let en_passant = board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file();
    mv.promotion.is_some() || enemy.has(mv.to) || en_passant
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(board: &Board, uci: &str) -> Move {
        engine::Variant::Standard
            .parse_uci_move(board, uci)
            .unwrap()
    }

    #[test]
    fn captures_promotions_and_en_passant_are_noisy_castling_is_not() {
        let b: Board = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2"
            .parse()
            .unwrap();
        assert!(is_noisy(&b, mv(&b, "e5d6")), "en passant");
        assert!(is_noisy(&b, mv(&b, "b7b8q")), "promotion");
        assert!(is_noisy(&b, mv(&b, "a1a8")), "capture");
        assert!(!is_noisy(&b, mv(&b, "e1g1")), "castling");
        assert!(!is_noisy(&b, mv(&b, "e5e6")), "a push");
    }

    #[test]
    fn checks_and_mate_scores_are_left_out() {
        let b: Board = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
        let quiet = mv(&b, "h1h2");
        assert_eq!(skip(&b, quiet, Some(500)), None);
        assert_eq!(skip(&b, quiet, Some(MATE_BOUND + 3)), Some(Skip::Unscored));
        assert_eq!(skip(&b, quiet, None), Some(Skip::Unscored));
        let check: Board = "4k3/8/8/8/8/8/8/4R2K b - - 0 1".parse().unwrap();
        assert_eq!(
            skip(&check, mv(&check, "e8d7"), Some(0)),
            Some(Skip::InCheck)
        );
    }
}
