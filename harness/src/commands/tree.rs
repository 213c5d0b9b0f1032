//! `harness tree`: arguments → the position, configuration and limit → one recorded search →
//! `tree.arrow` (every node), `tree.md` (where the nodes go) and `manifest.json`.

use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use engine::{Limits, Position, SearchConfig};
use lab::tree::diff::{self, DIFF_CSV, DIFF_JSON, DIFF_MD};
use lab::tree::manifest::TreeManifest;
use lab::tree::summary::{self, Header, SUMMARY_FILE, TREE_JSON};
use lab::tree::table::{self, TREE_FILE};
use lab::tree::viewer;

use crate::cli::depth;

/// `harness tree`: one position, one configuration, one limit; or `harness tree diff A B`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TreeArgs {
    /// `diff A B`: two recordings compared.
    #[command(subcommand)]
    pub command: Option<TreeCommand>,
    /// The position, as FEN (4 to 6 fields).
    #[arg(long, value_name = "FEN", conflicts_with_all = ["suite", "id"])]
    pub fen: Option<String>,
    /// An EPD suite to take the position from (with `--id`).
    #[arg(long, value_name = "FILE", requires = "id")]
    pub suite: Option<PathBuf>,
    /// The position's id in `--suite` (its `id` operation, or `file:line` without one).
    #[arg(long, value_name = "ID", requires = "suite")]
    pub id: Option<String>,
    /// Base configuration (a preset name).
    #[arg(long, default_value = "fischerle")]
    pub preset: String,
    /// A setting of the configuration, `KEY=VALUE` (repeatable; one value each).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Search to this depth (default 6 when no limit is given).
    #[arg(long, value_name = "N", conflicts_with = "nodes", value_parser = depth, allow_hyphen_values = true)]
    pub depth: Option<i32>,
    /// Search this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Which iterations to keep: the last one (default) or all.
    #[arg(long, value_enum, default_value = "last")]
    pub iteration: lab::tree::Iterations,
    /// Keep only the subtree under this line of moves from the root (UCI, space- or
    /// comma-separated: `e2e4,e7e5`).
    #[arg(long, value_name = "MOVES")]
    pub under: Option<String>,
    /// The most nodes recorded: a search that visits more is refused (or, with `--truncate`,
    /// recorded up to the cap).
    #[arg(long, value_name = "N", default_value_t = lab::tree::DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
    /// Keep the first `--max-nodes` nodes of a larger search instead of refusing it.
    #[arg(long)]
    pub truncate: bool,
    /// Output directory. Default `results/<timestamp>-tree/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// What `harness tree` does besides recording.
#[derive(Debug, Subcommand)]
pub enum TreeCommand {
    /// Two recordings of one position and limit (different configurations) aligned by move path:
    /// where the nodes were added, and what decided it.
    Diff(TreeDiffArgs),
}

/// `harness tree diff`.
#[derive(Debug, Args)]
pub struct TreeDiffArgs {
    /// The first recording (the baseline): a `harness tree` output directory.
    pub before: PathBuf,
    /// The second recording.
    pub after: PathBuf,
    /// Output directory for diff.md, diff.json and diff.csv. Default `results/<timestamp>-tree-diff/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Lines listed in the report's table of growing lines.
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub lines: usize,
}

/// The page that draws a tree.
const VIEWER_FILE: &str = "tree.html";

/// Depth when no limit is given.
const DEFAULT_DEPTH: i32 = 6;

