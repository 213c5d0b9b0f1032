//! One search on a UCI engine: `position fen …`, `go …`, then `info` lines until `bestmove`.
//! Each depth's last principal-variation line (multipv 1, not a bound) is that iteration, so the
//! solving rule ("found and kept") reads an external engine as it reads the project's own.
//! A search that passes its deadline is sent `stop`; one that answers only then, or not at all,
//! has hung.

use std::time::{Duration, Instant};

use engine::{Iteration, Position};

use super::client::{UciEngine, UciError};
use super::info::{self, Info};

/// The arguments of one UCI `go` command: a grid job's limits or a game move's, spelled here
/// (in the order `depth`, `movetime`, `nodes`, clocks) and nowhere else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// `depth D`.
    pub depth: Option<i32>,
    /// `movetime MS`.
    pub movetime_ms: Option<u64>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `wtime … btime … winc … binc …`.
    pub clock: Option<GoClock>,
}

/// Both players' clocks and increments, by colour, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoClock {
    /// White's remaining time.
    pub wtime: u64,
    /// Black's remaining time.
    pub btime: u64,
    /// White's increment.
    pub winc: u64,
    /// Black's increment.
    pub binc: u64,
    /// Moves to the next time control (a clock of periods).
    pub movestogo: Option<u32>,
}

impl std::fmt::Display for GoArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words = Vec::new();
        if let Some(d) = self.depth {
            words.push(format!("depth {d}"));
        }
        if let Some(ms) = self.movetime_ms {
            words.push(format!("movetime {ms}"));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes {n}"));
        }
        if let Some(c) = self.clock {
            words.push(format!(
                "wtime {} btime {} winc {} binc {}",
                c.wtime, c.btime, c.winc, c.binc
            ));
            if let Some(n) = c.movestogo {
                words.push(format!("movestogo {n}"));
            }
        }
        f.write_str(&words.join(" "))
    }
}

/// What one `go` produced.
#[derive(Debug, Clone, Default)]
pub struct GoOutcome {
    /// Iterations as the engine reported them (nodes per iteration from its cumulative counts).
    pub iterations: Vec<Iteration>,
    /// `bestmove` (UCI).
    pub best_move: String,
    /// The last principal-variation line of each `multipv` index at the deepest depth reached.
    pub lines: Vec<Info>,
    /// Nodes of the whole search (the last `nodes` reported).
    pub nodes: u64,
    /// Deepest `seldepth` reported.
    pub seldepth: usize,
    /// Wall time from `go` to `bestmove`, milliseconds.
    pub time_ms: f64,
    /// The engine process's CPU time for the search, milliseconds (Linux `/proc`).
    pub cpu_ms: Option<f64>,
}

impl GoOutcome {
    /// The iterations, ending with the `bestmove`: a stopped engine may answer a move that no
    /// line it printed showed, and the answer is what is judged.
    pub fn answered_iterations(&self) -> Vec<Iteration> {
        let mut iterations = self.iterations.clone();
        if iterations
            .last()
            .is_none_or(|it| it.best_move != self.best_move)
        {
            let mut last = iterations.last().cloned().unwrap_or(Iteration {
                depth: 0,
                nodes: self.nodes,
                qnodes: 0,
                total_nodes: self.nodes,
                time_ms: self.time_ms,
                seldepth: self.seldepth,
                best_move: String::new(),
                score: 0,
                pv: Vec::new(),
            });
            last.best_move = self.best_move.clone();
            last.total_nodes = self.nodes;
            iterations.push(last);
        }
        iterations
    }

    /// How many iterations surely completed: all when the search reached its `depth` limit;
    /// otherwise it was stopped by time or nodes, and the engine reports the interrupted
    /// iteration at `stop`, so the last one may be partial.
    pub fn completed(&self, depth_limit: Option<i32>) -> usize {
        let n = self.iterations.len();
        let reached =
            self.iterations.last().map(|it| it.depth) == depth_limit && depth_limit.is_some();
        if reached {
            n
        } else {
            n.saturating_sub(1)
        }
    }
}

/// How long a search may take.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    /// After this the engine is told to `stop` (the movetime plus a grace, or a timeout).
    pub stop_after: Duration,
    /// How long to wait for `bestmove` after `stop`.
    pub grace: Duration,
}

