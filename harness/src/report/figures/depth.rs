//! Nodes and effective branching factor against iteration depth, one curve per configuration.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, legend, log_bounds, log_label, DrawResult, Figure, FAMILY};
use crate::report::depth::DepthPoint;

/// Median nodes of the search to each depth, with the interquartile range as a band.
pub struct NodesByDepth {
    /// (configuration label, its series).
    pub series: Vec<(String, Vec<DepthPoint>)>,
}

/// Median effective branching factor of the iteration at each depth.
pub struct EbfByDepth {
    /// (configuration label, its series).
    pub series: Vec<(String, Vec<DepthPoint>)>,
}

fn depth_range(series: &[(String, Vec<DepthPoint>)]) -> std::ops::Range<i32> {
    let depths = series.iter().flat_map(|(_, s)| s.iter().map(|p| p.depth));
    let (lo, hi) = depths.fold((i32::MAX, i32::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)));
    if lo > hi {
        0..1
    } else {
        lo..hi
    }
}

impl Figure for NodesByDepth {
    fn name(&self) -> String {
        "nodes_vs_depth".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let values = self
            .series
            .iter()
            .flat_map(|(_, s)| s.iter().flat_map(|p| [p.q1_nodes, p.q3_nodes]));
        let (lo, hi) = log_bounds(values);
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Search cost by depth (median, band = interquartile range)",
                (FAMILY, 24),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(depth_range(&self.series), (lo..hi).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("iteration depth (plies)")
            .y_desc("nodes of the search up to this depth")
            .y_label_formatter(&log_label)
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for (i, (label, points)) in self.series.iter().enumerate() {
            let c = colour(i);
            let band: Vec<(i32, f64)> = points
                .iter()
                .map(|p| (p.depth, p.q3_nodes.max(lo)))
                .chain(points.iter().rev().map(|p| (p.depth, p.q1_nodes.max(lo))))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.12))))?;
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.depth, p.median_nodes.max(lo))),
                    c.stroke_width(2),
                ))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

impl Figure for EbfByDepth {
    fn name(&self) -> String {
        "ebf_vs_depth".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let points = |s: &[DepthPoint]| -> Vec<(i32, f64)> {
            s.iter()
                .filter_map(|p| p.median_ebf.map(|e| (p.depth, e)))
                .collect()
        };
        let top = self
            .series
            .iter()
            .flat_map(|(_, s)| points(s))
            .map(|(_, e)| e)
            .fold(1.0, f64::max);
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Effective branching factor by depth (median over positions)",
                (FAMILY, 24),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(depth_range(&self.series), 0.0..top * 1.1)?;
        chart
            .configure_mesh()
            .x_desc("iteration depth (plies)")
            .y_desc("nodes(d) / nodes(d − 1)")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for (i, (label, series)) in self.series.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(points(series), c.stroke_width(2)).point_size(3))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}
