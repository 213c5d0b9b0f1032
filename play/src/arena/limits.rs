//! What a player may spend on a move: fixed nodes (deterministic, the default for ablations),
//! fixed depth (Fischerle's "preselected depth"), a fixed time, or a real clock `BASE+INC` that
//! the builtin engine's time manager ([`engine::Limits::clock`]) spends.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use lab::uci::go::{GoArgs, GoClock};
use serde::{Deserialize, Serialize};

/// A per-move limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveLimit {
    /// This many nodes per move.
    Nodes(u64),
    /// This depth per move.
    Depth(i32),
    /// This many milliseconds per move.
    Movetime(u64),
    /// A clock: base time and increment per move.
    Clock(TimeControl),
}

/// The limit per move of `match` and `tune` when none is given: fixed nodes, so games repeat
/// exactly.
pub const DEFAULT_LIMIT: MoveLimit = MoveLimit::Nodes(5_000);

/// `[MOVES/]BASE+INC` in milliseconds: BASE for the game, or with MOVES for each period of that
/// many moves (cutechess's `tc=40/60+0.6`: BASE is added again after every MOVES moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time on each clock at the start (and at the start of every period).
    pub base_ms: u64,
    /// Time added after each move.
    pub inc_ms: u64,
    /// Moves per period, if the clock has periods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
}

impl TimeControl {
    /// Moves the mover has left in its period after `made` moves (`None` without periods).
    pub fn moves_to_go(&self, made: u32) -> Option<u32> {
        self.moves.map(|m| m - made % m)
    }

    /// Time added to a clock after its `made`-th move: the increment, and a new period's base
    /// when that move ends a period.
    pub fn added_after(&self, made: u32) -> u64 {
        let new_period = self.moves.is_some_and(|m| made.is_multiple_of(m));
        self.inc_ms + if new_period { self.base_ms } else { 0 }
    }
}

/// Clocks scaled to the machine's speed (`--nps-scale`): every time multiplied by `factor` =
/// reference NPS / measured NPS, so a slower machine gets more time and results from different
/// machines compare (fishtest scales its workers' clocks by Stockfish's bench the same way).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NpsScale {
    /// The NPS the clocks are written for.
    pub reference: f64,
    /// This machine's `harness bench` NPS (median of 5) when the match started.
    pub measured: f64,
}

impl NpsScale {
    /// `--nps-scale REF`: this machine's speed, measured now (`harness bench`, median of 5) —
    /// or, for a resumed match, as its manifest `recorded` it, so the clocks of its remaining games
    /// are those of its first.
    pub fn for_machine(reference: f64, recorded: Option<NpsScale>) -> anyhow::Result<Self> {
        if !(reference.is_finite() && reference > 0.0) {
            anyhow::bail!(
                "--nps-scale expects the reference's nodes per second, above 0; found {reference}"
            );
        }
        let measured = match recorded {
            Some(r) => r.measured,
            None => lab::bench::machine_nps(5),
        };
        Ok(Self {
            reference,
            measured,
        })
    }

    /// reference / measured.
    pub fn factor(&self) -> f64 {
        self.reference / self.measured
    }
}

impl MoveLimit {
    /// Whether a search under this limit is the same every time (nodes or depth, one thread):
    /// then a game replayed from the same opening is the same game.
    pub fn repeats_exactly(self) -> bool {
        matches!(self, Self::Nodes(_) | Self::Depth(_))
    }

    /// The limit with its times scaled by `factor` (nodes and depth stay).
    pub fn scaled(self, factor: f64) -> Self {
        let ms = |v: u64| (v as f64 * factor).round().max(1.0) as u64;
        match self {
            Self::Movetime(t) => Self::Movetime(ms(t)),
            Self::Clock(tc) => Self::Clock(TimeControl {
                base_ms: ms(tc.base_ms),
                inc_ms: (tc.inc_ms as f64 * factor).round() as u64,
                moves: tc.moves,
            }),
            other => other,
        }
    }

    /// The PGN `TimeControl` tag: seconds `BASE+INC` for a clock, `-` otherwise.
    pub fn pgn_time_control(&self) -> String {
        match self {
            Self::Clock(tc) => {
                let period = tc.moves.map_or(String::new(), |m| format!("{m}/"));
                format!("{period}{}+{}", seconds(tc.base_ms), seconds(tc.inc_ms))
            }
            _ => "-".to_string(),
        }
    }

