//! `harness grid`: arguments → validated [`Plan`] → parallel run → CSVs and manifest → report.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::{Args, Parser};
use lab::export::manifest::Manifest;
use lab::export::sink::Sink;
use lab::grid::files::{grid_file, with_overrides, DEFAULT_GRID};
use lab::grid::resolve::{resolve, Resolved};
use lab::grid::GridSpec;
use lab::plan::{JobLimits, Plan, ShardPart};
use lab::run_dir::default_out;
use lab::run_flow::{self, Ended};
use lab::suites;

use crate::cli::{depth, parse_shard, PlayersArgs, RunArgs};

/// `harness grid`: what to run ([`PlanArgs`]) and how to run it (the rest).
#[derive(Debug, Args)]
pub struct GridArgs {
    /// The plan: which configurations search which positions under which limits.
    #[command(flatten)]
    pub plan: PlanArgs,
    /// Output, resume, threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
    /// How long UCI engines may take.
    #[command(flatten)]
    pub uci: crate::cli::UciBoundsArgs,
    /// With --resume: run again the jobs that failed (an external engine crashed, hung or spoke
    /// garbage); their old rows are removed. Without it, a failed job counts as done.
    #[arg(long, requires = "resume")]
    pub retry_failed: bool,
}

/// The arguments that decide a grid's jobs and their results: a resumed run must have the same.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct PlanArgs {
    /// EPD suite to run (repeatable). Default: the suites of the grid file, or the built-in suite.
    #[arg(long = "suite", value_name = "PATH")]
    pub suites: Vec<PathBuf>,
    /// Presets, grid file, axes, engines, named players.
    #[command(flatten)]
    pub who: PlayersArgs,
    /// Search every position to this depth.
    #[arg(long, group = "limit", value_parser = depth, allow_hyphen_values = true)]
    pub depth: Option<i32>,
    /// Search every position for this many nodes.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Search every position for this many milliseconds (not reproducible: for time studies).
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node cap per job: a depth search stopped by it is recorded as `censored`. Default 20000000.
    #[arg(long)]
    pub node_cap: Option<u64>,
    /// Stop a search once a correct move has been best for K iterations (with --min-depth).
    #[arg(long, value_name = "K")]
    pub solved_for: Option<usize>,
    /// The early stop applies only from this depth on.
    #[arg(long, default_value_t = 1, value_parser = depth, allow_hyphen_values = true)]
    pub min_depth: i32,
    /// matetrack's solving rule for positions that state a mate length (`dm N` or `ce +MN`):
    /// solved means a mate in at most N moves, reported with a legal PV that ends in mate. Other
    /// positions keep the bm/am rule.
    #[arg(long)]
    pub mate: bool,
    /// Also measure each position's minimal tree at the depth searched (the project's engine; a
    /// fixed-depth search without --solved-for): the search re-run without the TT, its recorded
    /// best moves first, distinct nodes counted (`minimal_*` columns of runs.csv). Costs about 2 to
    /// 2.5 times the search (`minimal_ms`).
    #[arg(long)]
    pub minimal_tree: bool,
    /// Run only the I-th (from 0) of N deterministic slices of the jobs (`--shard 0/4` … `3/4`), or
    /// `--shard slurm` for the slice of a Slurm array task; `harness merge` joins the shards.
    #[arg(long, value_name = "I/N|slurm", value_parser = parse_shard)]
    pub shard: Option<lab::shard::Shard>,
    /// With --shard: cut the slices by the nodes each job took in an earlier run DIR of these jobs
    /// (longest first to the least loaded), instead of interleaving them.
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub cost_from: Option<PathBuf>,
}

impl PlanArgs {
    /// The plan arguments of a command that gives none (their defaults).
    pub fn none() -> Self {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            plan: PlanArgs,
        }
        Only::parse_from(["harness"]).plan
    }
}

/// Node cap per job unless told otherwise.
const DEFAULT_NODE_CAP: u64 = 20_000_000;
/// How long a UCI engine's depth- or node-limited search may take unless told otherwise.
const GRID_UCI_TIMEOUT: Duration = Duration::from_secs(600);
/// Depth when no limit is given at all.
const DEFAULT_DEPTH: i32 = 6;

/// Runs `harness grid`.
pub fn run(args: GridArgs) -> Result<ExitCode> {
    let args = with_recorded_plan(args)?;
    let plan = build_plan(&args)?;
    if args.run.dry_run {
        print!("{}", plan.describe());
        return Ok(ExitCode::SUCCESS);
    }
    let resume = args.run.resume.is_some();
    let planned = || plan.jobs().iter().map(|j| plan.job_key(j)).collect();
    let ended = run_flow::run(
        &plan.out,
        resume,
        |_| Manifest::new(&plan),
        |recorded: Option<&Manifest>| match recorded {
            Some(_) => Sink::resume(&plan.out, &plan.axes, args.retry_failed, &planned()),
            None => Sink::create(&plan.out, &plan.axes),
        },
        |sink| {
            announce(&plan, sink.done_count());
            lab::runner::run(&plan, sink, args.run.quiet)
        },
    )?;
    if let Ended::Interrupted(()) = ended {
        let kept = "every finished job is written";
        return Ok(run_flow::interrupted("grid", &plan.out, kept));
    }
    let (rows, answer) = lab::report::write_with_answer(&plan.out, None)?;
    let targets = plan.targets();
    print!("{}", lab::report::summary::table(&rows, targets));
    if targets < plan.positions() {
        println!(
            "solved counts the {targets} positions with a bm, am or mate to find; the other {} are searched for nodes and time only",
            plan.positions() - targets
        );
    }
    for line in &answer {
        println!("{line}");
    }
    let failed: usize = rows.iter().map(|r| r.failed).sum();
    if failed > 0 {
        eprintln!("warning: {failed} jobs failed (external engine crashed, hung or spoke garbage): reasons in runs.csv `failure` and report.md");
    }
    println!("results: {} (report.md, figures)", plan.out.display());
    Ok(ExitCode::SUCCESS)
}

