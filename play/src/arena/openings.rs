//! The opening book: start positions read from EPD (each record) or PGN (the position after each
//! game's main line, or after its first N plies: `--plies`), used in order from an offset, so that
//! a rerun with the same seed plays the same openings and runs with different seeds (or shards)
//! take disjoint stretches of the book. `--order random` shuffles the book first — by a
//! permutation seeded from the book's SHA-256, not from `--seed`, so the offsets of different
//! seeds still take disjoint stretches of the shuffled book.

use std::path::Path;

use anyhow::{bail, Context, Result};
use cozy_chess::{Board, GameStatus};
use engine::Variant;
use lab::epd::parse_suite_in;
use lab::pgn_reader as pgn;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// One start position.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// `id` of the EPD record, or `file:line` / `file game N`.
    pub id: String,
    /// The position the game starts from.
    pub board: Board,
    /// Which chess it is (the book's).
    pub variant: Variant,
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
    /// How the book is read.
    pub options: BookOptions,
    /// PGN games shorter than `--plies`: they start from their final position.
    pub too_short: usize,
}

/// The order in which a book's positions are played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// File order.
    #[default]
    Sequential,
    /// A fixed shuffle of the book (seeded by its SHA-256).
    Random,
}

/// How a book is read: fastchess's `order=` and `plies=`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookOptions {
    /// File order or shuffled.
    #[serde(default)]
    pub order: Order,
    /// PGN books: the position after this many plies of each game (default: all its moves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// Standard chess or Chess960 (`--variant`); recorded only when not standard.
    #[serde(default, skip_serializing_if = "is_standard")]
    pub variant: Variant,
}

fn is_standard(variant: &Variant) -> bool {
    *variant == Variant::Standard
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

    /// The book at `path` (the project's book without one) with `options`, with a warning on
    /// stderr when some of its games are shorter than `options.plies`.
    pub fn open(path: Option<&Path>, options: BookOptions) -> Result<Self> {
        let book = match path {
            Some(path) => Self::read_with(path, options)?,
            None => Self::builtin_with(options)?,
        };
        if book.too_short > 0 {
            eprintln!(
                "warning: {} of the {} games of {} are shorter than --plies {}: they start from their final position",
                book.too_short,
                book.openings.len(),
                book.source,
                options.plies.unwrap_or(0)
            );
        }
        Ok(book)
    }

    /// Reads a book: PGN when the name ends in `.pgn`, EPD otherwise.
    pub fn read(path: &Path) -> Result<Self> {
        Self::read_with(path, BookOptions::default())
    }

    /// Reads a book with an order and, for PGN, a ply count.
    pub fn read_with(path: &Path, options: BookOptions) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the opening book {}", path.display()))?;
        Self::parse_with(&path.display().to_string(), &text, options)
    }

    /// The project's book with an order (it is EPD: no plies).
    pub fn builtin_with(options: BookOptions) -> Result<Self> {
        Self::parse_with(BUILTIN_BOOK.0, BUILTIN_BOOK.1, options)
    }

    /// Parses a book's text; `source` names it in ids and errors.
    pub fn parse(source: &str, text: &str) -> Result<Self> {
        Self::parse_with(source, text, BookOptions::default())
    }

    /// Parses a book's text with an order and, for PGN, a ply count.
    pub fn parse_with(source: &str, text: &str, options: BookOptions) -> Result<Self> {
        let pgn = source.ends_with(".pgn");
        if options.plies.is_some() && !pgn {
            bail!(
                "--plies applies to PGN books; {source} is read as EPD (each record is a position)"
            );
        }
        if pgn && options.variant != Variant::Standard {
            bail!(
                "{source}: a {} book is read from EPD (Shredder-FEN or X-FEN castling rights), not PGN",
                options.variant
            );
        }
        let (openings, problems, too_short) = if pgn {
            from_pgn(source, text, options.plies)
        } else {
            let (o, p) = from_epd(source, text, options.variant);
            (o, p, 0)
        };
        let mut playable: Vec<Opening> = openings
            .into_iter()
            .filter(|o| o.board.status() == GameStatus::Ongoing)
            .collect();
        if playable.is_empty() {
            let first = problems
                .first()
                .map_or(String::new(), |p| format!(" (first problem: {p})"));
            bail!(
                "the opening book {source} has no playable {} position{first}",
                options.variant
            );
        }
        let sha256 = lab::plan::sha256_hex(text.as_bytes());
        if options.order == Order::Random {
            let seed = u64::from_str_radix(&sha256[..16], 16).expect("hex");
            playable.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        }
        Ok(Self {
            source: source.to_string(),
            sha256,
            openings: playable,
            problems,
            options,
            too_short,
        })
    }

    /// The opening of pair `k` when the book is entered at `offset`.
    pub fn opening(&self, offset: u64, k: u64) -> &Opening {
        let n = self.openings.len() as u64;
        &self.openings[((offset % n + k % n) % n) as usize]
    }
}

