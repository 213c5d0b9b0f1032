//! The ranges serde cannot check. Each bound is a constant defined once, and the message that
//! refuses a value is built from it, so the two cannot disagree.

use std::fmt::Display;
use std::ops::RangeInclusive;

use super::{ConfigError, SearchConfig, Singular, SingularSearch};

/// The largest transposition table a configuration may ask for, in MiB.
pub const MAX_TT_MB: usize = 65_536;
/// The largest evaluation cache, in KiB (as large as the largest TT).
const MAX_EVAL_CACHE_KB: usize = MAX_TT_MB * 1024;
/// Most killers one slot keeps (`killers.count`).
pub const MAX_KILLERS: usize = 4;
/// Most moves the ordering places ahead of their key by one table (`history.moves`,
/// `continuation_history.moves`).
pub const MAX_PREFERRED_MOVES: usize = 8;
/// The largest weight of an evaluation term, either phase, in centipawns (a queen is 900).
pub const MAX_EVAL_WEIGHT: i32 = 2_000;
/// The QS horizon (`qsearch.min_level`): how far below level 0 the quiescence search may go.
const QS_MIN_LEVELS: RangeInclusive<i32> = -120..=0;

/// `key` = `found` is refused: `expected` says what would be accepted.
fn out_of_range(key: &str, found: impl Display, expected: impl Display) -> ConfigError {
    ConfigError::OutOfRange {
        key: key.to_string(),
        found: found.to_string(),
        expected: expected.to_string(),
    }
}

/// Largest `see_prune.quiet`, `see_prune.capture` and `quiet_futility.margin` (centipawns per
/// level, per level², per level).
const MAX_SEE_MARGIN: i32 = 1000;
/// Deepest `see_prune.max_level`, `quiet_futility.max_level` and `history_pruning.max_level`.
const MAX_SEE_LEVEL: i32 = 20;

/// `value` must lie in `range` (both ends included), with an optional unit for the message.
fn within<T>(key: &str, value: T, range: RangeInclusive<T>, unit: &str) -> Result<(), ConfigError>
where
    T: PartialOrd + Display + Copy,
{
    if range.contains(&value) {
        return Ok(());
    }
    let expected = format!("{} to {}{unit}", range.start(), range.end());
    Err(out_of_range(key, value, expected))
}

/// `value` must be at least `min`.
fn at_least<T>(key: &str, value: T, min: T) -> Result<(), ConfigError>
where
    T: PartialOrd + Display + Copy,
{
    if value >= min {
        return Ok(());
    }
    Err(out_of_range(key, value, format!("{min} or more")))
}

/// The excluded form's parts are refused in Fischerle's form, where nothing reads them, and a
/// double extension needs a limit.
fn singular_form(s: &Singular) -> Result<(), ConfigError> {
    if s.search == SingularSearch::Moves {
        let parts = [
            ("singular.double_margin", s.double_margin.is_some()),
            ("singular.double_max", s.double_max > 0),
            ("singular.multicut", s.multicut),
            ("singular.negative", s.negative),
        ];
        if let Some((key, _)) = parts.iter().find(|(_, set)| *set) {
            let expected =
                "unset unless singular.search = \"excluded\" (Fischerle's form has none)";
            return Err(out_of_range(key, "set", expected));
        }
    }
    if let Some(margin) = s.double_margin {
        at_least("singular.double_margin", margin, 0)?;
        at_least("singular.double_max", s.double_max, 1)?;
    }
    Ok(())
}

