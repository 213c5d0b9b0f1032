//! The solving rule, as Arasan and PolyGlot apply it. A position is solved if the final best move
//! is one of the `bm` moves or, with only `am` given, none of the `am` moves (`bm` wins when both
//! appear). Time, nodes and depth *to solution* are those of the iteration where the final best
//! move first became best and then stayed best to the end ("found and kept"); the first iteration
//! where a correct move was best is recorded too ("first seen").

use engine::Iteration;

/// What the rule says about one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Solution {
    /// The final best move is correct.
    pub solved: bool,
    /// Index of the iteration from which a correct move was best to the end.
    pub kept_from: Option<usize>,
    /// Index of the first iteration whose best move was correct.
    pub first_seen: Option<usize>,
}

/// Whether `mv` (UCI) is a correct answer for the `bm` / `am` lists (UCI).
pub fn is_correct(mv: &str, best: &[String], avoid: &[String]) -> bool {
    if !best.is_empty() {
        best.iter().any(|b| b == mv)
    } else {
        !avoid.is_empty() && !avoid.iter().any(|a| a == mv)
    }
}

/// Applies the rule to completed iterations, in order.
pub fn judge(iterations: &[Iteration], best: &[String], avoid: &[String]) -> Solution {
    let correct: Vec<bool> = iterations
        .iter()
        .map(|it| is_correct(&it.best_move, best, avoid))
        .collect();
    let solved = correct.last().copied().unwrap_or(false);
    let kept_from = solved.then(|| correct.iter().rposition(|&c| !c).map_or(0, |i| i + 1));
    let first_seen = correct.iter().position(|&c| c);
    Solution {
        solved,
        kept_from,
        first_seen,
    }
}

/// Whether a correct move has been best for the last `k` iterations (the optional early stop).
pub fn kept_for(iterations: &[Iteration], best: &[String], avoid: &[String], k: usize) -> bool {
    k > 0
        && iterations.len() >= k
        && iterations[iterations.len() - k..]
            .iter()
            .all(|it| is_correct(&it.best_move, best, avoid))
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

    #[test]
    fn found_and_kept_versus_first_seen() {
        let s = judge(
            &its(&["a2a3", "g3g6", "a2a3", "g3g6", "g3g6"]),
            &v(&["g3g6"]),
            &[],
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
        let s = judge(&its(&["g3g6", "a2a3"]), &v(&["g3g6"]), &[]);
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
        assert!(judge(&its(&["b1c3"]), &[], &v(&["a2a3"])).solved);
        assert!(!judge(&its(&["a2a3"]), &[], &v(&["a2a3"])).solved);
        assert!(!judge(&its(&["b1c3"]), &v(&["g3g6"]), &v(&["a2a3"])).solved);
        assert!(!judge(&[], &v(&["g3g6"]), &[]).solved);
    }

    #[test]
    fn early_stop_needs_k_correct_iterations() {
        let it = its(&["a2a3", "g3g6", "g3g6"]);
        assert!(kept_for(&it, &v(&["g3g6"]), &[], 2));
        assert!(!kept_for(&it, &v(&["g3g6"]), &[], 3));
        assert!(!kept_for(&it, &v(&["g3g6"]), &[], 0));
    }
}
