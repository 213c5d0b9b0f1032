//! The one writer of `runs.csv` and `iterations.csv`. A job's iteration rows are written and
//! flushed before its run row, so a job counts as done exactly when its run row is complete. On
//! resume, a half-written last line is cut off and iteration rows of unfinished jobs are dropped:
//! a killed run, resumed, ends with exactly the rows of an uninterrupted one.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::export::appender::cut_partial_line;
use crate::export::appender::Appender;
use crate::export::rows::{cells, IterationRow, JobOutput, RunRow};
use crate::plan::JobKey;
use crate::run_dir::{column, key_columns, ITERATIONS, RUNS};

/// Appends job rows to the two CSV files.
pub struct Sink {
    runs: Appender,
    iterations: Appender,
    axes: Vec<String>,
    done: HashSet<JobKey>,
}

impl Sink {
    /// Starts fresh files; fails if `runs.csv` or `iterations.csv` already exists (use
    /// `--resume`, or another `--out`): new rows are never appended under an old header.
    pub fn create(dir: &Path, axes: &[String]) -> Result<Self> {
        for name in [RUNS, ITERATIONS] {
            let path = dir.join(name);
            if path.exists() {
                bail!("{} already exists: pass `--resume {}` to continue that run, or choose another --out", path.display(), dir.display());
            }
        }
        Self::open(dir, axes, HashSet::new())
    }

    /// Continues an interrupted run in `dir`. With `retry_failed`, jobs whose row says they failed
    /// (an external engine crashed, hung or spoke garbage) lose that row and run again.
    /// The files must belong to `planned`: a row of a job outside it, the same job twice, a row
    /// whose node count is not a number, or an `iterations.csv` missing beside finished jobs is
    /// reported (with its line) instead of being resumed over.
    pub fn resume(
        dir: &Path,
        axes: &[String],
        retry_failed: bool,
        planned: &HashSet<JobKey>,
    ) -> Result<Self> {
        let runs = dir.join(RUNS);
        let iterations = dir.join(ITERATIONS);
        cut_partial_line(&runs)?;
        cut_partial_line(&iterations)?;
        check_columns(&runs, axes, RunRow::column_names())?;
        check_columns(&iterations, axes, IterationRow::column_names())?;
        check_rows(dir, planned)?;
        if retry_failed {
            drop_failed_rows(&runs)?;
        }
        let done = completed_jobs(&runs)?;
        keep_rows_of(&iterations, &done)?;
        Self::open(dir, axes, done)
    }

    fn open(dir: &Path, axes: &[String], done: HashSet<JobKey>) -> Result<Self> {
        Ok(Self {
            runs: Appender::open(&dir.join(RUNS))?,
            iterations: Appender::open(&dir.join(ITERATIONS))?,
            axes: axes.to_vec(),
            done,
        })
    }

    /// Jobs whose run row is already written.
    pub fn is_done(&self, key: &JobKey) -> bool {
        self.done.contains(key)
    }

    /// Number of jobs already written.
    pub fn done_count(&self) -> usize {
        self.done.len()
    }

    /// Writes a job's rows and flushes them.
    pub fn write(&mut self, out: &JobOutput) -> Result<()> {
        let (head, key) = self.key_cells(out);
        for row in &out.iterations {
            let (names, values) = cells(row);
            if self.iterations.is_empty() {
                self.iterations.append_record(head.iter().chain(&names))?;
            }
            self.iterations.append_record(key.iter().chain(&values))?;
        }
        let (names, values) = cells(&out.run);
        if self.runs.is_empty() {
            self.runs.append_record(head.iter().chain(&names))?;
        }
        self.runs.append_record(key.iter().chain(&values))?;
        self.done.insert(out.key.clone());
        Ok(())
    }

    /// `config_id, <axes…>, suite, position_id` names and values.
    fn key_cells(&self, out: &JobOutput) -> (Vec<String>, Vec<String>) {
        let head = key_columns(&self.axes);
        let mut values = vec![out.key.config_id.clone()];
        values.extend(out.values.iter().cloned());
        values.extend([out.key.suite.clone(), out.key.position_id.clone()]);
        (head, values)
    }
}

/// A run whose CSVs have other columns than this build writes cannot be continued: the appended
/// rows would not match their header.
fn check_columns(path: &Path, axes: &[String], row_columns: Vec<String>) -> Result<()> {
    if !path.exists() || std::fs::metadata(path)?.len() == 0 {
        return Ok(());
    }
    let mut reader = csv::Reader::from_path(path)?;
    let found: Vec<String> = reader.headers()?.iter().map(String::from).collect();
    let mut expected = key_columns(axes);
    expected.extend(row_columns);
    if found != expected {
        let missing: Vec<&String> = expected.iter().filter(|c| !found.contains(c)).collect();
        let extra: Vec<&String> = found.iter().filter(|c| !expected.contains(c)).collect();
        bail!("{} was written by another version of the harness (columns missing: {missing:?}, unknown: {extra:?}): it cannot be continued by this build; start a new run", path.display());
    }
    Ok(())
}

