//! `harness match`: arguments → validated [`MatchPlan`] → games → PGN, CSVs, manifest → report.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use engine::Variant;
use lab::grid::files::{grid_file, with_overrides};
use lab::grid::GridSpec;
use lab::run_dir::default_out;
use lab::run_flow::{self, Ended};
use play::arena::ladder::Ladder;
use play::arena::manifest::MatchManifest;
use play::arena::plan::{job_range, MatchPlan, PlayerEntry, Schedule};
use play::arena::report::print_results;
use play::arena::setup::PlayerSetup;
use play::factorial::Design;

use crate::cli::{parse_shard, BookArgs, MatchSprtArgs, PlayersArgs, RulesArgs, RunArgs};

/// `harness match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The players: each configuration of the grid (the first is the baseline), or the named
    /// players.
    #[command(flatten)]
    pub who: PlayersArgs,
    /// The baseline player (`p00`, …, or a named player's name). Default: the first.
    #[arg(long, value_name = "ID")]
    pub baseline: Option<String>,
    /// Every player against every other, instead of the baseline against each.
    #[arg(long)]
    pub round_robin: bool,
    /// A factorial design over the base player: `KEY` (a switch or boolean) or `KEY=OFF/ON`,
    /// comma-separated, at least two; every point is a named player, in a round robin, and the
    /// report fits main effects and two-factor interactions (`effects.csv`).
    #[arg(long, value_name = "KEY[=OFF/ON],...", value_delimiter = ',')]
    pub factorial: Vec<String>,
    /// With --factorial: play the 2^(k−P) fraction of resolution ≥ V from the standard tables
    /// (k = 5, 6, 7: P = 1; k = 8, 9: 2; k = 10: 3). Default 0, the full design.
    #[arg(long, value_name = "P", default_value_t = 0, requires = "factorial")]
    pub fraction: usize,
    /// A budget ladder `KEY=V1,V2,…` (`nodes=2000,8000,32000`, or depth, movetime, tc): the
    /// match once per limit, each in its own directory, and each effect (or joint rating)
    /// compared across them with its trend per doubling of the budget.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub ladder: Option<String>,
    /// Per-move limit, `nodes=N`, `depth=D`, `movetime=MS` or `tc=BASE+INC` (seconds); prefix
    /// `ID:` for one player's own (`--limit p01:nodes=10000`). Default `nodes=5000`.
    #[arg(long = "limit", value_name = "[ID:]LIMIT")]
    pub limits: Vec<String>,
    /// The opening book and how it is read.
    #[command(flatten)]
    pub book: BookArgs,
    /// Where in the book pair 1 starts: reruns with one seed play the same openings, shards
    /// with different seeds disjoint ones.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Play more game pairs than the book has openings at a fixed node or depth limit: the
    /// openings played again replay the same games (refused without this flag).
    #[arg(long)]
    pub repeat_openings: bool,
    /// Play only the I-th (from 0) of N disjoint ranges of the game pairs, in job order
    /// (`--shard 0/4` … `3/4`, or `slurm`); `harness merge` joins them. Not with --sprt.
    #[arg(long, value_name = "I/N|slurm", value_parser = parse_shard)]
    pub shard: Option<lab::shard::Shard>,
    /// Game pairs per pairing (at most, with --sprt).
    #[arg(long, default_value_t = 100)]
    pub pairs: u64,
    /// How games end: ply limit and adjudication.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The sequential test per pairing.
    #[command(flatten)]
    pub test: MatchSprtArgs,
    /// Pin worker thread i (and the engines it starts) to the i-th core of CPU-LIST (`0,1` or
    /// `0-3`), as fastchess's -use-affinity; at least as many cores as --threads.
    #[arg(long, value_name = "CPU-LIST")]
    pub affinity: Option<String>,
    /// Scale every clock and movetime by REF_NPS / this machine's `harness bench` NPS (median of
    /// 5, measured when the match starts and recorded; a resume keeps it), as fishtest scales its
    /// workers' clocks, so a time control means the same search on any machine.
    #[arg(long, value_name = "REF_NPS")]
    pub nps_scale: Option<f64>,
    /// Name of the match (PGN Event, output directory).
    #[arg(long, default_value = "match")]
    pub name: String,
    /// How long UCI players may take.
    #[command(flatten)]
    pub uci: crate::cli::UciBoundsArgs,
    /// Output, resume (after the last complete pair), threads, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// How long a UCI player's depth- or node-limited move may take unless told otherwise.
