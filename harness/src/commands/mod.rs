//! The command line: [`Cli`] and its [`Command`]s here, then one module per subcommand holding
//! its arguments (clap derive, every option documented: it is the `--help`) beside the code that
//! turns them into a validated plan, runs it, and says how it went with an exit code. Argument
//! groups several commands flatten are in `crate::cli`.

mod compare;
mod datagen;
pub mod grid;
mod kpk;
mod label;
mod match_cmd;
mod merge;
mod perft;
mod report;
pub mod sprt;
mod suite;
mod texel;
mod train;
mod tree;
mod tune;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use compare::CompareArgs;
use datagen::DatagenArgs;
use grid::GridArgs;
use kpk::KpkCommand;
use label::LabelArgs;
use match_cmd::MatchArgs;
use merge::MergeArgs;
use perft::PerftArgs;
use report::ReportArgs;
use sprt::SprtCalcArgs;
use suite::SuiteCommand;
use texel::TexelArgs;
use train::TrainArgs;
use tree::TreeArgs;
use tune::TuneArgs;

use crate::cli::{depth, key_values};

/// Measures what chess-search heuristics are worth: EPD suites × configuration grids → CSV.
#[derive(Debug, Parser)]
#[command(name = "harness", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The arguments of a subcommand whose run directory records the command that made it.
pub trait Recorded: Sized {
    /// The subcommand's name.
    const NAME: &'static str;
    /// The arguments, when `command` is this subcommand.
    fn of(command: Command) -> Option<Self>;
}

macro_rules! recorded {
    ($args:ty, $variant:ident, $name:literal) => {
        impl Recorded for Box<$args> {
            const NAME: &'static str = $name;
            fn of(command: Command) -> Option<Self> {
                match command {
                    Command::$variant(args) => Some(args),
                    _ => None,
                }
            }
        }
    };
}
recorded!(GridArgs, Grid, "grid");
recorded!(MatchArgs, Match, "match");
recorded!(TuneArgs, Tune, "tune");

/// The `T` arguments recorded in the manifest of run directory `dir` (`command`), parsed
/// again: what a bare `--resume DIR` continues; an error when they no longer parse or are
/// another command's.
pub fn recorded<T: Recorded>(dir: &std::path::Path, command: &[String]) -> Result<T> {
    use anyhow::Context;
    let manifest = || format!("{}/{}", dir.display(), lab::run_dir::MANIFEST);
    let command = Cli::try_parse_from(command)
        .map(|cli| cli.command)
        .with_context(|| format!("the command recorded in {} no longer parses", manifest()))?;
    T::of(command)
        .ok_or_else(|| anyhow::anyhow!("{} does not record a {} command", manifest(), T::NAME))
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run suites across a grid of search configurations, in parallel, to CSV.
    Grid(Box<GridArgs>),
    /// Check every position of a perft EPD file (`FEN ;D1 n ;D2 n …`).
    Perft(PerftArgs),
    /// Work with EPD suites.
    #[command(subcommand)]
    Suite(SuiteCommand),
    /// King and pawn against king, checked exhaustively (the 1989 method).
    #[command(subcommand)]
    Kpk(KpkCommand),
    /// Regenerate a run directory's summary.csv, report.md, report.html and figures from its CSVs.
    Report(ReportArgs),
    /// Write DIR/index.md and DIR/index.html: every study (a directory with a README.md) and
    /// every run directory under DIR.
    Index {
        /// The results directory.
        #[arg(default_value = "results")]
        dir: PathBuf,
    },
    /// Join the shards of one grid (`grid --shard I/N`) into one run directory, then report it.
    Merge(MergeArgs),
    /// Paired statistics between two runs of the same grid (e.g. before and after an engine change).
    Compare(CompareArgs),
    /// Fixed positions, fixed depth, one thread, `fischerle` preset: the node-count signature.
    Bench(BenchArgs),
    /// Elo, normalized Elo and the SPRT's LLR of finished results (pentanomial or W/D/L counts).
    Sprt(SprtCalcArgs),
    /// Play games between configurations (and UCI engines): game pairs, Elo, SPRT, PGN.
    Match(Box<MatchArgs>),
    /// Record one search's tree: every node, what acted on it, and where the nodes go.
    Tree(Box<TreeArgs>),
    /// Tune numeric parameters by SPSA (fishtest's schedule) in games, then verify the result.
    Tune(Box<TuneArgs>),
    /// Fit the evaluation's weights to game results (Texel's method): PGN in, tuned.toml out.
    Texel(Box<TexelArgs>),
    /// Score every position of PGN games or EPD files with a UCI engine at a fixed depth or node
    /// count (resumable): labels.csv, and labelled.pgn for `texel --lambda`.
    Label(Box<LabelArgs>),
    /// Training data by self-play of a preset or a UCI engine at a hard node cap: chunked,
    /// resumable, in bulletformat's binary records and the text form `FEN | score | result`.
    Datagen(Box<DatagenArgs>),
    /// Train the engine's network, (768→H)×2→1, on datagen runs or bulletformat files: AdamW,
    /// a held-out split, a checkpoint per epoch (resumable), the quantised `net.nnue`.
    Train(Box<TrainArgs>),
    /// Print a preset's full configuration as TOML.
    Config {
        /// Preset name.
        #[arg(default_value = "fischerle")]
        preset: String,
    },
}

