//! The parameters of each heuristic of [`SearchConfig`](super::SearchConfig): one type per
//! heuristic that can be off (`Option<T>` in the config), and the enums of the schemes.

use serde::{Deserialize, Serialize};

/// Continuation history: a table of quiet cutoffs by (previous move's piece and target square,
/// this move's piece and target square), rewarded by level² like the history table; at a node
/// after a move, up to `moves` quiet moves with the best positive score are tried after the
/// history moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuationHistory {
    /// How many quiet moves it moves up. Default 2.
    pub moves: usize,
    /// Plies back whose move the table is read for: 1 (the previous move, the default) or 2 (the
    /// previous move and the one before it, summed, as Stockfish's and Ethereal's continuation
    /// and follow-up histories).
    #[serde(default = "one_ply", skip_serializing_if = "is_one_ply")]
    pub plies: u32,
    /// Gravity updates with a malus (as `history.malus` does for the butterfly table): the cut
    /// move gains, the quiet moves tried before it lose, and a score stays within ±16,384.
    /// Default `false`: the classic level² reward.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gravity: bool,
}

fn one_ply() -> u32 {
    1
}

fn is_one_ply(plies: &u32) -> bool {
    *plies == 1
}

/// Singular extension: at a node of `min_level` or deeper whose TT entry (a lower or exact bound,
/// at most 3 levels shallower) has a move, the other moves are verified with a null window at
/// the TT score minus `margin` × level, searched at half the level; if all fail low, the TT move
/// is searched one level deeper. At most `max_per_path` such extensions on one path.
///
/// How the other moves are verified is `search`: Fischerle's restricted form (`"moves"`, the
/// default) searches each alone; today's engines (`"excluded"`: Stockfish, Ethereal, Weiss,
/// Viridithas) search the node itself again without the TT move — its own move loop with its
/// pruning and reductions — and add the double extension, multicut and the negative extension,
/// each a value below.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Singular {
    /// Shallowest level where it is tried. Default 4.
    pub min_level: i32,
    /// Centipawns per level below the TT score. Default 3.
    pub margin: i32,
    /// Most singular extensions on one path. Default 2.
    pub max_per_path: u32,
    /// How the other moves are verified. Default `"moves"`.
    #[serde(default, skip_serializing_if = "SingularSearch::is_moves")]
    pub search: SingularSearch,
    /// Most levels the TT entry may lie below the node's. Default 3 (in every engine read).
    #[serde(default = "three_levels", skip_serializing_if = "is_three_levels")]
    pub tt_level_gap: i32,
    /// `"excluded"` only: extend by two levels when the verification scored this many
    /// centipawns or more below its bound (Stockfish's double extension); absent = never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double_margin: Option<i32>,
    /// `"excluded"` only: most double extensions on one path. Default 0 (with `double_margin`
    /// it must be at least 1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub double_max: u32,
    /// `"excluded"` only: when the verification fails high at its bound and that bound is at or
    /// above beta, at least two moves reach beta and the node returns the bound (multicut).
    #[serde(default, skip_serializing_if = "is_false")]
    pub multicut: bool,
    /// `"excluded"` only: when the TT move is not singular but its TT score is at or above beta,
    /// it is searched one level shallower (the negative extension).
    #[serde(default, skip_serializing_if = "is_false")]
    pub negative: bool,
}

/// How the singular extension verifies the moves other than the TT move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SingularSearch {
    /// Fischerle's restricted form: each other move made and searched alone with a null window
    /// (no move loop of the node's own, so none of its pruning or reductions apply).
    #[default]
    Moves,
    /// Today's form: the node searched again with the TT move excluded (its result kept out of
    /// the TT), its own move loop pruning and reducing as any node's.
    Excluded,
}

impl Singular {
    /// The excluded form at the values the reference engines use (read for ideas, none
    /// copied): from level 8 (Ethereal, Coda), 2 cp per level below the TT score (Coda 1,
    /// Viridithas 0.75, several others 2), a TT entry at most 3 levels shallower (all of them),
    /// a double extension 20 cp below the bound at most 6 times a path (Stockfish's form; others
    /// use 15–25), multicut and the negative extension on (Stockfish, Ethereal, Coda), and no
    /// limit on single extensions but the path's: shorter than twice the iteration's depth.
    pub fn reference() -> Self {
        Self {
            min_level: 8,
            margin: 2,
            max_per_path: 64,
            search: SingularSearch::Excluded,
            tt_level_gap: 3,
            double_margin: Some(20),
            double_max: 6,
            multicut: true,
            negative: true,
        }
    }
}

fn three_levels() -> i32 {
    3
}

fn is_three_levels(levels: &i32) -> bool {
    *levels == 3
}

