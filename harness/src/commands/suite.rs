//! `harness suite check FILE…`: positions per file and every unreadable line with `file:line`.
//! `harness suite make`: arguments → [`MakePlan`] → candidates, labels → the EPD file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use lab::epd::read_suite;
use lab::suite_make::dfrc::Dfrc;
use lab::suite_make::label::Reference;
use lab::suite_make::select::Selection;
use lab::suite_make::selfplay::SelfPlay;
use lab::suite_make::{make as make_suite, MakePlan, Source};

use crate::cli::depth;
use crate::commands::CHECK_FAILED;

/// `harness suite …`.
#[derive(Debug, Subcommand)]
pub enum SuiteCommand {
    /// Validate EPD files: positions, unreadable lines (file:line), moves that do not parse.
    Check {
        /// EPD files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Make a suite: candidate positions (EPD, PGN, or seeded self-play of the project's engine)
    /// labelled by a reference UCI engine at MultiPV 2; keeps those whose best move beats the
    /// second by a margin, with `bm`, `id` and a `c0` recording origin, engine, depth and margin.
    Make(Box<SuiteMakeArgs>),
}

/// `harness suite make`.
#[derive(Debug, Args)]
pub struct SuiteMakeArgs {
    /// The EPD file to write.
    #[arg(long, value_name = "FILE.epd")]
    pub out: PathBuf,
    /// Candidates: every position of an EPD file (repeatable).
    #[arg(long = "from-epd", value_name = "FILE")]
    pub from_epd: Vec<PathBuf>,
    /// Candidates: the positions of every game of a PGN file (repeatable).
    #[arg(long = "from-pgn", value_name = "FILE")]
    pub from_pgn: Vec<PathBuf>,
    /// Candidates: this many games of the project's engine against itself from seeded openings.
    #[arg(long, value_name = "GAMES")]
    pub selfplay: Option<u64>,
    /// Candidates: N double-Fischer-random start positions (a Chess960 book in Shredder-FEN):
    /// all 921,600 (960 × 960) or a sample seeded by --seed. A source of its own.
    #[arg(long, value_name = "N", conflicts_with_all = ["from_epd", "from_pgn", "selfplay", "select"])]
    pub dfrc: Option<usize>,
    /// Candidates: the positions of a grid run whose node ratio between two configurations is at
    /// least --min-ratio (with --select-pair).
    #[arg(long, value_name = "RUN_DIR", requires = "select_pair")]
    pub select: Option<PathBuf>,
    /// Selection: the configurations whose node ratio is taken, `FROM/TO` (e.g. `c03/c04`).
    #[arg(long, value_name = "FROM/TO", requires = "select")]
    pub select_pair: Option<String>,
    /// Selection: least node ratio TO / FROM kept.
    #[arg(long, value_name = "FACTOR", default_value_t = 2.0)]
    pub min_ratio: f64,
    /// Self-play: seed of the random opening plies; --dfrc: seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Self-play: uniformly random legal plies from the start position.
    #[arg(long, default_value_t = 6)]
    pub random_plies: usize,
    /// Self-play: search depth of every move.
    #[arg(long, default_value_t = 5, value_parser = depth, allow_hyphen_values = true)]
    pub play_depth: i32,
    /// Self-play: longest game in plies.
    #[arg(long, default_value_t = 120)]
    pub max_plies: usize,
    /// Self-play: the engine's preset.
    #[arg(long, default_value = "fischerle")]
    pub preset: String,
    /// Games (PGN, self-play): candidates from this ply on.
    #[arg(long, default_value_t = 16)]
    pub from_ply: usize,
    /// Games: every n-th ply from --from-ply (2 keeps one side to move).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// EPD files: every n-th position from the first (a systematic sample).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sample: usize,
    /// Games: most positions kept per game (the first that pass). Default: all.
    #[arg(long, value_name = "N")]
    pub per_game: Option<usize>,
    /// Most positions kept in all (in source order).
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,
    /// Only candidates of this phase: `endgame` (at most a quarter of the opening's piece
    /// material, e.g. R+B vs R+N) or `middlegame`.
    #[arg(long, value_name = "PHASE")]
    pub phase: Option<lab::suite_make::phase::Phase>,
    /// Keep every candidate without asking a reference (no `bm`): an unselected population.
    #[arg(long, conflicts_with_all = ["balanced", "margin"])]
    pub unlabelled: bool,
    /// The reference UCI engine.
    #[arg(long, value_name = "PATH", default_value = "/usr/games/stockfish")]
    pub reference: PathBuf,
    /// Depth of the reference's analysis.
    #[arg(long, default_value_t = 14, value_parser = depth, allow_hyphen_values = true)]
    pub depth: i32,
    /// Least lead in centipawns of the best move over the second.
    #[arg(long, default_value_t = 150)]
    pub margin: i32,
    /// Keep balanced positions instead (an opening book): those whose best move scores within
    /// ±CP, no mate; no `bm` is written.
    #[arg(long, value_name = "CP")]
    pub balanced: Option<i32>,
    /// The reference's hash, MiB (it runs with one thread).
    #[arg(long, default_value_t = 64)]
    pub hash: u32,
    /// Seconds one analysis may take before the reference counts as hung.
    #[arg(long, value_name = "S", default_value_t = 300)]
    pub timeout: u64,
    /// `id` prefix (`PREFIX.001`, …). Default: the output file's stem.
    #[arg(long)]
    pub id_prefix: Option<String>,
    /// Worker threads, one reference process each. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Validates the files; exit 3 if any line could not be read.
pub fn check(files: &[PathBuf]) -> Result<ExitCode> {
    let mut problems = 0;
    for file in files {
        let suite = read_suite(file).with_context(|| format!("reading {}", file.display()))?;
        for error in &suite.errors {
            println!("{error}");
        }
        let with_answer = suite
            .records
            .iter()
            .filter(|r| !r.best_moves.is_empty() || !r.avoid_moves.is_empty())
            .count();
        println!(
            "{}: {} positions ({with_answer} with bm/am), {} unreadable lines",
            file.display(),
            suite.records.len(),
            suite.errors.len()
        );
        problems += suite.errors.len();
    }
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(CHECK_FAILED)
    })
}

