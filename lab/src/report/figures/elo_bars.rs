//! Elo bars with their intervals: the match report's pairings, the joint ratings, a factorial's
//! effects.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, DrawResult, Figure, FAMILY};

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
