//! `harness match`: what a heuristic is worth in play. Players (configurations of the builtin
//! engine, in-process, or UCI engines) meet in game pairs — each opening twice, colours
//! reversed — under per-move limits (nodes, depth, movetime or a clock), games end by the rules
//! or by adjudication, and the results are counted by games and by pairs for Elo, normalized Elo
//! and the SPRT. Pipeline: [`plan`] → [`run`] (workers play [`game`]s of [`player`]s) →
//! [`output`] (PGN and CSVs, resumable) → [`report`] (with three or more players, [`ratings`] on one
//! scale).

pub mod affinity;
pub mod figures;
pub mod game;
pub mod ladder;
pub mod limits;
pub mod manifest;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod pgn_rebuild;
pub mod plan;
pub mod player;
pub mod ratings;
pub mod report;
pub mod rules;
pub mod run;
#[cfg(test)]
mod run_tests;
pub mod setup;
pub mod standings;
pub mod tablebase;
