//! The positions a label run searches: every position of each PGN game where a move was played
//! (from `skip_plies` on; with `quiet_only`, as `texel` keeps them: not in check, no capture or
//! promotion winning material by SEE), and every record of each EPD file.

use std::path::Path;

use anyhow::{bail, Context, Result};
use cozy_chess::Board;
use lab::pgn_reader::{self, Game};
use serde::{Deserialize, Serialize};

use super::{Input, Key};

/// Which positions of the games are labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Positions of a game before this ply are left out.
    pub skip_plies: usize,
    /// Only the positions `texel` keeps.
    pub quiet_only: bool,
}

/// One position to label, named by its key.
#[derive(Debug, Clone)]
pub struct Item {
    /// (input, game or EPD line, ply).
    pub key: Key,
    /// The position.
    pub board: Board,
}

/// What one input holds: its positions, its games (PGN inputs, for `labelled.pgn`) and the
/// messages of what could not be read (file, line, what was expected).
#[derive(Debug, Default)]
pub struct Read {
    /// The positions to label.
    pub items: Vec<Item>,
    /// The PGN games, with their input's index.
    pub games: Vec<(usize, Game)>,
    /// Unreadable games or lines.
    pub warnings: Vec<String>,
}

/// Whether `path` is read as PGN (`.pgn`, `.pgn.gz`); anything else is EPD.
pub fn is_pgn(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".pgn") || name.ends_with(".pgn.gz")
}

/// Reads every input (its SHA-256 for the manifest) and the positions `selection` keeps.
pub fn read(paths: &[std::path::PathBuf], selection: Selection) -> Result<(Vec<Input>, Read)> {
    let mut inputs = Vec::new();
    let mut read = Read::default();
    for (index, path) in paths.iter().enumerate() {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        inputs.push(Input {
            path: path.clone(),
            sha256: lab::plan::sha256_hex(&bytes),
        });
        let before = read.items.len();
        if is_pgn(path) {
            read_pgn(index, path, &bytes, selection, &mut read)?;
        } else {
            read_epd(index, path, &bytes, &mut read);
        }
        if read.items.len() == before && read.warnings.is_empty() {
            bail!(
                "{}: no position to label (expected {})",
                path.display(),
                if is_pgn(path) {
                    "PGN games with moves past --skip-plies"
                } else {
                    "EPD lines"
                }
            );
        }
    }
    Ok((inputs, read))
}

fn read_pgn(
    index: usize,
    path: &Path,
    bytes: &[u8],
    selection: Selection,
    read: &mut Read,
) -> Result<()> {
    let text = crate::texel::data::text_of(path, bytes)?;
    let (games, errors) = pgn_reader::parse(&path.display().to_string(), &text);
    read.warnings.extend(errors);
    for game in games {
        // The last board has no move played from it.
        let played = game.boards.len() - 1;
        for (ply, board) in game.boards.iter().enumerate().take(played) {
            if ply >= selection.skip_plies && (!selection.quiet_only || keeps(board)) {
                read.items.push(Item {
                    key: (index, game.number, ply),
                    board: board.clone(),
                });
            }
        }
        read.games.push((index, game));
    }
    Ok(())
}

/// What `texel` keeps: not in check, and no capture or promotion wins material.
fn keeps(board: &Board) -> bool {
    board.checkers().is_empty() && crate::texel::data::is_quiet(board)
}

fn read_epd(index: usize, path: &Path, bytes: &[u8], read: &mut Read) {
    let suite = lab::epd::parse_suite_bytes(&path.display().to_string(), bytes);
    read.warnings
        .extend(suite.errors.iter().map(ToString::to_string));
    read.items
        .extend(suite.records.into_iter().map(|record| Item {
            key: (index, record.line, 0),
            board: record.board,
        }));
}
