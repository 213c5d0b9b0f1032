//! `harness suite make`: candidate positions (EPD, PGN, the project's engine playing itself
//! from seeded openings, or the positions of a grid run selected by a node ratio) → labels by a
//! reference UCI engine at MultiPV 2 → an EPD suite of the positions whose best move beats the
//! second by a margin, with `bm`, `id` and a `c0` saying where each came from and how it was
//! labelled. Without a reference every candidate is kept, unlabelled (an unselected population).
//! DFRC start positions (`--dfrc N`) make a Chess960 book: written in Shredder-FEN, and labelled
//! by a reference told `UCI_Chess960`.
//! Every step is seeded or fixed-depth with one thread, so the same command writes the same file
//! (for the same engine builds).

pub mod dfrc;
pub mod label;
pub mod phase;
pub mod select;
pub mod selfplay;

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use cozy_chess::Board;
use label::{Label, Reference};
use phase::Phase;
use rayon::prelude::*;
use select::Selection;
use selfplay::SelfPlay;

use crate::epd::read_suite;
use crate::uci::client::UciEngine;

/// Where candidates come from.
// A command has a handful of these: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Source {
    /// Every position of an EPD file (its operations are ignored).
    Epd(PathBuf),
    /// Every game of a PGN file.
    Pgn(PathBuf),
    /// This many games of the project's engine against itself.
    SelfPlay(SelfPlay, u64),
    /// The positions of a grid run whose node ratio between two configurations passes a bound.
    Selected(Selection),
    /// Double Fischer random start positions (a Chess960 book).
    Dfrc(dfrc::Dfrc),
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
    /// Of an EPD file, every n-th position from the first (a systematic sample; 1: all).
    pub sample: usize,
    /// Most positions kept per game (the first that pass, in game order).
    pub per_game: Option<usize>,
    /// Most positions kept in all.
    pub max: Option<usize>,
    /// Only candidates of this game phase.
    pub phase: Option<Phase>,
    /// The reference engine; `None` keeps every candidate without a label.
    pub reference: Option<Reference>,
    /// `id` prefix: `PREFIX.001`, …
    pub id_prefix: String,
    /// Worker threads (one reference process each).
    pub threads: usize,
    /// Standard chess, or Chess960 (DFRC starts): how positions are written and labelled.
    pub variant: engine::Variant,
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
    let name = match &plan.reference {
        Some(reference) => Some(
            reference
                .start()
                .with_context(|| format!("reference engine {}", reference.path.display()))?
                .identity
                .name
                .clone(),
        ),
        None => None,
    };
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
    let mut epd = match &name {
        Some(name) => format!("# made by `{command}`; reference {name}\n"),
        None => format!("# made by `{command}`; unlabelled (every candidate kept)\n"),
    };
    let (mut analysed, mut kept) = (0, 0);
    for (candidate, result) in labelled.into_iter().flatten() {
        analysed += 1;
        match result {
            Ok(Some(label)) if plan.max.is_none_or(|m| kept < m) => {
                kept += 1;
                epd += &match (&plan.reference, &name, &label) {
                    (Some(reference), Some(name), Some(label)) => {
                        record(plan, reference, name, kept, &candidate, label)
                    }
                    _ => unlabelled_record(plan, kept, &candidate),
                };
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

/// A kept candidate's label (`None` without a reference), `None` for a candidate the reference
/// rejects (no clear best move), or why the reference failed on it.
type Labelled = Result<Option<Option<Label>>, String>;

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
    let Some(reference) = &plan.reference else {
        return Ok(Some(None));
    };
    if engine.is_none() {
        *engine = Some(reference.start().map_err(|e| e.to_string())?);
    }
    let running = engine.as_mut().expect("started above");
    match reference.label(running, board) {
        Ok(label) => Ok(label.map(Some)),
        Err(e) => {
            *engine = None;
            Err(e.to_string())
        }
    }
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
                groups.extend(
                    suite
                        .records
                        .into_iter()
                        .step_by(plan.sample.max(1))
                        .map(|r| {
                            vec![Candidate {
                                board: r.board,
                                origin: format!("{}:{}", path.display(), r.line),
                            }]
                        }),
                );
            }
            Source::Pgn(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let file = path.display().to_string();
                let (games, errors) = crate::pgn_reader::parse(&file, &text);
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
            Source::Dfrc(dfrc) => groups.extend(
                dfrc.starts()
                    .map_err(anyhow::Error::msg)?
                    .into_iter()
                    .map(|(board, origin)| vec![Candidate { board, origin }]),
            ),
            Source::Selected(selection) => groups.extend(
                selection
                    .candidates()?
                    .into_iter()
                    .map(|(board, origin)| vec![Candidate { board, origin }]),
            ),
        }
    }
    if let Some(phase) = plan.phase {
        for group in &mut groups {
            group.retain(|c| Phase::of(&c.board) == phase);
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

/// An unlabelled EPD line: the position's four fields, `id` and `c0` with the origin and phase.
fn unlabelled_record(plan: &MakePlan, n: usize, c: &Candidate) -> String {
    format!(
        "{} id \"{}.{n:03}\"; c0 \"{}; {}\";\n",
        epd_fields(plan, &c.board),
        plan.id_prefix,
        c.origin,
        Phase::of(&c.board)
    )
}

/// The four position fields of an EPD line (Shredder-FEN castling rights in Chess960).
fn epd_fields(plan: &MakePlan, board: &Board) -> String {
    let fen = plan.variant.fen(board);
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// One EPD line: the position's four fields, `bm` (not for a balanced position), `id` and `c0`.
fn record(
    plan: &MakePlan,
    reference: &Reference,
    name: &str,
    n: usize,
    c: &Candidate,
    l: &Label,
) -> String {
    let fields = epd_fields(plan, &c.board);
    if let Some(window) = reference.balanced {
        return format!(
            "{} id \"{}.{n:03}\"; c0 \"{}; evaluated by {name} depth {}: best {} (balanced within {window} cp)\";\n",
            fields,
            plan.id_prefix,
            c.origin,
            reference.depth,
            l.best
        );
    }
    let mut line = format!(
        "{} bm {}; id \"{}.{n:03}\"; ",
        fields, l.best_san, plan.id_prefix
    );
    let _ = writeln!(
        line,
        "c0 \"{}; labelled by {name} depth {} multipv 2: best {} second {} margin {}\";",
        c.origin, reference.depth, l.best, l.second, l.margin
    );
    line
}
