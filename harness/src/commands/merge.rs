//! `harness merge SHARD... --out DIR`: the shards of one grid (`grid --shard I/N`) joined into one
//! run directory — the same rows a single machine would have written (in shard order; timings
//! aside), one manifest without the shard, then the report. Shards of different plans, missing,
//! duplicated or unfinished shards are refused with what is wrong, before anything is written;
//! `--partial` merges what there is and says what is missing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use lab::export::manifest::{Manifest, ManifestShard};
use lab::export::provenance::Provenance;
use lab::run_dir::{ITERATIONS, RUNS};
use lab::shard::Shard;
use play::arena::manifest::MatchManifest;
use play::arena::output::{GAMES_CSV, GAMES_PGN, MOVES_CSV};

/// `harness merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories (any order).
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// The merged run directory (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge what is there: shards missing or unfinished are reported, not refused (to look at a
    /// long study while it runs).
    #[arg(long)]
    pub partial: bool,
}

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
    let first = &args.shards[0];
    if first.join(GAMES_CSV).exists() && !first.join(RUNS).exists() {
        return merge_matches(args);
    }
    let shards = read_shards(&args.shards)?;
    check_same_plan(&shards)?;
    let missing = check_coverage(&shards, args.partial)?;
    let _lock = lab::run_lock::RunLock::create_and_acquire(&args.out)?;
    for name in [RUNS, ITERATIONS] {
        if args.out.join(name).exists() {
            bail!(
                "{} already exists: merge into a new --out",
                args.out.join(name).display()
            );
        }
        concatenate(
            shards.iter().map(|s| s.dir.as_path()),
            name,
            &args.out.join(name),
        )?;
    }
    merged_manifest(&shards).write(&args.out)?;
    let rows = lab::report::write(&args.out, None)?;
    print!("{}", lab::report::summary::table(&rows, usize::MAX));
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
        let plan = first.manifest.plan_differences(&other.manifest);
        let build = first.manifest.build_differences(&other.manifest);
        for difference in plan.into_iter().chain(build) {
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

/// Refuses a shard index given twice; names the indices of `count` not given (sorted input).
fn missing_shards(given: &[(usize, &Path)], count: usize) -> Result<Vec<String>> {
    for pair in given.windows(2) {
        if pair[0].0 == pair[1].0 {
            bail!(
                "shard {}/{count} is given twice: {} and {}",
                pair[0].0,
                pair[0].1.display(),
                pair[1].1.display()
            );
        }
    }
    let absent: Vec<String> = (0..count)
        .filter(|i| !given.iter().any(|g| g.0 == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    Ok(if absent.is_empty() {
        Vec::new()
    } else {
        vec![format!("shards missing: {}", absent.join(", "))]
    })
}

/// Each shard index once, all of them, each finished — or, with `partial`, what is missing.
fn check_coverage(shards: &[ShardDir], partial: bool) -> Result<Vec<String>> {
    let count = shards[0].shard.count;
    let given: Vec<(usize, &Path)> = shards
        .iter()
        .map(|s| (s.shard.index, s.dir.as_path()))
        .collect();
    let mut problems = missing_shards(&given, count)?;
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

/// The first shard's manifest as a whole run's: no shard, the command without its shard options,
/// the shard directories named.
fn merged_manifest(shards: &[ShardDir]) -> Manifest {
    let first = &shards[0].manifest;
    Manifest {
        provenance: Provenance {
            command: without_shard_options(&first.provenance.command),
            ..first.provenance.clone()
        },
        shard: None,
        merged_from: shards.iter().map(|s| s.dir.display().to_string()).collect(),
        threads: shards.iter().map(|s| s.manifest.threads).sum(),
        ..first.clone()
    }
}

/// A shard's command line without the options that made it a shard (or named its directory).
fn without_shard_options(command: &[String]) -> Vec<String> {
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

/// The shards of one match: contiguous ranges of its pairs in job order, so their files laid end
/// to end are the unsharded match's.
fn merge_matches(args: &MergeArgs) -> Result<ExitCode> {
    let mut shards: Vec<(PathBuf, MatchManifest, Shard)> = Vec::new();
    for dir in &args.shards {
        let manifest = MatchManifest::read(dir)?;
        let Some(shard) = manifest.shard else {
            bail!(
                "{} is not a shard (its manifest names none): merge joins the directories of `match --shard I/N`",
                dir.display()
            );
        };
        shards.push((dir.clone(), manifest, shard));
    }
    shards.sort_by_key(|s| s.2.index);
    let (first_dir, first, _) = &shards[0];
    let mut problems = Vec::new();
    for (dir, other, shard) in &shards[1..] {
        if shard.count != shards[0].2.count {
            problems.push(format!(
                "{} is cut into {} shards, {} into {}",
                first_dir.display(),
                shards[0].2.count,
                dir.display(),
                shard.count
            ));
        }
        let unsharded = |m: &MatchManifest| MatchManifest {
            shard: None,
            ..m.clone()
        };
        let plan = unsharded(first).plan_differences(&unsharded(other));
        let build = first.provenance.build_differences(&other.provenance);
        for d in plan.into_iter().chain(build) {
            problems.push(format!(
                "{} and {}: {d}",
                first_dir.display(),
                dir.display()
            ));
        }
    }
    if !problems.is_empty() {
        bail!(
            "these shards are not of one match:\n  {}",
            problems.join("\n  ")
        );
    }
    let count = shards[0].2.count;
    let jobs = first.pairs * first.pairings.len() as u64;
    let mut missing = Vec::new();
    let given: Vec<(usize, &Path)> = shards.iter().map(|s| (s.2.index, s.0.as_path())).collect();
    missing.extend(missing_shards(&given, count)?);
    for (dir, _, shard) in &shards {
        let expected = 2 * shard.range(jobs as usize).len();
        let games = row_count(&dir.join(GAMES_CSV))?;
        if games < expected {
            missing.push(format!(
                "shard {shard} ({}) has {games} of its {expected} games: finish it with `harness match --resume {}`",
                dir.display(),
                dir.display()
            ));
        }
    }
    if !missing.is_empty() && !args.partial {
        bail!("{}\n(--partial merges what is there)", missing.join("\n"));
    }
    let _lock = lab::run_lock::RunLock::create_and_acquire(&args.out)?;
    if args.out.join(GAMES_CSV).exists() {
        bail!(
            "{} already exists: merge into a new --out",
            args.out.join(GAMES_CSV).display()
        );
    }
    let dirs = || shards.iter().map(|s| s.0.as_path());
    concatenate(dirs(), GAMES_CSV, &args.out.join(GAMES_CSV))?;
    concatenate(dirs(), MOVES_CSV, &args.out.join(MOVES_CSV))?;
    let mut pgn = Vec::new();
    for dir in dirs() {
        if let Ok(bytes) = std::fs::read(dir.join(GAMES_PGN)) {
            pgn.extend(bytes);
        }
    }
    std::fs::write(args.out.join(GAMES_PGN), pgn)
        .with_context(|| format!("writing {}", args.out.join(GAMES_PGN).display()))?;
    MatchManifest {
        provenance: Provenance {
            command: without_shard_options(&first.provenance.command),
            ..first.provenance.clone()
        },
        shard: None,
        merged_from: dirs().map(|d| d.display().to_string()).collect(),
        threads: shards.iter().map(|s| s.1.threads).sum(),
        ..first.clone()
    }
    .write(&args.out)?;
    play::arena::report::print_results(&play::arena::report::write(&args.out)?);
    for line in &missing {
        eprintln!("partial: {line}");
    }
    println!(
        "merged {} shards → {} (report.md, games.pgn)",
        shards.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
