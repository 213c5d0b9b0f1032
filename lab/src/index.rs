//! `harness index DIR`: one page of every study and every run under a results directory —
//! `index.md`, rendered as `index.html` by the report page's renderer ([`crate::report::page`]).
//! On top, a table a person reads in a minute: one row per study with its question, its answer in
//! one sentence and its key figure with the interval — read from the study's `summary.json`, which
//! the study's script writes from its data and checks in CI — the date its protocol was first
//! committed and its number of runs. Below, each study's run directories (kind, date, size,
//! command, a link to its page). A study is a top-level directory with a `README.md`, or a deeper
//! one with a `README.md` and a `summary.json`; a run is a directory with a `manifest.json` or a
//! `report.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::report::md_table::MdTable;
use crate::run_dir::{GAMES_PGN, MANIFEST, REPORT, REPORT_HTML};

/// The index's Markdown file name.
pub const INDEX_MD: &str = "index.md";
/// The index's page.
pub const INDEX_HTML: &str = "index.html";
/// A study's machine-readable summary, written by its script beside its README.
pub const STUDY_SUMMARY: &str = "summary.json";

/// A study's `summary.json`: its row of the index.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// What the study asks, one sentence.
    pub question: String,
    /// Its answer, one sentence, the numbers computed by the study's script.
    pub answer: String,
    /// The figure a reader most needs.
    pub figure: KeyFigure,
}

/// A study's key figure: an estimate with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyFigure {
    /// What it measures (players, budget, games).
    pub name: String,
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// Its unit (`Elo`, `%`, …).
    pub unit: String,
}

impl KeyFigure {
    /// `+157.7 [+128.1, +189.6] Elo`: the three numbers with the decimals the summary gives
    /// them, signed when the interval may cross zero or the unit is Elo.
    pub fn render(&self) -> String {
        let decimals = [self.value, self.low, self.high]
            .iter()
            .map(|v| {
                let text = format!("{v}");
                text.split_once('.').map_or(0, |(_, frac)| frac.len())
            })
            .max()
            .unwrap_or(0);
        let signed = self.unit == "Elo" || self.low < 0.0;
        let number = |v: f64| {
            let text = format!("{:.*}", decimals, v.abs());
            match (signed, v < 0.0) {
                (_, true) => format!("−{text}"),
                (true, false) => format!("+{text}"),
                (false, false) => text,
            }
        };
        let unit = match self.unit.as_str() {
            "%" | "×" => self.unit.clone(),
            unit => format!(" {unit}"),
        };
        format!(
            "{} [{}, {}]{unit}",
            number(self.value),
            number(self.low),
            number(self.high)
        )
    }
}

/// One study: a directory with a README.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// Its directory, relative to the results directory.
    pub dir: String,
    /// The README's title.
    pub title: String,
    /// Its question: its summary's, else the README's paragraph that starts with "Question", else
    /// the first that asks one, else the first paragraph.
    pub question: String,
    /// When its README was first committed (`git log`), if git knows.
    pub protocol_date: Option<String>,
    /// Its `summary.json`, if its script writes one.
    pub summary: Option<Summary>,
    /// Its run directories (a nested study's are its own, not its parent's).
    pub runs: usize,
}

/// One run directory.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its directory, relative to the results directory.
    pub dir: String,
    /// grid, match, ladder, tune, texel, kpk or run.
    pub kind: &'static str,
    /// The command that made it (shortened).
    pub command: String,
    /// The manifest's date.
    pub date: String,
    /// Its size on disk, bytes.
    pub bytes: u64,
    /// Its `report.md`, if there is one.
    pub report: Option<String>,
    /// Its page (`report.html`), if it was built: pages are built on demand (`harness report
    /// --all`), so only the rendered index links them.
    pub page: Option<String>,
}

/// What the index's run links point to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Each run's `report.md`: the committed text, so `index.md` does not change when pages are
    /// built.
    Reports,
    /// Each run's page where it was built, else its `report.md` (`index.html`).
    Pages,
}

