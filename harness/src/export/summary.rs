//! `summary.csv`: one row per configuration, computed from `runs.csv` (so a resumed run's summary
//! covers every row, old and new).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

/// One configuration's totals.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SummaryRow {
    /// Configuration id.
    pub config_id: String,
    /// `key=value` of each axis.
    pub values: String,
    /// Positions searched.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Searches stopped by the node cap.
    pub censored: usize,
    /// Sum of nodes.
    pub total_nodes: u64,
    /// Geometric mean of nodes: exp(mean(ln nodes)).
    pub geomean_nodes: f64,
    /// Median time to solution over solved positions, milliseconds.
    pub median_time_to_solution_ms: Option<f64>,
    /// Median nodes to solution over solved positions.
    pub median_nodes_to_solution: Option<f64>,
    /// Mean of the per-position EBF.
    pub mean_ebf: Option<f64>,
    /// Mean fail-high-first rate.
    pub mean_fail_high_first: f64,
    /// Sum of wall time, milliseconds.
    pub total_time_ms: f64,
}

/// Median of a non-empty sample (mean of the two middle values for even sizes).
pub fn median(mut xs: Vec<f64>) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    Some(if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    })
}

/// exp(mean(ln x)), with x ≥ 1.
pub fn geomean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    (xs.iter().map(|x| x.max(1.0).ln()).sum::<f64>() / xs.len() as f64).exp()
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Reads `runs.csv` and computes the summary rows, in configuration order.
pub fn summarise(runs: &Path, axes: &[String]) -> Result<Vec<SummaryRow>> {
    let mut reader =
        csv::Reader::from_path(runs).with_context(|| format!("reading {}", runs.display()))?;
    let headers = reader.headers()?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("runs.csv has no `{name}` column"))
    };
    let (id, solved, censored, nodes, tts, nts, ebf, fhf, time) = (
        col("config_id")?,
        col("solved")?,
        col("censored")?,
        col("nodes")?,
        col("time_to_solution_ms")?,
        col("nodes_to_solution")?,
        col("ebf")?,
        col("fail_high_first")?,
        col("time_ms")?,
    );
    let axis_cols: Vec<usize> = axes.iter().map(|a| col(a)).collect::<Result<_>>()?;
    let mut groups: BTreeMap<String, Vec<csv::StringRecord>> = BTreeMap::new();
    for record in reader.records() {
        let record = record?;
        groups
            .entry(record[id].to_string())
            .or_default()
            .push(record);
    }
    let num = |r: &csv::StringRecord, c: usize| r[c].parse::<f64>().ok();
    Ok(groups
        .into_iter()
        .map(|(config_id, rows)| {
            let first = &rows[0];
            let values = axes
                .iter()
                .zip(&axis_cols)
                .map(|(a, &c)| format!("{a}={}", &first[c]))
                .collect::<Vec<_>>()
                .join(" ");
            let node_counts: Vec<f64> = rows.iter().filter_map(|r| num(r, nodes)).collect();
            let solved_rows: Vec<&csv::StringRecord> =
                rows.iter().filter(|r| &r[solved] == "true").collect();
            SummaryRow {
                config_id,
                values,
                positions: rows.len(),
                solved: solved_rows.len(),
                censored: rows.iter().filter(|r| &r[censored] == "true").count(),
                total_nodes: node_counts.iter().sum::<f64>() as u64,
                geomean_nodes: (geomean(&node_counts) * 10.0).round() / 10.0,
                median_nodes_to_solution: median(
                    solved_rows.iter().filter_map(|r| num(r, nts)).collect(),
                ),
                median_time_to_solution_ms: median(
                    solved_rows.iter().filter_map(|r| num(r, tts)).collect(),
                ),
                mean_ebf: mean(&rows.iter().filter_map(|r| num(r, ebf)).collect::<Vec<_>>())
                    .map(|x| (x * 1000.0).round() / 1000.0),
                mean_fail_high_first: mean(
                    &rows.iter().filter_map(|r| num(r, fhf)).collect::<Vec<_>>(),
                )
                .map_or(0.0, |x| (x * 1000.0).round() / 1000.0),
                total_time_ms: rows
                    .iter()
                    .filter_map(|r| num(r, time))
                    .sum::<f64>()
                    .round(),
            }
        })
        .collect())
}

/// Writes `summary.csv`.
pub fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// The summary as an aligned text table.
pub fn table(rows: &[SummaryRow]) -> String {
    let mut s = format!(
        "{:<6} {:>9} {:>8} {:>14} {:>12} {:>12} {:>10} {:>7} {:>6}  {}\n",
        "config",
        "solved",
        "censored",
        "total nodes",
        "geomean",
        "med nts",
        "med tts ms",
        "ebf",
        "fhf",
        "values"
    );
    for r in rows {
        s += &format!(
            "{:<6} {:>4}/{:<4} {:>8} {:>14} {:>12.0} {:>12} {:>10} {:>7} {:>6.3}  {}\n",
            r.config_id,
            r.solved,
            r.positions,
            r.censored,
            r.total_nodes,
            r.geomean_nodes,
            r.median_nodes_to_solution
                .map_or("-".into(), |n| format!("{n:.0}")),
            r.median_time_to_solution_ms
                .map_or("-".into(), |t| format!("{t:.0}")),
            r.mean_ebf.map_or("-".into(), |e| format!("{e:.2}")),
            r.mean_fail_high_first,
            r.values
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_median_and_geometric_mean() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(vec![]), None);
        assert!((geomean(&[1.0, 100.0]) - 10.0).abs() < 1e-9);
        assert!((geomean(&[2.0, 8.0]) - 4.0).abs() < 1e-9);
    }
}
