//! Draw scaling: endgames that material and squares overrate, recognised from the material alone,
//! have their endgame score scaled down — opposite-coloured bishops, a side ahead without pawns
//! and without enough to mate, a bishop with the wrong rook pawn — and every endgame score shrinks
//! as the fifty-move counter rises. A scale multiplies the endgame sum, so the evaluation stays
//! linear in its weights (the coefficient form carries the scale, and `texel` fits through it);
//! the scales themselves are set, not fitted.

use cozy_chess::{BitBoard, Board, Color, File, Piece, Square};
use serde::{Deserialize, Serialize};

use super::{piece_value, Score};

/// A scale of 64 leaves the endgame score as it is; 0 makes it 0.
pub const FULL: Score = 64;

/// The scales of [`Evaluation::scaling`](super::Evaluation::scaling), out of [`FULL`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawScaling {
    /// Each side has one bishop, on squares of opposite colours, and no other piece (pawns aside).
    pub opposite_bishops: Score,
    /// The side ahead has no pawn and at most a bishop's worth of pieces more than the other,
    /// and at least a rook (K+R v K+B); with less than a rook (K+N v K) the scale is 0.
    pub no_pawns: Score,
    /// The side ahead has one bishop, no other piece, and its pawns all on one rook file whose
    /// promotion square the bishop does not control, and the other king stands by that corner.
    pub wrong_rook_pawn: Score,
    /// Scale every endgame score by (200 − halfmove clock) / 200 as well (the clock capped at
    /// 100): a half at the fifty-move limit (the product rounded down to 64ths).
    pub fifty_move: bool,
}

impl DrawScaling {
    /// The hand-set scales `eval.scaling=on` takes.
    pub fn standard() -> Self {
        Self {
            opposite_bishops: 32,
            no_pawns: 16,
            wrong_rook_pawn: 0,
            fifty_move: true,
        }
    }

    /// The scale (0 … [`FULL`]) for the endgame score `eg` (White's side) of `board`; [`FULL`]
    /// for an endgame score of 0 (no side ahead; the scaled score is 0 whatever the scale, and a
    /// position and its colour-flipped twin then carry the same scale into the coefficient form).
    /// The fifty-move factor is folded into the scale, so it is rounded down to 64ths.
    pub fn scale(&self, board: &Board, eg: Score) -> Score {
        if eg == 0 {
            return FULL;
        }
        let strong = if eg > 0 { Color::White } else { Color::Black };
        let case = if let Some(s) = self.material_case(board, strong) {
            s
        } else {
            FULL
        };
        if self.fifty_move {
            let clock = Score::from(board.halfmove_clock()).min(100);
            case * (200 - clock) / 200
        } else {
            case
        }
    }

    fn material_case(&self, board: &Board, strong: Color) -> Option<Score> {
        let weak = !strong;
        if opposite_bishops_only(board) {
            return Some(self.opposite_bishops);
        }
        let pawns = board.colored_pieces(strong, Piece::Pawn);
        if pawns.is_empty() {
            let (ours, theirs) = (pieces_value(board, strong), pieces_value(board, weak));
            if ours - theirs <= piece_value(Piece::Bishop) {
                return Some(if ours < piece_value(Piece::Rook) {
                    0
                } else {
                    self.no_pawns
                });
            }
        }
        wrong_rook_pawn(board, strong, pawns).then_some(self.wrong_rook_pawn)
    }
}

/// The value of `color`'s knights, bishops, rooks and queens.
fn pieces_value(board: &Board, color: Color) -> Score {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| piece_value(p) * board.colored_pieces(color, p).len() as Score)
        .sum()
}

/// One bishop each, on opposite colours, and no knight, rook or queen on the board.
fn opposite_bishops_only(board: &Board) -> bool {
    let others =
        board.pieces(Piece::Knight) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let [white, black] = Color::ALL.map(|c| board.colored_pieces(c, Piece::Bishop));
    others.is_empty()
        && white.len() == 1
        && black.len() == 1
        && ((white | black) & BitBoard::DARK_SQUARES).len() == 1
}

