//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side recapturing with its least valuable piece and free to stop, x-rays included.

use cozy_chess::{Board, Move, Piece, Rank};

use crate::board::is_en_passant;
use crate::eval::{piece_value, Score};
use crate::search::attacks::attackers;

/// The SEE value of `mv` for the side to move, in centipawns: the minimax value of the capture
/// sequence on the target square, each side recapturing with its least valuable piece (a pawn that
/// recaptures on the last rank becomes a queen) or stopping when that pays better. Exact for that
/// sequence: there is no pruning step that could leave a speculative gain in the result.
///
/// ```
/// use engine::board::{parse_fen, parse_uci_move};
/// use engine::search::see::see;
/// // Rook takes a pawn defended by a pawn: +100 − 500.
/// let b = parse_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
/// assert_eq!(see(&b, parse_uci_move(&b, "d1d5").unwrap()), -400);
/// ```
pub fn see(board: &Board, mv: Move) -> Score {
    // gain[d]: what the side making capture d has won if the sequence stops right after it.
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
    let promotes_here = (Rank::First.bitboard() | Rank::Eighth.bitboard()).has(mv.to);
    let mut side = !board.side_to_move();
    let mut depth = 0;
    while depth + 1 < gain.len() {
        let all = attackers(board, mv.to, occupied);
        let Some((piece, from)) = least_valuable(board, all & board.colors(side)) else {
            break;
        };
        if piece == Piece::King && !(all & board.colors(!side)).is_empty() {
            break; // the king may not recapture on a defended square
        }
        depth += 1;
        gain[depth] = piece_value(on_square) - gain[depth - 1];
        on_square = piece;
        if piece == Piece::Pawn && promotes_here {
            gain[depth] += piece_value(Piece::Queen) - piece_value(Piece::Pawn);
            on_square = Piece::Queen;
        }
        occupied ^= from.bitboard();
        side = !side;
    }
    // Each side takes the better of stopping before its capture and making it.
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
    use crate::board::{legal_moves, parse_fen, parse_uci_move};
    use cozy_chess::{BitBoard, Color, Square};

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
    fn a_defended_queen_taken_by_a_bishop_nets_queen_minus_bishop_plus_knight() {
        // Bxd5 Nxd5 Qxd5: 900 − 325 + 300. The old pruning stopped after Nxd5 and kept its
        // speculative gain: 575.
        assert_eq!(see_of("6k1/8/5n2/3q4/8/1B6/8/3Q2K1 w - - 0 1", "b3d5"), 875);
    }

    #[test]
    fn a_pawn_recapturing_on_the_last_rank_becomes_a_queen() {
        // Qxc8 Nxc8 bxc8=Q would win the knight and promote: Black does not recapture, +500.
        // Without the promotion the recapture would pay for Black (−100).
        assert_eq!(see_of("2r5/1P2n2k/8/8/8/2Q5/8/7K w - - 0 1", "c3c8"), 500);
    }

    #[test]
    fn x_ray_defender_behind_the_victim_side() {
        // Rxd5 Rxd5 Rxd5 Qxd5: Black's queen behind its rook decides; −400.
        assert_eq!(
            see_of("3qk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            -400
        );
    }

    #[test]
    fn promotion_counts_the_new_piece() {
        assert_eq!(
            see_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            300 + 800
        );
    }

    /// The same exchange as a plain recursion: `side` may stop (0) or take what stands on `to`
    /// with its least valuable attacker, and the other side answers in the same way.
    fn brute(
        board: &Board,
        to: Square,
        occupied: BitBoard,
        on_square: Piece,
        side: Color,
    ) -> Score {
        let all = attackers(board, to, occupied);
        let Some((piece, from)) = least_valuable(board, all & board.colors(side)) else {
            return 0;
        };
        if piece == Piece::King && !(all & board.colors(!side)).is_empty() {
            return 0;
        }
        let back_rank = matches!(
            to.rank(),
            cozy_chess::Rank::First | cozy_chess::Rank::Eighth
        );
        let (bonus, now) = if piece == Piece::Pawn && back_rank {
            (
                piece_value(Piece::Queen) - piece_value(Piece::Pawn),
                Piece::Queen,
            )
        } else {
            (0, piece)
        };
        let reply = brute(board, to, occupied ^ from.bitboard(), now, !side);
        (piece_value(on_square) + bonus - reply).max(0)
    }

    /// SEE by brute force: the move itself is made, the rest is [`brute`].
    fn brute_see(board: &Board, mv: Move) -> Score {
        let mut occupied = board.occupied() ^ mv.from.bitboard();
        if is_en_passant(board, mv) {
            occupied ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
        }
        let mut on_square = board.piece_on(mv.from).unwrap();
        let mut won = captured_value(board, mv);
        if let Some(p) = mv.promotion {
            won += piece_value(p) - piece_value(Piece::Pawn);
            on_square = p;
        }
        won - brute(board, mv.to, occupied, on_square, !board.side_to_move())
    }

    const STARTS: &[&str] = &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P3ppp/8/3q4/2n1P3/1B6/P4PPP/R2QK2R w KQkq - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// On positions reached by random play from tactical starts, every capture and
        /// promotion has the SEE value of the brute-force minimax.
        #[test]
        fn see_is_the_minimax_of_the_exchange(
            start in 0..STARTS.len(),
            choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..40),
        ) {
            let mut board = parse_fen(STARTS[start]).unwrap();
            for c in choices {
                let moves = legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                board.play_unchecked(moves[usize::from(c) % moves.len()]);
            }
            for mv in legal_moves(&board) {
                if captured_value(&board, mv) > 0 || mv.promotion.is_some() {
                    proptest::prop_assert_eq!(see(&board, mv), brute_see(&board, mv), "{} {}", board, mv);
                }
            }
        }
    }
}
