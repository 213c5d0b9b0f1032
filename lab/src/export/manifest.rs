//! `manifest.json`: everything needed to know what a run was and to redo it.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::engines::EngineSpec;
use crate::export::provenance::Provenance;
use crate::grid::Player;
use crate::plan::{JobLimits, Plan};
use crate::run_dir::MANIFEST;

/// The manifest of a run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// Command, build and machine.
    #[serde(flatten)]
    pub provenance: crate::export::provenance::Provenance,
    /// Experiment name.
    pub name: String,
    /// Worker threads.
    pub threads: usize,
    /// Axis keys.
    pub axes: Vec<String>,
    /// Configurations: id, axis values and the full resolved configuration.
    pub configs: Vec<ManifestConfig>,
    /// Suites with their hashes.
    pub suites: Vec<ManifestSuite>,
    /// Limits.
    pub limits: serde_json::Value,
    /// When the run is one shard of several: which, cut how, and how many jobs it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ManifestShard>,
    /// When the run was merged from shards: their directories, in shard order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

/// A shard as its manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestShard {
    /// 0 ≤ index < count.
    pub index: usize,
    /// How many shards the plan was cut into.
    pub count: usize,
    /// `interleaved` or `nodes of DIR`.
    pub balance: String,
    /// Jobs of this shard.
    pub jobs: usize,
}

/// One configuration in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
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
    pub fn new(plan: &Plan) -> Self {
        Self {
            provenance: Provenance::here(),
            name: plan.name.clone(),
            threads: plan.threads,
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
            shard: plan.shard.as_ref().map(|p| ManifestShard {
                index: p.shard.index,
                count: p.shard.count,
                balance: p.balance.clone(),
                jobs: p.jobs.len(),
            }),
            merged_from: Vec::new(),
        }
    }

    /// Writes `manifest.json` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::write(dir.join(MANIFEST), crate::json::to_lines(self))
            .with_context(|| format!("writing {}/{MANIFEST}", dir.display()))
    }

    /// Reads `manifest.json` from `dir`.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    }

    /// The configurations by id, each as this build reads it (see
    /// [`ManifestConfig::normalised_config`]).
    fn normalised_configs(&self) -> Vec<(String, serde_json::Value)> {
        self.configs
            .iter()
            .map(|c| (c.id.clone(), c.normalised_config()))
            .collect()
    }

    /// What differs between this plan and another's, in words: empty when a run of one may be
    /// continued as the other (`--resume`) or when they are shards of one plan (`harness merge`,
    /// which also asks [`Manifest::build_differences`]).
    pub fn plan_differences(&self, other: &Manifest) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what}: {a} vs {b}"));
            }
        };
        let suites = |m: &Manifest| {
            let s: Vec<String> = m
                .suites
                .iter()
                .map(|s| format!("{} ({})", s.label, &s.sha256[..s.sha256.len().min(12)]))
                .collect();
            s.join(", ")
        };
        let cut = |m: &Manifest| {
            m.shard.as_ref().map_or("not a shard".into(), |s| {
                format!("{} shards, {}", s.count, s.balance)
            })
        };
        differ("axes", self.axes.join(","), other.axes.join(","));
        if self.normalised_configs() != other.normalised_configs() {
            differ("configurations", "one set".into(), "another".into());
        }
        differ("suites", suites(self), suites(other));
        differ("limits", self.limits.to_string(), other.limits.to_string());
        differ(
            "bench signature",
            self.provenance.bench_signature.to_string(),
            other.provenance.bench_signature.to_string(),
        );
        differ(
            "engine",
            self.provenance.engine_version.clone(),
            other.provenance.engine_version.clone(),
        );
        if !self.provenance.same_builtin_net(&other.provenance) {
            let short = |m: &Manifest| {
                let hash = m.provenance.builtin_net.as_deref().unwrap_or_default();
                hash[..hash.len().min(12)].to_string()
            };
            differ("built-in network", short(self), short(other));
        }
        differ("sharding", cut(self), cut(other));
        out
    }

    /// What differs between the builds that wrote two manifests beyond what the plan compares
    /// (the commit): shards to be merged must come from one build, a resumed run need not.
    pub fn build_differences(&self, other: &Manifest) -> Vec<String> {
        self.provenance.build_differences(&other.provenance)
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

impl crate::run_flow::RecordedPlan for Manifest {
    fn read(dir: &Path) -> Result<Self> {
        Manifest::read(dir)
    }

    fn write(&self, dir: &Path) -> Result<()> {
        Manifest::write(self, dir)
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        Manifest::plan_differences(self, planned)
    }
}

/// The key under which a manifest records the options its report was last written with (a
/// grid's `--baseline`), so that `harness report DIR` alone writes the same report again.
const REPORT_OPTIONS: &str = "report";

/// The baseline `dir`'s manifest records for its report, if any (older manifests record none).
pub fn report_baseline(dir: &Path) -> Result<Option<String>> {
    let manifest = manifest_value(dir)?;
    Ok(manifest
        .get(REPORT_OPTIONS)
        .and_then(|r| r.get("baseline"))
        .and_then(|b| b.as_str())
        .map(String::from))
}

/// Records `baseline` as the report's in `dir`'s manifest, every other field kept as it was
/// (in its order).
pub fn record_report_baseline(dir: &Path, baseline: &str) -> Result<()> {
    let mut manifest = manifest_value(dir)?;
    let object = manifest
        .as_object_mut()
        .with_context(|| format!("{}/{MANIFEST}: expected a JSON object", dir.display()))?;
    object.insert(
        REPORT_OPTIONS.to_string(),
        serde_json::json!({ "baseline": baseline }),
    );
    std::fs::write(dir.join(MANIFEST), crate::json::to_lines(&manifest))
        .with_context(|| format!("writing {}/{MANIFEST}", dir.display()))
}

fn manifest_value(dir: &Path) -> Result<serde_json::Value> {
    let path = dir.join(MANIFEST);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}
/// A grid's shards (`grid --shard I/N`), as `harness merge` joins them.
impl crate::merge::ShardedRun for Manifest {
    const KIND: &'static str = "grid";
    const WHOLE: &'static str = "plan";
    const UNITS: &'static str = "jobs";
    const TABLES: &'static [&'static str] = &[crate::run_dir::RUNS, crate::run_dir::ITERATIONS];

    fn read(dir: &Path) -> Result<Self> {
        Manifest::read(dir)
    }

    fn shard(&self) -> Option<crate::shard::Shard> {
        self.shard.as_ref().map(|s| crate::shard::Shard {
            index: s.index,
            count: s.count,
        })
    }

    fn differences(&self, other: &Self) -> Vec<String> {
        let mut out = self.plan_differences(other);
        out.extend(self.build_differences(other));
        out
    }

    fn progress(&self, dir: &Path) -> Result<(usize, usize)> {
        let done = crate::merge::row_count(&dir.join(crate::run_dir::RUNS))?;
        Ok((done, self.shard.as_ref().map_or(done, |s| s.jobs)))
    }

    fn merged(shards: &[(std::path::PathBuf, Self)]) -> Self {
        let first = &shards[0].1;
        Manifest {
            provenance: first.provenance.unsharded(),
            shard: None,
            merged_from: shards
                .iter()
                .map(|(d, _)| d.display().to_string())
                .collect(),
            threads: shards.iter().map(|(_, m)| m.threads).sum(),
            ..first.clone()
        }
    }

    fn write(&self, dir: &Path) -> Result<()> {
        Manifest::write(self, dir)
    }
}
