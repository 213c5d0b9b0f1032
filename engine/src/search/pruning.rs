//! The pruning steps of the node function, each reading its own switch: mate-distance pruning,
//! null-move pruning (on in `fischerle`), reverse futility pruning, limited razoring and
//! (extended) futility pruning as Heinz describes them, late move pruning, SEE pruning of losing
//! moves, and internal iterative reduction (all off in `fischerle`).

use cozy_chess::{Board, Move, Piece};

use crate::board::is_castling;
use crate::eval::{piece_value, Score};
use crate::search::classify::victim;
use crate::search::record::{Action, Recorder};
use crate::search::score::{mated_in, MATE_BOUND};
use crate::search::see::see;
use crate::search::stack::Node;
use crate::search::Searcher;

/// What the move loop of one node may prune, worked out once before the loop.
pub(super) struct MovePruning {
    /// Moves tried before late quiet moves are pruned (`usize::MAX`: none are).
    late: usize,
    /// Static evaluation plus the futility margin of this level, when futility pruning applies.
    futility_base: Option<Score>,
    /// The most a quiet move and a capture may lose by SEE, when SEE pruning applies.
    see_threshold: Option<(Score, Score)>,
    /// Static evaluation plus `quiet_futility`'s margin × level, and its history limit, when
    /// quiet futility pruning applies.
    quiet_futility: Option<(Score, i64)>,
    /// The history below which a quiet move is pruned, when history pruning applies.
    history_floor: Option<i64>,
    /// The node's ply (the continuation history reads the moves before it).
    ply: usize,
}