/// Searches `at` with `go {go_args}`, sent as its variant's FEN. `early_stop` is asked after each
/// new iteration; when it says yes the engine is told to stop (a voluntary stop, not a hang).
pub fn search(
    engine: &mut UciEngine,
    at: &Position,
    go_args: &GoArgs,
    deadline: Deadline,
    early_stop: impl FnMut(&[Iteration]) -> bool,
) -> Result<GoOutcome, UciError> {
    let text = format!("fen {}", at.variant().fen(at.board()));
    search_from(engine, &text, at, go_args, deadline, early_stop)
}

/// As [`search`], with the `position` command's argument given (`fen F moves …`, so that the
/// engine knows the game's history); `at` is the position it describes, in its variant's notation.
pub fn search_from(
    engine: &mut UciEngine,
    position: &str,
    at: &Position,
    go_args: &GoArgs,
    deadline: Deadline,
    mut early_stop: impl FnMut(&[Iteration]) -> bool,
) -> Result<GoOutcome, UciError> {
    let cpu_before = process_cpu_ms(engine.pid());
    engine.send(&format!("position {position}"))?;
    engine.send(&format!("go {go_args}"))?;
    let start = Instant::now();
    let mut until = start + deadline.stop_after;
    let (mut overran, mut stopped) = (false, false);
    let mut outcome = GoOutcome::default();
    loop {
        let line = match engine.recv(until, "bestmove") {
            Err(UciError::Timeout { .. }) if !overran => {
                engine.send("stop")?;
                (overran, stopped) = (true, true);
                until = Instant::now() + deadline.grace;
                continue;
            }
            Err(UciError::Timeout { .. }) => {
                return Err(UciError::Hung(format!(
                    "no `bestmove` {} ms after `go {go_args}` nor {} ms after `stop`",
                    deadline.stop_after.as_millis(),
                    deadline.grace.as_millis()
                )))
            }
            other => other?,
        };
        if let Some(rest) = line.trim().strip_prefix("bestmove") {
            if overran {
                return Err(UciError::Hung(format!(
                    "passed its limit: no `bestmove` within {} ms of `go {go_args}`; it answered only when told to stop",
                    deadline.stop_after.as_millis()
                )));
            }
            outcome.best_move = best_move(at, rest)?;
            break;
        }
        let Some(parsed) = info::parse(&line) else {
            continue;
        };
        let info = parsed.map_err(UciError::Garbage)?;
        if record(&mut outcome, info) && !stopped && early_stop(&outcome.iterations) {
            engine.send("stop")?;
            stopped = true;
        }
    }
    outcome.time_ms = start.elapsed().as_secs_f64() * 1e3;
    outcome.cpu_ms = cpu_before
        .zip(process_cpu_ms(engine.pid()))
        .map(|(a, b)| b - a);
    Ok(outcome)
}

/// Folds one `info` line into the outcome; true when it began a new iteration.
fn record(outcome: &mut GoOutcome, info: Info) -> bool {
    outcome.nodes = info.nodes.unwrap_or(outcome.nodes).max(outcome.nodes);
    outcome.seldepth = outcome.seldepth.max(info.seldepth.unwrap_or(0));
    if !info.is_pv_line() {
        return false;
    }
    let depth = info.depth.expect("pv lines have a depth");
    if outcome
        .lines
        .first()
        .is_some_and(|l| l.depth != Some(depth))
    {
        outcome.lines.clear();
    }
    outcome.lines.retain(|l| l.multipv != info.multipv);
    outcome.lines.push(info.clone());
    outcome.lines.sort_by_key(|l| l.multipv);
    if info.multipv != 1 {
        return false;
    }
    let iterations = &mut outcome.iterations;
    let new = iterations.last().is_none_or(|it| it.depth != depth);
    if !new {
        iterations.pop();
    }
    let before = iterations.last().map_or(0, |it| it.total_nodes);
    let total = info.nodes.unwrap_or(outcome.nodes);
    iterations.push(Iteration {
        depth,
        nodes: total.saturating_sub(before),
        qnodes: 0,
        total_nodes: total,
        time_ms: info.time_ms.unwrap_or(0) as f64,
        seldepth: outcome.seldepth,
        best_move: info.pv[0].clone(),
        score: info.score.expect("pv lines have a score").centipawns(),
        pv: info.pv,
    });
    new
}

