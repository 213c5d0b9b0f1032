//! A recorded tree on disk: one Arrow IPC file (`tree.arrow`), one row per node, ZSTD-compressed.
//! Arrow IPC rather than Parquet because polars writes and reads it with the `ipc` feature alone
//! (Parquet would add its own encoders to a cold build), Python reads it with `polars.read_ipc`
//! or `pyarrow.feather`, and it is the format of the browser's Arrow tools.

use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::{
    Column, DataFrame, IpcCompression, IpcReader, IpcWriter, SerReader, SerWriter,
};

use super::TreeNode;

/// The file a recorded tree is written to, in its output directory.
pub const TREE_FILE: &str = "tree.arrow";

/// The rows as a table, one column per field (what acted on a node: one column per kind, and
/// the words in `actions`).
pub fn frame(nodes: &[TreeNode]) -> Result<DataFrame> {
    let col = |name: &str| name.into();
    macro_rules! column {
        ($name:expr, $f:expr) => {
            Column::new(col($name), nodes.iter().map($f).collect::<Vec<_>>())
        };
    }
    let columns = vec![
        column!("id", |n| n.id),
        column!("parent", |n| n.parent),
        column!("iteration", |n| n.iteration),
        column!("path", |n| n.path.clone()),
        column!("move_uci", |n| n.move_uci.clone()),
        column!("move_san", |n| n.move_san.clone()),
        column!("kind", |n| n.kind),
        column!("probe", |n| n.probe),
        column!("extension", |n| n.extension),
        column!("ply", |n| n.ply),
        column!("level", |n| n.level),
        column!("alpha", |n| n.alpha),
        column!("beta", |n| n.beta),
        column!("expected", |n| n.expected),
        column!("found", |n| n.found),
        column!("static_eval", |n| n.static_eval),
        column!("value", |n| n.value),
        column!("best", |n| n.best.clone()),
        column!("cutoff_move", |n| n.cutoff.as_ref().map(|c| c.0.clone())),
        column!("cutoff_rank", |n| n.cutoff.as_ref().map(|c| c.1)),
        column!("subtree", |n| n.subtree),
        column!("dyn_left", |n| n.budget.0),
        column!("triv_left", |n| n.budget.1),
        column!("tt_cutoff", |n| n.counts.tt_cutoff),
        column!("mate_distance", |n| n.counts.mate_distance),
        column!("reverse_futility", |n| n.counts.reverse_futility),
        column!("razoring", |n| n.counts.razoring),
        column!("iir", |n| n.counts.iir),
        column!("null_move", |n| n.counts.null_move),
        column!("null_cutoff", |n| n.counts.null_cutoff),
        column!("dynamic_level", |n| n.counts.dynamic_level),
        column!("trivial_level", |n| n.counts.trivial_level),
        column!("futility_prunes", |n| n.counts.futility_prunes),
        column!("late_move_prunes", |n| n.counts.late_move_prunes),
        column!("reductions", |n| n.counts.reductions),
        column!("researches", |n| n.counts.researches),
        column!("check_extensions", |n| n.counts.check_extensions),
        column!("singular_extensions", |n| n.counts.singular_extensions),
        column!("stand_pat", |n| n.counts.stand_pat),
        column!("delta_prunes", |n| n.counts.delta_prunes),
        column!("see_prunes", |n| n.counts.see_prunes),
        column!("actions", |n| n.actions.clone()),
    ];
    DataFrame::new(nodes.len(), columns).context("building the tree's table")
}

/// Writes the rows to `dir/tree.arrow`.
pub fn write(dir: &Path, nodes: &[TreeNode]) -> Result<()> {
    let path = dir.join(TREE_FILE);
    let mut df = frame(nodes)?;
    let file =
        std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    IpcWriter::new(file)
        .with_compression(Some(IpcCompression::default()))
        .finish(&mut df)
        .with_context(|| format!("writing {}", path.display()))
}

/// Reads `dir/tree.arrow` back as rows: every field but the counts by kind, which stay in the
/// table's columns (`actions` says them in words).
pub fn read(dir: &Path) -> Result<Vec<TreeNode>> {
    let path = dir.join(TREE_FILE);
    let file = std::fs::File::open(&path).with_context(|| format!("reading {}", path.display()))?;
    let df = IpcReader::new(file)
        .finish()
        .with_context(|| format!("reading {}", path.display()))?;
    rows_of(&df).with_context(|| format!("reading {}", path.display()))
}

fn rows_of(df: &DataFrame) -> Result<Vec<TreeNode>> {
    let text = |name: &str| -> Result<Vec<Option<String>>> {
        let column = df.column(name)?.str()?;
        Ok(column.iter().map(|v| v.map(str::to_string)).collect())
    };
    let unsigned =
        |name: &str| -> Result<Vec<Option<u32>>> { Ok(df.column(name)?.u32()?.iter().collect()) };
    let signed =
        |name: &str| -> Result<Vec<Option<i32>>> { Ok(df.column(name)?.i32()?.iter().collect()) };
    let (id, parent, subtree, ply) = (
        unsigned("id")?,
        unsigned("parent")?,
        unsigned("subtree")?,
        unsigned("ply")?,
    );
    let (dyn_left, triv_left, rank) = (
        unsigned("dyn_left")?,
        unsigned("triv_left")?,
        unsigned("cutoff_rank")?,
    );
    let (iteration, level, value) = (signed("iteration")?, signed("level")?, signed("value")?);
    let (alpha, beta, static_eval) = (signed("alpha")?, signed("beta")?, signed("static_eval")?);
    let (path, uci, san) = (text("path")?, text("move_uci")?, text("move_san")?);
    let (best, cutoff, actions) = (text("best")?, text("cutoff_move")?, text("actions")?);
    let (kind, probe, extension) = (text("kind")?, text("probe")?, text("extension")?);
    let (expected, found) = (text("expected")?, text("found")?);
    // The table's words back as the row's constants (the first where a cell is empty).
    let word = |v: &Option<String>, words: &[&'static str]| -> &'static str {
        words
            .iter()
            .copied()
            .find(|w| v.as_deref() == Some(*w))
            .unwrap_or(words[0])
    };
    Ok((0..df.height())
        .map(|i| TreeNode {
            id: id[i].unwrap_or(0),
            parent: parent[i],
            iteration: iteration[i].unwrap_or(0),
            path: path[i].clone().unwrap_or_default(),
            move_uci: uci[i].clone(),
            move_san: san[i].clone(),
            kind: word(&kind[i], &["main", "qs"]),
            probe: word(&probe[i], &["plain", "reduced", "singular"]),
            extension: extension[i]
                .as_ref()
                .map(|_| word(&extension[i], &["check", "singular"])),
            ply: ply[i].unwrap_or(0),
            level: level[i].unwrap_or(0),
            alpha: alpha[i].unwrap_or(0),
            beta: beta[i].unwrap_or(0),
            expected: word(&expected[i], &["pv", "cut", "all"]),
            found: word(&found[i], &["fail-high", "fail-low", "exact"]),
            static_eval: static_eval[i],
            value: value[i].unwrap_or(0),
            best: best[i].clone(),
            cutoff: cutoff[i].clone().zip(rank[i]),
            subtree: subtree[i].unwrap_or(1),
            budget: (dyn_left[i].unwrap_or(0), triv_left[i].unwrap_or(0)),
            actions: actions[i].clone().unwrap_or_default(),
            // The counts by kind stay in the table's columns; `actions` says them in words.
            counts: Default::default(),
        })
        .collect())
}