impl<R: Recorder> Searcher<R> {
    /// Mate-distance pruning: no line from here mates sooner than at the next ply or is mated
    /// later than at this one, so the window shrinks to that range; `Err` when nothing is left.
    pub(super) fn mate_distance_window(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Result<(Score, Score), Score> {
        let (old_alpha, old_beta) = (alpha, beta);
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(-mated_in(ply + 1));
        if alpha >= beta {
            self.stats.mate_distance_cutoffs += 1;
            self.record(Action::MateDistance);
            return Err(alpha);
        }
        if (alpha, beta) != (old_alpha, old_beta) {
            self.record(Action::MateWindow);
        }
        Ok((alpha, beta))
    }

    /// Null-move pruning: if passing still fails high at reduced depth, so will a real move.
    /// Not in check, not twice in a row, not without pieces (zugzwang), only above beta.
    pub(super) fn null_move_prunes(&mut self, board: &Board, node: &Node) -> bool {
        let Some(nm) = self.config.null_move.as_ref() else {
            return false;
        };
        let (base, divisor, eval_divisor) = (nm.base, nm.divisor, nm.eval_divisor);
        if nm.skip_pv && node.is_pv() {
            return false;
        }
        let us = board.side_to_move();
        let pieces = board.colors(us) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
        let (level, ply) = (node.level, node.ply);
        if level < 2 || pieces.is_empty() {
            return false;
        }
        let eval = self.static_eval(board, ply);
        if eval < node.beta {
            return false;
        }
        let Some(child) = board.null_move() else {
            return false;
        };
        self.stats.null_move_tries += 1;
        self.record(Action::NullMoveTry);
        let placement = self.stack[ply].placement;
        if let Some(network) = self.network.as_mut() {
            network.pass(ply);
        }
        let frame = &mut self.stack[ply + 1];
        frame.placement = placement;
        frame.previous = None;
        frame.moved = None;
        // A lead far above beta lets the pass be searched shallower still (Ethereal's term).
        let lead = eval_divisor.map_or(0, |d| ((eval - node.beta) / d.max(1)).min(3));
        let reduction = base + level / divisor.max(1) + lead;
        // The reply to a pass that should fail high is expected to fail low, and may not pass.
        let reply = Node {
            null_ok: false,
            ..node.child(
                (node.beta - 1, node.beta),
                level - 1 - reduction,
                node.budget,
                !node.cut,
            )
        };
        self.path.push(board.hash());
        let score = -self.alphabeta(&child, reply);
        self.path.pop();
        let cut = score >= node.beta && !self.clock.stopped();
        self.stats.null_move_cutoffs += u64::from(cut);
        if cut {
            self.record(Action::NullMoveCutoff);
        }
        cut
    }

    /// Reverse futility pruning: at a null-window node within `max_level` of the horizon, a
    /// static evaluation that beats beta by `margin` per level is returned (not near mate scores).
    /// With `improving`, an improving node's margin counts one level less.
    pub(super) fn reverse_futility_prunes(
        &mut self,
        board: &Board,
        node: &Node,
        improving: bool,
    ) -> Option<Score> {
        let rf = self.config.reverse_futility.as_ref()?;
        let (margin, max_level) = (rf.margin, rf.max_level);
        let (level, beta) = (node.level, node.beta);
        if level > max_level || node.is_pv() || beta.abs() >= MATE_BOUND {
            return None;
        }
        let levels = level - i32::from(rf.improving && improving);
        let eval = self.static_eval(board, node.ply);
        if eval - margin * levels < beta {
            return None;
        }
        self.stats.reverse_futility_prunes += 1;
        self.record(Action::ReverseFutility);
        Some(eval)
    }

    /// Limited razoring (Heinz): at a pre-pre-frontier node (level 3), not in check and away from
    /// mate scores, a static evaluation that even `margin` cannot lift above alpha has the node
    /// searched one level shallower. Returns the level to search to.
    pub(super) fn razored_level(&mut self, board: &Board, node: &Node, in_check: bool) -> i32 {
        let (alpha, level, ply) = (node.alpha, node.level, node.ply);
        let Some(margin) = self.config.razoring.as_ref().map(|r| r.margin) else {
            return level;
        };
        if ply == 0 || in_check || level != 3 || alpha.abs() >= MATE_BOUND {
            return level;
        }
        if self.static_eval(board, ply) + margin > alpha {
            return level;
        }
        self.stats.razorings += 1;
        self.record(Action::Razoring);
        level - 1
    }

    /// Internal iterative reduction: a node deep enough to matter that has no TT move to try
    /// first is searched one level shallower. Returns the level to search to.
    pub(super) fn iir_level(&mut self, node: &Node, tt_move: Option<Move>) -> i32 {
        let level = node.level;
        match &self.config.iir {
            Some(iir) if node.ply > 0 && level >= iir.min_level && tt_move.is_none() => {
                self.stats.iir_reductions += 1;
                self.record(Action::Iir);
                level - 1
            }
            _ => level,
        }
    }

    /// The node's move pruning: late move pruning's limit and futility pruning's base.
    pub(super) fn move_pruning(
        &mut self,
        board: &Board,
        node: &Node,
        in_check: bool,
        improving: bool,
    ) -> MovePruning {
        let (alpha, level, ply) = (node.alpha, node.level, node.ply);
        MovePruning {
            late: self.late_move_limit(node, in_check, improving),
            futility_base: self.futility_base(board, alpha, level, ply, in_check),
            see_threshold: self.see_threshold(level, ply, in_check),
            quiet_futility: self.quiet_futility(board, node, in_check),
            history_floor: self.history_floor(node, in_check),
            ply,
        }
    }

    /// Step 13a: whether the move at `rank`, which leads to `child`, is not searched. The first
    /// move, promotions and moves that give check always are. Late move pruning skips quiet
    /// moves past the limit; futility pruning skips moves whose capture gain cannot lift the
    /// static evaluation plus the margin above alpha; SEE pruning skips moves whose exchange loses
    /// more than the level allows.
    pub(super) fn prunes_move(
        &mut self,
        (board, child): (&Board, &Board),
        mv: Move,
        rank: usize,
        pruning: &MovePruning,
        alpha: Score,
    ) -> bool {
        if rank == 0 || mv.promotion.is_some() || !child.checkers().is_empty() {
            return false;
        }
        let captured = victim(board, mv);
        if captured.is_none() && rank >= pruning.late {
            self.stats.late_move_prunes += 1;
            self.record(Action::LateMovePruning(mv));
            return true;
        }
        if captured.is_none() && self.prunes_quiet(board, mv, pruning, alpha) {
            return true;
        }
        let gain = captured.map_or(0, piece_value);
        if pruning.futility_base.is_some_and(|b| b + gain <= alpha) {
            self.stats.futility_prunes += 1;
            self.record(Action::Futility(mv));
            return true;
        }
        if let Some(threshold) = pruning.see_threshold {
            let threshold = if captured.is_some() {
                threshold.1
            } else {
                threshold.0
            };
            if loses_by_see(board, mv, threshold) {
                self.stats.see_prunes += 1;
                self.record(Action::SeePrune(mv));
                return true;
            }
        }
        false
    }

    /// Quiet futility and history pruning of a quiet move (neither checking nor promoting, not
    /// the first): both read its history, worked out only when one of them applies.
    fn prunes_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        pruning: &MovePruning,
        alpha: Score,
    ) -> bool {
        if pruning.quiet_futility.is_none() && pruning.history_floor.is_none() {
            return false;
        }
        let history = self.quiet_history(board, mv, pruning.ply);
        if let Some((base, limit)) = pruning.quiet_futility {
            if base <= alpha && history < limit {
                self.stats.futility_prunes += 1;
                self.record(Action::Futility(mv));
                return true;
            }
        }
        if pruning.history_floor.is_some_and(|floor| history < floor) {
            self.stats.history_prunes += 1;
            self.record(Action::HistoryPrune(mv));
            return true;
        }
        false
    }