impl SingularSearch {
    fn is_moves(&self) -> bool {
        *self == Self::Moves
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Futility pruning (Heinz 1998): at a node `level` 1 (frontier) or 2 (pre-frontier, the
/// extension), not in check, a move other than the first that neither gives check nor promotes
/// is not searched when the static evaluation plus what it captures plus the level's margin does
/// not reach above alpha.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Futility {
    /// Margin at frontier nodes (level 1), centipawns. Default 300 (Heinz: a minor piece).
    pub frontier: i32,
    /// Margin at pre-frontier nodes (level 2); absent = plain futility pruning only. Default 500
    /// (Heinz: a rook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_frontier: Option<i32>,
}

/// Limited razoring (Heinz 1998): a node at level 3 (pre-pre-frontier), not in check, whose static
/// evaluation plus the margin stays at or below alpha is searched at level 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Razoring {
    /// Centipawns. Default 900 (Heinz: a queen).
    pub margin: i32,
}

/// Internal iterative reduction: a node at `min_level` or deeper without a TT move is searched
/// one level shallower.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Iir {
    /// Shallowest level where it applies. Default 4.
    pub min_level: i32,
}

/// Late move reductions: a quiet move that does not give check, at `min_rank` or later in the
/// order, at a node of `min_level` or deeper not in check, is searched first with a null window
/// `⌊base + ln(level) × ln(rank + 1) / divisor⌋` levels shallower (at least level 1), and at its
/// full level only when it beats alpha there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lmr {
    /// Constant part of the reduction. Default 0.75 (Ethereal's table).
    pub base: f64,
    /// Divisor of the logarithmic part. Default 2.25 (Ethereal's table).
    pub divisor: f64,
    /// Shallowest node level where moves are reduced. Default 3.
    pub min_level: i32,
    /// First rank (0 = the first move) that may be reduced. Default 3.
    pub min_rank: usize,
    /// One level less at PV nodes (open window). Default `true`.
    pub pv_less: bool,
    /// One level less for a move with a positive history score. Default `false`.
    pub history_less: bool,
    /// One level more at an expected cut node (a null-window node whose parent expected to fail
    /// low, Knuth and Moore's type 2). Default `false`.
    #[serde(default)]
    pub cut_more: bool,
    /// One level more when the node is not *improving* (its static evaluation no higher than at
    /// the node two plies up, or in check there; never improving at plies 0 and 1, as in
    /// Stockfish). Default `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub improving: bool,
    /// Levels less per this much of the move's history score (butterfly plus continuation, each
    /// where on; a negative score reduces more), as Ethereal and Stockfish scale their reductions
    /// by history. Absent = off (the default); `history_less` is the all-or-nothing form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_divisor: Option<i32>,
}

/// Cache of static evaluations, direct-mapped by the position's hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalCache {
    /// Size in KiB. Default 1024.
    pub size_kb: usize,
}

/// Lazy evaluation's margin (see [`SearchConfig::lazy_eval`](super::SearchConfig::lazy_eval)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LazyEval {
    /// Centipawns the cheap part must clear beta by. Default 400: about what the piece terms of
    /// the every-term evaluation can add.
    pub margin: i32,
}

/// Late move pruning: at a null-window node within `max_level` of the horizon, not in check,
/// quiet moves that do not give check, after the first `base + level²`, are not searched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LateMovePruning {
    /// Moves always searched at level 0 (plus level²). Default 3.
    pub base: u32,
    /// Deepest remaining level where it applies. Default 3.
    pub max_level: i32,
    /// Half as many moves when the node is not improving (Ethereal's `(3 + d²) / (2 − improving)`).
    /// Default `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub improving: bool,
}

/// Reverse futility pruning: prune when `eval − margin × level ≥ beta` at `level ≤ max_level`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReverseFutility {
    /// Centipawns per level of remaining depth. Default 120.
    pub margin: i32,
    /// Deepest remaining level where it applies. Default 3.
    pub max_level: i32,
    /// The margin counts one level less when the node is improving (`margin × (level −
    /// improving)`, as Ethereal and Stockfish). Default `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub improving: bool,
}

/// Selective deepening: nodes with few legal moves do not use up a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selective {
    /// `DynSuchLevelZugKandidatenLimit`: a node with at most this many legal moves inserts a
    /// dynamic level. Default 3; 0 turns dynamic levels off.
    pub candidate_limit: u32,
    /// `DynSuchTiefe`: dynamic levels allowed on one path. Default 4.
    pub dyn_levels: u32,
    /// `TrivDynSuchTiefe`: trivial levels (single legal move) allowed on one path. Default 10;
    /// 0 turns them off.
    pub triv_dyn_levels: u32,
    /// Planned in Fischerle, never built: dynamic levels per path = `dyn_levels` plus the root
    /// depth divided by this. Absent = off (the default).
    pub depth_scaling: Option<u32>,
}

