//! The evaluation's weights as one flat vector: every weight of every term has an index, fixed
//! whatever is switched on, so the evaluation, its coefficient form ([`trace`](super::trace)) and
//! a tuner agree on what index `i` means. [`Params`] maps an [`Evaluation`] to the vector and
//! back through one visitor, [`visit`].

use cozy_chess::{Piece, Square};

use super::tables::{classic_material, classic_psqt};
use super::weights::{Evaluation, Pair};

/// A named run of indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The dotted key of the weights in the `eval` section (`mobility.knight`).
    pub name: &'static str,
    /// Its first index.
    pub start: usize,
    /// How many weights it has.
    pub len: usize,
}

macro_rules! layout {
    ($($name:ident = $key:literal [$len:expr];)*) => {
        layout!(@at 0; $($name = $key [$len];)*);
        /// Every block in index order.
        pub const BLOCKS: &[Block] = &[$(Block { name: $key, start: $name, len: $len }),*];
    };
    (@at $offset:expr; $name:ident = $key:literal [$len:expr]; $($rest:tt)*) => {
        #[doc = concat!("First index of `", $key, "`.")]
        pub const $name: usize = $offset;
        layout!(@at $offset + $len; $($rest)*);
    };
    (@at $offset:expr;) => {
        /// How many weights there are.
        pub const LEN: usize = $offset;
    };
}

layout! {
    MATERIAL = "material" [5];
    PSQT = "psqt" [6 * 64];
    DOUBLED = "pawns.doubled" [1];
    ISOLATED = "pawns.isolated" [1];
    BACKWARD = "pawns.backward" [1];
    PHALANX = "pawns.phalanx" [8];
    SUPPORTED = "pawns.supported" [8];
    PASSED = "passed.rank" [8];
    PASSED_FREE = "passed.path.free" [8];
    PASSED_OWN_KING = "passed.path.own_king" [1];
    PASSED_THEIR_KING = "passed.path.their_king" [1];
    UNSTOPPABLE = "passed.path.unstoppable" [1];
    MOBILITY_KNIGHT = "mobility.knight" [9];
    MOBILITY_BISHOP = "mobility.bishop" [14];
    MOBILITY_ROOK = "mobility.rook" [15];
    MOBILITY_QUEEN = "mobility.queen" [28];
    ZONE_ATTACKS = "king_safety.zone_attacks" [4];
    ATTACKERS = "king_safety.attackers" [8];
    SHIELD = "king_safety.shield" [2];
    STORM = "king_safety.storm" [3];
    KING_OPEN_FILE = "king_safety.open_file" [1];
    BISHOP_PAIR = "bishop_pair.bonus" [1];
    ROOK_OPEN = "rook_files.open" [1];
    ROOK_SEMI_OPEN = "rook_files.semi_open" [1];
    OUTPOST_KNIGHT = "outposts.knight" [1];
    OUTPOST_BISHOP = "outposts.bishop" [1];
    THREAT_PAWN = "threats.pawn" [1];
    THREAT_MINOR = "threats.minor" [1];
    THREAT_ROOK = "threats.rook" [1];
    THREAT_HANGING = "threats.hanging" [1];
    TEMPO = "tempo.bonus" [1];
}

/// The index of a piece's material weight (not the king's: it has none).
pub fn material(piece: Piece) -> usize {
    debug_assert!(piece != Piece::King);
    MATERIAL + piece as usize
}

/// The index of a piece's square weight, `square` seen from White (Black mirrors it first).
pub fn psqt(piece: Piece, square: Square) -> usize {
    PSQT + piece as usize * 64 + square as usize
}

/// The name of index `i`, as a report prints it: `mobility.knight[3]`, `psqt.knight[e4]`.
pub fn name(i: usize) -> String {
    let block = BLOCKS
        .iter()
        .find(|b| (b.start..b.start + b.len).contains(&i))
        .expect("an index below LEN");
    let at = i - block.start;
    match block.start {
        MATERIAL => format!("material.{}", piece_name(Piece::ALL[at])),
        PSQT => {
            let square = Square::index(at % 64);
            format!("psqt.{}[{square}]", piece_name(Piece::ALL[at / 64]))
        }
        _ if block.len == 1 => block.name.to_string(),
        _ => format!("{}[{at}]", block.name),
    }
}

/// The pieces' names as the `eval` section spells them, in `Piece` order.
pub const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

fn piece_name(piece: Piece) -> &'static str {
    PIECE_NAMES[piece as usize]
}