/// The job keys of a CSV's rows.
fn read_keyed_rows(path: &Path) -> Result<(csv::StringRecord, Vec<(JobKey, csv::StringRecord)>)> {
    // A finished run's table may be gzipped (committed results); one being written never is.
    let bytes = crate::run_dir::read_table(path)?
        .with_context(|| format!("reading {}: no such file", path.display()))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let headers = reader.headers()?.clone();
    let index = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{} has no `{name}` column", path.display()))
    };
    let (c, s, p) = (
        index(column::CONFIG_ID)?,
        index(column::SUITE)?,
        index(column::POSITION_ID)?,
    );
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("reading {}", path.display()))?;
        let key = JobKey {
            config_id: record[c].to_string(),
            suite: record[s].to_string(),
            position_id: record[p].to_string(),
        };
        rows.push((key, record));
    }
    Ok((headers, rows))
}

/// The consistency of `runs.csv` with the plan (see [`Sink::resume`]).
fn check_rows(dir: &Path, planned: &HashSet<JobKey>) -> Result<()> {
    let runs = dir.join(RUNS);
    if !runs.exists() || std::fs::metadata(&runs)?.len() == 0 {
        return Ok(());
    }
    let (headers, rows) = read_keyed_rows(&runs)?;
    let nodes = headers.iter().position(|h| h == column::NODES);
    let failure = headers.iter().position(|h| h == column::FAILURE);
    let mut seen: std::collections::HashMap<&JobKey, u64> = std::collections::HashMap::new();
    for (key, record) in &rows {
        let line = record.position().map_or(0, |p| p.line());
        let job = format!(
            "job ({}, {}, {})",
            key.config_id, key.suite, key.position_id
        );
        if !planned.contains(key) {
            bail!("{}:{line}: {job} is not part of this run's plan: the file was edited or belongs to another run", runs.display());
        }
        if let Some(first) = seen.insert(key, line) {
            bail!(
                "{}:{line}: {job} is already on line {first}: a row was duplicated; remove one",
                runs.display()
            );
        }
        // A failed job (its UCI engine crashed or hung) has no node count, only its reason.
        let failed = failure.is_some_and(|i| !record[i].is_empty());
        if let (Some(i), false) = (nodes, failed) {
            if record[i].parse::<u64>().is_err() {
                bail!("{}:{line}: expected a node count, found `{}`: the row is damaged; remove it and resume", runs.display(), &record[i]);
            }
        }
    }
    if !rows.is_empty() && !dir.join(ITERATIONS).exists() {
        bail!("{} is missing while {RUNS} has {} finished jobs: the run cannot be completed consistently; start it again in another --out", dir.join(ITERATIONS).display(), rows.len());
    }
    Ok(())
}

/// The node count of every job row of a `runs.csv` that has one (failed jobs have none).
pub fn node_counts(runs: &Path) -> Result<std::collections::HashMap<JobKey, f64>> {
    let (headers, rows) = read_keyed_rows(runs)?;
    let nodes = headers
        .iter()
        .position(|h| h == column::NODES)
        .with_context(|| format!("{} has no `{}` column", runs.display(), column::NODES))?;
    Ok(rows
        .into_iter()
        .filter_map(|(key, record)| record[nodes].parse::<f64>().ok().map(|n| (key, n)))
        .collect())
}

fn completed_jobs(runs: &Path) -> Result<HashSet<JobKey>> {
    if !runs.exists() || std::fs::metadata(runs)?.len() == 0 {
        return Ok(HashSet::new());
    }
    Ok(read_keyed_rows(runs)?
        .1
        .into_iter()
        .map(|(k, _)| k)
        .collect())
}

/// Rewrites `iterations.csv` with only the rows of completed jobs.
fn keep_rows_of(path: &Path, done: &HashSet<JobKey>) -> Result<()> {
    if !path.exists() {
        return Ok(());
    }
    cut_partial_line(path)?;
    if std::fs::metadata(path)?.len() == 0 {
        return Ok(());
    }
    keep_rows(path, |key, _| done.contains(key))
}

/// Rewrites `runs.csv` without the rows of failed jobs.
fn drop_failed_rows(runs: &Path) -> Result<()> {
    if !runs.exists() || std::fs::metadata(runs)?.len() == 0 {
        return Ok(());
    }
    let headers = csv::Reader::from_path(runs)?.headers()?.clone();
    let failure = headers.iter().position(|h| h == column::FAILURE);
    keep_rows(runs, |_, record| {
        failure.is_none_or(|i| record[i].is_empty())
    })
}

/// Rewrites a CSV with the rows `keep` accepts (through a temporary file, so a kill leaves either
/// the old or the new file).
fn keep_rows(path: &Path, keep: impl Fn(&JobKey, &csv::StringRecord) -> bool) -> Result<()> {
    let (headers, rows) = read_keyed_rows(path)?;
    let tmp = path.with_extension("csv.tmp");
    let mut w = csv::Writer::from_path(&tmp)?;
    w.write_record(&headers)?;
    for (_, record) in rows.iter().filter(|(k, r)| keep(k, r)) {
        w.write_record(record)?;
    }
    w.flush()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
