//! `harness label`: arguments → validated [`LabelPlan`] (or the one a run directory recorded) →
//! positions → labels → `labelled.pgn`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use lab::run_dir::{check_fresh_out, default_out, MANIFEST};
use lab::run_flow::{self, Ended, RecordedPlan};
use play::label::positions::{self, Selection};
use play::label::{pgn, run, LabelPlan, LabelRow, Limit, LABELLED_PGN, LABELS};

use crate::cli::RunArgs;

/// `harness label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Positions to label (repeatable): PGN games (`.pgn`, `.pgn.gz`: every position where a move
    /// was played) or EPD files (every record).
    #[arg(value_name = "FILE", required_unless_present = "resume")]
    pub inputs: Vec<PathBuf>,
    /// The UCI engine that labels them (Stockfish, Ethereal, the project's `engine`, …).
    #[arg(long, value_name = "PATH", required_unless_present = "resume")]
    pub engine: Option<PathBuf>,
    /// A UCI option `NAME=VALUE` (repeatable; `Threads` is 1 unless given).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Search each position to this depth (deterministic with one thread).
    #[arg(long, conflicts_with = "nodes", required_unless_present_any = ["nodes", "resume"])]
    pub depth: Option<i32>,
    /// Search each position for this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Positions of a game before this ply are left out (PGN inputs).
    #[arg(long, default_value_t = 0)]
    pub skip_plies: usize,
    /// Only the positions `texel` keeps: not in check, no capture or promotion winning material.
    #[arg(long)]
    pub quiet_only: bool,
    /// How long one search may take before the engine counts as hung (the position is skipped,
    /// the engine restarted), seconds.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Engine processes searching side by side, output, resume (the recorded plan), dry run,
    /// quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `harness label`.
pub fn run(args: LabelArgs) -> Result<ExitCode> {
    let (plan, read) = match &args.run.resume {
        Some(dir) => resumed(dir, &args)?,
        None => {
            let (inputs, read) = positions::read(&args.inputs, selection(&args))?;
            (build_plan(&args, inputs)?, read)
        }
    };
    for w in read.warnings.iter().take(10) {
        eprintln!("warning: {w}");
    }
    eprintln!(
        "{} positions from {} inputs, {} engine processes ({}, {}) → {}",
        read.items.len(),
        plan.inputs.len(),
        plan.threads,
        plan.engine.display(),
        plan.limit,
        plan.out.display()
    );
    if args.run.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    let bar = lab::progress::Progress::new(read.items.len() as u64, args.run.quiet);
    let work = |()| run::label_all(&plan, read.items, |_, _| bar.job_done());
    let resuming = args.run.resume.is_some();
    let ended = run_flow::run(&plan.out, resuming, |_| plan.clone(), |_| Ok(()), work)?;
    bar.finish();
    let outcome = match ended {
        Ended::Completed(outcome) => outcome,
        Ended::Interrupted(outcome) => {
            let kept = format!(
                "{} more positions written",
                outcome.labelled + outcome.skipped
            );
            return Ok(run_flow::interrupted("label", &plan.out, &kept));
        }
    };
    if !read.games.is_empty() {
        write_labelled_pgn(&plan.out, &read.games)?;
    }
    println!(
        "{} labelled, {} skipped (skipped.csv says why), {} done before → {}",
        outcome.labelled,
        outcome.skipped,
        outcome.resumed,
        plan.out.join(LABELS).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Arguments and the inputs as read → a plan, every check made before an engine starts.
fn build_plan(args: &LabelArgs, inputs: Vec<play::label::Input>) -> Result<LabelPlan> {
    let engine = args.engine.clone().context("--engine PATH is required")?;
    let limit = match (args.depth, args.nodes) {
        (Some(d), None) if d >= 1 => Limit::Depth(d),
        (None, Some(n)) if n >= 1 => Limit::Nodes(n),
        (Some(d), None) => bail!("--depth must be at least 1, found {d}"),
        (None, Some(_)) => bail!("--nodes must be at least 1, found 0"),
        _ => bail!("give one limit: --depth D or --nodes N"),
    };
    let options = crate::cli::uci_options(&args.options)?;
    let threads = lab::workers::resolve(args.run.threads)?;
    let out = args.run.out.clone().unwrap_or_else(|| default_out("label"));
    check_fresh_out(&out)?;
    if out.join(MANIFEST).exists() {
        bail!(
            "{} already holds a run: continue it with --resume {}",
            out.display(),
            out.display()
        );
    }
    // A label run is this engine's: one that cannot start fails now, not position by position.
    let plan = LabelPlan {
        inputs,
        engine,
        options,
        limit,
        selection: selection(args),
        threads,
        timeout_s: args.timeout,
        out,
    };
    run::start(&plan).with_context(|| format!("starting {}", plan.engine.display()))?;
    Ok(plan)
}

fn selection(args: &LabelArgs) -> Selection {
    Selection {
        skip_plies: args.skip_plies,
        quiet_only: args.quiet_only,
    }
}

/// The plan `dir` recorded (its threads may be changed, nothing else) and its inputs read again,
/// refused when one changed since.
fn resumed(dir: &Path, args: &LabelArgs) -> Result<(LabelPlan, positions::Read)> {
    if !args.inputs.is_empty() || args.engine.is_some() || args.depth.is_some() {
        bail!("--resume continues the plan {dir}/{MANIFEST} records: leave out the inputs, --engine and the limit", dir = dir.display());
    }
    let mut plan: LabelPlan = RecordedPlan::read(dir)?;
    plan.out = dir.to_path_buf();
    if let Some(threads) = args.run.threads {
        plan.threads = lab::workers::resolve(Some(threads))?;
    }
    let paths: Vec<PathBuf> = plan.inputs.iter().map(|i| i.path.clone()).collect();
    let (inputs, read) = positions::read(&paths, plan.selection)?;
    if inputs != plan.inputs {
        bail!(
            "{}: an input changed since the run began (its SHA-256 differs from the manifest's): \
             start a new run",
            dir.display()
        );
    }
    Ok((plan, read))
}

/// `labelled.pgn` from every row of `labels.csv` (this run's and the runs it resumed).
fn write_labelled_pgn(out: &Path, games: &[(usize, lab::pgn_reader::Game)]) -> Result<()> {
    let path: PathBuf = out.join(LABELS);
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let rows = reader
        .deserialize::<LabelRow>()
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    let text = pgn::labelled_pgn(games, &rows);
    std::fs::write(out.join(LABELLED_PGN), text)
        .with_context(|| format!("writing {}/{LABELLED_PGN}", out.display()))
}
