//! The classic evaluation's numbers: Fischerle's material and the simplified evaluation's
//! piece-square tables, written as boards (rank 8 on the first row). Every preset so far evaluates
//! with them; [`classic_psqt`] and [`classic_material`] give them as the `eval` section's weights.

use cozy_chess::Piece;

use super::weights::{Material, Pair, Psqt};
use super::{piece_value, Score};

/// A table of bonuses, one per square, written from White's side with rank 8 on the first row
/// (as a diagram reads), so that the tables below can be read as boards.
struct SquareTable([i16; 64]);

#[rustfmt::skip]
const PAWN_MG: SquareTable = SquareTable([
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
]);
#[rustfmt::skip]
const PAWN_EG: SquareTable = SquareTable([
     0,  0,  0,  0,  0,  0,  0,  0,
    80, 80, 80, 80, 80, 80, 80, 80,
    50, 50, 50, 50, 50, 50, 50, 50,
    30, 30, 30, 30, 30, 30, 30, 30,
    15, 15, 15, 15, 15, 15, 15, 15,
     5,  5,  5,  5,  5,  5,  5,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
]);
#[rustfmt::skip]
const KNIGHT: SquareTable = SquareTable([
   -50,-40,-30,-30,-30,-30,-40,-50,
   -40,-20,  0,  0,  0,  0,-20,-40,
   -30,  0, 10, 15, 15, 10,  0,-30,
   -30,  5, 15, 20, 20, 15,  5,-30,
   -30,  0, 15, 20, 20, 15,  0,-30,
   -30,  5, 10, 15, 15, 10,  5,-30,
   -40,-20,  0,  5,  5,  0,-20,-40,
   -50,-40,-30,-30,-30,-30,-40,-50,
]);
#[rustfmt::skip]
const BISHOP: SquareTable = SquareTable([
   -20,-10,-10,-10,-10,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5, 10, 10,  5,  0,-10,
   -10,  5,  5, 10, 10,  5,  5,-10,
   -10,  0, 10, 10, 10, 10,  0,-10,
   -10, 10, 10, 10, 10, 10, 10,-10,
   -10,  5,  0,  0,  0,  0,  5,-10,
   -20,-10,-10,-10,-10,-10,-10,-20,
]);
#[rustfmt::skip]
const ROOK: SquareTable = SquareTable([
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
]);
#[rustfmt::skip]
const QUEEN: SquareTable = SquareTable([
   -20,-10,-10, -5, -5,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5,  5,  5,  5,  0,-10,
    -5,  0,  5,  5,  5,  5,  0, -5,
     0,  0,  5,  5,  5,  5,  0, -5,
   -10,  5,  5,  5,  5,  5,  0,-10,
   -10,  0,  5,  0,  0,  0,  0,-10,
   -20,-10,-10, -5, -5,-10,-10,-20,
]);
#[rustfmt::skip]
const KING_MG: SquareTable = SquareTable([
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -20,-30,-30,-40,-40,-30,-30,-20,
   -10,-20,-20,-20,-20,-20,-20,-10,
    20, 20,  0,  0,  0,  0, 20, 20,
    20, 30, 10,  0,  0, 10, 30, 20,
]);
#[rustfmt::skip]
const KING_EG: SquareTable = SquareTable([
   -50,-40,-30,-20,-20,-30,-40,-50,
   -30,-20,-10,  0,  0,-10,-20,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-30,  0,  0,  0,  0,-30,-30,
   -50,-30,-30,-30,-30,-30,-30,-50,
]);

/// Middle-game and endgame tables of a piece.
const fn tables(piece: Piece) -> (&'static SquareTable, &'static SquareTable) {
    match piece {
        Piece::Pawn => (&PAWN_MG, &PAWN_EG),
        Piece::Knight => (&KNIGHT, &KNIGHT),
        Piece::Bishop => (&BISHOP, &BISHOP),
        Piece::Rook => (&ROOK, &ROOK),
        Piece::Queen => (&QUEEN, &QUEEN),
        Piece::King => (&KING_MG, &KING_EG),
    }
}

/// A piece's classic table as 64 pairs in diagram order.
fn table(piece: Piece) -> Vec<Pair> {
    let (mg, eg) = tables(piece);
    (0..64)
        .map(|i| Pair::new(Score::from(mg.0[i]), Score::from(eg.0[i])))
        .collect()
}

/// The classic piece-square tables.
pub fn classic_psqt() -> Psqt {
    Psqt {
        pawn: table(Piece::Pawn),
        knight: table(Piece::Knight),
        bishop: table(Piece::Bishop),
        rook: table(Piece::Rook),
        queen: table(Piece::Queen),
        king: table(Piece::King),
    }
}

/// Fischerle's piece values, the same in both phases.
pub fn classic_material() -> Material {
    let value = |p| Pair::new(piece_value(p), piece_value(p));
    Material {
        pawn: value(Piece::Pawn),
        knight: value(Piece::Knight),
        bishop: value(Piece::Bishop),
        rook: value(Piece::Rook),
        queen: value(Piece::Queen),
    }
}
