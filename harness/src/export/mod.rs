//! What a grid run writes: `runs.csv`, `iterations.csv` (as jobs finish), `summary.csv` and
//! `manifest.json` (at the end and the start).

pub mod manifest;
pub mod rows;
pub mod sink;
pub mod summary;
