//! The run directory of a match: `games.pgn`, `games.csv` (one row per game), `moves.csv` (one row
//! per move) and `manifest.json`. Game pairs are written whole and in job order, `games.csv` last,
//! so a killed match leaves at most one pair half-written; `--resume` cuts the files back to the
//! complete pairs and continues after them, and the files end as an uninterrupted run's would.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use lab::export::appender::Appender;
use lab::export::rows::round3;

use super::game::GameRecord;
use super::pgn::{self, Header};
use super::plan::{Job, MatchPlan};

/// File names of a match directory.
pub use lab::run_dir::{GAMES_CSV, GAMES_PGN};
/// One row per move.
pub const MOVES_CSV: &str = "moves.csv";

/// One row of `games.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Job index (pairs in the order they were scheduled).
    pub index: u64,
    /// `pA-pB`.
    pub pairing: String,
    /// Pair number within the pairing, 1-based.
    pub pair: u64,
    /// 1 (first player White) or 2 (colours reversed).
    pub game: u8,
    /// The opening's id.
    pub opening: String,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// A forfeit's details.
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// White's moves.
    pub white_moves: usize,
    /// White's mean nodes per move.
    pub white_mean_nodes: f64,
    /// White's mean depth per move.
    pub white_mean_depth: f64,
    /// White's mean seldepth per move.
    pub white_mean_seldepth: f64,
    /// White's mean time per move, ms.
    pub white_mean_time_ms: f64,
    /// White's longest move, ms.
    pub white_max_time_ms: f64,
    /// Black's moves.
    pub black_moves: usize,
    /// Black's mean nodes per move.
    pub black_mean_nodes: f64,
    /// Black's mean depth per move.
    pub black_mean_depth: f64,
    /// Black's mean seldepth per move.
    pub black_mean_seldepth: f64,
    /// Black's mean time per move, ms.
    pub black_mean_time_ms: f64,
    /// Black's longest move, ms.
    pub black_max_time_ms: f64,
    /// White's clock overruns forgiven by `--time-margin`.
    #[serde(default)]
    pub white_overruns: u32,
    /// White's largest forgiven overrun, ms.
    #[serde(default)]
    pub white_max_overrun_ms: f64,
    /// Black's clock overruns forgiven by `--time-margin`.
    #[serde(default)]
    pub black_overruns: u32,
    /// Black's largest forgiven overrun, ms.
    #[serde(default)]
    pub black_max_overrun_ms: f64,
}

impl GameRow {
    /// The score of player `id` in this game (1, ½, 0), or `None` if it did not play.
    pub fn score_of(&self, id: &str) -> Option<f64> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.white == id {
            Some(white)
        } else if self.black == id {
            Some(1.0 - white)
        } else {
            None
        }
    }
}

/// One row of `moves.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveRow {
    /// Job index.
    pub index: u64,
    /// Game 1 or 2 of the pair.
    pub game: u8,
    /// Ply from the opening position, 1-based.
    pub ply: usize,
    /// The mover's player id.
    pub player: String,
    /// `w` or `b`.
    pub color: char,
    /// The move (SAN).
    pub san: String,
    /// The mover's score, centipawns (mates ±(32000 − plies)); empty if none was given.
    pub score: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Deepest ply.
    pub seldepth: usize,
    /// Nodes.
    pub nodes: u64,
    /// Wall time of the move, ms.
    pub time_ms: f64,
    /// Of which inside the search, ms.
    pub search_ms: f64,
    /// Whether the search stopped inside an iteration (the builtin engine only; older tables
    /// lack the column).
    #[serde(default)]
    pub iteration_cut: Option<bool>,
}

/// A played pair: the job and its two games (game 1: the pairing's first player White).
#[derive(Debug, Clone)]
pub struct PairResult {
    /// The job.
    pub job: Job,
    /// The two games.
    pub games: [GameRecord; 2],
    /// Wall time of the pair on its worker, ms.
    pub wall_ms: f64,
}

/// Writes pairs into a match directory.
pub struct MatchSink {
    pgn: File,
    games: Appender,
    moves: Appender,
    date: String,
}

