//! `lab`: what every command of the harness stands on — suites and EPD/PGN, the UCI client and
//! the engines it starts, grids and their plans, the runner and its run directories (manifest,
//! lock, resumable flow, shards), export, the report with its statistics, figures and pages, Elo,
//! bench, the tree recorder and the results index. It knows nothing of play: matches, factorial
//! designs, tuning and fitting (the `play` crate) are built on it, and the `harness` binary on both.
#![deny(missing_docs)]

pub mod balance;
pub mod bench;
pub mod elo;
pub mod engines;
pub mod epd;
pub mod export;
pub mod grid;
pub mod index;
pub mod json;
pub mod merge;
pub mod pgn_reader;
pub mod plan;
pub mod progress;
pub mod report;
pub mod run_dir;
pub mod run_flow;
pub mod run_lock;
pub mod runner;
pub mod shard;
pub mod shutdown;
pub mod solve;
pub mod suite_make;
pub mod suites;
pub mod tree;
pub mod uci;
pub mod workers;
