//! Deterministic slices of a job list, so that N machines (a Slurm job array, GNU parallel over
//! ssh) each run one and `harness merge` puts the run back together. The slicing depends only on
//! the plan and `--shard I/N` (and, when balancing by cost, on the earlier run named), never on the
//! machine, so every shard of one plan agrees on who runs what.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The I-th (from 0) of N slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 0 ≤ index < count.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

/// Why a `--shard` argument is not a slice.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShardError {
    /// Not `I/N` with 0 ≤ I < N, nor `slurm`.
    #[error(
        "expected `--shard I/N` with 0 ≤ I < N (e.g. 0/4 … 3/4) or `--shard slurm`, found `{0}`"
    )]
    Syntax(String),
    /// `slurm` outside a Slurm array job.
    #[error("`--shard slurm` needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm job array); outside one, give `--shard I/N`")]
    NoSlurm,
}

/// The environment variables of a Slurm array task.
pub const SLURM_TASK_ID: &str = "SLURM_ARRAY_TASK_ID";
/// The array's size.
pub const SLURM_TASK_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// The array's first task id (arrays may start at 1).
pub const SLURM_TASK_MIN: &str = "SLURM_ARRAY_TASK_MIN";

impl Shard {
    /// Parses `I/N`, or `slurm` from the array task's environment.
    pub fn parse(text: &str) -> Result<Self, ShardError> {
        if text == "slurm" {
            return Self::from_env(|k| std::env::var(k).ok());
        }
        let syntax = || ShardError::Syntax(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(syntax)?;
        let (index, count) = (
            i.trim().parse::<usize>().map_err(|_| syntax())?,
            n.trim().parse::<usize>().map_err(|_| syntax())?,
        );
        if count == 0 || index >= count {
            return Err(syntax());
        }
        Ok(Self { index, count })
    }

    /// The shard of a Slurm array task: its id counted from the array's first.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Self, ShardError> {
        let num = |k: &str| var(k).and_then(|v| v.trim().parse::<usize>().ok());
        let (id, count) = (
            num(SLURM_TASK_ID).ok_or(ShardError::NoSlurm)?,
            num(SLURM_TASK_COUNT).ok_or(ShardError::NoSlurm)?,
        );
        let first = num(SLURM_TASK_MIN).unwrap_or(0);
        let index = id.checked_sub(first).ok_or(ShardError::NoSlurm)?;
        Self::parse(&format!("{index}/{count}"))
    }

    /// Which of `jobs` jobs (in plan order) this shard runs: job k when k mod N = I, so that every
    /// shard gets a like share of every configuration and suite.
    pub fn interleaved(&self, jobs: usize) -> Vec<usize> {
        (self.index..jobs).step_by(self.count).collect()
    }

    /// Which jobs this shard runs when job k is expected to cost `costs[k]`: longest first, each
    /// to the shard with the least total so far (ties: the lower job, the lower shard) — the
    /// classic LPT schedule, within 4/3 of the best possible makespan.
    pub fn balanced(&self, costs: &[f64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..costs.len()).collect();
        order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
        // A min-heap of (load, shard): O(J log N), so 10⁶ jobs over 10³ shards take a moment.
        let mut loads: BinaryHeap<Reverse<(Load, usize)>> =
            (0..self.count).map(|i| Reverse((Load(0.0), i))).collect();
        let mut mine = Vec::new();
        for job in order {
            let Reverse((Load(load), least)) = loads.pop().expect("at least one shard");
            loads.push(Reverse((Load(load + costs[job]), least)));
            if least == self.index {
                mine.push(job);
            }
        }
        mine.sort_unstable();
        mine
    }

    /// A disjoint contiguous range of `items` (a match's pairs): the I-th of N nearly equal parts.
    pub fn range(&self, items: usize) -> std::ops::Range<usize> {
        (self.index * items / self.count)..((self.index + 1) * items / self.count)
    }
}

/// A shard's total cost, ordered by `total_cmp` so it can sit in a heap.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Load(f64);

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Job costs from an earlier run's node counts, by job key; a job the run did not have costs the
/// median of those it had (1 when it had none).
pub fn costs_by_key<K: std::hash::Hash + Eq>(known: &HashMap<K, f64>, keys: &[K]) -> Vec<f64> {
    let mut values: Vec<f64> = known.values().copied().collect();
    values.sort_by(f64::total_cmp);
    let fallback = values.get(values.len() / 2).copied().unwrap_or(1.0);
    keys.iter()
        .map(|k| known.get(k).copied().unwrap_or(fallback))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_name_a_slice_or_say_what_was_expected() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["4/4", "1/0", "a/b", "3", "-1/2"] {
            assert!(
                matches!(Shard::parse(bad), Err(ShardError::Syntax(_))),
                "{bad}"
            );
        }
        let env = |id: &'static str, min: &'static str| {
            move |k: &str| match k {
                SLURM_TASK_ID => Some(id.to_string()),
                SLURM_TASK_COUNT => Some("3".to_string()),
                SLURM_TASK_MIN => Some(min.to_string()),
                _ => None,
            }
        };
        assert_eq!(
            Shard::from_env(env("2", "0")),
            Ok(Shard { index: 2, count: 3 })
        );
        assert_eq!(
            Shard::from_env(env("3", "1")),
            Ok(Shard { index: 2, count: 3 })
        );
        assert_eq!(Shard::from_env(|_| None), Err(ShardError::NoSlurm));
    }

    #[test]
    fn every_job_is_in_exactly_one_shard() {
        let costs: Vec<f64> = (0..103).map(|k| ((k * 37) % 11) as f64 + 1.0).collect();
        for n in 1..6 {
            let mut seen = vec![0; costs.len()];
            for i in 0..n {
                let shard = Shard { index: i, count: n };
                for k in shard.interleaved(costs.len()) {
                    seen[k] += 1;
                }
                for k in shard.balanced(&costs) {
                    seen[k] += 1;
                }
                for k in shard.range(costs.len()) {
                    seen[k] += 1;
                }
            }
            assert!(seen.iter().all(|&s| s == 3), "n = {n}");
        }
    }

    #[test]
    fn balancing_by_cost_evens_the_loads() {
        // One expensive job and many cheap ones: interleaving would put the big one beside a
        // full share of the others.
        let mut costs = vec![1.0; 40];
        costs[0] = 40.0;
        let load = |s: Shard| s.balanced(&costs).iter().map(|&k| costs[k]).sum::<f64>();
        let (a, b) = (
            load(Shard { index: 0, count: 2 }),
            load(Shard { index: 1, count: 2 }),
        );
        assert_eq!(a + b, 79.0);
        assert!((a - b).abs() <= 1.0, "{a} vs {b}");
    }
}
