//! Nodes and effective branching factor against iteration depth, as small multiples: one panel per
//! combination of the grid's other axes, one curve per value of the axis under study, the legend
//! in a column of its own beside the panels (never over the data).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, log_bounds, log_label, DrawResult, Figure, FAMILY};
use crate::report::depth::{DepthPanels, DepthPoint};

/// Median nodes of the search to each depth, with the interquartile range as a band.
pub struct NodesByDepth(pub DepthPanels);

/// Median effective branching factor of the iteration at each depth.
pub struct EbfByDepth(pub DepthPanels);

/// Width of the legend column, pixels.
const LEGEND_WIDTH: u32 = 230;
/// Panels per row.
const COLUMNS: usize = 3;
/// Bands are drawn only while a panel has this few curves: more overlapping bands turn to mud.
const MAX_BANDS: usize = 3;

/// What a panel plots and how.
trait Measure {
    /// The caption; `bands` says whether any panel shows its bands.
    fn caption(&self, bands: bool) -> &'static str;
    fn y_desc(&self) -> &'static str;
    fn log(&self) -> bool;
    /// (depth, value) of a series, and its band (depth, low, high) where there is one.
    fn line(&self, s: &[DepthPoint]) -> Vec<(i32, f64)>;
    fn band(&self, s: &[DepthPoint]) -> Option<Vec<(i32, f64, f64)>>;
    fn panels(&self) -> &DepthPanels;
}

impl Measure for NodesByDepth {
    fn caption(&self, bands: bool) -> &'static str {
        if bands {
            "Search cost by depth (median over positions; band = interquartile range)"
        } else {
            "Search cost by depth (median over positions)"
        }
    }
    fn y_desc(&self) -> &'static str {
        "nodes up to this depth"
    }
    fn log(&self) -> bool {
        true
    }
    fn line(&self, s: &[DepthPoint]) -> Vec<(i32, f64)> {
        s.iter().map(|p| (p.depth, p.median_nodes)).collect()
    }
    fn band(&self, s: &[DepthPoint]) -> Option<Vec<(i32, f64, f64)>> {
        Some(
            s.iter()
                .map(|p| (p.depth, p.q1_nodes, p.q3_nodes))
                .collect(),
        )
    }
    fn panels(&self) -> &DepthPanels {
        &self.0
    }
}

impl Measure for EbfByDepth {
    fn caption(&self, _: bool) -> &'static str {
        "Effective branching factor by depth (median over positions)"
    }
    fn y_desc(&self) -> &'static str {
        "nodes(d) / nodes(d − 1)"
    }
    fn log(&self) -> bool {
        false
    }
    fn line(&self, s: &[DepthPoint]) -> Vec<(i32, f64)> {
        s.iter()
            .filter_map(|p| p.median_ebf.map(|e| (p.depth, e)))
            .collect()
    }
    fn band(&self, _: &[DepthPoint]) -> Option<Vec<(i32, f64, f64)>> {
        None
    }
    fn panels(&self) -> &DepthPanels {
        &self.0
    }
}

impl Figure for NodesByDepth {
    fn name(&self) -> String {
        "nodes_vs_depth".into()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        draw_panels(self, root)
    }
}

impl Figure for EbfByDepth {
    fn name(&self) -> String {
        "ebf_vs_depth".into()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        draw_panels(self, root)
    }
}

/// The depths and values every panel shares, so panels compare at a glance.
struct Frame {
    depths: std::ops::Range<i32>,
    lo: f64,
    hi: f64,
}

fn frame(m: &impl Measure) -> Frame {
    let series = m.panels().panels.iter().flat_map(|p| &p.curves);
    let mut values = Vec::new();
    let (mut first, mut last) = (i32::MAX, i32::MIN);
    for (_, s) in series {
        for (d, v) in m.line(s) {
            (first, last) = (first.min(d), last.max(d));
            values.push(v);
        }
        values.extend(m.band(s).into_iter().flatten().flat_map(|(_, a, b)| [a, b]));
    }
    let depths = if first > last {
        0..1
    } else {
        first..last.max(first + 1)
    };
    let (lo, hi) = if m.log() {
        log_bounds(values)
    } else {
        (0.0, values.iter().copied().fold(1.0, f64::max) * 1.1)
    };
    Frame { depths, lo, hi }
}

