//! Quiescence search (Fischerle section 2). At level 0 it starts only if the side to move is in
//! check, has a potentially advantageous capture, or can promote; otherwise the static evaluation
//! is the score. In check all evasions are searched and there is no stand-pat. The level keeps
//! falling below 0 and `qsearch.min_level` bounds it. No TT, killers or history here.

use cozy_chess::Board;

use crate::eval::Score;
use crate::search::classify::victim;
use crate::search::ordering::{qsearch_moves, MoveList};
use crate::search::score::{mated_in, DRAW, INFINITY};
use crate::search::{Searcher, MAX_PLY};

impl Searcher {
    /// The QS node at `level` (≤ 0); `entry` marks the horizon node where the main search handed over.
    pub(crate) fn quiescence(
        &mut self,
        board: &Board,
        alpha: Score,
        beta: Score,
        level: i32,
        ply: usize,
        entry: bool,
    ) -> Score {
        // Step 1. Count the node; stop when a limit is reached.
        self.visit(ply);
        self.stats.qnodes += 1;
        if self.clock.should_stop(self.stats.nodes) {
            return 0;
        }

        // Step 2. Draws by rule at the horizon node: its move may have repeated a position or
        // completed fifty moves, and the static evaluation would not see it. Deeper QS nodes follow
        // captures and promotions, which cannot repeat; only an unbroken series of quiet evasions
        // that each give check could, and QS keeps no path for it.
        if entry && self.is_draw(board) {
            return DRAW;
        }

        // Step 3. Depth bound (QSMinSuchLevel).
        if level <= self.config.qsearch.min_level || ply >= MAX_PLY - 1 {
            self.stats.qs_depth_cutoffs += 1;
            return self.evaluate(board);
        }

        // Step 4. The moves QS looks at; in check, no evasion is mate.
        let in_check = !board.checkers().is_empty();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let legal = qsearch_moves(
            board,
            in_check,
            &self.config,
            &mut self.stats,
            &mut self.scratch,
            &mut moves,
        );
        let score = if in_check && moves.is_empty() {
            // Mate, or evasions that are all promotions outside the QS subset: with nothing it
            // may search, the node can only give the static evaluation.
            if legal == 0 {
                mated_in(ply)
            } else {
                self.evaluate(board)
            }
        } else {
            self.search_qs_moves(board, alpha, beta, level, ply, entry, in_check, &moves)
        };
        self.lists[ply] = moves;
        score
    }

    /// Steps 5–6 of a QS node over its generated moves.
    #[allow(clippy::too_many_arguments)]
    fn search_qs_moves(
        &mut self,
        board: &Board,
        mut alpha: Score,
        beta: Score,
        level: i32,
        ply: usize,
        entry: bool,
        in_check: bool,
        moves: &MoveList,
    ) -> Score {
        if entry && !self.count_entry(board, in_check, moves) {
            return self.evaluate(board);
        }

        // Step 5. Stand pat: outside check the side to move may decline every capture.
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate(board);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        // Step 6. Search the captures, promotions or evasions.
        for ordered in moves.as_slice() {
            let mut child = board.clone();
            child.play_unchecked(ordered.mv);
            let score = -self.quiescence(&child, -beta, -alpha, level - 1, ply + 1, false);
            if self.clock.stopped() {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, ordered.mv);
            }
            if score >= beta {
                break;
            }
        }
        best
    }

    /// Records why QS starts at the horizon; `false` when none of the three cases holds.
    fn count_entry(&mut self, board: &Board, in_check: bool, moves: &MoveList) -> bool {
        if in_check {
            self.stats.qs_entries_check += 1;
        } else if moves
            .as_slice()
            .iter()
            .any(|m| m.mv.promotion.is_none() && victim(board, m.mv).is_some())
        {
            self.stats.qs_entries_capture += 1;
        } else if !moves.is_empty() {
            self.stats.qs_entries_promotion += 1;
        } else {
            self.stats.qs_skipped += 1;
            return false;
        }
        true
    }
}