/// `harness bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = lab::bench::DEPTH, value_parser = depth, allow_hyphen_values = true)]
    pub depth: i32,
    /// Time the joint-ratings fit instead of the search: 64 players, about 100,000 simulated
    /// games, the fit and 1,000 bootstrap resamples.
    #[arg(long)]
    pub ratings: bool,
    /// The configuration timed (the signature is `fischerle`'s).
    #[arg(long, default_value = "fischerle", value_parser = crate::cli::preset_parser())]
    pub preset: String,
    /// `KEY=VALUE` changes to the preset, in order (`--set eval.mobility=on`): a term's cost.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

impl BenchArgs {
    /// The `--set` pairs.
    pub fn settings(&self) -> anyhow::Result<Vec<(String, String)>> {
        key_values(&self.sets)
    }
}

/// Exit code when a check found a problem (perft mismatch, unreadable suite lines).
pub const CHECK_FAILED: u8 = 3;

/// Runs a subcommand.
pub fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Grid(args) => grid::run(*args),
        Command::Perft(args) => perft::run(&args),
        Command::Suite(SuiteCommand::Check { files }) => suite::check(&files),
        Command::Suite(SuiteCommand::Make(args)) => suite::make(&args),
        Command::Kpk(KpkCommand::Table { out }) => kpk::table(&out),
        Command::Kpk(KpkCommand::Check(args)) => kpk::check(&args),
        Command::Kpk(KpkCommand::Validate(args)) => kpk::validate(&args),
        Command::Report(args) => report::run(&args),
        Command::Index { dir } => {
            let (studies, runs) = lab::index::write(&dir)?;
            println!(
                "index: {} and {} ({studies} studies, {runs} run directories)",
                dir.join(lab::index::INDEX_MD).display(),
                dir.join(lab::index::INDEX_HTML).display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Merge(args) => merge::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Bench(args) if args.ratings => lab::elo::bench::run(),
        Command::Bench(args) => {
            let config = engine::SearchConfig::with_settings(&args.preset, args.settings()?)?;
            lab::bench::run(args.depth, &config)
        }
        Command::Sprt(args) => sprt::run(&args),
        Command::Match(args) => match_cmd::run(*args),
        Command::Tree(args) => tree::run(&args),
        Command::Tune(args) => tune::run(*args),
        Command::Texel(args) => texel::run(*args),
        Command::Label(args) => label::run(*args),
        Command::Datagen(args) => datagen::run(*args),
        Command::Train(args) => train::run(*args),
        Command::Config { preset } => {
            print!("{}", engine::SearchConfig::preset(&preset)?.to_toml());
            Ok(ExitCode::SUCCESS)
        }
    }
}
