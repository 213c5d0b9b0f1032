//! Capture classification (Fischerle section 3): advantageous, neutral or disadvantageous, from the
//! value classes of capturer and victim and the attack balance on the target square — or, with
//! `see = true`, from a static exchange evaluation. The QS filter (section 2) lives here too.

use cozy_chess::{Board, Move, Piece};

use crate::config::{CaptureFilter, SearchConfig};
use crate::eval::piece_value;
use crate::search::attacks::{attackers, count_attacks, AttackCount};
use crate::search::see::see;
use crate::search::stats::SearchStats;

/// The three classes of a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureClass {
    /// Probably wins material.
    Advantageous,
    /// Probably even.
    Neutral,
    /// Probably loses material.
    Disadvantageous,
}

/// The value class of knights and bishops.
const MINOR: u8 = 1;

/// Value class: P < N = B < R < Q < K. A bishop is not "higher" than a knight (Fischerle).
pub fn value_class(piece: Piece) -> u8 {
    match piece {
        Piece::Pawn => 0,
        Piece::Knight | Piece::Bishop => 1,
        Piece::Rook => 2,
        Piece::Queen => 3,
        Piece::King => 4,
    }
}

/// Fischerle's rook rule (seed 003), generalised to every capturer by value class (a choice the
/// spec marks): "a queen" becomes a higher class, "a rook" the same class, and "at least a minor
/// piece" stays what it says — a pawn is never worth a neutral capture by a piece.
///
/// | capture | advantageous iff | else neutral iff | else |
/// |---|---|---|---|
/// | any | no enemy attack on the square, **or** a higher class captured, **or** (same class **and** own > enemy), **or** (own > enemy **and** only the enemy king attacks) | same class captured, **or** (a minor piece or more captured **and** own > enemy) | disadvantageous |
/// | by the king | always (a legal king capture is never defended) | | |
///
/// So a defended R×P (or N×P, Q×P) with more own attacks is disadvantageous, as in the seed's rook
/// row; pawn captures are at least neutral. `own` counts the capturer itself.
pub fn classify_by_attacks(
    capturer: Piece,
    victim: Piece,
    own: AttackCount,
    enemy: AttackCount,
) -> CaptureClass {
    let (c, v) = (value_class(capturer), value_class(victim));
    let more = own.count > enemy.count;
    if capturer == Piece::King
        || enemy.count == 0
        || v > c
        || (v == c && more)
        || (more && enemy.only_king)
    {
        CaptureClass::Advantageous
    } else if v == c || (v >= MINOR && more) {
        CaptureClass::Neutral
    } else {
        CaptureClass::Disadvantageous
    }
}

/// SEE > 0 advantageous, = 0 neutral, < 0 disadvantageous.
pub fn classify_by_see(value: i32) -> CaptureClass {
    match value {
        v if v > 0 => CaptureClass::Advantageous,
        0 => CaptureClass::Neutral,
        _ => CaptureClass::Disadvantageous,
    }
}

/// The piece a capture takes (a pawn for en passant); `None` for a non-capture.
pub fn victim(board: &Board, mv: Move) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        return board.piece_on(mv.to);
    }
    // Otherwise only en passant captures: a pawn moving to another file lands on an empty square
    // (castling, king takes own rook, is no pawn move).
    (board.pieces(Piece::Pawn).has(mv.from) && mv.from.file() != mv.to.file())
        .then_some(Piece::Pawn)
}

