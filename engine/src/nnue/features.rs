//! The 768 inputs, seen from one side (bullet's `Chess768`): that side's pieces first (6 × 64),
//! then the other side's, each square as that side sees the board — White's as it is, Black's
//! rank-mirrored — so that one set of weights serves both perspectives.

use cozy_chess::{Color, Piece, Square};

/// The input of `piece` of `color` on `square`, seen from `perspective`.
pub fn index(perspective: Color, color: Color, piece: Piece, square: Square) -> usize {
    let (side, sq) = match perspective {
        Color::White => (usize::from(color != Color::White), square as usize),
        Color::Black => (usize::from(color != Color::Black), square as usize ^ 56),
    };
    384 * side + 64 * piece as usize + sq
}

/// The inputs of a bulletformat record's piece — `piece` is its nibble (colour bit 3: 0 the side
/// to move's, 1 the other's; piece type in bits 0–2), `square` as the side to move sees it — from
/// the side to move's and the other side's perspectives.
pub fn of_record(piece: u8, square: u8) -> (usize, usize) {
    let (other, kind, sq) = (
        usize::from(piece >> 3),
        usize::from(piece & 7),
        usize::from(square),
    );
    (
        384 * other + 64 * kind + sq,
        384 * (1 - other) + 64 * kind + (sq ^ 56),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_seen_from_both_sides_mirrors() {
        let own = index(Color::White, Color::White, Piece::Knight, Square::G1);
        let mirrored = index(Color::Black, Color::Black, Piece::Knight, Square::G8);
        assert_eq!(own, mirrored);
        assert_eq!(own, 64 + 6);
        let theirs = index(Color::Black, Color::White, Piece::Knight, Square::G1);
        assert_eq!(theirs, 384 + 64 + 62);
    }

    #[test]
    fn a_record_piece_gives_the_boards_indices() {
        // White to move: the record's squares are the board's.
        let (stm, ntm) = of_record(1, Square::G1 as u8);
        assert_eq!(
            stm,
            index(Color::White, Color::White, Piece::Knight, Square::G1)
        );
        assert_eq!(
            ntm,
            index(Color::Black, Color::White, Piece::Knight, Square::G1)
        );
        // Black to move: a black knight on g8 is the mover's, on the record's g1.
        let (stm, ntm) = of_record(1, Square::G1 as u8);
        assert_eq!(
            stm,
            index(Color::Black, Color::Black, Piece::Knight, Square::G8)
        );
        assert_eq!(
            ntm,
            index(Color::White, Color::Black, Piece::Knight, Square::G8)
        );
    }
}
