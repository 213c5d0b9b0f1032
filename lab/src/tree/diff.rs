//! Two recordings of one position and limit, aligned by move path: how many nodes each search
//! spent under every line, the line along which the growth runs, and on it the first node where
//! the two searches decided differently, with what decided it.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::TreeNode;
use crate::report::md_table::{Align, MdTable};

/// One recording as the diff reads it.
pub struct Recording {
    /// The directory it was read from.
    pub dir: String,
    /// Its position.
    pub fen: String,
    /// Its limit, in words.
    pub limit: String,
    /// Its configuration, in words.
    pub configuration: String,
    /// Its nodes, in the order of the search (as `table::read` gives them back).
    pub nodes: Vec<TreeNode>,
}

/// Reads `dir/manifest.json` and `dir/tree.arrow`.
pub fn read(dir: &Path) -> Result<Recording> {
    let manifest_path = dir.join(crate::run_dir::MANIFEST);
    let text = std::fs::read_to_string(&manifest_path).with_context(|| {
        format!(
            "reading {} (is it a `harness tree` directory?)",
            manifest_path.display()
        )
    })?;
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("parsing {}", manifest_path.display()))?;
    let field = |name: &str| -> Result<String> {
        manifest[name]
            .as_str()
            .map(str::to_string)
            .with_context(|| format!("{} has no `{name}`", manifest_path.display()))
    };
    Ok(Recording {
        dir: dir.display().to_string(),
        fen: field("fen")?,
        limit: field("limit")?,
        configuration: field("configuration")?,
        nodes: super::table::read(dir)?,
    })
}

/// The first node at a path in one search: its level, kind and what acted on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Remaining depth.
    pub level: i32,
    /// `main` or `qs`.
    pub kind: String,
    /// What acted on it, in words.
    pub actions: String,
}

/// A line (a move path) with the nodes each search spent under it, itself included.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// UCI moves from the root, space-separated (empty: the whole tree).
    pub path: String,
    /// Nodes under it in the first search.
    pub before: u64,
    /// Nodes under it in the second search.
    pub after: u64,
    /// The first node at the line in each search, where it has one.
    pub decisions: (Option<Decision>, Option<Decision>),
}

impl Line {
    /// Nodes added (negative: removed).
    pub fn growth(&self) -> i64 {
        self.after as i64 - self.before as i64
    }

    /// Whether the two searches' first nodes at this line differ in level, kind or actions
    /// (a dynamic level granted in both is one decision, whatever limit each held it against).
    pub fn decided_differently(&self) -> bool {
        match &self.decisions {
            (Some(a), Some(b)) => {
                (a.level, &a.kind, without_limits(&a.actions))
                    != (b.level, &b.kind, without_limits(&b.actions))
            }
            (a, b) => a.is_some() != b.is_some(),
        }
    }
}

