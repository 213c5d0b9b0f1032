//! `play`: what the harness does with games and positions on top of `lab` — matches and their
//! ladders (`arena`), training data by self-play (`datagen`), factorial designs of switches
//! (`factorial`), SPSA tuning (`tune`), Texel fitting (`texel`), labelling positions with a UCI
//! engine (`label`) and the KPK validation (`kpk`, which the arena's tablebase adjudication
//! reads).
#![deny(missing_docs)]

pub mod arena;
pub mod datagen;
pub mod factorial;
pub mod kpk;
pub mod label;
pub mod texel;
pub mod train;
pub mod tune;
