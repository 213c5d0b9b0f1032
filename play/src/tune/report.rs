//! A tune's `report.md`, one figure per parameter (θ against iterations, with the probes), and
//! `tuned.toml`/`start.toml`, read back from `tune.csv` so the report is remade from the directory.

use std::path::Path;

use anyhow::{Context, Result};
use lab::report::figures::{colour, legend, save, DrawResult, Figure, FAMILY};
use lab::report::md_table::{Align, MdTable};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::drift;
use super::output::{tuned_toml, TunePoint, RESULT_COLUMN, TUNED_TOML, TUNE_CSV};
use super::TunePlan;

/// The start player, a grid file (the verification's baseline).
pub const START_TOML: &str = "start.toml";

/// One parameter's trajectory read from `tune.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The key.
    pub key: String,
    /// (k, θ after k, θ+, θ−).
    pub points: Vec<(u64, f64, f64, f64)>,
    /// R_k·c_k per iteration: the step θ took per point of W − L.
    pub steps: Vec<f64>,
}

impl Trajectory {
    /// θ at the end, or `start` before the first iteration.
    fn end(&self, start: f64) -> f64 {
        self.points.last().map_or(start, |q| q.1)
    }
}

/// `tune.csv` read back.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneTable {
    /// Per parameter, in the plan's order.
    pub trajectories: Vec<Trajectory>,
    /// W − L of the + side per iteration.
    pub results: Vec<f64>,
}

/// `tune.csv` in `dir` read: per parameter its trajectory and steps, per iteration W − L.
pub fn read(dir: &Path, plan: &TunePlan) -> Result<TuneTable> {
    let path = dir.join(TUNE_CSV);
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let header = reader.headers()?.clone();
    let column = |name: String| header.iter().position(|h| h == name);
    let mut table = TuneTable {
        trajectories: plan
            .params
            .iter()
            .map(|p| Trajectory {
                key: p.key.clone(),
                points: Vec::new(),
                steps: Vec::new(),
            })
            .collect(),
        results: Vec::new(),
    };
    for record in reader.records() {
        let record = record?;
        let get = |i: Option<usize>| -> f64 {
            i.and_then(|i| record.get(i))
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        };
        let k = get(column("k".into())) as u64;
        table.results.push(get(column(RESULT_COLUMN.into())));
        for t in &mut table.trajectories {
            let cell = |prefix: &str| get(column(format!("{prefix}:{}", t.key)));
            t.points
                .push((k, cell("theta"), cell("plus"), cell("minus")));
            t.steps.push(cell("r") * cell("c"));
        }
    }
    Ok(table)
}

/// Writes `report.md`, the figures, `tuned.toml` and `start.toml` into `dir`.
pub fn write(dir: &Path, plan: &TunePlan, theta: &[f64]) -> Result<String> {
    let table = read(dir, plan)?;
    let mut figures = Vec::new();
    for t in &table.trajectories {
        figures.push(save(dir, &ThetaTrace(t.clone()))?);
    }
    std::fs::write(
        dir.join(TUNED_TOML),
        tuned_toml(plan, theta, TunePoint::Tuned),
    )?;
    let start = tuned_toml(plan, &plan.start(), TunePoint::Start);
    std::fs::write(dir.join(START_TOML), start)?;
    let md = markdown(plan, &table, &figures, dir);
    lab::report::page::write(dir, &md)?;
    Ok(md)
}

fn markdown(plan: &TunePlan, table: &TuneTable, figures: &[String], dir: &Path) -> String {
    let mut md = format!("# Tune `{}`\n\n", plan.name);
    md.push_str(&format!(
        "- SPSA (fishtest's schedule, see `play/src/tune/spsa.rs`): {} of {} iterations, {} game pairs each, θ+ against θ−\n- limit: {}; openings: {} from offset {} ({} positions)\n- rules: {}\n\n",
        table.results.len(),
        plan.schedule.iterations,
        plan.pairs_per_iteration,
        plan.limit,
        plan.book.source,
        plan.seed,
        plan.book.openings.len(),
        plan.rules
    ));
    md.push_str(&values_table(plan, &table.trajectories));
    md.push_str(&drift_section(plan, table));
    md.push_str(&format!(
        "The tuned player: `{TUNED_TOML}` (integers rounded); the start: `{START_TOML}`.\n\n"
    ));
    md.push_str(&verify_section(plan, dir));
    for f in figures {
        md.push_str(&format!("{}\n\n", lab::report::figures::markdown(f, f)));
    }
    md
}

/// Each parameter's start, end and schedule.
fn values_table(plan: &TunePlan, trajectories: &[Trajectory]) -> String {
    let mut table = MdTable::new()
        .left("parameter")
        .columns(["start", "final", "mean of the last 10 %"], Align::Right)
        .left("range")
        .columns(["C_END", "R_END"], Align::Right);
    for (p, t) in plan.params.iter().zip(trajectories) {
        let tail = (t.points.len() / 10).max(1);
        let last: Vec<f64> = t.points.iter().rev().take(tail).map(|q| q.1).collect();
        let mean = last.iter().sum::<f64>() / last.len().max(1) as f64;
        table.row([
            format!("`{}`", p.key),
            p.start.to_string(),
            format!("{:.2}", t.end(p.start)),
            format!("{mean:.2}"),
            format!("[{}, {}]", p.min, p.max),
            p.c_end.to_string(),
            p.r_end.to_string(),
        ]);
    }
    table.render()
}

