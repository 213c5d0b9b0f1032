//! Attack counting on a square, direct and transitive (x-ray), as Fischerle's capture
//! classification and QS filter use it. Pins are not considered (the page says so).

use cozy_chess::{
    get_bishop_moves, get_bishop_rays, get_king_moves, get_knight_moves, get_pawn_attacks,
    get_rook_moves, get_rook_rays, BitBoard, Board, Color, Piece, Square,
};

/// How one side attacks a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackCount {
    /// Attackers, counting each piece of a battery (rook behind rook or queen on a line, bishop or
    /// queen behind bishop or queen on a diagonal, bishop or queen behind its own pawn on the
    /// pawn's capture diagonal) once.
    pub count: u32,
    /// Whether the king is the only attacker (it cannot recapture on a defended square).
    pub only_king: bool,
}

/// Counts the attacks of `color` on `square`, with x-rays through that side's own batteries.
///
/// ```
/// use engine::board::parse_fen;
/// use engine::search::attacks::count_attacks;
/// use cozy_chess::{Color, Square};
/// // Doubled rooks on the d-file: both attack d8.
/// let b = parse_fen("3r2k1/8/8/8/8/8/3R4/3R2K1 w - - 0 1").unwrap();
/// assert_eq!(count_attacks(&b, Square::D8, Color::White).count, 2);
/// ```
pub fn count_attacks(board: &Board, square: Square, color: Color) -> AttackCount {
    let own = |p| board.colored_pieces(color, p);
    let pawns = get_pawn_attacks(square, !color) & own(Piece::Pawn);
    let knights = get_knight_moves(square) & own(Piece::Knight);
    let king = get_king_moves(square) & own(Piece::King);
    let queens = own(Piece::Queen);
    let occupied = board.occupied();
    // Sliders off the square's lines on an empty board cannot reach it: skip the lookups.
    let rooks = (own(Piece::Rook) | queens) & get_rook_rays(square);
    let bishops = (own(Piece::Bishop) | queens) & get_bishop_rays(square);
    let lines = battery(square, occupied, rooks, get_rook_moves);
    // Removing the attacking pawns reveals a bishop or queen standing behind them.
    let diagonals = battery(square, occupied & !pawns, bishops, get_bishop_moves);
    let others = few(pawns) + few(knights) + lines + diagonals;
    AttackCount {
        count: others + few(king),
        only_king: others == 0 && !king.is_empty(),
    }
}

/// Counts the sliders of one kind that reach `square`, each one seen through those in front of it.
/// Generic over `moves`, so each kind gets its own copy with the lookup inlined.
#[inline]
fn battery(
    square: Square,
    mut occupied: BitBoard,
    sliders: BitBoard,
    moves: impl Fn(Square, BitBoard) -> BitBoard,
) -> u32 {
    let mut remaining = sliders;
    let mut count = 0;
    while !remaining.is_empty() {
        let hits = moves(square, occupied) & remaining;
        if hits.is_empty() {
            return count;
        }
        count += few(hits);
        remaining &= !hits;
        occupied &= !hits;
    }
    count
}

/// The squares in `set`, counted one by one: attackers of a square are few, and this is faster
/// than the population count a baseline x86-64 build computes without the `popcnt` instruction.
#[inline]
fn few(set: BitBoard) -> u32 {
    let (mut bits, mut count) = (set.0, 0);
    while bits != 0 {
        bits &= bits - 1;
        count += 1;
    }
    count
}

/// Every piece of either colour that attacks `square` directly, given the occupancy `occupied`
/// (sliders see through squares removed from it; this is how SEE finds x-ray attackers).
pub fn attackers(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let pawns = board.pieces(Piece::Pawn);
    let white_pawns = get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White);
    let black_pawns = get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black);
    (white_pawns
        | black_pawns
        | get_knight_moves(square) & board.pieces(Piece::Knight)
        | get_king_moves(square) & board.pieces(Piece::King)
        | get_rook_moves(square, occupied) & rooks
        | get_bishop_moves(square, occupied) & bishops)
        & occupied
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    fn count(fen: &str, sq: Square, color: Color) -> AttackCount {
        count_attacks(&parse_fen(fen).unwrap(), sq, color)
    }

    #[test]
    fn queen_behind_rook_on_a_file_counts() {
        let c = count(
            "3r2k1/8/8/8/8/3R4/8/3Q2K1 w - - 0 1",
            Square::D8,
            Color::White,
        );
        assert_eq!(
            c,
            AttackCount {
                count: 2,
                only_king: false
            }
        );
    }

    #[test]
    fn bishop_behind_own_pawn_on_its_capture_diagonal_counts() {
        // Pawn c3 attacks d4; the bishop on b2 stands behind it on the same diagonal.
        let c = count(
            "6k1/8/8/8/3n4/2P5/1B6/6K1 w - - 0 1",
            Square::D4,
            Color::White,
        );
        assert_eq!(c.count, 2);
    }

    #[test]
    fn enemy_piece_blocks_the_x_ray() {
        // The black rook on d5 stands between the two white rooks and d8.
        let c = count(
            "3r2k1/8/8/3r4/8/8/3R4/3R2K1 w - - 0 1",
            Square::D8,
            Color::White,
        );
        assert_eq!(c.count, 0);
    }

    #[test]
    fn lone_king_is_flagged() {
        let c = count("6k1/8/8/8/8/8/5p2/6K1 w - - 0 1", Square::F2, Color::White);
        assert_eq!(
            c,
            AttackCount {
                count: 1,
                only_king: true
            }
        );
    }
}
