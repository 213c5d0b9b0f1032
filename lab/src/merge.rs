//! `harness merge`'s one procedure for the shards of any sharded run (a grid's, `grid --shard
//! I/N`; a match's, `match --shard I/N`): each shard read with its manifest; refused, before
//! anything is written, when two differ in plan, build or shard count, when a shard is given
//! twice, or (unless `partial`) when one is missing or unfinished; then each table laid end to end
//! in shard order under one header, and one manifest without the shard. What differs between the
//! kinds of run is the [`ShardedRun`] each manifest implements.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::shard::Shard;

/// A sharded run's manifest, as the merge needs it.
pub trait ShardedRun: Sized + Clone {
    /// The command that makes the shards (`grid`, `match`), in messages.
    const KIND: &'static str;
    /// What the shards are of, in messages (`plan`, `match`).
    const WHOLE: &'static str;
    /// What `progress` counts (`jobs`, `games`).
    const UNITS: &'static str;
    /// The files laid end to end: CSVs under one header, other files (a PGN) byte for byte.
    const TABLES: &'static [&'static str];

    /// The manifest of the run in `dir`.
    fn read(dir: &Path) -> Result<Self>;
    /// Which shard it is, `None` for a whole run.
    fn shard(&self) -> Option<Shard>;
    /// What differs from `other` in plan or build, in words (not the shard itself).
    fn differences(&self, other: &Self) -> Vec<String>;
    /// Units finished and planned (jobs of a grid, games of a match) in the shard at `dir`.
    fn progress(&self, dir: &Path) -> Result<(usize, usize)>;
    /// The whole run's manifest from its shards' (in shard order, with their directories).
    fn merged(shards: &[(PathBuf, Self)]) -> Self;
    /// Writes the manifest into `dir`.
    fn write(&self, dir: &Path) -> Result<()>;
}

/// Merges the shards in `dirs` into `out`; returns what is missing (empty unless `partial`).
pub fn merge<R: ShardedRun>(dirs: &[PathBuf], out: &Path, partial: bool) -> Result<Vec<String>> {
    let shards = read_shards::<R>(dirs)?;
    check_one_plan(&shards)?;
    let missing = check_coverage(&shards, partial)?;
    let _lock = crate::run_lock::RunLock::create_and_acquire(out)?;
    for name in R::TABLES {
        if out.join(name).exists() {
            bail!(
                "{} already exists: merge into a new --out",
                out.join(name).display()
            );
        }
    }
    for name in R::TABLES {
        let dirs = shards.iter().map(|(dir, _, _)| dir.as_path());
        if name.ends_with(".csv") {
            concatenate(dirs, name, &out.join(name))?;
        } else {
            append_bytes(dirs, name, &out.join(name))?;
        }
    }
    let by_dir: Vec<(PathBuf, R)> = shards.into_iter().map(|(d, m, _)| (d, m)).collect();
    R::merged(&by_dir).write(out)?;
    Ok(missing)
}

/// A command line without the options that made it a shard (or named its directory): the
/// merged run's command.
pub fn without_shard_options(command: &[String]) -> Vec<String> {
    const WITH_VALUE: [&str; 4] = ["--shard", "--cost-from", "--out", "--resume"];
    let mut out = Vec::new();
    let mut args = command.iter();
    while let Some(arg) = args.next() {
        if WITH_VALUE.contains(&arg.as_str()) {
            args.next();
        } else if !WITH_VALUE.iter().any(|o| arg.starts_with(&format!("{o}="))) {
            out.push(arg.clone());
        }
    }
    out
}

/// The rows of a CSV (0 when it is not there), each read so a torn one is an error.
pub fn row_count(path: &Path) -> Result<usize> {
    if !path.exists() {
        return Ok(0);
    }
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let mut n = 0;
    for record in reader.records() {
        record.with_context(|| format!("reading {}", path.display()))?;
        n += 1;
    }
    Ok(n)
}

type ShardDir<R> = (PathBuf, R, Shard);

