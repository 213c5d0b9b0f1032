//! Search limits, kept apart from the heuristics: depth and nodes are reproducible, time is not.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cozy_chess::Move;

use crate::config::TimeManager;
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
    /// The mover's clock, for the searcher's time manager to turn into `soft_time` and
    /// `movetime` (the smaller bound wins where both are given).
    pub clock: Option<GameClock>,
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
    /// A move under a clock: `remaining` on the mover's clock, `increment` per move and
    /// `moves_to_go` until the next time control (none: sudden death). The searcher's time
    /// manager ([`TimeManager`], `time.*` of its configuration) turns it into bounds.
    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Self {
        Self {
            clock: Some(GameClock {
                remaining,
                increment,
                moves_to_go,
            }),
            ..Self::default()
        }
    }
}

/// The mover's clock, as UCI's `go wtime … winc … movestogo …` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameClock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control; `None` in sudden death.
    pub moves_to_go: Option<u32>,
}

impl GameClock {
    /// The soft and hard bound of a move: an equal share of the time left (over `moves_to_go`,
    /// or the manager's number in sudden death) plus a share of the increment, and the hard bound
    /// a multiple of it, neither more than the manager's share of what is left, so the clock
    /// never falls.
    ///
    /// ```
    /// use std::time::Duration;
    /// use engine::config::TimeManager;
    /// let clock = engine::Limits::clock(Duration::from_secs(60), Duration::from_secs(1), None);
    /// let (soft, hard) = clock.clock.unwrap().bounds(&TimeManager::default());
    /// assert_eq!((soft, hard), (Duration::from_millis(2750), Duration::from_millis(8250)));
    /// ```
    pub fn bounds(&self, manager: &TimeManager) -> (Duration, Duration) {
        let most = self.remaining.mul_f64(f64::from(manager.max_pct) / 100.0);
        let moves = self.moves_to_go.unwrap_or(manager.moves_to_go).max(1);
        let share = self.remaining / moves
            + self
                .increment
                .mul_f64(f64::from(manager.increment_pct) / 100.0);
        let soft = share.min(most).max(Duration::from_millis(1));
        let hard = soft.mul_f64(manager.hard_factor).min(most).max(soft);
        (soft, hard)
    }
}

/// What the time manager's adjustments read after each completed iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct IterationOutcome {
    /// Iterations in a row (before this one) that ended with the same best move.
    pub stable: u32,
    /// The score's fall from the iteration before, centipawns (negative: it rose).
    pub drop: Score,
    /// The best move's share of the iteration's root nodes (0 to 1).
    pub best_share: f64,
}

/// The factor the adjustments of `manager` that are on scale the soft bound by after `outcome`.
pub(crate) fn soft_scale(manager: &TimeManager, outcome: IterationOutcome) -> f64 {
    let stability = manager.stability.as_ref().map_or(1.0, |s| {
        s.most - s.step * f64::from(outcome.stable.min(s.iterations))
    });
    let drop = manager.score_drop.as_ref().map_or(1.0, |d| {
        (1.0 + d.per_cp * f64::from(outcome.drop.max(0))).min(d.most)
    });
    let share = manager.node_share.as_ref().map_or(1.0, |n| {
        (n.offset + n.slope * (1.0 - outcome.best_share)).max(n.least)
    });
    stability * drop * share
}

/// The durations of the last two completed iterations, for predicting the next one's.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct IterationTimes {
    last: Duration,
    before: Duration,
}

impl IterationTimes {
    pub(crate) fn push(&mut self, took: Duration) {
        self.before = self.last;
        self.last = took;
    }

    /// How long the next iteration is expected to take: twice the last one, or with
    /// `time.predict` the last one times the growth from the one before (between 1.5 and 8;
    /// 2 while fewer than two iterations, or too short to time, are known).
    pub(crate) fn predict_next(&self, manager: &TimeManager) -> Duration {
        if !manager.predict || self.before < Duration::from_micros(200) {
            return 2 * self.last;
        }
        let growth = self.last.as_secs_f64() / self.before.as_secs_f64();
        self.last.mul_f64(growth.clamp(1.5, 8.0))
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
    /// The soft bound as the time manager's adjustments last scaled it.
    soft: Option<Duration>,
}

impl Clock {
    /// The running check of `limits`, a game clock among them turned into bounds by `manager`.
    pub(crate) fn new(mut limits: Limits, manager: &TimeManager) -> Self {
        if let Some(clock) = limits.clock {
            let (soft, hard) = clock.bounds(manager);
            limits.soft_time = Some(limits.soft_time.map_or(soft, |s| s.min(soft)));
            limits.movetime = Some(limits.movetime.map_or(hard, |m| m.min(hard)));
        }
        Self {
            start: Instant::now(),
            soft: limits.soft_time,
            limits,
            stopped: false,
        }
    }

