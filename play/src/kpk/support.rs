//! The support of a claim (the 1989 text, §3.2): the rule-decided positions a claimed win or loss
//! rests on, traced through the interval search's stored results. `cycles` looks for circles in
//! it; `validate` records it for each confirmed claim.

use std::collections::BTreeSet;

use cozy_chess::{Board, Move, Piece};
use engine::board::legal_moves;
use engine::interval::{game_over, IntervalSearch, Knowledge, Wdl, SETTLED};
use rustc_hash::FxHashSet;

use super::knowledge::RulesAndTables;
use super::table::Placement;

/// The rule-decided positions (table indices) the proof of `claimed` for `root` rests on,
/// traced through the searcher's stored point results: at the winner's turn one winning move
/// (the rule's, else an irreversible pawn move, else the stored best), at the loser's every
/// move. `None` when the stored results do not hold a complete proof.
pub fn support(
    search: &IntervalSearch<RulesAndTables>,
    knowledge: &RulesAndTables,
    root: &Board,
    claimed: Wdl,
    first: Option<Move>,
) -> Option<Vec<u32>> {
    let mut found = BTreeSet::new();
    let mut seen = FxHashSet::default();
    let mut stack = vec![(root.clone(), claimed, true)];
    while let Some((board, want, is_root)) = stack.pop() {
        if !seen.insert(board.hash()) {
            continue;
        }
        let moves = legal_moves(&board);
        if !is_root {
            match settled(knowledge, &board, &moves) {
                Some((w, _)) if w != want => return None,
                Some((_, Some(rule_decided))) => {
                    found.insert(rule_decided);
                    continue;
                }
                Some((_, None)) => continue,
                None => {}
            }
        }
        match want {
            Wdl::Win => {
                let preferred = if is_root { first } else { None };
                let mv = winning_move(search, knowledge, &board, &moves, preferred)?;
                stack.push((after(&board, mv), Wdl::Loss, false));
            }
            Wdl::Loss => stack.extend(moves.iter().map(|&mv| (after(&board, mv), Wdl::Win, false))),
            Wdl::Draw => return None,
        }
    }
    Some(found.into_iter().collect())
}

/// A position ends a line of the proof when the game is over or knowledge decides it: its value
/// and, when a KPK rule decided it, its table index. Positions the search settled are followed
/// further (they rest on others).
fn settled(
    knowledge: &RulesAndTables,
    board: &Board,
    moves: &[Move],
) -> Option<(Wdl, Option<u32>)> {
    if let Some(result) = game_over(board, moves) {
        return Some((result, None));
    }
    let known = knowledge.probe(board)?;
    let w = known.interval.exact()?;
    let index = (known.source != SETTLED)
        .then(|| Placement::of_board(board).map(|p| p.index() as u32))
        .flatten();
    Some((w, index))
}

/// The value a child is known to have: settled, or a stored point.
fn child_value(
    search: &IntervalSearch<RulesAndTables>,
    knowledge: &RulesAndTables,
    child: &Board,
) -> Option<Wdl> {
    settled(knowledge, child, &legal_moves(child))
        .map(|(w, _)| w)
        .or_else(|| search.stored(child).and_then(|v| v.interval.exact()))
}

/// A move to a child known lost: `preferred`, else a pawn move, else the stored best, else any.
fn winning_move(
    search: &IntervalSearch<RulesAndTables>,
    knowledge: &RulesAndTables,
    board: &Board,
    moves: &[Move],
    preferred: Option<Move>,
) -> Option<Move> {
    let stored = search.stored(board).and_then(|v| v.best);
    let pawn = |m: &Move| board.piece_on(m.from) == Some(Piece::Pawn);
    let candidates = preferred
        .into_iter()
        .chain(moves.iter().copied().filter(pawn))
        .chain(stored)
        .chain(moves.iter().copied());
    let mut tried = FxHashSet::default();
    candidates.into_iter().find(|&mv| {
        moves.contains(&mv)
            && tried.insert(mv)
            && child_value(search, knowledge, &after(board, mv)) == Some(Wdl::Loss)
    })
}

fn after(board: &Board, mv: Move) -> Board {
    let mut b = board.clone();
    b.play_unchecked(mv);
    b
}
