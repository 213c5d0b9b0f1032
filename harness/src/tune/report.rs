//! A tune's `report.md`, one figure per parameter (θ against iterations, with the probes), and
//! `tuned.toml`/`start.toml`, read back from `tune.csv` so the report is remade from the directory.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::output::{tuned_toml, TunePoint, TUNED_TOML, TUNE_CSV};
use super::TunePlan;
use crate::report::figures::{colour, legend, save, DrawResult, Figure, FAMILY};
use crate::report::md_table::{Align, MdTable};

/// The start player, a grid file (the verification's baseline).
pub const START_TOML: &str = "start.toml";

/// One parameter's trajectory read from `tune.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The key.
    pub key: String,
    /// (k, θ after k, θ+, θ−).
    pub points: Vec<(u64, f64, f64, f64)>,
}

/// Per parameter, θ against iterations from `tune.csv` in `dir`.
pub fn trajectories(dir: &Path, plan: &TunePlan) -> Result<Vec<Trajectory>> {
    let path = dir.join(TUNE_CSV);
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let header = reader.headers()?.clone();
    let column = |name: String| header.iter().position(|h| h == name);
    let mut out: Vec<Trajectory> = plan
        .params
        .iter()
        .map(|p| Trajectory {
            key: p.key.clone(),
            points: Vec::new(),
        })
        .collect();
    for record in reader.records() {
        let record = record?;
        let get = |i: Option<usize>| -> f64 {
            i.and_then(|i| record.get(i))
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        };
        let k = get(column("k".into())) as u64;
        for t in &mut out {
            let cell = |prefix: &str| get(column(format!("{prefix}:{}", t.key)));
            t.points
                .push((k, cell("theta"), cell("plus"), cell("minus")));
        }
    }
    Ok(out)
}

/// Writes `report.md`, the figures, `tuned.toml` and `start.toml` into `dir`.
pub fn write(dir: &Path, plan: &TunePlan, theta: &[f64]) -> Result<String> {
    let trajectories = trajectories(dir, plan)?;
    let mut figures = Vec::new();
    for t in &trajectories {
        figures.push(save(dir, &ThetaTrace(t.clone()))?);
    }
    std::fs::write(
        dir.join(TUNED_TOML),
        tuned_toml(plan, theta, TunePoint::Tuned),
    )?;
    let start = tuned_toml(plan, &plan.start(), TunePoint::Start);
    std::fs::write(dir.join(START_TOML), start)?;
    let md = markdown(plan, &trajectories, &figures, dir);
    crate::report::page::write(dir, &md)?;
    Ok(md)
}

fn markdown(
    plan: &TunePlan,
    trajectories: &[Trajectory],
    figures: &[String],
    dir: &Path,
) -> String {
    let mut md = format!("# Tune `{}`\n\n", plan.name);
    let done = trajectories.first().map_or(0, |t| t.points.len());
    md.push_str(&format!(
        "- SPSA (fishtest's schedule, see `harness/src/tune/spsa.rs`): {done} of {} iterations, {} game pairs each, θ+ against θ−\n- limit: {}; openings: {} from offset {} ({} positions)\n- rules: {}\n\n",
        plan.schedule.iterations,
        plan.pairs_per_iteration,
        plan.limit,
        plan.book.source,
        plan.seed,
        plan.book.openings.len(),
        plan.rules
    ));
    let mut table = MdTable::new()
        .left("parameter")
        .columns(
            [
                "start",
                "final",
                "mean of the last 10 %",
                "drift (units of C_END)",
            ],
            Align::Right,
        )
        .left("range")
        .columns(["C_END", "R_END"], Align::Right);
    for (p, t) in plan.params.iter().zip(trajectories) {
        let tail = (t.points.len() / 10).max(1);
        let last: Vec<f64> = t.points.iter().rev().take(tail).map(|q| q.1).collect();
        let mean = last.iter().sum::<f64>() / last.len().max(1) as f64;
        let end = t.points.last().map_or(p.start, |q| q.1);
        table.row([
            format!("`{}`", p.key),
            p.start.to_string(),
            format!("{end:.2}"),
            format!("{mean:.2}"),
            format!("{:+.2}", (end - p.start) / p.c_end),
            format!("[{}, {}]", p.min, p.max),
            p.c_end.to_string(),
            p.r_end.to_string(),
        ]);
    }
    md.push_str(&table.render());
    md.push_str("\nDrift is (final − start) / C_END (fishtest #2181): a parameter that moved less than about one C_END has not shown a direction.\n\n");
    md.push_str(&format!(
        "The tuned player: `{TUNED_TOML}` (integers rounded); the start: `{START_TOML}`.\n\n"
    ));
    md.push_str("## Verify on openings the tune never saw\n\n");
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
    for f in figures {
        md.push_str(&format!("![{f}]({f}.svg)\n\n"));
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