fn from_epd(source: &str, text: &str, variant: Variant) -> (Vec<Opening>, Vec<String>) {
    let suite = parse_suite_in(source, text, variant);
    let openings = suite
        .records
        .into_iter()
        .map(|r| Opening {
            id: r.id,
            board: r.board,
            variant,
        })
        .collect();
    (
        openings,
        suite.errors.iter().map(|e| e.to_string()).collect(),
    )
}

/// Each game's position after `plies` plies (its final one when shorter, counted), or its final.
fn from_pgn(source: &str, text: &str, plies: Option<usize>) -> (Vec<Opening>, Vec<String>, usize) {
    let (games, errors) = pgn::parse(source, text);
    let mut too_short = 0;
    let openings = games
        .into_iter()
        .filter_map(|g| {
            let board = match plies {
                Some(n) if n < g.boards.len() => g.boards.get(n),
                Some(_) => {
                    too_short += 1;
                    g.boards.last()
                }
                None => g.boards.last(),
            };
            board.map(|b| Opening {
                id: format!("{source} game {}", g.number),
                board: b.clone(),
                variant: Variant::Standard,
            })
        })
        .collect();
    (openings, errors, too_short)
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
    fn pgn_books_stop_after_n_plies_and_count_the_games_too_short() {
        let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"y\"]\n\n1. d4 *\n";
        let options = BookOptions {
            order: Order::Sequential,
            plies: Some(2),
            variant: Variant::Standard,
        };
        let book = Book::parse_with("b.pgn", pgn, options).unwrap();
        assert_eq!(
            book.openings[0].board.to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(book.too_short, 1, "1. d4 has one ply");
        let epd = Book::parse_with("b.epd", "8/8/8/8/8/8/k7/K6R w - -\n", options);
        assert!(epd
            .unwrap_err()
            .to_string()
            .contains("--plies applies to PGN"));
    }

    #[test]
    fn a_random_order_is_a_fixed_shuffle_of_the_whole_book() {
        let epd: String = (1..=7)
            .map(|i| format!("8/8/8/8/8/8/k7/K{}R{} w - - id \"{i}\";\n", 7 - i, i - 1))
            .map(|l| l.replace("K0R", "KR").replace("R0 ", "R "))
            .collect();
        let random = BookOptions {
            order: Order::Random,
            plies: None,
            variant: Variant::Standard,
        };
        let ids = |b: &Book| b.openings.iter().map(|o| o.id.clone()).collect::<Vec<_>>();
        let a = Book::parse_with("r.epd", &epd, random).unwrap();
        let b = Book::parse_with("r.epd", &epd, random).unwrap();
        let sequential = Book::parse("r.epd", &epd).unwrap();
        assert_eq!(ids(&a), ids(&b), "reproducible");
        assert_ne!(ids(&a), ids(&sequential), "shuffled");
        let (mut sorted, mut all) = (ids(&a), ids(&sequential));
        sorted.sort();
        all.sort();
        assert_eq!(sorted, all, "every position once");
    }

    #[test]
    fn a_book_without_positions_is_an_error() {
        assert!(Book::parse("e.epd", "# nothing\n").is_err());
    }
}