/// Which captures the quiescence search looks at (and which let it start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureFilter {
    /// Fischerle: (a) a higher value class captured by a lower one, or (b) more attacks (direct
    /// and x-ray) on the square than the opponent. With `see = true`: SEE ≥ 0.
    Fischerle,
    /// Every capture.
    All,
}

/// Which promotions the quiescence search looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Promotions {
    /// No promotions.
    None,
    /// Queen only.
    Q,
    /// Queen and knight (Fischerle).
    Qn,
    /// All four pieces.
    Qrbn,
}

/// Quiescence search parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QSearch {
    /// `QSMinSuchLevel`: the level (≤ 0) at which the QS returns the static evaluation. Default −30.
    pub min_level: i32,
    /// Capture filter. Default `fischerle`.
    pub captures: CaptureFilter,
    /// Promotions searched. Default `qn`.
    pub promotions: Promotions,
    /// Delta pruning: outside check, a capture (not a promotion) is skipped when the stand-pat
    /// score plus the captured piece's value plus this margin (centipawns) stays at or below
    /// alpha. Absent = off, in every preset (`qsearch.delta=200` turns it on, `off` off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<i32>,
    /// SEE pruning: outside check, a capture (not a promotion) whose static exchange loses more
    /// than this many centipawns is skipped. Absent = off, in every preset
    /// (`qsearch.see_prune=0` skips every losing capture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub see_prune: Option<i32>,
    /// Probe the transposition table at QS nodes (a stored score whose bound fits the window
    /// ends the node) and store each QS node's result at level 0, where no deeper entry of the
    /// position is kept. Level-0 entries never end a main-search node. Default `false`: the QS
    /// neither reads nor writes the table, as Fischerle's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tt: bool,
}

/// The move-ordering scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderingScheme {
    /// Fischerle's 14 buckets built while generating, then TT move → killers → buckets 1–8 →
    /// history moves → the rest.
    Fischerle,
    /// Most valuable victim / least valuable attacker for captures, then TT move, killers,
    /// history-sorted quiets.
    MvvLva,
    /// Generation order (TT move and killers still first where enabled).
    None,
    /// Every move scored, then sorted (today's engines): TT move → queen promotions (not checked
    /// by SEE) and captures that do not lose material by SEE, by most valuable victim then least
    /// valuable attacker → killers → countermove → every other quiet move by its history score
    /// (butterfly plus continuation, each where on) → captures that lose material by SEE, by
    /// MVV-LVA → the under-promotions.
    Staged,
    /// The staged order as a move picker, as Stockfish's and Ethereal's: the same stages, but the
    /// quiet moves are scored by their history and sorted only when the search reaches them, with
    /// the history as the earlier moves' subtrees left it. A node cut by its TT move, a capture or
    /// a killer never scores its quiet moves.
    Picker,
}

/// What the killer table is indexed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KillerIndex {
    /// Distance from the root (Fischerle's fix).
    Ply,
    /// Remaining depth: the variant Fischerle's page says "gave wrong results", because selective
    /// deepening leaves the level unchanged from parent to child.
    Level,
}

/// Killer moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Killers {
    /// Killers kept per slot. Default 2.
    pub count: usize,
    /// Slot index. Default `ply`.
    pub index: KillerIndex,
}

/// History heuristic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct History {
    /// (choice) How many quiet moves with the best positive history score are tried right after
    /// buckets 1–8 in the `fischerle` scheme. Default 2.
    pub moves: usize,
    /// Sort every remaining quiet move by its history score (plus its continuation-history score
    /// when that is on), best first, ahead of the disadvantageous captures, as Toga II and
    /// Ethereal do; ties keep the scheme's order. Default `false`: only `moves` of them move up,
    /// the rest stay in bucket order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sort_all: bool,
    /// A quiet cutoff also penalises every quiet move searched before it at the node, and both
    /// updates are "gravity" updates that keep scores within ±16,384: a bonus b = min(level², 400)
    /// changes a score h by ±32·b − h·b/512 (the rule Ethereal's tuning write-up describes).
    /// Default `false`: the cut move gains level², nothing else changes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub malus: bool,
    /// Keep the table from one search to the next within a game, as Ethereal does (a new game,
    /// UCI `ucinewgame`, empties it). Default `false`: every search starts from an empty table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep: bool,
}

