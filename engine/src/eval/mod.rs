//! Static evaluation: material with Fischerle's values, piece-square tables tapered by game phase,
//! and basic pawn structure (doubled, isolated, passed pawns).
//!
//! The evaluation is colour-symmetric by construction: every term is computed for White on the
//! square as it is and for Black on the rank-mirrored square, then subtracted. A test checks
//! `evaluate(p) == evaluate(flip(p))` on many positions.

use cozy_chess::{BitBoard, Board, Color, Piece, Square};

pub mod placement;

pub use placement::Placement;

/// A score in centipawns, from the point of view of the side to move.
pub type Score = i32;

/// Material values: pawn 100, knight 300, bishop 325 (a knight plus a quarter pawn), rook 500,
/// queen 900 — Fischerle's. The king's value is only used by SEE, as "more than everything".
pub const fn piece_value(piece: Piece) -> Score {
    match piece {
        Piece::Pawn => 100,
        Piece::Knight => 300,
        Piece::Bishop => 325,
        Piece::Rook => 500,
        Piece::Queen => 900,
        Piece::King => 20_000,
    }
}

/// A table of bonuses, one per square, written from White's side with rank 8 on the first row
/// (as a diagram reads), so that the tables below can be read as boards.
struct SquareTable([i16; 64]);

impl SquareTable {
    /// The bonus for a piece of `color` on `square` (the evaluation reads [`PLACED`]; the tests'
    /// reference reads this).
    #[cfg(test)]
    fn get(&self, color: Color, square: Square) -> Score {
        let white_square = match color {
            Color::White => square,
            Color::Black => square.flip_rank(),
        };
        // Row 0 of the diagram is rank 8.
        Score::from(self.0[white_square as usize ^ 56])
    }
}

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

/// Game phase weights: the opening has 24 (4 minors, 4 rooks, 2 queens), a pawn ending 0.
const PHASE_MAX: Score = 24;

const fn phase_weight(piece: Piece) -> Score {
    match piece {
        Piece::Knight | Piece::Bishop => 1,
        Piece::Rook => 2,
        Piece::Queen => 4,
        Piece::Pawn | Piece::King => 0,
    }
}

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

/// Pawn-structure penalties and bonuses (middle game, endgame).
const DOUBLED: (Score, Score) = (-10, -20);
const ISOLATED: (Score, Score) = (-12, -15);
/// Passed-pawn bonus by rank relative to its owner (rank 2 … rank 7).
const PASSED_MG: [Score; 8] = [0, 0, 5, 10, 15, 25, 40, 0];
const PASSED_EG: [Score; 8] = [0, 0, 10, 20, 35, 60, 90, 0];

/// Static evaluation in centipawns from the side to move's point of view.
///
/// ```
/// use cozy_chess::Board;
/// assert_eq!(engine::eval::evaluate(&Board::default()), 0);
/// ```
pub fn evaluate(board: &Board) -> Score {
    let pawns = [
        pawn_structure(board, Color::White),
        pawn_structure(board, Color::Black),
    ];
    combine(board, Placement::of(board), pawns)
}

/// [`evaluate`], with the pawn-structure terms taken from `cache` when these pawns were seen and
/// the material and placement sums as the search kept them up to date (`placement` must be
/// `Placement::of(board)`).
pub fn evaluate_placed(board: &Board, placement: Placement, cache: &mut PawnCache) -> Score {
    let pawns = cache.terms(board);
    combine(board, placement, pawns)
}

/// The evaluation from the placement and each side's pawn-structure terms (White's, Black's).
fn combine(board: &Board, placement: Placement, pawns: [(Score, Score); 2]) -> Score {
    let mg = placement.mg + pawns[0].0 - pawns[1].0;
    let eg = placement.eg + pawns[0].1 - pawns[1].1;
    let phase = placement.phase.min(PHASE_MAX);
    let white = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The phase, from `PHASE_MAX` (all pieces on) down to 0 (kings and pawns only).
pub fn game_phase(board: &Board) -> Score {
    let phase: Score = Piece::ALL
        .iter()
        .map(|&p| phase_weight(p) * board.pieces(p).len() as Score)
        .sum();
    phase.min(PHASE_MAX)
}

/// Value plus table bonus of every piece of every colour on every square, as (middle game,
/// endgame): [`SquareTable::get`] and [`piece_value`] worked out once, at compile time, for the
/// evaluation's inner loop (the king's value is left out: both sides always have one).
const PLACED: [[[(i16, i16); 64]; 6]; 2] = {
    let mut table = [[[(0i16, 0i16); 64]; 6]; 2];
    let mut piece = 0;
    while piece < 6 {
        let p = Piece::ALL[piece];
        let (mg, eg) = tables(p);
        let value = if piece == Piece::King as usize {
            0
        } else {
            piece_value(p) as i16
        };
        let mut sq = 0;
        while sq < 64 {
            // White reads the diagram upside down (row 0 is rank 8); Black mirrors the rank.
            let (white, black) = (sq ^ 56, sq);
            table[0][piece][sq] = (value + mg.0[white], value + eg.0[white]);
            table[1][piece][sq] = (value + mg.0[black], value + eg.0[black]);
            sq += 1;
        }
        piece += 1;
    }
    table
};

/// Pawn-structure terms by pawn placement: the positions of a search share their pawns far more
/// often than their pieces, so each placement is counted once. Direct-mapped; an entry keeps both
/// colours' pawns, so a different placement on the same slot is recounted, never mistaken.
#[derive(Debug, Clone)]
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

#[derive(Debug, Clone, Copy, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    terms: [(Score, Score); 2],
}

