//! The evaluation's numbers: the classic evaluation's (Fischerle's material, the simplified
//! evaluation's piece-square tables written as boards, rank 8 on the first row, and its pawn
//! terms), which every preset so far evaluates with, and the hand-set weights `eval.TERM=on` gives
//! a term ([`Evaluation::everything_on`]).

use cozy_chess::Piece;

use super::weights::*;
use super::{piece_value, Score};

/// `N` pairs, `f(i)` for each index `i`.
fn by_index<const N: usize>(f: impl Fn(Score) -> Pair) -> [Pair; N] {
    std::array::from_fn(|i| f(i as Score))
}

impl Evaluation {
    /// The evaluation of every preset so far: Fischerle's material, the classic piece-square
    /// tables, doubled and isolated pawns, passed pawns by rank.
    pub fn classic() -> Self {
        Self {
            material: None,
            psqt: None,
            pawns: Some(Pawns {
                doubled: Pair::new(-10, -20),
                isolated: Pair::new(-12, -15),
                backward: Pair::default(),
                phalanx: [Pair::default(); 8],
                supported: [Pair::default(); 8],
            }),
            passed: Some(Passed {
                rank: [
                    (0, 0),
                    (0, 0),
                    (5, 10),
                    (10, 20),
                    (15, 35),
                    (25, 60),
                    (40, 90),
                    (0, 0),
                ]
                .map(|(mg, eg)| Pair::new(mg, eg)),
                path: None,
            }),
            mobility: None,
            king_safety: None,
            bishop_pair: None,
            rook_files: None,
            outposts: None,
            threats: None,
            tempo: None,
            scaling: None,
        }
    }

    /// `self` with `term` (one of [`TERMS`]) switched on at its hand-set weights
    /// ([`Evaluation::everything_on`]'s), as `eval.TERM=on` does; `None` for an unknown name.
    pub fn with_term(mut self, term: &str) -> Option<Self> {
        let on = Self::everything_on();
        match term {
            "passed.path" => self.passed = on.passed,
            "pawns" => self.pawns = on.pawns,
            "mobility" => self.mobility = on.mobility,
            "king_safety" => self.king_safety = on.king_safety,
            "bishop_pair" => self.bishop_pair = on.bishop_pair,
            "rook_files" => self.rook_files = on.rook_files,
            "outposts" => self.outposts = on.outposts,
            "threats" => self.threats = on.threats,
            "tempo" => self.tempo = on.tempo,
            "scaling" => self.scaling = on.scaling,
            _ => return None,
        }
        Some(self)
    }

    /// Every term on, with hand-set weights (round numbers, before any tuning): where
    /// `eval.TERM=on` takes its values from.
    pub fn everything_on() -> Self {
        let classic = Self::classic();
        let pawns = classic.pawns.expect("classic has pawn terms");
        let passed = classic.passed.expect("classic has passed pawns");
        Self {
            material: Some(classic_material()),
            psqt: Some(Box::new(classic_psqt())),
            pawns: Some(Pawns {
                backward: Pair::new(-8, -8),
                phalanx: by_index(|r| Pair::new(2 * r, 3 * r)),
                supported: by_index(|r| Pair::new(3 * r, 3 * r)),
                ..pawns
            }),
            passed: Some(Passed {
                path: Some(PassedPath {
                    free: by_index(|r| Pair::new(r * r / 2, r * r * 2)),
                    own_king: Pair::new(0, -5),
                    their_king: Pair::new(0, 8),
                    unstoppable: Pair::new(0, 300),
                }),
                ..passed
            }),
            mobility: Some(Mobility {
                knight: by_index(|n| Pair::new(4 * (n - 4), 4 * (n - 4))),
                bishop: by_index(|n| Pair::new(4 * (n - 6), 4 * (n - 6))),
                rook: by_index(|n| Pair::new(2 * (n - 7), 4 * (n - 7))),
                queen: (0..28).map(|n| Pair::new(n - 13, 2 * (n - 13))).collect(),
            }),
            king_safety: Some(KingSafety {
                zone_attacks: [(6, 0), (6, 0), (8, 0), (12, 0)].map(|(m, e)| Pair::new(m, e)),
                attackers: [0, 0, 15, 35, 60, 90, 110, 120].map(|m| Pair::new(m, 0)),
                shield: [Pair::new(12, 0), Pair::new(6, 0)],
                storm: [Pair::new(-12, 0), Pair::new(-8, 0), Pair::new(-4, 0)],
                open_file: Pair::new(-20, 0),
            }),
            bishop_pair: Some(Bonus {
                bonus: Pair::new(30, 50),
            }),
            rook_files: Some(RookFiles {
                open: Pair::new(25, 10),
                semi_open: Pair::new(12, 6),
            }),
            outposts: Some(Outposts {
                knight: Pair::new(20, 10),
                bishop: Pair::new(12, 6),
            }),
            threats: Some(Threats {
                pawn: Pair::new(40, 30),
                minor: Pair::new(30, 20),
                rook: Pair::new(35, 15),
                hanging: Pair::new(15, 10),
            }),
            tempo: Some(Bonus {
                bonus: Pair::new(12, 0),
            }),
            scaling: Some(super::scaling::DrawScaling::standard()),
        }
    }
}

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
