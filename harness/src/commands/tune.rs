//! `harness tune`: arguments → validated [`TunePlan`] → iterations (`tune::run`) → `tune.csv`,
//! report, `tuned.toml` → with `--verify`, a match of tuned against start on fresh openings.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use lab::run_dir::default_out;
use lab::run_flow::{self, Ended, RecordedPlan};
use play::arena::limits::{MoveLimit, DEFAULT_LIMIT};
use play::arena::openings::Book;
use play::tune::output::{TuneManifest, TuneSink};
use play::tune::params;
use play::tune::spsa::Schedule;
use play::tune::{report, verify, TunePlan};

use crate::cli::{RulesArgs, RunArgs};

/// `harness tune`.
#[derive(Debug, Clone, Args)]
pub struct TuneArgs {
    /// A parameter `KEY=START,MIN,MAX[,C_END[,R_END]]` (repeatable): a numeric SearchConfig key,
    /// or `uci.NAME` (a spin option) with --engine uci:PATH. C_END defaults to (MAX − MIN)/20,
    /// R_END to 0.002 (Stockfish's TUNE).
    #[arg(
        long = "param",
        value_name = "KEY=START,MIN,MAX[,C_END[,R_END]]",
        required_unless_present_any = ["resume", "grid"]
    )]
    pub params: Vec<String>,
    /// SPSA iterations (N).
    #[arg(long, default_value_t = 200)]
    pub iterations: u64,
    /// Game pairs of θ+ against θ− per iteration, played in parallel.
    #[arg(long, default_value_t = 4)]
    pub pairs_per_iteration: u64,
    /// A grid file: its `preset`, `engines`, `[set]` (fixed settings) and `[params]` (`KEY =
    /// [START, MIN, MAX]`; `tuned.toml` is one); the command line adds to it.
    #[arg(long, value_name = "FILE.toml")]
    pub grid: Option<PathBuf>,
    /// Base preset of the builtin engine (each with what it adds: `--help`). Default: the
    /// grid file's, else `fischerle`.
    #[arg(long, value_parser = crate::cli::preset_parser())]
    pub preset: Option<String>,
    /// A fixed setting `KEY=V` of the player tuned (repeatable; `uci.NAME=V` for a UCI engine).
    #[arg(long = "set", value_name = "KEY=V")]
    pub sets: Vec<String>,
    /// The engine tuned: `builtin` or `uci:PATH`. Default: the grid file's, else `builtin`.
    #[arg(long, value_name = "builtin|uci:PATH")]
    pub engine: Option<String>,
    /// Per-move limit of both sides, as `match --limit` (`nodes=N`, `depth=D`, `movetime=MS`,
    /// `tc=BASE+INC`). Default `nodes=5000`.
    #[arg(long, value_name = "LIMIT")]
    pub limit: Option<String>,
    /// Opening book, EPD or PGN. Default: the project's book.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the perturbations and the rounding, and the book offset of the first pair.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How games end.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// After the last iteration: a match of this many pairs, tuned against start, on the openings
    /// after the tune's (`verify/` in the run directory).
    #[arg(long, value_name = "PAIRS")]
    pub verify: Option<u64>,
    /// The verification's limit per move (e.g. a clock, `tc=0.5+0.005`), into `verify-LIMIT/`.
    /// Default: the tune's, into `verify/`.
    #[arg(long, value_name = "LIMIT")]
    pub verify_limit: Option<String>,
    /// The verification's openings (EPD or PGN), positions also in the tune's book left out.
    /// Default: the tune's book from the offset after its pairs.
    #[arg(long, value_name = "FILE")]
    pub verify_openings: Option<PathBuf>,
    /// The verification's SPRT `ELO0,ELO1`.
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        default_value = "0,5",
        allow_hyphen_values = true
    )]
    pub verify_sprt: String,
    /// Name of the tune (output directory).
    #[arg(long, default_value = "tune")]
    pub name: String,
    /// How long a UCI engine may take.
    #[command(flatten)]
    pub uci: crate::cli::UciBoundsArgs,
    /// Output, resume (after the last complete iteration), threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// How long a UCI engine's depth- or node-limited move may take unless told otherwise.
