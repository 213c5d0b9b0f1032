//! The match report's figures: the SPRT's LLR after each pair with its bounds, and each player's
//! Elo against its pairing's first player with the 95 % interval.

use lab::report::figures::{colour, legend, DrawResult, Figure, FAMILY};
use plotters::coord::Shift;
use plotters::prelude::*;

/// LLR against pairs played, one curve per pairing, and Wald's bounds.
pub struct LlrTrace {
    /// (pairing name, (pairs, LLR) points).
    pub series: Vec<(String, Vec<(u64, f64)>)>,
    /// (lower, upper) bounds.
    pub bounds: (f64, f64),
    /// The hypotheses in words.
    pub title: String,
}

impl Figure for LlrTrace {
    fn name(&self) -> String {
        "llr_trace".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let max_x = self
            .series
            .iter()
            .flat_map(|(_, p)| p.iter().map(|q| q.0))
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let values = self.series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
        let (lo, hi) = values.fold((self.bounds.0, self.bounds.1), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        let pad = 0.1 * (hi - lo);
        let mut chart = ChartBuilder::on(root)
            .caption(self.title.as_str(), (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..max_x * 1.02, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("game pairs")
            .y_desc("log-likelihood ratio")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for bound in [self.bounds.0, self.bounds.1] {
            chart.draw_series(LineSeries::new(
                [(0.0, bound), (max_x * 1.02, bound)],
                BLACK.mix(0.6).stroke_width(2),
            ))?;
        }
        for (i, (label, points)) in self.series.iter().enumerate() {
            let c = colour(i);
            let line =
                std::iter::once((0.0, 0.0)).chain(points.iter().map(|&(x, y)| (x as f64, y)));
            chart
                .draw_series(LineSeries::new(line, c.stroke_width(2)))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

/// One point of a ladder's series: (log₂ budget, Elo, lower, upper).
pub type RungPoint = (f64, f64, f64, f64);

/// Each effect's Elo across a ladder's rungs (x: log₂ budget, labelled by rung), with intervals.
pub struct LadderPlot {
    /// (effect, its point at each rung).
    pub series: Vec<(String, Vec<RungPoint>)>,
    /// (log₂ budget, rung label) of each rung.
    pub rungs: Vec<(f64, String)>,
}

impl Figure for LadderPlot {
    fn name(&self) -> String {
        "ladder".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let points = self.series.iter().flat_map(|(_, p)| p.iter());
        let (lo, hi) = points
            .clone()
            .fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.2), b.max(p.3)));
        let (x0, x1) = points.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
        let (xpad, ypad) = (0.15 * (x1 - x0).max(1.0), 0.1 * (hi - lo).max(10.0));
        let mut chart = ChartBuilder::on(root)
            .caption("Effects across budgets, 95 % intervals", (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 - xpad)..(x1 + xpad), (lo - ypad)..(hi + ypad))?;
        chart
            .configure_mesh()
            .x_labels(0)
            .disable_x_mesh()
            .x_desc("budget (log scale)")
            .y_desc("Elo")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(x0 - xpad, 0.0), (x1 + xpad, 0.0)],
            BLACK.mix(0.6),
        ))?;
        // The rungs are the only meaningful x positions: each gets a line and its name.
        for (x, label) in &self.rungs {
            chart.draw_series(LineSeries::new(
                [(*x, lo - ypad), (*x, hi + ypad)],
                BLACK.mix(0.15),
            ))?;
            chart.draw_series(std::iter::once(Text::new(
                label.clone(),
                (*x, lo - 0.8 * ypad),
                (FAMILY, 15).into_font().color(&BLACK),
            )))?;
        }
        let n = self.series.len().max(1) as f64;
        for (i, (label, pts)) in self.series.iter().enumerate() {
            let c = colour(i);
            // A small sideways offset per effect keeps overlapping bars apart.
            let dx = 0.2 * (x1 - x0).max(1.0) / n * (i as f64 - (n - 1.0) / 2.0) / 4.0;
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0 + dx, p.1)),
                    c.stroke_width(2),
                ))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            chart.draw_series(pts.iter().map(|p| {
                ErrorBar::new_vertical(p.0 + dx, p.2, p.1, p.3, c.filled().stroke_width(1), 8)
            }))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
