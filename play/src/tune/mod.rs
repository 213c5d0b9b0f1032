//! `harness tune`: SPSA over a player's numeric parameters, iteration by iteration — probes built
//! (`spsa`), a batch of game pairs θ+ against θ− played in parallel (`run`), θ moved, a row of
//! `tune.csv` written (`output`) — then `report.md`, figures and `tuned.toml` (`report`). The
//! run directory follows `run_flow` as `grid` and `match` do: manifest, lock, signals, resume.

pub mod drift;
pub mod output;
pub mod params;
pub mod report;
pub mod run;
pub mod setup;
pub mod spsa;
#[cfg(test)]
mod tests;
pub mod verify;

use std::path::PathBuf;

use lab::uci::bounds::UciBounds;
use params::{format_value, UCI_KEY};
use spsa::{Param, Schedule};

use crate::arena::limits::MoveLimit;
use crate::arena::openings::{Book, Opening};
use crate::arena::player::PlayerKind;
use crate::arena::rules::Rules;

/// The program and fixed options of a tuned UCI engine.
#[derive(Debug, Clone)]
pub struct UciBase {
    /// The program.
    pub path: PathBuf,
    /// Options set by `--set uci.NAME=V`, in order.
    pub options: Vec<(String, String)>,
    /// Its time allowances.
    pub slack: UciBounds,
}

/// The player whose parameters move.
// A few of these exist per match or tune, never in a hot loop: the configuration's size beside a
// UCI engine's path is not worth a box at every use.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Tuned {
    /// The project's engine from this configuration.
    Builtin(engine::SearchConfig),
    /// A UCI engine.
    Uci(UciBase),
}

/// A validated tune.
#[derive(Debug, Clone)]
pub struct TunePlan {
    /// Name (output directory, PGN event).
    pub name: String,
    /// The player tuned.
    pub tuned: Tuned,
    /// Its preset name or engine label (for `tuned.toml`).
    pub base_name: String,
    /// The fixed `--set` pairs (for `tuned.toml`).
    pub fixed: Vec<(String, String)>,
    /// The parameters, in column order.
    pub params: Vec<Param>,
    /// N.
    pub schedule: Schedule,
    /// Game pairs per iteration.
    pub pairs_per_iteration: u64,
    /// Limit per move of both sides.
    pub limit: MoveLimit,
    /// The openings.
    pub book: Book,
    /// The random seed of Δ and the rounding, and the book offset.
    pub seed: u64,
    /// How games end.
    pub rules: Rules,
    /// Games played at once.
    pub threads: usize,
    /// The run directory.
    pub out: PathBuf,
}

impl TunePlan {
    /// The plan in words (`--dry-run`).
    pub fn describe(&self) -> String {
        let mut out = format!("tune        {}\n", self.name);
        for p in &self.params {
            out += &format!(
                "param       {} start {} in [{}, {}], C_END {}, R_END {}{}\n",
                p.key,
                p.start,
                p.min,
                p.max,
                p.c_end,
                p.r_end,
                if p.integer { ", integer" } else { "" }
            );
        }
        out += &format!(
            "iterations  {} × {} pairs ({} games), limit {}\n",
            self.schedule.iterations,
            self.pairs_per_iteration,
            2 * self.total_pairs(),
            self.limit
        );
        out += &format!(
            "openings    {} ({} positions) from offset {}\nrules       {}\nthreads     {}\nout         {}\n",
            self.book.source,
            self.book.openings.len(),
            self.seed,
            self.rules,
            self.threads,
            self.out.display()
        );
        out
    }

    /// The player with the parameters at `values`.
    pub fn player(&self, values: &[f64]) -> PlayerKind {
        let settings = self
            .params
            .iter()
            .zip(values)
            .map(|(p, v)| (p.key.as_str(), format_value(*v, p.integer)));
        match &self.tuned {
            Tuned::Builtin(config) => {
                let mut config = config.clone();
                for (key, value) in settings {
                    config
                        .set(key, &value)
                        .expect("parameters were checked against the configuration");
                }
                PlayerKind::Builtin(config)
            }
            Tuned::Uci(base) => {
                let mut options = base.options.clone();
                for (key, value) in settings {
                    let name = key.strip_prefix(UCI_KEY).expect("checked: a uci. key");
                    options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    options.push((name.to_string(), value));
                }
                PlayerKind::Uci {
                    path: base.path.clone(),
                    options,
                    slack: base.slack,
                }
            }
        }
    }

    /// Pairs the whole tune plays.
    pub fn total_pairs(&self) -> u64 {
        self.schedule.iterations * self.pairs_per_iteration
    }

    /// The opening of pair `j` (from 0) of iteration `k` (from 1): the book read in order from
    /// the seed, so a verification from offset `seed + total_pairs` uses other openings.
    pub fn opening(&self, k: u64, j: u64) -> &Opening {
        self.book
            .opening(self.seed, (k - 1) * self.pairs_per_iteration + j)
    }

    /// θ at the start.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }
}
