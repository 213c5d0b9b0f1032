//! `report.html`: the run's `report.md` rendered as one self-contained page — the manifest's
//! provenance on top, every table sortable (long ones collapsed with their row count), each
//! column of estimates with intervals drawn as a forest plot under its table, and the figures
//! inline as the same SVG the PNG was drawn from (a large figure linked as the file beside the
//! page). One report, two renderings: every report writer
//! writes its Markdown through [`write()`], which writes both, so `harness report DIR` regenerates
//! both. The page makes no network request: styles, script and figures are in the file.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::run_dir::{MANIFEST, REPORT, REPORT_HTML, REPORT_JSON};

/// SVG figures up to this size are drawn inside the page; larger ones are linked.
const INLINE_SVG_BYTES: usize = 100_000;
/// Tables with more rows than this are collapsed behind their row count.
const COLLAPSE_ROWS: usize = 30;
/// Okabe and Ito's colour-blind-safe palette: blue, vermillion, bluish green, grey.
const BLUE: &str = "#0072B2";
const VERMILLION: &str = "#D55E00";
const GREY: &str = "#999999";

/// Writes `md` as `dir/report.md`, its page as `dir/report.html` and its tables as
/// `dir/report.json` ([`crate::report::tables`]).
pub fn write(dir: &Path, md: &str) -> Result<()> {
    std::fs::write(dir.join(REPORT), md)
        .with_context(|| format!("writing {}", dir.join(REPORT).display()))?;
    crate::report::tables::write(dir, md)
        .with_context(|| format!("writing {}", dir.join(REPORT_JSON).display()))?;
    let html = render(dir, md);
    std::fs::write(dir.join(REPORT_HTML), html)
        .with_context(|| format!("writing {}", dir.join(REPORT_HTML).display()))
}

/// Renders the committed `dir/report.md` as `dir/report.html`, recomputing nothing.
pub fn write_page(dir: &Path) -> Result<()> {
    let md_path = dir.join(REPORT);
    let md = std::fs::read_to_string(&md_path)
        .with_context(|| format!("reading {}", md_path.display()))?;
    std::fs::write(dir.join(REPORT_HTML), render(dir, &md))
        .with_context(|| format!("writing {}", dir.join(REPORT_HTML).display()))
}

/// The page of `md`, a report of the run directory `dir` (its manifest and figures are read from
/// there).
pub fn render(dir: &Path, md: &str) -> String {
    let title = md
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("Report")
        .to_string();
    let body = body_of(dir, md);
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{}{}</main>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&plain(&title)),
        provenance(dir),
        body
    );
    page
}

