//! `harness merge SHARD... --out DIR`: the shards of one grid (`grid --shard I/N`) joined into one
//! run directory — the same rows a single machine would have written (in shard order; timings
//! aside), one manifest without the shard, then the report. Shards of different plans, missing,
//! duplicated or unfinished shards are refused with what is wrong, before anything is written;
//! `--partial` merges what there is and says what is missing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::cli::MergeArgs;
use crate::export::manifest::{Manifest, ManifestShard};
use crate::run_dir::{ITERATIONS, RUNS};

/// One shard directory and its manifest.
struct ShardDir {
    dir: PathBuf,
    manifest: Manifest,
    shard: ManifestShard,
    /// Finished jobs (rows of `runs.csv`).
    done: usize,
}

/// Runs `harness merge`.
pub fn run(args: &MergeArgs) -> Result<ExitCode> {
    let shards = read_shards(&args.shards)?;
    check_same_plan(&shards)?;
    let missing = check_coverage(&shards, args.partial)?;
    let _lock = crate::run_lock::RunLock::create_and_acquire(&args.out)?;
    for name in [RUNS, ITERATIONS] {
        if args.out.join(name).exists() {
            bail!(
                "{} already exists: merge into a new --out",
                args.out.join(name).display()
            );
        }
        concatenate(&shards, name, &args.out.join(name))?;
    }
    merged_manifest(&shards).write(&args.out)?;
    let rows = crate::report::write(&args.out, None)?;
    print!("{}", crate::report::summary::table(&rows));
    for line in &missing {
        eprintln!("partial: {line}");
    }
    println!(
        "merged {} shards → {} (report.md, figures)",
        shards.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn read_shards(dirs: &[PathBuf]) -> Result<Vec<ShardDir>> {
    let mut shards = Vec::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        let Some(shard) = manifest.shard.clone() else {
            bail!(
                "{} is not a shard (its manifest names none): merge joins the directories of `grid --shard I/N`",
                dir.display()
            );
        };
        let done = row_count(&dir.join(RUNS))?;
        shards.push(ShardDir {
            dir: dir.clone(),
            manifest,
            shard,
            done,
        });
    }
    shards.sort_by_key(|s| s.shard.index);
    Ok(shards)
}

fn row_count(path: &Path) -> Result<usize> {
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

/// Every shard must come from the first one's plan.
fn check_same_plan(shards: &[ShardDir]) -> Result<()> {
    let first = &shards[0];
    let mut problems = Vec::new();
    for other in &shards[1..] {
        for difference in first.manifest.plan_differences(&other.manifest) {
            problems.push(format!(
                "{} and {}: {difference}",
                first.dir.display(),
                other.dir.display()
            ));
        }
    }
    if !problems.is_empty() {
        bail!(
            "these shards are not of one plan:\n  {}",
            problems.join("\n  ")
        );
    }
    Ok(())
}

/// Each shard index once, all of them, each finished — or, with `partial`, what is missing.
fn check_coverage(shards: &[ShardDir], partial: bool) -> Result<Vec<String>> {
    let count = shards[0].shard.count;
    let mut problems = Vec::new();
    for pair in shards.windows(2) {
        if pair[0].shard.index == pair[1].shard.index {
            bail!(
                "shard {}/{count} is given twice: {} and {}",
                pair[0].shard.index,
                pair[0].dir.display(),
                pair[1].dir.display()
            );
        }
    }
    let present: Vec<usize> = shards.iter().map(|s| s.shard.index).collect();
    let absent: Vec<String> = (0..count)
        .filter(|i| !present.contains(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !absent.is_empty() {
        problems.push(format!("shards missing: {}", absent.join(", ")));
    }
    for s in shards {
        if s.done < s.shard.jobs {
            problems.push(format!(
                "shard {}/{count} ({}) has {} of its {} jobs: finish it with `harness grid --resume {}`",
                s.shard.index,
                s.dir.display(),
                s.done,
                s.shard.jobs,
                s.dir.display()
            ));
        }
    }
    if !problems.is_empty() && !partial {
        bail!("{}\n(--partial merges what is there)", problems.join("\n"));
    }
    Ok(problems)
}

/// One CSV of every shard under one header (the shards' headers must agree).
fn concatenate(shards: &[ShardDir], name: &str, out: &Path) -> Result<()> {
    let mut writer =
        csv::Writer::from_path(out).with_context(|| format!("writing {}", out.display()))?;
    let mut header: Option<(csv::StringRecord, PathBuf)> = None;
    for s in shards {
        let path = s.dir.join(name);
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

/// The first shard's manifest as a whole run's: no shard, the command without its shard options,
/// the shard directories named.
fn merged_manifest(shards: &[ShardDir]) -> Manifest {
    let first = &shards[0].manifest;
    let mut command = Vec::new();
    let mut args = first.command.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--shard" | "--cost-from" | "--out" | "--resume" => {
                args.next();
            }
            a if a.starts_with("--shard=")
                || a.starts_with("--cost-from=")
                || a.starts_with("--out=")
                || a.starts_with("--resume=") => {}
            a => command.push(a.to_string()),
        }
    }
    Manifest {
        command,
        shard: None,
        merged_from: shards.iter().map(|s| s.dir.display().to_string()).collect(),
        threads: shards.iter().map(|s| s.manifest.threads).sum(),
        ..first.clone()
    }
}
