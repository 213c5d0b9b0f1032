//! The main-search node: negamax alpha-beta as a list of named steps, each heuristic a small
//! function that reads the configuration, so an ablation changes one line.

use cozy_chess::{Board, Move, Piece};

use crate::eval::Score;
use crate::search::continuation::Previous;
use crate::search::ordering::{is_quiet, order_moves, Hints, MoveList, Source};
use crate::search::reductions::LateMove;
use crate::search::score::{mated_in, DRAW};
use crate::search::selective::{Budget, Step};
use crate::search::tt::{Bound, Entry};
use crate::search::{Searcher, MAX_PLY};

impl Searcher {
    /// Searches `board` to `level` (remaining depth) at `ply` (distance from the root) with the
    /// window (`alpha`, `beta`); `budget` is what selective deepening may still insert on this path.
    /// Returns a fail-soft score from the side to move's point of view.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn alphabeta(
        &mut self,
        board: &Board,
        mut alpha: Score,
        mut beta: Score,
        level: i32,
        ply: usize,
        budget: Budget,
        null_ok: bool,
    ) -> Score {
        // Step 1. Horizon: the quiescence search decides whether to look further.
        if level <= 0 {
            return self.quiescence(board, alpha, beta, 0, ply, true);
        }

        // Step 2. Count the node; stop when a limit is reached.
        self.visit(ply);
        let cut_node = self.cut_nodes[ply];
        if self.clock.should_stop(self.stats.nodes) {
            return 0;
        }

        // Step 3. Draws by rule (never at the root, which must return a move).
        if ply > 0 && self.is_draw(board) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(board, ply);
        }

        // Step 3b. Mate-distance pruning: only the mates still possible from here matter.
        if ply > 0 && self.config.mate_distance_pruning {
            match self.mate_distance_window(alpha, beta, ply) {
                Ok(window) => (alpha, beta) = window,
                Err(score) => return score,
            }
        }

        // Step 4. Transposition table: a deep enough score whose bound fits ends the node.
        let key = board.hash();
        let tt_entry = self.probe_tt(key, ply);
        if ply > 0 {
            if let Some(score) =
                tt_entry.and_then(|e| self.tt_cutoff(e, level, budget, alpha, beta))
            {
                return score;
            }
        }

        // Step 4b. Reverse futility pruning: near the horizon a static lead over beta stands.
        let in_check = !board.checkers().is_empty();
        if ply > 0 && !in_check {
            if let Some(score) = self.reverse_futility_prunes(board, alpha, beta, level, ply) {
                return score;
            }
        }

        // Step 4c. Limited razoring and internal iterative reduction: a shallower search here.
        let tt_move = tt_entry.and_then(|e| e.mv);
        let level = self.razored_level(board, alpha, level, ply, in_check);
        let level = self.iir_level(level, ply, tt_move);

        // Step 5. Generate and order the legal moves; none is mate or stalemate.
        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.ordered_moves(board, tt_move, ply, level, &mut moves);
        if ply == 0 {
            moves.restrict_to(self.clock.searchmoves());
        }
        if moves.is_empty() {
            self.lists[ply] = moves;
            return if in_check { mated_in(ply) } else { DRAW };
        }
        self.stats.record_legal_moves(moves.len());

        // Step 6. Selective deepening: few legal moves do not use up a level.
        let (child_level, child_budget) = self.selective_step(budget, moves.len(), level);

        // Step 7. Null-move pruning.
        if null_ok && ply > 0 && !in_check && self.null_move_prunes(board, beta, level, ply, budget)
        {
            return beta;
        }

        // Step 8. Search the moves in order.
        let alpha_orig = alpha;
        let mut best: Option<(Score, Move)> = None;
        self.path.push(key);
        let pruning = self.move_pruning(board, (alpha, beta), level, ply, in_check);
        // Step 8c (ahead of the loop). Singular extension of the TT move.
        let singular =
            self.tt_move_is_singular(board, &moves, tt_entry, (level, ply), child_budget);
        for (rank, ordered) in moves.as_slice().iter().enumerate() {
            let child = self.make(board, ordered.mv, ply);
            // Step 8a. Late move and futility pruning.
            if self.prunes_move((board, &child), ordered.mv, rank, &pruning, alpha) {
                continue;
            }
            // The child's level is its own: killers and history below use this node's `level`.
            let child_lvl = self.check_extension(&child, child_level, level, ply);
            let extend = singular && ordered.source == Source::TtMove;
            let child_lvl = if extend {
                child_lvl.max(child_level + 1)
            } else {
                child_lvl
            };
            self.singular_on_path += u32::from(extend);
            // Step 8b. Late move reductions.
            let pv_node = beta - alpha > 1;
            let reduction = self.late_move_reduction(&LateMove {
                boards: (board, &child),
                mv: ordered.mv,
                rank,
                level,
                in_check,
                pv_node,
                cut_node,
            });
            self.cut_nodes[ply + 1] = child_expects_cut(pv_node, cut_node, rank);
            let window = (alpha, beta);
            let score = self.search_child(
                &child,
                window,
                child_lvl,
                reduction,
                ply,
                child_budget,
                rank,
            );
            self.singular_on_path -= u32::from(extend);
            if self.clock.stopped() {
                self.path.pop();
                self.lists[ply] = moves;
                return 0;
            }
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, ordered.mv));
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, ordered.mv);
            }
            if score >= beta {
                self.on_cutoff(board, ordered.mv, ordered.source, rank, ply, level);
                break;
            }
        }
        self.path.pop();
        self.lists[ply] = moves;

        // Step 9. Remember the result.
        let (score, mv) = best.expect("a node with legal moves searched at least one");
        self.store_tt(key, ply, level, budget, score, mv, (alpha_orig, beta));
        score
    }

    /// Counts a node (main search or QS) and the deepest ply.
    pub(super) fn visit(&mut self, ply: usize) {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        self.pv.clear(ply);
    }

    /// The first move with the full window; with PVS the others with a null window first,
    /// re-searched when they beat alpha. A move reduced by late move reductions is first searched
    /// `reduction` levels shallower with a null window (never below level 1), and searched as
    /// usual only when it beats alpha there.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Board,
        (alpha, beta): (Score, Score),
        level: i32,
        reduction: i32,
        ply: usize,
        budget: Budget,
        rank: usize,
    ) -> Score {
        let reduced = (level - reduction).max(1);
        if reduced < level {
            self.stats.lmr_reductions += 1;
            let score = -self.alphabeta(child, -alpha - 1, -alpha, reduced, ply + 1, budget, true);
            if score <= alpha || self.clock.stopped() {
                return score;
            }
            self.stats.lmr_researches += 1;
        }
        if self.config.pvs && rank > 0 && beta - alpha > 1 {
            let score = -self.alphabeta(child, -alpha - 1, -alpha, level, ply + 1, budget, true);
            if score <= alpha || score >= beta || self.clock.stopped() {
                return score;
            }
        }
        if beta - alpha > 1 {
            self.cut_nodes[ply + 1] = false;
        }
        -self.alphabeta(child, -beta, -alpha, level, ply + 1, budget, true)
    }

    fn probe_tt(&mut self, key: u64, ply: usize) -> Option<Entry> {
        let tt = self.tt.as_ref()?;
        self.stats.tt_probes += 1;
        let entry = tt.probe(key, ply);
        self.stats.tt_hits += u64::from(entry.is_some());
        entry
    }

    /// A stored score replaces the search only if it is deep enough and its bound fits the window;
    /// with `tt.budget_aware`, only if it was also searched with at least this node's budget.
    fn tt_cutoff(
        &mut self,
        entry: Entry,
        level: i32,
        budget: Budget,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let tt = self.config.tt.as_ref().filter(|t| t.cutoffs)?;
        let fits = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => entry.score >= beta,
            Bound::Upper => entry.score <= alpha,
        };
        if entry.level < level || !fits {
            return None;
        }
        if tt.budget_aware && !entry.budget.covers(budget.saturated()) {
            self.stats.tt_budget_refusals += 1;
            return None;
        }
        self.stats.tt_cutoffs += 1;
        Some(entry.score)
    }

    #[allow(clippy::too_many_arguments)]
    fn store_tt(
        &mut self,
        key: u64,
        ply: usize,
        level: i32,
        budget: Budget,
        score: Score,
        mv: Move,
        (alpha, beta): (Score, Score),
    ) {
        let Some(tt) = self.tt.as_mut() else { return };
        let bound = if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        tt.store(
            key,
            ply,
            Entry {
                mv: Some(mv),
                score,
                level,
                bound,
                budget,
            },
        );
    }

    fn ordered_moves(
        &mut self,
        board: &Board,
        tt_move: Option<Move>,
        ply: usize,
        level: i32,
        out: &mut MoveList,
    ) {
        let Self {
            config,
            killers,
            history,
            countermoves,
            continuations,
            previous,
            stats,
            scratch,
            ..
        } = self;
        // Lazily: with the switch off, no lookup of the previous move's piece.
        let continuation = continuations
            .as_ref()
            .zip(config.continuation_history.as_ref())
            .and_then(|(table, c)| {
                let previous = previous[ply].and_then(|mv| Previous::of(board, mv))?;
                Some((table, previous, c.moves))
            });
        let hints = Hints {
            tt_move: tt_move.filter(|_| config.tt_move),
            killers: killers
                .as_ref()
                .map_or(&[][..], |k| k.get(k.slot(ply, level))),
            countermove: countermoves
                .as_ref()
                .zip(previous[ply])
                .and_then(|(table, previous)| table.get(previous)),
            history: history
                .as_ref()
                .zip(config.history.as_ref())
                .map(|(t, c)| (t, c.moves)),
            continuation,
        };
        order_moves(board, config, hints, stats, scratch, out);
    }

    /// Selective deepening: the children's level and budget, and its statistics.
    fn selective_step(&mut self, budget: Budget, legal_moves: usize, level: i32) -> (i32, Budget) {
        let step = budget.step(&self.config, legal_moves);
        match step {
            Step::Trivial => self.stats.triv_levels += 1,
            Step::Dynamic => self.stats.dyn_levels += 1,
            Step::Normal => {}
        }
        if budget.dyn_left < self.root_budget.dyn_left {
            self.stats.nodes_below_dyn += 1;
        }
        let (child_level, child_budget) = budget.child(step, level);
        let used = child_budget.used(self.root_budget);
        self.stats.max_extension = self.stats.max_extension.max(used);
        (child_level, child_budget)
    }

    /// A move that gives check is searched one level deeper (never deeper than the parent's level),
    /// only on paths shorter than twice the iteration's depth: with selective deepening on, unbounded
    /// check extensions made one WAC position grow from 0.2 M to 96 M nodes at depth 5.
    fn check_extension(&mut self, child: &Board, child_level: i32, level: i32, ply: usize) -> i32 {
        let extend = self.config.check_extension
            && child_level < level
            && (ply as i32) < 2 * self.root_depth
            && !child.checkers().is_empty();
        self.stats.check_extensions += u64::from(extend);
        if extend {
            level
        } else {
            child_level
        }
    }

    /// Mate-distance pruning: no line from here mates sooner than at the next ply or is mated
    /// later than at this one, so the window shrinks to that range; `Err` when nothing is left.
    fn mate_distance_window(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Result<(Score, Score), Score> {
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(-mated_in(ply + 1));
        if alpha >= beta {
            self.stats.mate_distance_cutoffs += 1;
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// Null-move pruning: if passing still fails high at reduced depth, so will a real move.
    /// Not in check, not twice in a row, not without pieces (zugzwang), only above beta.
    fn null_move_prunes(
        &mut self,
        board: &Board,
        beta: Score,
        level: i32,
        ply: usize,
        budget: Budget,
    ) -> bool {
        let Some((base, divisor)) = self.config.null_move.as_ref().map(|n| (n.base, n.divisor))
        else {
            return false;
        };
        let us = board.side_to_move();
        let pieces = board.colors(us) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
        if level < 2 || pieces.is_empty() || self.evaluate(board, ply) < beta {
            return false;
        }
        let Some(child) = board.null_move() else {
            return false;
        };
        self.stats.null_move_tries += 1;
        self.placements[ply + 1] = self.placements[ply];
        self.previous[ply + 1] = None;
        // The reply to a pass that should fail high is expected to fail low.
        self.cut_nodes[ply + 1] = !self.cut_nodes[ply];
        let reduction = base + level / divisor.max(1);
        self.path.push(board.hash());
        let score = -self.alphabeta(
            &child,
            -beta,
            -beta + 1,
            level - 1 - reduction,
            ply + 1,
            budget,
            false,
        );
        self.path.pop();
        let cut = score >= beta && !self.clock.stopped();
        self.stats.null_move_cutoffs += u64::from(cut);
        cut
    }

    /// Statistics, killers and history after a beta cutoff.
    fn on_cutoff(
        &mut self,
        board: &Board,
        mv: Move,
        source: Source,
        rank: usize,
        ply: usize,
        level: i32,
    ) {
        self.stats.record_cutoff(rank);
        match source {
            Source::TtMove => self.stats.tt_move_hits += 1,
            Source::Killer => self.stats.killer_hits += 1,
            Source::Countermove => self.stats.countermove_hits += 1,
            Source::History => self.stats.history_hits += 1,
            Source::Continuation => self.stats.continuation_hits += 1,
            Source::Scheme => {}
        }
        if !is_quiet(board, mv) {
            return;
        }
        if let Some(killers) = self.killers.as_mut() {
            let slot = killers.slot(ply, level);
            killers.store(slot, mv);
        }
        if let Some(history) = self.history.as_mut() {
            history.reward(board.side_to_move(), mv, level);
        }
        if let (Some(table), Some(previous)) = (self.countermoves.as_mut(), self.previous[ply]) {
            table.store(previous, mv);
        }
        if let Some(table) = self.continuations.as_mut() {
            let previous = self.previous[ply].and_then(|p| Previous::of(board, p));
            if let (Some(previous), Some(piece)) = (previous, board.piece_on(mv.from)) {
                table.reward(previous, piece, mv, level);
            }
        }
    }
}

/// Knuth and Moore's node types as the search expects them: the first child of a PV node is a PV
/// node and the others are searched with a null window expecting a cut; the first child of an
/// expected cut node is expected to fail low (all its moves searched), the others, and every
/// child of such an all node, to cut.
fn child_expects_cut(pv_node: bool, cut_node: bool, rank: usize) -> bool {
    if pv_node {
        rank > 0
    } else {
        !(cut_node && rank == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::child_expects_cut;

    #[test]
    fn node_types_follow_knuth_and_moore() {
        // PV node: first child PV, the rest cut nodes.
        assert!(!child_expects_cut(true, false, 0));
        assert!(child_expects_cut(true, false, 1));
        // Cut node: first child an all node, the rest cut nodes.
        assert!(!child_expects_cut(false, true, 0));
        assert!(child_expects_cut(false, true, 3));
        // All node: every child a cut node.
        assert!(child_expects_cut(false, false, 0));
        assert!(child_expects_cut(false, false, 5));
    }
}
