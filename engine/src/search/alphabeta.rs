//! The main-search node: negamax alpha-beta as a list of numbered steps in source order, each
//! heuristic a small function that reads the configuration, so an ablation changes one line.

use cozy_chess::{Board, Move};

use crate::config::{OrderingScheme, SearchConfig, SingularSearch};
use crate::eval::Score;
use crate::search::continuation::ContinuationTable;
use crate::search::countermove::CountermoveTable;
use crate::search::history::HistoryTable;
use crate::search::killers::KillerTable;
use crate::search::ordering::{is_quiet, order_moves, Hints, MoveList, Source};
use crate::search::pruning::MovePruning;
use crate::search::record::{Action, Edge, Enter, Leave, NodeKind, Probe, Recorder};
use crate::search::reductions::LateMove;
use crate::search::score::{mated_in, DRAW};
use crate::search::see::see;
use crate::search::selective::{Budget, Step};
use crate::search::singular::Singularity;
use crate::search::stack::Frame;
use crate::search::stack::Node;
use crate::search::staged::{order_staged, score_quiets, Stages};
use crate::search::tt::{Bound, Entry};
use crate::search::{play, Searcher, MAX_PLY};

/// What the move loop of a node takes from the steps before it.
struct Children {
    /// The children's level after selective deepening (before extensions).
    level: i32,
    /// The children's selective budget.
    budget: Budget,
    /// Levels the singular extension adds to the TT move (negative: takes away).
    tt_extension: i32,
    /// Whether the node is in check.
    in_check: bool,
    /// Whether the node's static evaluation is above the one two plies up.
    improving: bool,
    /// What futility and late move pruning may prune.
    pruning: MovePruning,
}

/// How one child is searched: its move, its level, the late move reduction tried first, its
/// selective budget and its move's rank in the order.
#[derive(Debug, Clone, Copy)]
struct Searched {
    mv: Move,
    level: i32,
    reduction: i32,
    budget: Budget,
    rank: usize,
}

impl<R: Recorder> Searcher<R> {
    /// Searches `board`, the node `node` describes (window, remaining level, ply, selective
    /// budget, expected node type). Returns a fail-soft score from the side to move's point of
    /// view. A recorded search tells its recorder the node around it (at a level of 0 or less,
    /// the QS node the horizon hands over to).
    pub(crate) fn alphabeta(&mut self, board: &Board, node: Node) -> Score {
        if !R::ON {
            return self.alphabeta_node(board, node);
        }
        self.recorder.enter(self.entered(board, &node));
        let value = self.alphabeta_node(board, node);
        self.recorder.leave(Leave { value });
        value
    }

    /// What a recorder is told about `node`, at `board`, on entering it.
    fn entered(&self, board: &Board, node: &Node) -> Enter {
        let edge = match node.excluded {
            Some(mv) => Edge::Exclusion(mv),
            None => self.edge_to(node.ply),
        };
        let kind = if node.level <= 0 {
            NodeKind::Quiescence
        } else {
            NodeKind::Main
        };
        Enter {
            kind,
            edge,
            probe: node.probe,
            ply: node.ply,
            level: node.level,
            alpha: node.alpha,
            beta: node.beta,
            expected_cut: node.cut,
            budget: (node.budget.dyn_left, node.budget.triv_left),
            hash: board.hash(),
        }
    }

    /// How the node at `ply` of the current path was reached: the root, a move or a null move.
    pub(super) fn edge_to(&self, ply: usize) -> Edge {
        match (ply, self.stack[ply].previous) {
            (0, _) => Edge::Root,
            (_, Some(mv)) => Edge::Move(mv),
            (_, None) => Edge::Null,
        }
    }

    /// Tells the recorder what acted on the current node (nothing when unrecorded).
    #[inline(always)]
    pub(super) fn record(&mut self, action: Action) {
        if R::ON {
            self.recorder.act(action);
        }
    }

    /// The node function, steps 1 to 14.
    fn alphabeta_node(&mut self, board: &Board, mut node: Node) -> Score {
        let ply = node.ply;
        // Step 1. Horizon: the quiescence search decides whether to look further.
        if node.level <= 0 {
            return self.quiescence(board, node.alpha, node.beta, 0, ply, true);
        }

        // Step 2. Count the node; stop when a limit is reached.
        self.visit(ply);
        if self.clock.should_stop(self.stats.nodes) {
            return 0;
        }

        // Step 3. Draws by rule (never at the root, which must return a move, nor in a singular
        // verification, whose position its node has just tested), and the deepest ply.
        if ply > 0 && node.excluded.is_none() && self.is_draw(board) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(board, ply);
        }

