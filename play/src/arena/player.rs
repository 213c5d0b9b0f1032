//! The two kinds of player: the project's engine in-process (one searcher per player and worker,
//! its TT kept through a game and cleared between games, as `ucinewgame` does), and an external
//! UCI engine (one process per player and worker, restarted after a fault).

use std::path::PathBuf;
use std::time::Instant;

use cozy_chess::{Board, Move};
use engine::{Position, SearchConfig, Searcher};
use lab::uci::bounds::UciBounds;
use lab::uci::client::{UciEngine, UciError};
use lab::uci::go;

use super::limits::{ClockState, MoveLimit};

/// What a player is.
// A few of these exist per match or tune, never in a hot loop: the configuration's size beside a
// UCI engine's path is not worth a box at every use.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum PlayerKind {
    /// The project's engine with this configuration.
    Builtin(SearchConfig),
    /// An external engine and its `setoption` pairs.
    Uci {
        /// The program.
        path: PathBuf,
        /// Options, in order.
        options: Vec<(String, String)>,
        /// Its time allowances.
        slack: UciBounds,
    },
}

/// One move as the player made and reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReport {
    /// The move.
    pub mv: Move,
    /// The mover's score in centipawns (mates as ±(32000 − plies)), if it gave one.
    pub score: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the whole move, milliseconds.
    pub time_ms: f64,
    /// Of which inside the search (the rest is the harness's and the protocol's overhead).
    pub search_ms: f64,
    /// Whether the search stopped inside an iteration (the builtin engine says; a UCI engine
    /// does not).
    pub cut: Option<bool>,
}

/// Why a player lost without a legal move on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The engine exited or closed its pipes.
    Crash(String),
    /// It did not answer in time.
    Hang(String),
    /// It sent a move that is not legal, or a line that breaks the protocol.
    Illegal(String),
}

impl Fault {
    fn of(e: UciError) -> Self {
        match e {
            UciError::Hung(_) | UciError::Timeout { .. } => Self::Hang(e.to_string()),
            UciError::Garbage(_) => Self::Illegal(e.to_string()),
            _ => Self::Crash(e.to_string()),
        }
    }
}

/// The game so far, as a player needs it.
pub struct GameView<'a> {
    /// The position the game started from.
    pub start: &'a Board,
    /// The moves played.
    pub moves: &'a [Move],
    /// The current position with the game's history (for repetitions).
    pub position: &'a Position,
}

/// What a game needs from a player: a new game, then one move at a time. The match's
/// [`Player`]s implement it, and so can a scripted player, so the scheduler and the game loop are
/// tested without starting an engine.
pub trait Mover {
    /// Prepares a new game (an empty TT, `ucinewgame`).
    fn new_game(&mut self, kind: &PlayerKind) -> Result<(), Fault>;

    /// The player's move in `game` under `limit`, or why it has none.
    fn play(
        &mut self,
        kind: &PlayerKind,
        game: &GameView,
        limit: MoveLimit,
        clock: Option<ClockState>,
    ) -> Result<MoveReport, Fault>;
}

/// A player ready to move.
pub enum Player {
    /// In-process.
    Builtin(Box<Searcher>),
    /// A process, started when first needed.
    Uci(Option<UciEngine>),
}

impl Player {
    /// A player of `kind`; a UCI engine starts at its first game.
    pub fn new(kind: &PlayerKind) -> Self {
        match kind {
            PlayerKind::Builtin(config) => Self::Builtin(Box::new(Searcher::new(config.clone()))),
            PlayerKind::Uci { .. } => Self::Uci(None),
        }
    }

    /// The same player object as a player of `kind` (`tune` moves parameters between
    /// iterations): a searcher keeps its buffers and TT allocation, a running UCI engine is sent
    /// the options (an engine that refuses them is dropped and restarted at its next game).
    pub fn reconfigure(&mut self, kind: &PlayerKind) {
        match (std::mem::replace(self, Self::Uci(None)), kind) {
            (Self::Builtin(searcher), PlayerKind::Builtin(config)) => {
                *self = Self::Builtin(Box::new(Searcher::reuse(Some(*searcher), config.clone())));
            }
            (Self::Uci(Some(mut engine)), PlayerKind::Uci { options, .. }) => {
                let sent = options
                    .iter()
                    .try_for_each(|(name, value)| engine.set_option(name, value));
                *self = Self::Uci(sent.ok().map(|()| engine));
            }
            (_, kind) => *self = Self::new(kind),
        }
    }
}

