//! How long the harness waits for a UCI engine before it calls it crashed or hung: one set of
//! bounds for `grid`, `match` and `tune` (their arguments are the binary's `cli::UciBoundsArgs`).

use std::time::Duration;

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
