//! The terms beyond material and placement, written once for two readers: each term tells a
//! [`Sink`] "`count` times weight `i`, for this colour", and the sink either adds the weights
//! (the search's evaluation) or records the counts (the coefficient form a tuner fits). So the
//! coefficient form is the evaluation by construction, and a test checks it on every position.
//!
//! Every count is made for each colour from its own side (ranks relative to it), then White's
//! weights add and Black's subtract: colour symmetry by construction, checked by a test.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color,
    File, Piece, Rank, Square,
};

use super::layout::*;
use super::weights::Evaluation;
use super::Score;

/// Where a term's counts go.
pub trait Sink {
    /// `count` times weight `index`, for `color` (White's add, Black's subtract).
    fn add(&mut self, index: usize, color: Color, count: Score);
}

/// Which terms an evaluation computes: the `eval` section's switches, read once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switches {
    /// `pawns`.
    pub pawns: bool,
    /// `passed`.
    pub passed: bool,
    /// `passed.path`.
    pub path: bool,
    /// `mobility`.
    pub mobility: bool,
    /// `king_safety`.
    pub king_safety: bool,
    /// `bishop_pair`.
    pub bishop_pair: bool,
    /// `rook_files`.
    pub rook_files: bool,
    /// `outposts`.
    pub outposts: bool,
    /// `threats`.
    pub threats: bool,
    /// `tempo`.
    pub tempo: bool,
}

impl Switches {
    /// The switches of `eval`.
    pub fn of(eval: &Evaluation) -> Self {
        Self {
            pawns: eval.pawns.is_some(),
            passed: eval.passed.is_some(),
            path: eval.passed.as_ref().is_some_and(|p| p.path.is_some()),
            mobility: eval.mobility.is_some(),
            king_safety: eval.king_safety.is_some(),
            bishop_pair: eval.bishop_pair.is_some(),
            rook_files: eval.rook_files.is_some(),
            outposts: eval.outposts.is_some(),
            threats: eval.threats.is_some(),
            tempo: eval.tempo.is_some(),
        }
    }

    /// Whether any term beyond the pawn-only ones is on (the classic evaluation has none).
    pub fn piece_terms(&self) -> bool {
        self.path
            || self.mobility
            || self.king_safety
            || self.bishop_pair
            || self.rook_files
            || self.outposts
            || self.threats
            || self.tempo
    }
}

/// The pawn-only terms of `us` (pawn structure, passed pawns by rank): they depend on the pawns
/// alone, so the search counts them once per pawn placement. Returns `us`'s passed pawns.
pub fn pawn_terms(board: &Board, us: Color, on: &Switches, sink: &mut impl Sink) -> BitBoard {
    let own = board.colored_pieces(us, Piece::Pawn);
    let theirs = board.colored_pieces(!us, Piece::Pawn);
    let mut passed = BitBoard::EMPTY;
    for square in own {
        if (theirs & passed_mask(us, square)).is_empty() {
            passed |= square.bitboard();
        }
    }
    if on.pawns {
        pawn_structure(own, theirs, us, sink);
    }
    if on.passed {
        for square in passed {
            sink.add(PASSED + relative_rank(us, square), us, 1);
        }
    }
    passed
}

/// Doubled, isolated, backward, phalanx and supported pawns of `us`.
fn pawn_structure(own: BitBoard, theirs: BitBoard, us: Color, sink: &mut impl Sink) {
    // Fold the ranks onto one byte: bit i set when file i holds an own pawn.
    let mut fold = own.0;
    fold |= fold >> 32;
    fold |= fold >> 16;
    fold |= fold >> 8;
    let files = fold & 0xFF;
    let doubled = (own.len() - files.count_ones()) as Score;
    let neighbours = ((files << 1) | (files >> 1)) & 0xFF;
    let isolated_files = BitBoard(file_span(files & !neighbours));
    sink.add(DOUBLED, us, doubled);
    sink.add(ISOLATED, us, (own & isolated_files).len() as Score);
    let (own_attacks, their_attacks) = (pawn_attacks(own, us), pawn_attacks(theirs, !us));
    for square in own {
        let rank = relative_rank(us, square);
        if !(beside(square) & own).is_empty() {
            sink.add(PHALANX + rank, us, 1);
        }
        if own_attacks.has(square) {
            sink.add(SUPPORTED + rank, us, 1);
        }
        let adjacent = BitBoard(file_span(neighbour_files(square)));
        let behind = adjacent & !BitBoard(passed_mask(us, square).0);
        let stop = stop_square(us, square);
        if !isolated_files.has(square) && (own & behind).is_empty() && their_attacks.has(stop) {
            sink.add(BACKWARD, us, 1);
        }
    }
}

