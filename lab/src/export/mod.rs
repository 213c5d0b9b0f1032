//! What a grid run writes: `runs.csv`, `iterations.csv` (as jobs finish) and `manifest.json` (at
//! the start). `summary.csv`, `report.md` and the figures come from `report`, at the end.

pub mod appender;
pub mod manifest;
pub mod provenance;
pub mod rows;
pub mod sink;
