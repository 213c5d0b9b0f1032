//! Two runs of the same grid, compared configuration by configuration and position by position
//! (before and after an engine change). Differences in what was run are listed, never ignored.

use serde_json::Value;

use super::data::RunDir;
use super::format::{estimate, opt};
use super::md_table::{Align, MdTable};
use super::paired::{self, Paired};

/// `harness compare --out DIR`'s report.
pub const COMPARE_MD: &str = "compare.md";
/// Its tables as data.
pub const COMPARE_JSON: &str = "compare.json";

/// The comparison of `after` against `before`.
#[derive(Debug)]
pub struct Comparison {
    /// What differs between the two plans (configurations, suites, limits).
    pub mismatches: Vec<String>,
    /// Configuration ids present in both, with their paired statistics.
    pub paired: Vec<(String, Paired)>,
}

/// Compares two runs.
pub fn compare(before: &RunDir, after: &RunDir) -> Comparison {
    let mut mismatches = plan_mismatches(before, after);
    let after_ids = after.config_ids();
    let mut paired_rows = Vec::new();
    for id in before
        .config_ids()
        .into_iter()
        .filter(|id| after_ids.contains(id))
    {
        let p = paired::compare(before.runs_of(&id), after.runs_of(&id));
        let extra = after.runs_of(&id).count() - p.pairs.len();
        if p.unmatched > 0 || extra > 0 {
            mismatches.push(format!(
                "{id}: {} positions only in the first run, {extra} only in the second",
                p.unmatched
            ));
        }
        paired_rows.push((id, p));
    }
    Comparison {
        mismatches,
        paired: paired_rows,
    }
}

fn plan_mismatches(before: &RunDir, after: &RunDir) -> Vec<String> {
    let (a, b) = (&before.manifest, &after.manifest);
    let mut out = Vec::new();
    for ca in &a.configs {
        match b.configs.iter().find(|cb| cb.id == ca.id) {
            None => out.push(format!("configuration {} only in the first run", ca.id)),
            Some(cb) => out.extend(
                json_diff("", &ca.normalised_config(), &cb.normalised_config())
                    .into_iter()
                    .map(|d| format!("configuration {}: {d}", ca.id)),
            ),
        }
    }
    for cb in b
        .configs
        .iter()
        .filter(|cb| a.configs.iter().all(|ca| ca.id != cb.id))
    {
        out.push(format!("configuration {} only in the second run", cb.id));
    }
    for sa in &a.suites {
        match b.suites.iter().find(|sb| sb.label == sa.label) {
            None => out.push(format!("suite {} only in the first run", sa.label)),
            Some(sb) if sb.sha256 != sa.sha256 => out.push(format!(
                "suite {}: sha256 {} in the first run, {} in the second (different positions)",
                sa.label, sa.sha256, sb.sha256
            )),
            Some(_) => {}
        }
    }
    for sb in b
        .suites
        .iter()
        .filter(|sb| a.suites.iter().all(|sa| sa.label != sb.label))
    {
        out.push(format!("suite {} only in the second run", sb.label));
    }
    out.extend(json_diff("limits", &a.limits, &b.limits));
    out
}

/// Dotted keys whose values differ between two JSON values, as `key: A vs B`.
fn json_diff(prefix: &str, a: &Value, b: &Value) -> Vec<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.dedup();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .flat_map(|k| {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    json_diff(
                        &key,
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                    )
                })
                .collect()
        }
        _ if a == b => Vec::new(),
        _ => vec![format!("{prefix}: {a} vs {b}")],
    }
}

/// The comparison as Markdown.
pub fn render(before: &RunDir, after: &RunDir, c: &Comparison) -> String {
    let mut md = String::new();
    let commit = |r: &RunDir| {
        r.manifest
            .provenance
            .git_commit
            .clone()
            .unwrap_or_else(|| "unknown".into())
    };
    md.push_str("# Comparison\n\n");
    for (role, run) in [("first (baseline)", before), ("second", after)] {
        md.push_str(&format!(
            "- {role}: `{}`, commit {}, bench {}\n",
            run.dir.display(),
            commit(run),
            run.manifest.provenance.bench_signature
        ));
    }
    md.push('\n');
    if c.mismatches.is_empty() {
        md.push_str("Same configurations, suites (by SHA-256) and limits.\n\n");
    } else {
        md.push_str("## Mismatches\n\n");
        for m in &c.mismatches {
            md.push_str(&format!("- {m}\n"));
        }
        md.push('\n');
    }
    md.push_str("## Paired by position\n\n");
    md.push_str("Node ratio = second / first, paired by position; 95 % bootstrap interval of the geometric mean; \
        gained / lost = solved only by the second / only by the first; exact McNemar p.\n\n");
    let mut table = MdTable::new()
        .left("config")
        .left("values")
        .right("pairs")
        .left("geomean ratio [95 % CI]")
        .columns(
            [
                "median ratio",
                "faster",
                "slower",
                "≥×2",
                "≥×10",
                "solved first",
                "solved second",
                "gained",
                "lost",
                "McNemar p",
            ],
            Align::Right,
        );
    for (id, p) in &c.paired {
        let solved = |second: bool| {
            p.pairs
                .iter()
                .filter(|x| if second { x.solved } else { x.base_solved })
                .count()
                .to_string()
        };
        table.row([
            id.clone(),
            before.label(id),
            p.pairs.len().to_string(),
            estimate(p.geomean_ratio),
            opt(p.median_ratio, 3),
            p.faster.to_string(),
            p.slower.to_string(),
            p.at_least(2.0).to_string(),
            p.at_least(10.0).to_string(),
            solved(false),
            solved(true),
            p.gained.to_string(),
            p.lost.to_string(),
            format!("{:.3}", p.mcnemar_p),
        ]);
    }
    md.push_str(&table.render());
    md
}
