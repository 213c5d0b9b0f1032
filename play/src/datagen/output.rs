//! A run directory's data: each chunk's files, written whole under a temporary name and renamed
//! (a killed run leaves no torn chunk), then its row appended to [`CHUNKS_CSV`] — the commit point:
//! a chunk is done when its row is there and its files match the row's checksums.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use lab::export::appender::Appender;
use lab::plan::sha256_hex;
use serde::{Deserialize, Serialize};

use super::chunk::{ChunkCounts, ChunkData};
use super::record::to_bytes;
use super::{BIN_EXT, CHUNKS_CSV, CHUNKS_DIR, TXT_EXT};

/// A finished chunk, as `chunks.csv` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkRow {
    /// The chunk's index.
    pub chunk: u64,
    /// Its seed.
    pub seed: u64,
    /// Games played to their end.
    pub games: u64,
    /// Openings dropped by the verification search.
    pub dropped_openings: u64,
    /// Games given up for a player's fault.
    pub faults: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Positions kept.
    pub positions: u64,
    /// Left out: in check.
    pub in_check: u64,
    /// Left out: a capture or promotion played.
    pub noisy: u64,
    /// Left out: a mate score or none.
    pub unscored: u64,
    /// SHA-256 of `chunks/NNNNN.bin`.
    pub bin_sha256: String,
    /// SHA-256 of `chunks/NNNNN.txt`.
    pub txt_sha256: String,
}

/// The path of chunk `index`'s file with extension `ext`.
pub fn chunk_path(dir: &Path, index: u64, ext: &str) -> PathBuf {
    dir.join(CHUNKS_DIR).join(format!("{index:05}.{ext}"))
}

/// Writes chunk `data`'s two files whole and returns its row (not yet appended).
pub fn write_chunk(dir: &Path, data: &ChunkData) -> Result<ChunkRow> {
    std::fs::create_dir_all(dir.join(CHUNKS_DIR))
        .with_context(|| format!("creating {}/{CHUNKS_DIR}", dir.display()))?;
    let mut bin = Vec::with_capacity(data.samples.len() * super::record::RECORD_BYTES);
    let mut txt = String::new();
    for s in &data.samples {
        bin.extend_from_slice(&to_bytes(&s.to_record()));
        txt.push_str(&s.to_text());
        txt.push('\n');
    }
    let c: ChunkCounts = data.counts;
    Ok(ChunkRow {
        chunk: data.index,
        seed: data.seed,
        games: c.games,
        dropped_openings: c.dropped_openings,
        faults: c.faults,
        white_wins: c.white_wins,
        draws: c.draws,
        black_wins: c.black_wins,
        positions: c.kept.positions,
        in_check: c.kept.in_check,
        noisy: c.kept.noisy,
        unscored: c.kept.unscored,
        bin_sha256: write_whole(&chunk_path(dir, data.index, BIN_EXT), &bin)?,
        txt_sha256: write_whole(&chunk_path(dir, data.index, TXT_EXT), txt.as_bytes())?,
    })
}

fn write_whole(path: &Path, bytes: &[u8]) -> Result<String> {
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming {}", tmp.display()))?;
    Ok(sha256_hex(bytes))
}

/// The appender of `chunks.csv`.
pub struct ChunkLog {
    out: Appender,
}

impl ChunkLog {
    /// Opens `dir/chunks.csv` for appending (a header when it is new).
    pub fn open(dir: &Path) -> Result<Self> {
        Ok(Self {
            out: Appender::open(&dir.join(CHUNKS_CSV))?,
        })
    }

    /// Appends `row`, flushed.
    pub fn append(&mut self, row: &ChunkRow) -> Result<()> {
        self.out.append(row)
    }
}

/// The chunks `dir` finished, each checked against its files; a torn last line (a kill while it
/// was written) is cut. A finished chunk whose file is missing or changed is an error: its data
/// would be lost or wrong, and the user decides.
pub fn finished(dir: &Path) -> Result<Vec<ChunkRow>> {
    let path = dir.join(CHUNKS_CSV);
    if !path.exists() {
        return Ok(Vec::new());
    }
    lab::export::appender::cut_partial_line(&path)?;
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, row) in reader.deserialize::<ChunkRow>().enumerate() {
        let row = row.with_context(|| {
            format!(
                "{}:{}: not a chunk row (the columns of {CHUNKS_CSV} expected)",
                path.display(),
                i + 2
            )
        })?;
        check_files(dir, &row)?;
        rows.push(row);
    }
    Ok(rows)
}

fn check_files(dir: &Path, row: &ChunkRow) -> Result<()> {
    for (ext, expected) in [(BIN_EXT, &row.bin_sha256), (TXT_EXT, &row.txt_sha256)] {
        let path = chunk_path(dir, row.chunk, ext);
        let bytes = std::fs::read(&path).with_context(|| {
            format!(
                "{}: chunk {} is listed as finished but its file is missing",
                path.display(),
                row.chunk
            )
        })?;
        let found = sha256_hex(&bytes);
        if &found != expected {
            bail!(
                "{}: SHA-256 {found}, but {CHUNKS_CSV} records {expected}: the file changed since it was written",
                path.display()
            );
        }
    }
    Ok(())
}
