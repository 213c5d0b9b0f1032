//! The staged move order of today's engines (`ordering = "staged"`): every legal move gets one
//! score and the list is sorted by it, best first. The stages, from the top:
//!
//! | stage | moves | within the stage |
//! |---|---|---|
//! | TT move | the TT move | — |
//! | good noisy | captures that do not lose material by SEE, queen promotions | victim, then attacker (MVV-LVA) |
//! | killers | quiet killers of the node's slot | slot order |
//! | countermove | the quiet refutation of the previous move | — |
//! | quiet | every other quiet move | history: butterfly + continuation (each where on) |
//! | bad noisy | captures that lose material by SEE | MVV-LVA |
//! | under-promotions | knight, rook and bishop promotions | generation order |
//!
//! Unlike Fischerle's buckets, a capture is placed by what it takes and what it risks (N×P after
//! R×Q), and no quiet move is left in generation order.

use cozy_chess::{Board, Move, Piece};

use crate::eval::piece_value;
use crate::search::classify::victim;
use crate::search::ordering::{is_quiet, quiet_score, Hints, MoveList, OrderedMove, Source};
use crate::search::see::see;

/// Where each stage starts: a stage's scores all lie above the next stage's.
const TT_MOVE: i64 = 5 << 40;
const GOOD_NOISY: i64 = 4 << 40;
const KILLER: i64 = 3 << 40;
const COUNTERMOVE: i64 = KILLER - 64;
const QUIET: i64 = 2 << 40;
const BAD_NOISY: i64 = 1 << 40;
const UNDER_PROMOTION: i64 = 0;

/// Which stages the order has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stages {
    /// The quiet moves other than killers and the countermove are left unscored, in generation
    /// order where their stage begins, for [`score_quiets`] once the search gets there.
    pub picker: bool,
    /// Captures that lose material by SEE form the bad-noisy stage after the quiet moves; without
    /// it every capture is good noisy, by MVV-LVA.
    pub bad_captures_last: bool,
}

/// All legal moves of `board` in the staged order into `out`; `keys` is a reused buffer.
pub(super) fn order_staged(
    board: &Board,
    hints: &Hints,
    keys: &mut Vec<i64>,
    out: &mut MoveList,
    stages: Stages,
) {
    let picker = stages.picker;
    out.clear();
    keys.clear();
    board.generate_moves(|pm| {
        for mv in pm {
            let (key, source) = score(board, hints, mv, pm.piece, stages);
            out.push(mv, source);
            keys.push(key);
        }
        false
    });
    sort_descending(keys, out);
    if picker {
        // Unscored quiet moves all carry exactly `QUIET`, and the sort is stable: one block.
        let start = keys.partition_point(|&k| k > QUIET);
        let end = keys.partition_point(|&k| k >= QUIET);
        out.set_unscored(start..end);
    }
}

/// Scores the quiet moves a move picker left unscored by their history as it is now and sorts
/// them, best first, ties in generation order: the order [`order_staged`] would have given them
/// with these tables. `keys` is a reused buffer.
pub(super) fn score_quiets(board: &Board, hints: &Hints, keys: &mut Vec<i64>, out: &mut MoveList) {
    let Some(range) = out.take_unscored() else {
        return;
    };
    let quiets = &mut out.as_mut_slice()[range];
    keys.clear();
    for ordered in quiets.iter_mut() {
        let history = quiet_score(board, hints, ordered.mv);
        ordered.source = quiet_source(history);
        keys.push(history);
    }
    sort_slice_descending(keys, quiets);
}