/// Makes a suite; the file is written only when the whole run succeeded.
pub fn make(args: &SuiteMakeArgs) -> Result<ExitCode> {
    let plan = make_plan(args)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let made = make_suite(&plan, &command)?;
    for problem in &made.problems {
        eprintln!("warning: {problem}");
    }
    std::fs::write(&args.out, &made.epd)
        .with_context(|| format!("writing {}", args.out.display()))?;
    match &plan.reference {
        Some(r) => {
            let rule = match r.balanced {
                Some(w) => format!("balanced within ±{w} cp"),
                None => format!("margin {} cp", r.margin),
            };
            println!(
                "{} positions analysed, {} kept ({rule} at depth {}) → {}",
                made.analysed,
                made.kept,
                r.depth,
                args.out.display()
            );
        }
        None => println!(
            "{} candidates, {} kept (unlabelled) → {}",
            made.analysed,
            made.kept,
            args.out.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn make_plan(args: &SuiteMakeArgs) -> Result<MakePlan> {
    let mut sources: Vec<Source> = args.from_epd.iter().cloned().map(Source::Epd).collect();
    sources.extend(args.from_pgn.iter().cloned().map(Source::Pgn));
    if let Some(games) = args.selfplay {
        let play = SelfPlay {
            seed: args.seed,
            random_plies: args.random_plies,
            depth: args.play_depth,
            max_plies: args.max_plies,
            config: engine::SearchConfig::preset(&args.preset)?,
        };
        sources.push(Source::SelfPlay(play, games));
    }
    if let Some(count) = args.dfrc {
        sources.push(Source::Dfrc(Dfrc {
            count,
            seed: args.seed,
        }));
    }
    let variant = if args.dfrc.is_some() {
        engine::Variant::Chess960
    } else {
        engine::Variant::Standard
    };
    if let (Some(run), Some(pair)) = (&args.select, &args.select_pair) {
        sources.push(Source::Selected(Selection::new(
            run.clone(),
            pair,
            args.min_ratio,
        )?));
    }
    if sources.is_empty() {
        bail!("no candidates: give --from-epd FILE, --from-pgn FILE, --selfplay GAMES or --select RUN_DIR");
    }
    if args.depth < 1 {
        bail!("--depth must be at least 1, found {}", args.depth);
    }
    let id_prefix = args.id_prefix.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("suite".into(), |s| s.to_string_lossy().to_string())
    });
    Ok(MakePlan {
        sources,
        from_ply: args.from_ply,
        every: args.every.max(1),
        sample: args.sample.max(1),
        per_game: args.per_game,
        max: args.max,
        phase: args.phase,
        reference: (!args.unlabelled).then(|| Reference {
            path: args.reference.clone(),
            depth: args.depth,
            hash_mb: args.hash,
            margin: args.margin,
            balanced: args.balanced,
            timeout: Duration::from_secs(args.timeout),
            variant,
        }),
        id_prefix,
        threads: lab::workers::resolve(args.threads)?,
        variant,
    })
}