/// Entries of a pawn cache (512 KiB: within a core's L2 cache).
const PAWN_CACHE_BITS: u32 = 14;

impl Default for PawnCache {
    fn default() -> Self {
        Self {
            entries: vec![PawnEntry::default(); 1 << PAWN_CACHE_BITS],
        }
    }
}

impl PawnCache {
    /// White's and Black's pawn-structure terms of `board`.
    fn terms(&mut self, board: &Board) -> [(Score, Score); 2] {
        let (white, black) = (
            board.colored_pieces(Color::White, Piece::Pawn).0,
            board.colored_pieces(Color::Black, Piece::Pawn).0,
        );
        let mix = (white ^ black.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let entry = &mut self.entries[(mix >> (64 - PAWN_CACHE_BITS)) as usize];
        // The empty entry (no pawns at all) holds the right terms too: zero.
        if entry.white != white || entry.black != black {
            *entry = PawnEntry {
                white,
                black,
                terms: [
                    pawn_structure(board, Color::White),
                    pawn_structure(board, Color::Black),
                ],
            };
        }
        entry.terms
    }
}

/// Every square of the files set in `files` (bit i = file i).
const fn file_span(files: u64) -> u64 {
    (files & 0xFF) * 0x0101_0101_0101_0101
}

/// Doubled, isolated and passed pawns of one side, as (middle game, endgame). Doubled: each pawn
/// beyond the first on its file; isolated: each pawn on a file with no own pawn beside it.
fn pawn_structure(board: &Board, color: Color) -> (Score, Score) {
    let own = board.colored_pieces(color, Piece::Pawn);
    let theirs = board.colored_pieces(!color, Piece::Pawn);
    // Fold the ranks onto one byte: bit i set when file i holds an own pawn.
    let mut fold = own.0;
    fold |= fold >> 32;
    fold |= fold >> 16;
    fold |= fold >> 8;
    let files = fold & 0xFF;
    let doubled = (own.len() - files.count_ones()) as Score;
    let neighbours = ((files << 1) | (files >> 1)) & 0xFF;
    let isolated = (own.0 & file_span(files & !neighbours)).count_ones() as Score;
    let mut mg = DOUBLED.0 * doubled + ISOLATED.0 * isolated;
    let mut eg = DOUBLED.1 * doubled + ISOLATED.1 * isolated;
    for square in own {
        if (theirs & passed_mask(color, square)).is_empty() {
            let rank = square.rank().relative_to(color) as usize;
            mg += PASSED_MG[rank];
            eg += PASSED_EG[rank];
        }
    }
    (mg, eg)
}

/// The squares in front of a pawn, on its file and the adjacent ones, that enemy pawns must not
/// occupy for it to be passed.
fn passed_mask(color: Color, square: Square) -> BitBoard {
    BitBoard(PASSED_MASKS[color as usize][square as usize])
}

/// [`passed_mask`] for every colour and square, computed at compile time (it is asked for every
/// pawn of every evaluation).
const PASSED_MASKS: [[u64; 64]; 2] = {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let mut files = 0u64;
        let mut f = if file > 0 { file - 1 } else { 0 };
        while f <= file + 1 && f < 8 {
            files |= 0x0101_0101_0101_0101u64 << f;
            f += 1;
        }
        let white_ahead = if rank == 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        };
        let black_ahead = if rank == 0 {
            0
        } else {
            !0u64 >> ((8 - rank) * 8)
        };
        table[0][sq] = files & white_ahead;
        table[1][sq] = files & black_ahead;
        sq += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use cozy_chess::File;

