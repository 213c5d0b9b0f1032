//! The validated plan of a grid run: configurations, suites, limits, threads, output directory.
//! Everything is checked here, before the first search starts.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use engine::board::uci_move;
use engine::Limits;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::engines::EngineSpec;
use crate::epd::{parse_suite_bytes, EpdRecord, Suite};
use crate::grid::GridPoint;
use crate::shard::Shard;
use crate::solve::Answer;
use crate::uci::bounds::UciBounds;
use crate::uci::go::GoArgs;

/// The lowercase hex SHA-256 of `bytes` (suite and book identities).
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// One suite of the plan.
#[derive(Debug)]
pub struct SuiteInput {
    /// Short name used in the CSVs (the file name).
    pub label: String,
    /// Where it was read from (`embedded:NAME` for the built-in suite).
    pub source: String,
    /// SHA-256 of the file's bytes.
    pub sha256: String,
    /// Positions, with ids made unique within the suite.
    pub records: Vec<EpdRecord>,
}

impl SuiteInput {
    /// Parses a suite's bytes. Unreadable lines are returned as errors, the rest kept.
    pub fn new(label: String, source: String, bytes: &[u8]) -> (Self, Suite) {
        let mut parsed = parse_suite_bytes(&source, bytes);
        let mut records = std::mem::take(&mut parsed.records);
        make_ids_unique(&mut records);
        let sha256 = sha256_hex(bytes);
        (
            Self {
                label,
                source,
                sha256,
                records,
            },
            parsed,
        )
    }
}

/// A repeated id gets `@line` appended, so every job has its own key; where that is another
/// record's id already (a record with `id "X@5"` beside two with `id "X"`, one on line 5), `~2`,
/// `~3`, … follow until it is not.
fn make_ids_unique(records: &mut [EpdRecord]) {
    let mut count = std::collections::HashMap::new();
    for r in records.iter() {
        *count.entry(r.id.clone()).or_insert(0) += 1;
    }
    let mut taken: std::collections::HashSet<String> = records
        .iter()
        .filter(|r| count[&r.id] == 1)
        .map(|r| r.id.clone())
        .collect();
    for r in records.iter_mut() {
        if count[&r.id] == 1 {
            continue;
        }
        let base = format!("{}@{}", r.id, r.line);
        let mut id = base.clone();
        for n in 2.. {
            if taken.insert(id.clone()) {
                break;
            }
            id = format!("{base}~{n}");
        }
        r.id = id;
    }
}

/// The limits of every job.
#[derive(Debug, Clone, Serialize)]
pub struct JobLimits {
    /// Fixed depth.
    pub depth: Option<i32>,
    /// Fixed node budget.
    pub nodes: Option<u64>,
    /// Fixed time per position in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Node cap: a search that reaches it before its depth is recorded as censored.
    pub node_cap: u64,
    /// Stop once a correct move was best for this many iterations …
    pub solved_for: Option<usize>,
    /// … and at least this depth was completed.
    pub min_depth: i32,
    /// matetrack's rule where a position states a mate length (`dm`, `ce +M`): solved means a
    /// mate that short with a legal PV ending in mate (left out of the manifest when off, so
    /// runs made before the option existed still resume).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mate: bool,
    /// Measure each builtin job's minimal tree too (`--minimal-tree`: the `minimal_*` columns);
    /// left out of the manifest when off, as `mate`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub minimal_tree: bool,
}