/// `actions` with the numbers after `candidate limit ` left out: the limit is the configuration's,
/// not a decision of the node's.
fn without_limits(actions: &str) -> String {
    const LIMIT: &str = "candidate limit ";
    let mut out = String::with_capacity(actions.len());
    let mut rest = actions;
    while let Some(i) = rest.find(LIMIT) {
        out.push_str(&rest[..i + LIMIT.len()]);
        rest = rest[i + LIMIT.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// `harness tree diff`'s report.
pub const DIFF_MD: &str = "diff.md";
/// Every line with its nodes in each search.
pub const DIFF_CSV: &str = "diff.csv";
/// The report's header and growth line as data ([`json`]).
pub const DIFF_JSON: &str = "diff.json";

/// The comparison.
pub struct Diff {
    /// Every line either search visited, by path.
    pub lines: HashMap<String, Line>,
    /// The line along which the growth runs: from the root, each step the child line that grew
    /// most, while it carries at least a tenth of the total growth.
    pub growth_line: Vec<String>,
}

/// Refuses two recordings that are not of the same position and limit.
pub fn check_comparable(a: &Recording, b: &Recording) -> Result<()> {
    let mut differ = Vec::new();
    if a.fen != b.fen {
        differ.push(format!("positions: `{}` vs `{}`", a.fen, b.fen));
    }
    if a.limit != b.limit {
        differ.push(format!("limits: {} vs {}", a.limit, b.limit));
    }
    if !differ.is_empty() {
        bail!(
            "{} and {} are not recordings of one search question ({}): a diff compares \
             configurations on the same position and limit",
            a.dir,
            b.dir,
            differ.join("; ")
        );
    }
    Ok(())
}

/// Aligns two recordings by move path.
pub fn compare(a: &Recording, b: &Recording) -> Diff {
    let mut lines: HashMap<String, Line> = HashMap::new();
    for (side, rec) in [(0, a), (1, b)] {
        for node in &rec.nodes {
            let path = &node.path;
            let decision = Decision {
                level: node.level,
                kind: node.kind.to_string(),
                actions: node.actions.clone(),
            };
            let line = lines.entry(path.clone()).or_insert_with(|| empty(path));
            let slot = if side == 0 {
                &mut line.decisions.0
            } else {
                &mut line.decisions.1
            };
            slot.get_or_insert(decision);
            for prefix in prefixes(path) {
                let line = lines
                    .entry(prefix.to_string())
                    .or_insert_with(|| empty(prefix));
                if side == 0 {
                    line.before += 1;
                } else {
                    line.after += 1;
                }
            }
        }
    }
    let growth_line = growth_line(&lines);
    Diff { lines, growth_line }
}

fn empty(path: &str) -> Line {
    Line {
        path: path.to_string(),
        before: 0,
        after: 0,
        decisions: (None, None),
    }
}

/// `""`, the first move, the first two, … and the whole path.
fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    let cuts = path.match_indices(' ').map(|(i, _)| i);
    std::iter::once(0)
        .chain(cuts)
        .chain((!path.is_empty()).then_some(path.len()))
        .map(move |end| &path[..end])
}

fn growth_line(lines: &HashMap<String, Line>) -> Vec<String> {
    let mut children: HashMap<&str, Vec<&Line>> = HashMap::new();
    for line in lines.values().filter(|l| !l.path.is_empty()) {
        let parent = line.path.rfind(' ').map_or("", |i| &line.path[..i]);
        children.entry(parent).or_default().push(line);
    }
    let total = lines.get("").map_or(0, Line::growth);
    let mut path = String::new();
    let mut out = vec![path.clone()];
    while let Some(next) = children.get(path.as_str()).and_then(|c| {
        c.iter()
            .max_by_key(|l| (l.growth(), std::cmp::Reverse(l.path.clone())))
    }) {
        if total == 0 || next.growth() * 10 < total.abs() {
            break;
        }
        path = next.path.clone();
        out.push(path.clone());
    }
    out
}

/// `diff.md`.
pub fn markdown(a: &Recording, b: &Recording, diff: &Diff, top: usize) -> String {
    let mut md = String::new();
    let root = &diff.lines[""];
    md.push_str("# Tree diff\n\n");
    md.push_str(&format!("- position: `{}`; limit: {}\n", a.fen, a.limit));
    md.push_str(&format!(
        "- before: `{}` ({}): {} nodes\n",
        a.configuration, a.dir, root.before
    ));
    md.push_str(&format!(
        "- after: `{}` ({}): {} nodes ({:+}, × {:.2})\n\n",
        b.configuration,
        b.dir,
        root.after,
        root.growth(),
        root.after as f64 / root.before.max(1) as f64
    ));
    md.push_str("## Where the growth runs\n\nFrom the root, each step the line that grew most (while it carries at least a tenth of the growth). \"Decided differently\" marks the first node on a line whose level, kind or actions differ between the two searches.\n\n");
    let mut table = MdTable::new()
        .left("line")
        .columns(
            ["before", "after", "growth", "share of the growth"],
            Align::Right,
        )
        .left("decided differently");
    for path in &diff.growth_line {
        let l = &diff.lines[path];
        table.row([
            format!("`{}`", shown(path)),
            l.before.to_string(),
            l.after.to_string(),
            format!("{:+}", l.growth()),
            share(l.growth(), root.growth()),
            if l.decided_differently() { "yes" } else { "" }.to_string(),
        ]);
    }
    md.push_str(&table.render());
    if let Some(first) = diff
        .growth_line
        .iter()
        .map(|p| &diff.lines[p])
        .find(|l| l.decided_differently())
    {
        md.push_str(&format!(
            "\nThe first node on that line where the two searches decided differently: `{}`.\n\n",
            shown(&first.path)
        ));
        md.push_str(&format!(
            "- before: {}\n- after: {}\n\n",
            decision_words(&first.decisions.0),
            decision_words(&first.decisions.1)
        ));
    }
    let mut grown: Vec<&Line> = diff.lines.values().filter(|l| !l.path.is_empty()).collect();
    grown.sort_by_key(|l| (std::cmp::Reverse(l.growth()), l.path.clone()));
    md.push_str(&format!("## The {top} lines that grew most\n\n"));
    let mut table = MdTable::new()
        .left("line")
        .columns(["plies", "before", "after", "growth"], Align::Right)
        .left("how the first node differs, before → after");
    for l in grown.iter().take(top) {
        let note = if l.decided_differently() {
            difference(&l.decisions)
        } else {
            String::new()
        };
        table.row([
            format!("`{}`", l.path),
            l.path.split(' ').count().to_string(),
            l.before.to_string(),
            l.after.to_string(),
            format!("{:+}", l.growth()),
            note,
        ]);
    }
    md.push_str(&table.render());
    md
}

/// `diff.json`: the figures of `diff.md`'s header and growth line as data — both searches' nodes,
/// the growth line's steps (each line's path, nodes, growth and its share of the root's growth
/// in per cent, null when the root did not grow), and the first node on it where the searches
/// decided differently with each search's decision (null where a search did not visit it) — for
/// scripts that must not read the Markdown.
pub fn json(a: &Recording, b: &Recording, diff: &Diff) -> String {
    let root = &diff.lines[""];
    let side = |r: &Recording, nodes: u64| serde_json::json!({"configuration": r.configuration, "dir": r.dir, "nodes": nodes});
    let share =
        |growth: i64| (root.growth() != 0).then(|| 100.0 * growth as f64 / root.growth() as f64);
    let decision = |d: &Option<Decision>| {
        d.as_ref()
            .map(|d| serde_json::json!({"level": d.level, "kind": d.kind, "actions": d.actions}))
    };
    let growth_line: Vec<serde_json::Value> = diff
        .growth_line
        .iter()
        .map(|path| {
            let l = &diff.lines[path];
            serde_json::json!({
                "path": path,
                "before": l.before,
                "after": l.after,
                "growth": l.growth(),
                "share": share(l.growth()),
                "decided_differently": l.decided_differently(),
            })
        })
        .collect();
    let decided = diff
        .growth_line
        .iter()
        .map(|p| &diff.lines[p])
        .find(|l| l.decided_differently())
        .map(|first| {
            serde_json::json!({
                "path": first.path,
                "before": decision(&first.decisions.0),
                "after": decision(&first.decisions.1),
            })
        });
    let value = serde_json::json!({
        "position": a.fen,
        "limit": a.limit,
        "before": side(a, root.before),
        "after": side(b, root.after),
        "growth_line": growth_line,
        "decided": decided,
    });
    serde_json::to_string_pretty(&value).expect("a diff serialises") + "\n"
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "(root)"
    } else {
        path
    }
}

fn share(part: i64, whole: i64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.0} %", 100.0 * part as f64 / whole as f64)
    }
}