const MATCH_UCI_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `harness match`.
pub fn run(args: MatchArgs) -> Result<ExitCode> {
    let args = with_recorded_args(args)?;
    let plan = build_plan(&args)?;
    let ladder = args
        .ladder
        .as_deref()
        .map(|spec| {
            let stops_early = args.test.stops_early() || args.shard.is_some();
            Ladder::for_match(spec, &plan, !args.limits.is_empty(), stops_early)
        })
        .transpose()?;
    if args.run.dry_run {
        print!("{}", plan.describe());
        if let Some(l) = &ladder {
            println!("ladder      {}", l.rungs.join(", "));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(ladder) = ladder {
        return run_ladder(&args, plan, ladder);
    }
    let ended = play::arena::run::play(&plan, args.run.resume.is_some(), args.run.quiet)?;
    let summary = match ended {
        Ended::Completed(summary) => summary,
        Ended::Interrupted(summary) => {
            let kept = format!(
                "{} more pairs played, every written pair is complete",
                summary.pairs_written
            );
            return Ok(run_flow::interrupted("match", &plan.out, &kept));
        }
    };
    print_results(&play::arena::report::write(&plan.out)?);
    if let Some(speed) = summary.speed(plan.threads) {
        println!("{speed}");
    }
    println!(
        "results: {} (games.pgn, games.csv, moves.csv, report.md)",
        plan.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `--resume DIR` alone continues with the arguments recorded in DIR's manifest.
fn with_recorded_args(args: MatchArgs) -> Result<MatchArgs> {
    let Some(dir) = args.run.resume.clone() else {
        return Ok(args);
    };
    let command = match Ladder::read(&dir)? {
        Some(ladder) => ladder.command,
        None => MatchManifest::read(&dir)?.provenance.command,
    };
    let recorded: Box<MatchArgs> = super::recorded(&dir, &command)?;
    // Where the games run is this command's too (like the threads): it changes no result.
    let affinity = args.affinity.clone().or(recorded.affinity.clone());
    Ok(MatchArgs {
        run: args.run.resuming(dir, &recorded.run),
        affinity,
        // A run recorded before the check existed may need the flag to resume.
        repeat_openings: args.repeat_openings || recorded.repeat_openings,
        ..*recorded
    })
}

/// Validates everything before the first game.
fn build_plan(args: &MatchArgs) -> Result<MatchPlan> {
    let (spec, factorial) = match_spec(args)?;
    let threads = lab::workers::resolve(args.run.threads)?;
    let mut players = match_players(args, &spec, threads)?;
    // Measured after every check of the players: it takes seconds.
    let nps_scale = play::arena::setup::nps_scale(args.nps_scale, args.run.resume.as_deref())?;
    if let Some(s) = nps_scale {
        for p in &mut players {
            p.limit = p.limit.scaled(s.factor());
        }
    }
    let schedule = if args.round_robin || factorial.is_some() {
        Schedule::RoundRobin
    } else {
        Schedule::Gauntlet
    };
    if args.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    let pairings = MatchPlan::pairings_of(schedule, players.len());
    let stops_early = args.test.stops_early();
    let range = job_range(args.shard, args.pairs * pairings.len() as u64, stops_early)?;
    let plan = MatchPlan {
        name: args.name.clone(),
        pairings,
        players,
        schedule,
        pairs: args.pairs,
        book: args.book.open()?,
        offset: args.seed,
        rules: args.rules.rules()?,
        sprt: args.test.sprt()?,
        threads,
        out: args
            .run
            .resume
            .clone()
            .or_else(|| args.run.out.clone())
            .unwrap_or_else(|| default_out(&args.name)),
        range,
        shard: args.shard,
        factorial,
        nps_scale,
        affinity: args
            .affinity
            .as_deref()
            .map(|list| play::arena::affinity::parse(list, threads))
            .transpose()?,
    };
    // A ladder sets the limits rung by rung (not checked here: a clock rung repeats no game).
    if !args.repeat_openings && args.ladder.is_none() {
        plan.check_replays()?;
    }
    Ok(plan)
}

/// The match's players as a spec (a match file, overridden by the command line) and, for a
/// factorial design, the design whose players replace the spec's.
fn match_spec(args: &MatchArgs) -> Result<(GridSpec, Option<Design>)> {
    let base = match &args.who.grid {
        Some(path) => grid_file(path)?,
        None => GridSpec {
            name: args.name.clone(),
            preset: "fischerle".into(),
            ..GridSpec::default()
        },
    };
    let mut spec = with_overrides(
        base,
        args.who.preset.as_deref(),
        &args.who.sets,
        &args.who.engines,
        &args.who.players,
    )?;
    let factorial = factorial_design(args, &spec)?;
    if let Some(design) = &factorial {
        spec.players = design.players();
    }
    Ok((spec, factorial))
}

/// The players resolved and checked, with their limits (before any NPS scaling), the baseline
/// first.
fn match_players(args: &MatchArgs, spec: &GridSpec, threads: usize) -> Result<Vec<PlayerEntry>> {
    if args.book.variant == Variant::Chess960 && args.book.openings.is_none() {
        bail!("--variant chess960 needs a book of Chess960 positions (--openings FILE.epd; `harness suite make --dfrc N` makes one): the project's book is standard chess");
    }
    // A preset's clock unless the command line gives limits.
    let limits = match args.test.sprt_preset {
        Some(preset) if args.limits.is_empty() => vec![preset.clock().to_string()],
        _ => args.limits.clone(),
    };
    let setup = PlayerSetup {
        variant: args.book.variant,
        limits: &limits,
        baseline: args.baseline.as_deref(),
        slack: args.uci.bounds(MATCH_UCI_TIMEOUT),
        games_at_once: threads,
    };
    play::arena::setup::players(spec, &setup)
}

/// Plays each rung in its own directory (resuming a started one), then the ladder's report.
fn run_ladder(args: &MatchArgs, plan: MatchPlan, ladder: Ladder) -> Result<ExitCode> {
    let Some(trends) = play::arena::run::play_ladder(&plan, &ladder, args.run.quiet)? else {
        let kept = "every written pair of every rung is complete";
        return Ok(run_flow::interrupted("match", &plan.out, kept));
    };
    for t in trends {
        println!(
            "{}: {:+.1} ± {:.1} Elo per doubling (p {:.3}, Holm across the ladder)",
            t.effect,
            t.slope,
            lab::elo::Z95 * t.se,
            t.p_holm
        );
    }
    println!(
        "results: {} (report.md, ladder.csv, one directory per rung)",
        plan.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `--factorial`: the design over the one base player the rest of the command line describes.
fn factorial_design(args: &MatchArgs, spec: &GridSpec) -> Result<Option<Design>> {
    if args.factorial.is_empty() {
        return Ok(None);
    }
    Design::over(spec, &args.factorial, args.fraction).map(Some)
}
