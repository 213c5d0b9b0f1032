//! `harness perft FILE`: every `Dn` count of every position, up to `--depth`.

use std::process::ExitCode;

use anyhow::{Context, Result};
use engine::perft::perft;

use crate::cli::PerftArgs;
use crate::commands::CHECK_FAILED;
use crate::epd::read_suite;

/// Checks the file; exit 3 on any mismatch or unreadable line, each named.
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
            let expected: u64 = expected.trim().parse().with_context(|| {
                format!(
                    "{}:{}: D{depth} `{expected}` is not a count",
                    args.file.display(),
                    record.line
                )
            })?;
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
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(CHECK_FAILED)
    })
}