        // Step 4. Mate-distance pruning: only the mates still possible from here matter.
        if ply > 0 && self.config.mate_distance_pruning {
            match self.mate_distance_window(node.alpha, node.beta, ply) {
                Ok(window) => (node.alpha, node.beta) = window,
                Err(score) => return score,
            }
        }

        // Step 5. Transposition table: a deep enough score whose bound fits ends the node (not a
        // singular verification's: the entry is its node's, TT move included).
        let key = board.hash();
        let tt_entry = self.probe_tt(key, ply);
        let verifying = node.excluded.is_some();
        if ply > 0 && !verifying {
            if let Some(score) = tt_entry.and_then(|e| self.tt_cutoff(e, &node)) {
                return score;
            }
        }

        // Step 6. Reverse futility pruning: near the horizon a static lead over beta stands.
        // The static evaluation first where a step reads whether the node is improving.
        let in_check = !board.checkers().is_empty();
        if !in_check && self.config.reads_improving() {
            self.static_eval(board, ply);
        }
        let improving = self.improving(ply);
        // A singular verification keeps to its node's moves: no step ends or shortens it before
        // its move loop (Stockfish and Ethereal skip the null move there too).
        if ply > 0 && !in_check && !verifying {
            if let Some(score) = self.reverse_futility_prunes(board, &node, improving) {
                return score;
            }
        }

        // Step 6a. With `null_move.early`, null-move pruning here, before the moves are generated
        // (step 10 otherwise).
        if self.null_move_here(&node, in_check, true) && self.null_move_prunes(board, &node) {
            return node.beta;
        }

        // Step 7. Limited razoring and internal iterative reduction: a shallower search here.
        let tt_move = tt_entry.and_then(|e| e.mv);
        if !verifying {
            node.level = self.razored_level(board, &node, in_check);
            node.level = self.iir_level(&node, tt_move);
        }

