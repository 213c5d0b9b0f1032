//! `harness label`: every position of PGN games or EPD files (or the quiet ones `texel` keeps)
//! scored by a UCI engine at a fixed depth or node count. Several engine processes search side by
//! side, each position after `ucinewgame` with one thread, so a fixed depth gives the same label
//! on every run. Rows are appended to `labels.csv` as they come, so a killed run resumes where it
//! stopped; a position the engine cannot take goes to `skipped.csv` with the engine's reason.
//! `labelled.pgn` is the games again, each labelled move's comment the label (`{+0.35/12}`, the
//! mover's view): `texel --pgn labelled.pgn --lambda L` blends the result toward it.

pub mod pgn;
pub mod positions;
pub mod run;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The labels, one row a position.
pub const LABELS: &str = "labels.csv";
/// The positions the engine could not label, with its reason.
pub const SKIPPED: &str = "skipped.csv";
/// The games with the labels as move comments (PGN inputs only).
pub const LABELLED_PGN: &str = "labelled.pgn";

/// What one label run does, every check made.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LabelPlan {
    /// The input files, each with its SHA-256.
    pub inputs: Vec<Input>,
    /// The UCI engine.
    pub engine: PathBuf,
    /// Its options (`Threads` is 1 unless given).
    pub options: Vec<(String, String)>,
    /// How far each position is searched.
    pub limit: Limit,
    /// Which positions of the games are labelled.
    pub selection: positions::Selection,
    /// Engine processes searching side by side.
    pub threads: usize,
    /// How long one search may take before the engine counts as hung, seconds.
    pub timeout_s: u64,
    /// The run directory.
    pub out: PathBuf,
}

/// An input file as the manifest records it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Input {
    /// The path as given.
    pub path: PathBuf,
    /// SHA-256 of its bytes.
    pub sha256: String,
}

/// A search limit of a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// `go depth D`.
    Depth(i32),
    /// `go nodes N`.
    Nodes(u64),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Depth(d) => write!(f, "depth {d}"),
            Self::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// One labelled position, a row of `labels.csv`. `score_cp` is from the side to move; a mate is
/// `mate` (moves, negative when mated) with `score_cp` on the engine's scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelRow {
    /// The input file's index in the plan (0-based).
    pub input: usize,
    /// The game's number in its file (1-based; the EPD line for an EPD input).
    pub game: usize,
    /// The ply of the position in its game (0 for an EPD position).
    pub ply: usize,
    /// The position.
    pub fen: String,
    /// The score in centipawns, from the side to move.
    pub score_cp: i32,
    /// Mate in this many moves, when the score is a mate.
    pub mate: Option<i32>,
    /// The depth of the score's iteration.
    pub depth: i32,
    /// Nodes the engine searched.
    pub nodes: u64,
    /// The engine's move (UCI).
    pub best_move: String,
}

/// A position the engine could not label, a row of `skipped.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedRow {
    /// As [`LabelRow::input`].
    pub input: usize,
    /// As [`LabelRow::game`].
    pub game: usize,
    /// As [`LabelRow::ply`].
    pub ply: usize,
    /// The position.
    pub fen: String,
    /// What went wrong.
    pub reason: String,
}

/// The key that names a position in a run: no two positions share it, and a resume skips it.
pub type Key = (usize, usize, usize);

/// The manifest is the plan; a resumed run continues it (with other threads if asked).
impl lab::run_flow::RecordedPlan for LabelPlan {
    fn read(dir: &std::path::Path) -> anyhow::Result<Self> {
        lab::run_dir::read_manifest(dir, "label run")
    }

    fn write(&self, dir: &std::path::Path) -> anyhow::Result<()> {
        lab::run_dir::write_manifest(dir, self)
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        lab::run_flow::differences_but(self, planned, &["out", "threads"])
    }
}