    /// The builtin engine's limits for a move, given the mover's clock when there is one.
    pub fn search_limits(&self, clock: Option<ClockState>) -> engine::Limits {
        match (*self, clock) {
            (Self::Nodes(n), _) => engine::Limits::nodes(n),
            (Self::Depth(d), _) => engine::Limits::depth(d),
            (Self::Movetime(ms), _) => engine::Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..engine::Limits::default()
            },
            (Self::Clock(tc), Some(c)) => engine::Limits::clock(
                Duration::from_millis(c.own_ms),
                Duration::from_millis(tc.inc_ms),
                c.movestogo,
            ),
            (Self::Clock(tc), None) => engine::Limits::clock(
                Duration::from_millis(tc.base_ms),
                Duration::from_millis(tc.inc_ms),
                tc.moves,
            ),
        }
    }

    /// The UCI `go` arguments for a move; `white_to_move` orders the clocks.
    pub fn go_args(&self, clock: Option<ClockState>, white_to_move: bool) -> GoArgs {
        match (*self, clock) {
            (Self::Nodes(n), _) => GoArgs {
                nodes: Some(n),
                ..GoArgs::default()
            },
            (Self::Depth(d), _) => GoArgs {
                depth: Some(d),
                ..GoArgs::default()
            },
            (Self::Movetime(ms), _) => GoArgs {
                movetime_ms: Some(ms),
                ..GoArgs::default()
            },
            (Self::Clock(tc), c) => {
                let c = c.unwrap_or(ClockState {
                    own_ms: tc.base_ms,
                    other_ms: tc.base_ms,
                    movestogo: tc.moves,
                });
                let (w, b) = if white_to_move {
                    (c.own_ms, c.other_ms)
                } else {
                    (c.other_ms, c.own_ms)
                };
                GoArgs {
                    clock: Some(GoClock {
                        wtime: w,
                        btime: b,
                        winc: tc.inc_ms,
                        binc: tc.inc_ms,
                        movestogo: c.movestogo,
                    }),
                    ..GoArgs::default()
                }
            }
        }
    }
}

/// Both clocks as the mover sees them, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockState {
    /// The mover's remaining time.
    pub own_ms: u64,
    /// The opponent's.
    pub other_ms: u64,
    /// The mover's moves left in its period (a clock of periods).
    pub movestogo: Option<u32>,
}

fn seconds(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{s}")
    }
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Nodes(n) => write!(f, "nodes={n}"),
            Self::Depth(d) => write!(f, "depth={d}"),
            Self::Movetime(ms) => write!(f, "movetime={ms}"),
            Self::Clock(_) => write!(f, "tc={}", self.pgn_time_control()),
        }
    }
}

impl MoveLimit {
    /// `text` read as `what` gives it (`--limit`, a player's recorded limit); the error names
    /// both.
    pub fn parse_as(text: &str, what: &str) -> anyhow::Result<Self> {
        text.parse()
            .map_err(|e: String| anyhow::anyhow!("{what} {text}: {e}"))
    }
}

impl FromStr for MoveLimit {
    type Err = String;

    /// `nodes=N`, `depth=D`, `movetime=MS` or `tc=[MOVES/]BASE+INC` (seconds, decimals allowed).
    fn from_str(text: &str) -> Result<Self, String> {
        let (kind, value) = text.split_once('=').ok_or_else(|| {
            format!("expected `nodes=N`, `depth=D`, `movetime=MS` or `tc=[MOVES/]BASE+INC`, found `{text}`")
        })?;
        let positive = |v: &str| -> Result<u64, String> {
            match v.parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "`{kind}` expects a whole number above 0, found `{v}`"
                )),
            }
        };
        match kind {
            "nodes" => Ok(Self::Nodes(positive(value)?)),
            "depth" => Ok(Self::Depth(positive(value)?.min(64) as i32)),
            "movetime" => Ok(Self::Movetime(positive(value)?)),
            "tc" => parse_tc(value).map(Self::Clock),
            other => Err(format!(
                "unknown limit `{other}`: expected nodes, depth, movetime or tc"
            )),
        }
    }
}

