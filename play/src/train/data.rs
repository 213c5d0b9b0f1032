//! The training data: the chunks a datagen run lists (each checked against its SHA-256) or
//! bulletformat files, read into memory as records, split into training and validation by whole
//! chunk or file, so that no game has positions on both sides of the split.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bulletformat::ChessBoard;
use serde::{Deserialize, Serialize};

use crate::datagen::output::{chunk_path, finished};
use crate::datagen::record::{from_bytes, RECORD_BYTES};
use crate::datagen::{BIN_EXT, CHUNKS_CSV};
use crate::train::FirstChunks;
use lab::plan::sha256_hex;

/// One input as the network's record names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// A datagen directory or a file.
    pub path: PathBuf,
    /// SHA-256 of the file, or for a datagen run of its chunks' lines `INDEX BIN_SHA256\n` in
    /// chunk order (the data read, however many chunks the run has since added).
    pub sha256: String,
    /// Chunks (1 for a file).
    pub units: usize,
    /// The chunks read, as ranges (`0-79,81`); empty for a file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub chunks: String,
    /// Positions.
    pub positions: usize,
}

/// The records, split.
#[derive(Debug, Default)]
pub struct Data {
    /// Training positions.
    pub train: Vec<ChessBoard>,
    /// Held-out positions.
    pub validation: Vec<ChessBoard>,
    /// Where they came from.
    pub sources: Vec<Source>,
}

/// Reads `inputs` (of datagen runs, only their first chunks if `first_chunks` says so), holding
/// out every `every`-th unit (chunk or file, in order) for validation.
pub fn read(inputs: &[PathBuf], first_chunks: Option<&FirstChunks>, every: usize) -> Result<Data> {
    let mut units: Vec<PathBuf> = Vec::new();
    let mut data = Data::default();
    let mut runs = 0;
    for input in inputs {
        let (paths, sha, chunks) = if input.is_dir() {
            runs += 1;
            dir_units(input, first_chunks.map(|f| f.of(runs - 1)))?
        } else {
            let bytes =
                std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
            (vec![input.clone()], sha256_hex(&bytes), String::new())
        };
        data.sources.push(Source {
            path: input.clone(),
            sha256: sha,
            units: paths.len(),
            chunks,
            positions: 0,
        });
        units.extend(paths);
    }
    let mut counted = 0;
    for (i, unit) in units.iter().enumerate() {
        let records = read_file(unit)?;
        let source = data
            .sources
            .iter_mut()
            .find(|s| unit.starts_with(&s.path))
            .expect("each unit from a source");
        source.positions += records.len();
        counted += records.len();
        if every > 1 && units.len() > 1 && held_out(i, units.len(), every) {
            data.validation.extend(records);
        } else {
            data.train.extend(records);
        }
    }
    if units.len() == 1 && every > 1 {
        let held = data.train.len() / every;
        data.validation = data.train.split_off(data.train.len() - held);
    }
    if data.train.is_empty() || (every > 1 && data.validation.is_empty()) {
        bail!(
            "{counted} positions in {} files: too few to train and validate",
            units.len()
        );
    }
    Ok(data)
}

/// Whether unit `i` of `n` is held out: every `every`-th, and the last when fewer than `every`
/// units would hold out none.
fn held_out(i: usize, n: usize, every: usize) -> bool {
    i % every == every - 1 || (n < every && i == n - 1)
}

/// The `.bin` files of a datagen run's finished chunks (checked), the SHA-256 of their list and
/// the list as ranges.
fn dir_units(dir: &Path, first: Option<u64>) -> Result<(Vec<PathBuf>, String, String)> {
    if !dir.join(CHUNKS_CSV).exists() {
        bail!("{}: not a datagen run (no {CHUNKS_CSV})", dir.display());
    }
    let mut rows = finished(dir)?;
    rows.sort_by_key(|r| r.chunk);
    if let Some(n) = first {
        rows.retain(|r| r.chunk < n);
        if rows.len() as u64 != n {
            bail!(
                "{}: {} of its first {n} chunks are finished: --first-chunks {n} needs them all",
                dir.display(),
                rows.len()
            );
        }
    }
    let paths = rows
        .iter()
        .map(|r| chunk_path(dir, r.chunk, BIN_EXT))
        .collect();
    let list: String = rows
        .iter()
        .map(|r| format!("{} {}\n", r.chunk, r.bin_sha256))
        .collect();
    let ids: Vec<u64> = rows.iter().map(|r| r.chunk).collect();
    Ok((paths, sha256_hex(list.as_bytes()), ranges(&ids)))
}

/// Sorted ids as ranges: `0-79,81,83-90`.
fn ranges(ids: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            ids[i].to_string()
        } else {
            format!("{}-{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    out.join(",")
}

/// The records of a bulletformat file; a file whose size is not a whole number of records, or a
/// record that is not a position, is refused with its place.
pub fn read_file(path: &Path) -> Result<Vec<ChessBoard>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() % RECORD_BYTES != 0 {
        bail!(
            "{}: {} bytes, not a whole number of {RECORD_BYTES}-byte bulletformat records",
            path.display(),
            bytes.len()
        );
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, b)| {
            from_bytes(b.try_into().expect("32 bytes")).with_context(|| {
                format!(
                    "{}: record {i} (byte {}): not a bulletformat position",
                    path.display(),
                    i * RECORD_BYTES
                )
            })
        })
        .collect()
}
