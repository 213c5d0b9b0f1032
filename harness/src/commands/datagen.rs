//! `harness datagen`: arguments → validated [`DatagenPlan`] (or the one a run directory
//! recorded, with more chunks or threads) → chunks → `chunks.csv`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use lab::run_dir::{check_fresh_out, MANIFEST};
use lab::run_flow::{self, Ended, RecordedPlan};
use play::datagen::{
    self, DatagenManifest, DatagenPlan, Openings, PlayerSpec, RandomPlies, CHUNKS_CSV,
};

use crate::cli::{key_values, parse_shard, RulesArgs, RunArgs};

/// `harness datagen`.
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// The builtin player's preset (each with what it adds: `--help`).
    #[arg(long, default_value = "swift", conflicts_with = "engine", value_parser = crate::cli::preset_parser())]
    pub preset: String,
    /// `KEY=VALUE` changes to the preset, in order (`--set eval.mobility=on`).
    #[arg(long = "set", value_name = "KEY=VALUE", conflicts_with = "engine")]
    pub sets: Vec<String>,
    /// A UCI engine plays instead of the builtin one (`uci:PATH`); its `info score` is recorded.
    #[arg(long, value_name = "uci:PATH")]
    pub engine: Option<String>,
    /// A UCI option `NAME=VALUE` for `--engine` (repeatable; `Threads` is 1 unless given).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "engine")]
    pub options: Vec<String>,
    /// The hard node cap of every search.
    #[arg(long, default_value_t = datagen::DEFAULT_NODES)]
    pub nodes: u64,
    /// Chunks in the run; with --resume, a larger number adds chunks (the same seeds go on).
    #[arg(long, required_unless_present = "resume")]
    pub chunks: Option<u64>,
    /// Games per chunk.
    #[arg(long, default_value_t = datagen::DEFAULT_GAMES_PER_CHUNK)]
    pub games_per_chunk: u32,
    /// The run's seed (chunk k's seed is derived from it and k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies from the start position, `MIN-MAX` (each game draws uniformly).
    #[arg(
        long,
        value_name = "MIN-MAX",
        default_value = "8-9",
        conflicts_with = "book"
    )]
    pub random_plies: String,
    /// Start from a book's openings (EPD or PGN) in order instead of random plies.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Drop openings whose verification search (the player's, at the node cap) scores beyond
    /// ±CP; 0 keeps every opening.
    #[arg(long, value_name = "CP", default_value_t = datagen::DEFAULT_MAX_OPENING_CP)]
    pub max_opening_cp: i32,
    /// Adjudication: any of these replaces the default (resign at 1,000 cp for 4 moves, draw
    /// within ±10 cp for 8 moves from move 40, 400 plies at most).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Play only chunk k with k mod N = I (`--shard 0/4` … `3/4`), or `slurm` for a Slurm array
    /// task; each shard writes its own directory and `train` reads them all.
    #[arg(long, value_name = "I/N|slurm", value_parser = parse_shard)]
    pub shard: Option<lab::shard::Shard>,
    /// Worker threads (chunks side by side), output, resume, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `harness datagen`.
