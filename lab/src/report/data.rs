//! A run directory as the report sees it: `runs.csv` and `iterations.csv` read into typed rows
//! (empty cells as missing values, a column numeric when all its cells are), and the manifest
//! names the configurations in grid order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::export::manifest::Manifest;
use crate::run_dir::{column as col, ITERATIONS, ITERATIONS_READ, RUNS, RUNS_READ};

/// One job's row of `runs.csv`.
#[derive(Debug, Clone)]
pub struct Run {
    /// Configuration id.
    pub config: String,
    /// Suite label.
    pub suite: String,
    /// Position id.
    pub position: String,
    /// Final move correct.
    pub solved: bool,
    /// Partial-credit points of the final move and the most the position gives (STS), if it
    /// gives credit (absent in runs made before the columns existed).
    pub points: Option<(f64, f64)>,
    /// Stopped by the node cap.
    pub censored: bool,
    /// Nodes (main + QS).
    pub nodes: f64,
    /// QS nodes (absent for engines that do not count them, such as UCI engines).
    pub qnodes: Option<f64>,
    /// Wall time, milliseconds.
    pub time_ms: f64,
    /// The worker thread's CPU time, milliseconds (steadier than wall time on a shared machine).
    pub cpu_ms: f64,
    /// Nodes when the answer was found and kept.
    pub nodes_to_solution: Option<f64>,
    /// Milliseconds when the answer was found and kept.
    pub time_to_solution_ms: Option<f64>,
    /// Depth at which it was found and kept.
    pub depth_to_solution: Option<f64>,
    /// Nodes of the last iteration over the one before.
    pub ebf: Option<f64>,
    /// Share of cutoffs made by the first move.
    pub fail_high_first: Option<f64>,
    /// Legal moves at the root (absent in runs made before the column existed).
    pub root_moves: Option<f64>,
    /// The position as FEN (empty in runs made before the column existed).
    pub fen: String,
    /// The measured minimal tree (`grid --minimal-tree`), where it was measured.
    pub minimal: Option<MinimalRun>,
    /// Every other numeric column (search counters such as `dyn_levels`), by name.
    pub counters: BTreeMap<String, f64>,
    /// Why the job failed (`failure` column); empty for a search that ran.
    pub failure: String,
}

impl Run {
    /// The key that pairs this job with another configuration's or another run's.
    pub fn position_key(&self) -> (String, String) {
        (self.suite.clone(), self.position.clone())
    }
}

/// A job's measured minimal tree (the `minimal_*` columns of `runs.csv`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MinimalRun {
    /// The last iteration's main-search nodes over the minimal tree's.
    pub over_main: f64,
    /// The same for QS nodes (absent where the minimal tree had none).
    pub over_qs: Option<f64>,
    /// Milliseconds the measurement took.
    pub ms: f64,
}

/// One completed iteration of one job.
#[derive(Debug, Clone)]
pub struct IterationPoint {
    /// Configuration id.
    pub config: String,
    /// Suite label.
    pub suite: String,
    /// Position id.
    pub position: String,
    /// Nominal depth.
    pub depth: i32,
    /// Nodes of this iteration.
    pub nodes: f64,
    /// Nodes of the search up to and including this iteration.
    pub total_nodes: f64,
    /// Nodes of this iteration over the one before.
    pub ebf: Option<f64>,
    /// Wall time from the start of the search to the end of this iteration, milliseconds.
    pub time_ms: f64,
}

/// Everything the report reads from a run directory.
#[derive(Debug)]
pub struct RunDir {
    /// The directory.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// The rows of `runs.csv` whose search ran (every analysis reads these).
    pub runs: Vec<Run>,
    /// The rows of jobs that failed (an external engine crashed, hung or spoke garbage).
    pub failed: Vec<Run>,
    /// `iterations.csv`.
    pub iterations: Vec<IterationPoint>,
}

