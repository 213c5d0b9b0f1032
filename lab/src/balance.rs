//! A shard's part of a grid ([`ShardPart::of`]): its jobs interleaved, or balanced by the node
//! counts an earlier run of the same jobs wrote. Apart from `plan`, which `export` reads: the
//! balance reads `export`'s tables.

use std::path::Path;

use anyhow::{Context, Result};

use crate::export::sink::node_counts;
use crate::plan::{JobKey, Plan, ShardPart};
use crate::run_dir::RUNS;
use crate::shard::{costs_by_key, Shard};

impl ShardPart {
    /// `shard`'s jobs of `plan`: interleaved, or balanced by the node counts of the earlier run
    /// in `cost_from` (its `runs.csv`).
    pub fn of(plan: &Plan, shard: Shard, cost_from: Option<&Path>) -> Result<Self> {
        let all = plan.all_jobs();
        let Some(dir) = cost_from else {
            return Ok(Self {
                shard,
                balance: "interleaved".into(),
                jobs: shard.interleaved(all.len()),
            });
        };
        let known = node_counts(&dir.join(RUNS))
            .with_context(|| format!("--cost-from {}", dir.display()))?;
        let keys: Vec<JobKey> = all.iter().map(|j| plan.job_key(j)).collect();
        let costs = costs_by_key(&known, &keys);
        Ok(Self {
            shard,
            balance: format!("nodes of {}", dir.display()),
            jobs: shard.balanced(&costs),
        })
    }
}