        // Step 8. Generate and order the legal moves; none is mate or stalemate.
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        self.ordered_moves(board, tt_move, &node, &mut moves);
        if ply == 0 {
            // The root's moves are ordered whole: `searchmoves` and the reports read the list.
            self.score_quiets(board, &node, &mut moves);
            moves.restrict_to(self.clock.searchmoves());
        }
        if let Some(excluded) = node.excluded {
            moves.exclude(excluded);
        }
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            return if in_check { mated_in(ply) } else { DRAW };
        }
        self.stats.record_legal_moves(moves.len());

        // Step 9. Selective deepening: few legal moves do not use up a level.
        let (level, budget) = self.selective_step(node.budget, moves.len(), node.level);

        // Step 10. Null-move pruning, here without `null_move.early` (at step 6a with it). Later
        // than in Stockfish and Carp, which prune before generating moves, because the tree
        // depends on the order: this node's ordering reads the history, countermove and
        // continuation tables as they were before the null move's subtree rewarded its own
        // cutoffs, and a mate or stalemate is never a pass. Moved ahead of step 8 (with a
        // legal-move test), bench keeps 352950 and runs 8 % faster (median of 9 interleaved runs
        // at depth 7), but WAC at depth 6 with `modern` and every switch on searched one tree of
        // 1,200 differently, and the per-node counters of steps 8 and 9 (legal moves, capture
        // classes, dynamic levels) would skip the nodes the null move cuts.
        if self.null_move_here(&node, in_check, false) && self.null_move_prunes(board, &node) {
            self.stack[ply].moves = moves;
            return node.beta;
        }

        // From here the node is on the path: its children, the singular verification's too, see
        // it when they look for repetitions (a verification's position is there already).
        if !verifying {
            self.path.push(key);
        }

        // Step 11. Futility and late move pruning: what the move loop may prune, worked out once.
        let pruning = self.move_pruning(board, &node, in_check, improving);

        // Step 12. Singular extension: is the TT move the only one that holds the TT score?
        // (Fischerle's verification searches every other move in order: a picker scores them
        // all first.)
        let moves_form = self.config.singular.as_ref().map(|s| s.search);
        if moves_form == Some(SingularSearch::Moves) {
            self.score_quiets(board, &node, &mut moves);
        }
        let tt_extension = match self.singularity(board, &moves, tt_entry, &node, budget) {
            Singularity::Plain => 0,
            Singularity::Extend(by) => by,
            Singularity::Cut(score) => {
                self.path.pop();
                self.stack[ply].moves = moves;
                return score;
            }
        };

        // Step 13. Search the moves in order (steps 13a to 13c in `search_moves`).
        let children = Children {
            level,
            budget,
            tt_extension,
            in_check,
            improving,
            pruning,
        };
        let (best, pruned) = self.search_moves(board, &node, &mut moves, &children);
        if let Some((_, mv)) = best {
            self.record(Action::Best(mv));
        }
        if !verifying {
            self.path.pop();
        }
        self.stack[ply].moves = moves;
        if self.clock.stopped() {
            return 0;
        }

        // Step 14. Remember the result. Every move pruned (step 13a never prunes the first, but
        // the node does not rely on it) is a fail low: no move raised alpha.
        let Some((score, mv)) = best else {
            return node.alpha;
        };
        let score = self.sound_bound(score, pruned, &node);
        if !verifying {
            self.store_tt(key, &node, score, mv);
        }
        score
    }

    /// Whether null-move pruning is tried at step 6a (`early`) or at step 10 of `node`: where
    /// `null_move.early` puts it, never at the root, in check or right after a pass.
    fn null_move_here(&self, node: &Node, in_check: bool, early: bool) -> bool {
        let placed = self
            .config
            .null_move
            .as_ref()
            .is_some_and(|n| n.early == early);
        placed && node.null_ok && node.ply > 0 && !in_check && node.excluded.is_none()
    }

    /// With `sound_bounds`, a node that pruned a move and failed low returns alpha: the moves
    /// it did not search might have scored up to there, so nothing lower is known.
    fn sound_bound(&self, score: Score, pruned: bool, node: &Node) -> Score {
        if self.config.sound_bounds && pruned && score < node.alpha {
            node.alpha
        } else {
            score
        }
    }

    /// The move loop: each move pruned, extended or reduced, then searched, until one reaches
    /// beta. The best score and move, `None` if every move was pruned (or the search stopped),
    /// and whether any move was pruned.
    fn search_moves(
        &mut self,
        board: &Board,
        node: &Node,
        moves: &mut MoveList,
        children: &Children,
    ) -> (Option<(Score, Move)>, bool) {
        let ply = node.ply;
        let mut alpha = node.alpha;
        let mut best: Option<(Score, Move)> = None;
        // Only the malus updates read the quiet moves tried, so only they pay for the list.
        let malus = self.config.history.as_ref().is_some_and(|h| h.malus)
            || self
                .config
                .continuation_history
                .as_ref()
                .is_some_and(|c| c.gravity);
        let mut tried = malus.then(Tried::new);
        let mut pruned = false;
        for rank in 0..moves.len() {
            // Step 13. (A move picker scores its quiet moves when it reaches them.)
            if moves.unscored_from() == Some(rank) {
                self.score_quiets(board, node, moves);
            }
            let ordered = moves.as_slice()[rank];
            let child = play(board, ordered.mv);
            // Step 13a. Late move, futility and SEE pruning.
            if self.prunes_move((board, &child), ordered.mv, rank, &children.pruning, alpha) {
                pruned = true;
                continue;
            }
            // The child's TT slot starts loading while its frame and the steps before its probe
            // are worked out (a child at the horizon goes to QS, which probes only with
            // `qsearch.tt`).
            if children.level > 0 || self.config.qsearch.tt {
                self.prefetch_tt(child.hash());
            }
            self.enter(board, ordered.mv, ply, &child);
            // Step 13b. Extensions: a move that gives check, and the singular TT move. The
            // child's level is its own: killers and history below use this node's level.
            let singular = if ordered.source == Source::TtMove {
                children.tt_extension
            } else {
                0
            };
            let checked = self.check_extension((board, &child), ordered.mv, children.level, node);
            self.record_extensions(ordered.mv, checked > children.level, singular);
            let level = match singular {
                0 => checked,
                by if by > 0 => checked.max(children.level + by),
                by => checked + by,
            };
            // Step 13c. Late move reductions, then the search of the child.
            let current = Node { alpha, ..*node };
            let reduction = self.late_move_reduction(&LateMove {
                boards: (board, &child),
                mv: ordered.mv,
                rank,
                level: node.level,
                in_check: children.in_check,
                improving: children.improving,
                ply,
                pv_node: current.is_pv(),
                cut_node: node.cut,
            });
            let (extend, double) = (singular > 0, singular == 2);
            self.singular_on_path += u32::from(extend);
            self.doubles_on_path += u32::from(double);
            let searched = Searched {
                mv: ordered.mv,
                level,
                reduction,
                budget: children.budget,
                rank,
            };
            let before = self.stats.nodes;
            let score = self.search_child(&child, &current, searched);
            if ply == 0 {
                self.root_effort.add(ordered.mv, self.stats.nodes - before);
            }
            self.singular_on_path -= u32::from(extend);
            self.doubles_on_path -= u32::from(double);
            let below = self.stats.nodes - before;
            if extend {
                self.stats.singular_extended_nodes += below;
            }
            if checked > children.level {
                self.stats.check_extended_nodes += below;
            }
            if self.clock.stopped() {
                return (None, pruned);
            }
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, ordered.mv));
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, ordered.mv);
            }
            if score >= node.beta {
                self.record(Action::Cutoff {
                    mv: ordered.mv,
                    rank,
                });
                let cut = Cut {
                    mv: ordered.mv,
                    source: ordered.source,
                    rank,
                    tried: tried.as_ref().map(Tried::as_slice),
                };
                self.on_cutoff(board, cut, ply, node.level);
                break;
            }
            if let Some(tried) = tried.as_mut() {
                tried.push(board, ordered.mv);
            }
        }
        (best, pruned)
    }

    /// Tells the recorder which extensions act on `mv`.
    fn record_extensions(&mut self, mv: Move, checked: bool, singular: i32) {
        if !R::ON {
            return;
        }
        if checked {
            self.record(Action::CheckExtension(mv));
        }
        match singular {
            0 => {}
            by if by > 0 => self.record(Action::SingularExtension(mv)),
            _ => self.record(Action::NegativeExtension(mv)),
        }
    }

    /// Counts a node (main search or QS) and the deepest ply.
    pub(super) fn visit(&mut self, ply: usize) {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        self.stack[ply].static_eval = None;
        self.pv.clear(ply);
    }

    /// The first move with the full window; with PVS the others with a null window first,
    /// re-searched when they beat alpha. A move reduced by late move reductions is first searched
    /// `reduction` levels shallower with a null window (never below level 1), and searched as
    /// usual only when it beats alpha there. `node` is the parent with its current window.
    fn search_child(&mut self, child: &Board, node: &Node, searched: Searched) -> Score {
        let Searched {
            mv,
            level,
            reduction,
            budget,
            rank,
        } = searched;
        let window = (node.alpha, node.beta);
        let null_window = (node.alpha, node.alpha + 1);
        let cut = child_expects_cut(node.is_pv(), node.cut, rank);
        let reduced = (level - reduction).max(1);
        if reduced < level {
            self.stats.lmr_reductions += 1;
            let probe = Node {
                probe: Probe::Reduced,
                ..node.child(null_window, reduced, budget, cut)
            };
            let score = -self.alphabeta(child, probe);
            let researched = score > node.alpha && !self.clock.stopped();
            self.record(Action::Reduction {
                mv,
                by: level - reduced,
                researched,
            });
            if !researched {
                return score;
            }
            self.stats.lmr_researches += 1;
        }
        if self.config.pvs && rank > 0 && node.is_pv() {
            let score = -self.alphabeta(child, node.child(null_window, level, budget, cut));
            if score <= node.alpha || score >= node.beta || self.clock.stopped() {
                return score;
            }
        }
        // A full window is a PV node's: the child is no longer expected to cut.
        let cut = cut && !node.is_pv();
        -self.alphabeta(child, node.child(window, level, budget, cut))
    }

    pub(super) fn prefetch_tt(&self, key: u64) {
        if let Some(tt) = &self.tt {
            tt.prefetch(key);
        }
    }

    pub(super) fn probe_tt(&mut self, key: u64, ply: usize) -> Option<Entry> {
        let tt = self.tt.as_ref()?;
        self.stats.tt_probes += 1;
        let entry = tt.probe(key, ply);
        self.stats.tt_hits += u64::from(entry.is_some());
        entry
    }

    /// A stored score replaces the search only if it is deep enough and its bound fits the window;
    /// with `tt.budget_aware`, only if it was also searched with at least this node's budget.
    fn tt_cutoff(&mut self, entry: Entry, node: &Node) -> Option<Score> {
        let tt = self.config.tt.as_ref().filter(|t| t.cutoffs)?;
        if tt.skip_pv && node.is_pv() {
            return None;
        }
        if entry.level < node.level || !entry.fits(node.alpha, node.beta) {
            return None;
        }
        if tt.budget_aware && !entry.budget.covers(node.budget.saturated()) {
            self.stats.tt_budget_refusals += 1;
            return None;
        }
        self.stats.tt_cutoffs += 1;
        self.record(Action::TtCutoff);
        Some(entry.score)
    }

    /// Stores the node's result: `score` is a lower bound at or above beta, an upper bound at
    /// or below alpha (the window the node was entered with), else exact.
    fn store_tt(&mut self, key: u64, node: &Node, score: Score, mv: Move) {
        let Some(tt) = self.tt.as_mut() else { return };
        let bound = Bound::of(score, node.alpha, node.beta);
        tt.store(
            key,
            node.ply,
            Entry {
                mv: Some(mv),
                score,
                level: node.level,
                bound,
                budget: node.budget,
            },
        );
    }

    fn ordered_moves(
        &mut self,
        board: &Board,
        tt_move: Option<Move>,
        node: &Node,
        out: &mut MoveList,
    ) {
        // A recorded re-search may know the move to try first (the minimal tree's oracle).
        let tt_move = if R::ON {
            self.recorder.oracle(board.hash()).or(tt_move)
        } else {
            tt_move
        };
        let Self {
            config,
            killers,
            history,
            countermoves,
            continuations,
            stack,
            stats,
            scratch,
            ..
        } = self;
        let tables = HintTables {
            config,
            killers,
            history,
            countermoves,
            continuations,
            stack,
        };
        let hints = tables.hints(tt_move, node.ply, node.level);
        match config.ordering {
            OrderingScheme::Staged | OrderingScheme::Picker => {
                let stages = Stages {
                    picker: config.ordering == OrderingScheme::Picker,
                    bad_captures_last: config.bad_captures_last,
                };
                order_staged(board, &hints, scratch.scores(), out, stages)
            }
            _ => order_moves(board, config, hints, stats, scratch, out),
        }
    }

    /// A move picker's quiet moves, scored by the history as it is now once the search reaches
    /// them (`ordering = "picker"`; nothing to do otherwise).
    pub(super) fn score_quiets(&mut self, board: &Board, node: &Node, moves: &mut MoveList) {
        if moves.unscored_from().is_none() {
            return;
        }
        let Self {
            config,
            killers,
            history,
            countermoves,
            continuations,
            stack,
            scratch,
            ..
        } = self;
        let tables = HintTables {
            config,
            killers,
            history,
            countermoves,
            continuations,
            stack,
        };
        // The TT move, killers and countermove are placed already; the history is what counts.
        let hints = tables.hints(None, node.ply, node.level);
        score_quiets(board, &hints, scratch.scores(), moves);
    }

    /// Selective deepening: the children's level and budget, and its statistics.
    fn selective_step(&mut self, budget: Budget, legal_moves: usize, level: i32) -> (i32, Budget) {
        let step = budget.step(&self.config, legal_moves);
        match step {
            Step::Trivial => {
                self.stats.triv_levels += 1;
                self.record(Action::TrivialLevel);
            }
            Step::Dynamic => {
                self.stats.dyn_levels += 1;
                let limit = self.config.selective.candidate_limit as usize;
                self.record(Action::DynamicLevel {
                    legal: legal_moves,
                    limit,
                });
            }
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
    /// check extensions made one WAC position grow from 0.2 M to 96 M nodes at depth 5. With
    /// `check_extension_see`, only when the move does not lose material by SEE.
    fn check_extension(
        &mut self,
        (board, child): (&Board, &Board),
        mv: Move,
        child_level: i32,
        node: &Node,
    ) -> i32 {
        let extend = self.config.check_extension
            && child_level < node.level
            && (node.ply as i32) < 2 * self.root_depth
            && !child.checkers().is_empty()
            && (!self.config.check_extension_see || see(board, mv) >= 0);
        let level = node.level;
        self.stats.check_extensions += u64::from(extend);
        if extend {
            level
        } else {
            child_level
        }
    }

    /// Statistics, killers and history after a beta cutoff.
    fn on_cutoff(&mut self, board: &Board, cut: Cut, ply: usize, level: i32) {
        let Cut {
            mv,
            source,
            rank,
            tried,
        } = cut;
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
        let history_malus = self.config.history.as_ref().is_some_and(|h| h.malus);
        if let Some(history) = self.history.as_mut() {
            match tried.filter(|_| history_malus) {
                Some(tried) => history.reward_with_malus(board.side_to_move(), mv, tried, level),
                None => history.reward(board.side_to_move(), mv, level),
            }
        }
        let previous = self.stack[ply].previous;
        if let (Some(table), Some(previous)) = (self.countermoves.as_mut(), previous) {
            table.store(previous, mv);
        }
        self.reward_continuation(board, mv, tried, ply, level);
    }

    /// Continuation history after a quiet cutoff by `mv`: the classic reward for the previous
    /// move, or with `gravity` the gravity update with its malus for the quiet moves `tried`,
    /// for the previous move and (with `plies = 2`) the one before it.
    fn reward_continuation(
        &mut self,
        board: &Board,
        mv: Move,
        tried: Option<&[Move]>,
        ply: usize,
        level: i32,
    ) {
        let (Some(table), Some(c)) = (
            self.continuations.as_mut(),
            self.config.continuation_history.as_ref(),
        ) else {
            return;
        };
        let previous = self.stack[ply].moved;
        let Some(piece) = board.piece_on(mv.from) else {
            return;
        };
        if !c.gravity {
            if let Some(previous) = previous {
                table.reward(previous, piece, mv, level);
            }
            return;
        }
        let follow_up = (c.plies >= 2 && ply >= 1)
            .then(|| self.stack[ply - 1].moved)
            .flatten();
        for before in [previous, follow_up].into_iter().flatten() {
            table.reward_with_malus(board, before, (piece, mv), tried.unwrap_or(&[]), level);
        }
    }
}

/// A beta cutoff: the move, why it stood where it did, its rank, and the quiet moves searched
/// before it (`Some` exactly when `history.malus` or `continuation_history.gravity` is on).
struct Cut<'a> {
    mv: Move,
    source: Source,
    rank: usize,
    tried: Option<&'a [Move]>,
}

