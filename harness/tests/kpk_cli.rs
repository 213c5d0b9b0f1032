//! `harness kpk check`: the rules and the search against every KPK position.

mod common;

use common::harness;

fn cell(line: &str, k: usize) -> &str {
    line.split('|').nth(k).unwrap().trim()
}

#[test]
fn rules_and_searches_are_checked_against_every_position() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kpk");
    let assert = harness()
        .args([
            "kpk",
            "check",
            "--preset",
            "fischerle",
            "--set",
            "kpk.square=false,true",
            "--depth",
            "1",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let report = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    // The rules are pure functions of the position, so their records are exact.
    assert!(
        report.contains("| rook_pawn | 3542 | 3768 | 0 | — |"),
        "{report}"
    );
    assert!(
        report.contains("| square | 99492 | 73634 | 1208 |"),
        "{report}"
    );
    assert!(
        report.contains("| key_squares | 6850 | 6424 | 4 |"),
        "{report}"
    );
    // A stalemate the rule of the square does not know: Black's king is boxed in at a1.
    assert!(
        report.contains("`8/8/8/8/8/8/P7/k1K5 b - - 0 1` says Win, is draw"),
        "{report}"
    );
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("| c0") && l.contains("of 331352"))
        .collect();
    assert_eq!(rows.len(), 2, "{report}");
    let wins_missed = |row: &str| -> usize {
        cell(row, 4)
            .split(" / ")
            .map(|n| n.parse::<usize>().unwrap())
            .sum()
    };
    // With the rule of the square the depth-1 search recognises far more won positions.
    assert!(wins_missed(rows[1]) * 2 < wins_missed(rows[0]), "{rows:?}");
    let csv = std::fs::read_to_string(out.join("positions.csv")).unwrap();
    assert_eq!(csv.lines().count(), 331_352 + 1);
    assert!(csv.starts_with("fen,value,c00_d1_score,c00_d1_move,c00_d1_right,c01_d1_score"));
}

/// `harness kpk validate` on a sample: every rule claim the table shows wrong is flagged, and the
/// rows, the report and the comparison are all there.
#[test]
fn the_1989_validation_flags_every_wrong_claim_of_a_sample() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("validate");
    let assert = harness()
        .args([
            "kpk",
            "validate",
            "--every",
            "25",
            "--compare-every",
            "2000",
        ])
        .args(["--compare-depth", "1", "--compare-depth", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let report = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    for section in [
        "## Support cycles",
        "## Meta-check",
        "## What intervals buy",
    ] {
        assert!(report.contains(section), "{report}");
    }
    let rows = common::csv_rows(&out.join("validation.csv"), &[]);
    // Every 25th of the 331 352 legal positions.
    assert_eq!(rows.len(), 13_255);
    let get = |row: &Vec<(String, String)>, key: &str| {
        row.iter().find(|(k, _)| k == key).unwrap().1.clone()
    };
    let flagged = ["contradicted", "better_move", "move_fails", "unfounded"];
    let mut wrong = 0;
    for row in &rows {
        let claim = get(row, "claim");
        if !claim.is_empty() && claim != get(row, "truth") {
            wrong += 1;
            assert!(flagged.contains(&get(row, "outcome").as_str()), "{row:?}");
        }
        // The support column counts the positions listed beside it.
        let fens = get(row, "support_fens");
        let listed = if fens.is_empty() {
            0
        } else {
            fens.split(';').count()
        };
        assert_eq!(
            get(row, "support"),
            if get(row, "support").is_empty() {
                String::new()
            } else {
                listed.to_string()
            }
        );
        // A position no rule decides, once searched to a point, has its true value.
        if get(row, "outcome") == "searched" {
            assert_eq!(get(row, "found"), get(row, "truth"), "{row:?}");
        }
    }
    assert!(
        wrong > 0,
        "the sample holds some of the square rule's exceptions"
    );
    let pairs = common::csv_rows(&out.join("comparison.csv"), &[]);
    assert_eq!(pairs.len(), 2 * 166);
}