/// Every term that reads more than the pawns, for both colours; `passed` are each colour's passed
/// pawns (from [`pawn_terms`]).
pub fn piece_terms(board: &Board, on: &Switches, passed: [BitBoard; 2], sink: &mut impl Sink) {
    let pawn_reach = Color::ALL.map(|c| pawn_attacks(board.colored_pieces(c, Piece::Pawn), c));
    // One pass over each side's pieces serves mobility, king attacks and the threat maps.
    let attacks = if on.mobility || on.king_safety || on.threats {
        Color::ALL.map(|us| pieces_pass(board, us, pawn_reach, on, sink))
    } else {
        [Attacks::default(); 2]
    };
    for us in Color::ALL {
        if on.king_safety {
            king_shelter(board, us, sink);
        }
        if on.bishop_pair && board.colored_pieces(us, Piece::Bishop).len() >= 2 {
            sink.add(BISHOP_PAIR, us, 1);
        }
        if on.rook_files {
            rook_files(board, us, sink);
        }
        if on.outposts {
            outposts(board, us, sink);
        }
        if on.threats {
            threats(board, us, &attacks, sink);
        }
        if on.path {
            passed_path(board, us, passed[us as usize], sink);
        }
    }
    if on.tempo {
        sink.add(TEMPO, board.side_to_move(), 1);
    }
}

/// What one side attacks, by kind of attacker.
#[derive(Debug, Clone, Copy, Default)]
struct Attacks {
    pawns: BitBoard,
    minors: BitBoard,
    rooks: BitBoard,
    all: BitBoard,
}

/// Each knight, bishop, rook and queen of `us` once: its mobility and its attacks on the enemy king
/// zone go to `sink` (when those terms are on); what the side attacks is returned for the threats.
fn pieces_pass(
    board: &Board,
    us: Color,
    pawn_reach: [BitBoard; 2],
    on: &Switches,
    sink: &mut impl Sink,
) -> Attacks {
    let occupied = board.occupied();
    let safe = !board.colors(us) & !pawn_reach[!us as usize];
    let their_king = board.king(!us);
    let zone = get_king_moves(their_king) | their_king.bitboard();
    let mut attacks = Attacks {
        pawns: pawn_reach[us as usize],
        all: pawn_reach[us as usize] | get_king_moves(board.king(us)),
        ..Attacks::default()
    };
    let mut attackers = 0;
    let pieces = [
        (Piece::Knight, MOBILITY_KNIGHT),
        (Piece::Bishop, MOBILITY_BISHOP),
        (Piece::Rook, MOBILITY_ROOK),
        (Piece::Queen, MOBILITY_QUEEN),
    ];
    for (kind, (piece, table)) in pieces.into_iter().enumerate() {
        for square in board.colored_pieces(us, piece) {
            let reach = piece_attacks(piece, square, occupied);
            attacks.all |= reach;
            match piece {
                Piece::Knight | Piece::Bishop => attacks.minors |= reach,
                Piece::Rook => attacks.rooks |= reach,
                _ => {}
            }
            if on.mobility {
                sink.add(table + (reach & safe).len() as usize, us, 1);
            }
            let on_zone = (reach & zone).len() as Score;
            if on.king_safety && on_zone > 0 {
                attackers += 1;
                sink.add(ZONE_ATTACKS + kind, us, on_zone);
            }
        }
    }
    if on.king_safety {
        sink.add(ATTACKERS + attackers.min(7), us, 1);
    }
    attacks
}

/// `us`'s pawn shield, the enemy pawn storm, and an open file at `us`'s king.
fn king_shelter(board: &Board, us: Color, sink: &mut impl Sink) {
    let king = board.king(us);
    let files = BitBoard(file_span(neighbour_files(king) | 1 << king.file() as u64));
    let own = board.colored_pieces(us, Piece::Pawn) & files;
    let theirs = board.colored_pieces(!us, Piece::Pawn) & files;
    let rank = |r: Rank| r.relative_to(us).bitboard();
    for (i, r) in [Rank::Second, Rank::Third].into_iter().enumerate() {
        sink.add(SHIELD + i, us, (own & rank(r)).len() as Score);
    }
    for (i, r) in [Rank::Third, Rank::Fourth, Rank::Fifth]
        .into_iter()
        .enumerate()
    {
        sink.add(STORM + i, us, (theirs & rank(r)).len() as Score);
    }
    if (own & king.file().bitboard()).is_empty() {
        sink.add(KING_OPEN_FILE, us, 1);
    }
}

fn rook_files(board: &Board, us: Color, sink: &mut impl Sink) {
    let pawns = board.pieces(Piece::Pawn);
    let own = board.colored_pieces(us, Piece::Pawn);
    for rook in board.colored_pieces(us, Piece::Rook) {
        let file = rook.file().bitboard();
        if (file & pawns).is_empty() {
            sink.add(ROOK_OPEN, us, 1);
        } else if (file & own).is_empty() {
            sink.add(ROOK_SEMI_OPEN, us, 1);
        }
    }
}

