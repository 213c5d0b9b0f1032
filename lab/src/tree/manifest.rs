//! A recorded tree's `manifest.json`: what was searched and how to record it again.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// What `harness tree` recorded, and the build that recorded it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeManifest {
    /// The command line that recorded it.
    pub command: Vec<String>,
    /// The position searched.
    pub fen: String,
    /// The preset and `--set` changes, in words (`swift singular=on`).
    pub configuration: String,
    /// The search's limit in words (`depth 10`, `5000 nodes`).
    pub limit: String,
    /// Nodes the search visited.
    pub nodes_searched: u64,
    /// Nodes kept in `tree.arrow` (the iterations and line asked for).
    pub nodes_kept: usize,
    /// The engine's version.
    pub engine_version: String,
    /// The commit it was built from (none outside a git checkout).
    pub git_commit: Option<String>,
    /// `fischerle`'s bench signature of that build.
    pub bench_signature: u64,
}

impl TreeManifest {
    /// The manifest of a recording by this build and command line.
    pub fn new(fen: &str, configuration: &str, limit: &str, counts: (u64, usize)) -> Self {
        Self {
            command: std::env::args().collect(),
            fen: fen.to_string(),
            configuration: configuration.to_string(),
            limit: limit.to_string(),
            nodes_searched: counts.0,
            nodes_kept: counts.1,
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: crate::export::provenance::git_commit(),
            bench_signature: crate::bench::SIGNATURE,
        }
    }

    /// Writes it as `dir/manifest.json`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(crate::run_dir::MANIFEST);
        let text = crate::json::to_lines(self);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    }
}
