//! Where and with what a run was made: the fields every manifest (grid, match, tune, tree) opens
//! with, so that a result can be traced to a command, a build and a machine.

use serde::{Deserialize, Serialize};

/// The provenance of a run, flattened into its manifest's top level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The command line.
    pub command: Vec<String>,
    /// Engine name and version.
    pub engine_version: String,
    /// `git rev-parse HEAD` of the working directory, if it is a checkout.
    pub git_commit: Option<String>,
    /// Bench signature of the engine build (node total of `harness bench`).
    pub bench_signature: u64,
    /// Host name and logical CPUs.
    pub host: String,
    /// SHA-256 of the engine's built-in network (the `nnue` preset's, `net_sha256` in its
    /// trainer's `net.json`): the bench signature does not cover it. Absent in runs recorded
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin_net: Option<String>,
}

impl Provenance {
    /// This process: its command line, this build and this machine.
    pub fn here() -> Self {
        Self {
            command: std::env::args().collect(),
            engine_version: engine::VERSION.to_string(),
            git_commit: git_commit(),
            bench_signature: crate::bench::SIGNATURE,
            host: host(),
            builtin_net: Some(crate::plan::sha256_hex(engine::nnue::embedded())),
        }
    }

    /// Whether two runs' engines had the same built-in network, as far as both recorded it: a
    /// run of the `nnue` preset resumed with another one would mix two engines.
    pub fn same_builtin_net(&self, other: &Provenance) -> bool {
        match (&self.builtin_net, &other.builtin_net) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
}

impl Provenance {
    /// A shard's provenance as the merged run's: its command without the options that made it
    /// a shard (`harness merge`).
    pub fn unsharded(&self) -> Provenance {
        Provenance {
            command: crate::merge::without_shard_options(&self.command),
            ..self.clone()
        }
    }

    /// What differs between the builds of two runs beyond their plans (the commit): the shards a
    /// merge joins, of a grid or of a match, must come from one build; a resumed run need not.
    pub fn build_differences(&self, other: &Provenance) -> Vec<String> {
        let (a, b) = (
            self.git_commit.clone().unwrap_or_default(),
            other.git_commit.clone().unwrap_or_default(),
        );
        if a == b {
            return Vec::new();
        }
        vec![format!("commit: {a} vs {b}")]
    }
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
    let cpus = crate::workers::logical_cpus();
    format!("{name} ({cpus} logical CPUs)")
}
