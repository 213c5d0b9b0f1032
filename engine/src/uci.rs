//! The UCI protocol: `uci`, `isready`, `ucinewgame`, `position`, `go`, `stop`, `quit`, `setoption`.
//! The search runs on its own thread so `stop` is heard; anything unreadable is answered with an
//! `info string` and otherwise ignored.
//!
//! Options: `Hash` (MiB), `Preset` (a [`SearchConfig`] preset), and every key of [`SearchConfig`]
//! by its dotted name (`setoption name selective.candidate_limit value 4`), so an external runner
//! can switch heuristics as the harness does.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use cozy_chess::{Board, Color};

use crate::config::{SearchConfig, PRESETS};
use crate::position::Position;
use crate::search::limits::Limits;
use crate::search::score::mate_in_moves;
use crate::search::stats::Iteration;
use crate::search::Searcher;
use crate::variant::Variant;

/// The largest `Hash` the engine accepts, in MiB.
const MAX_HASH_MB: usize = 4096;

/// Where the engine writes; shared with the search thread.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) {
    let mut w = out.lock().expect("output lock");
    // A closed pipe means the GUI is gone; there is nobody left to tell.
    let _ = writeln!(w, "{line}").and_then(|_| w.flush());
}

/// A UCI session.
pub struct Uci {
    out: Output,
    config: SearchConfig,
    position: Position,
    /// `UCI_Chess960`: positions and moves in Chess960 notation.
    variant: Variant,
    searcher: Option<Searcher>,
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
}

