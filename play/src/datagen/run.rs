//! A datagen run: the chunks still to play (the plan's, or its shard's, less those `chunks.csv`
//! lists), played by `threads` workers that each take the next chunk in order, each chunk's files
//! written and its row appended as it finishes. A stop request (SIGINT, SIGTERM) lets the chunks
//! under way finish; a kill loses only them.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::output::{self, ChunkLog, ChunkRow};
use super::{chunk, DatagenPlan, Openings, CHUNKS_CSV};
use crate::arena::openings::Book;

/// How a run went.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Chunks finished before this run started.
    pub done_before: usize,
    /// Chunks this run finished.
    pub played: usize,
    /// Chunks left (a stop was requested).
    pub left: usize,
    /// Positions of the chunks this run finished.
    pub positions: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// The plan's book, read and checked against the plan's SHA-256 (`None` for random plies).
pub fn book(plan: &DatagenPlan) -> Result<Option<Book>> {
    let Openings::Book { path, sha256 } = &plan.openings else {
        return Ok(None);
    };
    let book = Book::read(path)?;
    if &book.sha256 != sha256 {
        bail!(
            "{}: SHA-256 {}, but the plan records {sha256}: the book changed since the run began",
            path.display(),
            book.sha256
        );
    }
    if book.openings.is_empty() {
        bail!("{}: no opening could be read", path.display());
    }
    Ok(Some(book))
}

/// The chunks of `plan` not yet finished in its directory, in order, and how many are.
pub fn todo(plan: &DatagenPlan) -> Result<(Vec<u64>, usize)> {
    let done: HashSet<u64> = output::finished(&plan.out)?
        .into_iter()
        .map(|r| r.chunk)
        .collect();
    let all = plan.chunk_indices();
    let todo: Vec<u64> = all.iter().copied().filter(|k| !done.contains(k)).collect();
    let done_before = all.len() - todo.len();
    Ok((todo, done_before))
}

/// Plays the chunks of `plan` still to play; `on_chunk` hears of each as it is written.
pub fn run(plan: &DatagenPlan, on_chunk: impl Fn(&ChunkRow) + Sync) -> Result<Summary> {
    let start = Instant::now();
    let kind = plan.player.kind()?;
    let book = book(plan)?;
    let (todo, done_before) = todo(plan)?;
    let log = Mutex::new(ChunkLog::open(&plan.out)?);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Result<ChunkRow>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            scope.spawn(|| loop {
                if lab::shutdown::requested() {
                    return;
                }
                let Some(&k) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let data = chunk::play(plan, &kind, book.as_ref(), k);
                let row = output::write_chunk(&plan.out, &data).and_then(|row| {
                    log.lock()
                        .expect("no worker panics holding the log")
                        .append(&row)?;
                    Ok(row)
                });
                if let Ok(row) = &row {
                    on_chunk(row);
                }
                let failed = row.is_err();
                results
                    .lock()
                    .expect("no worker panics holding the results")
                    .push(row);
                if failed {
                    return;
                }
            });
        }
    });
    let rows = results.into_inner().expect("workers ended");
    let mut summary = Summary {
        done_before,
        seconds: start.elapsed().as_secs_f64(),
        ..Summary::default()
    };
    for row in rows {
        let row = row?;
        summary.played += 1;
        summary.positions += row.positions;
    }
    summary.left = todo.len() - summary.played;
    if summary.left == 0 {
        sort_log(plan)?;
    }
    Ok(summary)
}

/// Rewrites `chunks.csv` in chunk order once every chunk is there, so that the manifest of a
/// finished run is the same file however its chunks were scheduled.
fn sort_log(plan: &DatagenPlan) -> Result<()> {
    let mut rows = output::finished(&plan.out)?;
    rows.sort_by_key(|r| r.chunk);
    let path = plan.out.join(CHUNKS_CSV);
    let tmp = path.with_extension("csv.partial");
    let mut writer =
        csv::Writer::from_path(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
    for row in &rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    drop(writer);
    std::fs::rename(&tmp, &path).with_context(|| format!("renaming {}", tmp.display()))
}
