//! A chess search for measuring heuristics. Every technique of the engine Fischerle (selective
//! deepening, its quiescence search, its move ordering, killers) and a few modern ones are runtime
//! switches in one [`SearchConfig`], so a harness can turn them on and off inside one binary and
//! count what each is worth. Board and move generation are [cozy-chess](cozy_chess).
//!
//! ```
//! use engine::{Limits, Position, SearchConfig, Searcher};
//! let position = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
//! let mut searcher = Searcher::new(SearchConfig::preset("fischerle").unwrap());
//! let result = searcher.search(&position, Limits::depth(3), |_| {});
//! assert_eq!(engine::board::uci_move(position.board(), result.best_move.unwrap()), "a1a8");
//! assert!(result.stats.nodes > 0);
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod config;
pub mod eval;
pub mod excerpt;
pub mod interval;
pub mod kpk;
pub mod nnue;
pub mod perft;
pub mod position;
pub mod search;
pub mod uci;
pub mod variant;

pub use config::SearchConfig;
pub use position::Position;
pub use search::limits::Limits;
pub use search::stats::{Iteration, SearchResult, SearchStats};
pub use search::Searcher;
pub use variant::Variant;

/// The engine's name and version, as UCI `id name` and run manifests print it.
pub const VERSION: &str = concat!("fischerle-lab ", env!("CARGO_PKG_VERSION"));
