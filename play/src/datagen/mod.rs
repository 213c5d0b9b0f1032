//! Training data by self-play (`harness datagen`): any player the match knows — a preset or any
//! `SearchConfig`, or a UCI engine whose `info score` is recorded — plays itself at a hard node
//! cap from random plies (or a book), and every searched position that is not in check, whose
//! move was quiet and whose score is not a mate is kept with its score and the game's result.
//!
//! A run is cut into chunks, each with its own seed and its own files (`chunks/NNNNN.bin`, the
//! bulletformat records, and `chunks/NNNNN.txt`, the text form), so that a chunk is the unit of
//! work, of resumption and of sharding: a chunk's data depends on the plan and its index alone
//! (at fixed nodes), a killed run redoes only the chunks it had not finished, and `--shard I/N`
//! plays chunk k when k mod N = I. [`CHUNKS_CSV`] lists each finished chunk with its seed, its
//! counts and the SHA-256 of its files: committed beside the plan, it is the data's manifest.

pub mod chunk;
pub mod game;
pub mod opening;
pub mod output;
pub mod record;
pub mod run;

use std::path::PathBuf;

use lab::shard::Shard;
use lab::uci::bounds::UciBounds;
use serde::{Deserialize, Serialize};

use crate::arena::player::PlayerKind;
use crate::arena::rules::{DrawRule, ResignRule, Rules};
pub use opening::{RandomPlies, DEFAULT_PLIES};

/// The folder of a run's chunk files.
pub const CHUNKS_DIR: &str = "chunks";
/// The list of finished chunks: the data's manifest.
pub const CHUNKS_CSV: &str = "chunks.csv";
/// The binary records' extension.
pub const BIN_EXT: &str = "bin";
/// The text records' extension.
pub const TXT_EXT: &str = "txt";

/// The hard node cap per move when none is given.
pub const DEFAULT_NODES: u64 = 5_000;
/// Openings whose verification search scores beyond this (centipawns, either side) are dropped.
pub const DEFAULT_MAX_OPENING_CP: i32 = 1_000;
/// Games per chunk when not given.
pub const DEFAULT_GAMES_PER_CHUNK: u32 = 32;

/// How games end early when no rule is given: decided games resign at 1,000 cp for 4 moves of
/// the loser (their result is no longer in doubt and their positions would teach little), quiet
/// endings are drawn from move 40 after 8 moves each within ±10 cp, and no game runs past 400
/// plies.
pub const DEFAULT_RULES: Rules = Rules {
    max_plies: Some(400),
    resign: Some(ResignRule {
        score: 1_000,
        moves: 4,
    }),
    draw: Some(DrawRule {
        score: 10,
        moves: 8,
        after: 40,
    }),
    time_margin_ms: 0,
    tb_adjudicate: false,
};

/// Who plays both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerSpec {
    /// The project's engine: a preset and `KEY=VALUE` changes to it, in order.
    Builtin {
        /// The preset.
        preset: String,
        /// Its changes.
        settings: Vec<(String, String)>,
    },
    /// A UCI engine and its options (`Threads` 1 unless given).
    Uci {
        /// The program.
        path: PathBuf,
        /// `setoption` pairs, in order.
        options: Vec<(String, String)>,
    },
}

/// How long a UCI engine may take: a node-capped move is never cut by time, only given up as hung.
const UCI_BOUNDS: UciBounds = UciBounds {
    handshake: std::time::Duration::from_secs(10),
    slack: std::time::Duration::from_secs(1),
    timeout: std::time::Duration::from_secs(60),
};

impl PlayerSpec {
    /// The player: the preset resolved with its settings, or the engine with its options.
    pub fn kind(&self) -> Result<PlayerKind, engine::config::ConfigError> {
        Ok(match self {
            Self::Builtin { preset, settings } => PlayerKind::Builtin(
                engine::SearchConfig::with_settings(preset, settings.clone())?,
            ),
            Self::Uci { path, options } => PlayerKind::Uci {
                path: path.clone(),
                options: options.clone(),
                slack: UCI_BOUNDS,
            },
        })
    }
}

/// Where games start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Openings {
    /// Uniformly random plies from the start position, drawn from the chunk's seed.
    Random(RandomPlies),
    /// A book's openings in order: game g of chunk k plays opening k × games-per-chunk + g
    /// (wrapping around the book).
    Book {
        /// The book (EPD or PGN).
        path: PathBuf,
        /// Its SHA-256, checked again on resume.
        sha256: String,
    },
}

