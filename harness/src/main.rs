//! `harness`: runs EPD suites across grids of search configurations and records what each
//! heuristic is worth. `main` only parses and dispatches; errors print with their context and
//! map to exit codes: 1 error, 2 usage, 3 a check failed (perft mismatch, unreadable suite lines).

use std::process::ExitCode;

use clap::Parser;

mod arena;
mod bench;
mod cli;
mod commands;
mod elo;
mod engines;
mod epd;
mod export;
mod factorial;
mod grid;
mod index;
mod kpk;
mod label;
mod pgn_reader;
mod plan;
mod progress;
mod report;
mod run_dir;
mod run_flow;
mod run_lock;
mod runner;
mod shard;
mod shutdown;
mod solve;
mod suite_make;
mod suites;
mod texel;
mod tree;
mod tune;
mod uci;
mod workers;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
