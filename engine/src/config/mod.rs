//! [`SearchConfig`]: every heuristic of the search as runtime data, and the named presets.
//!
//! Each parameter is defined once, here: serde parses and prints it (TOML), the harness sets it
//! by its dotted key (`selective.candidate_limit`), and the search reads it. A heuristic that can be
//! off is an `Option` (absent in TOML = off) or an enum variant.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a configuration could not be built.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The preset name is unknown.
    #[error("unknown preset `{found}`, expected one of: {}", PRESETS.join(", "))]
    UnknownPreset {
        /// The name given.
        found: String,
    },
    /// The TOML did not describe a valid configuration.
    #[error("invalid search configuration: {0}")]
    Toml(#[from] toml::de::Error),
    /// A dotted key names no field.
    #[error("unknown key `{key}`: {reason}")]
    UnknownKey {
        /// The key as given.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
    /// A value has the right type but lies outside what the search can use.
    #[error("`{key}` = {found} is out of range: expected {expected}")]
    OutOfRange {
        /// The key.
        key: String,
        /// The value found.
        found: String,
        /// The range expected.
        expected: String,
    },
    /// The value does not fit the field.
    #[error("cannot set `{key}` to `{value}`: {reason}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the field expects.
        reason: String,
    },
}

/// The names accepted by [`SearchConfig::preset`].
pub const PRESETS: &[&str] = &["fischerle", "seeds", "plain", "modern"];

/// All heuristics of one search. `Default` is the `fischerle` preset.
///
/// ```
/// let c = engine::SearchConfig::preset("fischerle").unwrap();
/// assert_eq!(c.selective.candidate_limit, 3);
/// let text = c.to_toml();
/// assert_eq!(engine::SearchConfig::from_toml(&text).unwrap(), c);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchConfig {
    /// Selective deepening (Fischerle section 1).
    pub selective: Selective,
    /// Quiescence search (Fischerle section 2).
    pub qsearch: QSearch,
    /// Move ordering scheme (Fischerle section 3).
    pub ordering: OrderingScheme,
    /// Replace the attack-count capture classification by a static exchange evaluation, for
    /// ordering and the QS filter. Default `false`: Fischerle does no SEE.
    pub see: bool,
    /// Killer moves (Fischerle section 4); absent = off.
    pub killers: Option<Killers>,
    /// History heuristic; absent = off.
    pub history: Option<History>,
    /// Try the transposition table's move first. Default `true`. Needs `tt`.
    pub tt_move: bool,
    /// Transposition table; absent = off.
    pub tt: Option<Tt>,
    /// Principal-variation search (null-window search of all but the first move). On in
    /// `fischerle` (the spec's §5), off in `seeds` and `plain`.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score; absent = off.
    pub aspiration: Option<Aspiration>,
    /// Null-move pruning with an adaptive reduction; absent = off. On in `fischerle` (its later
    /// versions, spec §5), off in `seeds` and `plain`.
    pub null_move: Option<NullMove>,
    /// Search a move that gives check one level deeper. Off in `fischerle`.
    pub check_extension: bool,
    /// Mate-search mode (Mattsuchmodus): selective deepening is off in it.
    pub mate_search: bool,
    /// KPK knowledge rules in the evaluation (the 1989 text); all off in both presets.
    #[serde(default)]
    pub kpk: crate::kpk::KpkRules,
    /// Mate-distance pruning: the window is narrowed to the mates still possible from the node
    /// (no faster mate than at the next ply, no slower loss than at this one); a window left
    /// empty ends the node. Off in every preset (left out of TOML and manifests when off).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mate_distance_pruning: bool,
    /// Reverse futility pruning (static null move): at a null-window node near the horizon, not
    /// in check, a static evaluation above beta by a margin per level is returned at once.
    /// Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_futility: Option<ReverseFutility>,
    /// Late move pruning: late quiet moves near the horizon are not searched at null-window
    /// nodes. Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_move_pruning: Option<LateMovePruning>,
    /// Futility pruning at frontier nodes and, extended, at pre-frontier nodes (Heinz; Fischerle's
    /// later versions, spec §5). Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futility: Option<Futility>,
    /// Limited razoring at pre-pre-frontier nodes (Heinz; Fischerle's later versions, spec §5).
    /// Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub razoring: Option<Razoring>,
    /// Internal iterative reduction. Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iir: Option<Iir>,
    /// Late move reductions. Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lmr: Option<Lmr>,
    /// A cache of static evaluations by position (Fischerle's later versions, spec §5): it never
    /// changes a value, only the time. Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_cache: Option<EvalCache>,
    /// The countermove heuristic: the quiet move that last refuted the previous move is tried
    /// after the killers. Off in every preset (left out of TOML and manifests when off).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub countermove: bool,
    /// Continuation history: quiet moves that cut off after the same previous move (by the
    /// pieces and target squares of both) are tried after the history moves. Absent = off, in
    /// every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation_history: Option<ContinuationHistory>,
    /// Restricted singular extension (Fischerle's later versions, spec §5). Absent = off, in
    /// every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singular: Option<Singular>,
}