/// Every study and run under `root`.
pub fn scan(root: &Path) -> Result<(Vec<Study>, Vec<Run>)> {
    let mut runs = Vec::new();
    collect_runs(root, root, &mut runs)?;
    runs.sort_by(|a, b| a.dir.cmp(&b.dir));
    let mut dirs = Vec::new();
    study_dirs(root, root, &mut dirs)?;
    let names: Vec<String> = dirs.iter().map(|d| relative(root, d)).collect();
    let mut studies = Vec::new();
    for dir in &dirs {
        let name = relative(root, dir);
        let readme = std::fs::read_to_string(dir.join("README.md"))
            .with_context(|| format!("reading {}/README.md", dir.display()))?;
        let summary = read_summary(dir)?;
        let question = match &summary {
            Some(s) => s.question.clone(),
            None => rebased(&question_of(&readme), &name),
        };
        studies.push(Study {
            title: title_of(&readme).unwrap_or_else(|| name.clone()),
            question,
            protocol_date: first_commit_date(&dir.join("README.md")),
            summary,
            runs: runs
                .iter()
                .filter(|r| owner(&names, &r.dir) == Some(name.as_str()))
                .count(),
            dir: name,
        });
    }
    Ok((studies, runs))
}

/// The studies under `dir`: a top-level directory with a README, or a deeper one with a README
/// and a summary.
fn study_dirs(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    children.sort();
    for child in children {
        let top = dir == root;
        let readme = child.join("README.md").is_file();
        if readme && (top || child.join(STUDY_SUMMARY).is_file()) {
            found.push(child.clone());
        }
        study_dirs(root, &child, found)?;
    }
    Ok(())
}

/// The study a run directory belongs to: the deepest study above it (`strength/core/x` is
/// `strength/core`'s, not `strength`'s).
fn owner<'a>(studies: &'a [String], run: &str) -> Option<&'a str> {
    studies
        .iter()
        .filter(|s| run.starts_with(&format!("{s}/")))
        .max_by_key(|s| s.len())
        .map(String::as_str)
}

/// `dir/summary.json`, if there is one; a malformed one is an error naming the file.
fn read_summary(dir: &Path) -> Result<Option<Summary>> {
    let path = dir.join(STUDY_SUMMARY);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let summary = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: expected {{\"question\", \"answer\", \"figure\": {{\"name\", \"value\", \"low\", \"high\", \"unit\"}}}}",
            path.display()
        )
    })?;
    Ok(Some(summary))
}

fn collect_runs(root: &Path, dir: &Path, runs: &mut Vec<Run>) -> Result<()> {
    if dir.join(MANIFEST).is_file() || dir.join(REPORT).is_file() {
        runs.push(run_of(root, dir)?);
    }
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    children.sort();
    for child in children {
        collect_runs(root, &child, runs)?;
    }
    Ok(())
}

/// A run directory's entry; one without a manifest (a KPK validation, a ladder's top) has no
/// command or date.
fn run_of(root: &Path, dir: &Path) -> Result<Run> {
    let manifest: serde_json::Value = match std::fs::read_to_string(dir.join(MANIFEST)) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{}/{MANIFEST}: expected JSON", dir.display()))?,
        Err(_) => serde_json::Value::Null,
    };
    let command = match manifest.get("command") {
        Some(serde_json::Value::Array(words)) => words
            .iter()
            .filter_map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        Some(serde_json::Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let date = manifest
        .get("date")
        .and_then(|d| d.as_str())
        .unwrap_or("")
        .to_string();
    let file = |name: &str| {
        dir.join(name)
            .is_file()
            .then(|| format!("{}/{name}", relative(root, dir)))
    };
    Ok(Run {
        dir: relative(root, dir),
        kind: kind_of(dir),
        command: shorten(&command, 110),
        date,
        bytes: size_of(dir),
        report: file(REPORT),
        page: file(REPORT_HTML),
    })
}

/// What made a run directory, from the files it has.
fn kind_of(dir: &Path) -> &'static str {
    use crate::run_dir::{
        table_exists, COMPARISON_CSV, GAMES_CSV, LADDER_JSON, POSITIONS_CSV, RUNS, TEXEL_CSV,
        TUNE_CSV,
    };
    let has = |name: &str| table_exists(&dir.join(name));
    if dir.join(LADDER_JSON).is_file() {
        "ladder"
    } else if has(TUNE_CSV) {
        "tune"
    } else if has(TEXEL_CSV) {
        "texel"
    } else if has(GAMES_CSV) {
        "match"
    } else if has(RUNS) {
        "grid"
    } else if has(POSITIONS_CSV) || has(COMPARISON_CSV) {
        "kpk"
    } else {
        "run"
    }
}

/// Bytes of the files directly in `dir` but what is built on demand from them, its page and a
/// match's plain PGN (a ladder's rungs are runs of their own).
fn size_of(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name() != REPORT_HTML && e.file_name() != GAMES_PGN)
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

