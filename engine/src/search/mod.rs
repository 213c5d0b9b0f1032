//! The search: iterative deepening over a negamax alpha-beta whose heuristics are read from a
//! [`SearchConfig`]. One [`Searcher`] is one thread's search; it owns its TT, killers, history and
//! statistics, and there is no global state, so searches can run side by side.

pub mod alphabeta;
pub mod attacks;
pub mod classify;
pub mod continuation;
pub mod countermove;
pub mod eval_cache;
pub mod history;
pub mod killers;
pub mod limits;
mod network;
pub mod ordering;
pub mod pruning;
pub mod qsearch;
pub mod record;
pub mod reductions;
pub mod score;
pub mod see;
pub mod selective;
pub mod singular;
pub(crate) mod stack;
mod staged;
pub mod stats;
pub mod tt;

use cozy_chess::{Board, Move};

use crate::board::legal_moves;
use crate::config::SearchConfig;
use crate::eval::{Evaluator, Placement, Score};
use crate::position::Position;
use crate::variant::Variant;
use history::HistoryTable;
use killers::KillerTable;
use limits::{Clock, Limits};
use record::{NoRecorder, Recorder};
use score::INFINITY;
use selective::Budget;
use stack::{Frame, Node};
use stats::{Iteration, SearchResult, SearchStats};
use tt::TranspositionTable;

/// An aspiration window that has doubled past this half-width (centipawns, about two queens)
/// gives way to the full window: the score is too far from the last iteration's to chase.
const ASPIRATION_FULL_WINDOW_AFTER: Score = 2_000;

/// Deepest ply the search goes to; deeper nodes return the static evaluation.
pub const MAX_PLY: usize = 128;
/// Deepest iteration when no depth limit is given.
pub const MAX_DEPTH: i32 = 64;

/// A triangular principal-variation table.
#[derive(Debug, Clone)]
struct PvTable {
    lines: Vec<Vec<Move>>,
}

impl PvTable {
    fn new() -> Self {
        Self {
            lines: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// `mv` followed by the child's line becomes this ply's line.
    fn update(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// One thread's search. `R` receives its tree when it is recorded (see [`record`]); the default
/// records nothing, at no cost.
pub struct Searcher<R: Recorder = NoRecorder> {
    config: SearchConfig,
    tt: Option<TranspositionTable>,
    killers: Option<KillerTable>,
    history: Option<HistoryTable>,
    stats: SearchStats,
    clock: Clock,
    /// Hashes of the game history and of the positions on the current search path.
    path: Vec<u64>,
    pv: PvTable,
    root_budget: Budget,
    /// Nominal depth of the current iteration.
    root_depth: i32,
    /// One frame per ply of the current path: its move list, placement and previous move.
    stack: Vec<Frame>,
    /// Reusable buffers for move generation.
    scratch: ordering::Scratch,
    /// The configuration's evaluation, made ready (with its memo of pawn terms).
    evaluator: Evaluator,
    /// Static evaluations already made, with `eval_cache` on.
    eval_cache: Option<eval_cache::EvalCache>,
    /// The network and its accumulators per ply, with `nnue` on.
    network: Option<network::NetworkStack>,
    /// Singular extensions on the current path.
    singular_on_path: u32,
    /// Double singular extensions on the current path (`singular.double_max`).
    doubles_on_path: u32,
    /// Refutations by previous move, with `countermove` on.
    countermoves: Option<countermove::CountermoveTable>,
    /// Quiet cutoffs by previous move, with `continuation_history` on.
    continuations: Option<continuation::ContinuationTable>,
    /// Nodes per root move in the current iteration, for the time manager.
    root_effort: RootEffort,
    /// Where the tree goes when it is recorded.
    recorder: R,
}

/// Nodes spent below each root move in one iteration (aspiration re-searches added up).
#[derive(Debug, Clone, Default)]
struct RootEffort {
    nodes: Vec<(Move, u64)>,
}

impl RootEffort {
    fn add(&mut self, mv: Move, nodes: u64) {
        match self.nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.nodes.push((mv, nodes)),
        }
    }

    /// `mv`'s share of the nodes below the root moves (1 when none were counted).
    fn share_of(&self, mv: Move) -> f64 {
        let total: u64 = self.nodes.iter().map(|(_, n)| n).sum();
        let own = self
            .nodes
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, n)| *n);
        if total == 0 {
            1.0
        } else {
            own as f64 / total as f64
        }
    }
}

impl Searcher {
    /// A searcher with an empty TT.
    pub fn new(config: SearchConfig) -> Self {
        Self::with_recorder(config, NoRecorder)
    }

