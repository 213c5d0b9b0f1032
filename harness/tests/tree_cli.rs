//! `harness tree` end to end: a blowup position recorded to its files, and every bad input
//! refused before a search, saying what was expected.

mod common;

use std::path::{Path, PathBuf};

use common::harness;
use predicates::str::contains;

fn blowup_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/blowup.epd")
}

#[test]
fn a_blowup_position_is_recorded_with_its_table_summary_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tree");
    harness()
        .args(["tree", "--suite"])
        .arg(blowup_suite())
        .args(["--id", "blowup.001", "--set", "selective.candidate_limit=4"])
        .args(["--depth", "4", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("nodes recorded of"));
    for file in ["tree.arrow", "tree.md", "tree.json", "manifest.json"] {
        assert!(out.join(file).exists(), "{file}");
    }
    // tree.json holds tree.md's tables as data: the shares under each step among them.
    let tables: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tree.json")).unwrap()).unwrap();
    let steps = tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["section"] == "Nodes under each step")
        .expect("the steps' table");
    assert!(steps["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r[0] == "a dynamic level (selective deepening)"));
    let md = std::fs::read_to_string(out.join("tree.md")).unwrap();
    assert!(
        md.contains("`fischerle selective.candidate_limit=4`"),
        "{md}"
    );
    assert!(md.contains("dynamic level (selective deepening)"), "{md}");
    // A whole depth-limited tree is measured against its minimal tree.
    assert!(
        md.contains("## Minimal tree (Knuth–Moore), measured"),
        "{md}"
    );
    assert!(md.contains("the minimal tree (main search"), "{md}");
    // The same directory again is refused: a tree is never overwritten.
    harness()
        .args([
            "tree",
            "--fen",
            "8/8/8/8/8/8/8/K1k5 w - -",
            "--depth",
            "2",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains("already holds a tree"));
}

#[test]
fn bad_input_is_refused_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases: [(Vec<String>, &str); 6] = [
        (
            vec![
                "--suite".into(),
                blowup_suite().display().to_string(),
                "--id".into(),
                "nope".into(),
            ],
            "has no position with id `nope`",
        ),
        (vec!["--fen".into(), "8/8/8 w - -".into()], "invalid FEN"),
        (
            vec![
                "--fen".into(),
                start.into(),
                "--depth".into(),
                "6".into(),
                "--max-nodes".into(),
                "1000".into(),
            ],
            "more than --max-nodes 1000",
        ),
        (
            vec![
                "--fen".into(),
                start.into(),
                "--under".into(),
                "e2e4,e2e5".into(),
            ],
            "`e2e5` is not a legal move after `e2e4`",
        ),
        (
            vec![
                "--fen".into(),
                start.into(),
                "--set".into(),
                "see=false,true".into(),
            ],
            "give one value",
        ),
        (
            vec![
                "--fen".into(),
                start.into(),
                "--set".into(),
                "lmr.bogus=1".into(),
            ],
            "lmr.bogus",
        ),
    ];
    for (args, expected) in cases {
        harness()
            .arg("tree")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(1)
            .stderr(contains(expected));
    }
    assert!(!out.exists(), "nothing written for a refused tree");
}

#[test]
fn truncate_keeps_the_first_nodes_of_a_larger_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    harness()
        .args([
            "tree",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ])
        .args([
            "--depth",
            "5",
            "--iteration",
            "all",
            "--max-nodes",
            "500",
            "--truncate",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("500 nodes recorded"));
    let md = std::fs::read_to_string(out.join("tree.md")).unwrap();
    assert!(md.contains("the recording stopped at --max-nodes"), "{md}");
}

#[test]
fn a_diff_finds_where_a_blowup_grows_and_what_decided_it() {
    let dir = tempfile::tempdir().unwrap();
    let record = |limit: &str, name: &str| {
        let out = dir.path().join(name);
        harness()
            .args(["tree", "--suite"])
            .arg(blowup_suite())
            .args(["--id", "blowup.001", "--depth", "5", "--set"])
            .arg(format!("selective.candidate_limit={limit}"))
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        out
    };
    let (three, four) = (record("3", "three"), record("4", "four"));
    let out = dir.path().join("diff");
    harness()
        .args(["tree", "diff"])
        .args([&three, &four])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(out.join("diff.md")).unwrap();
    // At the root, four legal moves are within limit 4 and not within 3: a dynamic level.
    assert!(
        md.contains("4 legal moves ≤ candidate limit 4: dynamic level granted"),
        "{md}"
    );
    assert!(std::fs::read_to_string(out.join("diff.csv"))
        .unwrap()
        .starts_with("path,plies,before,after"));
    // diff.json: the same figures as data — the root's nodes and what decided it there.
    let diff: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("diff.json")).unwrap()).unwrap();
    let root = &diff["growth_line"][0];
    assert_eq!(root["path"], "");
    assert_eq!(root["share"], 100.0);
    assert_eq!(root["before"], diff["before"]["nodes"]);
    assert_eq!(root["after"], diff["after"]["nodes"]);
    assert!(
        md.contains(&format!("{} nodes", diff["after"]["nodes"])),
        "{md}"
    );
    assert_eq!(diff["decided"]["path"], "");
    assert!(diff["decided"]["after"]["actions"]
        .as_str()
        .unwrap()
        .contains("4 legal moves ≤ candidate limit 4: dynamic level granted"));
    // A recording of another position is refused, naming what differs.
    let other = dir.path().join("other");
    harness()
        .args([
            "tree",
            "--fen",
            "8/8/8/8/8/8/8/K1k5 w - -",
            "--depth",
            "5",
            "--out",
        ])
        .arg(&other)
        .assert()
        .success();
    harness()
        .args(["tree", "diff"])
        .args([&three, &other])
        .assert()
        .code(1)
        .stderr(contains("positions: "));
}