/// A move's score and why it stands where it does; with `picker` a quiet move's history is not
/// read yet.
fn score(board: &Board, hints: &Hints, mv: Move, piece: Piece, stages: Stages) -> (i64, Source) {
    if hints.tt_move == Some(mv) {
        return (TT_MOVE, Source::TtMove);
    }
    if !is_quiet(board, mv) {
        return (
            noisy_score(board, mv, piece, stages.bad_captures_last),
            Source::Scheme,
        );
    }
    if let Some(slot) = hints.killers.iter().position(|k| *k == Some(mv)) {
        return (KILLER - slot as i64, Source::Killer);
    }
    if hints.countermove == Some(mv) {
        return (COUNTERMOVE, Source::Countermove);
    }
    if stages.picker {
        return (QUIET, Source::Scheme);
    }
    let history = quiet_score(board, hints, mv);
    (QUIET + history, quiet_source(history))
}

/// A quiet move placed by a positive history score was moved up by it.
fn quiet_source(history: i64) -> Source {
    if history > 0 {
        Source::History
    } else {
        Source::Scheme
    }
}

/// Captures and promotions: queen promotions and captures that SEE does not lose are good,
/// other captures bad (with `bad_captures_last`; good without it), under-promotions last.
fn noisy_score(board: &Board, mv: Move, piece: Piece, bad_captures_last: bool) -> i64 {
    let captured = victim(board, mv);
    let taken = captured.map_or(0, |v| v as i64 + 1);
    let mvv_lva = taken * 8 - piece as i64;
    match mv.promotion {
        Some(Piece::Queen) => GOOD_NOISY + 64 + mvv_lva,
        Some(_) => UNDER_PROMOTION + mvv_lva,
        None if !bad_captures_last
            || surely_not_losing(mv, piece, captured)
            || see(board, mv) >= 0 =>
        {
            GOOD_NOISY + mvv_lva
        }
        None => BAD_NOISY + mvv_lva,
    }
}

/// A capture of a piece worth at least the capturer loses nothing by SEE (its exchange is worth at
/// least victim − capturer), except where a recapturing pawn would promote: SEE is not needed.
fn surely_not_losing(mv: Move, piece: Piece, captured: Option<Piece>) -> bool {
    let back_rank = matches!(
        mv.to.rank(),
        cozy_chess::Rank::First | cozy_chess::Rank::Eighth
    );
    captured.is_some_and(|v| piece_value(v) >= piece_value(piece)) && !back_rank
}

/// Sorts `moves` by `keys`, highest first, ties in generation order: an insertion sort, which
/// a node's few dozen moves make cheaper than a general sort's set-up.
fn sort_descending(keys: &mut [i64], moves: &mut MoveList) {
    sort_slice_descending(keys, moves.as_mut_slice());
}

