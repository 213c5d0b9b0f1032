//! `harness grid`: arguments → validated [`Plan`] → parallel run → CSVs and manifest → report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;

use crate::cli::{GridArgs, PlanArgs};
use crate::engines;
use crate::export::manifest::Manifest;
use crate::export::sink::Sink;
use crate::grid::GridSpec;
use crate::plan::{JobKey, JobLimits, Plan, ShardPart, UciTimeouts};
use crate::run_dir::{MANIFEST, RUNS};
use crate::shard::Shard;
use crate::suites;

/// The experiment `harness grid` runs with no arguments.
const DEFAULT_GRID: &str = include_str!("../../grids/default.toml");
/// The shipped grid files, also runnable by name (`--grid dynlimit`) from any directory.
const SHIPPED_GRIDS: [(&str, &str); 6] = [
    ("default", DEFAULT_GRID),
    ("presets-wac", include_str!("../../grids/presets-wac.toml")),
    ("ordering", include_str!("../../grids/ordering.toml")),
    ("dynlimit", include_str!("../../grids/dynlimit.toml")),
    (
        "dynlimit-split",
        include_str!("../../grids/dynlimit-split.toml"),
    ),
    ("engines-wac", include_str!("../../grids/engines-wac.toml")),
];
/// Node cap per job unless told otherwise.
const DEFAULT_NODE_CAP: u64 = 20_000_000;
/// Depth when no limit is given at all.
const DEFAULT_DEPTH: i32 = 6;

