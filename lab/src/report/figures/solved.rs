//! Solved-within-budget curves: how many positions a configuration has solved (found and kept)
//! once it may spend a given time or number of nodes per position.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, legend, log_bounds, log_label, DrawResult, Figure, FAMILY};

/// What the budget is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolvedAxis {
    /// Milliseconds to solution.
    Time,
    /// Nodes to solution.
    Nodes,
}

/// Cumulative solved positions against the per-position budget.
pub struct SolvedCurve {
    /// Budget unit.
    pub axis: SolvedAxis,
    /// Positions in each configuration's run (the ceiling of the curves).
    pub positions: usize,
    /// (configuration label, the budgets at which its solved positions were solved).
    pub series: Vec<(String, Vec<f64>)>,
}

impl SolvedCurve {
    /// The top of the vertical axis: a tenth above the most solved, not the number of positions —
    /// a suite of unlabelled positions (nothing to solve) would squash the curves to the floor.
    fn y_top(&self) -> f64 {
        let most = self.series.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
        (most as f64 * 1.1).max(1.0)
    }

    /// The step curve from the axis floor to the right edge `end`.
    fn steps(values: &[f64], floor: f64, end: f64) -> Vec<(f64, f64)> {
        let mut sorted: Vec<f64> = values.iter().map(|v| v.max(floor)).collect();
        sorted.sort_by(f64::total_cmp);
        let mut points = vec![(floor, 0.0)];
        for (i, v) in sorted.iter().enumerate() {
            points.push((*v, i as f64));
            points.push((*v, (i + 1) as f64));
        }
        points.push((end, sorted.len() as f64));
        points
    }
}

impl Figure for SolvedCurve {
    fn name(&self) -> String {
        match self.axis {
            SolvedAxis::Time => "solved_vs_time".into(),
            SolvedAxis::Nodes => "solved_vs_nodes".into(),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        // A time of 0 ms (solved at once) is drawn at the axis floor of 0.1 ms.
        let floor = match self.axis {
            SolvedAxis::Time => 0.1,
            SolvedAxis::Nodes => 1.0,
        };
        let (lo, hi) = log_bounds(
            self.series
                .iter()
                .flat_map(|(_, v)| v.iter().map(|x| x.max(floor))),
        );
        let (title, unit) = match self.axis {
            SolvedAxis::Time => (
                "Solved within a time budget",
                "time to solution per position (ms)",
            ),
            SolvedAxis::Nodes => (
                "Solved within a node budget",
                "nodes to solution per position",
            ),
        };
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((lo.min(floor)..hi).log_scale(), 0.0..self.y_top())?;
        chart
            .configure_mesh()
            .x_desc(unit)
            .y_desc(format!("positions solved (of {} searched)", self.positions))
            .x_label_formatter(&log_label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        for (i, (label, values)) in self.series.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(
                    Self::steps(values, lo.min(floor), hi),
                    c.stroke_width(2),
                ))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
