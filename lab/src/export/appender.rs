//! [`Appender`]: a CSV table written a row at a time, every row flushed, so a killed run leaves
//! at most one torn last line, which [`cut_partial_line`] removes before the run continues. The
//! grid's `runs.csv` and `iterations.csv`, a match's `games.csv` and `moves.csv`, `tune.csv` and
//! `label`'s tables are all written through it.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

/// A CSV table appended to row by row.
pub struct Appender {
    writer: csv::Writer<File>,
    path: PathBuf,
    empty: bool,
}

impl Appender {
    /// The table at `path`, continued after its last complete line (created when missing). Rows
    /// given as structs get their header when the file is empty (new, or cut back to nothing).
    pub fn open(path: &Path) -> Result<Self> {
        cut_partial_line(path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let empty = file.metadata()?.len() == 0;
        Ok(Self {
            writer: csv::WriterBuilder::new()
                .has_headers(empty)
                .from_writer(file),
            path: path.to_path_buf(),
            empty,
        })
    }

    /// Whether nothing has been written to the file yet (its header is the caller's to write
    /// when it appends records).
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Appends `row` (a struct: its fields are the columns) and flushes it.
    pub fn append(&mut self, row: &impl Serialize) -> Result<()> {
        let written = self.writer.serialize(row).map_err(anyhow::Error::from);
        self.flushed(written)
    }

    /// Appends one record of cells and flushes it.
    pub fn append_record<I, T>(&mut self, cells: I) -> Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let written = self.writer.write_record(cells).map_err(anyhow::Error::from);
        self.flushed(written)
    }

    fn flushed(&mut self, written: Result<()>) -> Result<()> {
        self.empty = false;
        // csv's flush flushes the file too: a row is on disk before the next job starts.
        written
            .and_then(|()| self.writer.flush().map_err(anyhow::Error::from))
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

/// Cuts a file after its last newline (a kill can leave half a line); a missing file is left
/// missing. Returns the bytes kept.
pub fn cut_partial_line(path: &Path) -> Result<u64> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(0);
    };
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("opening {} to cut its torn last line", path.display()))?;
        file.set_len(keep as u64)
            .with_context(|| format!("cutting the torn last line of {}", path.display()))?;
    }
    Ok(keep as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        a: u32,
        b: &'static str,
    }

    #[test]
    fn a_torn_line_is_cut_and_the_header_written_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let mut table = Appender::open(&path).unwrap();
        assert!(table.is_empty());
        table.append(&Row { a: 1, b: "x" }).unwrap();
        drop(table);
        // A kill mid-row.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("2,y-with-no-en");
        std::fs::write(&path, text).unwrap();
        let mut table = Appender::open(&path).unwrap();
        assert!(!table.is_empty());
        table.append(&Row { a: 2, b: "y" }).unwrap();
        table.append_record(["3", "z"]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "a,b\n1,x\n2,y\n3,z\n"
        );
    }

    #[test]
    fn a_missing_file_is_left_missing_by_the_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none.csv");
        assert_eq!(cut_partial_line(&path).unwrap(), 0);
        assert!(!path.exists());
    }
}