/// Calls `f(index, weight)` for every weight of every term switched on in `eval`, in index
/// order; material and piece-square tables are written out first (absent = the classic ones), so
/// `eval` always holds them afterwards. The one map between the section and the flat vector.
pub fn visit(eval: &mut Evaluation, f: &mut dyn FnMut(usize, &mut Pair)) {
    let mut run = |start: usize, pairs: &mut [Pair]| {
        for (i, p) in pairs.iter_mut().enumerate() {
            f(start + i, p);
        }
    };
    let m = eval.material.get_or_insert_with(classic_material);
    for (piece, p) in [
        &mut m.pawn,
        &mut m.knight,
        &mut m.bishop,
        &mut m.rook,
        &mut m.queen,
    ]
    .into_iter()
    .enumerate()
    {
        run(MATERIAL + piece, std::slice::from_mut(p));
    }
    let t = eval.psqt.get_or_insert_with(|| Box::new(classic_psqt()));
    let tables = [
        &mut t.pawn,
        &mut t.knight,
        &mut t.bishop,
        &mut t.rook,
        &mut t.queen,
        &mut t.king,
    ];
    for (piece, table) in tables.into_iter().enumerate() {
        // Diagram order (rank 8 first) to square order (a1 first): row r is rank 8 − r.
        for (row, rank) in table.chunks_mut(8).enumerate() {
            run(PSQT + piece * 64 + (7 - row) * 8, rank);
        }
    }
    if let Some(p) = &mut eval.pawns {
        run(DOUBLED, std::slice::from_mut(&mut p.doubled));
        run(ISOLATED, std::slice::from_mut(&mut p.isolated));
        run(BACKWARD, std::slice::from_mut(&mut p.backward));
        run(PHALANX, &mut p.phalanx);
        run(SUPPORTED, &mut p.supported);
    }
    if let Some(p) = &mut eval.passed {
        run(PASSED, &mut p.rank);
        if let Some(path) = &mut p.path {
            run(PASSED_FREE, &mut path.free);
            run(PASSED_OWN_KING, std::slice::from_mut(&mut path.own_king));
            run(
                PASSED_THEIR_KING,
                std::slice::from_mut(&mut path.their_king),
            );
            run(UNSTOPPABLE, std::slice::from_mut(&mut path.unstoppable));
        }
    }
    if let Some(m) = &mut eval.mobility {
        run(MOBILITY_KNIGHT, &mut m.knight);
        run(MOBILITY_BISHOP, &mut m.bishop);
        run(MOBILITY_ROOK, &mut m.rook);
        run(MOBILITY_QUEEN, &mut m.queen);
    }
    if let Some(k) = &mut eval.king_safety {
        run(ZONE_ATTACKS, &mut k.zone_attacks);
        run(ATTACKERS, &mut k.attackers);
        run(SHIELD, &mut k.shield);
        run(STORM, &mut k.storm);
        run(KING_OPEN_FILE, std::slice::from_mut(&mut k.open_file));
    }
    if let Some(b) = &mut eval.bishop_pair {
        run(BISHOP_PAIR, std::slice::from_mut(&mut b.bonus));
    }
    if let Some(r) = &mut eval.rook_files {
        run(ROOK_OPEN, std::slice::from_mut(&mut r.open));
        run(ROOK_SEMI_OPEN, std::slice::from_mut(&mut r.semi_open));
    }
    if let Some(o) = &mut eval.outposts {
        run(OUTPOST_KNIGHT, std::slice::from_mut(&mut o.knight));
        run(OUTPOST_BISHOP, std::slice::from_mut(&mut o.bishop));
    }
    if let Some(t) = &mut eval.threats {
        run(THREAT_PAWN, std::slice::from_mut(&mut t.pawn));
        run(THREAT_MINOR, std::slice::from_mut(&mut t.minor));
        run(THREAT_ROOK, std::slice::from_mut(&mut t.rook));
        run(THREAT_HANGING, std::slice::from_mut(&mut t.hanging));
    }
    if let Some(t) = &mut eval.tempo {
        run(TEMPO, std::slice::from_mut(&mut t.bonus));
    }
}

/// An evaluation's weights as the flat vector, with which of them its terms use.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Every weight (0 where its term is off).
    pub weights: Vec<Pair>,
    /// Whether index `i` belongs to a term that is on.
    pub active: Vec<bool>,
}

impl Params {
    /// The weights of `eval`.
    pub fn of(eval: &Evaluation) -> Self {
        let mut params = Self {
            weights: vec![Pair::default(); LEN],
            active: vec![false; LEN],
        };
        visit(&mut eval.clone(), &mut |i, p| {
            params.weights[i] = *p;
            params.active[i] = true;
        });
        params
    }

    /// `eval` with every weight of its switched-on terms replaced by `weights[index]` (material
    /// and tables written out).
    pub fn apply(weights: &[Pair], eval: &Evaluation) -> Evaluation {
        let mut out = eval.clone();
        visit(&mut out, &mut |i, p| *p = weights[i]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_vector() {
        let mut next = 0;
        for b in BLOCKS {
            assert_eq!(b.start, next, "{}", b.name);
            next += b.len;
        }
        assert_eq!(next, LEN);
    }

    #[test]
    fn everything_on_visits_every_index_once() {
        let mut seen = vec![0; LEN];
        visit(&mut Evaluation::everything_on(), &mut |i, _| seen[i] += 1);
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    #[test]
    fn params_round_trip() {
        let on = Evaluation::everything_on();
        let params = Params::of(&on);
        assert_eq!(Params::apply(&params.weights, &on), on);
        let classic = Params::of(&Evaluation::classic());
        assert!(!classic.active[MOBILITY_KNIGHT] && classic.active[PASSED + 3]);
        assert_eq!(
            classic.weights[material(Piece::Bishop)],
            Pair::new(325, 325)
        );
        // e2 is rank 2 (row 6 of the diagram): the pawn table's -20 there.
        assert_eq!(classic.weights[psqt(Piece::Pawn, Square::E2)].mg, -20);
    }

    #[test]
    fn names_read_as_keys() {
        assert_eq!(name(material(Piece::Rook)), "material.rook");
        assert_eq!(name(psqt(Piece::Knight, Square::E4)), "psqt.knight[e4]");
        assert_eq!(name(MOBILITY_BISHOP + 3), "mobility.bishop[3]");
        assert_eq!(name(TEMPO), "tempo.bonus");
    }
}
