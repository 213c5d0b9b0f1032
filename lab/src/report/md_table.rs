//! The one writer of the Markdown tables in every report (`report.md` of a grid, a match, a ladder
//! and a tune, `compare.md`, `tree.md`, `diff.md`, the KPK reports).
//!
//! The text it writes is the text the reports have always written, byte for byte (committed
//! results are regenerated and compared): a header line `| a | b |`, a separator `|---|---:|`
//! (`---` left, `---:` right), one line `| x | y |` per row, each line ending in `\n`, and nothing
//! before or after (the blank lines around a table are the caller's prose).
//!
//! ```text
//! let mut t = MdTable::new().left("config").right("nodes");
//! t.row(["c00".to_string(), "1200".to_string()]);
//! assert_eq!(t.render(), "| config | nodes |\n|---|---:|\n| c00 | 1200 |\n");
//! ```

/// How a column's cells are aligned: the separator line says it (`---` or `---:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text: names, values, intervals (`---`).
    Left,
    /// Numbers (`---:`).
    Right,
}

/// A Markdown table: columns (header text and alignment), then rows of cells as strings.
#[derive(Debug, Clone, Default)]
pub struct MdTable {
    /// Each column's header text and alignment, in order.
    columns: Vec<(String, Align)>,
    /// The rows, each with a cell per column (a short row with fewer).
    rows: Vec<Vec<String>>,
    /// Whether an empty cell is written `| |` rather than `|  |`.
    tight_empty: bool,
}

impl MdTable {
    /// A table without columns or rows; add columns with [`left`](Self::left),
    /// [`right`](Self::right) or [`columns`](Self::columns).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a left-aligned column (`---`).
    pub fn left(self, header: impl Into<String>) -> Self {
        self.columns([header], Align::Left)
    }

    /// Adds a right-aligned column (`---:`).
    pub fn right(self, header: impl Into<String>) -> Self {
        self.columns([header], Align::Right)
    }

    /// Adds one column per header, all aligned alike: the columns a report has one of per suite,
    /// depth, rung or player.
    pub fn columns<H: Into<String>>(
        mut self,
        headers: impl IntoIterator<Item = H>,
        align: Align,
    ) -> Self {
        self.columns
            .extend(headers.into_iter().map(|h| (h.into(), align)));
        self
    }

    /// Writes an empty cell, header or row, as `| |` instead of `|  |`: the blank corner and
    /// diagonal of a matrix (the joint ratings' LOS table has always been written so).
    pub fn tight_empty_cells(mut self) -> Self {
        self.tight_empty = true;
        self
    }

    /// Appends a row, one cell per column. A cell is written as given, except that `|` becomes
    /// `\|` (a reason or a name with a bar would otherwise split the cell).
    ///
    /// A row with fewer cells is written short, not padded: a shard's Heinz table has a
    /// configuration that searched nothing, and its row has always been written with its id and
    /// values alone (Markdown shows the missing cells empty).
    pub fn row<C: Into<String>>(&mut self, cells: impl IntoIterator<Item = C>) -> &mut Self {
        self.rows.push(cells.into_iter().map(Into::into).collect());
        self
    }

    /// The table as Markdown: header, separator, rows, each line ending in `\n`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.line(&mut out, self.columns.iter().map(|(h, _)| h.as_str()));
        out.push('|');
        for (_, align) in &self.columns {
            out.push_str(match align {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        out.push('\n');
        for row in &self.rows {
            self.line(&mut out, row.iter().map(String::as_str));
        }
        out
    }

    /// One line of cells: `| a | b |\n`.
    fn line<'a>(&self, out: &mut String, cells: impl Iterator<Item = &'a str>) {
        out.push('|');
        for cell in cells {
            if cell.is_empty() && self.tight_empty {
                out.push_str(" |");
            } else {
                out.push(' ');
                out.push_str(&cell.replace('|', "\\|"));
                out.push_str(" |");
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn renders_header_separator_and_rows_each_ending_in_a_newline() {
        let mut t = MdTable::new().left("config").right("nodes").right("time");
        t.row(cells(&["c00", "1200", "3.2 ms"]));
        t.row(cells(&["c01", "950", "2.9 ms"]));
        assert_eq!(
            t.render(),
            "| config | nodes | time |\n|---|---:|---:|\n| c00 | 1200 | 3.2 ms |\n| c01 | 950 | 2.9 ms |\n"
        );
    }

    #[test]
    fn alignment_is_per_column_in_the_order_added() {
        let t = MdTable::new()
            .right("ply")
            .left("move")
            .columns(["d1", "d2"], Align::Right)
            .columns(["a", "b"], Align::Left);
        assert_eq!(
            t.render(),
            "| ply | move | d1 | d2 | a | b |\n|---:|---|---:|---:|---|---|\n"
        );
    }

    #[test]
    fn a_bar_in_a_cell_or_header_is_escaped() {
        let mut t = MdTable::new().left("a|b").left("reason");
        t.row(cells(&["x", "engine said `info | garbage`"]));
        assert_eq!(
            t.render(),
            "| a\\|b | reason |\n|---|---|\n| x | engine said `info \\| garbage` |\n"
        );
    }

    #[test]
    fn an_empty_table_is_its_header_and_separator() {
        let t = MdTable::new().left("termination").right("games");
        assert_eq!(t.render(), "| termination | games |\n|---|---:|\n");
        assert_eq!(
            MdTable::new().render(),
            "|\n|\n",
            "no columns: two bare bars"
        );
    }

    #[test]
    fn empty_cells_are_padded_unless_asked_tight() {
        let mut loose = MdTable::new().left("line").left("note");
        loose.row(cells(&["e2e4", ""]));
        assert_eq!(loose.render(), "| line | note |\n|---|---|\n| e2e4 |  |\n");
        let mut matrix = MdTable::new()
            .left("")
            .columns(["p0", "p1"], Align::Right)
            .tight_empty_cells();
        matrix.row(cells(&["p0", "", "0.700"]));
        matrix.row(cells(&["p1", "0.300", ""]));
        assert_eq!(
            matrix.render(),
            "| | p0 | p1 |\n|---|---:|---:|\n| p0 | | 0.700 |\n| p1 | 0.300 | |\n"
        );
    }

    #[test]
    fn a_short_row_is_written_as_given() {
        let mut t = MdTable::new()
            .left("config")
            .columns(["d1", "d2"], Align::Right);
        t.row(["c00", "1.0", "2.0"]).row(["c01"]);
        assert_eq!(
            t.render(),
            "| config | d1 | d2 |\n|---|---:|---:|\n| c00 | 1.0 | 2.0 |\n| c01 |\n"
        );
    }
}