    /// Where quiet futility pruning applies (a null-window node within its `max_level`, not the
    /// root, not in check, no mate in the window): the static evaluation plus the margin, and
    /// the history limit.
    fn quiet_futility(
        &mut self,
        board: &Board,
        node: &Node,
        in_check: bool,
    ) -> Option<(Score, i64)> {
        let qf = self.config.quiet_futility.as_ref()?;
        let (margin, limit) = (qf.margin, i64::from(qf.history_limit));
        if !self.near_horizon(node, in_check, qf.max_level) || node.alpha.abs() >= MATE_BOUND {
            return None;
        }
        Some((
            self.static_eval(board, node.ply) + margin * node.level,
            limit,
        ))
    }

    /// Where history pruning applies (a null-window node within its `max_level`, not the root,
    /// not in check): −margin × level.
    fn history_floor(&self, node: &Node, in_check: bool) -> Option<i64> {
        let hp = self.config.history_pruning.as_ref()?;
        self.near_horizon(node, in_check, hp.max_level)
            .then(|| -i64::from(hp.margin) * i64::from(node.level))
    }

    /// A null-window node other than the root, not in check, within `max_level` of the horizon.
    fn near_horizon(&self, node: &Node, in_check: bool, max_level: i32) -> bool {
        node.ply > 0 && !in_check && !node.is_pv() && node.level <= max_level
    }

    /// SEE pruning's thresholds at this node (quiet, capture): `−quiet × level` and
    /// `−capture × level²`, within `max_level` of the horizon, not in check, not at the root.
    fn see_threshold(&self, level: i32, ply: usize, in_check: bool) -> Option<(Score, Score)> {
        let sp = self.config.see_prune.as_ref()?;
        if ply == 0 || in_check || level > sp.max_level {
            return None;
        }
        Some((-sp.quiet * level, -sp.capture * level * level))
    }

    /// Futility pruning (Heinz): at frontier nodes (level 1) and, extended, at pre-frontier
    /// nodes (level 2), not in check and away from mate scores: the static evaluation plus the
    /// level's margin.
    fn futility_base(
        &mut self,
        board: &Board,
        alpha: Score,
        level: i32,
        ply: usize,
        in_check: bool,
    ) -> Option<Score> {
        let futility = self.config.futility.as_ref()?;
        let margin = match level {
            1 => futility.frontier,
            2 => futility.pre_frontier?,
            _ => return None,
        };
        if ply == 0 || in_check || alpha.abs() >= MATE_BOUND {
            return None;
        }
        Some(self.static_eval(board, ply) + margin)
    }

    /// How many moves are searched before late quiet moves are pruned: `base + level²` at a
    /// null-window node near the horizon, not in check (halved, with `improving`, when the node
    /// is not improving); otherwise no limit.
    fn late_move_limit(&self, node: &Node, in_check: bool, improving: bool) -> usize {
        let level = node.level;
        match &self.config.late_move_pruning {
            Some(l) if node.ply > 0 && !in_check && !node.is_pv() && level <= l.max_level => {
                let limit = (l.base + (level * level) as u32) as usize;
                if l.improving && !improving {
                    limit / 2
                } else {
                    limit
                }
            }
            _ => usize::MAX,
        }
    }
}

/// Whether `mv`'s static exchange loses more than `threshold` allows. Never castling: the move is
/// written king-takes-own-rook, so SEE would score the king as standing on the rook's square and
/// losing itself there whenever the opponent attacks that corner.
fn loses_by_see(board: &Board, mv: Move, threshold: Score) -> bool {
    !is_castling(board, mv) && see(board, mv) < threshold
}

#[cfg(test)]
mod tests {
    use super::loses_by_see;
    use crate::board::{parse_fen, parse_uci_move};
    use crate::search::see::see;

    #[test]
    fn castling_is_never_see_pruned_even_with_the_rook_corner_attacked() {
        // The bishop on a8 attacks h1 but neither f1 nor g1: O-O is legal.
        let b = parse_fen("b3k3/8/8/8/8/8/3N4/4K2R w K - 0 1").unwrap();
        let castle = parse_uci_move(&b, "e1g1").unwrap();
        assert!(
            see(&b, castle) < -1000,
            "SEE reads the king as captured on h1"
        );
        assert!(!loses_by_see(&b, castle, -80));
        // A knight put where the bishop takes it for nothing is.
        let hang = parse_uci_move(&b, "d2e4").unwrap();
        assert!(loses_by_see(&b, hang, -80));
    }
}
