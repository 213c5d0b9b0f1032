//! A CPU trainer for the engine's network (`harness train`): (768→H)×2→1 with CReLU or SCReLU,
//! the target λ·result + (1−λ)·sigmoid(score / scale), shuffled each epoch, AdamW with a
//! schedule, a validation split of whole chunks (positions of one game never on both sides), a
//! checkpoint after every epoch (a killed run resumes from the last), and the quantised export the
//! engine reads ([`engine::nnue::network`]).
//!
//! The first layer is sparse — a position has at most 32 of the 768 inputs — so its forward pass
//! adds at most 32 rows per perspective and its gradient touches only those rows; the batch is cut
//! into one part per thread, each part's gradient summed on its own and the parts added in order,
//! so a run is deterministic given its seed and its thread count.

pub mod checkpoint;
pub mod data;
pub mod export;
pub mod model;
pub mod optim;
pub mod report;
pub mod run;

use std::path::PathBuf;

use engine::nnue::Activation;
use serde::{Deserialize, Serialize};

/// The training log, one row per epoch.
pub const TRAIN_CSV: &str = "train.csv";
/// The exported network.
pub const NET_FILE: &str = "net.nnue";
/// The network's record: data, settings, losses, quantisation error.
pub const NET_JSON: &str = "net.json";
/// The checkpoints' folder.
pub const CHECKPOINTS: &str = "checkpoints";

/// How the learning rate falls over the epochs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Schedule {
    /// Multiplied by `gamma` every `every` epochs.
    Step {
        /// The factor.
        gamma: f64,
        /// Epochs between steps.
        every: u32,
    },
    /// Cosine from the start to `final_fraction` of it at the last epoch.
    Cosine {
        /// The last epoch's share of the first's rate.
        final_fraction: f64,
    },
}

impl Schedule {
    /// The rate of epoch `epoch` (from 0) of `epochs`, starting at `lr`.
    pub fn rate(self, lr: f64, epoch: u32, epochs: u32) -> f64 {
        match self {
            Self::Step { gamma, every } => lr * gamma.powi((epoch / every.max(1)) as i32),
            Self::Cosine { final_fraction } => {
                let t = if epochs <= 1 {
                    0.0
                } else {
                    f64::from(epoch) / f64::from(epochs - 1)
                };
                let f = final_fraction
                    + (1.0 - final_fraction) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos());
                lr * f
            }
        }
    }
}

/// How many of its first chunks each datagen input gives (`--first-chunks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FirstChunks {
    /// The same N for every datagen run.
    Each(u64),
    /// One N per datagen run, in the order of the inputs (files take none).
    PerRun(Vec<u64>),
}

impl FirstChunks {
    /// From the values given: one for every run, or one per run (checked against `runs`).
    pub fn from_values(values: &[u64], runs: usize) -> anyhow::Result<Option<Self>> {
        match values {
            [] => Ok(None),
            [n] => Ok(Some(Self::Each(*n))),
            many if many.len() == runs => Ok(Some(Self::PerRun(many.to_vec()))),
            many => Err(anyhow::anyhow!(
                "--first-chunks has {} values: expected one for every datagen run or one per \
                 run ({runs})",
                many.len()
            )),
        }
    }

    /// The limit of the `run`-th datagen input.
    pub fn of(&self, run: usize) -> u64 {
        match self {
            Self::Each(n) => *n,
            Self::PerRun(each) => each[run],
        }
    }
}

/// A validated training run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainPlan {
    /// Datagen run directories (their listed chunks) or bulletformat files.
    pub inputs: Vec<PathBuf>,
    /// Only chunks 0 to N − 1 of each datagen run (all of them must be finished), so that a run
    /// still adding chunks gives a network that can be trained again from the same data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_chunks: Option<FirstChunks>,
    /// The hidden width H.
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// The weight λ of the game result in the target.
    pub lambda: f64,
    /// Centipawns per unit of the output, and of the score's sigmoid.
    pub scale: f64,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// The first epoch's learning rate.
    pub lr: f64,
    /// How it falls.
    pub schedule: Schedule,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f64,
    /// One chunk (or file) in this many is held out for validation.
    pub validation_every: usize,
    /// The seed of the initial weights and of each epoch's shuffle.
    pub seed: u64,
    /// Threads (a run is deterministic for a given count).
    pub threads: usize,
    /// The run directory.
    pub out: PathBuf,
}

/// Every weight is kept within ±this (bullet's default clip): the first layer's accumulator then
/// stays within i16 for 32 inputs at QA = 255, and an output weight times an activation fits i16.
pub const WEIGHT_CLIP: f32 = 1.98;

#[cfg(test)]
mod tests;

/// The manifest is the plan; a resumed run continues it as it is.
impl lab::run_flow::RecordedPlan for TrainPlan {
    fn read(dir: &std::path::Path) -> anyhow::Result<Self> {
        lab::run_dir::read_manifest(dir, "training run")
    }

    fn write(&self, dir: &std::path::Path) -> anyhow::Result<()> {
        lab::run_dir::write_manifest(dir, self)
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        lab::run_flow::differences_but(self, planned, &["out"])
    }
}
