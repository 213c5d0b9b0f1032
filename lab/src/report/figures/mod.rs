//! The report's figures, drawn with plotters into PNG and SVG. Each figure is a small struct
//! holding its data and drawing itself on any backend, so both files come from one definition.

mod depth;
mod elo_bars;
mod heatmap;
mod ratio;
mod solved;

use std::path::Path;
use std::sync::Once;

use anyhow::{anyhow, Context, Result};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ColorType, ImageEncoder};
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
    /// File stem: the figure is written as `NAME.png` and `NAME.svg`.
    fn name(&self) -> String;
    /// Draws the figure on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// Pixel size of every figure: wide enough for a legend beside a dozen curves.
pub const SIZE: (u32, u32) = (1100, 700);

/// The bundled font (see `lab/assets/fonts/README.md`): PNG text must not depend on the
/// fonts of the machine that draws it.
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

/// Writes `figure` as PNG and SVG into `dir`; returns its stem.
pub fn save(dir: &Path, figure: &impl Figure) -> Result<String> {
    register_font();
    let name = figure.name();
    let png = dir.join(format!("{name}.png"));
    let svg = dir.join(format!("{name}.svg"));
    let failed =
        |path: &Path, e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    let bytes = png_bytes(figure).map_err(|e| failed(&png, &e))?;
    std::fs::write(&png, bytes).with_context(|| format!("writing {}", png.display()))?;
    let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
    figure
        .draw(&root)
        .and_then(|()| root.present())
        .map_err(|e| failed(&svg, &e))?;
    Ok(name)
}

/// `figure` as PNG bytes at the encoder's best compression (plotters' own writer uses the fastest,
/// about 3 times larger; committed studies carry hundreds of figures). Encoded in memory so that
/// a failed write is an error: the encoder's last chunk is written on drop, errors ignored.
fn png_bytes(figure: &impl Figure) -> Result<Vec<u8>> {
    let mut pixels = vec![0; (SIZE.0 * SIZE.1 * 3) as usize];
    {
        // The backend borrows the pixels until it is dropped.
        let root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
        figure
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| anyhow!("{e}"))?;
    }
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Best, FilterType::Adaptive)
        .write_image(&pixels, SIZE.0, SIZE.1, ColorType::Rgb8)?;
    Ok(bytes)
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