    /// `previous` set up for a new configuration, keeping its buffers (move lists, PV lines,
    /// killer and history tables, and the TT when the size matches): a harness worker runs
    /// thousands of short searches without allocating for each. Searches start from empty tables
    /// either way, so the result is the same as with [`Searcher::new`].
    pub fn reuse(previous: Option<Searcher>, config: SearchConfig) -> Self {
        let Some(mut searcher) = previous else {
            return Self::new(config);
        };
        searcher.tt = table_for(&config, searcher.tt.take());
        // Kept tables belong to one configuration's game.
        if let Some(history) = searcher.history.as_mut() {
            history.reset();
        }
        if let Some(countermoves) = searcher.countermoves.as_mut() {
            countermoves.reset();
        }
        if let Some(continuations) = searcher.continuations.as_mut() {
            continuations.reset();
        }
        // The KPK rules are part of the evaluation: a cache is only good for one configuration.
        if searcher.config != config {
            searcher.eval_cache = None;
        }
        if searcher.config.eval != config.eval {
            searcher.evaluator = Evaluator::new(&config.eval);
        }
        if searcher.config.nnue != config.nnue {
            searcher.network = config.nnue.as_ref().map(network::NetworkStack::new);
        }
        searcher.config = config;
        searcher
    }
}

impl<R: Recorder> Searcher<R> {
    /// A searcher with an empty TT that tells `recorder` its tree.
    pub fn with_recorder(config: SearchConfig, recorder: R) -> Self {
        let tt = table_for(&config, None);
        Self {
            tt,
            killers: None,
            history: None,
            stats: SearchStats::default(),
            clock: Clock::new(Limits::default(), &config.time),
            root_effort: RootEffort::default(),
            path: Vec::new(),
            pv: PvTable::new(),
            root_budget: Budget {
                dyn_left: 0,
                triv_left: 0,
            },
            root_depth: 0,
            stack: vec![Frame::default(); MAX_PLY + 1],
            scratch: ordering::Scratch::default(),
            evaluator: Evaluator::new(&config.eval),
            eval_cache: None,
            network: config.nnue.as_ref().map(network::NetworkStack::new),
            singular_on_path: 0,
            doubles_on_path: 0,
            countermoves: None,
            continuations: None,
            recorder,
            config,
        }
    }

    /// The recorder.
    pub fn recorder(&self) -> &R {
        &self.recorder
    }

    /// The recorder, with what it was told.
    pub fn into_recorder(self) -> R {
        self.recorder
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Empties the TT and the history, countermove and continuation tables (UCI `ucinewgame`),
    /// so the next search is independent of the ones before.
    pub fn clear(&mut self) {
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
        }
        if let Some(history) = self.history.as_mut() {
            history.reset();
        }
        if let Some(countermoves) = self.countermoves.as_mut() {
            countermoves.reset();
        }
        if let Some(continuations) = self.continuations.as_mut() {
            continuations.reset();
        }
    }