impl JobLimits {
    /// Refuses limits no search can keep: a depth outside 1–64, a zero node limit or cap, a
    /// minimal tree of a search that is not depth-limited.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.depth.is_some_and(|d| !(1..=64).contains(&d)) {
            anyhow::bail!("--depth must be between 1 and 64");
        }
        if self.nodes == Some(0) || self.node_cap == 0 {
            anyhow::bail!("--nodes and --node-cap must be at least 1");
        }
        if self.minimal_tree && (self.depth.is_none() || self.solved_for.is_some()) {
            anyhow::bail!("--minimal-tree measures a fixed-depth search: expected --depth D (or a grid file's depth) without --nodes, --movetime or --solved-for");
        }
        Ok(())
    }

    /// The engine limits of one job.
    pub fn search_limits(&self, stop: Arc<AtomicBool>) -> Limits {
        Limits {
            depth: self.depth,
            nodes: Some(self.nodes.map_or(self.node_cap, |n| n.min(self.node_cap))),
            movetime: self.movetime_ms.map(Duration::from_millis),
            stop: Some(stop),
            ..Limits::default()
        }
    }

    /// Whether the early stop may apply after an iteration of this depth.
    pub fn early_stop(&self, depth: i32) -> bool {
        self.solved_for.is_some() && depth >= self.min_depth
    }

    /// The `go` arguments of a UCI search: the limit, and the node cap as a `nodes` bound.
    pub fn go_args(&self) -> GoArgs {
        GoArgs {
            depth: self.depth,
            movetime_ms: self.movetime_ms,
            nodes: Some(self.nodes.map_or(self.node_cap, |n| n.min(self.node_cap))),
            clock: None,
        }
    }

    /// A depth-limited search that the node cap stopped short of its depth.
    pub fn is_censored(&self, depth_reached: i32, nodes: u64) -> bool {
        let capped = nodes >= self.node_cap && self.nodes.is_none_or(|n| n > self.node_cap);
        capped && self.depth.is_some_and(|d| depth_reached < d)
    }
}

/// What identifies a job's rows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobKey {
    /// Configuration id (`c00`…).
    pub config_id: String,
    /// Suite label.
    pub suite: String,
    /// Position id.
    pub position_id: String,
}

/// One search to run.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    /// Index into [`Plan::points`].
    pub point: usize,
    /// Index into [`Plan::suites`].
    pub suite: usize,
    /// Index into that suite's records.
    pub record: usize,
}

/// A validated grid run.
#[derive(Debug)]
pub struct Plan {
    /// Name of the experiment.
    pub name: String,
    /// Axis keys, in column order (`engine` first when the grid has external engines).
    pub axes: Vec<String>,
    /// The engines; configurations refer to them by index.
    pub engines: Vec<EngineSpec>,
    /// How long external engines may take.
    pub uci: UciBounds,
    /// Configurations.
    pub points: Vec<GridPoint>,
    /// Suites.
    pub suites: Vec<SuiteInput>,
    /// Limits.
    pub limits: JobLimits,
    /// Worker threads.
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// This machine's slice of the jobs, when the run is one shard of several.
    pub shard: Option<ShardPart>,
}

/// One shard's part of a plan.
#[derive(Debug, Clone)]
pub struct ShardPart {
    /// Which slice.
    pub shard: Shard,
    /// How the slices were cut: `interleaved`, or `nodes of DIR`.
    pub balance: String,
    /// Indices into [`Plan::all_jobs`] of the jobs this shard runs, ascending.
    pub jobs: Vec<usize>,
}

impl Plan {
    /// The jobs this run searches: all of them, or its shard's.
    pub fn jobs(&self) -> Vec<Job> {
        let all = self.all_jobs();
        match &self.shard {
            None => all,
            Some(part) => part.jobs.iter().map(|&k| all[k]).collect(),
        }
    }

    /// Every job of the plan, configuration-major (every shard's).
    pub fn all_jobs(&self) -> Vec<Job> {
        let mut jobs = Vec::new();
        for point in 0..self.points.len() {
            for (suite, s) in self.suites.iter().enumerate() {
                jobs.extend((0..s.records.len()).map(|record| Job {
                    point,
                    suite,
                    record,
                }));
            }
        }
        jobs
    }

    /// Number of positions over all suites.
    pub fn positions(&self) -> usize {
        self.suites.iter().map(|s| s.records.len()).sum()
    }

    /// The key of a job's rows.
    pub fn job_key(&self, job: &Job) -> JobKey {
        let suite = &self.suites[job.suite];
        JobKey {
            config_id: self.points[job.point].id.clone(),
            suite: suite.label.clone(),
            position_id: suite.records[job.record].id.clone(),
        }
    }

