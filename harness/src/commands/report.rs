//! `harness report DIR`: regenerates a run directory's summary, report and figures.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::ReportArgs;

/// Runs `harness report`.
pub fn run(args: &ReportArgs) -> Result<ExitCode> {
    let rows = crate::report::write(&args.dir, args.baseline.as_deref())?;
    print!("{}", crate::report::summary::table(&rows));
    println!("report: {}", args.dir.join("report.md").display());
    Ok(ExitCode::SUCCESS)
}
