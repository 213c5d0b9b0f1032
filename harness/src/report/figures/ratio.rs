//! Per-position node ratio against the baseline, sorted: a heuristic that helps on average but
//! blows up on a few positions shows as a tail rising at the right.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, legend, log_bounds, DrawResult, Figure, FAMILY};

/// Sorted node ratios of each variant against one baseline.
pub struct SortedRatios {
    /// File stem (several of these may be drawn for one run).
    pub name: String,
    /// Title.
    pub title: String,
    /// What the ratio is, for the vertical axis.
    pub y_desc: String,
    /// (variant label, its ratios in ascending order).
    pub series: Vec<(String, Vec<f64>)>,
}

impl Figure for SortedRatios {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (lo, hi) = log_bounds(
            self.series
                .iter()
                .flat_map(|(_, r)| r.iter().copied())
                .chain([1.0]),
        );
        let mut chart = ChartBuilder::on(root)
            .caption(self.title.as_str(), (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..100.0, (lo..hi).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("positions, sorted by ratio (percentile)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc(self.y_desc.as_str())
            .y_label_formatter(&|v| format!("×{v}"))
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        chart.draw_series(LineSeries::new([(0.0, 1.0), (100.0, 1.0)], BLACK.mix(0.6)))?;
        for (i, (label, ratios)) in self.series.iter().enumerate() {
            let c = colour(i);
            let n = ratios.len().max(1) as f64;
            let points = ratios
                .iter()
                .enumerate()
                .map(|(k, r)| (100.0 * (k as f64 + 0.5) / n, *r));
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)).point_size(2))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