/// What the run will do, before it starts.
fn announce(plan: &Plan, done: usize) {
    let shard = plan.shard.as_ref().map_or(String::new(), |p| {
        format!(" in shard {} ({} of all)", p.shard, p.jobs.len())
    });
    eprintln!(
        "{} jobs ({} configs × {} positions){shard}, {done} already done, {} threads → {}",
        plan.points.len() * plan.positions(),
        plan.points.len(),
        plan.positions(),
        plan.threads,
        plan.out.display()
    );
}

/// `--resume DIR` without plan arguments continues the plan recorded in DIR's manifest; with any,
/// those describe the plan (and `run` checks it is the recorded one). Run options are this
/// command's either way.
fn with_recorded_plan(args: GridArgs) -> Result<GridArgs> {
    let Some(dir) = &args.run.resume else {
        return Ok(args);
    };
    if args.plan != PlanArgs::none() {
        return Ok(args);
    }
    let manifest = Manifest::read(dir)?;
    let recorded: Box<GridArgs> = super::recorded(dir, &manifest.provenance.command)?;
    Ok(GridArgs {
        plan: recorded.plan,
        ..args
    })
}

/// Validates everything (grid, suites, limits, output) before any search.
fn build_plan(args: &GridArgs) -> Result<Plan> {
    let spec = grid_spec(args)?;
    let uci = args.uci.bounds(GRID_UCI_TIMEOUT);
    let Resolved {
        engines,
        points,
        columns,
    } = resolve(&spec, uci.handshake)?;
    let suites = suites::load(&suite_names(args, &spec))?;
    if suites.iter().all(|s| s.records.is_empty()) {
        bail!("the suites hold no readable position");
    }
    // A limit on the command line replaces the file's; without either, the default depth.
    let on_command_line =
        args.plan.depth.is_some() || args.plan.nodes.is_some() || args.plan.movetime.is_some();
    let (depth, nodes, movetime) = if on_command_line {
        (args.plan.depth, args.plan.nodes, args.plan.movetime)
    } else {
        (spec.depth, spec.nodes, spec.movetime)
    };
    let depth = depth.or((nodes.is_none() && movetime.is_none()).then_some(DEFAULT_DEPTH));
    let limits = JobLimits {
        depth,
        nodes,
        movetime_ms: movetime,
        node_cap: args
            .plan
            .node_cap
            .or(spec.node_cap)
            .unwrap_or(DEFAULT_NODE_CAP),
        solved_for: args.plan.solved_for,
        min_depth: args.plan.min_depth,
        mate: args.plan.mate,
        minimal_tree: args.plan.minimal_tree,
    };
    limits.check()?;
    let threads = lab::workers::resolve(args.run.threads)?;
    let out = args
        .run
        .resume
        .clone()
        .or_else(|| args.run.out.clone())
        .unwrap_or_else(|| default_out(&spec.name));
    let mut plan = Plan {
        name: spec.name.clone(),
        axes: columns,
        engines,
        uci,
        points,
        suites,
        limits,
        threads,
        out,
        shard: None,
    };
    if let Some(shard) = args.plan.shard {
        plan.shard = Some(ShardPart::of(&plan, shard, args.plan.cost_from.as_deref())?);
    }
    Ok(plan)
}

fn grid_spec(args: &GridArgs) -> Result<GridSpec> {
    let base = match &args.plan.who.grid {
        Some(path) => grid_file(path)?,
        None if args.plan.who.sets.is_empty()
            && args.plan.suites.is_empty()
            && args.plan.who.players.is_empty() =>
        {
            GridSpec::from_toml(DEFAULT_GRID).expect("the built-in grid is valid")
        }
        None => GridSpec {
            name: "grid".into(),
            preset: "fischerle".into(),
            ..GridSpec::default()
        },
    };
    let spec = with_overrides(
        base,
        args.plan.who.preset.as_deref(),
        &args.plan.who.sets,
        &args.plan.who.engines,
        &args.plan.who.players,
    )?;
    for axis in &spec.axes {
        axis.check_distinct()?;
    }
    Ok(spec)
}

/// Suites from `--suite`, else from the grid file, else the built-in ones.
fn suite_names(args: &GridArgs, spec: &GridSpec) -> Vec<String> {
    if !args.plan.suites.is_empty() {
        args.plan
            .suites
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    } else if !spec.suites.is_empty() {
        spec.suites.clone()
    } else {
        suites::builtin_names()
    }
}