fn outposts(board: &Board, us: Color, sink: &mut impl Sink) {
    let defended = pawn_attacks(board.colored_pieces(us, Piece::Pawn), us);
    let theirs = board.colored_pieces(!us, Piece::Pawn);
    for (piece, index) in [
        (Piece::Knight, OUTPOST_KNIGHT),
        (Piece::Bishop, OUTPOST_BISHOP),
    ] {
        for square in board.colored_pieces(us, piece) & defended {
            let rank = relative_rank(us, square);
            let attackable = passed_mask(us, square) & !square.file().bitboard();
            if (3..=5).contains(&rank) && (theirs & attackable).is_empty() {
                sink.add(index, us, 1);
            }
        }
    }
}

fn threats(board: &Board, us: Color, attacks: &[Attacks; 2], sink: &mut impl Sink) {
    let (mine, theirs) = (&attacks[us as usize], &attacks[!us as usize]);
    let their = |p| board.colored_pieces(!us, p);
    let majors = their(Piece::Rook) | their(Piece::Queen);
    let pieces = their(Piece::Knight) | their(Piece::Bishop) | majors;
    let count = |b: BitBoard| b.len() as Score;
    sink.add(THREAT_PAWN, us, count(mine.pawns & pieces));
    sink.add(THREAT_MINOR, us, count(mine.minors & majors));
    sink.add(THREAT_ROOK, us, count(mine.rooks & their(Piece::Queen)));
    sink.add(THREAT_HANGING, us, count(mine.all & pieces & !theirs.all));
}

/// What lies ahead of each of `us`'s passed pawns.
fn passed_path(board: &Board, us: Color, passed: BitBoard, sink: &mut impl Sink) {
    let occupied = board.occupied();
    let (own_king, their_king) = (board.king(us), board.king(!us));
    let pieces_only_pawns =
        (board.colors(!us) & !board.pieces(Piece::Pawn) & !their_king.bitboard()).is_empty();
    for square in passed {
        let rank = relative_rank(us, square);
        let path = passed_mask(us, square) & square.file().bitboard();
        let free = (path & occupied).is_empty();
        if free {
            sink.add(PASSED_FREE + rank, us, 1);
        }
        let stop = stop_square(us, square);
        sink.add(PASSED_OWN_KING, us, distance(own_king, stop));
        sink.add(PASSED_THEIR_KING, us, distance(their_king, stop));
        if free && pieces_only_pawns {
            // The rule of the square: the pawn needs `moves` (a double step from its first
            // rank); the king, moving first when it is its turn, must reach the promotion square.
            let promotion = Square::new(square.file(), Rank::Eighth.relative_to(us));
            let moves = if rank == 1 { 5 } else { 7 - rank as Score };
            let tempo = Score::from(board.side_to_move() != us);
            if distance(their_king, promotion) - tempo > moves {
                sink.add(UNSTOPPABLE, us, 1);
            }
        }
    }
}

/// Chebyshev distance: king moves from `a` to `b`.
fn distance(a: Square, b: Square) -> Score {
    let files = (a.file() as Score - b.file() as Score).abs();
    let ranks = (a.rank() as Score - b.rank() as Score).abs();
    files.max(ranks)
}

fn relative_rank(color: Color, square: Square) -> usize {
    square.rank().relative_to(color) as usize
}

/// The square in front of a pawn of `color` on `square` (not on its last rank).
fn stop_square(color: Color, square: Square) -> Square {
    let rank = square.rank() as usize;
    let next = if color == Color::White {
        rank + 1
    } else {
        rank - 1
    };
    Square::new(square.file(), Rank::index(next))
}

/// The squares beside `square` on its rank.
fn beside(square: Square) -> BitBoard {
    let b = square.bitboard().0;
    let not_a = !File::A.bitboard().0;
    let not_h = !File::H.bitboard().0;
    BitBoard(((b << 1) & not_a) | ((b >> 1) & not_h))
}

/// The files beside `square`'s (bit i = file i).
fn neighbour_files(square: Square) -> u64 {
    let f = 1u64 << square.file() as u64;
    ((f << 1) | (f >> 1)) & 0xFF
}

/// Squares attacked by the pawns `pawns` of `color`.
pub(super) fn pawn_attacks(pawns: BitBoard, color: Color) -> BitBoard {
    let p = pawns.0;
    let not_a = !File::A.bitboard().0;
    let not_h = !File::H.bitboard().0;
    BitBoard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

fn piece_attacks(piece: Piece, square: Square, occupied: BitBoard) -> BitBoard {
    match piece {
        Piece::Knight => get_knight_moves(square),
        Piece::Bishop => get_bishop_moves(square, occupied),
        Piece::Rook => get_rook_moves(square, occupied),
        Piece::Queen => get_bishop_moves(square, occupied) | get_rook_moves(square, occupied),
        Piece::Pawn | Piece::King => unreachable!("pawns and king are taken apart"),
    }
}

/// Every square of the files set in `files` (bit i = file i).
pub(super) const fn file_span(files: u64) -> u64 {
    (files & 0xFF) * 0x0101_0101_0101_0101
}

/// The squares in front of a pawn, on its file and the adjacent ones, that enemy pawns must not
/// occupy for it to be passed.
pub(super) fn passed_mask(color: Color, square: Square) -> BitBoard {
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