/// Continuation history: a table of quiet cutoffs by (previous move's piece and target square,
/// this move's piece and target square), rewarded by level² like the history table; at a node
/// after a move, up to `moves` quiet moves with the best positive score are tried after the
/// history moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuationHistory {
    /// How many quiet moves it moves up. Default 2.
    pub moves: usize,
}

/// Restricted singular extension: at a node of `min_level` or deeper whose TT entry (a lower or
/// exact bound, at most 3 levels shallower) has a move, every other move is searched at half the
/// level with a null window at the TT score minus `margin` × level; if all fail low, the TT move
/// is searched one level deeper. At most `max_per_path` such extensions on one path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Singular {
    /// Shallowest level where it is tried. Default 4.
    pub min_level: i32,
    /// Centipawns per level below the TT score. Default 3.
    pub margin: i32,
    /// Most singular extensions on one path. Default 2.
    pub max_per_path: u32,
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
}

/// Cache of static evaluations, direct-mapped by the position's hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalCache {
    /// Size in KiB. Default 1024.
    pub size_kb: usize,
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
}

/// Reverse futility pruning: prune when `eval − margin × level ≥ beta` at `level ≤ max_level`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReverseFutility {
    /// Centipawns per level of remaining depth. Default 120.
    pub margin: i32,
    /// Deepest remaining level where it applies. Default 3.
    pub max_level: i32,
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
}

/// Null-move pruning with reduction `base + level / divisor`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NullMove {
    /// Base reduction. Default 2.
    pub base: i32,
    /// Depth divisor for the adaptive part. Default 4.
    pub divisor: i32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self::fischerle()
    }
}

impl SearchConfig {
    /// The configuration with settings that cannot act switched to their neutral value, so that
    /// two configurations that search identically compare equal: `tt_move` without `tt` (there is
    /// no stored move to try) is `false`.
    pub fn canonical(&self) -> Self {
        Self {
            tt_move: self.tt_move && self.tt.is_some(),
            ..self.clone()
        }
    }

    /// Fischerle as the spec describes it: the [`seeds`](Self::seeds) engine plus the techniques
    /// §5 names that this engine has — principal-variation search and adaptive null-move pruning
    /// (reduction 2 + level / 4). The evaluation cache and the later pruning family (futility
    /// pruning, razoring, …) are switches, off here.
    pub fn fischerle() -> Self {
        Self {
            pvs: true,
            null_move: Some(NullMove {
                base: 2,
                divisor: 4,
            }),
            ..Self::seeds()
        }
    }

    /// What the seed pages describe and nothing more: selective deepening 3/4/10, Fischerle QS
    /// (−30, Q+N), 14-bucket ordering without SEE, two killers by ply, history, TT with TT move;
    /// no PVS, no null move.
    pub fn seeds() -> Self {
        Self {
            selective: Selective {
                candidate_limit: 3,
                dyn_levels: 4,
                triv_dyn_levels: 10,
                depth_scaling: None,
            },
            qsearch: QSearch {
                min_level: -30,
                captures: CaptureFilter::Fischerle,
                promotions: Promotions::Qn,
                delta: None,
                see_prune: None,
            },
            ordering: OrderingScheme::Fischerle,
            see: false,
            killers: Some(Killers {
                count: 2,
                index: KillerIndex::Ply,
            }),
            history: Some(History { moves: 2 }),
            tt_move: true,
            tt: Some(Tt {
                size_mb: 16,
                cutoffs: true,
                budget_aware: false,
                replacement: Replacement::Always,
            }),
            pvs: false,
            aspiration: None,
            null_move: None,
            check_extension: false,
            mate_search: false,
            kpk: crate::kpk::KpkRules::default(),
            mate_distance_pruning: false,
            reverse_futility: None,
            late_move_pruning: None,
            futility: None,
            razoring: None,
            iir: None,
            lmr: None,
            eval_cache: None,
            singular: None,
            continuation_history: None,
            countermove: false,
        }
    }

