//! `harness`: runs EPD suites across grids of search configurations and records what each
//! heuristic is worth. `main` only parses and dispatches; errors print with their context and
//! map to exit codes: 1 error, 2 usage, 3 a check failed (perft mismatch, unreadable suite lines).

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
