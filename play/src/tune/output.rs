//! A tune's files: `tune.csv` (one row per iteration, appended and flushed as each ends),
//! `manifest.json` (the plan, so a resume continues only the same tune), and `tuned.toml`.

use std::path::Path;

use anyhow::{bail, Context, Result};
use lab::export::appender::Appender;
use lab::run_dir::MANIFEST;
use serde::{Deserialize, Serialize};

use super::params::format_value;
use super::spsa::{self, PairScore, Param, Probe};
use super::{TunePlan, Tuned};

/// The iterations, one row each.
pub use lab::run_dir::TUNE_CSV;
/// The tuned player, a grid file.
pub const TUNED_TOML: &str = "tuned.toml";

/// One iteration as `tune.csv` keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct IterationRow {
    /// Iteration (from 1).
    pub k: u64,
    /// Its probes.
    pub probe: Probe,
    /// Games won, drawn and lost by the + side.
    pub wdl: [u32; 3],
    /// Pairs by the + side's points: 0, ½, 1, 1½, 2 (LL, LD, DD or WL, WD, WW).
    pub pentanomial: [u32; 5],
    /// θ after the update.
    pub theta: Vec<f64>,
}

impl IterationRow {
    /// The row of iteration `k`, θ updated from `before`.
    pub fn new(
        k: u64,
        probe: Probe,
        pairs: &[PairScore],
        params: &[Param],
        before: &[f64],
    ) -> Self {
        let mut wdl = [0; 3];
        let mut pentanomial = [0; 5];
        for pair in pairs {
            (0..3).for_each(|i| wdl[i] += pair.wdl[i]);
            pentanomial[(2 * pair.wdl[0] + pair.wdl[1]) as usize] += 1;
        }
        let result = f64::from(wdl[0]) - f64::from(wdl[2]);
        let theta = spsa::update(params, before, &probe, result);
        Self {
            k,
            probe,
            wdl,
            pentanomial,
            theta,
        }
    }

    fn cells(&self) -> Vec<String> {
        let mut out = vec![self.k.to_string()];
        out.extend(self.wdl.iter().map(u32::to_string));
        out.push((i64::from(self.wdl[0]) - i64::from(self.wdl[2])).to_string());
        out.extend(self.pentanomial.iter().map(u32::to_string));
        for i in 0..self.theta.len() {
            let p = &self.probe;
            // `{}` writes the shortest text that reads back as the same f64: a resume continues
            // from exactly this θ.
            out.extend(
                [
                    self.theta[i],
                    p.plus[i],
                    p.minus[i],
                    p.c[i],
                    p.r[i],
                    p.flips[i],
                ]
                .map(|x| format!("{x}")),
            );
        }
        out
    }
}

/// The column of W − L, the + side's game points.
pub const RESULT_COLUMN: &str = "result";

/// Per-parameter column prefixes, in order: θ after the update, the probes, c_k, R_k, Δ.
pub const PARAM_COLUMNS: [&str; 6] = ["theta", "plus", "minus", "c", "r", "flip"];

/// The header of `tune.csv` for `params`.
pub fn header(params: &[Param]) -> Vec<String> {
    let mut out: Vec<String> = [
        "k",
        "wins",
        "draws",
        "losses",
        RESULT_COLUMN,
        "ll",
        "ld",
        "dd",
        "wd",
        "ww",
    ]
    .map(String::from)
    .to_vec();
    for p in params {
        out.extend(PARAM_COLUMNS.map(|c| format!("{c}:{}", p.key)));
    }
    out
}

/// Appends rows to `tune.csv`.
pub struct TuneSink {
    table: Appender,
}

impl TuneSink {
    /// A new `tune.csv` with its header.
    pub fn create(dir: &Path, params: &[Param]) -> Result<Self> {
        let path = dir.join(TUNE_CSV);
        if path.exists() {
            bail!(
                "{} exists: continue it with --resume {}",
                path.display(),
                dir.display()
            );
        }
        let mut table = Appender::open(&path)?;
        table.append_record(header(params))?;
        Ok(Self { table })
    }

    /// The `tune.csv` of an interrupted tune: a torn last line (a kill mid-write) is cut off;
    /// returns the next iteration and θ after the last complete one.
    pub fn resume(dir: &Path, params: &[Param]) -> Result<(Self, u64, Vec<f64>)> {
        let path = dir.join(TUNE_CSV);
        // read_complete checks every complete row; the table goes on after the last of them.
        let (k, theta) = read_complete(dir, params)?;
        Ok((
            Self {
                table: Appender::open(&path)?,
            },
            k + 1,
            theta,
        ))
    }

    /// Writes one row and flushes it.
    pub fn write(&mut self, row: &IterationRow) -> Result<()> {
        self.table.append_record(row.cells())
    }
}

/// `tune.csv` of `dir` read: the last complete iteration and its θ (the start for none). Nothing
/// is written.
pub fn read_complete(dir: &Path, params: &[Param]) -> Result<(u64, Vec<f64>)> {
    let path = dir.join(TUNE_CSV);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = complete.lines();
    if lines.next().map(split_csv) != Some(header(params)) {
        bail!("{} has other columns than this tune writes (another plan or version): start a new tune", path.display());
    }
    let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
    let mut k = 0;
    for (n, line) in lines.enumerate() {
        let row = read_row(line, params.len()).with_context(|| {
            format!(
                "{}:{}: {}",
                path.display(),
                n + 2,
                engine::excerpt::excerpt(line)
            )
        })?;
        if row.0 != k + 1 {
            bail!(
                "{}:{}: expected iteration {}, found {}",
                path.display(),
                n + 2,
                k + 1,
                row.0
            );
        }
        (k, theta) = row;
    }
    Ok((k, theta))
}

