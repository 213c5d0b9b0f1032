//! Games → labelled positions in coefficient form. From each game with a result, every position
//! from ply `skip_plies` on where a move was played is kept unless the side to move is in check or
//! has a capture or promotion that wins material by SEE (not quiet: its static evaluation is not
//! what the position is worth). Each is labelled by the game's result from White's side (1, ½, 0)
//! and keeps the score the move's comment gives, for a `λ` blend.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cozy_chess::{Board, Color};
use engine::eval::{Evaluation, Trace};
use lab::pgn_reader::{self, Game};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Which positions of a game are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Plies from the game's start position that are skipped (the book and the first moves).
    pub skip_plies: usize,
}

/// One kept position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// Where its coefficients start in [`Dataset::coefficients`].
    pub start: u32,
    /// How many there are.
    pub len: u16,
    /// Game phase, 0 … 24.
    pub phase: u8,
    /// The endgame sum's scale out of 64 (draw scaling; 64 when it is off).
    pub scale: u8,
    /// The game it comes from (its index in the fixed order of all games).
    pub game: u32,
    /// The game's result from White's side: 1, 0.5 or 0.
    pub result: f32,
    /// The score the move's comment gave, from White's side, centipawns.
    pub reference: Option<i32>,
}

/// Every kept position, coefficients packed end to end.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// `(weight index, count)` of all positions.
    pub coefficients: Vec<(u16, i16)>,
    /// The positions.
    pub entries: Vec<Entry>,
    /// What was read and dropped.
    pub counts: Counts,
}

impl Dataset {
    /// The coefficients of position `i`.
    pub fn coefficients_of(&self, e: &Entry) -> &[(u16, i16)] {
        &self.coefficients[e.start as usize..e.start as usize + e.len as usize]
    }
}

/// What the extraction read and why positions were left out (the manifest records them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Games read.
    pub games: usize,
    /// Games left out: no result (`*` or none).
    pub games_without_result: usize,
    /// Games cut short by an unreadable move (their positions before it are used).
    pub games_with_errors: usize,
    /// Positions where a move was played.
    pub positions: usize,
    /// Left out: before `skip_plies`.
    pub opening: usize,
    /// Left out: side to move in check.
    pub in_check: usize,
    /// Left out: a capture or promotion wins material (SEE > 0).
    pub not_quiet: usize,
    /// Kept.
    pub kept: usize,
}

/// One input file as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Its path as given.
    pub path: PathBuf,
    /// SHA-256 of its bytes (as read: a `.gz` file's compressed bytes).
    pub sha256: String,
    /// Games in it.
    pub games: usize,
}

/// Reads every file (`.pgn`, or `.pgn.gz`), keeps the positions `selection` says, each in the
/// coefficient form of `evaluation`'s terms. Unreadable moves are warnings (file, line, game);
/// a file that cannot be read, or no position kept at all, is an error.
pub fn extract(
    files: &[PathBuf],
    selection: Selection,
    evaluation: &Evaluation,
) -> Result<(Dataset, Vec<Source>, Vec<String>)> {
    let mut games = Vec::new();
    let mut sources = Vec::new();
    let mut warnings = Vec::new();
    for path in files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let text = text_of(path, &bytes)?;
        let (read, errors) = pgn_reader::parse(&path.display().to_string(), &text);
        if read.is_empty() && errors.is_empty() {
            bail!(
                "{}: no game in it (expected PGN: tag pairs, then moves)",
                path.display()
            );
        }
        sources.push(Source {
            path: path.clone(),
            sha256: lab::plan::sha256_hex(&bytes),
            games: read.len(),
        });
        let broken: std::collections::HashSet<usize> =
            errors.iter().filter_map(|e| game_number(e)).collect();
        games.extend(read.into_iter().map(|g| {
            let cut = broken.contains(&g.number);
            (g, cut)
        }));
        warnings.extend(errors);
    }
    // A fixed order whatever the files' order (a match's games.pgn is in the order games ended):
    // by a key of the game itself; the held-out games are chosen by their index in this order.
    games.sort_by_cached_key(|(g, _)| game_key(g));
    let per_game: Vec<(Vec<(Entry, Trace)>, Counts)> = games
        .par_iter()
        .enumerate()
        .map(|(i, (game, cut))| positions_of(game, i as u32, *cut, selection, evaluation))
        .collect();
    let mut data = Dataset::default();
    for (positions, counts) in per_game {
        add_counts(&mut data.counts, &counts);
        for (mut entry, trace) in positions {
            entry.start = data.coefficients.len() as u32;
            data.coefficients.extend_from_slice(&trace.coefficients);
            data.entries.push(entry);
        }
    }
    if data.entries.is_empty() {
        bail!(
            "no usable position: {} games read, {} without a result, {} positions before ply {}, {} in check, {} not quiet",
            data.counts.games,
            data.counts.games_without_result,
            data.counts.opening,
            selection.skip_plies,
            data.counts.in_check,
            data.counts.not_quiet
        );
    }
    Ok((data, sources, warnings))
}