fn shorten(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let cut: String = text.chars().take(most - 1).collect();
    format!("{cut}…")
}

/// `text` from `dir/README.md` with its relative Markdown links made relative to the results
/// directory (`[t](table.md)` → `[t](dir/table.md)`; `../x` climbs out of `dir`).
fn rebased(text: &str, dir: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        out.push_str(&rest[..at + 2]);
        rest = &rest[at + 2..];
        let external = rest.starts_with("http") || rest.starts_with('#') || rest.starts_with('/');
        if !external {
            match rest.strip_prefix("../") {
                Some(up) => rest = up,
                None => {
                    out.push_str(dir);
                    out.push('/');
                }
            }
        }
    }
    out.push_str(rest);
    out
}

fn title_of(readme: &str) -> Option<String> {
    readme
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(str::to_string)
}

/// The README's paragraphs (blank-line separated, headings and tables left out), without
/// the marker comments of script-written blocks: a paragraph that opens a block is still read.
fn paragraphs(readme: &str) -> Vec<String> {
    readme
        .split("\n\n")
        .map(without_comment_lines)
        .filter(|p| !p.is_empty() && !p.starts_with('#') && !p.starts_with('|'))
        // A comment over several lines is not text either.
        .filter(|p| !p.starts_with("<!--"))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// `paragraph` without its lines that are one HTML comment each, such as a block's
/// `<!-- findings -->` marker, trimmed.
fn without_comment_lines(paragraph: &str) -> String {
    let is_comment = |line: &&str| {
        let line = line.trim();
        line.starts_with("<!--") && line.ends_with("-->") && line.matches("-->").count() == 1
    };
    let kept: Vec<&str> = paragraph.lines().filter(|l| !is_comment(l)).collect();
    kept.join("\n").trim().to_string()
}

fn question_of(readme: &str) -> String {
    let all = paragraphs(readme);
    let not_strength = |p: &&String| !p.contains("**Strength");
    all.iter()
        .find(|p| p.trim_start_matches('*').starts_with("Question"))
        .or_else(|| all.iter().filter(not_strength).find(|p| p.contains('?')))
        .or_else(|| all.iter().find(not_strength))
        .cloned()
        .unwrap_or_default()
}

/// The date (YYYY-MM-DD) `path` was first committed, if git is there and knows it.
fn first_commit_date(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    let name = path.file_name()?;
    let out = std::process::Command::new("git")
        .args(["log", "--diff-filter=A", "--format=%as", "--"])
        .arg(name)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next_back().map(str::to_string)
}

/// The index in Markdown, its run links as `links` says.
pub fn markdown(studies: &[Study], runs: &[Run], links: Links) -> String {
    let mut md = String::from("# Results: every study and run\n\n");
    let _ = writeln!(
        md,
        "{} studies, {} run directories. Written by `harness index`: each study's question, answer \
         and key figure come from its `summary.json`, which its script writes from the run \
         directories and CI checks; each run links its `report.md`. The pages (`report.html`, \
         and this index as `index.html`) are built on demand: `harness report --all DIR`.\n",
        studies.len(),
        runs.len()
    );
    md.push_str("## Studies\n\n");
    md.push_str(&studies_table(studies).render());
    md.push_str("\n## Run directories\n\n");
    let names: Vec<String> = studies.iter().map(|s| s.dir.clone()).collect();
    for s in studies {
        let own: Vec<&Run> = runs
            .iter()
            .filter(|r| owner(&names, &r.dir) == Some(s.dir.as_str()))
            .collect();
        if !own.is_empty() {
            let _ = writeln!(md, "### [{}]({}/README.md)\n", s.dir, s.dir);
            md.push_str(&runs_table(&own, links).render());
            md.push('\n');
        }
    }
    let others: Vec<&Run> = runs
        .iter()
        .filter(|r| owner(&names, &r.dir).is_none())
        .collect();
    if !others.is_empty() {
        md.push_str("### Runs outside any study\n\n");
        md.push_str(&runs_table(&others, links).render());
    }
    md
}

/// One row per study: its question, answer and key figure, date and runs.
fn studies_table(studies: &[Study]) -> MdTable {
    let mut table = MdTable::new()
        .left("study")
        .left("question")
        .left("answer")
        .left("key figure (95 % interval)")
        .left("since")
        .right("runs");
    for s in studies {
        let (answer, figure) = match &s.summary {
            Some(summary) => (
                summary.answer.clone(),
                format!("{}: **{}**", summary.figure.name, summary.figure.render()),
            ),
            None => ("—".to_string(), "—".to_string()),
        };
        table.row([
            format!("[{}]({}/README.md)", s.dir, s.dir),
            s.question.clone(),
            answer,
            figure,
            s.protocol_date.clone().unwrap_or_else(|| "—".to_string()),
            s.runs.to_string(),
        ]);
    }
    table
}

/// A table of run directories: link, kind, date, size, command.
fn runs_table(runs: &[&Run], links: Links) -> MdTable {
    let mut table = MdTable::new()
        .left("run")
        .left("kind")
        .left("date")
        .right("size")
        .left("command");
    for r in runs {
        let target = match links {
            Links::Pages => r.page.as_ref().or(r.report.as_ref()),
            Links::Reports => r.report.as_ref(),
        };
        let link = match target {
            Some(target) => format!("[{}]({target})", r.dir),
            None => r.dir.clone(),
        };
        table.row([
            link,
            r.kind.to_string(),
            r.date.clone(),
            format!("{:.0} KB", r.bytes as f64 / 1024.0),
            format!("`{}`", r.command.replace('`', "'")),
        ]);
    }
    table
}

/// Writes `root/index.md` and `root/index.html`.
pub fn write(root: &Path) -> Result<(usize, usize)> {
    let (studies, runs) = scan(root)?;
    let md = markdown(&studies, &runs, Links::Reports);
    std::fs::write(root.join(INDEX_MD), &md)
        .with_context(|| format!("writing {}", root.join(INDEX_MD).display()))?;
    let html = crate::report::page::render(root, &markdown(&studies, &runs, Links::Pages));
    std::fs::write(root.join(INDEX_HTML), html)
        .with_context(|| format!("writing {}", root.join(INDEX_HTML).display()))?;
    Ok((studies.len(), runs.len()))
}

/// Renders every run's `report.md` under `root` as its page, recomputing nothing, then writes
/// the index; returns the number of pages.
pub fn write_pages(root: &Path) -> Result<usize> {
    let (_, runs) = scan(root)?;
    let mut pages = 0;
    for run in &runs {
        let dir = root.join(&run.dir);
        if run.report.is_some() {
            crate::report::page::write_page(&dir)?;
            pages += 1;
        }
    }
    write(root)?;
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_of_a_study_are_made_relative_to_the_results_directory() {
        assert_eq!(
            rebased(
                "see [t](table.md) and [r](../README.md), [w](https://x.org)",
                "eval"
            ),
            "see [t](eval/table.md) and [r](README.md), [w](https://x.org)"
        );
        assert_eq!(
            rebased("[a](#x) [b](sub/report.md)", "s"),
            "[a](#x) [b](s/sub/report.md)"
        );
    }

    #[test]
    fn a_key_figure_keeps_its_decimals_and_signs_elo() {
        let figure = |value, low, high, unit: &str| KeyFigure {
            name: "x".into(),
            value,
            low,
            high,
            unit: unit.into(),
        };
        assert_eq!(
            figure(42.8, 13.0, 72.6, "Elo").render(),
            "+42.8 [+13.0, +72.6] Elo"
        );
        assert_eq!(
            figure(-416.0, -503.0, -345.0, "Elo").render(),
            "−416 [−503, −345] Elo"
        );
        assert_eq!(figure(0.7, 0.5, 1.0, "%").render(), "0.7 [0.5, 1.0]%");
        assert_eq!(
            figure(3.5, -16.7, 23.7, "positions").render(),
            "+3.5 [−16.7, +23.7] positions"
        );
    }

    #[test]
    fn a_run_belongs_to_the_deepest_study_above_it() {
        let studies = ["strength".to_string(), "strength/core".to_string()];
        assert_eq!(
            owner(&studies, "strength/core/clock"),
            Some("strength/core")
        );
        assert_eq!(owner(&studies, "strength/ladder"), Some("strength"));
        assert_eq!(owner(&studies, "strengthy/x"), None);
    }

    #[test]
    fn a_paragraph_that_opens_a_block_is_read_without_its_marker() {
        let readme =
            "# T\n\n<!-- q -->\nQuestion: does it hold?\n<!-- /q -->\n\n<!-- alone -->\n\nText.";
        assert_eq!(paragraphs(readme), ["Question: does it hold?", "Text."]);
        assert_eq!(question_of(readme), "Question: does it hold?");
        let bold = "# T\n\nWhy? Because.\n\n**Question.** Does it hold?";
        assert_eq!(question_of(bold), "**Question.** Does it hold?");
    }
}