impl Uci {
    /// A session writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        let config = SearchConfig::fischerle();
        Self {
            out: Arc::new(Mutex::new(out)),
            searcher: Some(Searcher::new(config.clone())),
            config,
            position: Position::new(Board::default()),
            variant: Variant::Standard,
            running: None,
        }
    }

    /// Reads commands until `quit` or the end of input. A line that is not UTF-8 is ignored with
    /// an `info string` (the GUI's next command is still heard).
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        for number in 1.. {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let Ok(line) = std::str::from_utf8(&bytes) else {
                self.info(&format!("ignored input line {number}: it is not UTF-8"));
                continue;
            };
            if !self.command(line.trim()) {
                break;
            }
        }
        self.stop();
    }

    /// Handles one command; `false` on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        match verb {
            "" => {}
            "uci" => self.identify(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" => self.stop(),
            "setoption" => self.set_option(rest),
            "quit" => return false,
            "debug" | "ponderhit" | "register" => {}
            _ => self.info(&format!("unknown command `{verb}`")),
        }
        true
    }

    fn info(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    fn identify(&self) {
        say(&self.out, &format!("id name {}", crate::VERSION));
        say(&self.out, "id author the fischerle-lab authors");
        say(
            &self.out,
            &format!("option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"),
        );
        // One search thread; declared so that runners that always set Threads can.
        say(
            &self.out,
            "option name Threads type spin default 1 min 1 max 1",
        );
        say(
            &self.out,
            "option name UCI_Chess960 type check default false",
        );
        say(
            &self.out,
            &format!(
                "option name Preset type combo default fischerle var {}",
                PRESETS.join(" var ")
            ),
        );
        say(&self.out, "uciok");
    }

    fn new_game(&mut self) {
        self.stop();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        self.position = Position::with_variant(Board::default(), self.variant);
    }

    fn set_position(&mut self, args: &str) {
        match parse_position(args, self.variant) {
            Ok((p, problem)) => {
                self.position = p;
                if let Some(problem) = problem {
                    self.info(&problem);
                }
            }
            Err(e) => self.info(&e),
        }
    }

    fn set_option(&mut self, args: &str) {
        let Some((name, value)) = parse_setoption(args) else {
            return self.info("expected `setoption name <id> value <x>`");
        };
        self.stop();
        let mut config = self.config.clone();
        let result = match name.as_str() {
            "Hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => config.set("tt.size_mb", &value),
                _ => {
                    return self.info(&format!(
                        "Hash takes 1 to {MAX_HASH_MB} MiB, found `{value}`"
                    ))
                }
            },
            "Threads" if value == "1" => Ok(()),
            "Threads" => {
                return self.info(&format!(
                    "Threads is 1 (one search thread), found `{value}`"
                ))
            }
            "Preset" => SearchConfig::preset(&value).map(|c| config = c),
            "UCI_Chess960" => {
                return match value.as_str() {
                    "true" => self.variant = Variant::Chess960,
                    "false" => self.variant = Variant::Standard,
                    _ => self.info(&format!(
                        "UCI_Chess960 is true or false, found `{}`",
                        crate::excerpt::excerpt(&value)
                    )),
                };
            }
            key => config.set(key, &value),
        };
        match result {
            Ok(()) => {
                self.config = config;
                self.searcher = Some(Searcher::new(self.config.clone()));
            }
            Err(e) => self.info(&e.to_string()),
        }
    }

    fn go(&mut self, args: &str) {
        self.stop();
        let limits = match parse_go(args, &self.position) {
            Ok(l) => l,
            Err(e) => {
                // A GUI waits for `bestmove` after every `go`: say what was wrong, then answer.
                self.info(&e);
                Limits::depth(1)
            }
        };
        // `go mate N` searches in mate-search mode (no selective deepening), this search only.
        let config = SearchConfig {
            mate_search: self.config.mate_search || limits.mate.is_some(),
            ..self.config.clone()
        };
        // In infinite mode the protocol lets a search end early (a mate, a lone move, the deepest
        // depth) but not answer: `bestmove` waits for `stop`.
        let infinite = args.split_whitespace().any(|w| w == "infinite");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let limits = Limits {
            stop: Some(stop.clone()),
            ..limits
        };
        let mut searcher = self
            .searcher
            .take()
            .expect("searcher is home when no search runs");
        if searcher.config() != &config {
            searcher = Searcher::reuse(Some(searcher), config);
        }
        let (position, out) = (self.position.clone(), self.out.clone());
        let handle = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let root = position.board().clone();
            let result = searcher.search(&position, limits, |it| {
                say(&out, &info_line(it, start.elapsed()))
            });
            let best = result.best_move.map_or("0000".to_string(), |mv| {
                position.variant().uci_move(&root, mv)
            });
            while infinite && !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            say(&out, &format!("bestmove {best}"));
            searcher
        });
        self.running = Some((handle, stop));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some((handle, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            self.searcher = Some(handle.join().expect("search thread panicked"));
        }
    }
}

/// `info depth … seldepth … nodes … nps … time … score … pv …`.
fn info_line(it: &Iteration, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1) as u64;
    let score = match mate_in_moves(it.score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", it.score),
    };
    format!(
        "info depth {} seldepth {} nodes {} nps {} time {} score {} pv {}",
        it.depth,
        it.seldepth,
        it.total_nodes,
        it.total_nodes * 1000 / ms,
        ms,
        score,
        it.pv.join(" ")
    )
}

/// `startpos|fen <FEN> [moves m1 m2 …]`. An illegal move ends the list: the position after the
/// legal moves before it is kept (as Stockfish does), with a message naming the move.
fn parse_position(args: &str, variant: Variant) -> Result<(Position, Option<String>), String> {
    let (setup, moves) = match args.split_once("moves") {
        Some((s, m)) => (s.trim(), m.split_whitespace().collect()),
        None => (args.trim(), Vec::new()),
    };
    let board = if setup == "startpos" {
        Board::default()
    } else if let Some(fen) = setup.strip_prefix("fen") {
        variant.parse_fen(fen.trim()).map_err(|e| e.to_string())?
    } else {
        return Err(format!(
            "expected `position startpos` or `position fen <FEN>`, found `{args}`"
        ));
    };
    let mut position = Position::with_variant(board, variant);
    for (i, mv) in moves.iter().enumerate() {
        if let Err(e) = position.play_uci(mv) {
            let problem = format!(
                "{e}: move {} of `position {args}`; kept the position after the {i} moves before it",
                i + 1
            );
            return Ok((position, Some(problem)));
        }
    }
    Ok((position, None))
}