fn draw_panels<DB: DrawingBackend>(
    m: &impl Measure,
    root: &DrawingArea<DB, Shift>,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let panels = &m.panels().panels;
    let bands = panels.iter().any(|p| p.curves.len() <= MAX_BANDS);
    let body = root.titled(m.caption(bands), (FAMILY, 22))?;
    let (width, _) = body.dim_in_pixel();
    let (plots, legend_area) = body.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
    let columns = panels.len().clamp(1, COLUMNS);
    let rows = panels.len().div_ceil(columns).max(1);
    let frame = frame(m);
    for (i, (panel, area)) in panels
        .iter()
        .zip(plots.split_evenly((rows, columns)))
        .enumerate()
    {
        let (row, column) = (i / columns, i % columns);
        let labels = Labels {
            x: row + 1 == rows || i + columns >= panels.len(),
            y: column == 0,
        };
        draw_panel(m, &area, panel, &frame, labels)?;
    }
    draw_legend(&legend_area, &m.panels().legend)
}

/// Which axis descriptions a panel carries (the bottom row the x one, the left column the y one).
struct Labels {
    x: bool,
    y: bool,
}

fn draw_panel<DB: DrawingBackend>(
    m: &impl Measure,
    area: &DrawingArea<DB, Shift>,
    panel: &crate::report::depth::DepthPanel,
    frame: &Frame,
    labels: Labels,
) -> DrawResult<DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(&panel.title, (FAMILY, 16))
        .margin(8)
        .x_label_area_size(if labels.x { 40 } else { 22 })
        .y_label_area_size(if labels.y { 75 } else { 50 });
    let bands = panel.curves.len() <= MAX_BANDS;
    if m.log() {
        let mut chart =
            builder.build_cartesian_2d(frame.depths.clone(), (frame.lo..frame.hi).log_scale())?;
        mesh(&mut chart, m, &labels, Some(&log_label))?;
        curves(&mut chart, m, panel, frame.lo, bands)
    } else {
        let mut chart = builder.build_cartesian_2d(frame.depths.clone(), frame.lo..frame.hi)?;
        mesh(&mut chart, m, &labels, None)?;
        curves(&mut chart, m, panel, frame.lo, bands)
    }
}

fn mesh<
    'a,
    DB: DrawingBackend + 'a,
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordi32, Y>>,
    m: &impl Measure,
    labels: &Labels,
    y_format: Option<&dyn Fn(&f64) -> String>,
) -> DrawResult<DB> {
    let mut mesh = chart.configure_mesh();
    mesh.label_style((FAMILY, 13))
        .axis_desc_style((FAMILY, 15))
        .x_labels(10);
    if labels.x {
        mesh.x_desc("iteration depth (plies)");
    }
    if labels.y {
        mesh.y_desc(m.y_desc());
    }
    if let Some(f) = y_format {
        mesh.y_label_formatter(f);
    }
    mesh.draw()
}

fn curves<'a, DB: DrawingBackend + 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordi32, Y>>,
    m: &impl Measure,
    panel: &crate::report::depth::DepthPanel,
    floor: f64,
    bands: bool,
) -> DrawResult<DB> {
    for (index, series) in &panel.curves {
        let c = colour(*index);
        if let Some(band) = m.band(series).filter(|_| bands) {
            let outline: Vec<(i32, f64)> = band
                .iter()
                .map(|&(d, _, hi)| (d, hi.max(floor)))
                .chain(band.iter().rev().map(|&(d, lo, _)| (d, lo.max(floor))))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(outline, c.mix(0.10))))?;
        }
        let line: Vec<(i32, f64)> = m
            .line(series)
            .into_iter()
            .map(|(d, v)| (d, v.max(floor)))
            .collect();
        chart.draw_series(LineSeries::new(line.clone(), c.stroke_width(2)))?;
        chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, c.filled())))?;
    }
    Ok(())
}

/// The curves' names down a column of their own, each beside its colour.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[String],
) -> DrawResult<DB> {
    let style = TextStyle::from((FAMILY, 14).into_font()).color(&BLACK);
    for (i, name) in names.iter().enumerate() {
        let y = 50 + 24 * i as i32;
        let c = colour(i);
        area.draw(&PathElement::new([(10, y), (40, y)], c.stroke_width(3)))?;
        area.draw(&Circle::new((25, y), 3, c.filled()))?;
        area.draw(&Text::new(name.as_str(), (48, y - 8), style.clone()))?;
    }
    Ok(())
}