    /// Searches `position` within `limits`. `on_iteration` sees each completed iteration (UCI
    /// `info` lines). Killers, history and statistics start empty; the TT keeps what it had.
    pub fn search(
        &mut self,
        position: &Position,
        limits: Limits,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> SearchResult {
        self.start(position, limits);
        let root = position.board();
        let mut result = self.fallback_result(root);
        let max_depth = self
            .clock
            .max_depth()
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut iterations = limits::IterationTimes::default();
        let mut stable = 0;
        for depth in 1..=max_depth {
            let next = iterations.predict_next(&self.config.time);
            if depth > 1 && !self.clock.may_start_iteration(next) {
                break;
            }
            let started = self.clock.elapsed();
            let before = (self.stats.nodes, self.stats.qnodes);
            let score = self.iterate(root, depth, result.score);
            if self.clock.stopped() {
                result.cut = true;
                self.play_partial_iteration(&mut result);
                break;
            }
            let Some(&best) = self.pv.lines[0].first() else {
                break;
            };
            stable = if depth > 1 && result.best_move == Some(best) {
                stable + 1
            } else {
                0
            };
            let drop = if depth > 1 { result.score - score } else { 0 };
            result = SearchResult {
                best_move: Some(best),
                score,
                depth,
                pv: self.pv.lines[0].clone(),
                cut: false,
                stats: SearchStats::default(),
            };
            let iteration = self.record_iteration(position, &result, before);
            on_iteration(&iteration);
            iterations.push(self.clock.elapsed() - started);
            self.adjust_time(stable, drop, best);
            if self.clock.mate_found(score) {
                break;
            }
        }
        result.stats = std::mem::take(&mut self.stats);
        result
    }

    /// With `time.partial_iteration`, an interrupted iteration's move replaces the last
    /// completed one's when a root move was searched to the end and raised alpha (the first move
    /// searched is the previous best, so another one there beat it at the deeper level).
    fn play_partial_iteration(&mut self, result: &mut SearchResult) {
        if !self.config.time.partial_iteration {
            return;
        }
        if let Some(&mv) = self.pv.lines[0].first() {
            result.best_move = Some(mv);
            result.pv = self.pv.lines[0].clone();
        }
    }

    /// The time manager's adjustments after an iteration whose best move is `best`, kept by
    /// `stable` iterations before it, its score `drop` centipawns below the one before.
    fn adjust_time(&mut self, stable: u32, drop: Score, best: Move) {
        let outcome = limits::IterationOutcome {
            stable,
            drop,
            best_share: self.root_effort.share_of(best),
        };
        let factor = limits::soft_scale(&self.config.time, outcome);
        if factor != 1.0 {
            self.clock.scale_soft(factor);
        }
    }

    fn start(&mut self, position: &Position, limits: Limits) {
        self.stats = SearchStats::default();
        self.clock = Clock::new(limits, &self.config.time);
        if let Some(tt) = self.tt.as_mut() {
            tt.new_search();
        }
        // Killers and history start empty every search; their buffers are reused.
        match (self.killers.as_mut(), self.config.killers.as_ref()) {
            (Some(k), Some(c)) => k.reset(c),
            (_, c) => self.killers = c.map(KillerTable::new),
        }
        // With `history.keep` the history table lasts the game (`clear` empties it).
        let keep = self.config.history.as_ref().is_some_and(|h| h.keep);
        match (self.history.as_mut(), self.config.history.is_some()) {
            (Some(_), true) if keep => {}
            (Some(h), true) => h.reset(),
            (_, on) => self.history = on.then(HistoryTable::default),
        }
        // With `keep_tables` the countermove and continuation tables last the game too.
        let keep = self.config.keep_tables;
        match (self.countermoves.as_mut(), self.config.countermove) {
            (Some(_), true) if keep => {}
            (Some(c), true) => c.reset(),
            (_, on) => self.countermoves = on.then(countermove::CountermoveTable::default),
        }
        let on = self.config.continuation_history.is_some();
        match (self.continuations.as_mut(), on) {
            (Some(_), true) if keep => {}
            (Some(c), true) => c.reset(),
            (_, on) => self.continuations = on.then(continuation::ContinuationTable::default),
        }
        let cache_kb = self.config.eval_cache.as_ref().map(|c| c.size_kb);
        if self.eval_cache.as_ref().map(|c| c.size_kb()) != cache_kb {
            self.eval_cache = cache_kb.map(eval_cache::EvalCache::new);
        }
        self.path.clear();
        self.path.extend_from_slice(position.history());
        self.pv.lines.iter_mut().for_each(Vec::clear);
    }

    /// Before any iteration completes: the first legal move (of `searchmoves`, if given), so a
    /// stopped search still answers; with no legal move, the mate or stalemate score.
    fn fallback_result(&self, root: &Board) -> SearchResult {
        let legal = legal_moves(root);
        let allowed = self.clock.searchmoves();
        let best_move = legal
            .iter()
            .find(|mv| allowed.is_empty() || allowed.contains(mv))
            .or(legal.first())
            .copied();
        let score = match best_move {
            None if !root.checkers().is_empty() => score::mated_in(0),
            _ => score::DRAW,
        };
        SearchResult {
            best_move,
            score,
            depth: 0,
            pv: best_move.into_iter().collect(),
            cut: false,
            stats: SearchStats::default(),
        }
    }

    /// One iteration: a full-window search, or an aspiration window widened until the score fits.
    fn iterate(&mut self, root: &Board, depth: i32, previous: Score) -> Score {
        let budget = self.begin_iteration(root, depth);
        let Some(asp) = self
            .config
            .aspiration
            .clone()
            .filter(|a| depth >= a.min_depth)
        else {
            return self.alphabeta(root, Node::root((-INFINITY, INFINITY), depth, budget));
        };
        let mut window = asp.window.max(1);
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.alphabeta(root, Node::root((alpha, beta), depth, budget));
            if self.clock.stopped() || (score > alpha && score < beta) {
                return score;
            }
            self.stats.aspiration_researches += 1;
            window = window.saturating_mul(2);
            if window > ASPIRATION_FULL_WINDOW_AFTER {
                return self.alphabeta(root, Node::root((-INFINITY, INFINITY), depth, budget));
            }
            (alpha, beta) = if !asp.one_sided {
                (previous - window, previous + window)
            } else if score <= alpha {
                (score - window, (alpha + beta) / 2)
            } else {
                (alpha, score + window)
            };
        }
    }