impl RunDir {
    /// Reads `manifest.json`, `runs.csv` and `iterations.csv` of `dir`.
    pub fn load(dir: &Path) -> Result<Self> {
        let manifest = Manifest::read(dir)?;
        let runs = Table::read(&dir.join(RUNS))?;
        let iterations = Table::read(&dir.join(ITERATIONS))?;
        let (failed, runs): (Vec<Run>, Vec<Run>) = runs_of(&runs, &manifest.axes)
            .with_context(|| format!("reading {}/{RUNS}", dir.display()))?
            .into_iter()
            .partition(|r| !r.failure.is_empty());
        let run_dir = Self {
            dir: dir.to_path_buf(),
            runs,
            failed,
            iterations: iterations_of(&iterations)
                .with_context(|| format!("reading {}/{ITERATIONS}", dir.display()))?,
            manifest,
        };
        if run_dir.runs.is_empty() && run_dir.failed.is_empty() {
            bail!("{}/{RUNS} has no rows: nothing to report", dir.display());
        }
        Ok(run_dir)
    }

    /// Configuration ids in grid order (the manifest's), keeping only those with rows.
    pub fn config_ids(&self) -> Vec<String> {
        let present: std::collections::HashSet<&str> = self
            .runs
            .iter()
            .chain(&self.failed)
            .map(|r| r.config.as_str())
            .collect();
        self.manifest
            .configs
            .iter()
            .map(|c| c.id.clone())
            .filter(|id| present.contains(id.as_str()))
            .collect()
    }

    /// `key=value …` of a configuration, or its id alone when the grid has no axes.
    pub fn label(&self, config: &str) -> String {
        let values = self.manifest.configs.iter().find(|c| c.id == config);
        let pairs: Vec<String> = values.map_or_else(Vec::new, |c| {
            self.manifest
                .axes
                .iter()
                .zip(&c.values)
                // An axis of another engine has no value here.
                .filter(|(_, v)| !v.is_empty())
                .map(|(a, v)| match a.as_str() {
                    crate::grid::players::PLAYER_COLUMN => v.clone(),
                    _ => format!("{}={v}", short_axis(a)),
                })
                .collect()
        });
        if pairs.is_empty() {
            config.to_string()
        } else {
            pairs.join(" ")
        }
    }

    /// The `engine` column's value of a configuration (`None` in a grid of the builtin engine alone).
    pub fn engine_of(&self, config: &str) -> Option<&str> {
        let column = self
            .manifest
            .axes
            .iter()
            .position(|a| a == crate::grid::ENGINE_AXIS)?;
        let c = self.manifest.configs.iter().find(|c| c.id == config)?;
        c.values.get(column).map(String::as_str)
    }

    /// The failed jobs of one configuration.
    pub fn failed_of<'a>(&'a self, config: &'a str) -> impl Iterator<Item = &'a Run> + 'a {
        self.failed.iter().filter(move |r| r.config == config)
    }

    /// The runs of one configuration (searches that ran).
    pub fn runs_of<'a>(&'a self, config: &'a str) -> impl Iterator<Item = &'a Run> + 'a {
        self.runs.iter().filter(move |r| r.config == config)
    }

    /// Suite labels in the order the manifest lists them.
    pub fn suites(&self) -> Vec<String> {
        self.manifest
            .suites
            .iter()
            .map(|s| s.label.clone())
            .collect()
    }
}

/// The last component of a dotted key: `selective.candidate_limit` → `candidate_limit`.
pub fn short_axis(axis: &str) -> &str {
    axis.rsplit('.').next().unwrap_or(axis)
}

/// A CSV table of the run directory as text cells by column name. Types are read per column when
/// asked for: an empty cell is a missing value, and a column is numeric when every non-empty cell
/// parses as a number.
struct Table {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<csv::StringRecord>,
}