/// `bestmove X [ponder Y]`: X must be a legal move of the position.
fn best_move(at: &Position, rest: &str) -> Result<String, UciError> {
    let mv = rest.split_whitespace().next().unwrap_or("");
    let (board, variant) = (at.board(), at.variant());
    variant
        .parse_uci_move(board, mv)
        .map(|_| mv.to_string())
        .map_err(|_| {
            UciError::Garbage(format!(
                "`bestmove {mv}` is not a legal move in {}",
                variant.fen(board)
            ))
        })
}

/// utime + stime of a process from `/proc/PID/stat`, in milliseconds (USER_HZ is 100 on Linux).
fn process_cpu_ms(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; fields after its closing parenthesis are fixed.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) * 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_arguments_are_spelled_in_one_order() {
        let job = GoArgs {
            depth: Some(6),
            movetime_ms: Some(100),
            nodes: Some(20_000_000),
            clock: None,
        };
        assert_eq!(job.to_string(), "depth 6 movetime 100 nodes 20000000");
        let clock = GoArgs {
            clock: Some(GoClock {
                wtime: 1,
                btime: 2,
                winc: 3,
                binc: 4,
                movestogo: Some(5),
            }),
            ..GoArgs::default()
        };
        assert_eq!(
            clock.to_string(),
            "wtime 1 btime 2 winc 3 binc 4 movestogo 5"
        );
    }

    fn line(text: &str) -> Info {
        info::parse(text).unwrap().unwrap()
    }

    #[test]
    fn each_depth_keeps_its_last_line_and_iteration_nodes_are_differences() {
        let mut o = GoOutcome::default();
        for (text, begins_iteration) in [
            ("info depth 1 score cp 10 nodes 20 time 1 pv e2e4", true),
            ("info depth 2 score cp 5 nodes 120 time 2 pv d2d4", true),
            (
                "info depth 3 score cp 90 lowerbound nodes 300 pv d2d4",
                false,
            ),
            ("info depth 2 multipv 2 score cp 1 nodes 130 pv e2e4", false),
            ("info depth 3 score cp 30 nodes 400 time 5 pv g1f3", true),
            ("info depth 3 score cp 31 nodes 450 time 6 pv c2c4", false),
        ] {
            assert_eq!(record(&mut o, line(text)), begins_iteration, "{text}");
        }
        let moves: Vec<&str> = o.iterations.iter().map(|i| i.best_move.as_str()).collect();
        assert_eq!(moves, ["e2e4", "d2d4", "c2c4"]);
        let nodes: Vec<u64> = o.iterations.iter().map(|i| i.nodes).collect();
        assert_eq!(nodes, [20, 100, 330]);
        assert_eq!(o.nodes, 450);
        assert_eq!(
            o.lines.len(),
            1,
            "multipv lines of older depths are dropped"
        );
    }

    #[test]
    fn the_answer_ends_the_iterations_and_a_stopped_search_may_end_partial() {
        let mut o = GoOutcome {
            best_move: "g1f3".into(),
            ..GoOutcome::default()
        };
        record(
            &mut o,
            line("info depth 1 score cp 10 nodes 20 time 1 pv e2e4"),
        );
        record(
            &mut o,
            line("info depth 2 score cp 5 nodes 120 time 2 pv d2d4"),
        );
        o.nodes = 150;
        let answered = o.answered_iterations();
        assert_eq!(answered.len(), 3);
        assert_eq!(
            (answered[2].depth, answered[2].best_move.as_str()),
            (2, "g1f3")
        );
        assert_eq!(answered[2].total_nodes, 150);
        assert_eq!(
            (
                o.completed(Some(2)),
                o.completed(Some(3)),
                o.completed(None)
            ),
            (2, 1, 1)
        );
        o.best_move = "d2d4".into();
        assert_eq!(o.answered_iterations().len(), 2);
    }

    #[test]
    fn bestmove_must_be_legal() {
        let b = Position::new(cozy_chess::Board::default());
        assert_eq!(best_move(&b, " e2e4 ponder e7e5").unwrap(), "e2e4");
        assert!(best_move(&b, " e2e5")
            .unwrap_err()
            .to_string()
            .starts_with("garbage: "));
        assert!(best_move(&b, "").is_err());
    }

    #[test]
    fn own_cpu_time_is_readable() {
        assert!(process_cpu_ms(std::process::id()).is_some());
    }
}