/// `[MOVES/]BASE+INC` or `[MOVES/]BASE`, times in seconds.
fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (moves, clock) = match text.split_once('/') {
        Some((m, rest)) => match m.parse::<u32>() {
            Ok(n) if n > 0 => (Some(n), rest),
            _ => {
                return Err(format!(
                    "`tc` periods need a whole number of moves above 0 before `/`, found `{text}`"
                ))
            }
        },
        None => (None, text),
    };
    let (base, inc) = clock.split_once('+').unwrap_or((clock, "0"));
    let ms = |v: &str| -> Result<u64, String> {
        match v.parse::<f64>() {
            Ok(s) if s >= 0.0 && s.is_finite() => Ok((s * 1000.0).round() as u64),
            _ => Err(format!("`tc` expects seconds `BASE+INC`, found `{text}`")),
        }
    };
    let tc = TimeControl {
        base_ms: ms(base)?,
        inc_ms: ms(inc)?,
        moves,
    };
    if tc.base_ms == 0 {
        return Err(format!("`tc` needs a base time above 0, found `{text}`"));
    }
    Ok(tc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_and_print() {
        for text in ["nodes=5000", "depth=6", "movetime=100", "tc=10+0.1"] {
            let limit: MoveLimit = text.parse().unwrap();
            assert_eq!(limit.to_string(), text);
        }
        assert_eq!(
            "tc=8".parse::<MoveLimit>().unwrap(),
            MoveLimit::Clock(TimeControl {
                base_ms: 8000,
                inc_ms: 0,
                moves: None
            })
        );
        let periods: MoveLimit = "tc=40/60+0.5".parse().unwrap();
        assert_eq!(periods.to_string(), "tc=40/60+0.5");
        for bad in [
            "nodes=0", "nodes", "depth=x", "tc=0+1", "tc=a+b", "speed=3", "tc=0/60", "tc=x/60",
        ] {
            assert!(bad.parse::<MoveLimit>().is_err(), "{bad}");
        }
    }

    #[test]
    fn go_arguments_name_the_clocks_by_colour() {
        let tc: MoveLimit = "tc=10+0.1".parse().unwrap();
        let c = ClockState {
            own_ms: 9000,
            other_ms: 8000,
            movestogo: None,
        };
        assert_eq!(
            tc.go_args(Some(c), false).to_string(),
            "wtime 8000 btime 9000 winc 100 binc 100"
        );
        assert_eq!(tc.pgn_time_control(), "10+0.1");
        assert_eq!(
            MoveLimit::Nodes(7).go_args(None, true).to_string(),
            "nodes 7"
        );
    }

    #[test]
    fn scaling_changes_times_and_leaves_nodes_and_depth() {
        let tc: MoveLimit = "tc=40/10+0.1".parse().unwrap();
        assert_eq!(tc.scaled(2.0).to_string(), "tc=40/20+0.2");
        assert_eq!(
            MoveLimit::Movetime(100).scaled(0.5),
            MoveLimit::Movetime(50)
        );
        assert_eq!(MoveLimit::Nodes(7).scaled(3.0), MoveLimit::Nodes(7));
        let s = NpsScale {
            reference: 1_000_000.0,
            measured: 2_000_000.0,
        };
        assert_eq!(
            s.factor(),
            0.5,
            "a machine twice as fast gets half the time"
        );
    }

    #[test]
    fn a_clock_of_periods_counts_moves_to_go_and_refills_each_period() {
        let MoveLimit::Clock(tc) = "tc=3/10+0.1".parse().unwrap() else {
            unreachable!()
        };
        let to_go: Vec<Option<u32>> = (0..7).map(|made| tc.moves_to_go(made)).collect();
        assert_eq!(
            to_go,
            [
                Some(3),
                Some(2),
                Some(1),
                Some(3),
                Some(2),
                Some(1),
                Some(3)
            ]
        );
        let added: Vec<u64> = (1..=4).map(|made| tc.added_after(made)).collect();
        assert_eq!(added, [100, 100, 10_100, 100]);
        let c = ClockState {
            own_ms: 5000,
            other_ms: 6000,
            movestogo: Some(2),
        };
        assert_eq!(
            MoveLimit::Clock(tc).go_args(Some(c), true).to_string(),
            "wtime 5000 btime 6000 winc 100 binc 100 movestogo 2"
        );
    }
}