/// Runs `harness grid`.
pub fn run(args: GridArgs) -> Result<ExitCode> {
    let args = with_recorded_plan(args)?;
    let plan = build_plan(&args)?;
    if args.dry_run {
        print!("{}", plan.describe());
        return Ok(ExitCode::SUCCESS);
    }
    let _lock = crate::run_lock::RunLock::create_and_acquire(&plan.out)?;
    let manifest = Manifest::new(&plan, crate::bench::SIGNATURE);
    let sink = if args.resume.is_some() {
        let old = Manifest::read(&plan.out)?;
        if !old.same_plan(&manifest) {
            bail!("{} was made by a different plan (configurations, suites or limits differ): resume it with the command in its manifest.json", plan.out.display());
        }
        let planned = plan.jobs().iter().map(|j| plan.job_key(j)).collect();
        Sink::resume(&plan.out, &plan.axes, args.retry_failed, &planned)?
    } else {
        let sink = Sink::create(&plan.out, &plan.axes)?;
        manifest.write(&plan.out)?;
        sink
    };
    let skipped = sink.done_count();
    let shard = plan.shard.as_ref().map_or(String::new(), |p| {
        format!(" in shard {} ({} of all)", p.shard, p.jobs.len())
    });
    eprintln!(
        "{} jobs ({} configs × {} positions){shard}, {skipped} already done, {} threads → {}",
        plan.points.len() * plan.positions(),
        plan.points.len(),
        plan.positions(),
        plan.threads,
        plan.out.display()
    );
    crate::shutdown::install();
    crate::runner::run(&plan, sink, args.quiet)?;
    if crate::shutdown::requested() {
        eprintln!(
            "interrupted; every finished job is written. Continue with:\n  harness grid --resume {}",
            plan.out.display()
        );
        return Ok(ExitCode::from(crate::shutdown::INTERRUPTED));
    }
    let rows = crate::report::write(&plan.out, None)?;
    print!("{}", crate::report::summary::table(&rows));
    let failed: usize = rows.iter().map(|r| r.failed).sum();
    if failed > 0 {
        eprintln!("warning: {failed} jobs failed (external engine crashed, hung or spoke garbage): reasons in runs.csv `failure` and report.md");
    }
    println!("results: {} (report.md, figures)", plan.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--resume DIR` without plan arguments continues the plan recorded in DIR's manifest; with any,
/// those describe the plan (and `run` checks it is the recorded one). Run options are this
/// command's either way.
fn with_recorded_plan(args: GridArgs) -> Result<GridArgs> {
    let Some(dir) = &args.resume else {
        return Ok(args);
    };
    if args.plan != PlanArgs::none() {
        return Ok(args);
    }
    let manifest = Manifest::read(dir)?;
    let cli = crate::cli::Cli::try_parse_from(&manifest.command).with_context(|| {
        format!(
            "the command recorded in {}/{MANIFEST} no longer parses",
            dir.display()
        )
    })?;
    let crate::cli::Command::Grid(recorded) = cli.command else {
        bail!(
            "{}/{MANIFEST} does not record a grid command",
            dir.display()
        );
    };
    Ok(GridArgs {
        plan: recorded.plan,
        ..args
    })
}

/// Validates everything (grid, suites, limits, output) before any search.
fn build_plan(args: &GridArgs) -> Result<Plan> {
    let spec = grid_spec(args)?;
    let uci = UciTimeouts {
        handshake: Duration::from_millis(args.uci_handshake),
        slack: Duration::from_millis(args.uci_slack),
        search: Duration::from_secs(args.uci_timeout),
    };
    let engines = engines::resolve(&spec.engines, uci.handshake)?;
    let points = spec.expand_with(&engines)?;
    warn_same_search(&points);
    let suites = suites::load(&suite_names(args, &spec))?;
    if suites.iter().all(|s| s.records.is_empty()) {
        bail!("the suites hold no readable position");
    }
    // A limit on the command line replaces the file's; without either, the default depth.
    let on_command_line =
        args.plan.depth.is_some() || args.plan.nodes.is_some() || args.plan.movetime.is_some();
    let (depth, nodes, movetime) = if on_command_line {
        (args.plan.depth, args.plan.nodes, args.plan.movetime)
    } else {
        (spec.depth, spec.nodes, spec.movetime)
    };
    let depth = depth.or((nodes.is_none() && movetime.is_none()).then_some(DEFAULT_DEPTH));
    let limits = JobLimits {
        depth,
        nodes,
        movetime_ms: movetime,
        node_cap: args
            .plan
            .node_cap
            .or(spec.node_cap)
            .unwrap_or(DEFAULT_NODE_CAP),
        solved_for: args.plan.solved_for,
        min_depth: args.plan.min_depth,
        mate: args.plan.mate,
    };
    if limits.depth.is_some_and(|d| !(1..=64).contains(&d)) {
        bail!("--depth must be between 1 and 64");
    }
    if limits.nodes == Some(0) || limits.node_cap == 0 {
        bail!("--nodes and --node-cap must be at least 1");
    }
    check_tables(points.iter().filter_map(|p| p.config()))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let out = args
        .resume
        .clone()
        .or_else(|| args.out.clone())
        .unwrap_or_else(|| default_out(&spec.name));
    let mut plan = Plan {
        name: spec.name.clone(),
        axes: spec.columns(&engines),
        engines,
        uci,
        points,
        suites,
        limits,
        threads,
        out,
        shard: None,
    };
    if let Some(shard) = args.plan.shard {
        plan.shard = Some(shard_part(&plan, shard, args.plan.cost_from.as_deref())?);
    }
    Ok(plan)
}

/// This shard's jobs: interleaved, or balanced by an earlier run's node counts.
fn shard_part(plan: &Plan, shard: Shard, cost_from: Option<&Path>) -> Result<ShardPart> {
    let all = plan.all_jobs();
    let Some(dir) = cost_from else {
        return Ok(ShardPart {
            shard,
            balance: "interleaved".into(),
            jobs: shard.interleaved(all.len()),
        });
    };
    let known = crate::export::sink::node_counts(&dir.join(RUNS))
        .with_context(|| format!("--cost-from {}", dir.display()))?;
    let keys: Vec<JobKey> = all.iter().map(|j| plan.job_key(j)).collect();
    let costs = crate::shard::costs_by_key(&known, &keys);
    Ok(ShardPart {
        shard,
        balance: format!("nodes of {}", dir.display()),
        jobs: shard.balanced(&costs),
    })
}

fn grid_spec(args: &GridArgs) -> Result<GridSpec> {
    let base = match &args.plan.grid {
        Some(path) => grid_file(path)?,
        None if args.plan.sets.is_empty() && args.plan.suites.is_empty() => {
            GridSpec::from_toml(DEFAULT_GRID).expect("the built-in grid is valid")
        }
        None => GridSpec {
            name: "grid".into(),
            preset: "fischerle".into(),
            ..GridSpec::default()
        },
    };
    with_overrides(
        base,
        args.plan.preset.as_deref(),
        &args.plan.sets,
        &args.plan.engines,
    )
}

/// The command line's preset, `--set` axes and `--engine`s applied to a grid (the grid file's or
/// a default one): shared by `grid` and `match`, whose players are a grid's configurations.
pub fn with_overrides(
    mut spec: GridSpec,
    preset: Option<&str>,
    sets: &[String],
    engines: &[String],
) -> Result<GridSpec> {
    if let Some(preset) = preset {
        spec.preset = preset.to_string();
    }
    for set in sets {
        spec.add_set(set)?;
    }
    if !engines.is_empty() {
        spec.engines = engines.to_vec();
    }
    Ok(spec)
}

/// A grid file, or a shipped grid when `path` is one's name and no such file exists.
pub fn grid_file(path: &Path) -> Result<GridSpec> {
    GridSpec::from_toml(&grid_text(path)?).with_context(|| format!("in {}", path.display()))
}

/// Names the configurations that search exactly as an earlier one (`tt_move` without `tt`): a grid
/// or a match may mean them, but should know.
pub fn warn_same_search(points: &[crate::grid::GridPoint]) {
    for (earlier, later) in crate::grid::same_search(points) {
        eprintln!("warning: {later} searches exactly as {earlier} (tt_move does nothing without tt): its results repeat {earlier}'s");
    }
}

/// Every distinct TT size of the configurations can be allocated (checked once, untouched).
pub fn check_tables<'a>(configs: impl Iterator<Item = &'a engine::SearchConfig>) -> Result<()> {
    let mut sizes: Vec<usize> = configs
        .filter_map(|c| c.tt.as_ref().map(|t| t.size_mb))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        engine::search::tt::TranspositionTable::check_allocation(size)
            .map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

/// A grid file's text, or a shipped grid's when `path` is one's name and no such file exists.
fn grid_text(path: &Path) -> Result<String> {
    let shipped = SHIPPED_GRIDS
        .iter()
        .find(|(name, _)| path == Path::new(name));
    match shipped {
        Some((_, text)) if !path.exists() => Ok(text.to_string()),
        _ => std::fs::read_to_string(path).with_context(|| {
            let names: Vec<&str> = SHIPPED_GRIDS.iter().map(|(n, _)| *n).collect();
            format!(
                "reading grid {} (a file, or one of the shipped grids: {})",
                path.display(),
                names.join(", ")
            )
        }),
    }
}

/// Suites from `--suite`, else from the grid file, else the built-in ones.
fn suite_names(args: &GridArgs, spec: &GridSpec) -> Vec<String> {
    if !args.plan.suites.is_empty() {
        args.plan
            .suites
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    } else if !spec.suites.is_empty() {
        spec.suites.clone()
    } else {
        suites::builtin_names()
    }
}

/// `results/<timestamp>-<name>/`.
pub fn default_out(name: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', 'Z'], "");
    PathBuf::from("results").join(format!("{stamp}-{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_experiment_and_the_shipped_grids_are_valid() {
        let points = GridSpec::from_toml(DEFAULT_GRID).unwrap().expand().unwrap();
        assert_eq!(points.len(), 4);
        for (name, text) in SHIPPED_GRIDS {
            assert!(GridSpec::from_toml(text).is_ok(), "shipped grid {name}");
            assert_eq!(grid_text(Path::new(name)).unwrap(), text);
        }
    }
}
