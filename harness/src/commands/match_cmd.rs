//! `harness match`: arguments → validated [`MatchPlan`] → games → PGN, CSVs, manifest → report.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::Variant;
use lab::elo::sprt::Sprt;
use lab::engines::EngineSpec;
use lab::grid::files::{grid_file, with_overrides};
use lab::grid::resolve::{resolve, Resolved};
use lab::grid::{GridPoint, GridSpec, Player};
use lab::run_dir::default_out;
use lab::run_flow::{self, Ended};
use lab::uci::bounds::UciBounds;
use play::arena::ladder::Ladder;
use play::arena::limits::{MoveLimit, NpsScale};
use play::arena::manifest::MatchManifest;
use play::arena::openings::{Book, BookOptions};
use play::arena::plan::{MatchPlan, PlayerEntry, Schedule};
use play::arena::player::PlayerKind;
use play::arena::report::print_results;
use play::factorial::Design;

use crate::cli::{parse_shard, PlayersArgs, RulesArgs, RunArgs, SprtOptions};

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
    /// Opening book, EPD or PGN (the position after each game). Default: the project's book.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The book's order: `sequential` (file order) or `random` (a fixed shuffle of the book,
    /// seeded by its SHA-256; `--seed` still picks disjoint stretches of it).
    #[arg(long, value_enum, default_value = "sequential")]
    pub order: play::arena::openings::Order,
    /// PGN books: start from the position after this many plies of each game (default: after
    /// all its moves).
    #[arg(long, value_name = "N")]
    pub plies: Option<usize>,
    /// `standard` or `chess960` (also DFRC): a Chess960 match reads an EPD book of Shredder-FEN
    /// or X-FEN positions, tells UCI players `UCI_Chess960` (refusing one that does not declare
    /// it) and writes PGN with `[Variant "Chess960"]`.
    #[arg(long, default_value = "standard", value_name = "VARIANT")]
    pub variant: engine::Variant,
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
    /// Sequential test `ELO0,ELO1` per pairing: it stops when the LLR leaves Wald's bounds.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// Pin worker thread i (and the engines it starts) to the i-th core of CPU-LIST (`0,1` or
    /// `0-3`), as fastchess's -use-affinity; at least as many cores as --threads.
    #[arg(long, value_name = "CPU-LIST")]
    pub affinity: Option<String>,
    /// Scale every clock and movetime by REF_NPS / this machine's `harness bench` NPS (median of
    /// 5, measured when the match starts and recorded; a resume keeps it), as fishtest scales its
    /// workers' clocks, so a time control means the same search on any machine.
    #[arg(long, value_name = "REF_NPS")]
    pub nps_scale: Option<f64>,
    /// fishtest's test: `stc` ([0, 2] nElo at 10 + 0.1), `ltc` ([0.5, 2.5] at 60 + 0.6) or
    /// `nonreg` ([−1.75, 0.25] at 10 + 0.1), α = β = 0.05; its clock unless --limit is given.
    /// Recipe: run the LTC only after the STC passed.
    #[arg(long, value_enum, conflicts_with_all = ["sprt", "alpha", "beta", "model"])]
    pub sprt_preset: Option<lab::elo::sprt_setup::SprtPreset>,
    /// The SPRT's error rates and model.
    #[command(flatten)]
    pub sprt_options: SprtOptions,
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
        .map(|s| ladder_plan(&args, &plan, s))
        .transpose()?;
    if args.run.dry_run {
        print!("{}", plan.describe());
        if let Some(d) = &plan.factorial {
            println!("design      {}", d.describe());
        }
        if let Some(s) = plan.nps_scale {
            println!(
                "nps-scale   reference {:.0}, this machine {:.0} nodes/s: times × {:.3}",
                s.reference,
                s.measured,
                s.factor()
            );
        }
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
    if summary.pairs_written > 0 {
        println!(
            "{} pairs in {:.1} s ({:.0} games per minute); inside searches: {:.1} % of the workers' time, {:.1} % of wall time × threads",
            summary.pairs_written,
            summary.wall_s,
            2.0 * summary.pairs_written as f64 / summary.wall_s.max(1e-9) * 60.0,
            100.0 * summary.search_ms / summary.busy_ms.max(1e-9),
            100.0 * summary.search_ms / (1e3 * summary.wall_s * plan.threads as f64).max(1e-9)
        );
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
    let command = super::recorded(&dir, &command)?;

    let super::Command::Match(recorded) = command else {
        bail!(
            "{}/manifest.json does not record a match command",
            dir.display()
        );
    };
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
    let nps_scale = nps_scale(args)?;
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
    let range = job_range(args, args.pairs * pairings.len() as u64)?;
    let plan = MatchPlan {
        name: args.name.clone(),
        pairings,
        players,
        schedule,
        pairs: args.pairs,
        book: book(args)?,
        offset: args.seed,
        rules: args.rules.rules()?,
        sprt: sprt(args)?,
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
    let checked = !args.repeat_openings && args.ladder.is_none();
    if let Some((needed, distinct)) = plan.replayed_openings().filter(|_| checked) {
        bail!(
            "each pairing needs {needed} openings but {} gives it {distinct}: at a fixed node or depth limit \
             an opening played again replays the same two games, which would count as new evidence; \
             play at most {distinct} pairs, give a larger book with --openings, or pass \
             --repeat-openings to play them anyway",
            plan.book.source
        );
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
    let slack = args.uci.bounds(MATCH_UCI_TIMEOUT);
    let Resolved {
        engines,
        points,
        columns,
    } = resolve(spec, slack.handshake)?;
    let mut players: Vec<PlayerEntry> = points
        .iter()
        .enumerate()
        .map(|(i, p)| player_entry(i, p, &columns, &engines, &spec.preset, slack))
        .collect();
    // Before any reordering: players[i] is points[i].
    if args.variant == Variant::Chess960 {
        if args.openings.is_none() {
            bail!("--variant chess960 needs a book of Chess960 positions (--openings FILE.epd; `harness suite make --dfrc N` makes one): the project's book is standard chess");
        }
        tell_chess960(&mut players, &points, &engines)?;
    }
    warn_oversubscribed(&players, &points, &engines, threads);
    if players.len() < 2 {
        bail!(
            "a match needs at least two players, found {}: give an axis (--set KEY=A,B), more engines (--engine) or named players (--player)",
            players.len()
        );
    }
    // A preset's clock unless the command line gives limits.
    let limits = match args.sprt_preset {
        Some(preset) if args.limits.is_empty() => vec![preset.clock().to_string()],
        _ => args.limits.clone(),
    };
    apply_limits(&mut players, &limits)?;
    if let Some(id) = &args.baseline {
        baseline_first(&mut players, id, !spec.players.is_empty())?;
    }
    Ok(players)
}

/// Moves the player `id` (or, with named players, the one named so) to the front.
fn baseline_first(players: &mut Vec<PlayerEntry>, id: &str, named: bool) -> Result<()> {
    let i = players
        .iter()
        .position(|p| p.id == id || (named && p.name == id));
    let i = i.with_context(|| {
        let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
        format!(
            "--baseline {id} is not a player (expected one of {})",
            ids.join(", ")
        )
    })?;
    let baseline = players.remove(i);
    players.insert(0, baseline);
    Ok(())
}

/// The opening book, with a warning for games shorter than `--plies`.
fn book(args: &MatchArgs) -> Result<Book> {
    let options = BookOptions {
        order: args.order,
        plies: args.plies,
        variant: args.variant,
    };
    let book = match &args.openings {
        Some(path) => Book::read_with(path, options)?,
        None => Book::builtin_with(options)?,
    };
    if book.too_short > 0 {
        eprintln!(
            "warning: {} of the {} games of {} are shorter than --plies {}: they start from their final position",
            book.too_short,
            book.openings.len(),
            book.source,
            args.plies.unwrap_or(0)
        );
    }
    Ok(book)
}

/// The jobs this run plays: all of them, or its shard's range.
fn job_range(args: &MatchArgs, jobs: u64) -> Result<std::ops::Range<u64>> {
    if args.shard.is_some() && (args.sprt.is_some() || args.sprt_preset.is_some()) {
        bail!("--shard plays fixed ranges of pairs and --sprt stops a pairing early: give one (a merged run reports Elo and the LLR of all its games)");
    }
    Ok(args.shard.map_or(0..jobs, |s| {
        let r = s.range(jobs as usize);
        r.start as u64..r.end as u64
    }))
}

/// `--nps-scale REF`: this machine's speed, measured now — or, for a resumed match, as recorded,
/// so the clocks of its remaining games are those of its first.
fn nps_scale(args: &MatchArgs) -> Result<Option<NpsScale>> {
    let Some(reference) = args.nps_scale else {
        return Ok(None);
    };
    if !(reference.is_finite() && reference > 0.0) {
        bail!("--nps-scale expects the reference's nodes per second, above 0; found {reference}");
    }
    let recorded = args
        .run
        .resume
        .as_ref()
        .and_then(|dir| MatchManifest::read(dir).ok())
        .and_then(|m| m.nps_scale);
    let measured = match recorded {
        Some(r) => r.measured,
        None => lab::bench::machine_nps(5),
    };
    Ok(Some(NpsScale {
        reference,
        measured,
    }))
}

/// `--ladder`: its rungs, checked against the rest of the plan before any game.
fn ladder_plan(args: &MatchArgs, plan: &MatchPlan, spec: &str) -> Result<Ladder> {
    if !args.limits.is_empty() {
        bail!("--ladder sets every player's limit, rung by rung: give no --limit");
    }
    if args.sprt.is_some() || args.sprt_preset.is_some() || args.shard.is_some() {
        bail!("--ladder plays every rung to its full number of pairs: give no --sprt or --shard");
    }
    if plan.players.len() < 3 && plan.factorial.is_none() {
        bail!("--ladder compares joint ratings or factorial effects across budgets: give three or more players, or --factorial");
    }
    let mut ladder = Ladder::parse(spec)?;
    if let Some(recorded) = Ladder::read(&plan.out)? {
        ladder.command = recorded.command;
    }
    Ok(ladder)
}

/// Plays each rung in its own directory (resuming a started one), then the ladder's report.
fn run_ladder(args: &MatchArgs, plan: MatchPlan, ladder: Ladder) -> Result<ExitCode> {
    ladder.write(&plan.out)?;
    for rung in &ladder.rungs {
        let limit: MoveLimit = rung.parse().map_err(anyhow::Error::msg)?;
        let mut p = plan.clone();
        p.out = Ladder::rung_dir(&plan.out, rung);
        p.players.iter_mut().for_each(|player| player.limit = limit);
        let resume = p.out.join(lab::run_dir::MANIFEST).exists();
        if !args.run.quiet {
            println!("== rung {rung} → {}", p.out.display());
        }
        if let Ended::Interrupted(_) = play::arena::run::play(&p, resume, args.run.quiet)? {
            let kept = "every written pair of every rung is complete";
            return Ok(run_flow::interrupted("match", &plan.out, kept));
        }
        play::arena::report::write(&p.out)?;
    }
    for t in play::arena::ladder::report(&plan.out, &ladder)? {
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
    if !spec.players.is_empty() {
        bail!("--factorial makes the players from the design's points: give no named players (--player, [[players]])");
    }
    let points = spec.expand()?;
    let [point] = &points[..] else {
        bail!(
            "--factorial varies one base player, but the axes give {} configurations: give each --set one value",
            points.len()
        );
    };
    let Some(base) = point.config() else {
        bail!("--factorial varies the builtin engine's keys: the base player must be builtin");
    };
    Design::new(&args.factorial, args.fraction, base)
        .map(Some)
        .map_err(anyhow::Error::msg)
}

fn player_entry(
    i: usize,
    point: &GridPoint,
    columns: &[String],
    engines: &[EngineSpec],
    preset: &str,
    slack: UciBounds,
) -> PlayerEntry {
    let values: Vec<String> = columns
        .iter()
        .zip(&point.values)
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            if k == lab::grid::ENGINE_AXIS || k == lab::grid::players::PLAYER_COLUMN {
                v.clone()
            } else {
                format!("{k}={v}")
            }
        })
        .collect();
    let (kind, description, default_name) = match &point.player {
        Player::Builtin(config) => (
            PlayerKind::Builtin(config.clone()),
            serde_json::to_value(config).expect("configs serialise"),
            preset.to_string(),
        ),
        Player::Uci { engine, options } => {
            let EngineSpec::Uci {
                label,
                path,
                identity,
            } = &engines[*engine]
            else {
                unreachable!("UCI players name UCI engines")
            };
            let described: serde_json::Map<String, serde_json::Value> = options
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            (
                PlayerKind::Uci {
                    path: path.clone(),
                    options: options.clone(),
                    slack,
                },
                serde_json::json!({"engine": label, "path": path, "name": identity.name, "options": described}),
                label.clone(),
            )
        }
    };
    PlayerEntry {
        id: format!("p{i:02}"),
        name: if values.is_empty() {
            default_name
        } else {
            values.join(" ")
        },
        kind,
        limit: play::arena::limits::DEFAULT_LIMIT,
        description,
    }
}

/// A Chess960 match: every UCI player is told `UCI_Chess960 true` (castling written
/// king-takes-rook, Shredder-FEN positions); an engine that does not declare it is refused.
fn tell_chess960(
    players: &mut [PlayerEntry],
    points: &[GridPoint],
    engines: &[EngineSpec],
) -> Result<()> {
    for (player, point) in players.iter_mut().zip(points) {
        let Player::Uci { engine, .. } = &point.player else {
            continue;
        };
        let spec = &engines[*engine];
        let name = spec
            .declared(UCI_CHESS960)
            .map(|d| d.name.clone())
            .with_context(|| {
                format!(
                    "--variant chess960: UCI engine `{}` does not declare {UCI_CHESS960}, so it cannot be told that castling is written king-takes-rook",
                    spec.label()
                )
            })?;
        if let PlayerKind::Uci { options, .. } = &mut player.kind {
            options.retain(|(k, _)| k != &name);
            options.push((name.clone(), "true".into()));
        }
        player.description["options"][&name] = serde_json::Value::String("true".into());
    }
    Ok(())
}

/// Warns when a UCI player's own search threads (its `Threads` as set, else as declared) times
/// the games played at once exceed the machine's cores: such an engine loses time to the
/// scheduler, not to its search (Glaurung 2.2, 2 threads by default, lost 31 of 40 games on time
/// at 2 s + 0.02 s on 2 cores with 2 games at once; none with `uci.Threads=1`).
fn warn_oversubscribed(
    players: &[PlayerEntry],
    points: &[GridPoint],
    engines: &[EngineSpec],
    games: usize,
) {
    let cores = lab::workers::logical_cpus();
    for (player, point) in players.iter().zip(points) {
        let (Player::Uci { engine, .. }, PlayerKind::Uci { options, .. }) =
            (&point.player, &player.kind)
        else {
            continue;
        };
        let Some(decl) = engines[*engine].declared(THREADS) else {
            continue;
        };
        let set = options
            .iter()
            .find(|(k, _)| k == &decl.name)
            .map(|(_, v)| v);
        let own: usize = set
            .or(decl.default.as_ref())
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        if own * games > cores {
            eprintln!(
                "warning: {} ({}) searches with {own} threads while the match plays {games} at once: {} threads on {cores} cores, so its clock pays for the scheduler (set uci.{THREADS}=1 or --threads {})",
                player.id,
                player.name,
                own * games,
                (cores / own).max(1)
            );
        }
    }
}

/// The UCI option of an engine's search threads.
const THREADS: &str = "Threads";

/// The UCI option that switches an engine to Chess960 notation.
const UCI_CHESS960: &str = "UCI_Chess960";

/// `--limit [ID:]LIMIT`: without an id for every player, with one for that player (later wins).
fn apply_limits(players: &mut [PlayerEntry], specs: &[String]) -> Result<()> {
    for spec in specs {
        let (who, text) = match spec.split_once(':') {
            Some((id, rest)) if id.starts_with('p') && !id.contains('=') => (Some(id), rest),
            _ => (None, spec.as_str()),
        };
        let limit: MoveLimit = text
            .parse()
            .map_err(|e: String| anyhow::anyhow!("--limit {spec}: {e}"))?;
        match who {
            None => players.iter_mut().for_each(|p| p.limit = limit),
            Some(id) => {
                let p = players.iter_mut().find(|p| p.id == id).with_context(|| {
                    format!("--limit {spec}: no player `{id}` (players are p00, p01, …)")
                })?;
                p.limit = limit;
            }
        }
    }
    Ok(())
}

fn sprt(args: &MatchArgs) -> Result<Option<Sprt>> {
    if let Some(preset) = args.sprt_preset {
        return Ok(Some(preset.sprt()));
    }
    let parse =
        |text: &String| lab::elo::sprt_setup::parse("--sprt", text, args.sprt_options.rates());
    args.sprt.as_ref().map(parse).transpose()
}