pub fn run(args: DatagenArgs) -> Result<ExitCode> {
    let (plan, resuming) = match &args.run.resume {
        Some(dir) => (resumed(dir, &args)?, true),
        None => (build_plan(&args)?, false),
    };
    let (todo, done) = datagen::run::todo(&plan)?;
    eprintln!(
        "{} chunks × {} games{}, {done} already done, {} threads, {} nodes a move → {}",
        plan.chunk_indices().len(),
        plan.games_per_chunk,
        plan.shard
            .map_or(String::new(), |s| format!(" in shard {s}")),
        plan.threads,
        plan.nodes,
        plan.out.display()
    );
    if args.run.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    let manifest = DatagenManifest::new(plan.clone())?;
    let bar = lab::progress::Progress::new(todo.len() as u64, args.run.quiet);
    let work = |()| datagen::run::run(&plan, |_| bar.job_done());
    let (Ended::Completed(summary) | Ended::Interrupted(summary)) =
        run_flow::run(&plan.out, resuming, |_| manifest, |_| Ok(()), work)?;
    bar.finish();
    println!(
        "{} chunks played ({} positions, {:.0} a second), {} done before, {} left → {}",
        summary.played,
        summary.positions,
        summary.positions as f64 / summary.seconds.max(1e-9),
        summary.done_before,
        summary.left,
        plan.out.join(CHUNKS_CSV).display()
    );
    if summary.left > 0 {
        eprintln!(
            "resume with: harness datagen --resume {}",
            plan.out.display()
        );
        return Ok(ExitCode::from(lab::shutdown::INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

fn build_plan(args: &DatagenArgs) -> Result<DatagenPlan> {
    let chunks = args.chunks.context("--chunks N is required")?;
    if chunks == 0 || args.games_per_chunk == 0 || args.nodes == 0 {
        bail!("--chunks, --games-per-chunk and --nodes must each be at least 1");
    }
    let out = args.run.out.clone().unwrap_or_else(default_out);
    check_fresh_out(&out)?;
    if out.join(MANIFEST).exists() {
        bail!(
            "{} already holds a run: continue it with --resume {}",
            out.display(),
            out.display()
        );
    }
    let plan = DatagenPlan {
        player: player(args)?,
        nodes: args.nodes,
        openings: openings(args)?,
        max_opening_cp: (args.max_opening_cp > 0).then_some(args.max_opening_cp),
        seed: args.seed,
        chunks,
        games_per_chunk: args.games_per_chunk,
        rules: rules(&args.rules)?,
        shard: args.shard,
        threads: lab::workers::resolve(args.run.threads)?,
        out,
    };
    plan.player.kind()?;
    Ok(plan)
}

/// `data/<timestamp>-datagen/`: training data is never committed (`data/` is ignored), only the
/// manifest and `chunks.csv` that regenerate it.
fn default_out() -> PathBuf {
    let results = lab::run_dir::default_out("datagen");
    PathBuf::from("data").join(results.file_name().expect("a run directory has a name"))
}

fn player(args: &DatagenArgs) -> Result<PlayerSpec> {
    let Some(engine) = &args.engine else {
        return Ok(PlayerSpec::Builtin {
            preset: args.preset.clone(),
            settings: key_values(&args.sets)?,
        });
    };
    let path = engine
        .strip_prefix(lab::engines::UCI_PREFIX)
        .filter(|p| !p.is_empty())
        .with_context(|| format!("--engine expects uci:PATH, found `{engine}`"))?;
    let mut options = crate::cli::uci_options(&args.options)?;
    if !options
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("Threads"))
    {
        options.insert(0, ("Threads".to_string(), "1".to_string()));
    }
    let path = PathBuf::from(path);
    lab::engines::resolve(
        std::slice::from_ref(engine),
        std::time::Duration::from_secs(10),
    )
    .with_context(|| format!("starting {}", path.display()))?;
    Ok(PlayerSpec::Uci { path, options })
}

fn openings(args: &DatagenArgs) -> Result<Openings> {
    if let Some(path) = &args.book {
        let book = play::arena::openings::Book::read(path)?;
        if book.openings.is_empty() {
            bail!("{}: no opening could be read", path.display());
        }
        return Ok(Openings::Book {
            path: path.clone(),
            sha256: book.sha256,
        });
    }
    let bad = || {
        anyhow::anyhow!(
            "--random-plies expects MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 40 (e.g. 8-9), found `{}`",
            args.random_plies
        )
    };
    let (min, max) = args.random_plies.split_once('-').ok_or_else(bad)?;
    let (min, max): (u32, u32) = (
        min.trim().parse().map_err(|_| bad())?,
        max.trim().parse().map_err(|_| bad())?,
    );
    if min > max || max > 40 {
        return Err(bad());
    }
    Ok(Openings::Random(RandomPlies { min, max }))
}

fn rules(args: &RulesArgs) -> Result<play::arena::rules::Rules> {
    let given = args.max_plies.is_some()
        || args.resign_score.is_some()
        || args.draw_score.is_some()
        || args.tb_adjudicate;
    if given {
        args.rules()
    } else {
        Ok(datagen::DEFAULT_RULES)
    }
}

/// The plan `dir` recorded, with more chunks or other threads if asked; refused when this build
/// would play other data.
fn resumed(dir: &Path, args: &DatagenArgs) -> Result<DatagenPlan> {
    let recorded: DatagenManifest = RecordedPlan::read(dir)?;
    let mut plan = recorded.plan.clone();
    plan.out = dir.to_path_buf();
    // Refused before a dry run too: this build must play the data the run began with.
    run_flow::check_resumable(dir, &recorded, &DatagenManifest::new(plan.clone())?)?;
    if let Some(chunks) = args.chunks {
        if chunks < plan.chunks {
            bail!("--chunks {chunks}: the run already has {} chunks (a resumed run may only add chunks)", plan.chunks);
        }
        plan.chunks = chunks;
    }
    if let Some(threads) = args.run.threads {
        plan.threads = lab::workers::resolve(Some(threads))?;
    }
    datagen::run::book(&plan)?;
    Ok(plan)
}