    /// Textbook alpha-beta: iterative deepening + TT, MVV-LVA, all-captures QS, no extensions,
    /// no killers or history.
    pub fn plain() -> Self {
        Self {
            selective: Selective {
                candidate_limit: 0,
                dyn_levels: 0,
                triv_dyn_levels: 0,
                depth_scaling: None,
            },
            qsearch: QSearch {
                min_level: -30,
                captures: CaptureFilter::All,
                promotions: Promotions::Qrbn,
                delta: None,
                see_prune: None,
            },
            ordering: OrderingScheme::MvvLva,
            killers: None,
            history: None,
            ..Self::seeds()
        }
    }

    /// `fischerle` plus every switch of the later pruning family whose fixed-node match against
    /// `fischerle` (200 game pairs at 10,000 nodes a move, `results/heuristics/`) gave a likelihood
    /// of superiority of 95 % or more, each with its `on` values: futility pruning (extended), late
    /// move pruning, late move reductions, QS SEE pruning, aspiration windows and the restricted
    /// singular extension.
    pub fn modern() -> Self {
        let on = Self::everything_on();
        Self {
            qsearch: QSearch {
                see_prune: on.qsearch.see_prune,
                ..Self::fischerle().qsearch
            },
            aspiration: on.aspiration,
            late_move_pruning: on.late_move_pruning,
            futility: on.futility,
            lmr: on.lmr,
            singular: on.singular,
            ..Self::fischerle()
        }
    }

