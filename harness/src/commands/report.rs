//! `harness report DIR`: regenerates a run directory's summary, report (`report.md` and its page
//! `report.html`) and figures — of a grid, or
//! of a match (a directory with `games.csv` and no `runs.csv`; either may be gzipped), of a
//! budget ladder (`ladder.json`: each rung's match, then the ladder), of a tune (`tune.csv`) or of a
//! texel fit (`texel.csv`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use lab::export::manifest::{record_report_baseline, report_baseline};
use lab::run_dir::{table_exists, REPORT, REPORT_HTML, RUNS};

/// `harness report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Run directory (with manifest.json, runs.csv, iterations.csv).
    pub dir: PathBuf,
    /// Configuration id the others are compared with; recorded in the manifest, so that a later
    /// `harness report DIR` compares with it too. Default: the one the manifest records, else the
    /// grid's first.
    #[arg(long, value_name = "CONFIG")]
    pub baseline: Option<String>,
    /// Only render the committed report.md as report.html and report.json, recomputing nothing
    /// (for a run whose tables are not all kept, or written before report.json existed).
    #[arg(long, conflicts_with = "baseline")]
    pub page: bool,
    /// DIR is a results directory: render every run's committed report.md under it as its page
    /// (as `--page` does, recomputing nothing), then its index (`harness index`). The committed
    /// studies keep no pages; this builds them.
    #[arg(long, conflicts_with_all = ["baseline", "page"])]
    pub all: bool,
}

/// Runs `harness report`.
pub fn run(args: &ReportArgs) -> Result<ExitCode> {
    if args.all {
        let pages = lab::index::write_pages(&args.dir)?;
        println!(
            "{pages} pages; index: {}",
            args.dir.join(lab::index::INDEX_HTML).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.page {
        let md_path = args.dir.join(REPORT);
        let md = std::fs::read_to_string(&md_path)
            .with_context(|| format!("reading {}", md_path.display()))?;
        lab::report::page::write(&args.dir, &md)?;
        println!("page: {}", args.dir.join(REPORT_HTML).display());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(ladder) = play::arena::ladder::Ladder::read(&args.dir)? {
        for rung in &ladder.rungs {
            play::arena::report::write(&play::arena::ladder::Ladder::rung_dir(&args.dir, rung))?;
        }
        play::arena::ladder::report(&args.dir, &ladder)?;
        println!("report: {}", args.dir.join(REPORT).display());
        return Ok(ExitCode::SUCCESS);
    }
    if args.dir.join(play::tune::output::TUNE_CSV).exists() {
        super::tune::rebuild_report(&args.dir)?;
        println!(
            "report: {} (a tune's, from tune.csv)",
            args.dir.join(REPORT).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.dir.join(play::texel::output::TEXEL_CSV).exists() {
        super::texel::rebuild_report(&args.dir)?;
        println!(
            "report: {} (a texel fit's)",
            args.dir.join(REPORT).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let games = args.dir.join(play::arena::output::GAMES_CSV);
    let is_match = table_exists(&games) && !table_exists(&args.dir.join(RUNS));
    if is_match {
        play::arena::report::print_results(&play::arena::report::write(&args.dir)?);
        println!("report: {}", args.dir.join(REPORT).display());
        return Ok(ExitCode::SUCCESS);
    }
    let baseline = match &args.baseline {
        Some(b) => Some(b.clone()),
        None => report_baseline(&args.dir)?,
    };
    let rows = lab::report::write(&args.dir, baseline.as_deref())?;
    if let Some(b) = &args.baseline {
        record_report_baseline(&args.dir, b)?;
    }
    print!("{}", lab::report::summary::table(&rows, usize::MAX));
    println!("report: {}", args.dir.join(REPORT).display());
    Ok(ExitCode::SUCCESS)
}