impl Table {
    /// Reads a table (plain or gzipped, see [`crate::run_dir::read_table`]); an empty file is a
    /// table of no columns and no rows.
    fn read(path: &Path) -> Result<Self> {
        let bytes = crate::run_dir::read_table(path)?
            .with_context(|| format!("reading {}: no such file", path.display()))?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(bytes.as_slice());
        let header = reader
            .headers()
            .with_context(|| format!("reading the header of {}", path.display()))?
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader
            .records()
            .collect::<std::result::Result<Vec<_>, _>>()
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    fn height(&self) -> usize {
        self.rows.len()
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|c| c == name)
    }

    fn has_column(&self, name: &str) -> bool {
        self.index(name).is_some()
    }

    fn cells<'a>(&'a self, name: &str) -> Result<impl Iterator<Item = &'a str> + 'a> {
        let i = self
            .index(name)
            .with_context(|| format!("{}: no `{name}` column", self.path.display()))?;
        Ok(self.rows.iter().map(move |r| r.get(i).unwrap_or("")))
    }

    fn strings(&self, name: &str) -> Result<Vec<String>> {
        Ok(self.cells(name)?.map(str::to_string).collect())
    }

    fn floats(&self, name: &str) -> Result<Vec<Option<f64>>> {
        self.cells(name)?
            .enumerate()
            .map(|(i, cell)| {
                number(cell).with_context(|| {
                    // Line 1 is the header.
                    format!(
                        "{} line {}: column `{name}` expected a number, found `{}`",
                        self.path.display(),
                        i + 2,
                        excerpt(cell)
                    )
                })
            })
            .collect()
    }

    fn optional_floats(&self, name: &str) -> Result<Option<Vec<Option<f64>>>> {
        self.has_column(name).then(|| self.floats(name)).transpose()
    }

    fn flags(&self, name: &str) -> Result<Vec<bool>> {
        self.cells(name)?
            .map(|v| match v {
                "true" => Ok(true),
                "false" => Ok(false),
                other => bail!(
                    "{}: column `{name}`: expected true or false, found `{}`",
                    self.path.display(),
                    excerpt(other)
                ),
            })
            .collect()
    }
}

/// An empty cell is a missing value; anything else must be a number.
fn number(cell: &str) -> Result<Option<f64>> {
    if cell.is_empty() {
        return Ok(None);
    }
    let v: f64 = cell.parse()?;
    Ok(Some(v))
}

/// At most 40 characters of a cell, for an error message.
fn excerpt(cell: &str) -> String {
    match cell.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &cell[..end]),
        None => cell.to_string(),
    }
}

fn runs_of(df: &Table, axes: &[String]) -> Result<Vec<Run>> {
    let text = |name| df.strings(name);
    let (config, suite, position) = (
        text(col::CONFIG_ID)?,
        text(col::SUITE)?,
        text(col::POSITION_ID)?,
    );
    let (solved, censored) = (df.flags(col::SOLVED)?, df.flags(col::CENSORED)?);
    let num = |name| df.floats(name);
    let (nodes, qnodes, time, cpu) = (
        num(col::NODES)?,
        num(col::QNODES)?,
        num(col::TIME_MS)?,
        num(col::CPU_MS)?,
    );
    let (nts, tts, dts) = (
        num(col::NODES_TO_SOLUTION)?,
        num(col::TIME_TO_SOLUTION_MS)?,
        num(col::DEPTH_TO_SOLUTION)?,
    );
    let (ebf, fhf) = (num(col::EBF)?, num(col::FAIL_HIGH_FIRST)?);
    let root_moves = df.optional_floats(col::ROOT_MOVES)?;
    let (points, max_points) = (
        df.optional_floats(col::POINTS)?,
        df.optional_floats(col::MAX_POINTS)?,
    );
    let optional_text = |name| -> Result<Vec<String>> {
        if df.has_column(name) {
            df.strings(name)
        } else {
            Ok(vec![String::new(); df.height()])
        }
    };
    let (fens, failures) = (optional_text(col::FEN)?, optional_text(col::FAILURE)?);
    let counters = counter_columns(df, axes)?;
    let minimal = minimal_of(df)?;
    Ok((0..df.height())
        .map(|i| Run {
            config: config[i].clone(),
            suite: suite[i].clone(),
            position: position[i].clone(),
            solved: solved[i],
            points: points
                .as_ref()
                .zip(max_points.as_ref())
                .and_then(|(p, m)| p[i].zip(m[i])),
            censored: censored[i],
            nodes: nodes[i].unwrap_or(0.0),
            qnodes: qnodes[i],
            time_ms: time[i].unwrap_or(0.0),
            cpu_ms: cpu[i].unwrap_or(0.0),
            nodes_to_solution: nts[i],
            time_to_solution_ms: tts[i],
            depth_to_solution: dts[i],
            ebf: ebf[i],
            fail_high_first: fhf[i],
            root_moves: root_moves.as_ref().and_then(|c| c[i]),
            fen: fens[i].clone(),
            failure: failures[i].clone(),
            minimal: minimal[i],
            counters: counters
                .iter()
                .filter_map(|(name, col)| col[i].map(|v| (name.clone(), v)))
                .collect(),
        })
        .collect())
}