impl SearchConfig {
    /// Checks the ranges serde cannot: values that would make a search misbehave later (a TT too
    /// large to allocate, a negative null-move reduction that never reduces, …) are refused here,
    /// before any search starts.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if let Some(tt) = &self.tt {
            within("tt.size_mb", tt.size_mb, 1..=MAX_TT_MB, " (MiB)")?;
        }
        if let Some(n) = &self.null_move {
            at_least("null_move.base", n.base, 0)?;
            at_least("null_move.divisor", n.divisor, 1)?;
            if let Some(d) = n.eval_divisor {
                at_least("null_move.eval_divisor", d, 1)?;
            }
        }
        if let Some(delta) = self.qsearch.delta {
            at_least("qsearch.delta", delta, 0)?;
        }
        if let Some(margin) = self.qsearch.see_prune {
            at_least("qsearch.see_prune", margin, 0)?;
        }
        within(
            "qsearch.min_level",
            self.qsearch.min_level,
            QS_MIN_LEVELS,
            "",
        )?;
        if let Some(k) = &self.killers {
            within("killers.count", k.count, 1..=MAX_KILLERS, "")?;
        }
        if let Some(h) = &self.history {
            within("history.moves", h.moves, 0..=MAX_PREFERRED_MOVES, "")?;
        }
        if let Some(c) = &self.continuation_history {
            within(
                "continuation_history.moves",
                c.moves,
                1..=MAX_PREFERRED_MOVES,
                "",
            )?;
        }
        if let Some(a) = &self.aspiration {
            at_least("aspiration.window", a.window, 1)?;
            at_least("aspiration.min_depth", a.min_depth, 1)?;
        }
        if let Some(scaling) = self.selective.depth_scaling {
            at_least("selective.depth_scaling", scaling, 1)?;
        }
        if let Some(l) = &self.lazy_eval {
            at_least("lazy_eval.margin", l.margin, 0)?;
        }
        if let Some(c) = &self.eval_cache {
            within(
                "eval_cache.size_kb",
                c.size_kb,
                1..=MAX_EVAL_CACHE_KB,
                " (KiB)",
            )?;
        }
        self.validate_pruning()?;
        self.validate_time()?;
        self.validate_nnue()?;
        self.validate_eval()
    }

    /// The network loads and has the width named; its scale is a positive number of centipawns.
    fn validate_nnue(&self) -> Result<(), ConfigError> {
        let Some(nnue) = &self.nnue else {
            return Ok(());
        };
        within(
            "nnue.scale",
            nnue.scale,
            1..=10_000,
            " (centipawns per unit)",
        )?;
        nnue.load().map(drop).map_err(|e| ConfigError::BadValue {
            key: "nnue.net".to_string(),
            value: nnue.net.clone(),
            reason: e.to_string(),
        })
    }

    /// The time manager's shares are percentages, its factors finite and positive.
    fn validate_time(&self) -> Result<(), ConfigError> {
        let t = &self.time;
        at_least("time.moves_to_go", t.moves_to_go, 1)?;
        within("time.increment_pct", t.increment_pct, 0..=100, " (%)")?;
        within("time.max_pct", t.max_pct, 1..=100, " (%)")?;
        within("time.hard_factor", t.hard_factor, 1.0..=100.0, "")?;
        if let Some(s) = &t.stability {
            within("time.stability.most", s.most, 0.1..=10.0, "")?;
            within("time.stability.step", s.step, 0.0..=1.0, "")?;
            within("time.stability.iterations", s.iterations, 0..=64, "")?;
            if s.most - s.step * f64::from(s.iterations) <= 0.0 {
                let least = s.most - s.step * f64::from(s.iterations);
                return Err(out_of_range(
                    "time.stability",
                    format!("a least factor of {least}"),
                    "most − step × iterations above 0",
                ));
            }
        }
        if let Some(d) = &t.score_drop {
            within("time.score_drop.per_cp", d.per_cp, 0.0..=1.0, "")?;
            within("time.score_drop.most", d.most, 1.0..=10.0, "")?;
        }
        if let Some(n) = &t.node_share {
            within("time.node_share.offset", n.offset, 0.0..=10.0, "")?;
            within("time.node_share.slope", n.slope, 0.0..=10.0, "")?;
            within("time.node_share.least", n.least, 0.01..=10.0, "")?;
        }
        Ok(())
    }

    /// The evaluation's tables have their lengths and every weight lies within
    /// ±[`MAX_EVAL_WEIGHT`].
    fn validate_eval(&self) -> Result<(), ConfigError> {
        let eval = &self.eval;
        if let Some(t) = &eval.psqt {
            let tables = [
                ("pawn", &t.pawn),
                ("knight", &t.knight),
                ("bishop", &t.bishop),
                ("rook", &t.rook),
                ("queen", &t.queen),
                ("king", &t.king),
            ];
            for (piece, table) in tables {
                if table.len() != 64 {
                    let key = format!("eval.psqt.{piece}");
                    return Err(out_of_range(
                        &key,
                        format!("{} pairs", table.len()),
                        "64 pairs",
                    ));
                }
            }
        }
        if let Some(m) = &eval.mobility {
            if m.queen.len() != 28 {
                let found = format!("{} pairs", m.queen.len());
                return Err(out_of_range(
                    "eval.mobility.queen",
                    found,
                    "28 pairs (0 … 27 squares)",
                ));
            }
        }
        if let Some(s) = &eval.scaling {
            let full = crate::eval::scaling::FULL;
            within(
                "eval.scaling.opposite_bishops",
                s.opposite_bishops,
                0..=full,
                "",
            )?;
            within("eval.scaling.no_pawns", s.no_pawns, 0..=full, "")?;
            within(
                "eval.scaling.wrong_rook_pawn",
                s.wrong_rook_pawn,
                0..=full,
                "",
            )?;
        }
        let mut bad = None;
        crate::eval::layout::visit(&mut eval.clone(), &mut |i, p| {
            let limit = -MAX_EVAL_WEIGHT..=MAX_EVAL_WEIGHT;
            if bad.is_none() && !(limit.contains(&p.mg) && limit.contains(&p.eg)) {
                bad = Some((i, *p));
            }
        });
        match bad {
            None => Ok(()),
            Some((i, p)) => Err(out_of_range(
                &format!("eval.{}", crate::eval::layout::name(i)),
                format!("[{}, {}]", p.mg, p.eg),
                format!("both within ±{MAX_EVAL_WEIGHT}"),
            )),
        }
    }

    /// The ranges of the pruning family (reverse futility, late move pruning, futility,
    /// razoring, IIR, LMR, the singular extension).
    fn validate_pruning(&self) -> Result<(), ConfigError> {
        if let Some(r) = &self.reverse_futility {
            at_least("reverse_futility.margin", r.margin, 0)?;
            at_least("reverse_futility.max_level", r.max_level, 1)?;
        }
        if let Some(p) = &self.see_prune {
            // Bounded so that margin × level² stays far inside a score's range.
            within(
                "see_prune.quiet",
                p.quiet,
                0..=MAX_SEE_MARGIN,
                " (cp per level)",
            )?;
            within(
                "see_prune.capture",
                p.capture,
                0..=MAX_SEE_MARGIN,
                " (cp per level²)",
            )?;
            within("see_prune.max_level", p.max_level, 1..=MAX_SEE_LEVEL, "")?;
        }
        if let Some(q) = &self.quiet_futility {
            // Bounded so that margin × level stays far inside a score's range.
            within(
                "quiet_futility.margin",
                q.margin,
                0..=MAX_SEE_MARGIN,
                " (cp per level)",
            )?;
            within(
                "quiet_futility.max_level",
                q.max_level,
                1..=MAX_SEE_LEVEL,
                "",
            )?;
        }
        if let Some(h) = &self.history_pruning {
            at_least("history_pruning.margin", h.margin, 0)?;
            within(
                "history_pruning.max_level",
                h.max_level,
                1..=MAX_SEE_LEVEL,
                "",
            )?;
        }
        if let Some(l) = &self.late_move_pruning {
            at_least("late_move_pruning.base", l.base, 1)?;
            at_least("late_move_pruning.max_level", l.max_level, 1)?;
        }
        if let Some(f) = &self.futility {
            at_least("futility.frontier", f.frontier, 0)?;
            if let Some(margin) = f.pre_frontier {
                at_least("futility.pre_frontier", margin, 0)?;
            }
        }
        if let Some(r) = &self.razoring {
            at_least("razoring.margin", r.margin, 0)?;
        }
        if let Some(i) = &self.iir {
            at_least("iir.min_level", i.min_level, 2)?;
        }
        if let Some(l) = &self.lmr {
            // NaN passes no comparison: refuse it by name rather than as "NaN or more".
            if !(l.base.is_finite() && l.divisor.is_finite()) {
                return Err(out_of_range(
                    "lmr",
                    format!("{l:?}"),
                    "finite base and divisor",
                ));
            }
            at_least("lmr.base", l.base, 0.0)?;
            if l.divisor <= 0.0 {
                return Err(out_of_range("lmr.divisor", l.divisor, "more than 0"));
            }
            at_least("lmr.min_level", l.min_level, 2)?;
            at_least("lmr.min_rank", l.min_rank, 1)?;
            if let Some(d) = l.history_divisor {
                at_least("lmr.history_divisor", d, 1)?;
            }
        }
        if let Some(c) = &self.continuation_history {
            within("continuation_history.plies", c.plies, 1..=2, "")?;
            // The classic reward writes only the previous move's context: two plies need gravity.
            if c.plies == 2 && !c.gravity {
                return Err(out_of_range(
                    "continuation_history.plies",
                    c.plies,
                    "1 unless continuation_history.gravity is on (only its updates write the \
                     context two plies back)",
                ));
            }
        }
        if let Some(s) = &self.singular {
            at_least("singular.min_level", s.min_level, 2)?;
            at_least("singular.margin", s.margin, 0)?;
            at_least("singular.max_per_path", s.max_per_path, 1)?;
            within(
                "singular.tt_level_gap",
                s.tt_level_gap,
                0..=MAX_SEE_LEVEL,
                " levels",
            )?;
            singular_form(s)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

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
            ("eval.tempo.bonus", "[5000, 0]", "within ±2000"),
            ("eval.mobility.queen", "[[1, 1]]", "28 pairs"),
            ("continuation_history.plies", "3", "1 to 2"),
            ("continuation_history.plies", "2", "gravity is on"),
            ("lmr.history_divisor", "0", "1 or more"),
            ("eval.scaling.no_pawns", "65", "0 to 64"),
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
}
