//! Candidates selected from a grid run: the positions whose node count grows by at least a factor
//! from one configuration to another (a blowup suite). The run selects; the frequency of the effect
//! must then be measured on positions the selection never saw.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use cozy_chess::Board;

use crate::report::data::RunDir;
use crate::report::paired;

/// Which positions of which run.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The run directory (manifest.json, runs.csv).
    pub run: PathBuf,
    /// The configuration the ratio is taken against.
    pub from: String,
    /// The configuration whose nodes are divided by `from`'s.
    pub to: String,
    /// Least node ratio `to / from` kept.
    pub min_ratio: f64,
}

impl Selection {
    /// Parses `FROM/TO` (configuration ids of the run, e.g. `c03/c04`).
    pub fn new(run: PathBuf, pair: &str, min_ratio: f64) -> Result<Self> {
        let Some((from, to)) = pair.split_once('/') else {
            bail!(
                "--select-pair: expected FROM/TO configuration ids (e.g. c03/c04), found `{pair}`"
            );
        };
        if min_ratio.is_nan() || min_ratio <= 0.0 {
            bail!("--min-ratio: expected a positive factor, found {min_ratio}");
        }
        Ok(Self {
            run,
            from: from.to_string(),
            to: to.to_string(),
            min_ratio,
        })
    }

    /// The positions passing the bound, largest ratio first, with where each came from.
    pub fn candidates(&self) -> Result<Vec<(Board, String)>> {
        let run = RunDir::load(&self.run)
            .with_context(|| format!("reading the selection run {}", self.run.display()))?;
        let ids = run.config_ids();
        for id in [&self.from, &self.to] {
            if !ids.contains(id) {
                bail!(
                    "selection run {}: no configuration `{id}` (expected one of {})",
                    self.run.display(),
                    ids.join(", ")
                );
            }
        }
        let mut pairs = paired::compare(run.runs_of(&self.from), run.runs_of(&self.to)).pairs;
        pairs.retain(|p| p.ratio() >= self.min_ratio);
        // Largest first; equal ratios keep the run's order (a stable sort), so the file repeats.
        pairs.sort_by(|a, b| b.ratio().total_cmp(&a.ratio()));
        let (from, to) = (run.label(&self.from), run.label(&self.to));
        let mut out = Vec::new();
        for p in &pairs {
            let board = Board::from_fen(&p.fen, false).map_err(|e| {
                anyhow::anyhow!(
                    "{} {}: FEN `{}` does not read: {e}",
                    p.suite,
                    p.position,
                    p.fen
                )
            })?;
            let censored = if p.censored {
                " (censored: at least)"
            } else {
                ""
            };
            let origin = format!(
                "selected from {} {}: nodes {} ({from}) to {} ({to}), ratio {:.1}{censored}",
                p.suite,
                p.position,
                p.base_nodes,
                p.nodes,
                p.ratio()
            );
            out.push((board, origin));
        }
        Ok(out)
    }
}