/// The `minimal_*` cells of every row (none in runs made without them).
fn minimal_of(df: &Table) -> Result<Vec<Option<MinimalRun>>> {
    let column = |name| -> Result<Vec<Option<f64>>> {
        Ok(df
            .optional_floats(name)?
            .unwrap_or_else(|| vec![None; df.height()]))
    };
    let (main, qs, ms) = (
        column(col::OVER_MINIMAL_MAIN)?,
        column(col::OVER_MINIMAL_QS)?,
        column(col::MINIMAL_MS)?,
    );
    Ok((0..df.height())
        .map(|i| {
            Some(MinimalRun {
                over_main: main[i]?,
                over_qs: qs[i],
                ms: ms[i].unwrap_or(0.0),
            })
        })
        .collect())
}

fn iterations_of(df: &Table) -> Result<Vec<IterationPoint>> {
    // A run whose every search was stopped before its first iteration has no iterations.
    if df.height() == 0 {
        return Ok(Vec::new());
    }
    let missing: Vec<&str> = ITERATIONS_READ
        .iter()
        .copied()
        .filter(|c| !df.has_column(c))
        .collect();
    if !missing.is_empty() {
        bail!("expected the columns {ITERATIONS_READ:?}; missing: {missing:?}");
    }
    let text = |name| df.strings(name);
    let (config, suite, position) = (
        text(col::CONFIG_ID)?,
        text(col::SUITE)?,
        text(col::POSITION_ID)?,
    );
    let num = |name| df.floats(name);
    let (depth, nodes, total, ebf, time) = (
        num(col::DEPTH)?,
        num(col::NODES)?,
        num(col::TOTAL_NODES)?,
        num(col::EBF)?,
        num(col::TIME_MS)?,
    );
    Ok((0..df.height())
        .map(|i| IterationPoint {
            config: config[i].clone(),
            suite: suite[i].clone(),
            position: position[i].clone(),
            depth: depth[i].unwrap_or(0.0) as i32,
            nodes: nodes[i].unwrap_or(0.0),
            total_nodes: total[i].unwrap_or(0.0),
            ebf: ebf[i],
            time_ms: time[i].unwrap_or(0.0),
        })
        .collect())
}

/// Numeric columns that are neither named fields nor axes: every cell a number or empty, and at
/// least one a number.
fn counter_columns(df: &Table, axes: &[String]) -> Result<Vec<(String, Vec<Option<f64>>)>> {
    let mut out = Vec::new();
    for name in &df.header {
        if RUNS_READ.contains(&name.as_str()) || axes.iter().any(|a| a == name) {
            continue;
        }
        if let Ok(values) = df.floats(name) {
            if values.iter().any(Option::is_some) {
                out.push((name.clone(), values));
            }
        }
    }
    Ok(out)
}
