//! `harness merge SHARD... --out DIR`: the shards of one grid or match (`--shard I/N`) joined into
//! one run directory — the same rows a single machine would have written (in shard order; timings
//! aside), one manifest without the shard, then the report. Shards of different plans or builds,
//! missing, duplicated or unfinished shards are refused with what is wrong, before anything is
//! written; `--partial` merges what there is and says what is missing (`lab::merge`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use lab::export::manifest::Manifest;
use lab::merge::merge;
use lab::run_dir::RUNS;
use play::arena::manifest::MatchManifest;
use play::arena::output::GAMES_CSV;

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

/// Runs `harness merge`: the shards joined by `lab::merge` (one procedure for grids and
/// matches), then the report.
pub fn run(args: &MergeArgs) -> Result<ExitCode> {
    let first = &args.shards[0];
    let is_match = first.join(GAMES_CSV).exists() && !first.join(RUNS).exists();
    let missing = if is_match {
        merge::<MatchManifest>(&args.shards, &args.out, args.partial)?
    } else {
        merge::<Manifest>(&args.shards, &args.out, args.partial)?
    };
    if is_match {
        play::arena::report::print_results(&play::arena::report::write(&args.out)?);
    } else {
        let rows = lab::report::write(&args.out, None)?;
        print!("{}", lab::report::summary::table(&rows, usize::MAX));
    }
    for line in &missing {
        eprintln!("partial: {line}");
    }
    let what = if is_match {
        "report.md, games.pgn"
    } else {
        "report.md, figures"
    };
    println!(
        "merged {} shards → {} ({what})",
        args.shards.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
