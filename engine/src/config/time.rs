//! How the engine spends a clock (`time.*`): the bounds of a move from the time left, and the
//! switches that stretch or shorten them after each iteration. Depth and node limits never read
//! the bounds, so they change no fixed-depth or fixed-node search (the bench signature stays);
//! `partial_iteration` applies wherever a search is stopped inside an iteration, a node limit's
//! too.

use serde::{Deserialize, Serialize};

/// The time manager. [`Default`] is the manager every preset had before it was a switch: the
/// remaining time shared over 30 moves plus ¾ of the increment (the soft bound: no iteration
/// starts after it), three times that as the hard bound (a search stops inside an iteration
/// there), neither more than half the time left; the adjustments off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeManager {
    /// In sudden death, the remaining time is shared over this many moves. Default 30.
    pub moves_to_go: u32,
    /// Percent of the increment added to a move's soft bound. Default 75.
    pub increment_pct: u32,
    /// The hard bound, as a multiple of the soft bound. Default 3.
    pub hard_factor: f64,
    /// Neither bound exceeds this percent of the time left. Default 50.
    pub max_pct: u32,
    /// Scale the soft bound by how many iterations in a row kept the best move; absent = off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stability: Option<Stability>,
    /// Scale the soft bound up when the score fell since the iteration before; absent = off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_drop: Option<ScoreDrop>,
    /// Scale the soft bound by the share of the last iteration's nodes the best move did not
    /// take: a move that took nearly all of them is rarely overturned; absent = off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_share: Option<NodeShare>,
    /// A search stopped inside an iteration (by a clock, `stop`, or a node limit too) plays the
    /// best move that iteration had established (a root move searched to the end that raised
    /// alpha), not the last completed iteration's. Default off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial_iteration: bool,
    /// The next iteration starts only when its predicted time — the last iteration's times the
    /// growth measured from the one before it (between 1.5 and 8) — ends before the hard bound,
    /// so an iteration the clock would cut is not begun. Default off: it starts when twice the
    /// last iteration's time fits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub predict: bool,
}

impl Default for TimeManager {
    fn default() -> Self {
        Self {
            moves_to_go: 30,
            increment_pct: 75,
            hard_factor: 3.0,
            max_pct: 50,
            stability: None,
            score_drop: None,
            node_share: None,
            partial_iteration: false,
            predict: false,
        }
    }
}

impl TimeManager {
    /// Whether this is the manager of the presets before it became a switch (left out of TOML
    /// and manifests then).
    pub fn is_classic(&self) -> bool {
        *self == Self::default()
    }

    /// Every adjustment on with its default parameters: where `time.stability=on` and the other
    /// `on`s take their values from.
    pub fn everything_on() -> Self {
        Self {
            stability: Some(Stability {
                most: 1.25,
                step: 0.05,
                iterations: 10,
            }),
            score_drop: Some(ScoreDrop {
                per_cp: 0.01,
                most: 2.0,
            }),
            node_share: Some(NodeShare {
                offset: 0.4,
                slope: 2.0,
                least: 0.5,
            }),
            partial_iteration: true,
            ..Self::default()
        }
    }
}

/// Best-move stability (Ethereal's and Weiss's "PV stability"): after `k` iterations in a row with
/// the same best move, the soft bound is scaled by `most − step × min(k, iterations)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stability {
    /// The factor when the best move just changed. Default 1.25.
    pub most: f64,
    /// Taken off per iteration that kept the move. Default 0.05.
    pub step: f64,
    /// Iterations after which the factor stops falling. Default 10 (factor 0.75).
    pub iterations: u32,
}

/// A falling score (Stockfish's "falling eval"): the soft bound is scaled by
/// `1 + per_cp × drop`, at most `most`, where `drop` is how many centipawns the score fell from
/// the iteration before (no scaling when it rose).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreDrop {
    /// Factor per centipawn of drop. Default 0.01 (a pawn's drop doubles the bound).
    pub per_cp: f64,
    /// Largest factor. Default 2.
    pub most: f64,
}

/// The best move's node share (Ethereal's node factor): the soft bound is scaled by
/// `max(least, offset + slope × (1 − share))`, where `share` is the best move's part of the last
/// iteration's root nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeShare {
    /// Factor when the best move took every node. Default 0.4.
    pub offset: f64,
    /// Added per unit of the other moves' share. Default 2.
    pub slope: f64,
    /// Smallest factor. Default 0.5.
    pub least: f64,
}

#[cfg(test)]
mod tests {
    use crate::config::SearchConfig;

    #[test]
    fn keys_reach_the_manager_and_the_classic_one_stays_out_of_toml() {
        let modern = SearchConfig::modern();
        assert!(!modern.to_toml().contains("[time"));
        let mut c = modern.clone();
        c.set("time.stability", "on").unwrap();
        c.set("time.moves_to_go", "20").unwrap();
        let on = super::TimeManager::everything_on();
        assert_eq!(c.time.stability, on.stability);
        assert_eq!((c.time.moves_to_go, c.time.increment_pct), (20, 75));
        assert_eq!(SearchConfig::from_toml(&c.to_toml()).unwrap(), c);
        c.set("time.stability", "off").unwrap();
        c.set("time.moves_to_go", "30").unwrap();
        assert_eq!(c, modern);
    }

    #[test]
    fn out_of_range_values_are_refused_by_key() {
        for (key, value) in [
            ("time.max_pct", "0"),
            ("time.hard_factor", "0.5"),
            ("time.moves_to_go", "0"),
            ("time.stability.step", "0.2"),
        ] {
            let mut c = SearchConfig::modern();
            c.set("time.stability", "on").unwrap();
            let err = c.set(key, value).unwrap_err().to_string();
            assert!(err.contains("time."), "{key}={value}: {err}");
        }
    }
}
