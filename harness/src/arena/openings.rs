//! The opening book: start positions read from EPD (each record) or PGN (the position after each
//! game's main line), used in order from an offset, so that a rerun with the same seed plays the
//! same openings and runs with different seeds (or shards) take disjoint stretches of the book.

use std::path::Path;

use anyhow::{bail, Context, Result};
use cozy_chess::{Board, GameStatus};

use crate::epd::parse_suite;
use crate::suite_make::pgn;

/// One start position.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// `id` of the EPD record, or `file:line` / `file game N`.
    pub id: String,
    /// The position the game starts from.
    pub board: Board,
}

/// A book and where it came from.
#[derive(Debug, Clone)]
pub struct Book {
    /// Where it was read from (a path, or `builtin:NAME`).
    pub source: String,
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Its openings, in file order.
    pub openings: Vec<Opening>,
    /// Lines or games that could not be read (file:line and why); they are left out.
    pub problems: Vec<String>,
}

/// The project's opening book, built into the binary (see `suites/README.md`).
const BUILTIN_BOOK: (&str, &str) = (
    "builtin:openings.epd",
    include_str!("../../../suites/openings.epd"),
);

impl Book {
    /// The project's book (`match` and `tune` without `--openings`).
    pub fn builtin() -> Result<Self> {
        Self::parse(BUILTIN_BOOK.0, BUILTIN_BOOK.1)
    }

    /// Reads a book: PGN when the name ends in `.pgn`, EPD otherwise.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the opening book {}", path.display()))?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses a book's text; `source` names it in ids and errors.
    pub fn parse(source: &str, text: &str) -> Result<Self> {
        let (openings, problems) = if source.ends_with(".pgn") {
            from_pgn(source, text)
        } else {
            from_epd(source, text)
        };
        let playable: Vec<Opening> = openings
            .into_iter()
            .filter(|o| o.board.status() == GameStatus::Ongoing)
            .collect();
        if playable.is_empty() {
            bail!("the opening book {source} has no playable position");
        }
        Ok(Self {
            source: source.to_string(),
            sha256: crate::plan::sha256_hex(text.as_bytes()),
            openings: playable,
            problems,
        })
    }

    /// The opening of pair `k` when the book is entered at `offset`.
    pub fn opening(&self, offset: u64, k: u64) -> &Opening {
        let n = self.openings.len() as u64;
        &self.openings[((offset % n + k % n) % n) as usize]
    }
}

fn from_epd(source: &str, text: &str) -> (Vec<Opening>, Vec<String>) {
    let suite = parse_suite(source, text);
    let openings = suite
        .records
        .into_iter()
        .map(|r| Opening {
            id: r.id,
            board: r.board,
        })
        .collect();
    (
        openings,
        suite.errors.iter().map(|e| e.to_string()).collect(),
    )
}

fn from_pgn(source: &str, text: &str) -> (Vec<Opening>, Vec<String>) {
    let (games, errors) = pgn::parse(source, text);
    let openings = games
        .into_iter()
        .filter_map(|g| {
            g.boards.last().map(|b| Opening {
                id: format!("{source} game {}", g.number),
                board: b.clone(),
            })
        })
        .collect();
    (openings, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_and_pgn_books_give_start_positions() {
        let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
                   garbage line\n\
                   rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - id \"d4\";\n";
        let book = Book::parse("b.epd", epd).unwrap();
        assert_eq!(book.openings.len(), 2);
        assert_eq!(book.problems.len(), 1);
        assert!(book.problems[0].contains("b.epd:2"), "{:?}", book.problems);
        let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"y\"]\n\n1. d4 *\n";
        let book = Book::parse("b.pgn", pgn).unwrap();
        assert_eq!(book.openings.len(), 2);
        assert_eq!(
            book.openings[0].board.to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    #[test]
    fn an_offset_rotates_the_book() {
        let epd = "8/8/8/8/8/8/k7/K6R w - - id \"a\";\n8/8/8/8/8/8/k7/K5R1 w - - id \"b\";\n\
                   8/8/8/8/8/8/k7/K4R2 w - - id \"c\";\n";
        let book = Book::parse("r.epd", epd).unwrap();
        let ids = |offset| {
            (0..4)
                .map(|k| book.opening(offset, k).id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(0), ["a", "b", "c", "a"]);
        assert_eq!(ids(4), ["b", "c", "a", "b"]);
    }

    #[test]
    fn a_book_without_positions_is_an_error() {
        assert!(Book::parse("e.epd", "# nothing\n").is_err());
    }
}
