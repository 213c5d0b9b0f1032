//! Joint ratings with openings as clusters, against the study's own script: the committed gauntlet
//! of results/strength (gated against three engines, pair i of every pairing on opening i) is
//! reported again, and its `ratings.csv` — both draw models, intervals from resampling the
//! openings — must agree with `scripts/strength_gauntlet.py` (numpy), an independent fit and an
//! independent bootstrap of the same clusters: the point estimates to the script's rounding, the
//! interval ends to within a fifth of the interval's width (the two bootstraps draw different
//! random openings).

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{csv_rows, harness};

const RUN: &str = "results/strength/gauntlet-gated";

/// `name → [Davidson (elo, lo, hi), draws as half (elo, lo, hi)]` from the script's table.
fn script_table(run: &Path, anchor: &str) -> HashMap<String, [[f64; 3]; 2]> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let script = root.join("scripts/strength_gauntlet.py");
    let out = common::python(
        &[
            script.as_ref(),
            "--anchor".as_ref(),
            anchor.as_ref(),
            run.as_ref(),
        ],
        &[],
    );
    let number = |s: &str| -> f64 { s.trim().trim_start_matches('+').parse().unwrap() };
    let cell = |c: &str| -> [f64; 3] {
        let (elo, rest) = c.trim().split_once(" [").unwrap();
        let (lo, hi) = rest.trim_end_matches(']').split_once(", ").unwrap();
        [number(elo), number(lo), number(hi)]
    };
    out.lines()
        .filter(|l| l.starts_with("| ") && l.contains(" ["))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), [cell(cells[4]), cell(cells[5])])
        })
        .collect()
}

#[test]
fn openings_as_clusters_agree_with_the_study_script_on_a_committed_gauntlet() {
    let test = "openings_as_clusters_agree_with_the_study_script_on_a_committed_gauntlet";
    if !common::tools_available(test, common::python_has("numpy"), "python3 with numpy") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("gauntlet");
    std::fs::create_dir(&run).unwrap();
    for file in ["manifest.json", "games.csv.gz"] {
        std::fs::copy(root.join(RUN).join(file), run.join(file)).unwrap();
    }
    harness()
        .args(["report", run.to_str().unwrap()])
        .assert()
        .success();
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        report.contains("bootstrap resamples of the 100 openings"),
        "{report}"
    );
    let script = script_table(&run, "gated");
    let rows = csv_rows(&run.join("ratings.csv"), &[]);
    assert_eq!(rows.len(), script.len());
    for row in &rows {
        let get = |k: &str| -> f64 { row.iter().find(|(c, _)| c == k).unwrap().1.parse().unwrap() };
        let name = &row.iter().find(|(c, _)| c == "name").unwrap().1;
        let models = [
            ["elo", "elo_lo", "elo_hi"],
            ["half_elo", "half_elo_lo", "half_elo_hi"],
        ];
        for (columns, expected) in models.iter().zip(&script[name]) {
            let [elo, lo, hi] = columns.map(get);
            let [e_elo, e_lo, e_hi] = *expected;
            // The script prints whole Elo.
            assert!(
                (elo - e_elo).abs() <= 0.51,
                "{name} {columns:?}: {elo} against {e_elo}"
            );
            let slack = 0.2 * (hi - lo) + 1.0;
            assert!(
                (lo - e_lo).abs() <= slack && (hi - e_hi).abs() <= slack,
                "{name} {columns:?}: [{lo}, {hi}] against [{e_lo}, {e_hi}]"
            );
        }
    }
}