/// `strong` has a bishop and no other piece, its pawns on the a-file alone or the h-file alone,
/// the promotion square of another colour than the bishop, and the other king next to it or on
/// it.
fn wrong_rook_pawn(board: &Board, strong: Color, pawns: BitBoard) -> bool {
    let bishops = board.colored_pieces(strong, Piece::Bishop);
    let others = board.colored_pieces(strong, Piece::Knight)
        | board.colored_pieces(strong, Piece::Rook)
        | board.colored_pieces(strong, Piece::Queen);
    if bishops.len() != 1 || !others.is_empty() || pawns.is_empty() {
        return false;
    }
    let file = if pawns.is_subset(File::A.bitboard()) {
        File::A
    } else if pawns.is_subset(File::H.bitboard()) {
        File::H
    } else {
        return false;
    };
    let corner = Square::new(file, cozy_chess::Rank::Eighth.relative_to(strong));
    let dark = |bb: BitBoard| !(bb & BitBoard::DARK_SQUARES).is_empty();
    let king = board.king(!strong);
    dark(bishops) != dark(corner.bitboard())
        && (king.file() as i32 - corner.file() as i32).abs() <= 1
        && (king.rank() as i32 - corner.rank() as i32).abs() <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scale of `fen` when the side of `eg`'s sign is ahead, the fifty-move part off.
    fn scale(fen: &str, eg: Score) -> Score {
        let board: Board = fen.parse().unwrap();
        DrawScaling {
            fifty_move: false,
            ..DrawScaling::standard()
        }
        .scale(&board, eg)
    }

    #[test]
    fn each_case_is_recognised() {
        // The bishop with the wrong rook pawn of the issue (Black ahead, its pawn on a2, White's king by a1).
        assert_eq!(scale("8/8/3k4/8/2b5/8/pK6/8 b - - 0 1", -1), 0);
        // Opposite-coloured bishops with pawns.
        assert_eq!(scale("8/5k2/3b4/1p6/1P6/3B4/5K2/8 w - - 0 1", 1), 32);
        // Same-coloured bishops: no case.
        assert_eq!(scale("8/5k2/4b3/1p6/1P6/3B4/5K2/8 w - - 0 1", 1), 64);
        // K+R v K+B: no pawns, a bishop's worth ahead.
        assert_eq!(scale("8/5k2/3b4/8/8/3R4/5K2/8 w - - 0 1", 1), 16);
        // K+N v K.
        assert_eq!(scale("8/5k2/8/8/8/3N4/5K2/8 w - - 0 1", 1), 0);
        // K+B+P(h) v K with the king in the corner; the bishop on a dark square, h8 is dark.
        assert_eq!(
            scale("7k/8/8/8/7P/8/3B1K2/8 w - - 0 1", 1),
            64,
            "right bishop"
        );
        assert_eq!(
            scale("7k/8/8/8/7P/3B4/5K2/8 w - - 0 1", 1),
            0,
            "wrong bishop"
        );
        // The same cases with colours swapped, Black ahead.
        assert_eq!(scale("8/3b1k2/8/8/8/8/5K2/8 w - - 0 1", -1), 0, "K+B v K");
        assert_eq!(
            scale("8/5k2/3r4/8/8/3B4/5K2/8 w - - 0 1", -1),
            16,
            "K+R v K+B"
        );
        // a1 is dark: a light bishop is the wrong one, a dark one the right one.
        assert_eq!(
            scale("8/2k5/4b3/8/p7/8/8/K7 w - - 0 1", -1),
            0,
            "wrong bishop"
        );
        assert_eq!(
            scale("8/2k5/3b4/8/p7/8/8/K7 w - - 0 1", -1),
            64,
            "right bishop"
        );
        // No side ahead: nothing to scale.
        assert_eq!(scale("8/8/3k4/8/2b5/8/pK6/8 b - - 0 1", 0), 64);
        // K+Q v K: nothing to scale.
        assert_eq!(scale("8/5k2/8/8/8/3Q4/5K2/8 w - - 0 1", 1), 64);
    }

    #[test]
    fn the_fifty_move_counter_halves_at_its_limit() {
        let s = DrawScaling::standard();
        let at = |clock: u32| {
            s.scale(
                &format!("8/5k2/8/8/8/3Q4/5K2/8 w - - {clock} 80")
                    .parse()
                    .unwrap(),
                1,
            )
        };
        assert_eq!((at(0), at(50), at(100)), (64, 48, 32));
    }
}