/// Transposition table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tt {
    /// Size in MiB. Default 16.
    pub size_mb: usize,
    /// Let a stored score replace a search when it is deep enough and its bound fits the window.
    /// Default `true`; `false` keeps the table for move ordering only.
    pub cutoffs: bool,
    /// Let a stored score replace a search only when it was searched with at least the
    /// selective-deepening budget (dynamic and trivial levels left) the probing node has: an entry
    /// searched with no dynamic level left then cannot answer a node that may still insert four.
    /// Default `false` (Fischerle's pages say nothing of it; the TT compares levels only).
    #[serde(default)]
    pub budget_aware: bool,
    /// Which entry a store replaces. Default `always` (Fischerle's pages name no policy).
    #[serde(default, skip_serializing_if = "Replacement::is_always")]
    pub replacement: Replacement,
    /// No cutoff at PV nodes (an open window): the PV is searched, not read back, as in
    /// Stockfish, Ethereal and Toga II. Default `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip_pv: bool,
    /// Entries of an earlier search (an earlier move of the game) yield to any store under
    /// `depth_preferred` and `two_tier` replacement, after the age in Stockfish's and Ethereal's
    /// tables: without it a deep entry of the opening keeps its slot all game. They are still
    /// read until replaced; unlike those engines' tables, a hit does not make an entry current
    /// again. Default `false`: an entry's age is its last `clear`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aging: bool,
}

/// The TT's replacement policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Replacement {
    /// A store always overwrites its slot.
    #[default]
    Always,
    /// A store overwrites an entry of this search only if it is as deep or has the same position.
    DepthPreferred,
    /// Slots in pairs: the first depth-preferred, the second always replaced (what the first
    /// refuses goes there).
    TwoTier,
}

impl Replacement {
    fn is_always(&self) -> bool {
        *self == Replacement::Always
    }
}

/// Aspiration windows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aspiration {
    /// Half-width of the first window in centipawns; doubled on each fail. Default 50.
    pub window: i32,
    /// First iteration that uses a window. Default 4.
    pub min_depth: i32,
    /// After a fail only the failing bound moves (a fail high raises beta, a fail low lowers
    /// alpha and pulls beta to the middle), as Ethereal and Stockfish; default `false`: both
    /// bounds re-centred on the previous score with the doubled width.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_sided: bool,
}

/// Null-move pruning with reduction `base + level / divisor` (plus, with `eval_divisor`, one
/// level per that many centipawns the static evaluation stands above beta, at most 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NullMove {
    /// Base reduction. Default 2.
    pub base: i32,
    /// Depth divisor for the adaptive part. Default 4.
    pub divisor: i32,
    /// Not at PV nodes (an open window), as Toga II, Ethereal and Stockfish. Default `false`:
    /// Fischerle's null move is tried at every node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip_pv: bool,
    /// Centipawns of static evaluation above beta per extra level of reduction (at most 3 more),
    /// as Ethereal's `(eval − beta) / 200`. Absent = off (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_divisor: Option<i32>,
    /// Tried before the moves are generated and ordered, as in Stockfish, Ethereal and Carp
    /// (right after reverse futility pruning, at the node's level before razoring and internal
    /// iterative reduction): a node the pass cuts never pays for its move list. A node with no legal move
    /// may then be cut as well. Default `false`: after the moves are generated and ordered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub early: bool,
}

/// Futility pruning of quiet moves by level (as Ethereal and Stockfish prune late in the move
/// loop): at a null-window node within `max_level` of the horizon, not in check, a quiet move
/// after the first that does not give check is not searched when the static evaluation plus
/// `margin` × level stays at or below alpha and the move's history (butterfly plus continuation)
/// is below `history_limit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuietFutility {
    /// Centipawns per level. Default 75 (Ethereal 12).
    pub margin: i32,
    /// Deepest remaining level where it applies. Default 8 (Ethereal 12).
    pub max_level: i32,
    /// A quiet move with at least this much history is always searched. Default 12,000
    /// (Ethereal 12's limit for a node that is not improving).
    pub history_limit: i32,
}

/// History pruning: at a null-window node within `max_level` of the horizon, not in check, a
/// quiet move after the first that does not give check is not searched when its history
/// (butterfly plus continuation) is below −`margin` × level, as Stockfish's move loop does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryPruning {
    /// History units per level. Default 2,000.
    pub margin: i32,
    /// Deepest remaining level where it applies. Default 4.
    pub max_level: i32,
}

/// SEE pruning in the main search (Ethereal's step 12): at a node within `max_level` of the
/// horizon, not the root and not in check, a move after the first (never castling) that neither
/// gives check nor promotes is not searched when its static exchange loses more than `quiet` ×
/// level centipawns (a quiet move, whose exchange is the opponent's capture of the moved piece) or
/// `capture` × level² (a capture).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeePrune {
    /// Centipawns per level a quiet move may lose. Default 80 (Ethereal 12).
    pub quiet: i32,
    /// Centipawns per level² a capture may lose. Default 18 (Ethereal 12).
    pub capture: i32,
    /// Deepest remaining level where it applies. Default 8.
    pub max_level: i32,
}
