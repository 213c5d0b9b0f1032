//! `harness perft FILE`: every `Dn` count of every position, up to `--depth`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::perft::perft;
use lab::epd::read_suite;

use crate::commands::CHECK_FAILED;

/// `harness perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Perft EPD file.
    pub file: PathBuf,
    /// Deepest `Dn` to check (deeper counts in the file are skipped).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
}

/// Checks the file; exit 3 on any mismatch, unreadable line or count, each named (the rest is
/// still checked); a file with no count at all is an error.
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let suite =
        read_suite(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let mut failures = 0;
    let mut checked = 0;
    for error in &suite.errors {
        eprintln!("skipped {error}");
        failures += 1;
    }
    for record in &suite.records {
        for depth in 1..=args.depth {
            let Some(expected) = record.op(&format!("D{depth}")) else {
                continue;
            };
            let Ok(expected) = expected.trim().parse::<u64>() else {
                // Reported, counted as a problem, and the other counts and lines go on.
                failures += 1;
                eprintln!(
                    "{}:{}: D{depth}: expected a node count, found `{expected}`",
                    args.file.display(),
                    record.line
                );
                continue;
            };
            let found = perft(&record.board, depth);
            checked += 1;
            if found != expected {
                failures += 1;
                eprintln!(
                    "{}:{}: {} D{depth}: expected {expected}, found {found}",
                    args.file.display(),
                    record.line,
                    record.board
                );
            }
        }
    }
    println!(
        "{}: {} positions, {checked} counts checked, {failures} problems",
        args.file.display(),
        suite.records.len()
    );
    if checked == 0 {
        bail!(
            "{}: no `D1` … `D{}` count to check: expected perft EPD lines `FEN ;D1 20 ;D2 400 …`",
            args.file.display(),
            args.depth
        );
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(CHECK_FAILED)
    })
}
