//! `report.json`: every table of a report as data, written beside `report.md` and `report.html`
//! by [`crate::report::page::write`] (and `tree.json` beside `harness tree`'s `tree.md`). Study
//! scripts read a report's figures from here, never from the Markdown: a table is found by its
//! columns, its section is the heading above it, its `rows` are the text the report shows (an
//! interval stays `+5.2 ± 3.1`, inline code loses its backticks), and its `figures` the numbers of
//! each cell, typed, in reading order (`8 (11.1 %) [5.7, 20.4]` → `[8, 11.1, 5.7, 20.4]`,
//! `−3.1` → `[-3.1]`, `1,234` → `[1234]`), so no script takes a display string apart.
//!
//! ```json
//! {"title": "Report: steps", "tables": [
//!   {"section": "Steps along `candidate_limit`", "columns": ["other axes", "step", …],
//!    "rows": [["—", "3→4", "12 (4.0 %)", …]], "figures": [[[], [3, 4], [12, 4.0], …]]}]}
//! ```

use std::path::Path;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};

use crate::run_dir::REPORT_JSON;

/// A report's tables, in the order the report shows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportTables {
    /// The report's title (its `# ` heading).
    pub title: String,
    /// Its tables.
    pub tables: Vec<Table>,
}

/// One table of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The text of the nearest heading above it (empty when there is none).
    pub section: String,
    /// Its header cells.
    pub columns: Vec<String>,
    /// Its rows, a cell per column as the report shows it (a short row padded with empty cells).
    pub rows: Vec<Vec<String>>,
    /// The numbers of each cell of `rows`, in reading order ([`figures`]).
    pub figures: Vec<Vec<Vec<f64>>>,
}

/// The numbers a cell shows, in reading order: a sign (`+`, `-` or `−`) belongs to a number
/// when no letter or digit comes right before it (`p00-p01` is 0 and 1, `−3.1` is −3.1);
/// thousands separators are dropped (`1,234` is 1234, `[5.7, 20.4]` two numbers); an exponent
/// is read (`1.2e-05`).
pub fn figures(cell: &str) -> Vec<f64> {
    let chars: Vec<char> = cell.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some((value, end)) = number_at(&chars, i) {
            out.push(value);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The number starting at `i` (its sign included), and where it ends.
fn number_at(chars: &[char], i: usize) -> Option<(f64, usize)> {
    let after_word = i > 0 && chars[i - 1].is_alphanumeric();
    let signed = matches!(chars[i], '+' | '-' | '−') && !after_word;
    let start = if signed { i + 1 } else { i };
    if !digit_at(chars, start) {
        return None;
    }
    let mut text = String::from(if matches!(chars[i], '-' | '−') {
        "-"
    } else {
        ""
    });
    let mut end = start;
    while end < chars.len() {
        let c = chars[end];
        if c.is_ascii_digit() || (c == '.' && digit_at(chars, end + 1)) {
            text.push(c);
            end += 1;
        } else if c == ',' && thousands_at(chars, end + 1) {
            end += 1;
        } else if let Some(len) = exponent_at(chars, end) {
            text.extend(&chars[end..end + len]);
            end += len;
        } else {
            break;
        }
    }
    text.parse().ok().map(|v| (v, end))
}

fn digit_at(chars: &[char], i: usize) -> bool {
    chars.get(i).is_some_and(char::is_ascii_digit)
}

/// Whether exactly three digits follow a comma at `i` (`1,234`, not `5.7, 20.4`).
fn thousands_at(chars: &[char], i: usize) -> bool {
    (i..i + 3).all(|k| digit_at(chars, k)) && !digit_at(chars, i + 3)
}

/// The length of an exponent's marker and sign at `i` (`e`, `e-`, `E+`), when digits follow.
fn exponent_at(chars: &[char], i: usize) -> Option<usize> {
    if !matches!(chars.get(i), Some('e' | 'E')) {
        return None;
    }
    let len = if matches!(chars.get(i + 1), Some('+' | '-')) {
        2
    } else {
        1
    };
    digit_at(chars, i + len).then_some(len)
}

/// The tables of the report `md`.
pub fn of(md: &str) -> ReportTables {
    let mut title = String::new();
    let mut section = String::new();
    let mut heading: Option<(u32, String)> = None;
    let mut table: Option<Vec<Event>> = None;
    let mut tables = Vec::new();
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match (&mut table, event) {
            (None, Event::Start(Tag::Table(_))) => table = Some(Vec::new()),
            (Some(_), Event::End(TagEnd::Table)) => {
                let mut rows = rows_of(&table.take().expect("inside a table"));
                let columns = if rows.is_empty() {
                    Vec::new()
                } else {
                    rows.remove(0)
                };
                let section = section.clone();
                let figures = rows
                    .iter()
                    .map(|r| r.iter().map(|c| figures(c)).collect())
                    .collect();
                tables.push(Table {
                    section,
                    columns,
                    rows,
                    figures,
                });
            }
            (Some(buffered), event) => buffered.push(event),
            (None, Event::Start(Tag::Heading { level, .. })) => {
                heading = Some((level as u32, String::new()))
            }
            (None, Event::End(TagEnd::Heading(_))) => {
                if let Some((level, text)) = heading.take() {
                    if level == 1 && title.is_empty() {
                        title = text.clone();
                    }
                    section = text;
                }
            }
            (None, Event::Text(text) | Event::Code(text)) => {
                if let Some((_, h)) = heading.as_mut() {
                    h.push_str(&text);
                }
            }
            _ => {}
        }
    }
    ReportTables { title, tables }
}

/// A table's rows from its events (the header row first), each cell its text and inline code:
/// what `report.json` holds and what the page's forest plot reads.
pub(crate) fn rows_of(events: &[Event]) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for event in events {
        match event {
            Event::Start(Tag::TableHead | Tag::TableRow) => rows.push(Vec::new()),
            Event::Start(Tag::TableCell) => {
                if let Some(row) = rows.last_mut() {
                    row.push(String::new());
                }
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                    cell.push_str(text);
                }
            }
            _ => {}
        }
    }
    rows
}

