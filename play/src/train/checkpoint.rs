//! A checkpoint after each epoch: the parameters, Adam's moments and step count, little-endian,
//! written whole under a temporary name and renamed, so the newest complete one is what a resumed
//! run starts from.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::optim::AdamW;
use super::CHECKPOINTS;

/// The state after an epoch.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// Epochs done.
    pub epochs_done: u32,
    /// Parameters.
    pub params: Vec<f32>,
    /// The optimiser.
    pub adam: AdamW,
}

const MAGIC: &[u8; 8] = b"FLNNUE01";

fn path(dir: &Path, epochs_done: u32) -> PathBuf {
    dir.join(CHECKPOINTS)
        .join(format!("epoch-{epochs_done:04}.bin"))
}

impl Checkpoint {
    /// Writes it into `dir/checkpoints/`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir.join(CHECKPOINTS))?;
        let mut bytes = Vec::with_capacity(32 + 12 * self.params.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&self.epochs_done.to_le_bytes());
        bytes.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&self.adam.t.to_le_bytes());
        for v in [&self.params, &self.adam.m, &self.adam.v] {
            bytes.extend(v.iter().flat_map(|x| x.to_le_bytes()));
        }
        let target = path(dir, self.epochs_done);
        let tmp = target.with_extension("partial");
        std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &target).with_context(|| format!("writing {}", target.display()))
    }

    /// The newest checkpoint in `dir` of a network with `len` parameters, if any.
    pub fn latest(dir: &Path, len: usize) -> Result<Option<Self>> {
        let Ok(entries) = std::fs::read_dir(dir.join(CHECKPOINTS)) else {
            return Ok(None);
        };
        let newest = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "bin"))
            .max();
        newest.map(|p| Self::read(&p, len)).transpose()
    }

    fn read(file: &Path, len: usize) -> Result<Self> {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let expected = 28 + 12 * len;
        if bytes.len() != expected || &bytes[..8] != MAGIC {
            bail!(
                "{}: {} bytes, expected a checkpoint of {len} parameters ({expected} bytes starting `FLNNUE01`)",
                file.display(),
                bytes.len()
            );
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let floats = |k: usize| -> Vec<f32> {
            bytes[28 + 4 * len * k..28 + 4 * len * (k + 1)]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect()
        };
        if u64_at(12) as usize != len {
            bail!("{}: a checkpoint of another network's size", file.display());
        }
        Ok(Self {
            epochs_done: u32_at(8),
            params: floats(0),
            adam: AdamW {
                m: floats(1),
                v: floats(2),
                t: u64_at(20),
            },
        })
    }
}
