//! `harness report`: measure → analyse → report → plot, after criterion.rs. A run directory's CSVs
//! are read (`data`), analysed (`summary`, `paired`, `heinz`, `depth`, with `stats` underneath),
//! written as `summary.csv` and `report.md` (`markdown`, with `measured_minimal` for `--minimal-tree`) and drawn (`figures`).

pub mod compare;
pub mod data;
pub mod depth;
pub mod depth_tail;
pub mod figures;
pub mod format;
pub mod heinz;
pub mod markdown;
pub mod md_table;
pub mod measured_minimal;
pub mod page;
pub mod paired;
pub mod selective;
pub mod stats;
pub mod steps;
pub mod summary;
pub mod tables;
#[cfg(test)]
mod tests;

use std::path::Path;

use anyhow::{bail, Result};
use data::RunDir;
use figures::{save, EbfByDepth, Heatmap, NodesByDepth, RatioTails, SolvedAxis, SolvedCurve};
use heinz::HeinzCell;
use paired::Paired;
use summary::SummaryRow;

/// Everything the report says about one run directory.
#[derive(Debug)]
pub struct Analysis {
    /// The baseline configuration id.
    pub baseline: String,
    /// Per-configuration totals.
    pub summary: Vec<SummaryRow>,
    /// Every other configuration against the baseline.
    pub paired: Vec<(String, Paired)>,
    /// Heinz tables of every other configuration.
    pub heinz: Vec<(String, Vec<HeinzCell>)>,
    /// Steps along every numeric axis.
    pub steps: Vec<steps::Step>,
    /// Each step's cost of completing each depth.
    pub depth_tails: Vec<depth_tail::TailRow>,
    /// Selective-deepening counters per configuration.
    pub selective: Vec<selective::SelectiveRow>,
    /// Knuth–Moore rows.
    pub minimal_tree: Vec<depth::MinimalTreeRow>,
    /// The measured minimal tree, for a run made with `--minimal-tree`.
    pub measured_minimal: Vec<measured_minimal::MeasuredRow>,
}

/// Analyses `run` against `baseline` (default: the grid's first configuration).
pub fn analyse(run: &RunDir, baseline: Option<&str>) -> Result<Analysis> {
    let ids = run.config_ids();
    let baseline = match baseline {
        Some(b) if ids.iter().any(|id| id == b) => b.to_string(),
        Some(b) => bail!(
            "baseline `{b}` is not a configuration of this run (expected one of {})",
            ids.join(", ")
        ),
        None => ids[0].clone(),
    };
    let others: Vec<&String> = ids.iter().filter(|id| **id != baseline).collect();
    let steps = steps::steps(run);
    Ok(Analysis {
        summary: summary::summarise(run),
        paired: others
            .iter()
            .map(|id| {
                (
                    (*id).clone(),
                    paired::compare(run.runs_of(&baseline), run.runs_of(id)),
                )
            })
            .collect(),
        // Depths of different engines are not the same unit: the Heinz table stays within the
        // baseline's engine.
        heinz: others
            .iter()
            .filter(|id| run.engine_of(id) == run.engine_of(&baseline))
            .map(|id| ((*id).clone(), heinz::table(run, &baseline, id)))
            .collect(),
        depth_tails: depth_tail::tails(run, &steps),
        steps,
        selective: selective::table(run),
        minimal_tree: depth::minimal_tree(run),
        measured_minimal: measured_minimal::table(run),
        baseline,
    })
}

/// Reads `dir`, writes `summary.csv`, `report.md` and the figures into it, and returns the summary.
pub fn write(dir: &Path, baseline: Option<&str>) -> Result<Vec<SummaryRow>> {
    Ok(write_with_answer(dir, baseline)?.0)
}

