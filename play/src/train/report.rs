//! What a training run leaves beside its network: `net.json` (the data by checksum, the settings,
//! every epoch's losses, the quantisation error, the network's SHA-256), the loss curves, and
//! `report.md` with its page.

use std::path::Path;

use anyhow::{Context, Result};
use lab::report::figures::{colour, legend, DrawResult, Figure, FAMILY};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::data::Source;
use super::export::QuantisationError;
use super::run::EpochRow;
use super::{TrainPlan, NET_FILE, NET_JSON};

/// `net.json`: everything a network was made from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NetRecord {
    /// The network file's SHA-256.
    pub net_sha256: String,
    /// The settings.
    pub plan: TrainPlan,
    /// The data.
    pub sources: Vec<Source>,
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub validation_positions: usize,
    /// Each epoch.
    pub epochs: Vec<EpochRow>,
    /// The quantised network against the float one on held-out positions.
    pub quantisation: QuantisationError,
}

/// Reads one loss of an epoch.
type LossOf = fn(&EpochRow) -> f64;

/// Loss against epochs: training and validation.
struct LossCurves<'a> {
    rows: &'a [EpochRow],
}

impl Figure for LossCurves<'_> {
    fn name(&self) -> String {
        "loss".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let losses = self
            .rows
            .iter()
            .flat_map(|r| [r.train_loss, r.validation_loss]);
        let (lo, hi) = losses.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let pad = 0.05 * (hi - lo).max(1e-6);
        let epochs = self.rows.len().max(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption("Loss by epoch", (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0.5..epochs + 0.5, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("mean squared error of sigmoid(output)")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        let series: [(&str, LossOf); 2] = [
            ("training", |r| r.train_loss),
            ("validation (held-out chunks)", |r| r.validation_loss),
        ];
        for (i, (label, value)) in series.into_iter().enumerate() {
            let c = colour(i);
            let points: Vec<(f64, f64)> = self
                .rows
                .iter()
                .map(|r| (f64::from(r.epoch), value(r)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            chart.draw_series(points.into_iter().map(|p| Circle::new(p, 3, c.filled())))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// Writes `net.json`, the loss figure and the report of `record` into `dir`.
pub fn write(dir: &Path, record: &NetRecord) -> Result<()> {
    std::fs::write(dir.join(NET_JSON), lab::json::to_lines(record))
        .with_context(|| format!("writing {}", dir.join(NET_JSON).display()))?;
    let figure = lab::report::figures::save(
        dir,
        &LossCurves {
            rows: &record.epochs,
        },
    )?;
    lab::report::page::write(dir, &markdown(record, &figure))
}

fn markdown(r: &NetRecord, figure: &str) -> String {
    let p = &r.plan;
    let mut md = format!(
        "# Training (768→{h})×2→1 {act:?}\n\n\
         `{NET_FILE}` (SHA-256 `{sha}`): {train} training and {val} held-out positions \
         (one chunk in {every}), λ = {lambda}, scale {scale}, {epochs} epochs of batches of {batch}, \
         AdamW from lr {lr} ({schedule:?}), weight decay {wd}, seed {seed}, {threads} threads.\n\n\
         Quantised against float on {qn} held-out positions: mean |Δ| {qm:.2} cp, largest {qx:.1} cp.\n\n",
        h = p.hidden,
        act = p.activation,
        sha = r.net_sha256,
        train = r.train_positions,
        val = r.validation_positions,
        every = p.validation_every,
        lambda = p.lambda,
        scale = p.scale,
        epochs = p.epochs,
        batch = p.batch_size,
        lr = p.lr,
        schedule = p.schedule,
        wd = p.weight_decay,
        seed = p.seed,
        threads = p.threads,
        qn = r.quantisation.positions,
        qm = r.quantisation.mean_abs_cp,
        qx = r.quantisation.max_abs_cp,
    );
    md.push_str("| data | SHA-256 | chunks | positions |\n|---|---|---|---|\n");
    for s in &r.sources {
        let chunks = if s.chunks.is_empty() {
            s.units.to_string()
        } else {
            format!("{} ({})", s.units, s.chunks)
        };
        md.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            s.path.display(),
            s.sha256,
            chunks,
            s.positions
        ));
    }
    md.push_str(
        "\n| epoch | lr | training loss | validation loss | seconds |\n|---|---|---|---|---|\n",
    );
    for e in &r.epochs {
        md.push_str(&format!(
            "| {} | {:.2e} | {:.6} | {:.6} | {:.1} |\n",
            e.epoch, e.lr, e.train_loss, e.validation_loss, e.seconds
        ));
    }
    md.push_str(&format!(
        "\n## Figures\n\n{}\n",
        lab::report::figures::markdown("loss", figure)
    ));
    md
}