/// The manifest's provenance as a definition list (empty without a manifest).
fn provenance(dir: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST)) else {
        return String::new();
    };
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) else {
        return String::new();
    };
    let field = |key: &str| -> Option<String> {
        let value = manifest.get(key)?;
        Some(match value {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(words) => words
                .iter()
                .map(|w| w.as_str().map_or_else(|| w.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        })
    };
    let mut out = String::from("<dl class=\"provenance\">\n");
    for (key, label) in [
        ("command", "command"),
        ("git_commit", "commit"),
        ("bench_signature", "bench signature"),
        ("engine_version", "engine"),
        ("builtin_net", "built-in network (SHA-256)"),
        ("host", "host"),
        ("date", "date"),
    ] {
        if let Some(value) = field(key) {
            let _ = writeln!(
                out,
                "<dt>{label}</dt><dd><code>{}</code></dd>",
                escape(&value)
            );
        }
    }
    out.push_str("</dl>\n");
    out
}

/// The Markdown's HTML with figures inlined, tables marked sortable, long tables collapsed and
/// forest plots after the tables that hold intervals.
fn body_of(dir: &Path, md: &str) -> String {
    let mut events: Vec<Event> = Vec::new();
    let mut table: Option<Vec<Event>> = None;
    let mut image: Option<(String, String)> = None;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        // HTML in the Markdown is shown as text: only this renderer writes markup, so no name or
        // note in a report can add an element (or a request).
        let event = match event {
            Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
            other => other,
        };
        match (&mut table, &mut image, event) {
            (_, None, Event::Start(Tag::Image { dest_url, .. })) => {
                image = Some((dest_url.to_string(), String::new()));
            }
            (_, Some((_, alt)), Event::Text(text)) => alt.push_str(&text),
            (_, Some(_), Event::End(TagEnd::Image)) => {
                let (src, alt) = image.take().expect("inside an image");
                let html = Event::Html(figure(dir, &src, &alt).into());
                match table.as_mut() {
                    Some(buffered) => buffered.push(html),
                    None => events.push(html),
                }
            }
            (_, Some(_), _) => {}
            (None, None, Event::Start(Tag::Table(align))) => {
                table = Some(vec![Event::Start(Tag::Table(align))]);
            }
            (Some(buffered), None, Event::End(TagEnd::Table)) => {
                buffered.push(Event::End(TagEnd::Table));
                let buffered = table.take().expect("inside a table");
                events.extend(table_events(buffered));
            }
            (Some(buffered), None, event) => buffered.push(event),
            (None, None, event) => events.push(event),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html.replace("<table>", "<table class=\"sortable\">")
}

/// A table's events wrapped: collapsed when long, followed by its forest plot when a column
/// holds estimates with intervals.
fn table_events(buffered: Vec<Event>) -> Vec<Event> {
    let rows = super::tables::rows_of(&buffered);
    let body_rows = rows.len().saturating_sub(1);
    let mut out = Vec::new();
    let collapse = body_rows > COLLAPSE_ROWS;
    if collapse {
        out.push(Event::Html(
            format!("<details><summary>Table of {body_rows} rows (click to show)</summary>\n")
                .into(),
        ));
    }
    out.extend(buffered);
    if collapse {
        out.push(Event::Html("</details>\n".into()));
    }
    if let Some(svg) = forest_plot(&rows) {
        out.push(Event::Html(svg.into()));
    }
    out
}

/// `(estimate, low, high)` of a cell written `X ± H` or `X [L, U]` (a Unicode minus read as one).
pub fn interval_of(cell: &str) -> Option<(f64, f64, f64)> {
    let text = cell.replace('−', "-").replace(',', ", ");
    let number = |s: &str| -> Option<f64> {
        let s = s.trim().trim_start_matches('+').replace(' ', "");
        let s = s.trim_end_matches('%');
        s.parse::<f64>().ok().filter(|v| v.is_finite())
    };
    if let Some((value, half)) = text.split_once('±') {
        let half = half.split_whitespace().next()?;
        let (v, h) = (number(value)?, number(half)?);
        return Some((v, v - h, v + h));
    }
    let (value, rest) = text.split_once('[')?;
    let (inside, _) = rest.split_once(']')?;
    let (lo, hi) = inside.split_once(',')?;
    let value = value.split_whitespace().next_back()?;
    Some((number(value)?, number(lo)?, number(hi)?))
}

/// A forest plot of the first column (after the labels) where two or more rows hold an interval.
fn forest_plot(rows: &[Vec<String>]) -> Option<String> {
    let header = rows.first()?;
    let columns = header.len();
    let column = (1..columns).find(|&c| {
        rows[1..]
            .iter()
            .filter(|r| r.get(c).and_then(|cell| interval_of(cell)).is_some())
            .count()
            >= 2
    })?;
    let points: Vec<(String, (f64, f64, f64))> = rows[1..]
        .iter()
        .filter_map(|r| Some((r.first()?.clone(), interval_of(r.get(column)?)?)))
        .collect();
    // A score's even point is 50 %, a ratio's 1, an Elo or an effect's 0.
    let name = header[column].to_lowercase();
    let positive = points.iter().all(|(_, (_, lo, _))| *lo > 0.0);
    let reference = if name.contains("score") {
        if points.iter().all(|(_, (v, _, _))| *v <= 1.0) {
            0.5
        } else {
            50.0
        }
    } else if positive
        && ["node", "ratio", "×", "time"]
            .iter()
            .any(|k| name.contains(k))
    {
        1.0
    } else {
        0.0
    };
    Some(draw_forest(&points, reference, &header[column]))
}

/// The SVG of a forest plot: one row per estimate, its interval a line, the reference dashed.
fn draw_forest(points: &[(String, (f64, f64, f64))], reference: f64, what: &str) -> String {
    let (label_w, plot_w, row_h, top) = (260.0, 420.0, 20.0, 10.0);
    let lo = points.iter().map(|(_, p)| p.1).fold(reference, f64::min);
    let hi = points.iter().map(|(_, p)| p.2).fold(reference, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |v: f64| label_w + 10.0 + (v - lo) / span * (plot_w - 20.0);
    let height = top * 2.0 + row_h * points.len() as f64 + 20.0;
    let mut svg = format!(
        "<figure class=\"forest\"><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
         viewBox=\"0 0 {w} {height}\" width=\"{w}\" height=\"{height}\">\n",
        w = label_w + plot_w
    );
    let rx = x(reference);
    let _ = writeln!(
        svg,
        "<line x1=\"{rx:.1}\" y1=\"{top}\" x2=\"{rx:.1}\" y2=\"{:.1}\" stroke=\"{GREY}\" stroke-dasharray=\"4 3\"/>",
        height - 20.0
    );
    for (i, (label, (v, l, h))) in points.iter().enumerate() {
        let y = top + row_h * (i as f64 + 0.5);
        let colour = if *l > reference || *h < reference {
            BLUE
        } else {
            GREY
        };
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"12\">{}</text>\
             <line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{colour}\"/>",
            label_w,
            y + 4.0,
            escape(&truncate(label, 40)),
            x(*l),
            x(*h),
            x(*v),
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"{VERMILLION}\">{}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
        x(lo),
        height - 5.0,
        fmt_axis(lo),
        x(hi),
        height - 5.0,
        fmt_axis(hi)
    );
    let _ = writeln!(
        svg,
        "</svg><figcaption>The column “{}” of the table above: each row's estimate (dot) and 95 % \
         interval (line); dashed: {reference}; blue where the interval excludes it.</figcaption></figure>",
        escape(what)
    );
    svg
}

fn fmt_axis(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn truncate(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let cut: String = text.chars().take(most - 1).collect();
    format!("{cut}…")
}

/// A figure of the report: its SVG inline where the run has a small one, else a link to the
/// figure file beside the page (a file of this directory, never the network), with a caption; a
/// figure the directory lacks says so. Large figures stay files so that a study's pages do not
/// copy megabytes of drawings the directory already holds.
fn figure(dir: &Path, src: &str, alt: &str) -> String {
    let stem = src.trim_end_matches(".png").trim_end_matches(".svg");
    let caption = format!(
        "<figcaption>Figure <code>{}</code>: {} (its data are the tables of this directory; the \
         same drawing as <code>{}</code>).</figcaption>",
        escape(stem),
        escape(alt),
        escape(src)
    );
    let local = !src.contains(':') && !src.starts_with('/');
    if local {
        let svg_name = super::figures::file(stem);
        if let Ok(svg) = std::fs::read_to_string(dir.join(&svg_name)) {
            if svg.len() <= INLINE_SVG_BYTES {
                let start = svg.find("<svg").unwrap_or(0);
                return format!("<figure>{}{caption}</figure>\n", &svg[start..]);
            }
        }
        let file = [src.to_string(), svg_name]
            .into_iter()
            .find(|name| dir.join(name).is_file());
        if let Some(file) = file {
            return format!(
                "<figure><img alt=\"{}\" src=\"{}\">{caption}</figure>\n",
                escape(alt),
                escape(&file)
            );
        }
    }
    format!(
        "<figure class=\"missing\"><p>Figure <code>{}</code> is not in this directory.</p></figure>\n",
        escape(src)
    )
}

/// Markdown emphasis and code marks left out of a title.
fn plain(text: &str) -> String {
    text.replace(['`', '*'], "")
}

/// Text made safe inside HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Readable type, a print-friendly layout, and the palette of the figures.
pub const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1b1b1b; --muted: #5a5a5a; --rule: #d0d0d0; --accent: #0072B2; }
body { margin: 0; color: var(--ink); background: #fff; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 2rem 4rem; }
h1 { font-size: 1.7rem; margin: 0.5rem 0 1rem; } h2 { font-size: 1.3rem; margin-top: 2.2rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.1rem; } a { color: var(--accent); }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 0.88em; }
pre { background: #f5f5f5; padding: 0.7rem 1rem; overflow-x: auto; border-radius: 4px; }
dl.provenance { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; background: #f7f9fb; border: 1px solid var(--rule); padding: 0.8rem 1rem; border-radius: 4px; font-size: 0.9rem; }
dl.provenance dt { color: var(--muted); } dl.provenance dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f0f3f6; position: sticky; top: 0; }
table.sortable th { cursor: pointer; user-select: none; } table.sortable th:hover { background: #e2e8ee; }
th[aria-sort="ascending"]::after { content: " ▲"; } th[aria-sort="descending"]::after { content: " ▼"; }
tbody tr:nth-child(even) { background: #fafafa; }
details > summary { cursor: pointer; color: var(--accent); margin: 0.8rem 0; }
figure { margin: 1.2rem 0; } figure svg, figure img { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 0.3rem; }
@media print { main { max-width: none; padding: 0; } details { display: block; } th { position: static; } a { color: inherit; } }
"#;

/// Sorting by a header click (numbers by value, the rest by text); `#selftest` sorts the first
/// sortable table and records in `body[data-selftest]` whether its rows came out in order (the
/// browser test reads it).
pub const SCRIPT: &str = r#"
(function () {
  function key(cell) {
    var t = cell.textContent.replace(/\u2212/g, '-').replace(/,/g, '').trim();
    var m = t.match(/^[+-]?\d+(\.\d+)?(e[+-]?\d+)?/i);
    return m ? parseFloat(m[0]) : t.toLowerCase();
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === 'number' ? -1 : 1;
  }
  function sortBy(table, index, descending) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r, s) {
      var c = compare(key(r.cells[index] || r), key(s.cells[index] || s));
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.setAttribute('aria-sort', i === index ? (descending ? 'descending' : 'ascending') : 'none');
    });
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    if (!table.tHead) { return; }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener('click', function () {
        sortBy(table, i, th.getAttribute('aria-sort') === 'ascending');
      });
    });
  });
  if (location.hash === '#selftest') {
    var result = 'no-table';
    var table = Array.prototype.find.call(tables, function (t) { return t.tBodies[0] && t.tBodies[0].rows.length > 1; });
    if (table) {
      var column = table.tHead.rows[0].cells.length - 1;
      table.tHead.rows[0].cells[column].click();
      var keys = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return key(r.cells[column]); });
      var sorted = keys.every(function (k, i) { return i === 0 || compare(keys[i - 1], k) <= 0; });
      result = sorted ? 'sorted' : 'unsorted';
    }
    document.body.setAttribute('data-selftest', result);
  }
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_read_in_both_notations() {
        assert_eq!(
            interval_of("+13.9 ± 45.7"),
            Some((13.9, 13.9 - 45.7, 13.9 + 45.7))
        );
        assert_eq!(
            interval_of("0.373 [0.362, 0.383]"),
            Some((0.373, 0.362, 0.383))
        );
        assert_eq!(interval_of("−5 [−9, −1]"), Some((-5.0, -9.0, -1.0)));
        assert_eq!(
            interval_of("+93.4 ± 32.6 Elo (400 games)").map(|i| i.0),
            Some(93.4)
        );
        assert_eq!(interval_of("p01"), None);
        assert_eq!(interval_of("12 %"), None);
    }

    #[test]
    fn a_page_has_provenance_sortable_tables_a_forest_plot_and_no_network_reference() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(MANIFEST),
            r#"{"command": ["harness", "match"], "git_commit": "abc123", "bench_signature": 352950}"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("elo.svg"),
            "<?xml version=\"1.0\"?><svg id=\"fig\"></svg>",
        )
        .unwrap();
        let md = "# Match `m`\n\n| player | Elo |\n|---|---|\n| a | +10 ± 5 |\n| b | -3 ± 4 |\n\n![elo](elo.png)\n";
        let page = render(dir.path(), md);
        assert!(page.contains("<title>Match m</title>"));
        assert!(page.contains("<dd><code>harness match</code></dd>"));
        assert!(page.contains("<dd><code>352950</code></dd>"));
        assert!(page.contains("<table class=\"sortable\">"));
        assert!(page.contains("class=\"forest\""), "{page}");
        assert!(page.contains("<svg id=\"fig\"></svg>") && !page.contains("<?xml"));
        assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    }

    #[test]
    fn long_tables_are_collapsed_with_their_count() {
        let rows: String = (0..40).map(|i| format!("| r{i} | {i} |\n")).collect();
        let md = format!("| a | b |\n|---|---|\n{rows}");
        let page = render(Path::new("/nonexistent"), &md);
        assert!(page.contains("<summary>Table of 40 rows (click to show)</summary>"));
        assert!(
            page.contains("not in this directory") || !page.contains("<figure class=\"missing\"")
        );
    }

    #[test]
    fn html_in_a_report_is_shown_as_text() {
        let page = render(
            Path::new("/nonexistent"),
            "player <img src=http://x/y.png>\n\n<script>alert(1)</script>\n",
        );
        assert!(
            !page.contains("<img src=http") && !page.contains("<script>alert"),
            "{page}"
        );
        assert!(page.contains("&lt;img src=http://x/y.png&gt;"));
    }

    #[test]
    fn a_missing_figure_is_named() {
        let page = render(Path::new("/nonexistent"), "![x](x.png)\n");
        assert!(page.contains("Figure <code>x.png</code> is not in this directory."));
    }
}
