//! Per-position node ratios as their two tails: for every factor x, the share of positions whose
//! nodes grew by at least ×x (right panel) and the share that shrank by at least ×x (left), both
//! on log scales. A blowup is a right curve that stays high; "≥ ×10 on 0.2 % of positions" is read
//! straight off the plot, and two settings' tails compare at every factor, not at one threshold.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, DrawResult, Figure, FAMILY};

/// The node ratios of each variant against one baseline (or of each step along an axis).
pub struct RatioTails {
    /// File stem (several of these may be drawn for one run).
    pub name: String,
    /// Title.
    pub title: String,
    /// What the ratios are of (`nodes`, `time`), for the axes.
    pub quantity: &'static str,
    /// (variant label, its ratios, any order).
    pub series: Vec<(String, Vec<f64>)>,
}

/// Width of the legend column, pixels.
const LEGEND_WIDTH: u32 = 200;

/// One side of the distribution.
#[derive(Clone, Copy)]
enum Side {
    Shrink,
    Grow,
}

impl Side {
    /// The factor by which a ratio moved to this side (below 1: not at all).
    fn factor(self, ratio: f64) -> f64 {
        match self {
            Self::Grow => ratio,
            Self::Shrink => 1.0 / ratio,
        }
    }

    fn x_desc(self, quantity: &str) -> String {
        match self {
            Self::Grow => format!("grew by at least ×x ({quantity} after / before ≥ x)"),
            Self::Shrink => format!("shrank by at least ×x ({quantity} before / after ≥ x)"),
        }
    }
}

/// (factor, share of positions at least that factor to this side), a step down at every ratio.
fn survival(ratios: &[f64], side: Side) -> Vec<(f64, f64)> {
    let n = ratios.len() as f64;
    let mut factors: Vec<f64> = ratios
        .iter()
        .map(|&r| side.factor(r))
        .filter(|&f| f > 1.0 && f.is_finite())
        .collect();
    factors.sort_by(f64::total_cmp);
    let mut points = Vec::with_capacity(2 * factors.len() + 1);
    let mut left = factors.len();
    points.push((1.0, left as f64 / n));
    for f in factors {
        points.push((f, left as f64 / n));
        left -= 1;
        points.push((f, left as f64 / n));
    }
    // The last step ends at zero, which a log axis cannot show: stop at the last share above it.
    points.pop();
    points
}

impl Figure for RatioTails {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let body = root.titled(self.title.as_str(), (FAMILY, 22))?;
        let (width, _) = body.dim_in_pixel();
        let (plots, legend) = body.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
        let (left, right) = plots.split_horizontally(plots.dim_in_pixel().0 / 2);
        let n = self.series.iter().map(|(_, r)| r.len()).max().unwrap_or(1);
        let max = self
            .series
            .iter()
            .flat_map(|(_, r)| r.iter().map(|&x| x.max(1.0 / x)))
            .filter(|x| x.is_finite())
            .fold(10.0, f64::max);
        let x_hi = 10f64.powf(max.log10().ceil());
        let y_lo = 10f64.powf((1.0 / n.max(1) as f64).log10().floor());
        self.panel(&left, Side::Shrink, x_hi, y_lo, true)?;
        self.panel(&right, Side::Grow, x_hi, y_lo, false)?;
        draw_legend(&legend, &self.series)
    }
}

impl RatioTails {
    fn panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        side: Side,
        x_hi: f64,
        y_lo: f64,
        y_desc: bool,
    ) -> DrawResult<DB> {
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(if y_desc { 80 } else { 60 })
            .build_cartesian_2d((1.0..x_hi).log_scale(), (y_lo..1.0).log_scale())?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(side.x_desc(self.quantity))
            .x_label_formatter(&|v| format!("×{v}"))
            .y_label_formatter(&|v| percent(*v))
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 15));
        if y_desc {
            mesh.y_desc("share of positions");
        }
        mesh.draw()?;
        for (i, (_, ratios)) in self.series.iter().enumerate() {
            let c = colour(i);
            let points = survival(ratios, side);
            chart.draw_series(LineSeries::new(points, c.stroke_width(2)))?;
        }
        Ok(())
    }
}

/// `50 %`, `1 %`, `0.1 %`, `0.01 %`: the tick labels of a share on a log axis.
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if p >= 1.0 {
        format!("{p:.0} %")
    } else {
        format!("{} %", format!("{p:.4}").trim_end_matches('0'))
    }
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[(String, Vec<f64>)],
) -> DrawResult<DB> {
    let style = TextStyle::from((FAMILY, 14).into_font()).color(&BLACK);
    for (i, (name, ratios)) in series.iter().enumerate() {
        let y = 40 + 40 * i as i32;
        let c = colour(i);
        area.draw(&PathElement::new([(10, y), (40, y)], c.stroke_width(3)))?;
        area.draw(&Text::new(name.as_str(), (48, y - 8), style.clone()))?;
        let count = format!("{} positions", ratios.len());
        area.draw(&Text::new(
            count,
            (48, y + 8),
            style.clone().color(&BLACK.mix(0.6)),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_survival_curve_steps_down_at_every_ratio() {
        // Four positions: ×0.5, ×1, ×2, ×10.
        let ratios = [0.5, 1.0, 2.0, 10.0];
        assert_eq!(
            survival(&ratios, Side::Grow),
            [(1.0, 0.5), (2.0, 0.5), (2.0, 0.25), (10.0, 0.25)]
        );
        assert_eq!(survival(&ratios, Side::Shrink), [(1.0, 0.25), (2.0, 0.25)]);
        assert_eq!(percent(0.5), "50 %");
        assert_eq!(percent(0.001), "0.1 %");
    }
}