fn decision_words(d: &Option<Decision>) -> String {
    match d {
        None => "not visited".into(),
        Some(d) if d.actions.is_empty() => {
            format!("{} node at level {}, nothing acted", d.kind, d.level)
        }
        Some(d) => format!("{} node at level {}: {}", d.kind, d.level, d.actions),
    }
}

/// How the first nodes of a line differ, before → after: kind, level, what acted.
fn difference((a, b): &(Option<Decision>, Option<Decision>)) -> String {
    let (Some(a), Some(b)) = (a, b) else {
        return if a.is_none() {
            "not visited before".into()
        } else {
            "not visited after".into()
        };
    };
    let mut parts = Vec::new();
    if a.kind != b.kind {
        parts.push(format!("{} → {}", a.kind, b.kind));
    }
    if a.level != b.level {
        parts.push(format!("level {} → {}", a.level, b.level));
    }
    if a.actions != b.actions {
        let or_nothing = |s: &str| {
            if s.is_empty() {
                "nothing".to_string()
            } else {
                s.to_string()
            }
        };
        parts.push(format!(
            "{} → {}",
            or_nothing(&a.actions),
            or_nothing(&b.actions)
        ));
    }
    parts.join("; ")
}

/// `diff.csv`: every line with its node counts, deepest lines last.
pub fn csv(diff: &Diff) -> String {
    let mut lines: Vec<&Line> = diff.lines.values().collect();
    lines.sort_by(|a, b| a.path.cmp(&b.path));
    let mut out = String::from("path,plies,before,after,growth,decided_differently\n");
    for l in lines {
        let plies = if l.path.is_empty() {
            0
        } else {
            l.path.split(' ').count()
        };
        let _ = writeln!(
            out,
            "{},{plies},{},{},{},{}",
            l.path,
            l.before,
            l.after,
            l.growth(),
            l.decided_differently()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording(nodes: &[(&str, i32, &str)]) -> Recording {
        Recording {
            dir: "x".into(),
            fen: "f".into(),
            limit: "depth 2".into(),
            configuration: "c".into(),
            nodes: nodes.iter().map(|&(p, l, a)| node(p, l, a)).collect(),
        }
    }

    /// A main-search node on `path` at `level` on which `actions` acted (the rest as read back).
    fn node(path: &str, level: i32, actions: &str) -> TreeNode {
        TreeNode {
            id: 0,
            parent: None,
            iteration: 2,
            path: path.into(),
            move_uci: None,
            move_san: None,
            kind: "main",
            probe: "plain",
            extension: None,
            ply: 0,
            level,
            alpha: 0,
            beta: 0,
            expected: "pv",
            found: "exact",
            static_eval: None,
            value: 0,
            best: None,
            cutoff: None,
            subtree: 1,
            budget: (0, 0),
            actions: actions.into(),
            counts: Default::default(),
        }
    }

    #[test]
    fn lines_count_their_subtrees_and_the_growth_line_follows_the_growth() {
        let a = recording(&[("", 2, ""), ("e2e4", 1, ""), ("d2d4", 1, "")]);
        let b = recording(&[
            ("", 2, ""),
            (
                "e2e4",
                1,
                "1 legal moves ≤ candidate limit 4: dynamic level granted",
            ),
            ("e2e4 e7e5", 1, ""),
            ("e2e4 e7e6", 1, ""),
            ("d2d4", 1, ""),
        ]);
        let diff = compare(&a, &b);
        assert_eq!((diff.lines[""].before, diff.lines[""].after), (3, 5));
        assert_eq!(
            (diff.lines["e2e4"].before, diff.lines["e2e4"].after),
            (1, 3)
        );
        // Ties go to the first path in order.
        assert_eq!(diff.growth_line, ["", "e2e4", "e2e4 e7e5"]);
        assert!(
            diff.lines["e2e4"].decided_differently() && !diff.lines["d2d4"].decided_differently()
        );
        let md = markdown(&a, &b, &diff, 5);
        assert!(md.contains("decided differently: `e2e4`"), "{md}");
        assert!(md.contains("dynamic level granted"), "{md}");
        assert!(csv(&diff).contains("e2e4,1,1,3,2,true"));
    }

    #[test]
    fn a_dynamic_level_granted_under_both_limits_is_one_decision() {
        let granted = |limit| Decision {
            level: 4,
            kind: "main".into(),
            actions: format!("3 legal moves ≤ candidate limit {limit}: dynamic level granted"),
        };
        let line = Line {
            path: "e2e4".into(),
            before: 1,
            after: 1,
            decisions: (Some(granted(3)), Some(granted(4))),
        };
        assert!(!line.decided_differently());
        assert_eq!(
            without_limits("a candidate limit 12: b"),
            "a candidate limit : b"
        );
    }

    #[test]
    fn prefixes_run_from_the_root_to_the_whole_path() {
        let p: Vec<&str> = prefixes("a b c").collect();
        assert_eq!(p, ["", "a", "a b", "a b c"]);
        assert_eq!(prefixes("").count(), 1);
    }
}
