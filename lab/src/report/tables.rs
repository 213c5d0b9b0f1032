//! `report.json`: every table of a report as data, written beside `report.md` and `report.html`
//! by [`crate::report::page::write`] (and `tree.json` beside `harness tree`'s `tree.md`). Study scripts read a report's figures from here, never from
//! the Markdown: a table is found by its columns, its cells are the text the report shows (an
//! interval stays `+5.2 ± 3.1`, inline code loses its backticks), and its section is the heading
//! above it.
//!
//! ```json
//! {"title": "Report: steps", "tables": [
//!   {"section": "Steps along `candidate_limit`", "columns": ["other axes", "step", …],
//!    "rows": [["—", "3→4", …]]}]}
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
                tables.push(Table {
                    section,
                    columns,
                    rows,
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
    let json = serde_json::to_string_pretty(&of(md)).expect("tables serialise") + "\n";
    std::fs::write(path, json)
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
            }]
        );
    }

    #[test]
    fn no_tables_is_an_empty_list() {
        assert!(of("# Report\n\nno tables\n").tables.is_empty());
    }
}
