//! [`SearchStats`]: what a researcher asks of a search, counted as it runs.

use cozy_chess::Move;
use serde::Serialize;

use crate::eval::Score;

/// Ranks of cutoff moves kept apart; later ranks share the last slot.
pub const CUTOFF_RANKS: usize = 16;
/// Legal-move counts kept apart in [`SearchStats::legal_moves`]; larger counts share the last slot.
pub const LEGAL_MOVE_SLOTS: usize = 9;

/// One completed iteration of iterative deepening.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Iteration {
    /// Nominal depth of the iteration.
    pub depth: i32,
    /// Nodes (main + QS) searched by this iteration alone.
    pub nodes: u64,
    /// QS nodes searched by this iteration alone.
    pub qnodes: u64,
    /// Nodes of the whole search so far.
    pub total_nodes: u64,
    /// Milliseconds since the search started, at the end of the iteration, to the microsecond
    /// (shallow iterations take well under a millisecond).
    pub time_ms: f64,
    /// Deepest ply reached so far.
    pub seldepth: usize,
    /// Best move (UCI notation).
    pub best_move: String,
    /// Score in centipawns from the side to move (mates as ±(MATE − ply)).
    pub score: Score,
    /// Principal variation (UCI notation).
    pub pv: Vec<String>,
}

/// Counters of one search. Every field is a plain count unless its doc says otherwise.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SearchStats {
    /// All nodes: main search and QS.
    pub nodes: u64,
    /// QS nodes (included in `nodes`).
    pub qnodes: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Transposition table probes.
    pub tt_probes: u64,
    /// Probes that found an entry of this position.
    pub tt_hits: u64,
    /// Hits whose score replaced the search.
    pub tt_cutoffs: u64,
    /// Hits deep enough whose bound fitted, refused because they were searched with less
    /// selective-deepening budget than the node has (`tt.budget_aware`).
    pub tt_budget_refusals: u64,
    /// Beta cutoffs in the main search.
    pub beta_cutoffs: u64,
    /// Beta cutoffs by the first move tried (fail-high-first count).
    pub first_move_cutoffs: u64,
    /// Histogram of the rank (0 = first tried) of the move that cut off.
    pub cutoff_rank: [u64; CUTOFF_RANKS],
    /// Main-search nodes by number of legal moves (0..=7, then 8 or more).
    pub legal_moves: [u64; LEGAL_MOVE_SLOTS],
    /// Dynamic levels inserted (selective deepening, `n <= candidate_limit`).
    pub dyn_levels: u64,
    /// Trivial levels inserted (single legal move).
    pub triv_levels: u64,
    /// Most levels (dynamic + trivial) inserted on any one path.
    pub max_extension: u32,
    /// Main-search nodes lying below at least one inserted dynamic level.
    pub nodes_below_dyn: u64,
    /// Check extensions.
    pub check_extensions: u64,
    /// QS entries because the side to move was in check.
    pub qs_entries_check: u64,
    /// QS entries because of a potentially advantageous capture.
    pub qs_entries_capture: u64,
    /// QS entries because of a promotion.
    pub qs_entries_promotion: u64,
    /// Level-0 nodes that returned the static evaluation without entering QS.
    pub qs_skipped: u64,
    /// QS nodes stopped by `qsearch.min_level`.
    pub qs_depth_cutoffs: u64,
    /// Captures classified advantageous (move ordering).
    pub captures_advantageous: u64,
    /// Captures classified neutral.
    pub captures_neutral: u64,
    /// Captures classified disadvantageous.
    pub captures_disadvantageous: u64,
    /// Beta cutoffs by a killer move.
    pub killer_hits: u64,
    /// Beta cutoffs by a move promoted by the history heuristic.
    pub history_hits: u64,
    /// Beta cutoffs by the countermove.
    pub countermove_hits: u64,
    /// Beta cutoffs by a move promoted by continuation history.
    pub continuation_hits: u64,
    /// Beta cutoffs by the TT move.
    pub tt_move_hits: u64,
    /// Static exchange evaluations computed.
    pub see_calls: u64,
    /// Null-move searches tried.
    pub null_move_tries: u64,
    /// Null-move searches that cut off.
    pub null_move_cutoffs: u64,
    /// Nodes ended by mate-distance pruning.
    pub mate_distance_cutoffs: u64,
    /// Nodes ended by reverse futility pruning.
    pub reverse_futility_prunes: u64,
    /// QS captures skipped by delta pruning.
    pub delta_prunes: u64,
    /// Quiet moves skipped by late move pruning.
    pub late_move_prunes: u64,
    /// Moves skipped by futility pruning (frontier and pre-frontier nodes, and `quiet_futility`
    /// at any level up to its `max_level`).
    pub futility_prunes: u64,
    /// Quiet moves skipped by history pruning.
    pub history_prunes: u64,
    /// QS nodes ended by a TT score (`qsearch.tt`).
    pub qs_tt_cutoffs: u64,
    /// Moves skipped by SEE pruning in the main search.
    pub see_prunes: u64,
    /// Nodes searched one level shallower by limited razoring.
    pub razorings: u64,
    /// Nodes searched one level shallower by internal iterative reduction.
    pub iir_reductions: u64,
    /// Moves searched first with a late move reduction.
    pub lmr_reductions: u64,
    /// Reduced moves searched again at their full level (they beat alpha reduced).
    pub lmr_researches: u64,
    /// Singular-extension verification searches made.
    pub singular_tries: u64,
    /// TT moves found singular and extended.
    pub singular_extensions: u64,
    /// Of those, extended by two levels (`singular.double_margin`).
    pub singular_doubles: u64,
    /// Nodes cut by the singular verification's multicut (`singular.multicut`).
    pub singular_multicuts: u64,
    /// TT moves searched a level shallower (`singular.negative`).
    pub singular_negatives: u64,
    /// Nodes (main + QS) the singular verifications searched.
    pub singular_nodes: u64,
    /// Nodes (main + QS) below the moves a singular extension searched deeper.
    pub singular_extended_nodes: u64,
    /// Nodes (main + QS) below the moves a check extension searched deeper.
    pub check_extended_nodes: u64,
    /// QS captures skipped by SEE pruning.
    pub qs_see_prunes: u64,
    /// Evaluation-cache probes.
    pub eval_cache_probes: u64,
    /// Evaluation-cache hits.
    pub eval_cache_hits: u64,
    /// QS stand pats decided by lazy evaluation's cheap part alone.
    pub lazy_cutoffs: u64,
    /// Aspiration re-searches.
    pub aspiration_researches: u64,
    /// Completed iterations, in order (not part of the flat serialised form: the harness writes
    /// them to their own file).
    #[serde(skip)]
    pub iterations: Vec<Iteration>,
}

