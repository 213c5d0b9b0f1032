//! The factorial report's own figure: the interaction plot of two factors.

use lab::report::figures::{colour, legend, DrawResult, Figure, FAMILY};
use plotters::coord::Shift;
use plotters::prelude::*;

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
