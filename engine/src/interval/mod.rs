//! Seed 004 (1989): a search that values endgame positions by **intervals** of results with a
//! depth, combined with knowledge rules, and the building blocks of the text's validation of a
//! rule set by search (the harness's `kpk validate` runs it over every KPK position).
//!
//! ```
//! use engine::interval::{IntervalSearch, TextRules, Wdl};
//! // The rule of the square decides the root's child after a5-a6; the search settles the root.
//! let board = "8/8/6k1/P7/8/8/8/K7 w - - 0 1".parse().unwrap();
//! let mut search = IntervalSearch::new(&TextRules::ALL).ignoring_root_knowledge();
//! let solved = search.solve(&board, 8);
//! assert_eq!(solved.value.interval.exact(), Some(Wdl::Win));
//! ```

pub mod knowledge;
pub mod search;
pub mod value;

pub use knowledge::{Knowledge, Known, TextRules, SETTLED};
pub use search::{game_over, IntervalSearch, IntervalStats, Solved};
pub use value::{Depth, Interval, Valued, Wdl};
