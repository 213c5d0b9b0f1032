//! `harness suite make`: candidate positions (EPD, PGN, or the project's engine playing itself
//! from seeded openings) → labels by a reference UCI engine at MultiPV 2 → an EPD suite of the
//! positions whose best move beats the second by a margin, with `bm`, `id` and a `c0` saying
//! where each came from and how it was labelled. Every step is seeded or fixed-depth with one
//! thread, so the same command writes the same file (for the same engine builds).

pub mod label;
pub mod pgn;
pub mod selfplay;

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use cozy_chess::Board;
use rayon::prelude::*;

use crate::epd::read_suite;
use crate::uci::client::UciEngine;
use label::{Label, Reference};
use selfplay::SelfPlay;

/// Where candidates come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// Every position of an EPD file (its operations are ignored).
    Epd(PathBuf),
    /// Every game of a PGN file.
    Pgn(PathBuf),
    /// This many games of the project's engine against itself.
    SelfPlay(SelfPlay, u64),
}

/// A validated `suite make`.
#[derive(Debug, Clone)]
pub struct MakePlan {
    /// Candidate sources, in order.
    pub sources: Vec<Source>,
    /// Positions of a game from this ply on (PGN and self-play).
    pub from_ply: usize,
    /// Every n-th ply from `from_ply` (2: always the same side to move).
    pub every: usize,
    /// Most positions kept per game (the first that pass, in game order).
    pub per_game: Option<usize>,
    /// Most positions kept in all.
    pub max: Option<usize>,
    /// The reference engine.
    pub reference: Reference,
    /// `id` prefix: `PREFIX.001`, …
    pub id_prefix: String,
    /// Worker threads (one reference process each).
    pub threads: usize,
}

/// A position to label and where it came from.
#[derive(Debug, Clone)]
struct Candidate {
    board: Board,
    origin: String,
}

/// The candidates of one game (or one EPD position): the per-game limit applies within a group.
type Group = Vec<Candidate>;

/// What `make` did.
#[derive(Debug)]
pub struct Made {
    /// The EPD text.
    pub epd: String,
    /// Positions analysed by the reference.
    pub analysed: usize,
    /// Positions kept.
    pub kept: usize,
    /// Candidates that could not be read or analysed, with the reason.
    pub problems: Vec<String>,
}

/// Collects, labels and writes. `command` is recorded in the file's first line.
pub fn make(plan: &MakePlan, command: &str) -> Result<Made> {
    let name = plan
        .reference
        .start()
        .with_context(|| format!("reference engine {}", plan.reference.path.display()))?
        .identity
        .name
        .clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()?;
    let (groups, mut problems) = pool.install(|| collect(plan))?;
    let labelled: Vec<Vec<(Candidate, Labelled)>> = pool.install(|| {
        groups
            .par_iter()
            .map_init(|| None, |engine, group| label_group(plan, engine, group))
            .collect()
    });
    let mut epd = format!("# made by `{command}`; reference {name}\n");
    let (mut analysed, mut kept) = (0, 0);
    for (candidate, result) in labelled.into_iter().flatten() {
        analysed += 1;
        match result {
            Ok(Some(label)) if plan.max.is_none_or(|m| kept < m) => {
                kept += 1;
                epd += &record(plan, &name, kept, &candidate, &label);
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("{}: {e}", candidate.origin)),
        }
    }
    Ok(Made {
        epd,
        analysed,
        kept,
        problems,
    })
}

/// A candidate's label, `None` without a clear best move, or why the reference failed on it.
type Labelled = Result<Option<Label>, String>;

/// Labels a group's candidates in order until the per-game limit is reached. A reference that
/// fails is restarted for the next candidate.
fn label_group(
    plan: &MakePlan,
    engine: &mut Option<UciEngine>,
    group: &Group,
) -> Vec<(Candidate, Labelled)> {
    let mut out = Vec::new();
    let mut kept = 0;
    for candidate in group {
        if plan.per_game.is_some_and(|n| kept >= n) {
            break;
        }
        let result = label_one(plan, engine, &candidate.board);
        kept += usize::from(matches!(result, Ok(Some(_))));
        out.push((candidate.clone(), result));
    }
    out
}

fn label_one(plan: &MakePlan, engine: &mut Option<UciEngine>, board: &Board) -> Labelled {
    if engine.is_none() {
        *engine = Some(plan.reference.start().map_err(|e| e.to_string())?);
    }
    let reference = engine.as_mut().expect("started above");
    plan.reference.label(reference, board).map_err(|e| {
        *engine = None;
        e.to_string()
    })
}

/// The candidates of every source, and the lines or games that could not be read.
fn collect(plan: &MakePlan) -> Result<(Vec<Group>, Vec<String>)> {
    let mut groups = Vec::new();
    let mut problems = Vec::new();
    for source in &plan.sources {
        match source {
            Source::Epd(path) => {
                let suite =
                    read_suite(path).with_context(|| format!("reading {}", path.display()))?;
                problems.extend(suite.errors.iter().map(|e| e.to_string()));
                groups.extend(suite.records.into_iter().map(|r| {
                    vec![Candidate {
                        board: r.board,
                        origin: format!("{}:{}", path.display(), r.line),
                    }]
                }));
            }
            Source::Pgn(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let file = path.display().to_string();
                let (games, errors) = pgn::parse(&file, &text);
                problems.extend(errors);
                groups.extend(games.iter().map(|g| {
                    let title = match g.title.as_str() {
                        "" => String::new(),
                        t => format!(" ({})", t.replace('"', "'")),
                    };
                    game_group(plan, &g.boards, |ply| {
                        format!("{file} game {}{title} ply {ply}", g.number)
                    })
                }));
            }
            Source::SelfPlay(play, games) => {
                let played: Vec<Vec<Board>> =
                    (0..*games).into_par_iter().map(|g| play.play(g)).collect();
                groups.extend(played.iter().enumerate().map(|(g, boards)| {
                    game_group(plan, boards, |ply| {
                        format!(
                            "selfplay game {g} ply {ply} seed {} depth {}",
                            play.seed, play.depth
                        )
                    })
                }));
            }
        }
    }
    Ok((groups, problems))
}

/// A game's positions from `from_ply`, every `every` plies.
fn game_group(plan: &MakePlan, boards: &[Board], origin: impl Fn(usize) -> String) -> Group {
    boards
        .iter()
        .enumerate()
        .skip(plan.from_ply)
        .step_by(plan.every.max(1))
        .filter(|(_, b)| b.status() == cozy_chess::GameStatus::Ongoing)
        .map(|(ply, board)| Candidate {
            board: board.clone(),
            origin: origin(ply),
        })
        .collect()
}

/// One EPD line: the position's four fields, `bm` (not for a balanced position), `id` and `c0`.
fn record(plan: &MakePlan, name: &str, n: usize, c: &Candidate, l: &Label) -> String {
    let fen = c.board.to_string();
    let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    if let Some(window) = plan.reference.balanced {
        return format!(
            "{} id \"{}.{n:03}\"; c0 \"{}; evaluated by {name} depth {}: best {} (balanced within {window} cp)\";\n",
            fields.join(" "),
            plan.id_prefix,
            c.origin,
            plan.reference.depth,
            l.best
        );
    }
    let mut line = format!(
        "{} bm {}; id \"{}.{n:03}\"; ",
        fields.join(" "),
        l.best_san,
        plan.id_prefix
    );
    let _ = writeln!(
        line,
        "c0 \"{}; labelled by {name} depth {} multipv 2: best {} second {} margin {}\";",
        c.origin, plan.reference.depth, l.best, l.second, l.margin
    );
    line
}
