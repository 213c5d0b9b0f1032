//! The match's `manifest.json`: what was played and how, so that the match can be rerun, resumed
//! (only by the same plan) and reported from its directory alone.

use std::path::Path;

use anyhow::{Context, Result};
use lab::elo::sprt::Sprt;
use lab::run_dir::MANIFEST;
use serde::{Deserialize, Serialize};

use super::plan::{MatchPlan, Schedule};
use super::rules::Rules;

/// One player as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestPlayer {
    /// `p00`, …
    pub id: String,
    /// Its name in PGN and report.
    pub name: String,
    /// Its limit per move.
    pub limit: String,
    /// Resolved configuration (builtin) or program and options (UCI).
    pub player: serde_json::Value,
}

/// The opening book as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestBook {
    /// Where it came from.
    pub source: String,
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Its playable positions.
    pub openings: usize,
    /// Its order, for PGN plies, and its variant (when not standard).
    #[serde(default, flatten)]
    pub options: super::openings::BookOptions,
}

/// A match's manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchManifest {
    /// Command, build and machine.
    #[serde(flatten)]
    pub provenance: lab::export::provenance::Provenance,
    /// The match's name.
    pub name: String,
    /// Games played at once.
    pub threads: usize,
    /// The day the match started (the PGN `Date`).
    pub date: String,
    /// The players, baseline first.
    pub players: Vec<ManifestPlayer>,
    /// Who plays whom.
    pub schedule: Schedule,
    /// `pA-pB` for each pairing.
    pub pairings: Vec<String>,
    /// Game pairs per pairing at most.
    pub pairs: u64,
    /// The openings.
    pub book: ManifestBook,
    /// The book offset (`--seed`).
    pub seed: u64,
    /// How games end.
    pub rules: Rules,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// When the match is one shard of several: which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<lab::shard::Shard>,
    /// When the match was merged from shards: their directories, in shard order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// The factorial design the players are the points of (`--factorial`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factorial: Option<crate::factorial::Design>,
    /// The machine speed the clocks were scaled by (`--nps-scale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps_scale: Option<super::limits::NpsScale>,
    /// The cores the workers were pinned to (`--affinity`): how it ran, not what it played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Vec<usize>>,
}

impl MatchManifest {
    /// The manifest of `plan`, started on `date`.
    pub fn new(plan: &MatchPlan, date: &str) -> Self {
        Self {
            provenance: lab::export::provenance::Provenance::here(),
            name: plan.name.clone(),
            threads: plan.threads,
            date: date.to_string(),
            players: plan
                .players
                .iter()
                .map(|p| ManifestPlayer {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    limit: p.limit.to_string(),
                    player: p.description.clone(),
                })
                .collect(),
            schedule: plan.schedule,
            pairings: (0..plan.pairings.len())
                .map(|i| plan.pairing_name(i))
                .collect(),
            pairs: plan.pairs,
            book: ManifestBook {
                source: plan.book.source.clone(),
                sha256: plan.book.sha256.clone(),
                openings: plan.book.openings.len(),
                options: plan.book.options,
            },
            seed: plan.offset,
            rules: plan.rules,
            sprt: plan.sprt,
            shard: plan.shard,
            merged_from: Vec::new(),
            factorial: plan.factorial.clone(),
            nps_scale: plan.nps_scale,
            affinity: plan.affinity.clone(),
        }
    }

    /// Writes it into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(MANIFEST);
        std::fs::write(&path, lab::json::to_lines(self))
            .with_context(|| format!("writing {}", path.display()))
    }

    /// Reads `dir/manifest.json`.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (is this a match directory?)", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    }

    /// What differs between two manifests' plans (players, limits, book, seed, rules, SPRT,
    /// engine build); empty when a run of one may be continued as the other.
    pub fn plan_differences(&self, other: &Self) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |what: &str, same: bool| {
            if !same {
                out.push(what.to_string());
            }
        };
        check("players", self.players == other.players);
        check(
            "schedule",
            self.schedule == other.schedule && self.pairings == other.pairings,
        );
        check("pairs", self.pairs == other.pairs);
        check("opening book", self.book == other.book);
        check("seed", self.seed == other.seed);
        check("rules", self.rules == other.rules);
        check("sprt", self.sprt == other.sprt);
        check("shard", self.shard == other.shard);
        check(
            "engine build (bench signature)",
            self.provenance.bench_signature == other.provenance.bench_signature
                && self.provenance.engine_version == other.provenance.engine_version,
        );
        check(
            "engine build (built-in network)",
            self.provenance.same_builtin_net(&other.provenance),
        );
        out
    }
}

impl lab::run_flow::RecordedPlan for MatchManifest {
    fn read(dir: &Path) -> Result<Self> {
        MatchManifest::read(dir)
    }

    fn write(&self, dir: &Path) -> Result<()> {
        MatchManifest::write(self, dir)
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        MatchManifest::plan_differences(self, planned)
    }
}
/// A match's shards (`match --shard I/N`: contiguous ranges of its pairs in job order, so their
/// files laid end to end are the unsharded match's), as `harness merge` joins them.
impl lab::merge::ShardedRun for MatchManifest {
    const KIND: &'static str = "match";
    const WHOLE: &'static str = "match";
    const UNITS: &'static str = "games";
    const TABLES: &'static [&'static str] = &[
        super::output::GAMES_CSV,
        super::output::MOVES_CSV,
        super::output::GAMES_PGN,
    ];

    fn read(dir: &Path) -> Result<Self> {
        MatchManifest::read(dir)
    }

    fn shard(&self) -> Option<lab::shard::Shard> {
        self.shard
    }

    fn differences(&self, other: &Self) -> Vec<String> {
        let unsharded = |m: &Self| Self {
            shard: None,
            ..m.clone()
        };
        let mut out = unsharded(self).plan_differences(&unsharded(other));
        out.extend(self.provenance.build_differences(&other.provenance));
        out
    }

    fn progress(&self, dir: &Path) -> Result<(usize, usize)> {
        let games = lab::merge::row_count(&dir.join(super::output::GAMES_CSV))?;
        let jobs = (self.pairs * self.pairings.len() as u64) as usize;
        Ok((games, self.shard.map_or(games, |s| 2 * s.range(jobs).len())))
    }

    fn merged(shards: &[(std::path::PathBuf, Self)]) -> Self {
        let first = &shards[0].1;
        Self {
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
        MatchManifest::write(self, dir)
    }
}
