//! `harness compare BEFORE AFTER`: paired statistics between two runs of the same grid.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use lab::report::compare::{compare, render, COMPARE_JSON, COMPARE_MD};
use lab::report::data::RunDir;
use lab::report::figures::{self, RatioTails};
use lab::report::paired::Pair;

use super::CHECK_FAILED;

/// `harness compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The run taken as baseline ("before").
    pub before: PathBuf,
    /// The run compared with it ("after").
    pub after: PathBuf,
    /// Also write compare.md, its tables as data (compare.json) and the sorted-ratio figure into
    /// this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Compare even if the two runs' configurations, suites or limits differ (the differences
    /// are still listed). Without it such a comparison exits with code 3.
    #[arg(long)]
    pub allow_mismatch: bool,
}

/// Runs `harness compare`.
pub fn run(args: &CompareArgs) -> Result<ExitCode> {
    let before = RunDir::load(&args.before)?;
    let after = RunDir::load(&args.after)?;
    let comparison = compare(&before, &after);
    let md = render(&before, &after, &comparison);
    print!("{md}");
    if let Some(out) = &args.out {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        let (md_path, json_path) = (out.join(COMPARE_MD), out.join(COMPARE_JSON));
        std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
        lab::report::tables::write_as(&json_path, &md)
            .with_context(|| format!("writing {}", json_path.display()))?;
        let ratios = RatioTails {
            name: "compare_node_ratio_tails".into(),
            title: "Nodes per position, second run over first: how often, and how far".into(),
            quantity: "nodes",
            series: comparison
                .paired
                .iter()
                .map(|(id, p)| (before.label(id), p.pairs.iter().map(Pair::ratio).collect()))
                .collect(),
        };
        figures::save(out, &ratios)?;
    }
    if comparison.mismatches.is_empty() || args.allow_mismatch {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "error: the two runs differ in what they ran ({} mismatches listed above); pass --allow-mismatch to compare anyway",
        comparison.mismatches.len()
    );
    Ok(ExitCode::from(CHECK_FAILED))
}
