//! `harness report DIR`: regenerates a run directory's summary, report and figures — of a grid, or
//! of a match (a directory with `games.csv` and no `runs.csv`).

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::ReportArgs;
use crate::run_dir::{REPORT, RUNS};

/// Runs `harness report`.
pub fn run(args: &ReportArgs) -> Result<ExitCode> {
    let is_match =
        args.dir.join(crate::arena::output::GAMES_CSV).exists() && !args.dir.join(RUNS).exists();
    if is_match {
        crate::arena::report::print_results(&crate::arena::report::write(&args.dir)?);
        println!("report: {}", args.dir.join(REPORT).display());
        return Ok(ExitCode::SUCCESS);
    }
    let rows = crate::report::write(&args.dir, args.baseline.as_deref())?;
    print!("{}", crate::report::summary::table(&rows));
    println!("report: {}", args.dir.join(REPORT).display());
    Ok(ExitCode::SUCCESS)
}
