//! The solving rules. By default as Arasan and PolyGlot apply it: a position is solved if the
//! final best move is one of the `bm` moves or, with only `am` given, none of the `am` moves (`bm`
//! wins when both appear). With `--mate`, as matetrack does for positions that state a mate
//! length: solved means a mate in at most that many moves, reported with a legal PV that ends in
//! mate. Time, nodes and depth *to solution* are those of the iteration where the answer first
//! became right and then stayed right to the end ("found and kept"); the first iteration where it
//! was right is recorded too ("first seen").

use cozy_chess::{Board, GameStatus};
use engine::search::score::MATE;
use engine::Iteration;

/// What the rule says about one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Solution {
    /// The final answer is right.
    pub solved: bool,
    /// Index of the iteration from which the answer was right to the end.
    pub kept_from: Option<usize>,
    /// Index of the first iteration whose answer was right.
    pub first_seen: Option<usize>,
}

/// What counts as a right answer for one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The best move is one of `best` (UCI) or, with no `best`, none of `avoid`.
    Moves {
        /// `bm`, in UCI.
        best: Vec<String>,
        /// `am`, in UCI.
        avoid: Vec<String>,
    },
    /// A mate in at most `moves` moves for the side to move of `board`, with a legal PV ending
    /// in mate (matetrack's rule).
    Mate {
        /// The position.
        board: Board,
        /// The stated mate length, in moves.
        moves: u32,
    },
}

impl Answer {
    /// Whether an iteration's answer is right.
    pub fn accepts(&self, it: &Iteration) -> bool {
        match self {
            Answer::Moves { best, avoid } => is_correct(&it.best_move, best, avoid),
            Answer::Mate { board, moves } => is_proven_mate(board, *moves, it),
        }
    }
}

/// Whether `mv` (UCI) is a correct answer for the `bm` / `am` lists (UCI).
pub fn is_correct(mv: &str, best: &[String], avoid: &[String]) -> bool {
    if !best.is_empty() {
        best.iter().any(|b| b == mv)
    } else {
        !avoid.is_empty() && !avoid.iter().any(|a| a == mv)
    }
}

/// A mate score within `moves` moves whose PV is legal, at most that long, and ends in mate.
fn is_proven_mate(board: &Board, moves: u32, it: &Iteration) -> bool {
    let plies = 2 * moves as i32 - 1;
    let scored = it.score > 0 && MATE - it.score <= plies;
    if !scored || it.pv.is_empty() || it.pv.len() > plies as usize {
        return false;
    }
    let mut b = board.clone();
    for text in &it.pv {
        match engine::board::parse_uci_move(&b, text) {
            Ok(mv) if b.try_play(mv).is_ok() => {}
            _ => return false,
        }
    }
    b.status() == GameStatus::Won
}

/// Applies the rule to completed iterations, in order.
pub fn judge(iterations: &[Iteration], answer: &Answer) -> Solution {
    let correct: Vec<bool> = iterations.iter().map(|it| answer.accepts(it)).collect();
    let solved = correct.last().copied().unwrap_or(false);
    let kept_from = solved.then(|| correct.iter().rposition(|&c| !c).map_or(0, |i| i + 1));
    let first_seen = correct.iter().position(|&c| c);
    Solution {
        solved,
        kept_from,
        first_seen,
    }
}

/// Whether the answer has been right for the last `k` iterations (the optional early stop).
pub fn kept_for(iterations: &[Iteration], answer: &Answer, k: usize) -> bool {
    k > 0
        && iterations.len() >= k
        && iterations[iterations.len() - k..]
            .iter()
            .all(|it| answer.accepts(it))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn its(moves: &[&str]) -> Vec<Iteration> {
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| Iteration {
                depth: i as i32 + 1,
                nodes: 10,
                qnodes: 5,
                total_nodes: 10 * (i as u64 + 1),
                time_ms: i as f64,
                seldepth: 0,
                best_move: m.to_string(),
                score: 0,
                pv: vec![],
            })
            .collect()
    }
    fn v(m: &[&str]) -> Vec<String> {
        m.iter().map(|s| s.to_string()).collect()
    }

    fn moves(best: &[&str], avoid: &[&str]) -> Answer {
        Answer::Moves {
            best: v(best),
            avoid: v(avoid),
        }
    }

    #[test]
    fn found_and_kept_versus_first_seen() {
        let s = judge(
            &its(&["a2a3", "g3g6", "a2a3", "g3g6", "g3g6"]),
            &moves(&["g3g6"], &[]),
        );
        assert_eq!(
            s,
            Solution {
                solved: true,
                kept_from: Some(3),
                first_seen: Some(1)
            }
        );
    }

    #[test]
    fn lost_at_the_end_is_unsolved() {
        let s = judge(&its(&["g3g6", "a2a3"]), &moves(&["g3g6"], &[]));
        assert_eq!(
            s,
            Solution {
                solved: false,
                kept_from: None,
                first_seen: Some(0)
            }
        );
    }

    #[test]
    fn avoid_moves_alone_and_bm_wins_over_am() {
        assert!(judge(&its(&["b1c3"]), &moves(&[], &["a2a3"])).solved);
        assert!(!judge(&its(&["a2a3"]), &moves(&[], &["a2a3"])).solved);
        assert!(!judge(&its(&["b1c3"]), &moves(&["g3g6"], &["a2a3"])).solved);
        assert!(!judge(&[], &moves(&["g3g6"], &[])).solved);
    }

    #[test]
    fn early_stop_needs_k_correct_iterations() {
        let it = its(&["a2a3", "g3g6", "g3g6"]);
        assert!(kept_for(&it, &moves(&["g3g6"], &[]), 2));
        assert!(!kept_for(&it, &moves(&["g3g6"], &[]), 3));
        assert!(!kept_for(&it, &moves(&["g3g6"], &[]), 0));
    }

    #[test]
    fn a_mate_counts_when_short_enough_and_its_pv_ends_in_mate() {
        // Back-rank mate in one: Ra8#.
        let board: Board = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".parse().unwrap();
        let answer = |moves| Answer::Mate {
            board: board.clone(),
            moves,
        };
        let it = |score: i32, pv: &[&str]| Iteration {
            score,
            pv: v(pv),
            ..its(&["a1a8"])[0].clone()
        };
        assert!(answer(1).accepts(&it(MATE - 1, &["a1a8"])));
        assert!(answer(2).accepts(&it(MATE - 1, &["a1a8"])));
        // Not a mate score; a PV that does not mate; an illegal PV; a mate longer than stated.
        assert!(!answer(1).accepts(&it(900, &["a1a8"])));
        assert!(!answer(1).accepts(&it(MATE - 1, &["a1a7"])));
        assert!(!answer(1).accepts(&it(MATE - 1, &["a1h8"])));
        assert!(!answer(1).accepts(&it(MATE - 3, &["a1a7", "g8f8", "a7a8"])));
    }
}