fn read_shards<R: ShardedRun>(dirs: &[PathBuf]) -> Result<Vec<ShardDir<R>>> {
    let mut shards = Vec::new();
    for dir in dirs {
        let manifest = R::read(dir)?;
        let Some(shard) = manifest.shard() else {
            bail!(
                "{} is not a shard (its manifest names none): merge joins the directories of `{} --shard I/N`",
                dir.display(),
                R::KIND
            );
        };
        shards.push((dir.clone(), manifest, shard));
    }
    shards.sort_by_key(|s| s.2.index);
    Ok(shards)
}

/// Every shard of the first one's plan, build and shard count.
fn check_one_plan<R: ShardedRun>(shards: &[ShardDir<R>]) -> Result<()> {
    let (first_dir, first, first_shard) = &shards[0];
    let mut problems = Vec::new();
    for (dir, other, shard) in &shards[1..] {
        if shard.count != first_shard.count {
            problems.push(format!(
                "{} is cut into {} shards, {} into {}",
                first_dir.display(),
                first_shard.count,
                dir.display(),
                shard.count
            ));
        }
        for d in first.differences(other) {
            problems.push(format!(
                "{} and {}: {d}",
                first_dir.display(),
                dir.display()
            ));
        }
    }
    if !problems.is_empty() {
        bail!(
            "these shards are not of one {}:\n  {}",
            R::WHOLE,
            problems.join("\n  ")
        );
    }
    Ok(())
}

/// Each shard index once, all of them, each finished — or, with `partial`, what is missing.
fn check_coverage<R: ShardedRun>(shards: &[ShardDir<R>], partial: bool) -> Result<Vec<String>> {
    let count = shards[0].2.count;
    for pair in shards.windows(2) {
        if pair[0].2.index == pair[1].2.index {
            bail!(
                "shard {}/{count} is given twice: {} and {}",
                pair[0].2.index,
                pair[0].0.display(),
                pair[1].0.display()
            );
        }
    }
    let absent: Vec<String> = (0..count)
        .filter(|i| !shards.iter().any(|s| s.2.index == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    let mut problems = Vec::new();
    if !absent.is_empty() {
        problems.push(format!("shards missing: {}", absent.join(", ")));
    }
    for (dir, manifest, shard) in shards {
        let (done, planned) = manifest.progress(dir)?;
        if done < planned {
            problems.push(format!(
                "shard {shard} ({}) has {done} of its {planned} {}: finish it with `harness {} --resume {}`",
                dir.display(),
                R::UNITS,
                R::KIND,
                dir.display()
            ));
        }
    }
    if !problems.is_empty() && !partial {
        bail!("{}\n(--partial merges what is there)", problems.join("\n"));
    }
    Ok(problems)
}

/// One CSV of every shard under one header (the shards' headers must agree).
fn concatenate<'a>(dirs: impl IntoIterator<Item = &'a Path>, name: &str, out: &Path) -> Result<()> {
    let mut writer =
        csv::Writer::from_path(out).with_context(|| format!("writing {}", out.display()))?;
    let mut header: Option<(csv::StringRecord, PathBuf)> = None;
    for dir in dirs {
        let path = dir.join(name);
        if !path.exists() {
            continue;
        }
        let mut reader =
            csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
        let this = reader.headers()?.clone();
        if this.is_empty() {
            continue;
        }
        match &header {
            None => {
                writer.write_record(&this)?;
                header = Some((this, path.clone()));
            }
            Some((first, from)) if *first != this => bail!(
                "{} and {} have different columns: shards of one plan written by different builds?",
                from.display(),
                path.display()
            ),
            Some(_) => {}
        }
        for record in reader.records() {
            writer.write_record(&record.with_context(|| format!("reading {}", path.display()))?)?;
        }
    }
    writer.flush()?;
    Ok(())
}

/// Every shard's file `name` byte for byte, in shard order (a missing one adds nothing).
fn append_bytes<'a>(
    dirs: impl IntoIterator<Item = &'a Path>,
    name: &str,
    out: &Path,
) -> Result<()> {
    let mut bytes = Vec::new();
    for dir in dirs {
        if let Ok(b) = std::fs::read(dir.join(name)) {
            bytes.extend(b);
        }
    }
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))
}
