//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side recapturing with its least valuable piece and free to stop, x-rays included.

use cozy_chess::{Board, Move, Piece};

use crate::board::is_en_passant;
use crate::eval::{piece_value, Score};
use crate::search::attacks::attackers;

/// The SEE value of `mv` for the side to move, in centipawns.
///
/// ```
/// use engine::board::{parse_fen, parse_uci_move};
/// use engine::search::see::see;
/// // Rook takes a pawn defended by a pawn: +100 − 500.
/// let b = parse_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
/// assert_eq!(see(&b, parse_uci_move(&b, "d1d5").unwrap()), -400);
/// ```
pub fn see(board: &Board, mv: Move) -> Score {
    let mut gain = [0; 40];
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    let mut on_square = board.piece_on(mv.from).expect("a move starts on a piece");
    gain[0] = captured_value(board, mv);
    if is_en_passant(board, mv) {
        occupied ^= cozy_chess::Square::new(mv.to.file(), mv.from.rank()).bitboard();
    }
    if let Some(promotion) = mv.promotion {
        gain[0] += piece_value(promotion) - piece_value(Piece::Pawn);
        on_square = promotion;
    }
    let mut side = !board.side_to_move();
    let mut depth = 0;
    loop {
        let ours = attackers(board, mv.to, occupied) & board.colors(side);
        let Some((piece, from)) = least_valuable(board, ours) else {
            break;
        };
        if piece == Piece::King
            && !(attackers(board, mv.to, occupied) & board.colors(!side)).is_empty()
        {
            break; // the king may not recapture on a defended square
        }
        depth += 1;
        gain[depth] = piece_value(on_square) - gain[depth - 1];
        if gain[depth].max(-gain[depth - 1]) < 0 || depth + 1 == gain.len() {
            break; // neither side can gain by going on
        }
        occupied ^= from.bitboard();
        on_square = piece;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

fn captured_value(board: &Board, mv: Move) -> Score {
    if is_en_passant(board, mv) {
        return piece_value(Piece::Pawn);
    }
    match (board.piece_on(mv.to), board.color_on(mv.to)) {
        (Some(p), Some(c)) if c != board.side_to_move() => piece_value(p),
        _ => 0,
    }
}

fn least_valuable(board: &Board, set: cozy_chess::BitBoard) -> Option<(Piece, cozy_chess::Square)> {
    Piece::ALL
        .iter()
        .find_map(|&p| (set & board.pieces(p)).next_square().map(|sq| (p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, parse_uci_move};

    fn see_of(fen: &str, uci: &str) -> Score {
        let b = parse_fen(fen).unwrap();
        see(&b, parse_uci_move(&b, uci).unwrap())
    }

    #[test]
    fn undefended_piece_wins_its_value() {
        assert_eq!(see_of("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"), 300);
    }

    #[test]
    fn equal_trade_is_zero() {
        // Nxd5 exd5: knight for knight... here knight takes a knight defended by a pawn.
        assert_eq!(see_of("4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0);
    }

    #[test]
    fn x_ray_rook_behind_rook_wins_the_exchange_back() {
        // Rxd5 Rxd5 Rxd5: white wins a pawn; the second rook is hidden behind the first.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    }

    #[test]
    fn without_the_x_ray_the_same_capture_loses() {
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), -400);
    }

    #[test]
    fn en_passant_wins_a_pawn() {
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    }

    #[test]
    fn king_does_not_recapture_on_a_defended_square() {
        // Qxf7+ with the bishop on c4 behind: the king cannot take back. +100.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
    }

    #[test]
    fn promotion_counts_the_new_piece() {
        assert_eq!(
            see_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            300 + 800
        );
    }
}
