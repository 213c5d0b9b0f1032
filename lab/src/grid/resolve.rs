//! The players of a grid or a match, resolved once for both commands: the UCI engines the spec
//! names started and identified, every point expanded, the configurations' tables checked, and a
//! warning for points that search alike.

use std::time::Duration;

use anyhow::Result;

use super::checks::{check_tables, warn_same_search};
use super::{GridPoint, GridSpec};
use crate::engines::{self, EngineSpec};

/// A spec's players, ready to search or play.
pub struct Resolved {
    /// The engines (the builtin one when the spec names none).
    pub engines: Vec<EngineSpec>,
    /// Every point of the spec, in its order.
    pub points: Vec<GridPoint>,
    /// The columns that tell the points apart (the axes, or `player`).
    pub columns: Vec<String>,
}

/// Resolves `spec`'s players, each UCI engine given `handshake` to answer.
pub fn resolve(spec: &GridSpec, handshake: Duration) -> Result<Resolved> {
    let engines = engines::resolve(&spec.engine_args(), handshake)?;
    let points = spec.expand_with(&engines)?;
    check_tables(points.iter().filter_map(|p| p.config()))?;
    warn_same_search(&points);
    let columns = spec.columns(&engines);
    Ok(Resolved {
        engines,
        points,
        columns,
    })
}