/// [`write()`], and the experiment's answer in a few lines: each step along a numeric axis with the
/// other axes as in the grid's first step (their first values), its geometric-mean node growth
/// and its share of positions growing ×5 or more, with 95 % intervals — what `grid` ends with.
pub fn write_with_answer(
    dir: &Path,
    baseline: Option<&str>,
) -> Result<(Vec<SummaryRow>, Vec<String>)> {
    let run = RunDir::load(dir)?;
    let analysis = analyse(&run, baseline)?;
    let answer = answer_lines(&analysis.steps);
    summary::write_rows(&dir.join(crate::run_dir::SUMMARY), &analysis.summary)?;
    let paired: Vec<paired::PairedRow> = analysis
        .paired
        .iter()
        .map(|(id, p)| paired::PairedRow::new(id, run.label(id), &analysis.baseline, p))
        .collect();
    if !paired.is_empty() {
        summary::write_rows(&dir.join(crate::run_dir::PAIRED), &paired)?;
    }
    let figures = draw_figures(&run, &analysis)?;
    let md = markdown::render(&run, &analysis, &figures);
    page::write(dir, &md)?;
    Ok((analysis.summary, answer))
}

/// The growth a step's answer line counts as a blowup.
const BLOWUP: f64 = 5.0;
/// Most steps an answer names.
const ANSWER_STEPS: usize = 4;

fn answer_lines(steps: &[steps::Step]) -> Vec<String> {
    let first = steps.first().map(|s| s.context.as_str());
    steps
        .iter()
        .filter(|s| Some(s.context.as_str()) == first)
        .take(ANSWER_STEPS)
        .filter_map(|s| {
            let g = s.paired.geomean_ratio.as_ref()?;
            let n = s.paired.pairs.len();
            let k = s.paired.pairs.iter().filter(|p| p.ratio() >= BLOWUP).count();
            let w = stats::wilson(k, n)?;
            Some(format!(
                "{} {} → {}{}: nodes ×{:.2} [{:.2}, {:.2}] (geometric mean), ≥ ×{BLOWUP} on {k} of {n} positions ({:.1} % [{:.1}, {:.1}])",
                s.axis,
                s.from,
                s.to,
                if s.context.is_empty() { String::new() } else { format!(" at {}", s.context) },
                g.point,
                g.low,
                g.high,
                100.0 * w.point,
                100.0 * w.low,
                100.0 * w.high
            ))
        })
        .collect()
}

/// Draws every figure that applies to this run; returns their file stems.
fn draw_figures(run: &RunDir, analysis: &Analysis) -> Result<Vec<String>> {
    let by_depth = depth::panels(run);
    let mut names = vec![
        save(&run.dir, &NodesByDepth(by_depth.clone()))?,
        save(&run.dir, &EbfByDepth(by_depth))?,
        save(&run.dir, &solved_curve(run, SolvedAxis::Time))?,
        save(&run.dir, &solved_curve(run, SolvedAxis::Nodes))?,
    ];
    if !analysis.paired.is_empty() {
        names.push(save(&run.dir, &ratio_tails(run, analysis))?);
    }
    for figure in step_ratios(&analysis.steps) {
        names.push(save(&run.dir, &figure)?);
    }
    for figure in depth_tail_figures(&analysis.depth_tails) {
        names.push(save(&run.dir, &figure)?);
    }
    if let Some(heatmap) = heatmap(run, &analysis.summary) {
        names.push(save(&run.dir, &heatmap)?);
    }
    Ok(names)
}

fn solved_curve(run: &RunDir, axis: SolvedAxis) -> SolvedCurve {
    let ids = run.config_ids();
    let budget = |r: &data::Run| match axis {
        SolvedAxis::Time => r.time_to_solution_ms,
        SolvedAxis::Nodes => r.nodes_to_solution,
    };
    SolvedCurve {
        axis,
        positions: ids
            .iter()
            .map(|id| run.runs_of(id).count())
            .max()
            .unwrap_or(0),
        series: ids
            .iter()
            .map(|id| {
                (
                    run.label(id),
                    run.runs_of(id)
                        .filter(|r| r.solved)
                        .filter_map(budget)
                        .collect(),
                )
            })
            .collect(),
    }
}

