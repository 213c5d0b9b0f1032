//! How long the harness waits for a UCI engine before it calls it crashed or hung: one set of
//! bounds, and one group of command-line arguments, for `grid` and `match`.

use std::time::Duration;

use clap::Args;

use super::go::Deadline;

/// The waits allowed to a UCI engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UciBounds {
    /// `uci` … `uciok` and `isready` … `readyok`.
    pub handshake: Duration,
    /// Time past a movetime or the clock before the engine is told to stop (and counts as hung
    /// if it answers only then), and again after `stop` before it is given up.
    pub slack: Duration,
    /// Time a depth- or node-limited search may take at all.
    pub timeout: Duration,
}

impl UciBounds {
    /// When to send `stop` to a search that has `time_ms` milliseconds (a movetime, or the
    /// clock's time left; `None` for a depth or node limit), and how long to wait after it.
    pub fn deadline(&self, time_ms: Option<u64>) -> Deadline {
        Deadline {
            stop_after: time_ms.map_or(self.timeout, |ms| Duration::from_millis(ms) + self.slack),
            grace: self.slack,
        }
    }
}

/// `--uci-handshake`, `--uci-slack` and `--uci-timeout`, flattened into `grid` and `match`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct UciBoundsArgs {
    /// UCI engines: milliseconds allowed for `uci`…`uciok` and `isready`…`readyok`.
    #[arg(long = "uci-handshake", value_name = "MS", default_value_t = 10_000)]
    pub handshake_ms: u64,
    /// UCI engines: milliseconds past a movetime or the clock before an engine is told to stop;
    /// one that answers only then, or not within as long again, has hung.
    #[arg(long = "uci-slack", value_name = "MS", default_value_t = 2_000)]
    pub slack_ms: u64,
    /// UCI engines: seconds a depth- or node-limited search may take before it counts as hung.
    /// Default: 600 for a grid's search, 120 for a match's move.
    #[arg(long = "uci-timeout", value_name = "S")]
    pub timeout_s: Option<u64>,
}

impl UciBoundsArgs {
    /// The bounds, with `default_timeout` where `--uci-timeout` was not given.
    pub fn bounds(&self, default_timeout: Duration) -> UciBounds {
        UciBounds {
            handshake: Duration::from_millis(self.handshake_ms),
            slack: Duration::from_millis(self.slack_ms),
            timeout: self.timeout_s.map_or(default_timeout, Duration::from_secs),
        }
    }
}