/// `name <id> value <x>` (the id may contain spaces).
fn parse_setoption(args: &str) -> Option<(String, String)> {
    let rest = args.trim().strip_prefix("name")?;
    let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
    Some((name.trim().to_string(), value.trim().to_string()))
}

/// `go` arguments to limits. Clock times go to the searcher's time manager ([`Limits::clock`]). `mate N` stops at a mate in at
/// most N moves and, without a depth, searches at most 2N − 1 plies (enough to see it);
/// `searchmoves` takes the moves that follow it, up to the next keyword.
fn parse_go(args: &str, position: &Position) -> Result<Limits, String> {
    let board = position.board();
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut limits = Limits::default();
    let (mut time, mut inc, mut moves_to_go) = (None, 0u64, None);
    let side = board.side_to_move();
    let mut i = 0;
    while i < words.len() {
        let value = || -> Result<u64, String> {
            let v = words
                .get(i + 1)
                .ok_or_else(|| format!("`{}` needs a number", words[i]))?;
            v.parse()
                .map_err(|_| format!("`{}` expects a number, found `{v}`", words[i]))
        };
        match (words[i], side) {
            ("depth", _) => limits.depth = Some(value()?.min(64) as i32),
            ("nodes", _) => limits.nodes = Some(value()?),
            ("movetime", _) => limits.movetime = Some(Duration::from_millis(value()?)),
            ("mate", _) => limits.mate = Some(value()?.clamp(1, 32) as i32),
            ("wtime", Color::White) | ("btime", Color::Black) => time = Some(value()?),
            ("winc", Color::White) | ("binc", Color::Black) => inc = value()?,
            ("movestogo", _) => moves_to_go = Some(value()?.min(u64::from(u32::MAX)) as u32),
            ("wtime" | "btime" | "winc" | "binc", _) => {
                value()?;
            }
            ("infinite" | "ponder", _) => {
                i += 1;
                continue;
            }
            ("searchmoves", _) => {
                i += 1;
                while let Some(text) = words.get(i).filter(|w| !GO_KEYWORDS.contains(w)) {
                    let mv = position
                        .variant()
                        .parse_uci_move(board, text)
                        .map_err(|e| format!("`searchmoves`: {e}"))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
                continue;
            }
            (other, _) => return Err(format!("unknown `go` argument `{other}`")),
        }
        i += 2;
    }
    if let Some(t) = time {
        limits.clock = Limits::clock(
            Duration::from_millis(t),
            Duration::from_millis(inc),
            moves_to_go,
        )
        .clock;
    }
    if let (Some(n), None) = (limits.mate, limits.depth) {
        limits.depth = Some(2 * n - 1);
    }
    Ok(limits)
}

/// The words that start a `go` argument (they end a `searchmoves` list).
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzz: any sequence of lines a confused or hostile GUI could send (real verbs with random
    /// arguments, and random text) is answered without a panic, and the session still answers
    /// `isready` afterwards.
    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        fn line() -> impl Strategy<Value = String> {
            let word = "[a-h1-8KQRBNPkqrbnp/ -]{0,12}";
            prop_oneof![
                word.prop_map(|w| format!("position fen {w}")),
                word.prop_map(|w| format!("position startpos moves {w}")),
                (0u32..70, 0u32..3).prop_map(|(v, o)| {
                    let name = ["Hash", "Threads", "Preset"][o as usize];
                    format!("setoption name {name} value {v}")
                }),
                "[a-z ]{0,20}".prop_map(|w| format!("setoption {w}")),
                (1u32..3).prop_map(|d| format!("go depth {d}")),
                "[a-z0-9 ]{0,16}".prop_map(|w| format!("go {w} depth 1")),
                "\\PC{0,24}",
                Just("stop".to_string()),
                Just("ucinewgame".to_string()),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            #[test]
            fn no_command_sequence_panics(lines in proptest::collection::vec(line(), 0..8)) {
                let sink: Vec<u8> = Vec::new();
                let mut uci = Uci::new(Box::new(sink));
                for l in &lines {
                    if l.trim() == "quit" {
                        continue;
                    }
                    uci.command(l.trim());
                }
                uci.command("stop");
                prop_assert!(uci.command("isready"));
            }
        }
    }

    #[test]
    fn position_with_castling_moves() {
        let (p, problem) = parse_position(
            "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
            Variant::Standard,
        )
        .unwrap();
        assert_eq!(p.board().king(Color::White), cozy_chess::Square::G1);
        assert_eq!(problem, None);
        let (p, problem) =
            parse_position("startpos moves e2e4 e7e5 e2e5 g1f3", Variant::Standard).unwrap();
        assert_eq!(p.history().len(), 2, "the legal prefix is kept");
        let problem = problem.unwrap();
        assert!(
            problem.contains("move 3") && problem.contains("e2e5"),
            "{problem}"
        );
        assert!(parse_position("fen 8/8 w", Variant::Standard).is_err());
        assert!(parse_position("garbage", Variant::Standard).is_err());
    }

    #[test]
    fn go_arguments() {
        let white = Position::new(Board::default());
        let mut black = white.clone();
        black.play_uci("e2e4").unwrap();
        let classic = crate::config::TimeManager::default();
        let bounds = |l: Limits| l.clock.unwrap().bounds(&classic);
        let l = parse_go("wtime 60000 btime 1000 winc 1000 binc 0", &white).unwrap();
        let (soft, hard) = bounds(l);
        assert_eq!(soft, Duration::from_millis(2750));
        assert_eq!(hard, Duration::from_millis(8250));
        let l = parse_go("wtime 60000 btime 1000 movestogo 10", &white).unwrap();
        assert_eq!(bounds(l).0, Duration::from_millis(6000));
        let l = parse_go("wtime 1000 btime 60000 winc 0 binc 500", &black).unwrap();
        assert_eq!(l.clock.unwrap().remaining, Duration::from_millis(60000));
        let l = parse_go("depth 5 nodes 1000", &black).unwrap();
        assert_eq!((l.depth, l.nodes), (Some(5), Some(1000)));
        assert!(parse_go("depth x", &white).is_err());
        assert!(parse_go("depth", &white).is_err());
        assert!(parse_go("sideways 3", &white).is_err());
        let l = parse_go("mate 3", &white).unwrap();
        assert_eq!((l.mate, l.depth), (Some(3), Some(5)));
        let l = parse_go("searchmoves e2e4 g1f3 depth 4", &white).unwrap();
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.depth, Some(4));
        assert!(parse_go("searchmoves e2e5", &white).is_err());
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse_setoption("name Clear Hash"),
            Some(("Clear Hash".into(), "".into()))
        );
        assert_eq!(
            parse_setoption("name Hash value 64"),
            Some(("Hash".into(), "64".into()))
        );
    }

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_session_answers_garbage_and_plays_a_legal_move() {
        let buf = Shared::default();
        let mut uci = Uci::new(Box::new(buf.clone()));
        let script = "uci\nfoo bar\nsetoption name Hash value x\nsetoption name Hash value 8\n\
                      position startpos moves e2e4\ngo depth 3\nisready\nquit\n";
        uci.run(script.as_bytes());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
        assert!(text.contains("info string unknown command `foo`"), "{text}");
        assert!(
            text.contains("info string Hash takes 1 to 4096 MiB, found `x`"),
            "{text}"
        );
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let mut board = Board::default();
        board.play("e2e4".parse().unwrap());
        assert!(crate::board::parse_uci_move(&board, best).is_ok(), "{best}");
    }

    /// Runs `script` and waits for the search it started, then `quit`s.
    fn session(script: &str) -> String {
        let buf = Shared::default();
        let mut uci = Uci::new(Box::new(buf.clone()));
        for line in script.lines() {
            uci.command(line);
        }
        if let Some((handle, _)) = uci.running.take() {
            uci.searcher = Some(handle.join().unwrap());
        }
        uci.command("quit");
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text
    }

    #[test]
    fn go_infinite_answers_only_after_stop() {
        let buf = Shared::default();
        let mut uci = Uci::new(Box::new(buf.clone()));
        // A bare-kings draw: the search is over at once, the answer must still wait.
        uci.command("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        uci.command("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let before = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(
            !before.contains("bestmove"),
            "bestmove before stop: {before}"
        );
        uci.command("stop");
        let after = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(
            after.contains("bestmove"),
            "no bestmove after stop: {after}"
        );
        uci.command("quit");
    }

    fn bestmove(text: &str) -> &str {
        text.lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {text}"))
    }

    #[test]
    fn go_mate_finds_the_mate_in_mate_search_mode() {
        // Back rank: 1. Rd8+ Rxd8 2. Rxd8#.
        let text = session(
            "position fen 2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1\n\
             go depth 10 mate 2",
        );
        assert_eq!(bestmove(&text), "d2d8", "{text}");
        assert!(text.contains("score mate 2"), "{text}");
        assert!(
            !text.contains("info depth 4"),
            "it stops at the mate: {text}"
        );
    }

    #[test]
    fn go_searchmoves_plays_one_of_the_moves_given() {
        let text = session("position startpos\ngo depth 3 searchmoves a2a3 h2h3");
        assert!(["a2a3", "h2h3"].contains(&bestmove(&text)), "{text}");
    }

    #[test]
    fn uci_chess960_reads_and_writes_castling_as_king_takes_rook() {
        // King b1, rooks a1 and h1: long castling puts the king on c1, which in standard
        // notation would read as a king step.
        let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        let text = session(&format!(
            "setoption name UCI_Chess960 value true\nposition fen {fen}\ngo depth 2 searchmoves b1a1"
        ));
        assert_eq!(bestmove(&text), "b1a1", "{text}");
        let after = session(&format!(
            "setoption name UCI_Chess960 value true\nposition fen {fen} moves b1a1 b8h8\ngo depth 1"
        ));
        assert!(
            !after.contains("expected a legal move"),
            "both castlings are legal: {after}"
        );
        let standard = session(&format!("position fen {fen}\ngo depth 1"));
        assert!(
            standard.contains("need the chess960 variant"),
            "a 960 FEN without the option is named: {standard}"
        );
    }

    #[test]
    fn a_bad_go_is_still_answered() {
        let text = session("position startpos\ngo sideways 3");
        assert!(
            text.contains("info string unknown `go` argument `sideways`"),
            "{text}"
        );
        bestmove(&text);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_ignored_and_the_session_goes_on() {
        let buf = Shared::default();
        let mut uci = Uci::new(Box::new(buf.clone()));
        uci.run(&b"uci\ncaf\xe9\nisready\nsetoption name Hash value 99999\nsetoption name Threads value 1\nsetoption name Threads value 4\nquit\n"[..]);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.contains("info string ignored input line 2: it is not UTF-8"),
            "{text}"
        );
        assert!(text.contains("readyok"), "{text}");
        assert!(text.contains("option name Threads type spin default 1 min 1 max 1"));
        assert!(
            text.contains("Hash takes 1 to 4096 MiB, found `99999`"),
            "{text}"
        );
        assert!(
            text.contains("Threads is 1 (one search thread), found `4`"),
            "{text}"
        );
        assert_eq!(text.matches("info string").count(), 3, "{text}");
    }
}
