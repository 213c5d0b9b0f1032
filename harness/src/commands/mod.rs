//! One module per subcommand; each turns its arguments into a validated plan, runs it, and says
//! how it went with an exit code.

mod compare;
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
mod tree;
mod tune;

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Command, KpkCommand, SuiteCommand};

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
        Command::Config { preset } => {
            print!("{}", engine::SearchConfig::preset(&preset)?.to_toml());
            Ok(ExitCode::SUCCESS)
        }
    }
}
