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
