//! A recorded tree on disk: one Arrow IPC file (`tree.arrow`), one row per node, LZ4-compressed.
//! Arrow IPC rather than Parquet because the `arrow-ipc` crate alone writes and reads it (Parquet
//! would add its own encoders to a cold build), Python reads it with `polars.read_ipc` or
//! `pyarrow.feather`, and it is the format of the browser's Arrow tools.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow_array::{
    Array, ArrayRef, BooleanArray, Int32Array, RecordBatch, StringArray, UInt32Array,
};
use arrow_ipc::reader::FileReader;
use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
use arrow_ipc::CompressionType;

use super::TreeNode;

/// The file a recorded tree is written to, in its output directory.
pub const TREE_FILE: &str = "tree.arrow";

/// The rows as a table, one column per field (what acted on a node: one column per kind, and
/// the words in `actions`).
pub fn frame(nodes: &[TreeNode]) -> Result<RecordBatch> {
    macro_rules! column {
        ($name:expr, $array:ident, $f:expr) => {
            (
                $name,
                Arc::new($array::from(nodes.iter().map($f).collect::<Vec<_>>())) as ArrayRef,
            )
        };
    }
    let columns = vec![
        column!("id", UInt32Array, |n| n.id),
        column!("parent", UInt32Array, |n| n.parent),
        column!("iteration", Int32Array, |n| n.iteration),
        column!("path", StringArray, |n| n.path.clone()),
        column!("move_uci", StringArray, |n| n.move_uci.clone()),
        column!("move_san", StringArray, |n| n.move_san.clone()),
        column!("kind", StringArray, |n| n.kind),
        column!("probe", StringArray, |n| n.probe),
        column!("extension", StringArray, |n| n.extension),
        column!("ply", UInt32Array, |n| n.ply),
        column!("level", Int32Array, |n| n.level),
        column!("alpha", Int32Array, |n| n.alpha),
        column!("beta", Int32Array, |n| n.beta),
        column!("expected", StringArray, |n| n.expected),
        column!("found", StringArray, |n| n.found),
        column!("static_eval", Int32Array, |n| n.static_eval),
        column!("value", Int32Array, |n| n.value),
        column!("best", StringArray, |n| n.best.clone()),
        column!("cutoff_move", StringArray, |n| n
            .cutoff
            .as_ref()
            .map(|c| c.0.clone())),
        column!("cutoff_rank", UInt32Array, |n| n
            .cutoff
            .as_ref()
            .map(|c| c.1)),
        column!("subtree", UInt32Array, |n| n.subtree),
        column!("dyn_left", UInt32Array, |n| n.budget.0),
        column!("triv_left", UInt32Array, |n| n.budget.1),
        column!("tt_cutoff", BooleanArray, |n| n.counts.tt_cutoff),
        column!("mate_distance", BooleanArray, |n| n.counts.mate_distance),
        column!("reverse_futility", BooleanArray, |n| n
            .counts
            .reverse_futility),
        column!("razoring", BooleanArray, |n| n.counts.razoring),
        column!("iir", BooleanArray, |n| n.counts.iir),
        column!("null_move", BooleanArray, |n| n.counts.null_move),
        column!("null_cutoff", BooleanArray, |n| n.counts.null_cutoff),
        column!("dynamic_level", BooleanArray, |n| n.counts.dynamic_level),
        column!("trivial_level", BooleanArray, |n| n.counts.trivial_level),
        column!("futility_prunes", UInt32Array, |n| n.counts.futility_prunes),
        column!("late_move_prunes", UInt32Array, |n| n
            .counts
            .late_move_prunes),
        column!("history_prunes", UInt32Array, |n| n.counts.history_prunes),
        column!("reductions", UInt32Array, |n| n.counts.reductions),
        column!("researches", UInt32Array, |n| n.counts.researches),
        column!("check_extensions", UInt32Array, |n| n
            .counts
            .check_extensions),
        column!("singular_extensions", UInt32Array, |n| n
            .counts
            .singular_extensions),
        column!("negative_extensions", UInt32Array, |n| n
            .counts
            .negative_extensions),
        column!("multicut", BooleanArray, |n| n.counts.multicut),
        column!("stand_pat", BooleanArray, |n| n.counts.stand_pat),
        column!("delta_prunes", UInt32Array, |n| n.counts.delta_prunes),
        column!("see_prunes", UInt32Array, |n| n.counts.see_prunes),
        column!("actions", StringArray, |n| n.actions.clone()),
    ];
    RecordBatch::try_from_iter(columns).context("building the tree's table")
}

/// Writes the rows to `dir/tree.arrow`.
pub fn write(dir: &Path, nodes: &[TreeNode]) -> Result<()> {
    let path = dir.join(TREE_FILE);
    let batch = frame(nodes)?;
    let file =
        std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    let options =
        IpcWriteOptions::default().try_with_compression(Some(CompressionType::LZ4_FRAME))?;
    let mut writer = FileWriter::try_new_with_options(file, &batch.schema(), options)
        .with_context(|| format!("writing {}", path.display()))?;
    writer
        .write(&batch)
        .and_then(|()| writer.finish())
        .with_context(|| format!("writing {}", path.display()))
}

/// Reads `dir/tree.arrow` back as rows: every field but the counts by kind, which stay in the
/// table's columns (`actions` says them in words).
pub fn read(dir: &Path) -> Result<Vec<TreeNode>> {
    let path = dir.join(TREE_FILE);
    let file = std::fs::File::open(&path).with_context(|| format!("reading {}", path.display()))?;
    let reader =
        FileReader::try_new(file, None).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.with_context(|| format!("reading {}", path.display()))?;
        rows.extend(rows_of(&batch).with_context(|| format!("reading {}", path.display()))?);
    }
    Ok(rows)
}

/// A column of the table as its Arrow array type.
fn column<'a, T: Array + 'static>(df: &'a RecordBatch, name: &str) -> Result<&'a T> {
    df.column_by_name(name)
        .with_context(|| format!("no `{name}` column"))?
        .as_any()
        .downcast_ref::<T>()
        .with_context(|| format!("column `{name}` is not of the type written"))
}

fn rows_of(df: &RecordBatch) -> Result<Vec<TreeNode>> {
    let text = |name: &str| -> Result<Vec<Option<String>>> {
        let column = column::<StringArray>(df, name)?;
        Ok(column.iter().map(|v| v.map(str::to_string)).collect())
    };
    let unsigned = |name: &str| -> Result<Vec<Option<u32>>> {
        Ok(column::<UInt32Array>(df, name)?.iter().collect())
    };
    let signed = |name: &str| -> Result<Vec<Option<i32>>> {
        Ok(column::<Int32Array>(df, name)?.iter().collect())
    };
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
    Ok((0..df.num_rows())
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
                .map(|_| word(&extension[i], &["check", "singular", "negative"])),
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