/// The quiet moves a node has searched so far (for the history malus); on the stack, at most
/// [`Tried::MOST`] (later ones are not penalised).
struct Tried {
    moves: [Move; Tried::MOST],
    len: usize,
}

impl Tried {
    const MOST: usize = 64;

    fn new() -> Self {
        let none = Move {
            from: cozy_chess::Square::A1,
            to: cozy_chess::Square::A1,
            promotion: None,
        };
        Self {
            moves: [none; Self::MOST],
            len: 0,
        }
    }

    fn push(&mut self, board: &Board, mv: Move) {
        if self.len < Self::MOST && is_quiet(board, mv) {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
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

/// The tables a node's move order reads, borrowed apart from the rest of the searcher.
struct HintTables<'a> {
    config: &'a SearchConfig,
    killers: &'a Option<KillerTable>,
    history: &'a Option<HistoryTable>,
    countermoves: &'a Option<CountermoveTable>,
    continuations: &'a Option<ContinuationTable>,
    stack: &'a [Frame],
}

impl<'a> HintTables<'a> {
    /// What the search knows for the node at `ply` and `level` that the generator does not.
    fn hints(&self, tt_move: Option<Move>, ply: usize, level: i32) -> Hints<'a> {
        let config = self.config;
        // The previous move as `make` recorded it for the table (none with the switch off).
        let continuation = self
            .continuations
            .as_ref()
            .zip(config.continuation_history.as_ref())
            .and_then(|(table, c)| {
                let previous = self.stack[ply].moved?;
                Some((table, previous, c.moves))
            });
        Hints {
            tt_move: tt_move.filter(|_| config.tt_move),
            killers: self
                .killers
                .as_ref()
                .map_or(&[][..], |k| k.get(k.slot(ply, level))),
            countermove: self
                .countermoves
                .as_ref()
                .zip(self.stack[ply].previous)
                .and_then(|(table, previous)| table.get(previous)),
            history: self
                .history
                .as_ref()
                .zip(config.history.as_ref())
                .map(|(t, c)| (t, c.moves)),
            continuation,
            follow_up: config
                .continuation_history
                .as_ref()
                .filter(|c| c.plies >= 2 && ply >= 1)
                .and_then(|_| self.stack[ply - 1].moved),
        }
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
