//! Late move reductions: quiet moves late in the order are first searched shallower with a null
//! window, and again at their full level only when they beat alpha there. Off in `fischerle`.

use cozy_chess::{Board, Move};

use crate::search::ordering::is_quiet;
use crate::search::record::Recorder;
use crate::search::Searcher;

/// The facts about one move that its reduction depends on.
pub(super) struct LateMove<'a> {
    /// The node's position and the child's.
    pub boards: (&'a Board, &'a Board),
    /// The move.
    pub mv: Move,
    /// Its place in the order (0 = first).
    pub rank: usize,
    /// The node's level.
    pub level: i32,
    /// Whether the node is in check.
    pub in_check: bool,
    /// Whether the node has an open window (a PV node).
    pub pv_node: bool,
    /// Whether the node is an expected cut node.
    pub cut_node: bool,
    /// Whether the node is improving.
    pub improving: bool,
    /// The node's ply.
    pub ply: usize,
}

impl<R: Recorder> Searcher<R> {
    /// Levels the move is reduced by: `base + ln(level) × ln(rank + 1) / divisor`, rounded down,
    /// one less at PV nodes and for moves with a history score, one more at expected cut nodes
    /// (each when switched on); 0 for a move that is not quiet or gives check, in check, below
    /// `min_level` or before `min_rank`.
    pub(super) fn late_move_reduction(&self, m: &LateMove) -> i32 {
        let Some(lmr) = &self.config.lmr else {
            return 0;
        };
        let (board, child) = m.boards;
        if m.in_check
            || m.level < lmr.min_level
            || m.rank < lmr.min_rank
            || !child.checkers().is_empty()
            || !is_quiet(board, m.mv)
        {
            return 0;
        }
        let table = f64::from(m.level).ln() * ((m.rank + 1) as f64).ln() / lmr.divisor;
        let mut reduction = (lmr.base + table) as i32;
        reduction -= i32::from(lmr.pv_less && m.pv_node);
        let good_history = self
            .history
            .as_ref()
            .is_some_and(|h| h.score(board.side_to_move(), m.mv) > 0);
        reduction -= i32::from(lmr.history_less && good_history);
        reduction += i32::from(lmr.cut_more && m.cut_node && !m.pv_node);
        reduction += i32::from(lmr.improving && !m.improving);
        if let Some(divisor) = lmr.history_divisor {
            let history = self.quiet_history(board, m.mv, m.ply);
            reduction -= (history / i64::from(divisor.max(1))) as i32;
        }
        reduction.max(0)
    }

    /// A quiet move's history at the node at `ply`: the butterfly score plus the continuation
    /// scores after the previous move and (with `plies = 2`) the one before it, each where on.
    pub(super) fn quiet_history(&self, board: &Board, mv: Move, ply: usize) -> i64 {
        let butterfly = self
            .history
            .as_ref()
            .map_or(0, |h| h.score(board.side_to_move(), mv));
        let continuation = match (self.continuations.as_ref(), board.piece_on(mv.from)) {
            (Some(table), Some(piece)) => {
                let plies = self
                    .config
                    .continuation_history
                    .as_ref()
                    .map_or(1, |c| c.plies as usize);
                (0..plies.min(ply))
                    .filter_map(|back| self.stack[ply - back].moved)
                    .map(|previous| table.score(previous, piece, mv))
                    .sum()
            }
            _ => 0,
        };
        i64::from(butterfly) + i64::from(continuation)
    }
}
