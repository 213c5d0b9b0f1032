//! [`SearchConfig`]: every heuristic of the search as runtime data, and the named presets.
//!
//! Each parameter is defined once, here: serde parses and prints it (TOML), the harness sets it
//! by its dotted key (`selective.candidate_limit`), and the search reads it. A heuristic that can be
//! off is an `Option` (absent in TOML = off) or an enum variant.
//!
//! The struct and its documentation are here; each heuristic's parameter type is in
//! `heuristics.rs` (re-exported), the named presets in `presets.rs`, dotted keys (`--set`,
//! `setoption`) in `keys.rs`, and the ranges serde cannot check, with their bounds, in
//! `validate.rs`.

mod heuristics;
mod keys;
mod presets;
mod time;
mod validate;

pub use heuristics::*;
pub use presets::{preset_summary, PRESETS};
pub use time::{NodeShare, ScoreDrop, Stability, TimeManager};
pub use validate::{MAX_EVAL_WEIGHT, MAX_KILLERS, MAX_PREFERRED_MOVES, MAX_TT_MB};

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
    /// With the staged order (`"staged"`, `"picker"`): captures that lose material by SEE are
    /// searched after the quiet moves, as the reference move pickers do (their bad-capture
    /// stage); `false` searches every capture by MVV-LVA before the quiet moves, SEE unread.
    /// Default `true`.
    #[serde(default = "bad_captures_last", skip_serializing_if = "is_true")]
    pub bad_captures_last: bool,
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
    /// With `check_extension`: only a check whose static exchange does not lose material is
    /// extended (Stockfish's condition for years, `see_ge(move)`); a checking sacrifice is
    /// searched as any move. Off in every preset.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub check_extension_see: bool,
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
    /// Lazy evaluation: where QS would stand pat, the evaluation's cheap part (material, squares,
    /// pawn terms) that clears beta by the margin ends the node without the piece terms. Absent =
    /// off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lazy_eval: Option<LazyEval>,
    /// The countermove heuristic: the quiet move that last refuted the previous move is tried
    /// after the killers. Off in every preset (left out of TOML and manifests when off).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub countermove: bool,
    /// Continuation history: quiet moves that cut off after the same previous move (by the
    /// pieces and target squares of both) are tried after the history moves. Absent = off, in
    /// every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation_history: Option<ContinuationHistory>,
    /// SEE pruning of losing moves in the main search (the QS has its own,
    /// `qsearch.see_prune`). Never castling. Absent = off, in every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub see_prune: Option<SeePrune>,
    /// Futility pruning of quiet moves at every level up to `max_level`, with a history
    /// condition (the modern form; `futility` is Heinz's at levels 1 and 2). Absent = off, in
    /// every preset before `honed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet_futility: Option<QuietFutility>,
    /// History pruning of quiet moves near the horizon. Absent = off, in every preset before
    /// `honed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_pruning: Option<HistoryPruning>,
    /// The countermove and continuation tables last the game, as `history.keep` makes the
    /// butterfly table (a new game, UCI `ucinewgame`, empties them). Off in every preset before
    /// `honed`: every search starts with empty tables.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_tables: bool,
    /// Restricted singular extension (Fischerle's later versions, spec §5). Absent = off, in
    /// every preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singular: Option<Singular>,
    /// Sound bounds after pruning: a node where futility, late move or SEE pruning skipped a
    /// move fails low at alpha at best (its pruned moves might have scored up to there), so it
    /// never stores an upper bound below what it did not search. Default `false`: the best
    /// searched score is returned and stored (fail-soft over the searched moves only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sound_bounds: bool,
    /// The evaluation's terms and weights (`eval.mobility=on`, `eval.pawns.backward=[-8,-8]`).
    /// The classic evaluation in every preset so far (left out of TOML and manifests then).
    #[serde(default, skip_serializing_if = "classic_eval")]
    pub eval: Box<crate::eval::Evaluation>,
    /// The evaluation by a network (NNUE) in place of `eval`'s terms (KPK rules still decide
    /// where they are on). Absent = off, in every preset before `nnue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nnue: Option<crate::nnue::Nnue>,
    /// How a clock is spent (`time.stability=on`, `time.moves_to_go=25`). The manager of every
    /// preset so far (left out of TOML and manifests then); depth and node limits never read its
    /// bounds (`time.partial_iteration` also acts when a node limit cuts an iteration).
    #[serde(default, skip_serializing_if = "classic_time")]
    pub time: Box<TimeManager>,
}

/// Whether a configuration's time manager is the classic one (left out of its TOML then).
fn classic_time(time: &TimeManager) -> bool {
    time.is_classic()
}

/// Whether a configuration's evaluation is the classic one (left out of its TOML then).
fn classic_eval(eval: &crate::eval::Evaluation) -> bool {
    eval.is_classic()
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

    /// Parses a complete configuration from TOML, with its ranges checked.
    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        let config: Self = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// Whether a switched-on step reads whether a node is improving (then every node not in
    /// check is evaluated statically before step 6).
    pub fn reads_improving(&self) -> bool {
        self.lmr.as_ref().is_some_and(|l| l.improving)
            || self.late_move_pruning.as_ref().is_some_and(|l| l.improving)
            || self.reverse_futility.as_ref().is_some_and(|r| r.improving)
    }

    /// Prints the configuration as TOML (absent tables are heuristics that are off).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a SearchConfig always serialises")
    }
}

fn bad_captures_last() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
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
    fn unknown_field_is_rejected() {
        let mut text = SearchConfig::fischerle().to_toml();
        text.push_str("\nbogus = 1\n");
        let err = SearchConfig::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("bogus"), "{err}");
    }
}