    /// Sets up an iteration of nominal depth `depth` at `root`; its root's selective budget.
    fn begin_iteration(&mut self, root: &Board, depth: i32) -> Budget {
        self.stack[0].placement = self.evaluator.placement(root);
        if let Some(network) = self.network.as_mut() {
            network.root(root);
        }
        self.root_budget = Budget::root(&self.config, depth);
        self.root_depth = depth;
        self.root_effort.nodes.clear();
        if R::ON {
            self.recorder.iteration(depth);
        }
        self.root_budget
    }

    /// One iteration of `position` at `depth` with the window `(alpha, beta)`, without the
    /// iterations before it: the minimal tree's re-searches (see [`record::minimal_tree`]).
    pub fn search_window(
        &mut self,
        position: &Position,
        depth: i32,
        window: (Score, Score),
    ) -> Score {
        self.start(position, Limits::depth(depth));
        let root = position.board();
        let budget = self.begin_iteration(root, depth);
        self.alphabeta(root, Node::root(window, depth, budget))
    }

    fn record_iteration(
        &mut self,
        position: &Position,
        result: &SearchResult,
        before: (u64, u64),
    ) -> Iteration {
        let (root, variant) = (position.board(), position.variant());
        let iteration = Iteration {
            depth: result.depth,
            nodes: self.stats.nodes - before.0,
            qnodes: self.stats.qnodes - before.1,
            total_nodes: self.stats.nodes,
            time_ms: self.clock.elapsed().as_micros() as f64 / 1000.0,
            seldepth: self.stats.seldepth,
            best_move: variant.uci_move(root, result.pv[0]),
            score: result.score,
            pv: pv_in(variant, root, &result.pv),
        };
        self.stats.iterations.push(iteration.clone());
        iteration
    }

    /// Whether the node at `ply` is improving: its static evaluation above the one of the node
    /// two plies up (false where either is unknown: in check, or never evaluated).
    fn improving(&self, ply: usize) -> bool {
        ply >= 2
            && matches!(
                (self.stack[ply].static_eval, self.stack[ply - 2].static_eval),
                (Some(now), Some(before)) if now > before
            )
    }

    /// The static evaluation of the node at `ply` (`board`), evaluated on the node's first request
    /// and kept in its frame for the steps after it.
    fn static_eval(&mut self, board: &Board, ply: usize) -> Score {
        if let Some(score) = self.stack[ply].static_eval {
            return score;
        }
        let score = self.evaluate(board, ply);
        self.stack[ply].static_eval = Some(score);
        score
    }

    /// The static evaluation of `board`, the position at `ply`, or a KPK rule's verdict where a
    /// switched-on rule decides.
    fn evaluate(&mut self, board: &Board, ply: usize) -> Score {
        let score = self.evaluate_cached(board, ply);
        if R::ON {
            self.recorder.static_eval(score);
        }
        score
    }