const TUNE_UCI_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `harness tune`.
pub fn run(args: TuneArgs) -> Result<ExitCode> {
    let args = with_recorded_args(args)?;
    let plan = build_plan(&args)?;
    if args.run.dry_run {
        print!("{}", plan.describe());
        return Ok(ExitCode::SUCCESS);
    }
    let ended = run_flow::run(
        &plan.out,
        args.run.resume.is_some(),
        |_| TuneManifest::new(&plan),
        |recorded| match recorded {
            Some(_) => TuneSink::resume(&plan.out, &plan.params),
            None => Ok((TuneSink::create(&plan.out, &plan.params)?, 1, plan.start())),
        },
        |(sink, from, theta)| {
            eprintln!(
                "{} parameters, {} iterations × {} pairs, {} done, {} threads → {}",
                plan.params.len(),
                plan.schedule.iterations,
                plan.pairs_per_iteration,
                from - 1,
                plan.threads,
                plan.out.display()
            );
            play::tune::run::run(&plan, sink, from, theta, args.run.quiet)
        },
    )?;
    let summary = match ended {
        Ended::Completed(s) => s,
        Ended::Interrupted(s) => {
            let kept = format!(
                "{} more iterations written, every written one complete",
                s.iterations
            );
            return Ok(run_flow::interrupted("tune", &plan.out, &kept));
        }
    };
    report::write(&plan.out, &plan, &summary.theta)?;
    for (p, t) in plan.params.iter().zip(&summary.theta) {
        println!(
            "{}: {} → {}",
            p.key,
            p.start,
            params::format_value(*t, p.integer)
        );
    }
    if summary.pairs > 0 {
        let times = (summary.wall_s, summary.busy_ms, summary.search_ms);
        println!(
            "{} (the games of an iteration wait for its last)",
            play::arena::run::pace(summary.pairs, times, plan.threads)
        );
    }
    if let Some(pairs) = args.verify {
        let limit = match &args.verify_limit {
            Some(text) => MoveLimit::parse_as(text, "--verify-limit")?,
            None => plan.limit,
        };
        let verification = verify::Verification {
            pairs,
            limit,
            openings: args.verify_openings.as_deref(),
            sprt: &args.verify_sprt,
        };
        match verify::run(&plan, &summary.theta, &verification, args.run.quiet)? {
            Some(line) => {
                // The tune's report shows its verifications.
                report::write(&plan.out, &plan, &summary.theta)?;
                println!("verification: {line}");
            }
            None => {
                let kept = "the verification's written pairs are complete";
                return Ok(run_flow::interrupted("tune", &plan.out, kept));
            }
        }
    }
    println!(
        "results: {} (tune.csv, report.md, tuned.toml)",
        plan.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Rebuilds a finished (or stopped) tune's `report.md`, figures, `tuned.toml` and `start.toml` in
/// `dir` from its `tune.csv` and the plan its manifest records; nothing is played.
pub fn rebuild_report(dir: &std::path::Path) -> Result<()> {
    let manifest = TuneManifest::read(dir)?;
    let recorded: Box<TuneArgs> = super::recorded(dir, &manifest.provenance.command)?;
    let args = TuneArgs {
        run: recorded.run.resuming(dir.to_path_buf(), &recorded.run),
        verify: None,
        ..*recorded
    };
    let plan = build_plan(&args)?;
    let (_, theta) = play::tune::output::read_complete(dir, &plan.params)?;
    report::write(dir, &plan, &theta)?;
    Ok(())
}

/// `--resume DIR` without `--param` continues with the plan recorded in DIR's manifest (with
/// them, `run_flow` checks they describe it); `--verify`, `--threads` and `--quiet` are this
/// command's.
fn with_recorded_args(args: TuneArgs) -> Result<TuneArgs> {
    let plan_given = !args.params.is_empty() || args.grid.is_some();
    let Some(dir) = args.run.resume.clone().filter(|_| !plan_given) else {
        return Ok(args);
    };
    let manifest = TuneManifest::read(&dir)?;
    let recorded: Box<TuneArgs> = super::recorded(&dir, &manifest.provenance.command)?;
    Ok(TuneArgs {
        run: args.run.resuming(dir, &recorded.run),
        verify: args.verify,
        verify_openings: args.verify_openings,
        verify_limit: args.verify_limit,
        verify_sprt: args.verify_sprt,
        ..*recorded
    })
}

/// The arguments with a grid file's `preset`, `engines`, `[set]` and `[params]` under them.
fn with_grid_file(args: &TuneArgs) -> Result<TuneArgs> {
    let Some(path) = &args.grid else {
        return Ok(args.clone());
    };
    let start = play::tune::setup::grid_start(path)?;
    Ok(TuneArgs {
        preset: args.preset.clone().or(Some(start.preset)),
        engine: args.engine.clone().or(start.engine),
        sets: start.sets.into_iter().chain(args.sets.clone()).collect(),
        params: start
            .params
            .into_iter()
            .chain(args.params.clone())
            .collect(),
        ..args.clone()
    })
}

/// Validates everything before the first game.
fn build_plan(args: &TuneArgs) -> Result<TunePlan> {
    let args = &with_grid_file(args)?;
    if args.params.is_empty() {
        bail!("nothing to tune: give --param KEY=START,MIN,MAX (or a [params] table in --grid)");
    }
    let uci = args.uci.bounds(TUNE_UCI_TIMEOUT);
    let fixed = crate::cli::key_values(&args.sets)?;
    let (tuned, base, base_name) = play::tune::setup::tuned_player(
        args.engine.as_deref(),
        args.preset.as_deref(),
        &fixed,
        uci,
    )?;
    let params = params::parse_all(&args.params, &base)?;
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    if args.pairs_per_iteration == 0 {
        bail!("--pairs-per-iteration must be at least 1");
    }
    let limit = match &args.limit {
        Some(text) => MoveLimit::parse_as(text, "--limit")?,
        None => DEFAULT_LIMIT,
    };
    if let Some(text) = &args.verify_limit {
        MoveLimit::parse_as(text, "--verify-limit")?;
    }
    let threads = lab::workers::resolve(args.run.threads)?;
    let book = match &args.openings {
        Some(path) => Book::read(path)?,
        None => Book::builtin()?,
    };
    verify::parse_sprt(&args.verify_sprt)?;
    Ok(TunePlan {
        name: args.name.clone(),
        tuned,
        base_name,
        fixed,
        params,
        schedule: Schedule {
            iterations: args.iterations,
        },
        pairs_per_iteration: args.pairs_per_iteration,
        limit,
        book,
        seed: args.seed,
        rules: args.rules.rules()?,
        threads,
        out: args
            .run
            .resume
            .clone()
            .or_else(|| args.run.out.clone())
            .unwrap_or_else(|| default_out(&args.name)),
    })
}