/// Writes the tables of `md` as `dir/report.json`.
pub fn write(dir: &Path, md: &str) -> std::io::Result<()> {
    write_as(&dir.join(REPORT_JSON), md)
}

/// Writes the tables of `md` (a Markdown file other than a report: `tree.md`) as `path`.
pub fn write_as(path: &Path, md: &str) -> std::io::Result<()> {
    std::fs::write(path, to_json(&of(md)))
}

/// `tables` as JSON with a line per table row (of `rows` and of `figures`): readable in a diff,
/// and about as large as the cells themselves.
pub fn to_json(tables: &ReportTables) -> String {
    let mut out = format!("{{\n  \"title\": {},\n  \"tables\": [", json(&tables.title));
    for (i, t) in tables.tables.iter().enumerate() {
        let lines = |rows: &[String]| {
            let inner = rows
                .iter()
                .map(|r| format!("\n        {r}"))
                .collect::<Vec<_>>()
                .join(",");
            if rows.is_empty() {
                "[]".to_string()
            } else {
                format!("[{inner}\n      ]")
            }
        };
        let rows: Vec<String> = t.rows.iter().map(json).collect();
        let figures: Vec<String> = t.figures.iter().map(json).collect();
        out += &format!(
            "{}\n    {{\n      \"section\": {},\n      \"columns\": {},\n      \"rows\": {},\n      \"figures\": {}\n    }}",
            if i > 0 { "," } else { "" },
            json(&t.section),
            json(&t.columns),
            lines(&rows),
            lines(&figures)
        );
    }
    out + if tables.tables.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    }
}

/// One value as compact JSON.
fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("tables serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::md_table::MdTable;

    #[test]
    fn a_table_comes_back_with_its_section_columns_and_cells() {
        let mut t = MdTable::new().left("config").right("nodes").left("note");
        t.row(["c00", "1200", "`a|b` +5.2 ± 3.1"]);
        t.row(["c01", "950"]);
        let md = format!(
            "# Report: x\n\nintro\n\n## Steps along `limit`\n\n{}\ntext\n",
            t.render()
        );
        let tables = of(&md);
        assert_eq!(tables.title, "Report: x");
        assert_eq!(
            tables.tables,
            vec![Table {
                section: "Steps along limit".into(),
                columns: vec!["config".into(), "nodes".into(), "note".into()],
                rows: vec![
                    vec!["c00".into(), "1200".into(), "a|b +5.2 ± 3.1".into()],
                    vec!["c01".into(), "950".into(), "".into()],
                ],
                figures: vec![
                    vec![vec![0.0], vec![1200.0], vec![5.2, 3.1]],
                    vec![vec![1.0], vec![950.0], vec![]],
                ],
            }]
        );
    }

    #[test]
    fn a_cells_numbers_come_typed_in_reading_order() {
        let cases: [(&str, &[f64]); 9] = [
            ("8 (11.1 %) [5.7, 20.4]", &[8.0, 11.1, 5.7, 20.4]),
            ("−3.1 ± 0.4", &[-3.1, 0.4]),
            (
                "+5.2 ± 3.1 (800, Holm p 1.6e-12)",
                &[5.2, 3.1, 800.0, 1.6e-12],
            ),
            ("1,234,567 nodes", &[1_234_567.0]),
            ("p00-p01", &[0.0, 1.0]),
            ("3 → 4", &[3.0, 4.0]),
            ("0.2 / 1.5 / 12.0 / 40.3", &[0.2, 1.5, 12.0, 40.3]),
            ("2 s + 0.02 s", &[2.0, 0.02]),
            ("none", &[]),
        ];
        for (cell, expected) in cases {
            assert_eq!(figures(cell), expected, "{cell}");
        }
    }

    #[test]
    fn the_json_reads_back_as_the_tables() {
        let mut t = MdTable::new().left("config").right("Elo");
        t.row(["c00", "+5.2 ± 3.1"]);
        t.row(["c01", "−1,234 [−2, 0.5]"]);
        let md = format!("# R\n\n## A\n\n{}\n## B\n\n{}", t.render(), t.render());
        for tables in [of(&md), of("# empty\n")] {
            let back: ReportTables = serde_json::from_str(&to_json(&tables)).unwrap();
            assert_eq!(back, tables);
        }
    }

    #[test]
    fn no_tables_is_an_empty_list() {
        assert!(of("# Report\n\nno tables\n").tables.is_empty());
    }
}