/// Each parameter's drift against the tune's own noise ([`drift`]), and how that is estimated.
fn drift_section(plan: &TunePlan, table: &TuneTable) -> String {
    let end: Vec<f64> = plan
        .params
        .iter()
        .zip(&table.trajectories)
        .map(|(p, t)| t.end(p.start))
        .collect();
    let steps: Vec<Vec<f64>> = table.trajectories.iter().map(|t| t.steps.clone()).collect();
    let drifts = drift::estimate(drift::Walks {
        params: &plan.params,
        end: &end,
        steps: &steps,
        results: &table.results,
    });
    let mut md_table = MdTable::new()
        .left("parameter")
        .columns(
            ["drift (C_END)", "noise (C_END)", "z", "Holm p"],
            Align::Right,
        )
        .left("moved?");
    for (p, d) in plan.params.iter().zip(&drifts) {
        md_table.row([
            format!("`{}`", p.key),
            format!("{:+.2}", d.drift),
            format!("{:.2}", d.noise),
            format!("{:+.2}", d.z),
            format!("{:.3}", d.holm),
            (if d.moved() { "yes" } else { "no" }).to_string(),
        ]);
    }
    format!(
        "\n{}\n{}\n\n",
        md_table.render(),
        drift_note(plan, &table.results, &drifts)
    )
}

/// The sentence under the drift table: the estimate, its correction family and the bound case.
fn drift_note(plan: &TunePlan, results: &[f64], drifts: &[drift::Drift]) -> String {
    let n = plan.params.len();
    let mut note = format!(
        "Drift is (final − start) / C_END (fishtest #2181). Noise is the drift's standard deviation had the parameter not mattered, estimated from this tune's own steps and results: √(Σ_k (R_k·c_k)² · mean (W − L)²) / C_END, R_k·c_k from `{TUNE_CSV}`'s columns `r:` and `c:`, mean (W − L)² = {:.2} over its {} iterations (with an effect it is a little larger: the estimate errs toward noise). z = drift / noise; its two-sided normal p is {}, and a parameter moved where that is below {}.",
        drift::mean_square(results),
        results.len(),
        if n == 1 {
            "not corrected (one parameter: its Holm p is p)".to_string()
        } else {
            format!("Holm-adjusted across the tune's {n} parameters")
        },
        drift::ALPHA
    );
    let bound: Vec<String> = plan
        .params
        .iter()
        .zip(drifts)
        .filter(|(_, d)| d.at_bound)
        .map(|(p, _)| format!("`{}`", p.key))
        .collect();
    if !bound.is_empty() {
        note.push_str(&format!(
            " {} started at a bound and can drift one way only: a walk clipped there ends distributed as the walk's maximum, twice as likely beyond x as the walk (reflection principle), which is the same p.",
            bound.join(", ")
        ));
    }
    note
}

/// What a verification does and has found.
fn verify_section(plan: &TunePlan, dir: &Path) -> String {
    let mut md = String::from("## Verify on openings the tune never saw\n\n");
    let cycled = if plan.total_pairs() > plan.book.openings.len() as u64 {
        format!(
            "The tune's {} pairs went round its book of {} openings, so a verification needs another book (`--verify-openings FILE`: positions the two books share are left out).",
            plan.total_pairs(),
            plan.book.openings.len()
        )
    } else {
        format!(
            "The tune played openings {}–{} of its book from offset {}; a verification without `--verify-openings` takes the ones after.",
            0,
            plan.total_pairs(),
            plan.seed
        )
    };
    md.push_str(&format!(
        "{cycled}\n\n```\n{}\n```\n\n",
        verify_commands(dir)
    ));
    for v in super::verify::dirs(dir) {
        let name = v
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        match super::verify::verdict(&v) {
            Ok(line) => md.push_str(&format!("### `{name}/`\n\n{line}.\n\n")),
            Err(e) => md.push_str(&format!("### `{name}/`\n\nnot finished ({e:#}).\n\n")),
        }
    }
    md
}

/// The commands that verify a tune: the match (`--verify`, which `tune --resume` adds to a
/// finished tune) and both players' nodes on a suite at equal depth.
pub fn verify_commands(dir: &Path) -> String {
    let d = dir.display();
    format!(
        "harness tune --resume {d} --verify 200 --verify-sprt 0,5\n\
         harness grid --grid {d}/{START_TOML} --suite ../shared/suites/wac.epd --depth 8 --out {d}/nodes-start\n\
         harness grid --grid {d}/{TUNED_TOML} --suite ../shared/suites/wac.epd --depth 8 --out {d}/nodes-tuned\n\
         harness compare {d}/nodes-start {d}/nodes-tuned --allow-mismatch"
    )
}

/// Which value of a trajectory point a curve draws.
type Cell = fn(&(u64, f64, f64, f64)) -> f64;

/// θ against iterations for one parameter, with the two probes faint behind it.
pub struct ThetaTrace(pub Trajectory);

impl Figure for ThetaTrace {
    fn name(&self) -> String {
        let safe: String = self
            .0
            .key
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("theta_{safe}")
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let points = &self.0.points;
        let max_x = points.last().map_or(1, |p| p.0).max(1) as f64;
        let values = points
            .iter()
            .flat_map(|p| [p.1, p.2, p.3])
            .filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let (lo, hi) = if lo > hi { (0.0, 1.0) } else { (lo, hi) };
        let pad = 0.05 * (hi - lo).max(1e-9);
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("{}: θ against iterations", self.0.key),
                (FAMILY, 24),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..max_x, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc(self.0.key.as_str())
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        let series: [(&str, usize, f64, Cell); 3] = [
            ("θ+", 2, 0.3, |p| p.2),
            ("θ−", 3, 0.3, |p| p.3),
            ("θ", 0, 1.0, |p| p.1),
        ];
        for (label, index, alpha, value) in series {
            let c = colour(index).mix(alpha);
            let line = points.iter().map(|p| (p.0 as f64, value(p)));
            chart
                .draw_series(LineSeries::new(line, c.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}
