//! The search stack: what the search keeps for each ply of the current path ([`Frame`], as
//! Stockfish's `Stack` and Carp's `SearchStackEntry`), and what a node is told by its parent
//! ([`Node`]), passed to it as a value rather than written into a slot for it to find.

use cozy_chess::Move;

use crate::eval::{Placement, Score};
use crate::search::continuation::Previous;
use crate::search::ordering::MoveList;
use crate::search::record::Probe;
use crate::search::selective::Budget;

/// The state of one ply of the current search path.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frame {
    /// The node's move list, reused from search to search (no allocation per node).
    pub moves: MoveList,
    /// Material and placement of the position at this ply: the evaluation's running sums,
    /// updated as moves are made (they never change a value).
    pub placement: Placement,
    /// The move that led to the position at this ply: `None` at the root and after a null move.
    pub previous: Option<Move>,
    /// `previous` as the continuation table reads it (its piece and target square), kept with
    /// continuation history on for the node two plies further (`continuation_history.plies`).
    pub moved: Option<Previous>,
    /// The static evaluation of the node at this ply once a step has asked for it (Stockfish's
    /// `ss->staticEval`): the pruning steps share one evaluation. Cleared when a node is entered.
    pub static_eval: Option<Score>,
}

/// What a main-search node is told by its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node {
    /// Lower bound of the window.
    pub alpha: Score,
    /// Upper bound of the window.
    pub beta: Score,
    /// Remaining depth.
    pub level: i32,
    /// Distance from the root.
    pub ply: usize,
    /// What selective deepening may still insert on this path.
    pub budget: Budget,
    /// Whether the parent expects this node to fail high (Knuth and Moore's cut node): it was
    /// searched with a null window as a later move of a PV node, or below an all node. Read by
    /// `lmr.cut_more`.
    pub cut: bool,
    /// Whether a null move may be tried (not twice in a row).
    pub null_ok: bool,
    /// Why the parent searches it (for a recorded tree; the search does not read it).
    pub probe: Probe,
    /// The move a singular verification leaves out (`singular.search = "excluded"`): the node
    /// is its parent's position searched again without its TT move.
    pub excluded: Option<Move>,
}

impl Node {
    /// The root of an iteration, searched with the window `(alpha, beta)`.
    pub fn root((alpha, beta): (Score, Score), level: i32, budget: Budget) -> Self {
        Self {
            alpha,
            beta,
            level,
            ply: 0,
            budget,
            cut: false,
            null_ok: true,
            probe: Probe::Plain,
            excluded: None,
        }
    }

    /// A child of this node searched with `window` as this node sees it (the child's own window
    /// is its negation), to `level`, with `budget`; `cut` if it is expected to fail high.
    pub fn child(
        &self,
        (alpha, beta): (Score, Score),
        level: i32,
        budget: Budget,
        cut: bool,
    ) -> Self {
        Self {
            alpha: -beta,
            beta: -alpha,
            level,
            ply: self.ply + 1,
            budget,
            cut,
            null_ok: true,
            probe: Probe::Plain,
            excluded: None,
        }
    }

    /// Whether the window is open (a PV node) rather than null.
    pub fn is_pv(&self) -> bool {
        self.beta - self.alpha > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_sees_the_window_negated_one_ply_further() {
        let budget = Budget {
            dyn_left: 2,
            triv_left: 1,
        };
        let root = Node::root((-50, 50), 6, budget);
        assert!(root.is_pv() && !root.cut && root.null_ok);
        let child = root.child((10, 11), 5, budget, true);
        assert_eq!((child.alpha, child.beta, child.ply), (-11, -10, 1));
        assert!(!child.is_pv() && child.cut);
    }
}