    /// The evaluation's terms as first written — a table lookup per piece, a file-by-file pawn
    /// count — kept as the reference the precomputed tables and bit tricks must equal.
    fn reference_side_terms(board: &Board, color: Color) -> (Score, Score) {
        let own = board.colored_pieces(color, Piece::Pawn);
        let theirs = board.colored_pieces(!color, Piece::Pawn);
        let (mut mg, mut eg) = (0, 0);
        for file in File::ALL {
            let on_file = (own & file.bitboard()).len() as Score;
            if on_file > 1 {
                mg += DOUBLED.0 * (on_file - 1);
                eg += DOUBLED.1 * (on_file - 1);
            }
            if on_file > 0 && (own & file.adjacent()).is_empty() {
                mg += ISOLATED.0 * on_file;
                eg += ISOLATED.1 * on_file;
            }
        }
        for square in own {
            if (theirs & passed_mask(color, square)).is_empty() {
                let rank = square.rank().relative_to(color) as usize;
                mg += PASSED_MG[rank];
                eg += PASSED_EG[rank];
            }
        }
        for &piece in &Piece::ALL {
            let (mg_table, eg_table) = tables(piece);
            for square in board.colored_pieces(color, piece) {
                let value = if piece == Piece::King {
                    0
                } else {
                    piece_value(piece)
                };
                mg += value + mg_table.get(color, square);
                eg += value + eg_table.get(color, square);
            }
        }
        (mg, eg)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// The cached evaluation equals the plain one along random games, one cache for all of
        /// them (so entries are reused and replaced).
        #[test]
        fn cached_evaluation_equals_the_plain_one(seed in 0u64..u64::MAX) {
            let mut cache = PawnCache::default();
            for plies in (0..120).step_by(7) {
                let board = crate::board::random_playout(seed, plies);
                let placement = Placement::of(&board);
                proptest::prop_assert_eq!(evaluate_placed(&board, placement, &mut cache), evaluate(&board));
                proptest::prop_assert_eq!(evaluate_placed(&board, placement, &mut cache), evaluate(&board));
            }
        }

        /// The fast terms equal the reference on positions of random games (all phases, doubled,
        /// isolated and passed pawns of both colours).
        #[test]
        fn fast_terms_equal_the_reference(seed in 0u64..u64::MAX, plies in 0usize..160) {
            let board = crate::board::random_playout(seed, plies);
            let [white, black] = Color::ALL.map(|c| reference_side_terms(&board, c));
            let [white_pawns, black_pawns] = Color::ALL.map(|c| pawn_structure(&board, c));
            let placement = Placement::of(&board);
            proptest::prop_assert_eq!(
                (placement.mg + white_pawns.0 - black_pawns.0, placement.eg + white_pawns.1 - black_pawns.1),
                (white.0 - black.0, white.1 - black.1)
            );
            proptest::prop_assert_eq!(placement.phase.min(PHASE_MAX), game_phase(&board));
        }
    }

    #[test]
    fn bishop_is_a_knight_and_a_quarter_pawn() {
        assert_eq!(piece_value(Piece::Bishop), piece_value(Piece::Knight) + 25);
    }

    #[test]
    fn extra_queen_is_worth_about_a_queen() {
        let b = parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let s = evaluate(&b);
        assert!((800..1100).contains(&s), "{s}");
    }

    /// The same position with colours swapped: ranks mirrored, piece case swapped, the other side
    /// to move, castling rights swapped, en-passant square mirrored.
    fn flip(board: &Board) -> Board {
        let fen = board.to_string();
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let ep = match f[3] {
            "-" => "-".to_string(),
            sq => format!("{}{}", &sq[..1], if &sq[1..] == "3" { 6 } else { 3 }),
        };
        let mut castling: Vec<char> = swap(f[2]).chars().collect();
        castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c == 'q' || *c == 'Q'));
        let castling: String = castling.into_iter().collect();
        parse_fen(&format!(
            "{} {side} {castling} {ep} {} {}",
            placement.join("/"),
            f[4],
            f[5]
        ))
        .unwrap()
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut checked = 0;
        for start in starts {
            for _game in 0..20 {
                let mut board = parse_fen(start).unwrap();
                for _ply in 0..60 {
                    assert_eq!(evaluate(&board), evaluate(&flip(&board)), "{board}");
                    checked += 1;
                    let moves = crate::board::legal_moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    board.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }

    #[test]
    fn passed_masks_cover_the_files_ahead() {
        let m = passed_mask(Color::White, Square::D4);
        assert_eq!(m.len(), 3 * 4);
        assert!(m.has(Square::C5) && m.has(Square::E8) && !m.has(Square::D4) && !m.has(Square::F5));
        let m = passed_mask(Color::Black, Square::A2);
        assert_eq!(m, Square::A1.bitboard() | Square::B1.bitboard());
        assert!(passed_mask(Color::White, Square::H8).is_empty());
    }

    #[test]
    fn passed_pawn_mask_excludes_pawns_behind() {
        let b = parse_fen("4k3/8/8/8/3P4/2p5/8/4K3 w - - 0 1").unwrap();
        let (_, eg) = pawn_structure(&b, Color::White);
        // d4 is passed (c3 is behind it) and isolated.
        assert_eq!(eg, PASSED_EG[3] + ISOLATED.1);
    }
}