    /// Scales the soft bound the limits gave by `factor` (the time manager's adjustments after
    /// an iteration); the hard bound stays.
    pub(crate) fn scale_soft(&mut self, factor: f64) {
        self.soft = self.limits.soft_time.map(|s| s.mul_f64(factor));
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub(crate) fn max_depth(&self) -> Option<i32> {
        self.limits.depth
    }

    /// Whether another iteration, expected to take `next`, may start: before the soft bound,
    /// and ending before the hard one.
    pub(crate) fn may_start_iteration(&self, next: Duration) -> bool {
        let Some(soft) = self.soft else {
            return true;
        };
        let elapsed = self.start.elapsed();
        let fits = self
            .limits
            .movetime
            .is_none_or(|hard| elapsed + next <= hard);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(stable: u32, drop: Score, best_share: f64) -> IterationOutcome {
        IterationOutcome {
            stable,
            drop,
            best_share,
        }
    }

    #[test]
    fn the_predictor_expects_the_measured_growth_within_its_bounds() {
        let ms = Duration::from_millis;
        let times = |before, last| {
            let mut t = IterationTimes::default();
            t.push(ms(before));
            t.push(ms(last));
            t
        };
        let classic = TimeManager::default();
        let predict = TimeManager {
            predict: true,
            ..TimeManager::default()
        };
        assert_eq!(times(10, 40).predict_next(&classic), ms(80));
        assert_eq!(times(10, 40).predict_next(&predict), ms(160));
        // Growth clamped to 1.5 and 8; too short a first iteration to time: twice the last.
        assert_eq!(times(100, 20).predict_next(&predict), ms(30));
        assert_eq!(times(1, 20).predict_next(&predict), ms(160));
        assert_eq!(IterationTimes::default().predict_next(&predict), ms(0));
        // An iteration the predictor expects to end past the hard bound is not begun.
        let clock = Clock::new(
            Limits {
                soft_time: Some(ms(500)),
                movetime: Some(ms(1000)),
                ..Limits::default()
            },
            &predict,
        );
        assert!(clock.may_start_iteration(times(10, 40).predict_next(&predict)));
        assert!(!clock.may_start_iteration(times(50, 300).predict_next(&predict)));
        assert!(clock.may_start_iteration(times(50, 300).predict_next(&classic)));
    }

    #[test]
    fn each_adjustment_scales_the_soft_bound_by_its_formula() {
        let off = TimeManager::default();
        assert_eq!(soft_scale(&off, outcome(0, 300, 0.1)), 1.0);
        let on = TimeManager::everything_on();
        let only = |keep: &str| TimeManager {
            stability: on.stability.clone().filter(|_| keep == "stability"),
            score_drop: on.score_drop.clone().filter(|_| keep == "drop"),
            node_share: on.node_share.clone().filter(|_| keep == "share"),
            ..TimeManager::default()
        };
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} against {b}");
        // Stability: 1.25 − 0.05 × min(k, 10).
        close(soft_scale(&only("stability"), outcome(0, 0, 1.0)), 1.25);
        close(soft_scale(&only("stability"), outcome(3, 0, 1.0)), 1.10);
        close(soft_scale(&only("stability"), outcome(40, 0, 1.0)), 0.75);
        // Score drop: 1 + 0.01 × drop, at most 2, never below 1.
        close(soft_scale(&only("drop"), outcome(0, 50, 1.0)), 1.5);
        close(soft_scale(&only("drop"), outcome(0, 300, 1.0)), 2.0);
        close(soft_scale(&only("drop"), outcome(0, -40, 1.0)), 1.0);
        // Node share: max(0.5, 0.4 + 2 × (1 − share)).
        close(soft_scale(&only("share"), outcome(0, 0, 0.9)), 0.6);
        close(soft_scale(&only("share"), outcome(0, 0, 0.3)), 1.8);
        close(soft_scale(&only("share"), outcome(0, 0, 1.0)), 0.5);
        // Together they multiply.
        close(soft_scale(&on, outcome(3, 50, 0.3)), 1.10 * 1.5 * 1.8);
    }

    #[test]
    fn bounds_follow_the_manager_and_never_pass_its_share_of_the_clock() {
        let clock = |ms: u64, inc: u64, mtg| GameClock {
            remaining: Duration::from_millis(ms),
            increment: Duration::from_millis(inc),
            moves_to_go: mtg,
        };
        let classic = TimeManager::default();
        let ms = |(s, h): (Duration, Duration)| (s.as_millis(), h.as_millis());
        // 2 s + 0.02 s at the start: 2000/30 + 15 = 81.67 ms, hard three times that (to the ns).
        assert_eq!(ms(clock(2_000, 20, None).bounds(&classic)), (81, 244));
        // Little left: half of it at most, for both.
        assert_eq!(ms(clock(100, 1_000, None).bounds(&classic)), (50, 50));
        let eager = TimeManager {
            moves_to_go: 20,
            increment_pct: 100,
            hard_factor: 5.0,
            ..TimeManager::default()
        };
        assert_eq!(ms(clock(2_000, 20, None).bounds(&eager)), (120, 600));
        assert_eq!(ms(clock(2_000, 20, Some(4)).bounds(&eager)), (520, 1_000));
    }
}