impl SearchStats {
    /// Share of beta cutoffs made by the first move tried (0 when there were none).
    pub fn fail_high_first_rate(&self) -> f64 {
        ratio(self.first_move_cutoffs, self.beta_cutoffs)
    }

    /// Share of TT probes that hit.
    pub fn tt_hit_rate(&self) -> f64 {
        ratio(self.tt_hits, self.tt_probes)
    }

    /// Counts a beta cutoff by the move tried at `rank`.
    pub(crate) fn record_cutoff(&mut self, rank: usize) {
        self.beta_cutoffs += 1;
        if rank == 0 {
            self.first_move_cutoffs += 1;
        }
        self.cutoff_rank[rank.min(CUTOFF_RANKS - 1)] += 1;
    }

    /// Counts a main-search node with `n` legal moves.
    pub(crate) fn record_legal_moves(&mut self, n: usize) {
        self.legal_moves[n.min(LEGAL_MOVE_SLOTS - 1)] += 1;
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The outcome of a search.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// Best move of the last completed iteration (`None` only with no legal move), or with
    /// `time.partial_iteration` the one an interrupted iteration had established.
    pub best_move: Option<Move>,
    /// The last completed iteration's score.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Principal variation of the last completed iteration (or of the interrupted one whose
    /// move is played).
    pub pv: Vec<Move>,
    /// Whether the search stopped inside an iteration (a limit or `stop` reached), so that
    /// iteration's work was spent without completing it.
    pub cut: bool,
    /// Everything counted.
    pub stats: SearchStats,
}
