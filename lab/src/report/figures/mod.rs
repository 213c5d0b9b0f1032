//! The report's figures, drawn with plotters as SVG: vectors for papers, a few tens of kilobytes
//! each, shown inline by the report pages and by GitHub's Markdown. Each figure is a small struct
//! holding its data and drawing itself on any plotters backend.

mod depth;
mod elo_bars;
mod heatmap;
mod ratio;
mod solved;

use std::path::Path;
use std::sync::Once;

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use depth::{EbfByDepth, NodesByDepth};
pub use elo_bars::EloBars;
pub use heatmap::{HeatCell, Heatmap};
pub use ratio::RatioTails;
pub use solved::{SolvedAxis, SolvedCurve};

/// The result of drawing on backend `DB`.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A figure of the report.
pub trait Figure {
    /// File stem: the figure is written as [`file()`]`(NAME)`.
    fn name(&self) -> String;
    /// Draws the figure on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// Pixel size of every figure: wide enough for a legend beside a dozen curves.
pub const SIZE: (u32, u32) = (1100, 700);

/// The bundled font (see `lab/assets/fonts/README.md`): the text's extents, and so the layout,
/// must not depend on the fonts of the machine that draws it.
const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// The font family every figure uses.
pub const FAMILY: &str = "sans-serif";

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            panic!("the bundled DejaVuSans.ttf is not a font");
        }
    });
}

/// The file a figure named `name` is written to.
pub fn file(name: &str) -> String {
    format!("{name}.svg")
}

/// The Markdown that shows the figure named `name`, with `alt` as its text.
pub fn markdown(alt: &str, name: &str) -> String {
    format!("![{alt}]({})", file(name))
}

/// Writes `figure` into `dir` as [`file()`]`(its name)`; returns its name.
pub fn save(dir: &Path, figure: &impl Figure) -> Result<String> {
    register_font();
    let name = figure.name();
    let path = dir.join(file(&name));
    let root = SVGBackend::new(&path, SIZE).into_drawing_area();
    figure
        .draw(&root)
        .and_then(|()| root.present())
        .map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
    Ok(name)
}

/// Tableau's ten categorical colours, then plotters' 99-colour palette for larger grids.
pub fn colour(i: usize) -> RGBColor {
    const TABLEAU: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    match TABLEAU.get(i) {
        Some(&(r, g, b)) => RGBColor(r, g, b),
        None => {
            let (r, g, b) = Palette99::pick(i).rgb();
            RGBColor(r, g, b)
        }
    }
}

/// Tick labels of a logarithmic axis: 1e3, 1e4, … (and 2e3-style labels in between).
pub fn log_label(v: &f64) -> String {
    format!("{v:.0e}")
}

/// The bounds of a log axis around positive data, widened to whole decades.
pub fn log_bounds(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if hi <= 0.0 {
        return (1.0, 10.0);
    }
    (
        10f64.powf(lo.log10().floor()),
        10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0)),
    )
}

/// Draws the legend of a chart whose series were given labels.
pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FAMILY, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
}