/// The iteration and θ of a row.
fn read_row(line: &str, params: usize) -> Result<(u64, Vec<f64>)> {
    let cells = split_csv(line);
    let per = PARAM_COLUMNS.len();
    if cells.len() != 10 + per * params {
        bail!(
            "expected {} cells, found {}",
            10 + per * params,
            cells.len()
        );
    }
    let k = cells[0].parse().context("expected the iteration number")?;
    let theta = (0..params)
        .map(|i| {
            cells[10 + per * i]
                .parse::<f64>()
                .context("expected θ, a number")
        })
        .collect::<Result<_>>()?;
    Ok((k, theta))
}

/// One CSV line's cells (quoted where a key holds a comma or quote, as UCI names may).
fn split_csv(line: &str) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    r.records()
        .next()
        .and_then(|r| r.ok())
        .map(|r| r.iter().map(String::from).collect())
        .unwrap_or_default()
}

/// Which player a grid file of a tune holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TunePoint {
    /// Where the tune started.
    Start,
    /// Where it ended.
    Tuned,
}

/// `tuned.toml` (or `start.toml`): that player as a grid file (`grid --grid`, `match --grid`),
/// integers rounded.
pub fn tuned_toml(plan: &TunePlan, theta: &[f64], point: TunePoint) -> String {
    let mut set = toml::map::Map::new();
    let value = |text: &str| -> toml::Value {
        text.parse::<i64>()
            .map(toml::Value::Integer)
            .or_else(|_| text.parse::<f64>().map(toml::Value::Float))
            .or_else(|_| text.parse::<bool>().map(toml::Value::Boolean))
            .unwrap_or_else(|_| toml::Value::String(text.to_string()))
    };
    for (key, v) in &plan.fixed {
        set.insert(key.clone(), value(v));
    }
    for (p, t) in plan.params.iter().zip(theta) {
        set.insert(p.key.clone(), value(&format_value(*t, p.integer)));
    }
    let mut doc = toml::map::Map::new();
    doc.insert(
        "name".into(),
        toml::Value::String(match point {
            TunePoint::Tuned => format!("{}-tuned", plan.name),
            TunePoint::Start => format!("{}-start", plan.name),
        }),
    );
    match &plan.tuned {
        Tuned::Builtin(_) => {
            doc.insert("preset".into(), toml::Value::String(plan.base_name.clone()));
        }
        Tuned::Uci(base) => {
            let engine = format!("{}{}", lab::engines::UCI_PREFIX, base.path.display());
            doc.insert(
                "engines".into(),
                toml::Value::Array(vec![toml::Value::String(engine)]),
            );
        }
    }
    doc.insert("set".into(), toml::Value::Table(set));
    let heading = match point {
        TunePoint::Tuned => format!(
            "The player `harness tune` found ({} iterations): use it with --grid {TUNED_TOML}.",
            plan.schedule.iterations
        ),
        TunePoint::Start => {
            "The player `harness tune` started from (its parameters' start values).".to_string()
        }
    };
    format!(
        "# {heading}\n{}",
        toml::to_string(&toml::Value::Table(doc)).expect("a table serialises")
    )
}

/// A tune's `manifest.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TuneManifest {
    /// Command, build and machine.
    #[serde(flatten)]
    pub provenance: lab::export::provenance::Provenance,
    /// Games played at once (does not change the results).
    pub threads: usize,
    /// Everything that decides the trajectory.
    pub plan: serde_json::Value,
}

impl TuneManifest {
    /// The manifest of `plan`.
    pub fn new(plan: &TunePlan) -> Self {
        let tuned = match &plan.tuned {
            Tuned::Builtin(config) => serde_json::json!({"builtin": config}),
            Tuned::Uci(base) => serde_json::json!({"uci": base.path, "options": base.options}),
        };
        Self {
            provenance: lab::export::provenance::Provenance::here(),
            threads: plan.threads,
            plan: serde_json::json!({
                "name": plan.name,
                "tuned": tuned,
                "params": plan.params,
                "iterations": plan.schedule.iterations,
                "pairs_per_iteration": plan.pairs_per_iteration,
                "limit": plan.limit.to_string(),
                "book": {"source": plan.book.source, "sha256": plan.book.sha256, "openings": plan.book.openings.len()},
                "seed": plan.seed,
                "rules": plan.rules,
            }),
        }
    }
}

impl lab::run_flow::RecordedPlan for TuneManifest {
    fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (is this a tune directory?)", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    }

    fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(MANIFEST);
        std::fs::write(&path, lab::json::to_lines(self))
            .with_context(|| format!("writing {}", path.display()))
    }

    fn plan_differences(&self, planned: &Self) -> Vec<String> {
        let mut out: Vec<String> = match (self.plan.as_object(), planned.plan.as_object()) {
            // Every key of either plan once, in order.
            (Some(a), Some(b)) => (a
                .keys()
                .chain(b.keys())
                .collect::<std::collections::BTreeSet<_>>())
            .into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect(),
            _ => vec!["plan".into()],
        };
        if self.provenance.bench_signature != planned.provenance.bench_signature {
            out.push(format!(
                "bench signature {} recorded, {} in this build",
                self.provenance.bench_signature, planned.provenance.bench_signature
            ));
        }
        if !self.provenance.same_builtin_net(&planned.provenance) {
            out.push("the built-in network recorded is not this build's".to_string());
        }
        out
    }
}
