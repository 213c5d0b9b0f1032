//! `harness suite check FILE…`: positions per file and every unreadable line with `file:line`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::commands::CHECK_FAILED;
use crate::epd::read_suite;

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
