//! The match report's figures: the SPRT's LLR after each pair with its bounds, and each player's
//! Elo against its pairing's first player with the 95 % interval.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::report::figures::{colour, legend, DrawResult, Figure, FAMILY};

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

/// Elo with its 95 % interval, one bar per pairing (or per player of the joint ratings).
pub struct EloBars {
    /// (label, Elo, lower end, upper end).
    pub bars: Vec<(String, f64, f64, f64)>,
    /// `Elo` or `nElo`.
    pub unit: String,
    /// The caption.
    pub title: String,
    /// The file name, without extension.
    pub file: String,
}

impl Figure for EloBars {
    fn name(&self) -> String {
        self.file.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.bars.len().max(1);
        let (lo, hi) = self
            .bars
            .iter()
            .fold((0.0f64, 0.0f64), |(a, b), &(_, _, l, h)| {
                (a.min(l), b.max(h))
            });
        let pad = 0.1 * (hi - lo).max(1.0);
        let labels: Vec<String> = self.bars.iter().map(|b| b.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(self.title.as_str(), (FAMILY, 24))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_labels(n)
            .x_label_formatter(&|v| {
                let i = v.round() as usize;
                if (v - i as f64).abs() < 0.01 {
                    labels.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc(self.unit.as_str())
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
            BLACK.mix(0.6),
        ))?;
        for (i, &(_, elo, l, h)) in self.bars.iter().enumerate() {
            let x = i as f64;
            let c = colour(i);
            chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                x,
                l,
                elo,
                h,
                c.filled().stroke_width(2),
                12,
            )))?;
            // The figure states its numbers: a reader should not have to measure the bar.
            let text = if ((h - elo) - (elo - l)).abs() < 0.05 {
                format!("{elo:+.1} ± {:.1}", h - elo)
            } else {
                format!("{elo:+.1} [{l:+.1}, {h:+.1}]")
            };
            chart.draw_series(std::iter::once(Text::new(
                text,
                (x + 0.03, elo),
                (FAMILY, 16).into_font().color(&BLACK),
            )))?;
        }
        Ok(())
    }
}

/// An interaction of two factors: the mean rating at each level of one, a line per level of the
/// other — parallel lines mean no interaction.
pub struct InteractionPlot {
    /// The file name, without extension.
    pub file: String,
    /// The factor on the x axis.
    pub x_factor: String,
    /// Its two values.
    pub x_levels: [String; 2],
    /// (label, mean rating at the x factor's first and second value), one per level of the other.
    pub lines: [(String, [f64; 2]); 2],
}

impl Figure for InteractionPlot {
    fn name(&self) -> String {
        self.file.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let ys = self.lines.iter().flat_map(|(_, y)| y.iter().copied());
        let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(y), b.max(y))
        });
        let pad = 0.15 * (hi - lo).max(10.0);
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Interaction: mean joint rating by {}", self.x_factor),
                (FAMILY, 24),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.3..1.3, (lo - pad)..(hi + pad))?;
        let levels = self.x_levels.clone();
        chart
            .configure_mesh()
            .x_labels(2)
            .x_label_formatter(&|v: &f64| {
                let i = v.round() as usize;
                if (v - i as f64).abs() < 0.01 {
                    levels.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc(self.x_factor.as_str())
            .y_desc("Elo (joint scale)")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for (i, (label, y)) in self.lines.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(
                    [(0.0, y[0]), (1.0, y[1])],
                    c.stroke_width(3),
                ))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(3)));
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
