//! `manifest.json`: everything needed to know what a run was and to redo it.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::engines::EngineSpec;
use crate::grid::Player;
use crate::plan::{JobLimits, Plan};
use crate::run_dir::MANIFEST;

/// The manifest of a run.
#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// The command line.
    pub command: Vec<String>,
    /// Experiment name.
    pub name: String,
    /// Engine name and version.
    pub engine_version: String,
    /// `git rev-parse HEAD` of the working directory, if any.
    pub git_commit: Option<String>,
    /// Bench signature of the engine build (node total of `harness bench`).
    pub bench_signature: u64,
    /// Worker threads.
    pub threads: usize,
    /// Host name and logical CPUs.
    pub host: String,
    /// Axis keys.
    pub axes: Vec<String>,
    /// Configurations: id, axis values and the full resolved configuration.
    pub configs: Vec<ManifestConfig>,
    /// Suites with their hashes.
    pub suites: Vec<ManifestSuite>,
    /// Limits.
    pub limits: serde_json::Value,
}

/// One configuration in the manifest.
#[derive(Debug, Serialize, Deserialize)]
pub struct ManifestConfig {
    /// `c00`, …
    pub id: String,
    /// Axis values, in axis order.
    pub values: Vec<String>,
    /// The resolved `SearchConfig`.
    pub config: serde_json::Value,
}

impl ManifestConfig {
    /// The configuration as this build reads it: fields added since the run was made take their
    /// defaults, so a new switch that is off does not make an old run a different plan.
    pub fn normalised_config(&self) -> serde_json::Value {
        serde_json::from_value::<engine::SearchConfig>(self.config.clone())
            .ok()
            .and_then(|c| serde_json::to_value(c).ok())
            .unwrap_or_else(|| self.config.clone())
    }
}

/// One suite in the manifest.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ManifestSuite {
    /// Label used in the CSVs.
    pub label: String,
    /// Where it was read from.
    pub source: String,
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Positions used.
    pub positions: usize,
}

impl Manifest {
    /// The manifest of a plan.
    pub fn new(plan: &Plan, bench_signature: u64) -> Self {
        Self {
            command: std::env::args().collect(),
            name: plan.name.clone(),
            engine_version: engine::VERSION.to_string(),
            git_commit: git_commit(),
            bench_signature,
            threads: plan.threads,
            host: host(),
            axes: plan.axes.clone(),
            configs: plan
                .points
                .iter()
                .map(|p| ManifestConfig {
                    id: p.id.clone(),
                    values: p.values.clone(),
                    config: player_json(plan, &p.player),
                })
                .collect(),
            suites: plan
                .suites
                .iter()
                .map(|s| ManifestSuite {
                    label: s.label.clone(),
                    source: s.source.clone(),
                    sha256: s.sha256.clone(),
                    positions: s.records.len(),
                })
                .collect(),
            limits: limits_json(&plan.limits),
        }
    }

    /// Writes `manifest.json` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("manifests serialise");
        std::fs::write(dir.join(MANIFEST), text + "\n")
            .with_context(|| format!("writing {}/{MANIFEST}", dir.display()))
    }

    /// Reads `manifest.json` from `dir`.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    }

    /// Whether another manifest describes the same jobs (configurations, suites, limits).
    pub fn same_plan(&self, other: &Manifest) -> bool {
        let configs = |m: &Manifest| {
            m.configs
                .iter()
                .map(|c| (c.id.clone(), c.normalised_config()))
                .collect::<Vec<_>>()
        };
        configs(self) == configs(other)
            && self.suites == other.suites
            && self.limits == other.limits
    }
}

/// The project engine's full configuration, or an external engine's program, name and options.
fn player_json(plan: &Plan, player: &Player) -> serde_json::Value {
    match player {
        Player::Builtin(config) => serde_json::to_value(config).expect("configs serialise"),
        Player::Uci { engine, options } => {
            let EngineSpec::Uci {
                label,
                path,
                identity,
            } = &plan.engines[*engine]
            else {
                unreachable!("UCI configurations name UCI engines")
            };
            let options: serde_json::Map<String, serde_json::Value> = options
                .iter()
                .map(|(k, v)| (k.clone(), v.clone().into()))
                .collect();
            serde_json::json!({ "uci": {
                "engine": label,
                "path": path.display().to_string(),
                "id_name": identity.name,
                "options": options,
            }})
        }
    }
}

fn limits_json(limits: &JobLimits) -> serde_json::Value {
    serde_json::to_value(limits).expect("limits serialise")
}

/// `git rev-parse HEAD` in the working directory, if it is a checkout.
pub fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Host name and logical CPUs.
pub fn host() -> String {
    let name = std::fs::read_to_string("/etc/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{name} ({cpus} logical CPUs)")
}