fn ratio_tails(run: &RunDir, analysis: &Analysis) -> RatioTails {
    RatioTails {
        name: "node_ratio_tails".into(),
        title: format!(
            "Nodes per position against the baseline ({}): how often, and how far",
            run.label(&analysis.baseline)
        ),
        quantity: "nodes",
        series: analysis
            .paired
            .iter()
            .map(|(id, p)| {
                (
                    run.label(id),
                    p.pairs.iter().map(paired::Pair::ratio).collect(),
                )
            })
            .collect(),
    }
}

/// One figure per step that has two or more depths: the tails of its per-position time ratios,
/// a curve per depth.
fn depth_tail_figures(rows: &[depth_tail::TailRow]) -> Vec<RatioTails> {
    let mut figures: Vec<RatioTails> = Vec::new();
    for r in rows {
        let name = format!(
            "depth_tail_{}_{}-{}{}",
            data::short_axis(&r.axis),
            r.from,
            r.to,
            file_part(&r.context)
        );
        let curve = (format!("depth {}", r.depth), r.time_ratios.clone());
        match figures.iter_mut().find(|f| f.name == name) {
            Some(f) => f.series.push(curve),
            None => figures.push(RatioTails {
                title: format!(
                    "{} {} → {}{}: time to complete each depth, after / before",
                    data::short_axis(&r.axis),
                    r.from,
                    r.to,
                    if r.context.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", r.context)
                    }
                ),
                name,
                quantity: "time",
                series: vec![curve],
            }),
        }
    }
    figures.retain(|f| f.series.len() >= 2);
    figures
}

/// One ratio-tail figure per axis and setting of the other axes, a curve per step.
fn step_ratios(steps: &[steps::Step]) -> Vec<RatioTails> {
    let mut figures: Vec<(String, String, RatioTails)> = Vec::new();
    for s in steps {
        let key = (s.axis.clone(), s.context.clone());
        let index = figures
            .iter()
            .position(|(a, c, _)| (a, c) == (&key.0, &key.1));
        let index = index.unwrap_or_else(|| {
            let stem = format!(
                "steps_{}{}",
                data::short_axis(&s.axis),
                file_part(&s.context)
            );
            let title = format!(
                "Steps along {}{}: nodes per position, after / before",
                data::short_axis(&s.axis),
                if s.context.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", s.context)
                }
            );
            figures.push((
                key.0,
                key.1,
                RatioTails {
                    name: stem,
                    title,
                    quantity: "nodes",
                    series: Vec::new(),
                },
            ));
            figures.len() - 1
        });
        let ratios = s.paired.pairs.iter().map(paired::Pair::ratio).collect();
        figures[index]
            .2
            .series
            .push((format!("{} → {}", s.from, s.to), ratios));
    }
    figures.into_iter().map(|(_, _, f)| f).collect()
}

/// `dyn_levels=4 see=true` → `_dyn_levels-4_see-true`: a file-name-safe suffix.
fn file_part(context: &str) -> String {
    context
        .split_whitespace()
        .map(|kv| {
            format!(
                "_{}",
                kv.replace('=', "-").replace(
                    |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_',
                    ""
                )
            )
        })
        .collect()
}

/// The heatmap of a grid with exactly two axes.
fn heatmap(run: &RunDir, summary: &[SummaryRow]) -> Option<Heatmap> {
    let axes = &run.manifest.axes;
    if axes.len() != 2 {
        return None;
    }
    let distinct = |k: usize| {
        let mut values: Vec<String> = Vec::new();
        for c in &run.manifest.configs {
            if !values.contains(&c.values[k]) {
                values.push(c.values[k].clone());
            }
        }
        values
    };
    let (xs, ys) = (distinct(0), distinct(1));
    let cells = run
        .manifest
        .configs
        .iter()
        .filter_map(|c| {
            let row = summary.iter().find(|s| s.config_id == c.id)?;
            Some(figures::HeatCell {
                x: xs.iter().position(|v| *v == c.values[0])?,
                y: ys.iter().position(|v| *v == c.values[1])?,
                nodes: row.geomean_nodes,
                solved: row.solved,
                positions: row.positions,
            })
        })
        .collect();
    Some(Heatmap {
        x_axis: (axes[0].clone(), xs),
        y_axis: (axes[1].clone(), ys),
        cells,
    })
}
