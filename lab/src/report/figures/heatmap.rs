//! A heatmap of a two-axis grid: the geometric-mean nodes of every cell on a log colour scale,
//! with the cell's figures written in it.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{DrawResult, Figure, FAMILY};

/// One cell of the grid.
pub struct HeatCell {
    /// Index of the value on the first axis.
    pub x: usize,
    /// Index of the value on the second axis.
    pub y: usize,
    /// Geometric-mean nodes.
    pub nodes: f64,
    /// Solved positions.
    pub solved: usize,
    /// Positions.
    pub positions: usize,
}

/// Geometric-mean nodes over the two axes of a grid.
pub struct Heatmap {
    /// (axis name, its values) of the first axis (horizontal).
    pub x_axis: (String, Vec<String>),
    /// (axis name, its values) of the second axis (vertical).
    pub y_axis: (String, Vec<String>),
    /// The cells.
    pub cells: Vec<HeatCell>,
}

fn category(values: &[String]) -> impl Fn(&SegmentValue<i32>) -> String + '_ {
    move |v| match v {
        SegmentValue::CenterOf(i) => values.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

impl Figure for Heatmap {
    fn name(&self) -> String {
        "heatmap".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (nx, ny) = (self.x_axis.1.len() as i32, self.y_axis.1.len() as i32);
        let logs = self.cells.iter().map(|c| c.nodes.max(1.0).log10());
        let (lo, hi) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Geometric-mean nodes per position, and against the lower-left cell (colour: log scale, dark = few)",
                (FAMILY, 22),
            )
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            // An i32 range's segments include its end: 0..n−1 gives n cells.
            .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())?;
        let (x_labels, y_labels) = (category(&self.x_axis.1), category(&self.y_axis.1));
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(self.x_axis.0.as_str())
            .y_desc(self.y_axis.0.as_str())
            .x_label_formatter(&x_labels)
            .y_label_formatter(&y_labels)
            .label_style((FAMILY, 16))
            .axis_desc_style((FAMILY, 18))
            .draw()?;
        let text =
            TextStyle::from((FAMILY, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        let corner = self
            .cells
            .iter()
            .find(|c| (c.x, c.y) == (0, 0))
            .map_or(1.0, |c| c.nodes.max(1.0));
        let any_solved = self.cells.iter().any(|c| c.solved > 0);
        for c in &self.cells {
            let (x, y) = (c.x as i32, c.y as i32);
            let h = if hi > lo {
                (c.nodes.max(1.0).log10() - lo) / (hi - lo)
            } else {
                0.5
            };
            let fill = ViridisRGB::get_color(h);
            let ink = if h > 0.6 { &BLACK } else { &WHITE };
            let corners = [
                (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
            ];
            chart.draw_series(std::iter::once(Rectangle::new(corners, fill.filled())))?;
            let mut label = format!(
                "{} (×{:.2})",
                crate::report::format::thousands(c.nodes),
                c.nodes.max(1.0) / corner
            );
            if any_solved {
                label += &format!(" · solved {}/{}", c.solved, c.positions);
            }
            let centre = (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y));
            chart.draw_series(std::iter::once(Text::new(label, centre, text.color(ink))))?;
        }
        Ok(())
    }
}