/// Classifies a capture as the configuration says (attack counts, or SEE with `see = true`).
pub fn classify(
    board: &Board,
    mv: Move,
    victim: Piece,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> CaptureClass {
    let class = if config.see {
        stats.see_calls += 1;
        classify_by_see(see(board, mv))
    } else {
        let capturer = board.piece_on(mv.from).expect("a move starts on a piece");
        // A king's capture, or a lower value class taking a higher one, is advantageous whatever
        // the counts say: count only when they can matter.
        if capturer == Piece::King || value_class(victim) > value_class(capturer) {
            CaptureClass::Advantageous
        } else {
            // An undefended target is advantageous too: the own count is not needed then.
            let enemy = count_attacks(board, mv.to, !board.side_to_move());
            if enemy.count == 0 {
                CaptureClass::Advantageous
            } else {
                let own = count_attacks(board, mv.to, board.side_to_move());
                classify_by_attacks(capturer, victim, own, enemy)
            }
        }
    };
    match class {
        CaptureClass::Advantageous => stats.captures_advantageous += 1,
        CaptureClass::Neutral => stats.captures_neutral += 1,
        CaptureClass::Disadvantageous => stats.captures_disadvantageous += 1,
    }
    class
}

/// Whether the piece a promotion creates stands en prise (seed 003: such a promotion is only
/// neutral in the QS order): the opponent's capture of it by its least valuable attacker would be
/// advantageous for the opponent — by attack counts, or with `see` by a static exchange that does
/// not keep the whole gain of the promotion.
pub fn promotion_en_prise(board: &Board, mv: Move, see_on: bool) -> bool {
    let Some(new_piece) = mv.promotion else {
        return false;
    };
    if see_on {
        let taken = victim(board, mv).map_or(0, piece_value);
        return see(board, mv) < taken + piece_value(new_piece) - piece_value(Piece::Pawn);
    }
    let mut child = board.clone();
    child.play_unchecked(mv);
    let them = child.side_to_move();
    let all = attackers(&child, mv.to, child.occupied()) & child.colors(them);
    let Some(capturer) = Piece::ALL
        .into_iter()
        .find(|&p| !(all & child.pieces(p)).is_empty())
    else {
        return false;
    };
    let (theirs, ours) = (
        count_attacks(&child, mv.to, them),
        count_attacks(&child, mv.to, !them),
    );
    if capturer == Piece::King && ours.count > 0 {
        return false; // the king cannot take a defended piece
    }
    classify_by_attacks(capturer, new_piece, theirs, ours) == CaptureClass::Advantageous
}

/// The QS capture filter: is this capture *potentially advantageous*?
///
/// - `fischerle` without SEE: (a) a higher value class is captured by a lower one, or (b) the side to
///   move has more attacks (direct and x-ray) on the square than the opponent;
/// - `fischerle` with `see = true`: SEE ≥ 0;
/// - `all`: every capture.
pub fn worth_capturing(
    board: &Board,
    mv: Move,
    victim: Piece,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> bool {
    match config.qsearch.captures {
        CaptureFilter::All => true,
        CaptureFilter::Fischerle if config.see => {
            stats.see_calls += 1;
            see(board, mv) >= 0
        }
        CaptureFilter::Fischerle => {
            let capturer = board.piece_on(mv.from).expect("a move starts on a piece");
            if value_class(victim) > value_class(capturer) {
                return true;
            }
            // The capturer attacks the square, so the own count is at least 1: an undefended
            // target needs no second count.
            let enemy = count_attacks(board, mv.to, !board.side_to_move());
            enemy.count == 0
                || count_attacks(board, mv.to, board.side_to_move()).count > enemy.count
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, parse_uci_move};
    use CaptureClass::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// `victim` equals its definition (en passant takes a pawn, otherwise whatever enemy
        /// piece stands on the target) for every legal move of positions of random games.
        #[test]
        fn victim_is_its_definition(seed in 0u64..u64::MAX, plies in 0usize..120) {
            let b = crate::board::random_playout(seed, plies);
            for mv in crate::board::legal_moves(&b) {
                let defined = if crate::board::is_en_passant(&b, mv) {
                    Some(Piece::Pawn)
                } else if b.color_on(mv.to) == Some(!b.side_to_move()) {
                    b.piece_on(mv.to)
                } else {
                    None
                };
                proptest::prop_assert_eq!(victim(&b, mv), defined);
            }
        }
    }

    fn class_of(fen: &str, uci: &str) -> CaptureClass {
        let b = parse_fen(fen).unwrap();
        let mv = parse_uci_move(&b, uci).unwrap();
        let v = victim(&b, mv).unwrap();
        classify(
            &b,
            mv,
            v,
            &SearchConfig::fischerle(),
            &mut SearchStats::default(),
        )
    }

    // Row 1: no enemy attack on the square.
    #[test]
    fn rook_takes_undefended_pawn_is_advantageous() {
        assert_eq!(
            class_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            Advantageous
        );
    }

    // Row 1: higher class captured.
    #[test]
    fn rook_takes_defended_queen_is_advantageous() {
        assert_eq!(
            class_of("4k3/8/4p3/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            Advantageous
        );
    }

    // Row 1: same class, own attacks > enemy attacks, through a battery (x-ray).
    #[test]
    fn rook_takes_rook_with_battery_is_advantageous() {
        assert_eq!(
            class_of("4k3/3r4/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            Advantageous
        );
    }

    // Row 1: own > enemy and only the enemy king defends.
    #[test]
    fn rook_takes_pawn_defended_by_king_only_with_support_is_advantageous() {
        assert_eq!(
            class_of("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            Advantageous
        );
    }

    // Row 2: same class captured, balance not better.
    #[test]
    fn rook_takes_defended_rook_is_neutral() {
        assert_eq!(
            class_of("4k3/3r4/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            Neutral
        );
    }

    // Row 2: lower class captured with more attacks.
    #[test]
    fn rook_takes_defended_knight_with_battery_is_neutral() {
        assert_eq!(
            class_of("4k3/8/4p3/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            Neutral
        );
    }

    // Row 3 of the seed's rook rule: a pawn is not "at least a minor piece", so a defended R×P
    // stays disadvantageous even with more own attacks (the old generalisation said neutral).
    #[test]
    fn rook_takes_defended_pawn_with_battery_is_disadvantageous() {
        assert_eq!(
            class_of("4k3/8/2p5/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            Disadvantageous
        );
    }

    // The same for the other pieces by value class: N×P and Q×P defended, with more attacks.
    #[test]
    fn pieces_taking_a_defended_pawn_with_more_attacks_are_disadvantageous() {
        assert_eq!(
            class_of("4k3/8/2p5/3p4/8/4N3/3R4/4K3 w - - 0 1", "e3d5"),
            Disadvantageous
        );
        assert_eq!(
            class_of("4k3/8/2p5/3p4/8/8/3Q4/3RK3 w - - 0 1", "d2d5"),
            Disadvantageous
        );
    }

    // Row 2 for the queen: a minor piece with more attacks is neutral.
    #[test]
    fn queen_takes_defended_knight_with_more_attacks_is_neutral() {
        assert_eq!(
            class_of("4k3/8/2p5/3n4/8/8/3Q4/3RK3 w - - 0 1", "d2d5"),
            Neutral
        );
    }

    // Row 3: lower class captured, not more attacks.
    #[test]
    fn rook_takes_pawn_defended_by_pawn_is_disadvantageous() {
        assert_eq!(
            class_of("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            Disadvantageous
        );
    }

    // x-ray behind a pawn: the bishop behind the capturing pawn's diagonal adds an attack.
    #[test]
    fn knight_takes_knight_with_bishop_behind_pawn_is_advantageous() {
        // Nxd4: own attacks = knight e2 + pawn c3 + bishop b2 (behind c3) = 3; enemy: pawn e5, knight c6... 2.
        assert_eq!(
            class_of("4k3/8/2n5/4p3/3n4/2P5/1B2N3/4K3 w - - 0 1", "e2d4"),
            Advantageous
        );
    }

    #[test]
    fn pawn_takes_pawn_is_at_least_neutral() {
        assert_eq!(
            class_of("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            Neutral
        );
    }

    #[test]
    fn king_captures_are_advantageous() {
        assert_eq!(
            class_of("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2"),
            Advantageous
        );
    }

    #[test]
    fn bishop_takes_defended_knight_is_neutral_not_advantageous() {
        assert_eq!(
            class_of("4k3/8/4p3/3n4/8/8/B7/4K3 w - - 0 1", "a2d5"),
            Neutral
        );
    }

    #[test]
    fn see_switch_replaces_the_table() {
        let b = parse_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        let mv = parse_uci_move(&b, "d1d5").unwrap();
        let mut stats = SearchStats::default();
        let config = SearchConfig {
            see: true,
            ..SearchConfig::fischerle()
        };
        assert_eq!(
            classify(&b, mv, Piece::Pawn, &config, &mut stats),
            Disadvantageous
        );
        assert_eq!(stats.see_calls, 1);
    }

    #[test]
    fn qs_filter_rules_a_and_b() {
        let config = SearchConfig::fischerle();
        let mut stats = SearchStats::default();
        let mut check = |fen: &str, uci: &str| {
            let b = parse_fen(fen).unwrap();
            let mv = parse_uci_move(&b, uci).unwrap();
            worth_capturing(&b, mv, victim(&b, mv).unwrap(), &config, &mut stats)
        };
        // (a) pawn takes a defended knight.
        assert!(check("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"));
        // neither: rook takes a pawn defended by a pawn.
        assert!(!check("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"));
        // (b) rook takes a pawn defended once, attacked twice.
        assert!(check("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"));
    }
}