    /// A preset by name (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Self, ConfigError> {
        match name {
            "fischerle" => Ok(Self::fischerle()),
            "seeds" => Ok(Self::seeds()),
            "plain" => Ok(Self::plain()),
            "modern" => Ok(Self::modern()),
            _ => Err(ConfigError::UnknownPreset {
                found: name.to_string(),
            }),
        }
    }

    /// Parses a complete configuration from TOML, with its ranges checked.
    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        let config: Self = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// Prints the configuration as TOML (absent tables are heuristics that are off).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a SearchConfig always serialises")
    }

    /// Every optional heuristic switched on with its default parameters: where `key=on`, or a
    /// key inside a heuristic that is off, takes its values from.
    fn everything_on() -> Self {
        Self {
            pvs: true,
            aspiration: Some(Aspiration {
                window: 50,
                min_depth: 4,
            }),
            null_move: Some(NullMove {
                base: 2,
                divisor: 4,
            }),
            check_extension: true,
            qsearch: QSearch {
                delta: Some(200),
                see_prune: Some(0),
                ..Self::fischerle().qsearch
            },
            mate_distance_pruning: true,
            reverse_futility: Some(ReverseFutility {
                margin: 120,
                max_level: 3,
            }),
            late_move_pruning: Some(LateMovePruning {
                base: 3,
                max_level: 3,
            }),
            futility: Some(Futility {
                frontier: 300,
                pre_frontier: Some(500),
            }),
            razoring: Some(Razoring { margin: 900 }),
            iir: Some(Iir { min_level: 4 }),
            lmr: Some(Lmr {
                base: 0.75,
                divisor: 2.25,
                min_level: 3,
                min_rank: 3,
                pv_less: true,
                history_less: false,
                cut_more: false,
            }),
            eval_cache: Some(EvalCache { size_kb: 1024 }),
            singular: Some(Singular {
                min_level: 4,
                margin: 3,
                max_per_path: 2,
            }),
            countermove: true,
            continuation_history: Some(ContinuationHistory { moves: 2 }),
            ..Self::fischerle()
        }
    }

    /// Sets one field by its dotted key, as the harness's `--set` and UCI `setoption` do.
    /// `off` turns an optional heuristic off, `on` turns it on with default parameters; other
    /// values are read as bool, integer, float or string, and serde checks them against the field.
    ///
    /// ```
    /// let mut c = engine::SearchConfig::fischerle();
    /// c.set("selective.candidate_limit", "4").unwrap();
    /// c.set("killers", "off").unwrap();
    /// c.set("null_move.base", "3").unwrap();
    /// assert_eq!((c.selective.candidate_limit, c.killers.is_none()), (4, true));
    /// assert_eq!(c.null_move.as_ref().unwrap().base, 3);
    /// assert!(c.clone().set("selective.bogus", "1").is_err());
    /// assert!(c.set("see", "maybe").is_err());
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let mut tree = toml::Value::try_from(&*self).expect("a SearchConfig always serialises");
        let defaults = toml::Value::try_from(Self::everything_on()).expect("serialises");
        let path: Vec<&str> = key.split('.').collect();
        let unknown = |reason: &str| ConfigError::UnknownKey {
            key: key.to_string(),
            reason: reason.to_string(),
        };
        let (last, parents) = path.split_last().ok_or_else(|| unknown("empty key"))?;
        let mut table = tree.as_table_mut().expect("a struct serialises to a table");
        let mut default = defaults.as_table();
        for part in parents {
            let fallback = default.and_then(|d| d.get(*part)).cloned();
            default = default
                .and_then(|d| d.get(*part))
                .and_then(|v| v.as_table());
            let entry = table.entry(part.to_string());
            let node = match (entry, fallback) {
                (toml::map::Entry::Occupied(o), _) => o.into_mut(),
                (toml::map::Entry::Vacant(v), Some(f)) => v.insert(f),
                (toml::map::Entry::Vacant(_), None) => {
                    return Err(unknown(&format!("no field `{part}`")))
                }
            };
            table = node
                .as_table_mut()
                .ok_or_else(|| unknown(&format!("`{part}` has no sub-keys")))?;
        }
        match value {
            "off" => {
                table.remove(*last);
            }
            "on" => {
                let on = default
                    .and_then(|d| d.get(*last))
                    .filter(|v| v.is_table())
                    .cloned();
                let on = on.ok_or_else(|| unknown("`on` needs an optional heuristic"))?;
                table.insert(last.to_string(), on);
            }
            _ => {
                table.insert(last.to_string(), parse_scalar(value));
            }
        }
        let bad = |reason: String| ConfigError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            reason,
        };
        let updated: Self = tree
            .try_into()
            .map_err(|e: toml::de::Error| bad(e.message().to_string()))?;
        updated.validate().map_err(|e| bad(e.to_string()))?;
        *self = updated;
        Ok(())
    }

    /// Checks the ranges serde cannot: values that would make a search misbehave later (a TT too
    /// large to allocate, a negative null-move reduction that never reduces, …) are refused here,
    /// before any search starts.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let out_of_range = |key: &str, found: String, expected: &str| {
            Err(ConfigError::OutOfRange {
                key: key.to_string(),
                found,
                expected: expected.to_string(),
            })
        };
        if let Some(tt) = &self.tt {
            if !(1..=MAX_TT_MB).contains(&tt.size_mb) {
                return out_of_range("tt.size_mb", tt.size_mb.to_string(), "1 to 65536 (MiB)");
            }
        }
        if let Some(n) = &self.null_move {
            if n.base < 0 {
                return out_of_range("null_move.base", n.base.to_string(), "0 or more");
            }
            if n.divisor < 1 {
                return out_of_range("null_move.divisor", n.divisor.to_string(), "1 or more");
            }
        }
        if self.qsearch.delta.is_some_and(|d| d < 0) {
            let found = format!("{:?}", self.qsearch.delta);
            return out_of_range("qsearch.delta", found, "0 or more");
        }
        if let Some(l) = &self.late_move_pruning {
            if l.base < 1 || l.max_level < 1 {
                let found = format!("base {}, max_level {}", l.base, l.max_level);
                return out_of_range("late_move_pruning", found, "base and max_level 1 or more");
            }
        }
        self.validate_pruning()?;
        if let Some(r) = &self.reverse_futility {
            if r.margin < 0 {
                return out_of_range("reverse_futility.margin", r.margin.to_string(), "0 or more");
            }
            if r.max_level < 1 {
                let found = r.max_level.to_string();
                return out_of_range("reverse_futility.max_level", found, "1 or more");
            }
        }
        if !(-120..=0).contains(&self.qsearch.min_level) {
            let found = self.qsearch.min_level.to_string();
            return out_of_range("qsearch.min_level", found, "-120 to 0");
        }
        if let Some(k) = &self.killers {
            if !(1..=crate::search::killers::MAX_KILLERS).contains(&k.count) {
                return out_of_range("killers.count", k.count.to_string(), "1 to 4");
            }
        }
        if let Some(h) = &self.history {
            if h.moves > 8 {
                return out_of_range("history.moves", h.moves.to_string(), "0 to 8");
            }
        }
        if let Some(a) = &self.aspiration {
            if a.window < 1 || a.min_depth < 1 {
                let found = format!("window {}, min_depth {}", a.window, a.min_depth);
                return out_of_range("aspiration", found, "window and min_depth 1 or more");
            }
        }
        if self.selective.depth_scaling == Some(0) {
            return out_of_range("selective.depth_scaling", "0".into(), "1 or more, or off");
        }
        Ok(())
    }

    /// The ranges of the later pruning family (futility, razoring, IIR, LMR, SEE pruning, the
    /// evaluation cache).
    fn validate_pruning(&self) -> Result<(), ConfigError> {
        let out_of_range = |key: &str, found: String, expected: &str| {
            Err(ConfigError::OutOfRange {
                key: key.to_string(),
                found,
                expected: expected.to_string(),
            })
        };
        if let Some(f) = &self.futility {
            if f.frontier < 0 || f.pre_frontier.is_some_and(|m| m < 0) {
                let found = format!("frontier {}, pre_frontier {:?}", f.frontier, f.pre_frontier);
                return out_of_range("futility", found, "margins of 0 or more");
            }
        }
        if self.razoring.as_ref().is_some_and(|r| r.margin < 0) {
            let found = format!("{:?}", self.razoring);
            return out_of_range("razoring.margin", found, "0 or more");
        }
        if self.iir.as_ref().is_some_and(|i| i.min_level < 2) {
            let found = format!("{:?}", self.iir);
            return out_of_range("iir.min_level", found, "2 or more");
        }
        if let Some(l) = &self.lmr {
            let finite = l.base.is_finite() && l.divisor.is_finite();
            if !finite || l.base < 0.0 || l.divisor <= 0.0 || l.min_level < 2 || l.min_rank < 1 {
                return out_of_range(
                    "lmr",
                    format!("{l:?}"),
                    "base ≥ 0, divisor > 0, min_level ≥ 2, min_rank ≥ 1",
                );
            }
        }
        if let Some(s) = &self.singular {
            if s.min_level < 2 || s.margin < 0 || s.max_per_path < 1 {
                return out_of_range(
                    "singular",
                    format!("{s:?}"),
                    "min_level ≥ 2, margin ≥ 0, max_per_path ≥ 1",
                );
            }
        }
        if let Some(c) = &self.continuation_history {
            if !(1..=8).contains(&c.moves) {
                let found = c.moves.to_string();
                return out_of_range("continuation_history.moves", found, "1 to 8");
            }
        }
        if self.qsearch.see_prune.is_some_and(|m| m < 0) {
            let found = format!("{:?}", self.qsearch.see_prune);
            return out_of_range("qsearch.see_prune", found, "0 or more");
        }
        if let Some(c) = &self.eval_cache {
            if !(1..=MAX_TT_MB * 1024).contains(&c.size_kb) {
                return out_of_range("eval_cache.size_kb", c.size_kb.to_string(), "1 or more");
            }
        }
        Ok(())
    }
}