impl MatchSink {
    /// New, empty files in `dir`; `date` (`YYYY.MM.DD`, the match's start) goes into every PGN.
    pub fn create(dir: &Path, date: &str) -> Result<Self> {
        for name in [GAMES_CSV, MOVES_CSV, GAMES_PGN] {
            if dir.join(name).exists() {
                bail!(
                    "{} already holds a match ({name}): continue it with --resume {0}, or choose another --out",
                    dir.display()
                );
            }
        }
        Self::open(dir, date)
    }

    /// The files of an interrupted match, cut back to its complete pairs, which are returned.
    pub fn resume(dir: &Path, date: &str) -> Result<(Self, Vec<GameRow>)> {
        let rows = complete_pairs(&dir.join(GAMES_CSV))?;
        let kept: BTreeSet<u64> = rows.iter().map(|r| r.index).collect();
        rewrite_csv(&dir.join(GAMES_CSV), &rows)?;
        let moves: Vec<MoveRow> = read_rows(&dir.join(MOVES_CSV))?
            .into_iter()
            .filter(|m: &MoveRow| kept.contains(&m.index))
            .collect();
        rewrite_csv(&dir.join(MOVES_CSV), &moves)?;
        keep_pgn_games(&dir.join(GAMES_PGN), rows.len())?;
        Ok((Self::open(dir, date)?, rows))
    }

    fn open(dir: &Path, date: &str) -> Result<Self> {
        let path = dir.join(GAMES_PGN);
        let pgn = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        // A CSV gets its header when it is empty (new, or cut back to no pair).
        Ok(Self {
            pgn,
            games: Appender::open(&dir.join(GAMES_CSV))?,
            moves: Appender::open(&dir.join(MOVES_CSV))?,
            date: date.to_string(),
        })
    }

    /// Writes one pair (PGN, moves, then the game rows) and flushes; returns its game rows.
    pub fn write(&mut self, plan: &MatchPlan, pair: &PairResult) -> Result<Vec<GameRow>> {
        let (a, b) = plan.pairings[pair.job.pairing];
        let mut rows = Vec::new();
        for (g, game) in pair.games.iter().enumerate() {
            let (white, black) = if g == 0 { (a, b) } else { (b, a) };
            let (white, black) = (&plan.players[white], &plan.players[black]);
            let header = Header {
                event: &plan.name,
                round: format!("{}.{}", pair.job.pair + 1, g + 1),
                white: &white.name,
                black: &black.name,
                time_control: white.limit.pgn_time_control(),
                date: &self.date,
            };
            self.pgn
                .write_all(pgn::write(&header, &pgn::Game::of(game)).as_bytes())?;
            for (ply, m) in game.moves.iter().enumerate() {
                let white_moved = (ply % 2 == 0) == game.start_fen.contains(" w ");
                self.moves.append(&MoveRow {
                    index: pair.job.index,
                    game: g as u8 + 1,
                    ply: ply + 1,
                    player: if white_moved { &white.id } else { &black.id }.clone(),
                    color: if white_moved { 'w' } else { 'b' },
                    san: m.san.clone(),
                    score: m.report.score,
                    depth: m.report.depth,
                    seldepth: m.report.seldepth,
                    nodes: m.report.nodes,
                    time_ms: round3(m.report.time_ms),
                    search_ms: round3(m.report.search_ms),
                    iteration_cut: m.report.cut,
                })?;
            }
            rows.push(game_row(plan, pair, g, game, &white.id, &black.id));
        }
        self.pgn.flush()?;
        for row in &rows {
            self.games.append(row)?;
        }
        Ok(rows)
    }
}

