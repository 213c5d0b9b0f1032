//! The Heinz-style ablation table: for a variant against the baseline, per suite and depth, the
//! change in nodes (%) and in solved positions, as in Heinz's tables of search enhancements.

use std::collections::BTreeMap;

use super::data::RunDir;

/// One suite × depth cell.
#[derive(Debug, Clone, PartialEq)]
pub struct HeinzCell {
    /// Suite label.
    pub suite: String,
    /// Nominal depth.
    pub depth: i32,
    /// Positions both searched to this depth.
    pub positions: usize,
    /// Nodes of the variant's searches to this depth over the baseline's, minus one, in percent.
    pub delta_nodes_pct: f64,
    /// Positions solved by this depth (found and kept), variant minus baseline.
    pub delta_solved: i64,
}

/// The table of `variant` against `base`, suite by suite, depth by depth.
pub fn table(run: &RunDir, base: &str, variant: &str) -> Vec<HeinzCell> {
    let nodes_at = |config: &str| -> BTreeMap<(String, i32, String), f64> {
        run.iterations
            .iter()
            .filter(|it| it.config == config)
            .map(|it| {
                (
                    (it.suite.clone(), it.depth, it.position.clone()),
                    it.total_nodes,
                )
            })
            .collect()
    };
    let (b, v) = (nodes_at(base), nodes_at(variant));
    let mut cells: BTreeMap<(String, i32), (usize, f64, f64)> = BTreeMap::new();
    for (key, base_nodes) in &b {
        if let Some(nodes) = v.get(key) {
            let cell = cells.entry((key.0.clone(), key.1)).or_default();
            *cell = (cell.0 + 1, cell.1 + base_nodes, cell.2 + nodes);
        }
    }
    cells
        .into_iter()
        .map(
            |((suite, depth), (positions, base_nodes, nodes))| HeinzCell {
                delta_solved: solved_by(run, variant, &suite, depth)
                    - solved_by(run, base, &suite, depth),
                delta_nodes_pct: 100.0 * (nodes / base_nodes.max(1.0) - 1.0),
                suite,
                depth,
                positions,
            },
        )
        .collect()
}

/// Positions of `suite` whose final answer was correct and found by `depth`.
fn solved_by(run: &RunDir, config: &str, suite: &str, depth: i32) -> i64 {
    run.runs_of(config)
        .filter(|r| r.suite == suite && r.solved)
        .filter(|r| r.depth_to_solution.is_some_and(|d| d <= f64::from(depth)))
        .count() as i64
}
