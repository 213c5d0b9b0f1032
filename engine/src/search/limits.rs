//! Search limits, kept apart from the heuristics: depth and nodes are reproducible, time is not.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cozy_chess::Move;

use crate::eval::Score;
use crate::search::score::mate_in_moves;

/// When a search stops. Any limit that is reached stops it; with none, it runs to `MAX_DEPTH` or
/// until the stop flag is raised.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<i32>,
    /// Node budget (main search plus QS nodes).
    pub nodes: Option<u64>,
    /// Wall-clock budget.
    pub movetime: Option<Duration>,
    /// Raised by another thread to stop the search (UCI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// A time manager's soft bound: no iteration starts after it, nor one that would likely run
    /// past `movetime` (an iteration is taken to cost at least twice the one before). `movetime`
    /// stays the hard bound inside an iteration.
    pub soft_time: Option<Duration>,
    /// Stop after the first iteration that finds a mate in at most this many moves (UCI `go
    /// mate N`).
    pub mate: Option<i32>,
    /// Search only these root moves (UCI `go searchmoves`); empty = all. Moves that are not legal
    /// at the root are ignored.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: i32) -> Self {
        Self {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(nodes: u64) -> Self {
        Self {
            nodes: Some(nodes),
            ..Self::default()
        }
    }
}

impl Limits {
    /// The time manager: limits for a move with `remaining` on the clock, `increment` per move and
    /// `moves_to_go` until the next time control (none: sudden death, taken as 30). The soft bound
    /// is an equal share of the time plus ¾ of the increment; the hard bound three times that, and
    /// neither more than half of what is left, so the clock never falls.
    ///
    /// ```
    /// use std::time::Duration;
    /// let l = engine::Limits::clock(Duration::from_secs(60), Duration::from_secs(1), None);
    /// assert_eq!(l.soft_time, Some(Duration::from_millis(2750)));
    /// assert_eq!(l.movetime, Some(Duration::from_millis(8250)));
    /// ```
    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Self {
        let half = remaining / 2;
        let share = remaining / moves_to_go.unwrap_or(30).max(1) + increment * 3 / 4;
        let soft = share.min(half).max(Duration::from_millis(1));
        Self {
            soft_time: Some(soft),
            movetime: Some((soft * 3).min(half).max(soft)),
            ..Self::default()
        }
    }
}

/// How often (in nodes) the clock and the stop flag are read: reading them every node costs
/// more than the node.
const CHECK_EVERY: u64 = 1024;

/// The running check of [`Limits`] during one search.
#[derive(Debug)]
pub(crate) struct Clock {
    start: Instant,
    limits: Limits,
    stopped: bool,
}

impl Clock {
    pub(crate) fn new(limits: Limits) -> Self {
        Self {
            start: Instant::now(),
            limits,
            stopped: false,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub(crate) fn max_depth(&self) -> Option<i32> {
        self.limits.depth
    }

    /// Whether another iteration may start, the last one having taken `last`.
    pub(crate) fn may_start_iteration(&self, last: Duration) -> bool {
        let Some(soft) = self.limits.soft_time else {
            return true;
        };
        let elapsed = self.start.elapsed();
        let fits = self
            .limits
            .movetime
            .is_none_or(|hard| elapsed + 2 * last <= hard);
        elapsed < soft && fits
    }

    /// Whether an iteration's score is the mate `go mate N` asked for.
    pub(crate) fn mate_found(&self, score: Score) -> bool {
        let wanted = self.limits.mate;
        mate_in_moves(score).is_some_and(|m| wanted.is_some_and(|n| m > 0 && m <= n))
    }

    /// The root moves the search may play (`go searchmoves`); empty = all.
    pub(crate) fn searchmoves(&self) -> &[Move] {
        &self.limits.searchmoves
    }

    /// Whether the search must stop now, given the nodes searched so far. Once true, stays true.
    pub(crate) fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| nodes >= n) {
            self.stopped = true;
        } else if nodes.is_multiple_of(CHECK_EVERY) {
            self.stopped = self
                .limits
                .movetime
                .is_some_and(|t| self.start.elapsed() >= t)
                || self
                    .limits
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.stopped
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}
