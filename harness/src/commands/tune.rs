//! `harness tune`: arguments → validated [`TunePlan`] → iterations (`tune::run`) → `tune.csv`,
//! report, `tuned.toml` → with `--verify`, a match of tuned against start on fresh openings.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use lab::engines::{self, EngineSpec};
use lab::run_dir::{default_out, MANIFEST};
use lab::run_flow::{self, Ended, RecordedPlan};
use play::arena::limits::{MoveLimit, DEFAULT_LIMIT};
use play::arena::openings::Book;
use play::tune::output::{TuneManifest, TuneSink};
use play::tune::params::{self, Base, UCI_KEY};
use play::tune::spsa::Schedule;
use play::tune::{report, verify, TunePlan, Tuned, UciBase};

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
        print!("{}", describe(&plan));
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
            Some(text) => parse_limit(text, "--verify-limit")?,
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
    let command = super::recorded(dir, &manifest.provenance.command)?;
    let super::Command::Tune(recorded) = command else {
        bail!(
            "{}/{MANIFEST} does not record a tune command",
            dir.display()
        );
    };
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
    let command = super::recorded(&dir, &manifest.provenance.command)?;

    let super::Command::Tune(recorded) = command else {
        bail!(
            "{}/{MANIFEST} does not record a tune command",
            dir.display()
        );
    };
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
    let spec = lab::grid::files::grid_file(path)?;
    if !spec.axes.is_empty() {
        bail!(
            "--grid {}: a tune starts from one player; the file has axes ([axes])",
            path.display()
        );
    }
    if spec.engines.len() > 1 {
        bail!(
            "--grid {}: a tune starts from one player; the file names {} engines",
            path.display(),
            spec.engines.len()
        );
    }
    // One named player may be the start: its base and settings, after the file's own.
    let named = match &spec.players[..] {
        [] => None,
        [one] => Some(one),
        many => bail!(
            "--grid {}: a tune starts from one player; the file names {} ([[players]])",
            path.display(),
            many.len()
        ),
    };
    let fixed = spec.fixed.iter().chain(named.iter().flat_map(|p| &p.set));
    let fixed = fixed.map(|(k, v)| format!("{k}={v}"));
    let preset = named
        .and_then(|p| p.preset.clone())
        .unwrap_or(spec.preset.clone());
    let engine = named.and_then(|p| p.engine.clone());
    Ok(TuneArgs {
        preset: args.preset.clone().or(Some(preset)),
        engine: args
            .engine
            .clone()
            .or(engine)
            .or(spec.engines.first().cloned()),
        sets: fixed.chain(args.sets.iter().cloned()).collect(),
        params: spec.params.iter().chain(&args.params).cloned().collect(),
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
    let (tuned, base, base_name) = tuned_player(args, &fixed, uci)?;
    let mut params = Vec::new();
    for text in &args.params {
        let p = params::parse(text, &base)?;
        if params
            .iter()
            .any(|q: &play::tune::spsa::Param| q.key == p.key)
        {
            bail!("--param {}: given twice", p.key);
        }
        params.push(p);
    }
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    if args.pairs_per_iteration == 0 {
        bail!("--pairs-per-iteration must be at least 1");
    }
    let limit = match &args.limit {
        Some(text) => parse_limit(text, "--limit")?,
        None => DEFAULT_LIMIT,
    };
    if let Some(text) = &args.verify_limit {
        parse_limit(text, "--verify-limit")?;
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

/// A per-move limit as `match --limit` reads it.
fn parse_limit(text: &str, option: &str) -> Result<MoveLimit> {
    text.parse()
        .map_err(|e: String| anyhow::anyhow!("{option} {text}: {e}"))
}

/// The player tuned, what its parameters are checked against, and its name for `tuned.toml`.
fn tuned_player(
    args: &TuneArgs,
    fixed: &[(String, String)],
    slack: lab::uci::bounds::UciBounds,
) -> Result<(Tuned, Base, String)> {
    let engine = args
        .engine
        .clone()
        .unwrap_or_else(|| lab::engines::BUILTIN.to_string());
    let engines = engines::resolve(&[engine], slack.handshake)?;
    match engines.into_iter().next() {
        Some(spec @ EngineSpec::Uci { .. }) => {
            if let Some((key, _)) = fixed.iter().find(|(k, _)| !k.starts_with(UCI_KEY)) {
                bail!("--set {key}: a UCI engine takes `uci.NAME=V` settings");
            }
            let options = spec
                .uci_options(fixed.iter().map(|(k, v)| (k, v)))
                .map_err(|e| anyhow::anyhow!("--set {e}"))?;
            let EngineSpec::Uci {
                path,
                identity,
                label,
            } = spec
            else {
                unreachable!("matched as UCI")
            };
            let base = Base::Uci {
                declared: identity.declared.clone(),
            };
            Ok((
                Tuned::Uci(UciBase {
                    path,
                    options,
                    slack,
                }),
                base,
                label,
            ))
        }
        _ => {
            let preset = args.preset.as_deref().unwrap_or("fischerle");
            let config = engine::SearchConfig::with_settings(preset, fixed.iter().cloned())
                .context("--preset and --set")?;
            config.validate().context("the configuration tuned")?;
            let base = Base::Builtin(Box::new(config.clone()));
            Ok((Tuned::Builtin(config), base, preset.to_string()))
        }
    }
}

/// The plan in words (`--dry-run`).
fn describe(plan: &TunePlan) -> String {
    let mut out = format!("tune        {}\n", plan.name);
    for p in &plan.params {
        out += &format!(
            "param       {} start {} in [{}, {}], C_END {}, R_END {}{}\n",
            p.key,
            p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end,
            if p.integer { ", integer" } else { "" }
        );
    }
    out += &format!(
        "iterations  {} × {} pairs ({} games), limit {}\n",
        plan.schedule.iterations,
        plan.pairs_per_iteration,
        2 * plan.total_pairs(),
        plan.limit
    );
    out += &format!(
        "openings    {} ({} positions) from offset {}\nrules       {}\nthreads     {}\nout         {}\n",
        plan.book.source,
        plan.book.openings.len(),
        plan.seed,
        plan.rules,
        plan.threads,
        plan.out.display()
    );
    out
}