/// A validated datagen run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatagenPlan {
    /// Who plays.
    pub player: PlayerSpec,
    /// The hard node cap of every search.
    pub nodes: u64,
    /// Where games start.
    pub openings: Openings,
    /// Openings whose verification search (the player's own, at the node cap) scores beyond
    /// ±this many centipawns are dropped; `None` keeps every opening.
    pub max_opening_cp: Option<i32>,
    /// The run's seed; chunk k's is [`chunk_seed`]`(seed, k)`.
    pub seed: u64,
    /// Chunks in the run (a resumed run may raise it: more chunks, the same seeds).
    pub chunks: u64,
    /// Games per chunk.
    pub games_per_chunk: u32,
    /// Adjudication and the ply limit.
    pub rules: Rules,
    /// Which chunks this run plays: all, or one shard's.
    pub shard: Option<Shard>,
    /// Worker threads (chunks played side by side).
    pub threads: usize,
    /// The run directory.
    pub out: PathBuf,
}

impl DatagenPlan {
    /// The chunks this run plays, in order.
    pub fn chunk_indices(&self) -> Vec<u64> {
        match self.shard {
            Some(s) => (s.index as u64..self.chunks).step_by(s.count).collect(),
            None => (0..self.chunks).collect(),
        }
    }
}

/// Chunk k's seed: a function of the run's seed and k alone (SplitMix64 of their mix), so that a
/// chunk replays alone, in any shard, on any machine.
pub fn chunk_seed(seed: u64, k: u64) -> u64 {
    let mut z = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `manifest.json` of a datagen run: the plan, the build that plays it, and the builtin player's
/// configuration resolved (so a resumed run whose preset or engine changed since is refused rather
/// than mixing two players' data).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DatagenManifest {
    /// Command, build and machine.
    #[serde(flatten)]
    pub provenance: lab::export::provenance::Provenance,
    /// The plan.
    pub plan: DatagenPlan,
    /// The builtin player's full configuration (`None` for a UCI engine).
    pub config: Option<serde_json::Value>,
}

impl DatagenManifest {
    /// The manifest of `plan` as this build would play it.
    pub fn new(plan: DatagenPlan) -> Result<Self, engine::config::ConfigError> {
        let config = match plan.player.kind()? {
            PlayerKind::Builtin(c) => Some(serde_json::to_value(c).expect("configs serialise")),
            PlayerKind::Uci { .. } => None,
        };
        Ok(Self {
            provenance: lab::export::provenance::Provenance::here(),
            plan,
            config,
        })
    }

    /// What would make this build play other data than the run recorded in `recorded` did: the
    /// builtin player's configuration or the engine's bench signature.
    pub fn differences(&self, recorded: &DatagenManifest) -> Vec<String> {
        let mut out = Vec::new();
        if self.config != recorded.config {
            out.push("the player's resolved configuration differs".to_string());
        }
        let (a, b) = (
            self.provenance.bench_signature,
            recorded.provenance.bench_signature,
        );
        if self.config.is_some() && a != b {
            out.push(format!(
                "the engine's bench signature is {a}, the run's was {b}"
            ));
        }
        if self.config.is_some() && !self.provenance.same_builtin_net(&recorded.provenance) {
            out.push("the engine's built-in network differs from the run's".to_string());
        }
        out
    }
}

/// The manifest is the plan: a resumed run is refused when this build would play other data,
/// and records the plan it grew to (more chunks, other threads) under the command and build it
/// started with.
impl lab::run_flow::RecordedPlan for DatagenManifest {
    fn read(dir: &std::path::Path) -> anyhow::Result<Self> {
        lab::run_dir::read_manifest(dir, "datagen run")
    }

    fn write(&self, dir: &std::path::Path) -> anyhow::Result<()> {
        lab::run_dir::write_manifest(dir, self)
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        planned.differences(self)
    }

    const ADVICE: &'static str =
        "this build would play other data than the run recorded: start a new run";

    fn recorded_on_resume(&self, planned: &Self) -> Option<Self> {
        Some(Self {
            provenance: self.provenance.clone(),
            ..planned.clone()
        })
    }
}