fn game_row(
    plan: &MatchPlan,
    pair: &PairResult,
    g: usize,
    game: &GameRecord,
    white: &str,
    black: &str,
) -> GameRow {
    let white_first = game.start_fen.contains(" w ");
    let side = |white_side: bool| {
        let moves: Vec<_> = game
            .moves
            .iter()
            .enumerate()
            .filter(|(ply, _)| (ply % 2 == 0) == (white_first == white_side))
            .map(|(_, m)| &m.report)
            .collect();
        let n = moves.len().max(1) as f64;
        let mean = |f: &dyn Fn(&&super::player::MoveReport) -> f64| {
            round3(moves.iter().map(f).sum::<f64>() / n)
        };
        (
            moves.len(),
            mean(&|r| r.nodes as f64),
            mean(&|r| f64::from(r.depth)),
            mean(&|r| r.seldepth as f64),
            mean(&|r| r.time_ms),
            round3(moves.iter().map(|r| r.time_ms).fold(0.0, f64::max)),
        )
    };
    let (w, b) = (side(true), side(false));
    GameRow {
        index: pair.job.index,
        pairing: plan.pairing_name(pair.job.pairing),
        pair: pair.job.pair + 1,
        game: g as u8 + 1,
        opening: game.opening.clone(),
        white: white.to_string(),
        black: black.to_string(),
        result: game.outcome.pgn().to_string(),
        termination: game.termination.name().to_string(),
        reason: game.reason.clone(),
        plies: game.moves.len(),
        white_moves: w.0,
        white_mean_nodes: w.1,
        white_mean_depth: w.2,
        white_mean_seldepth: w.3,
        white_mean_time_ms: w.4,
        white_max_time_ms: w.5,
        black_moves: b.0,
        black_mean_nodes: b.1,
        black_mean_depth: b.2,
        black_mean_seldepth: b.3,
        black_mean_time_ms: b.4,
        black_max_time_ms: b.5,
        white_overruns: game.overruns[0].count,
        white_max_overrun_ms: round3(game.overruns[0].max_ms),
        black_overruns: game.overruns[1].count,
        black_max_overrun_ms: round3(game.overruns[1].max_ms),
    }
}

/// Today as PGN writes dates.
pub fn today() -> String {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    stamp[..10].replace('-', ".")
}

/// The rows of a CSV file; a last line cut short by a kill is dropped, any other bad line is an
/// error naming it.
pub fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let Some(bytes) = lab::run_dir::read_table(path)? else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8(bytes)
        .with_context(|| format!("reading {}: expected UTF-8 text", path.display()))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut reader = csv::Reader::from_reader(complete.as_bytes());
    let mut rows = Vec::new();
    for (i, record) in reader.deserialize().enumerate() {
        let row: T = record.with_context(|| {
            format!(
                "{}:{}: expected a row of this harness's match files",
                path.display(),
                i + 2
            )
        })?;
        rows.push(row);
    }
    Ok(rows)
}

/// The rows of pairs with both games written, in order.
fn complete_pairs(path: &Path) -> Result<Vec<GameRow>> {
    let rows: Vec<GameRow> = read_rows(path)?;
    let mut kept = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let pair_complete = rows
            .get(i + 1)
            .is_some_and(|next| next.index == rows[i].index && rows[i].game == 1 && next.game == 2);
        if !pair_complete {
            if i + 1 < rows.len() {
                bail!(
                    "{}: the games of pair {} are not written together: not a file this harness wrote",
                    path.display(),
                    rows[i].index
                );
            }
            break; // the last pair was cut short
        }
        kept.extend_from_slice(&rows[i..i + 2]);
        i += 2;
    }
    Ok(kept)
}

fn rewrite_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let tmp = path.with_extension("csv.tmp");
    {
        let mut w = csv::Writer::from_path(&tmp)?;
        for row in rows {
            w.serialize(row)?;
        }
        w.flush()?;
    }
    if rows.is_empty() {
        // No header without a row: the appending writer of a new file writes it.
        std::fs::remove_file(&tmp)?;
        let _ = std::fs::remove_file(path);
        return Ok(());
    }
    std::fs::rename(&tmp, path).with_context(|| format!("rewriting {}", path.display()))
}

/// Keeps the first `games` games of a PGN file.
fn keep_pgn_games(path: &Path, games: usize) -> Result<()> {
    if games > 0 && !path.exists() {
        bail!(
            "{} is missing (a committed study keeps the tables): `harness report {}` writes it again from games.csv and moves.csv, then resume",
            path.display(),
            path.parent().map_or(String::new(), |d| d.display().to_string())
        );
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
        .collect();
    starts.push(text.len());
    let end = starts.get(games).copied().unwrap_or(text.len());
    if starts.len() <= games {
        bail!(
            "{} holds fewer games than games.csv: not a file this harness wrote",
            path.display()
        );
    }
    let tmp = path.with_extension("pgn.tmp");
    std::fs::write(&tmp, &text[..end])?;
    std::fs::rename(&tmp, path).with_context(|| format!("rewriting {}", path.display()))
}
