//! Per-position time ratio of one step by depth: every position as a faint point, and the median,
//! 90th and 99th percentiles and the largest as lines — how the tail grows as the search deepens.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, legend, log_bounds, DrawResult, Figure, FAMILY};

/// One step's per-position time ratios at each depth.
pub struct DepthTail {
    /// File stem.
    pub name: String,
    /// Title.
    pub title: String,
    /// (depth, per-position time ratios ascending).
    pub depths: Vec<(i32, Vec<f64>)>,
}

/// The quantile lines drawn over the points.
const LINES: [(&str, f64); 4] = [("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)];

impl Figure for DepthTail {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (lo, hi) = log_bounds(
            self.depths
                .iter()
                .flat_map(|(_, r)| r.iter().copied())
                .chain([1.0]),
        );
        let d0 = self.depths.first().map_or(0, |d| d.0) as f64 - 0.5;
        let d1 = self.depths.last().map_or(1, |d| d.0) as f64 + 0.5;
        let mut chart = ChartBuilder::on(root)
            .caption(self.title.as_str(), (FAMILY, 22))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(d0..d1, (lo..hi).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("nominal depth completed")
            .x_labels(self.depths.len() + 2)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("time to complete the depth, after / before (per position)")
            .y_label_formatter(&|v| format!("×{v}"))
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for factor in [1.0, 5.0, 10.0] {
            chart.draw_series(LineSeries::new(
                [(d0, factor), (d1, factor)],
                BLACK.mix(if factor == 1.0 { 0.6 } else { 0.25 }),
            ))?;
        }
        for (depth, ratios) in &self.depths {
            let n = ratios.len().max(1) as f64;
            // Spread the points across the depth's column by rank: a strip, not a single line.
            chart.draw_series(ratios.iter().enumerate().map(|(k, r)| {
                let x = f64::from(*depth) - 0.3 + 0.6 * (k as f64 + 0.5) / n;
                Circle::new((x, *r), 2, BLUE.mix(0.3).filled())
            }))?;
        }
        for (i, (label, q)) in LINES.iter().enumerate() {
            let c = colour(i + 1);
            let points = self.depths.iter().filter_map(|(d, r)| {
                crate::report::stats::quantile(r, *q).map(|v| (f64::from(*d), v))
            });
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(3)).point_size(4))?
                .label(*label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(3)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