/// [`sort_descending`] on a slice of moves.
fn sort_slice_descending(keys: &mut [i64], moves: &mut [OrderedMove]) {
    for i in 1..moves.len() {
        let (key, mv) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = mv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{legal_moves, parse_fen, parse_uci_move, uci_move};
    use crate::search::history::HistoryTable;
    use cozy_chess::Color;

    const STAGED: Stages = Stages {
        picker: false,
        bad_captures_last: true,
    };

    #[test]
    fn without_the_bad_capture_stage_a_losing_capture_comes_before_the_quiet_moves() {
        // Qxd5 loses the queen for a pawn (c6 recaptures): last but the under-promotions with
        // the stage, first without it.
        let b = parse_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let order = |bad_captures_last| {
            let mut out = MoveList::default();
            let stages = Stages {
                bad_captures_last,
                ..STAGED
            };
            order_staged(&b, &Hints::default(), &mut Vec::new(), &mut out, stages);
            out.as_slice()
                .iter()
                .map(|m| uci_move(&b, m.mv))
                .collect::<Vec<_>>()
        };
        let (with, without) = (order(true), order(false));
        assert_eq!(with.last().map(String::as_str), Some("d2d5"));
        assert_eq!(without.first().map(String::as_str), Some("d2d5"));
        assert_eq!(with[..with.len() - 1], without[1..]);
    }

    fn ordered(board: &Board, hints: &Hints) -> Vec<String> {
        let mut out = MoveList::default();
        order_staged(board, hints, &mut Vec::new(), &mut out, STAGED);
        out.as_slice()
            .iter()
            .map(|m| uci_move(board, m.mv))
            .collect()
    }

    /// White can take the queen defended by a pawn with the knight or the rook (either wins
    /// material), and the pawn on b5, defended by c6, with the knight or the queen (either loses).
    const CAPTURES: &str = "4k3/8/2p5/1p1q4/3R4/2N5/1Q6/4K3 w - - 0 1";

    #[test]
    fn captures_by_victim_then_attacker_and_losing_ones_after_the_quiet_moves() {
        let b = parse_fen(CAPTURES).unwrap();
        let got = ordered(&b, &Hints::default());
        assert_eq!(&got[..2], ["c3d5", "d4d5"], "{got:?}");
        let last_quiet = got.iter().rposition(|m| {
            let mv = parse_uci_move(&b, m).unwrap();
            is_quiet(&b, mv)
        });
        assert_eq!(last_quiet, Some(got.len() - 3), "{got:?}");
        assert_eq!(&got[got.len() - 2..], ["c3b5", "b2b5"], "{got:?}");
        let mut sorted = got.clone();
        sorted.sort();
        let mut all: Vec<String> = legal_moves(&b).iter().map(|&m| uci_move(&b, m)).collect();
        all.sort();
        assert_eq!(sorted, all, "every legal move once");
    }

    #[test]
    fn tt_move_then_killers_then_every_quiet_move_by_history() {
        let b = parse_fen(CAPTURES).unwrap();
        let mv = |m: &str| parse_uci_move(&b, m).unwrap();
        let mut table = HistoryTable::default();
        table.reward(Color::White, mv("e1f1"), 2);
        table.reward(Color::White, mv("b2a1"), 3);
        let killers = [Some(mv("c3a4"))];
        let hints = Hints {
            tt_move: Some(mv("b2b5")),
            killers: &killers,
            countermove: Some(mv("e1d1")),
            history: Some((&table, 0)),
            ..Hints::default()
        };
        let got = ordered(&b, &hints);
        let tail: Vec<&str> = got.iter().map(String::as_str).collect();
        assert_eq!(tail[0], "b2b5", "the TT move first, losing or not");
        let at = |m: &str| tail.iter().position(|g| *g == m).unwrap();
        assert_eq!(
            at("c3a4"),
            3,
            "the killer after the two good captures: {got:?}"
        );
        assert_eq!([at("e1d1"), at("b2a1"), at("e1f1")], [4, 5, 6], "{got:?}");
    }

    #[test]
    fn a_picker_scoring_its_quiet_moves_gives_the_staged_order() {
        let b = parse_fen(CAPTURES).unwrap();
        let mv = |m: &str| parse_uci_move(&b, m).unwrap();
        let mut table = HistoryTable::default();
        for (m, bonus) in [("e1f1", 2), ("b2a1", 3), ("d4d1", 5), ("b2c2", 1)] {
            table.reward(Color::White, mv(m), bonus);
        }
        let killers = [Some(mv("c3a4"))];
        let hints = Hints {
            tt_move: Some(mv("b2b5")),
            killers: &killers,
            countermove: Some(mv("e1d1")),
            history: Some((&table, 0)),
            ..Hints::default()
        };
        let mut keys = Vec::new();
        let mut staged = MoveList::default();
        order_staged(&b, &hints, &mut keys, &mut staged, STAGED);
        let mut picked = MoveList::default();
        let picker = Stages {
            picker: true,
            ..STAGED
        };
        order_staged(&b, &hints, &mut keys, &mut picked, picker);
        let from = picked.unscored_from().expect("quiet moves left to score");
        // Everything before the quiet stage is in place already, and nothing is lost.
        assert_eq!(picked.as_slice()[..from], staged.as_slice()[..from]);
        assert_eq!(picked.len(), staged.len());
        score_quiets(&b, &hints, &mut keys, &mut picked);
        assert_eq!(picked.unscored_from(), None);
        assert_eq!(picked.as_slice(), staged.as_slice());
    }
}