    fn evaluate_cached(&mut self, board: &Board, ply: usize) -> Score {
        // The engine's own tests search with this check on: the running sums are the board's.
        #[cfg(test)]
        assert!(
            self.network.is_some() || self.stack[ply].placement == self.evaluator.placement(board),
            "placement at ply {ply}"
        );
        #[cfg(test)]
        assert!(
            self.network.as_ref().is_none_or(|n| n.is_fresh(ply, board)),
            "accumulators at ply {ply}"
        );
        let Some(cache) = self.eval_cache.as_ref() else {
            return self.evaluate_afresh(board, ply);
        };
        self.stats.eval_cache_probes += 1;
        let key = self.eval_key(board);
        if let Some(score) = cache.probe(key) {
            self.stats.eval_cache_hits += 1;
            return score;
        }
        let score = self.evaluate_afresh(board, ply);
        if let Some(cache) = self.eval_cache.as_mut() {
            cache.store(key, score);
        }
        score
    }

    /// The evaluation cache's key: the position's hash, with the halfmove clock mixed in when the
    /// evaluation reads it (draw scaling's fifty-move factor), so a score is never returned for
    /// the same position at another clock.
    fn eval_key(&self, board: &Board) -> u64 {
        if self.evaluator.reads_halfmove_clock() {
            let clock = u64::from(board.halfmove_clock());
            board.hash() ^ (clock + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            board.hash()
        }
    }

    fn evaluate_afresh(&mut self, board: &Board, ply: usize) -> Score {
        if let Some(verdict) = self.config.kpk.score(board) {
            return verdict;
        }
        match self.network.as_ref() {
            Some(network) => network.evaluate(ply, board),
            None => self.evaluator.evaluate(board, self.stack[ply].placement),
        }
    }

    /// Makes `mv` from `board`, the position at `ply`: the child position, with its placement
    /// recorded for ply + 1.
    fn make(&mut self, board: &Board, mv: Move, ply: usize) -> Board {
        let child = play(board, mv);
        self.enter(board, mv, ply, &child);
        child
    }

    /// Records ply + 1's frame for `child`, made by `mv` from `board` at `ply`: its placement and
    /// the move that led there. The second half of [`make`](Self::make), for a caller that may
    /// prune the move between the two.
    fn enter(&mut self, board: &Board, mv: Move, ply: usize, child: &Board) {
        // The network replaces the classic sums: only one of the two is kept up to date.
        let placement = match self.network.as_mut() {
            Some(network) => {
                network.enter(ply, board, mv);
                Placement::default()
            }
            None => self
                .evaluator
                .placement_after(self.stack[ply].placement, board, mv),
        };
        let moved = self
            .continuations
            .as_ref()
            .and_then(|_| continuation::Previous::of(child, mv));
        let frame = &mut self.stack[ply + 1];
        frame.placement = placement;
        frame.previous = Some(mv);
        frame.moved = moved;
    }

    /// Draw by the 50-move rule or by repetition of a position on the game or search path (one
    /// earlier occurrence is enough: a search that can repeat can repeat again).
    fn is_draw(&self, board: &Board) -> bool {
        if board.halfmove_clock() >= 100 {
            return true;
        }
        let hash = board.hash();
        let reversible = (board.halfmove_clock() as usize).min(self.path.len());
        self.path
            .iter()
            .rev()
            .take(reversible)
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
    }
}

/// The TT `config` asks for: `table` cleared when it has that size, else a new one.
fn table_for(
    config: &SearchConfig,
    table: Option<TranspositionTable>,
) -> Option<TranspositionTable> {
    let tt = config.tt.as_ref()?;
    let mut table = match table {
        Some(mut t) if t.size_mb() == tt.size_mb => {
            t.clear();
            t
        }
        _ => TranspositionTable::new(tt.size_mb),
    };
    table.set_replacement(tt.replacement);
    table.set_aging(tt.aging);
    Some(table)
}

/// A line of moves in `variant`'s UCI notation, played from `root`.
pub fn pv_in(variant: Variant, root: &Board, pv: &[Move]) -> Vec<String> {
    let mut board = root.clone();
    pv.iter()
        .map_while(|&mv| {
            board.is_legal(mv).then(|| {
                let text = variant.uci_move(&board, mv);
                board.play_unchecked(mv);
                text
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;

/// The position after `mv` from `board`.
fn play(board: &Board, mv: Move) -> Board {
    let mut child = board.clone();
    child.play_unchecked(mv);
    child
}
