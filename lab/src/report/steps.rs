//! Steps along a numeric axis: each configuration against its neighbour one value up the axis,
//! everything else equal (candidate_limit 2→3, 3→4, 4→5 at each dyn_levels). This is where a
//! reader sees growth turn from tolerable to intolerable.

use super::data::{short_axis, RunDir};
use super::paired::{self, Paired};

/// One step along an axis.
#[derive(Debug, Clone)]
pub struct Step {
    /// The axis stepped along.
    pub axis: String,
    /// The other axes' values, `key=value …` (empty for a one-axis grid).
    pub context: String,
    /// The axis value stepped from.
    pub from: String,
    /// The axis value stepped to.
    pub to: String,
    /// Configuration id of `from`.
    pub from_id: String,
    /// Configuration id of `to`.
    pub to_id: String,
    /// The step's paired statistics (`to` against `from`).
    pub paired: Paired,
}

/// Every step along every axis whose values are all numbers, in axis and grid order.
pub fn steps(run: &RunDir) -> Vec<Step> {
    let m = &run.manifest;
    let mut out = Vec::new();
    for (k, axis) in m.axes.iter().enumerate() {
        let Some(values) = numeric_values(run, k) else {
            continue;
        };
        for from in &m.configs {
            let Some(pos) = values.iter().position(|v| *v == from.values[k]) else {
                continue;
            };
            let Some(next) = values.get(pos + 1) else {
                continue;
            };
            let to = m.configs.iter().find(|c| {
                c.values[k] == *next
                    && (0..m.axes.len()).all(|j| j == k || c.values[j] == from.values[j])
            });
            let Some(to) = to else { continue };
            out.push(Step {
                axis: axis.clone(),
                context: context(run, k, &from.values),
                from: from.values[k].clone(),
                to: next.clone(),
                from_id: from.id.clone(),
                to_id: to.id.clone(),
                paired: paired::compare(run.runs_of(&from.id), run.runs_of(&to.id)),
            });
        }
    }
    out
}

/// The distinct values of axis `k`, ascending, if every one is a number and there are two or more.
fn numeric_values(run: &RunDir, k: usize) -> Option<Vec<String>> {
    let mut values: Vec<(f64, String)> = Vec::new();
    for c in &run.manifest.configs {
        let v = &c.values[k];
        let x: f64 = v.parse().ok()?;
        if values.iter().all(|(_, s)| s != v) {
            values.push((x, v.clone()));
        }
    }
    values.sort_by(|a, b| a.0.total_cmp(&b.0));
    (values.len() >= 2).then(|| values.into_iter().map(|(_, s)| s).collect())
}

fn context(run: &RunDir, k: usize, values: &[String]) -> String {
    let axes = &run.manifest.axes;
    (0..axes.len())
        .filter(|&j| j != k)
        .map(|j| format!("{}={}", short_axis(&axes[j]), values[j]))
        .collect::<Vec<_>>()
        .join(" ")
}