impl Mover for Player {
    /// Prepares a new game: an empty TT, or `ucinewgame` (starting the engine if needed).
    fn new_game(&mut self, kind: &PlayerKind) -> Result<(), Fault> {
        match (self, kind) {
            (Self::Builtin(searcher), _) => {
                searcher.clear();
                Ok(())
            }
            (
                Self::Uci(engine),
                PlayerKind::Uci {
                    path,
                    options,
                    slack,
                },
            ) => {
                if engine.is_none() {
                    let mut started = UciEngine::start(path, slack.handshake).map_err(Fault::of)?;
                    for (name, value) in options {
                        started.set_option(name, value).map_err(Fault::of)?;
                    }
                    *engine = Some(started);
                }
                let result = engine.as_mut().expect("started").new_game(slack.handshake);
                result.map_err(|e| {
                    *engine = None;
                    Fault::of(e)
                })
            }
            (Self::Uci(_), PlayerKind::Builtin(_)) => unreachable!("players keep their kind"),
        }
    }

    /// The player's move in `game` under `limit`.
    fn play(
        &mut self,
        kind: &PlayerKind,
        game: &GameView,
        limit: MoveLimit,
        clock: Option<ClockState>,
    ) -> Result<MoveReport, Fault> {
        let start = Instant::now();
        let mut report = match (self, kind) {
            (Self::Builtin(searcher), _) => builtin_move(searcher, game, limit, clock),
            (Self::Uci(engine), PlayerKind::Uci { slack, .. }) => {
                let running = engine.as_mut().expect("new_game started the engine");
                let result = uci_move_of(running, game, limit, clock, *slack);
                if result.is_err() {
                    *engine = None; // killed on drop; the next game starts a fresh process
                }
                result
            }
            (Self::Uci(_), PlayerKind::Builtin(_)) => unreachable!("players keep their kind"),
        }?;
        report.time_ms = start.elapsed().as_secs_f64() * 1e3;
        Ok(report)
    }
}

fn builtin_move(
    searcher: &mut Searcher,
    game: &GameView,
    limit: MoveLimit,
    clock: Option<ClockState>,
) -> Result<MoveReport, Fault> {
    let start = Instant::now();
    let result = searcher.search(game.position, limit.search_limits(clock), |_| {});
    let search_ms = start.elapsed().as_secs_f64() * 1e3;
    let mv = result
        .best_move
        .ok_or_else(|| Fault::Illegal("the builtin engine found no move".into()))?;
    Ok(MoveReport {
        mv,
        score: (result.depth > 0).then_some(result.score),
        depth: result.depth,
        seldepth: result.stats.seldepth,
        nodes: result.stats.nodes,
        time_ms: search_ms,
        search_ms,
        cut: Some(result.cut),
    })
}

fn uci_move_of(
    engine: &mut UciEngine,
    game: &GameView,
    limit: MoveLimit,
    clock: Option<ClockState>,
    slack: UciBounds,
) -> Result<MoveReport, Fault> {
    let board = game.position.board();
    let variant = game.position.variant();
    let mut position = format!("fen {}", variant.fen(game.start));
    if !game.moves.is_empty() {
        position.push_str(" moves");
        let mut b = game.start.clone();
        for &mv in game.moves {
            position.push(' ');
            position.push_str(&variant.uci_move(&b, mv));
            b.play_unchecked(mv);
        }
    }
    let time_ms = match (limit, clock) {
        (MoveLimit::Movetime(ms), _) => Some(ms),
        (MoveLimit::Clock(_), Some(c)) => Some(c.own_ms),
        _ => None,
    };
    let deadline = slack.deadline(time_ms);
    let go_args = limit.go_args(clock, board.side_to_move() == cozy_chess::Color::White);
    let start = Instant::now();
    let outcome = go::search_from(engine, &position, game.position, &go_args, deadline, |_| {
        false
    })
    .map_err(Fault::of)?;
    let search_ms = start.elapsed().as_secs_f64() * 1e3;
    let mv = variant
        .parse_uci_move(board, &outcome.best_move)
        .map_err(|_| Fault::Illegal(format!("`bestmove {}`", outcome.best_move)))?;
    let last = outcome.iterations.last();
    Ok(MoveReport {
        mv,
        score: last.map(|it| it.score),
        depth: last.map_or(0, |it| it.depth),
        seldepth: outcome.seldepth,
        nodes: outcome.nodes,
        time_ms: search_ms,
        search_ms,
        cut: None,
    })
}