pub(crate) fn text_of(path: &Path, bytes: &[u8]) -> Result<String> {
    let plain = if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out)
            .with_context(|| format!("{}: not a readable gzip file", path.display()))?;
        out
    } else {
        bytes.to_vec()
    };
    String::from_utf8(plain).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The game number in a reader's message (`file:line: game N: …`).
fn game_number(message: &str) -> Option<usize> {
    let rest = message.split(": game ").nth(1)?;
    rest.split(':').next()?.parse().ok()
}

/// A key of a game's content: its positions and result (two games with the same key are the
/// same game, give or take a 64-bit collision).
pub fn game_key(game: &Game) -> u64 {
    let mut key = 0xcbf2_9ce4_8422_2325u64;
    for board in &game.boards {
        key = (key ^ board.hash())
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(17);
    }
    for byte in game.result.as_deref().unwrap_or("").bytes() {
        key = (key ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    key
}

fn result_of(game: &Game) -> Option<f32> {
    match game.result.as_deref()? {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The kept positions of one game.
fn positions_of(
    game: &Game,
    index: u32,
    cut: bool,
    selection: Selection,
    evaluation: &Evaluation,
) -> (Vec<(Entry, Trace)>, Counts) {
    let mut counts = Counts {
        games: 1,
        games_with_errors: usize::from(cut),
        ..Counts::default()
    };
    let Some(result) = result_of(game) else {
        counts.games_without_result = 1;
        return (Vec::new(), counts);
    };
    let mut kept = Vec::new();
    // The last board has no move played from it.
    for (ply, board) in game.boards.iter().enumerate().take(game.boards.len() - 1) {
        counts.positions += 1;
        if ply < selection.skip_plies {
            counts.opening += 1;
        } else if !board.checkers().is_empty() {
            counts.in_check += 1;
        } else if !is_quiet(board) {
            counts.not_quiet += 1;
        } else {
            counts.kept += 1;
            let trace = Trace::of(board, evaluation);
            let white = if board.side_to_move() == Color::White {
                1
            } else {
                -1
            };
            let entry = Entry {
                start: 0,
                len: trace.coefficients.len() as u16,
                phase: trace.phase,
                scale: trace.scale,
                game: index,
                result,
                reference: game.scores.get(ply).copied().flatten().map(|s| white * s),
            };
            kept.push((entry, trace));
        }
    }
    (kept, counts)
}

/// No capture or promotion wins material by SEE.
pub fn is_quiet(board: &Board) -> bool {
    let theirs = board.colors(!board.side_to_move());
    let mut quiet = true;
    board.generate_moves(|moves| {
        for mv in moves {
            let capture = theirs.has(mv.to) || engine::board::is_en_passant(board, mv);
            if (capture || mv.promotion.is_some()) && engine::search::see::see(board, mv) > 0 {
                quiet = false;
                return true;
            }
        }
        false
    });
    quiet
}

fn add_counts(total: &mut Counts, c: &Counts) {
    total.games += c.games;
    total.games_without_result += c.games_without_result;
    total.games_with_errors += c.games_with_errors;
    total.positions += c.positions;
    total.opening += c.opening;
    total.in_check += c.in_check;
    total.not_quiet += c.not_quiet;
    total.kept += c.kept;
}
