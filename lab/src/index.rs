//! `harness index DIR`: one page of every study and every run under a results directory —
//! `index.md`, rendered as `index.html` by the report page's renderer ([`crate::report::page`]).
//! A study is a directory with a `README.md` (its question, the date its protocol was first
//! committed, its headline figures, its engine-strength line, links to its README and runs); a
//! run is a directory with a `manifest.json` or a `report.md` (kind, command, date, size, a link to
//! its page).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::report::md_table::MdTable;
use crate::run_dir::{MANIFEST, REPORT, REPORT_HTML};

/// The index's Markdown file name.
pub const INDEX_MD: &str = "index.md";
/// The index's page.
pub const INDEX_HTML: &str = "index.html";
/// Where a study's README puts the findings a script writes.
const FINDINGS: (&str, &str) = ("<!-- findings -->", "<!-- /findings -->");

/// One study: a directory with a README.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// Its directory, relative to the results directory.
    pub dir: String,
    /// The README's title.
    pub title: String,
    /// Its question: the paragraph that starts with "Question", else the first that asks one,
    /// else the first paragraph.
    pub question: String,
    /// When its README was first committed (`git log`), if git knows.
    pub protocol_date: Option<String>,
    /// Its headline figures: the findings a script wrote, else the first paragraph with an
    /// interval.
    pub headline: Vec<String>,
    /// Its paragraph on the strength of the engine measured, if it has one.
    pub strength: Option<String>,
    /// Its run directories.
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
    /// Its page (`report.html`), else its `report.md`, if either is there.
    pub page: Option<String>,
}

/// Every study and run under `root`.
pub fn scan(root: &Path) -> Result<(Vec<Study>, Vec<Run>)> {
    let mut runs = Vec::new();
    collect_runs(root, root, &mut runs)?;
    runs.sort_by(|a, b| a.dir.cmp(&b.dir));
    let mut studies = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root)
        .with_context(|| format!("reading {}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("README.md").is_file())
        .collect();
    entries.sort();
    for dir in entries {
        let name = relative(root, &dir);
        let readme = std::fs::read_to_string(dir.join("README.md"))
            .with_context(|| format!("reading {}/README.md", dir.display()))?;
        let prefix = format!("{name}/");
        let rebase = |text: &str| rebased(text, &name);
        studies.push(Study {
            title: title_of(&readme).unwrap_or_else(|| name.clone()),
            question: rebase(&question_of(&readme)),
            protocol_date: first_commit_date(&dir.join("README.md")),
            headline: headline_of(&readme).iter().map(|l| rebase(l)).collect(),
            strength: paragraphs(&readme)
                .into_iter()
                .find(|p| p.contains("**Strength"))
                .map(|p| rebase(&p)),
            runs: runs.iter().filter(|r| r.dir.starts_with(&prefix)).count(),
            dir: name,
        });
    }
    Ok((studies, runs))
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
    let page = [REPORT_HTML, REPORT]
        .into_iter()
        .find(|name| dir.join(name).is_file())
        .map(|name| format!("{}/{name}", relative(root, dir)));
    Ok(Run {
        dir: relative(root, dir),
        kind: kind_of(dir),
        command: shorten(&command, 110),
        date,
        bytes: size_of(dir),
        page,
    })
}

/// What made a run directory, from the files it has.
fn kind_of(dir: &Path) -> &'static str {
    let has = |name: &str| crate::run_dir::table_exists(&dir.join(name));
    if dir.join("ladder.json").is_file() {
        "ladder"
    } else if has("tune.csv") {
        "tune"
    } else if has("texel.csv") {
        "texel"
    } else if has("games.csv") {
        "match"
    } else if has("runs.csv") {
        "grid"
    } else if has("positions.csv") || has("comparison.csv") {
        "kpk"
    } else {
        "run"
    }
}

/// Bytes of the files directly in `dir` (a ladder's rungs are runs of their own).
fn size_of(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
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

fn headline_of(readme: &str) -> Vec<String> {
    if let Some((_, rest)) = readme.split_once(FINDINGS.0) {
        if let Some((inside, _)) = rest.split_once(FINDINGS.1) {
            return inside
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
        }
    }
    paragraphs(readme)
        .into_iter()
        .filter(|p| !p.contains("**Strength"))
        .find(|p| p.contains('±') || p.contains(" ["))
        .map(|p| vec![p])
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

/// The index in Markdown.
pub fn markdown(studies: &[Study], runs: &[Run]) -> String {
    let mut md = String::from("# Results: every study and run\n\n");
    let _ = writeln!(
        md,
        "{} studies, {} run directories. Written by `harness index`; each run's page is its \
         `report.html` (its `report.md` where no page was made).\n",
        studies.len(),
        runs.len()
    );
    md.push_str("## Studies\n\n");
    for s in studies {
        let _ = writeln!(md, "### [{}]({}/README.md)\n", s.title, s.dir);
        let date = s.protocol_date.as_deref().unwrap_or("not in git");
        let _ = writeln!(
            md,
            "`{}/` — protocol first committed: {date}; {} run directories.\n",
            s.dir, s.runs
        );
        let _ = writeln!(md, "{}\n", s.question);
        if let Some(strength) = &s.strength {
            let _ = writeln!(md, "{strength}\n");
        }
        if !s.headline.is_empty() {
            md.push_str("Headline figures:\n\n");
            for line in &s.headline {
                let line = line.trim_start_matches("- ");
                let _ = writeln!(md, "- {line}");
            }
            md.push('\n');
        }
    }
    md.push_str("## Run directories\n\n");
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let link = match &r.page {
                Some(page) => format!("[{}]({page})", r.dir),
                None => r.dir.clone(),
            };
            vec![
                link,
                r.kind.to_string(),
                r.date.clone(),
                format!("{:.0} KB", r.bytes as f64 / 1024.0),
                format!("`{}`", r.command.replace('|', "\\|").replace('`', "'")),
            ]
        })
        .collect();
    let mut table = MdTable::new()
        .left("run")
        .left("kind")
        .left("date")
        .right("size")
        .left("command");
    for row in rows {
        table.row(row);
    }
    md.push_str(&table.render());
    md
}

/// Writes `root/index.md` and `root/index.html`.
pub fn write(root: &Path) -> Result<(usize, usize)> {
    let (studies, runs) = scan(root)?;
    let md = markdown(&studies, &runs);
    std::fs::write(root.join(INDEX_MD), &md)
        .with_context(|| format!("writing {}", root.join(INDEX_MD).display()))?;
    let html = crate::report::page::render(root, &md);
    std::fs::write(root.join(INDEX_HTML), html)
        .with_context(|| format!("writing {}", root.join(INDEX_HTML).display()))?;
    Ok((studies.len(), runs.len()))
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
    fn a_paragraph_that_opens_a_block_is_read_without_its_marker() {
        let readme =
            "# T\n\n<!-- q -->\nQuestion: does it hold?\n<!-- /q -->\n\n<!-- alone -->\n\nText.";
        assert_eq!(paragraphs(readme), ["Question: does it hold?", "Text."]);
        assert_eq!(question_of(readme), "Question: does it hold?");
        let bold = "# T\n\nWhy? Because.\n\n**Question.** Does it hold?";
        assert_eq!(question_of(bold), "**Question.** Does it hold?");
    }
}