/// Runs `harness tree` (or `harness tree diff`).
pub fn run(args: &TreeArgs) -> Result<ExitCode> {
    if let Some(TreeCommand::Diff(diff)) = &args.command {
        return run_diff(diff);
    }
    let fen = position_fen(args)?;
    let position = Position::from_fen(&fen).with_context(|| "the position".to_string())?;
    let config = configuration(args)?;
    let (limits, limit) = match (args.depth, args.nodes) {
        (_, Some(0)) => bail!("--nodes must be at least 1"),
        (_, Some(n)) => (Limits::nodes(n), format!("{n} nodes")),
        (Some(d), _) if !(1..=engine::search::MAX_DEPTH).contains(&d) => bail!(
            "--depth must be between 1 and {}, found {d}",
            engine::search::MAX_DEPTH
        ),
        (d, None) => {
            let d = d.unwrap_or(DEFAULT_DEPTH);
            (Limits::depth(d), format!("depth {d}"))
        }
    };
    let under = lab::tree::line_under(position.board(), args.under.as_deref())?;
    if args.max_nodes == 0 {
        bail!("--max-nodes must be at least 1");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| lab::run_dir::default_out("tree"));
    lab::run_dir::check_fresh_out(&out)?;
    if out.join(TREE_FILE).exists() {
        bail!("{} already holds a tree: give another --out", out.display());
    }
    let (result, recorder) = lab::tree::record(
        &position,
        config.clone(),
        limits,
        args.max_nodes,
        args.truncate,
    )?;
    let nodes = lab::tree::rows(position.board(), &recorder, args.iteration, &under);
    if nodes.is_empty() {
        bail!("no node of the search lies under `{}`", under.join(" "));
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    table::write(&out, &nodes)?;
    let kept = lab::tree::kept_words(
        args.iteration,
        &under,
        nodes.iter().map(|n| n.iteration).max(),
    );
    let config_words = config_words(args);
    let header = Header {
        fen: &fen,
        config: &config_words,
        limit: &limit,
        kept: &kept,
        search_nodes: result.stats.nodes,
        truncated: recorder.overflowed,
        // Only a depth-limited search recorded whole has a tree to compare with its minimal one.
        minimal: (args.nodes.is_none() && under.is_empty() && !recorder.overflowed)
            .then(|| summary::Minimal::measure(&config, &position, &result, &recorder)),
    };
    let summary_md = summary::markdown(&header, &nodes);
    write_file(&out, SUMMARY_FILE, &summary_md)?;
    let tables = out.join(TREE_JSON);
    lab::report::tables::write_as(&tables, &summary_md)
        .with_context(|| format!("writing {}", tables.display()))?;
    let meta = format!("{fen} · {config_words} · {limit} · kept: {kept}");
    write_file(
        &out,
        VIEWER_FILE,
        &viewer::html("Search tree", &meta, &fen, &nodes, None),
    )?;
    let counts = (result.stats.nodes, nodes.len());
    TreeManifest::new(&fen, &config_words, &limit, counts).write(&out)?;
    // The summary as a page too, with the manifest's provenance on top.
    write_file(
        &out,
        lab::run_dir::REPORT_HTML,
        &lab::report::page::render(&out, &summary_md),
    )?;
    println!(
        "{} nodes recorded of {} searched (best move {}, score {}, depth {}) → {} ({TREE_FILE}, {SUMMARY_FILE}, {VIEWER_FILE})",
        nodes.len(),
        result.stats.nodes,
        result
            .best_move
            .map_or("-".into(), |mv| engine::board::uci_move(position.board(), mv)),
        result.score,
        result.depth,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `harness tree diff A B`: the two recordings aligned, into diff.md, diff.json, diff.csv and diff.html.
fn run_diff(args: &TreeDiffArgs) -> Result<ExitCode> {
    let before = diff::read(&args.before)?;
    let after = diff::read(&args.after)?;
    diff::check_comparable(&before, &after)?;
    let compared = diff::compare(&before, &after);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| lab::run_dir::default_out("tree-diff"));
    lab::run_dir::check_fresh_out(&out)?;
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    write_file(
        &out,
        DIFF_MD,
        &diff::markdown(&before, &after, &compared, args.lines),
    )?;
    write_file(&out, DIFF_CSV, &diff::csv(&compared))?;
    write_file(&out, DIFF_JSON, &diff::json(&before, &after, &compared))?;
    let nodes = &after.nodes;
    let growth = viewer::Growth::of(&compared, nodes);
    let meta = format!(
        "{} · {} · before: {} · after: {} — red: the line grew, green: it shrank (the deeper, the larger the ratio; full at × 1000)",
        before.fen, before.limit, before.configuration, after.configuration
    );
    write_file(
        &out,
        "diff.html",
        &viewer::html("Tree diff", &meta, &before.fen, nodes, Some(&growth)),
    )?;
    let root = &compared.lines[""];
    println!(
        "{} → {} nodes ({:+}); growth line `{}` → {} (diff.md, diff.json, diff.csv, diff.html)",
        root.before,
        root.after,
        root.growth(),
        compared.growth_line.last().map_or("", String::as_str),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The FEN of `--fen`, or of `--suite FILE --id ID`.
fn position_fen(args: &TreeArgs) -> Result<String> {
    if let Some(fen) = &args.fen {
        return Ok(fen.clone());
    }
    let (Some(file), Some(id)) = (&args.suite, &args.id) else {
        bail!("give the position: --fen FEN, or --suite FILE --id ID");
    };
    let suite =
        lab::epd::read_suite(file).with_context(|| format!("reading {}", file.display()))?;
    let record = suite
        .records
        .iter()
        .find(|r| &r.id == id)
        .with_context(|| {
            let ids: Vec<&str> = suite
                .records
                .iter()
                .take(5)
                .map(|r| r.id.as_str())
                .collect();
            format!(
                "{} has no position with id `{}` ({} positions; the first: {})",
                file.display(),
                engine::excerpt::excerpt(id),
                suite.records.len(),
                ids.join(", ")
            )
        })?;
    Ok(record.board.to_string())
}

/// `--preset` with every `--set` applied.
fn configuration(args: &TreeArgs) -> Result<SearchConfig> {
    let settings = args
        .sets
        .iter()
        .map(|set| {
            let (key, value) = set
                .split_once('=')
                .with_context(|| format!("--set expects KEY=VALUE, found `{set}`"))?;
            if lab::grid::split_values(value).len() > 1 {
                bail!(
                    "--set {set}: a tree is one configuration, give one value (a grid takes several)"
                );
            }
            Ok((key, value))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(SearchConfig::with_settings(&args.preset, settings)?)
}

fn config_words(args: &TreeArgs) -> String {
    std::iter::once(args.preset.clone())
        .chain(args.sets.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_file(dir: &Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}