    /// How many positions have something to solve under this plan: a `bm` or `am`, or a stated
    /// mate with `--mate` (the rest are searched for nodes and time only).
    pub fn targets(&self) -> usize {
        self.suites
            .iter()
            .flat_map(|s| &s.records)
            .filter(|r| {
                !r.best_moves.is_empty()
                    || !r.avoid_moves.is_empty()
                    || (self.limits.mate && r.mate_in.is_some())
            })
            .count()
    }

    /// What counts as a right answer for a job's position: with `--mate` and a stated mate
    /// length, that mate; otherwise its `bm` and `am` moves, in UCI notation.
    pub fn answer(&self, job: &Job) -> Answer {
        let r = &self.suites[job.suite].records[job.record];
        if let Some(moves) = r.mate_in.filter(|_| self.limits.mate) {
            return Answer::Mate {
                board: r.board.clone(),
                moves,
            };
        }
        let uci =
            |moves: &[cozy_chess::Move]| moves.iter().map(|&m| uci_move(&r.board, m)).collect();
        Answer::Moves {
            best: uci(&r.best_moves),
            avoid: uci(&r.avoid_moves),
        }
    }

    /// The partial credit of `best_move` (UCI) for the job's position and the most it could
    /// get, when the position gives credit.
    pub fn points(&self, job: &Job, best_move: &str) -> Option<(u32, u32)> {
        let r = &self.suites[job.suite].records[job.record];
        let max = r.credit.iter().map(|(_, p)| *p).max()?;
        let got = r
            .credit
            .iter()
            .find(|(m, _)| uci_move(&r.board, *m) == best_move)
            .map_or(0, |(_, p)| *p);
        Some((got, max))
    }

    /// The plan as `--dry-run` prints it.
    pub fn describe(&self) -> String {
        let mut s = format!("experiment  {}\n", self.name);
        s += &format!("configs     {}\n", self.points.len());
        for p in &self.points {
            let values: Vec<String> = self
                .axes
                .iter()
                .zip(&p.values)
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let options = match &p.player {
                crate::grid::Player::Uci { options, .. } if !options.is_empty() => {
                    let set: Vec<String> =
                        options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("  (setoption {})", set.join(" "))
                }
                _ => String::new(),
            };
            s += &format!(
                "  {}  {}{options}\n",
                p.id,
                if values.is_empty() {
                    "(base)".to_string()
                } else {
                    values.join(" ")
                }
            );
        }
        for engine in &self.engines {
            if let EngineSpec::Uci {
                label,
                path,
                identity,
            } = engine
            {
                s += &format!(
                    "engine      {label}: {} ({})\n",
                    path.display(),
                    identity.name
                );
            }
        }
        if let Some(part) = &self.shard {
            s += &format!(
                "shard       {} ({}): {} of {} jobs\n",
                part.shard,
                part.balance,
                part.jobs.len(),
                self.points.len() * self.positions()
            );
        }
        for suite in &self.suites {
            s += &format!(
                "suite       {} ({} positions, sha256 {})\n",
                suite.source,
                suite.records.len(),
                &suite.sha256[..12]
            );
        }
        s += &format!("jobs        {}\n", self.points.len() * self.positions());
        s += &format!(
            "limits      {}\n",
            serde_json::to_string(&self.limits).expect("limits serialise")
        );
        s += &format!("threads     {}\n", self.threads);
        s += &format!("output      {}\n", self.out.display());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_ids_never_meet_an_existing_one() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;";
        let text = format!(
            "{fen} id \"X@5\";\n{fen} id \"X\";\n{fen} id \"X@3\";\n{fen} id \"Y\";\n{fen} id \"X\";\n{fen} id \"Y\";\n"
        );
        let (input, parsed) = SuiteInput::new("t.epd".into(), "t.epd".into(), text.as_bytes());
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let ids: Vec<&str> = input.records.iter().map(|r| r.id.as_str()).collect();
        // Lines 2 and 5 hold "X": "X@2" is free, "X@5" is line 1's, so line 5 gets "X@5~2".
        assert_eq!(ids, ["X@5", "X@2", "X@3", "Y@4", "X@5~2", "Y@6"]);
        let unique: std::collections::HashSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len());
    }
}