/// The largest transposition table a configuration may ask for, in MiB.
pub const MAX_TT_MB: usize = 65_536;

/// A command-line value as the TOML scalar it most likely is.
fn parse_scalar(text: &str) -> toml::Value {
    if let Ok(b) = text.parse::<bool>() {
        toml::Value::Boolean(b)
    } else if let Ok(i) = text.parse::<i64>() {
        toml::Value::Integer(i)
    } else if let Ok(f) = text.parse::<f64>() {
        toml::Value::Float(f)
    } else {
        toml::Value::String(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_move_without_a_table_is_canonically_off() {
        let mut on = SearchConfig::fischerle();
        on.tt = None;
        let mut off = on.clone();
        off.tt_move = false;
        assert_ne!(on, off);
        assert_eq!(on.canonical(), off.canonical());
        let with_table = SearchConfig::fischerle();
        assert!(with_table.canonical().tt_move);
    }

    #[test]
    fn presets_round_trip_through_toml() {
        for name in PRESETS {
            let c = SearchConfig::preset(name).unwrap();
            assert_eq!(SearchConfig::from_toml(&c.to_toml()).unwrap(), c, "{name}");
        }
    }

    #[test]
    fn modern_is_fischerle_with_the_switches_its_matches_chose() {
        let mut c = SearchConfig::fischerle();
        for key in [
            "futility",
            "late_move_pruning",
            "lmr",
            "aspiration",
            "singular",
        ] {
            c.set(key, "on").unwrap();
        }
        c.set("qsearch.see_prune", "0").unwrap();
        assert_eq!(SearchConfig::modern(), c);
        assert_eq!(SearchConfig::preset("modern").unwrap(), c);
    }

    #[test]
    fn fischerle_is_the_seeds_engine_with_pvs_and_null_move() {
        let (f, s) = (SearchConfig::fischerle(), SearchConfig::seeds());
        assert!(f.pvs && f.null_move.is_some());
        assert!(!s.pvs && s.null_move.is_none());
        assert_eq!(
            SearchConfig {
                pvs: false,
                null_move: None,
                ..f
            },
            s
        );
        let p = SearchConfig::plain();
        assert!(
            !p.pvs && p.null_move.is_none(),
            "plain stays textbook alpha-beta"
        );
    }

    #[test]
    fn unknown_field_is_rejected() {
        let mut text = SearchConfig::fischerle().to_toml();
        text.push_str("\nbogus = 1\n");
        let err = SearchConfig::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("bogus"), "{err}");
    }

    #[test]
    fn set_reaches_every_kind_of_field() {
        let mut c = SearchConfig::plain();
        c.set("ordering", "fischerle").unwrap();
        c.set("qsearch.promotions", "q").unwrap();
        c.set("qsearch.min_level", "-20").unwrap();
        c.set("tt.size_mb", "4").unwrap();
        c.set("aspiration", "on").unwrap();
        c.set("selective.depth_scaling", "3").unwrap();
        assert_eq!(c.ordering, OrderingScheme::Fischerle);
        assert_eq!(
            (c.qsearch.promotions, c.qsearch.min_level),
            (Promotions::Q, -20)
        );
        assert_eq!(c.tt.as_ref().unwrap().size_mb, 4);
        assert_eq!(
            c.aspiration,
            Some(Aspiration {
                window: 50,
                min_depth: 4
            })
        );
        assert_eq!(c.selective.depth_scaling, Some(3));
        c.set("tt", "off").unwrap();
        assert_eq!(c.tt, None);
    }

    #[test]
    fn set_errors_name_the_key_and_the_expectation() {
        let mut c = SearchConfig::fischerle();
        let err = c
            .set("selective.candidate_limit", "-1")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("selective.candidate_limit") && err.contains("-1"),
            "{err}"
        );
        let err = c.set("ordering", "random").unwrap_err().to_string();
        assert!(err.contains("fischerle"), "{err}");
        assert!(matches!(
            c.set("nope.x", "1"),
            Err(ConfigError::UnknownKey { .. })
        ));
        assert!(matches!(
            c.set("see.x", "1"),
            Err(ConfigError::UnknownKey { .. })
        ));
        assert_eq!(c, SearchConfig::fischerle(), "a failed set changes nothing");
    }

    #[test]
    fn values_that_would_break_a_search_are_refused() {
        let mut c = SearchConfig::fischerle();
        for (key, value, expected) in [
            ("tt.size_mb", "100000000", "1 to 65536"),
            ("tt.size_mb", "0", "1 to 65536"),
            ("null_move.base", "-1", "0 or more"),
            ("null_move.divisor", "0", "1 or more"),
            ("qsearch.min_level", "5", "-120 to 0"),
            ("killers.count", "9", "1 to 4"),
            ("history.moves", "20", "0 to 8"),
            ("selective.depth_scaling", "0", "1 or more"),
        ] {
            let err = c.set(key, value).unwrap_err().to_string();
            assert!(
                err.contains(key) && err.contains(expected),
                "{key}={value}: {err}"
            );
        }
        assert_eq!(c, SearchConfig::fischerle(), "nothing was changed");
        let mut text = c.to_toml();
        text = text.replace("size_mb = 16", "size_mb = 0");
        assert!(SearchConfig::from_toml(&text).is_err());
    }

    #[test]
    fn unknown_preset_names_the_choices() {
        let err = SearchConfig::preset("nope").unwrap_err().to_string();
        assert!(err.contains("fischerle") && err.contains("nope"), "{err}");
    }
}
