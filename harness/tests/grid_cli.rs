//! End-to-end tests of `harness grid` on the tiny suite.

mod common;

use common::{csv_rows, harness, tiny};
use predicates::prelude::*;
use predicates::str::contains;

const TIMES: &[&str] = &["time_ms", "cpu_ms", "time_to_solution_ms"];

#[test]
fn a_two_axis_grid_writes_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args([
            "--set",
            "selective.candidate_limit=2,3",
            "--set",
            "see=true,false",
            "--depth",
            "3",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("c03"));
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert_eq!(runs.len(), 4 * 6);
    let header: Vec<&str> = runs[0].iter().map(|(h, _)| h.as_str()).collect();
    for column in [
        "config_id",
        "selective.candidate_limit",
        "see",
        "suite",
        "position_id",
        "solved",
        "nodes",
        "nodes_to_solution",
        "ebf",
        "censored",
        "legal_moves_4",
    ] {
        assert!(header.contains(&column), "runs.csv lacks {column}");
    }
    let solved = runs
        .iter()
        .filter(|r| r.iter().any(|(h, v)| h == "solved" && v == "true"))
        .count();
    assert!(solved >= 16, "only {solved} of 24 solved");
    let iterations = csv_rows(&out.join("iterations.csv"), &[]);
    assert!(iterations.len() >= 24 * 2);
    assert!(iterations
        .iter()
        .any(|r| r.iter().any(|(h, v)| h == "ebf2" && !v.is_empty())));
    assert_eq!(csv_rows(&out.join("summary.csv"), &[]).len(), 4);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["configs"].as_array().unwrap().len(), 4);
    assert_eq!(manifest["suites"][0]["positions"], 6);
    assert!(manifest["suites"][0]["sha256"].as_str().unwrap().len() == 64);
    assert!(manifest["bench_signature"].as_u64().unwrap() > 0);
}

#[test]
fn node_counts_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(threads);
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args([
                "--set",
                "ordering=fischerle,mvv_lva",
                "--depth",
                "4",
                "--quiet",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        rows.push(csv_rows(&out.join("runs.csv"), TIMES));
    }
    assert_eq!(rows[0], rows[1]);
}

#[test]
fn dry_run_prints_the_plan_and_searches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args([
            "--set",
            "selective.candidate_limit=2,3,4",
            "--depth",
            "5",
            "--dry-run",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(
            contains("configs     3")
                .and(contains("jobs        18"))
                .and(contains("\"depth\":5")),
        );
    assert!(!out.exists());
}

#[test]
fn bad_grids_fail_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    for set in [
        "selective.candidate_limt=3",
        "see=perhaps",
        "see=",
        "nokeyvalue",
    ] {
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args(["--set", set, "--out"])
            .arg(&out)
            .assert()
            .code(1)
            .stderr(contains("error:"));
    }
    // An unknown preset is a usage error: clap names it and lists the presets.
    harness()
        .args(["grid", "--preset", "nosuch", "--suite"])
        .arg(tiny())
        .assert()
        .code(2)
        .stderr(contains("nosuch").and(contains("swift, nnue")));
    harness()
        .args(["grid", "--depth", "3", "--nodes", "5"])
        .assert()
        .code(2);
    // Values of the right type that would break a search later are refused up front.
    for (args, message) in [
        (vec!["--set", "null_move.base=-1"], "expected 0 or more"),
        (vec!["--set", "tt.size_mb=100000"], "expected 1 to 65536"),
        (
            vec!["--nodes", "0"],
            "--nodes and --node-cap must be at least 1",
        ),
        (
            vec!["--node-cap", "0"],
            "--nodes and --node-cap must be at least 1",
        ),
    ] {
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(1)
            .stderr(contains(message));
    }
    assert!(!out.exists());
}

#[test]
fn malformed_epd_lines_are_named_and_the_rest_runs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("mixed.epd");
    let good = std::fs::read_to_string(tiny()).unwrap();
    let first_two: Vec<&str> = good.lines().take(2).collect();
    std::fs::write(
        &suite,
        format!(
            "{}\nthis is not a position\n{}\n4k3/8/8/8/8/8/8/4K3 w - - bm Qh5;\n",
            first_two[0], first_two[1]
        ),
    )
    .unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--depth", "2", "--quiet", "--suite"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(
            contains("mixed.epd:2:")
                .and(contains("mixed.epd:4:"))
                .and(contains("Qh5")),
        );
    assert_eq!(csv_rows(&out.join("runs.csv"), &[]).len(), 2);
    harness()
        .args(["suite", "check"])
        .arg(&suite)
        .assert()
        .code(3)
        .stdout(contains("2 positions"));
}

#[test]
fn an_existing_run_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = || {
        let mut c = harness();
        c.args(["grid", "--depth", "1", "--quiet", "--suite"])
            .arg(tiny())
            .arg("--out")
            .arg(&out);
        c
    };
    run().assert().success();
    run().assert().code(1).stderr(contains("--resume"));
}

#[test]
fn node_cap_marks_censored_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args([
            "grid",
            "--depth",
            "12",
            "--node-cap",
            "3000",
            "--quiet",
            "--suite",
        ])
        .arg(tiny())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    let censored = runs
        .iter()
        .filter(|r| r.iter().any(|(h, v)| h == "censored" && v == "true"))
        .count();
    assert!(censored >= 4, "{censored}");
}

#[test]
fn early_stop_after_the_answer_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (full, early) = (dir.path().join("full"), dir.path().join("early"));
    let mut cmd = harness();
    cmd.args(["grid", "--depth", "6", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--out")
        .arg(&full)
        .assert()
        .success();
    let mut cmd = harness();
    cmd.args([
        "grid",
        "--depth",
        "6",
        "--solved-for",
        "2",
        "--min-depth",
        "3",
        "--quiet",
        "--suite",
    ])
    .arg(tiny())
    .arg("--out")
    .arg(&early)
    .assert()
    .success();
    let nodes = |dir: &std::path::Path| -> u64 {
        csv_rows(&dir.join("runs.csv"), &[])
            .iter()
            .map(|r| {
                r.iter()
                    .find(|(h, _)| h == "nodes")
                    .unwrap()
                    .1
                    .parse::<u64>()
                    .unwrap()
            })
            .sum()
    };
    assert!(nodes(&early) < nodes(&full));
}

#[test]
fn config_prints_a_preset_as_toml() {
    harness()
        .args(["config", "plain"])
        .assert()
        .success()
        .stdout(contains("ordering = \"mvv_lva\""));
}

#[test]
fn a_grid_file_names_its_limit_and_the_command_line_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("g.toml");
    std::fs::write(
        &grid,
        "name = \"g\"\nmovetime = 50\n[axes]\nsee = [true, false]\n",
    )
    .unwrap();
    let plan = |extra: &[&str]| {
        let out = harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .arg("--grid")
            .arg(&grid)
            .args(extra)
            .arg("--dry-run")
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert!(plan(&[]).contains(r#""depth":null,"nodes":null,"movetime_ms":50"#));
    assert!(plan(&["--depth", "3"]).contains(r#""depth":3,"nodes":null,"movetime_ms":null"#));
}

#[test]
fn perft_reports_every_bad_count_and_refuses_a_file_without_counts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.epd");
    std::fs::write(
        &file,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 lots\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 21 ;D2 400\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400\n",
    )
    .unwrap();
    let p = file.display().to_string();
    harness()
        .args(["perft", "--depth", "2", &p])
        .assert()
        .code(3)
        .stderr(contains(format!(
            "{p}:1: D2: expected a node count, found `lots`"
        )))
        .stderr(contains(format!("{p}:2:")))
        .stdout(contains("5 counts checked, 2 problems"));
    let empty = dir.path().join("e.epd");
    std::fs::write(&empty, "8/8/8/8/8/8/k7/K6R w - -\n").unwrap();
    harness()
        .args(["perft"])
        .arg(&empty)
        .assert()
        .code(1)
        .stderr(contains("no `D1` … `D4` count to check"));
}

#[test]
fn suites_that_would_share_job_keys_are_refused_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for sub in [&a, &b] {
        std::fs::create_dir(sub).unwrap();
        std::fs::copy(tiny(), sub.join("s.epd")).unwrap();
    }
    harness()
        .args(["grid", "--depth", "1", "--quiet", "--suite"])
        .arg(a.join("s.epd"))
        .arg("--suite")
        .arg(b.join("s.epd"))
        .arg("--out")
        .arg(dir.path().join("run"))
        .assert()
        .failure()
        .stderr(contains("two suites are both labelled `s.epd`"));
    assert!(!dir.path().join("run").exists(), "nothing was started");
    harness()
        .args(["grid", "--depth", "1", "--dry-run", "--suite"])
        .arg(tiny())
        .arg("--suite")
        .arg(tiny())
        .assert()
        .failure()
        .stderr(contains("both labelled `tiny.epd`"));
}

/// STS-style partial credit (`c7` moves, `c8` points) reaches `runs.csv`, `summary.csv` and the
/// report; positions without credit leave the columns empty.
#[test]
fn partial_credit_is_scored_as_sts_users_score_it() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("credit.epd");
    // Mate in one (10 points) or the rook check that only drives the king back (4); a second
    // position where the engine's move is not listed (0 of 10); a third without credit.
    std::fs::write(
        &suite,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate\"; c7 \"Ra8# h3\"; c8 \"10 4\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"unlisted\"; c7 \"h3 g3\"; c8 \"10 7\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"plain\";\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--suite"])
        .arg(&suite)
        .args(["--depth", "2", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let runs = csv_rows(&out.join("runs.csv"), TIMES);
    let cell = |row: usize, key: &str| runs[row].iter().find(|(k, _)| k == key).unwrap().1.clone();
    let mut points: Vec<(String, String, String)> = (0..3)
        .map(|r| {
            (
                cell(r, "position_id"),
                cell(r, "points"),
                cell(r, "max_points"),
            )
        })
        .collect();
    points.sort();
    assert_eq!(
        points,
        [
            ("mate".into(), "10".into(), "10".into()),
            ("plain".into(), String::new(), String::new()),
            ("unlisted".into(), "0".into(), "10".into()),
        ]
    );
    let summary = csv_rows(&out.join("summary.csv"), &[]);
    let get = |key: &str| summary[0].iter().find(|(k, _)| k == key).unwrap().1.clone();
    assert_eq!(
        (get("points"), get("max_points")),
        ("10.0".into(), "20.0".into())
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("| c00 | c00 | 10 | 20 | 50.0 % |"),
        "{report}"
    );
}

/// `--mate`: where a position states a mate length, solved means a mate that short with a legal
/// PV ending in mate (matetrack), whatever its `bm` says; other positions keep the bm rule.
#[test]
fn mate_mode_judges_stated_mates_by_the_mate_found() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("mates.epd");
    // `bm h3` is wrong on purpose: only the mate rule sees that Ra8# solves it.
    std::fs::write(
        &suite,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm h3; dm 1; id \"stated\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"unstated\";\n",
    )
    .unwrap();
    let solved = |mate: bool| {
        let out = dir.path().join(format!("run-{mate}"));
        let mut cmd = harness();
        cmd.args(["grid", "--suite"]).arg(&suite);
        if mate {
            cmd.arg("--mate");
        }
        cmd.args(["--depth", "3", "--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        let mut rows: Vec<(String, String)> = csv_rows(&out.join("runs.csv"), TIMES)
            .iter()
            .map(|row| {
                let get = |k: &str| row.iter().find(|(h, _)| h == k).unwrap().1.clone();
                (get("position_id"), get("solved"))
            })
            .collect();
        rows.sort();
        let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
        (rows, manifest.contains("\"mate\":true"))
    };
    let yes = |id: &str| (id.to_string(), "true".to_string());
    let no = |id: &str| (id.to_string(), "false".to_string());
    assert_eq!(solved(false), (vec![no("stated"), yes("unstated")], false));
    assert_eq!(solved(true), (vec![yes("stated"), yes("unstated")], true));
}

#[test]
fn minimal_tree_columns_hold_the_engines_measurement() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args(["--set", "preset=fischerle,modern", "--depth", "3"])
        .args(["--minimal-tree", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert_eq!(runs.len(), 2 * 6);
    for row in &runs {
        let get = |name: &str| row.iter().find(|(h, _)| h == name).unwrap().1.clone();
        let config = match get("preset").as_str() {
            "fischerle" => engine::SearchConfig::fischerle(),
            _ => engine::SearchConfig::modern(),
        };
        let position = engine::Position::from_fen(&get("fen")).unwrap();
        let (_, minimal) = engine::search::record::measure_minimal_tree(&config, &position, 3);
        let (main, qs) = minimal.nodes();
        assert_eq!(get("minimal_main"), main.to_string(), "{row:?}");
        assert_eq!(get("minimal_qs"), qs.to_string(), "{row:?}");
        assert!(get("over_minimal_main").parse::<f64>().unwrap() > 0.0);
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("## The measured minimal tree"), "{report}");
}

#[test]
fn minimal_tree_needs_a_fixed_depth() {
    for limit in [
        &["--nodes", "1000"][..],
        &["--depth", "3", "--solved-for", "1"],
    ] {
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args(limit)
            .args(["--minimal-tree", "--quiet", "--dry-run"])
            .assert()
            .failure()
            .stderr(contains("--minimal-tree measures a fixed-depth search"));
    }
}

#[test]
fn a_run_whose_every_search_was_censored_still_reports() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args([
            "grid",
            "--node-cap",
            "1",
            "--depth",
            "3",
            "--quiet",
            "--suite",
        ])
        .arg(tiny())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| c00 |"), "{report}");
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert!(runs
        .iter()
        .all(|r| r.iter().any(|(h, v)| h == "censored" && v == "true")));
}

#[test]
fn a_directory_that_is_not_a_run_is_never_written_into() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("report.md"), "my own notes\n").unwrap();
    harness()
        .args(["grid", "--depth", "1", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains("is not empty and is not a run directory").and(contains("report.md")));
    assert_eq!(
        std::fs::read_to_string(out.join("report.md")).unwrap(),
        "my own notes\n"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn settings_that_would_repeat_or_drop_a_configuration_are_refused() {
    let refused = |args: &[&str], message: &str| {
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args(args)
            .arg("--dry-run")
            .assert()
            .code(predicate::in_iter([1, 2]))
            .stderr(contains(message));
    };
    refused(&["--set", "see=true,true"], "lists `true` twice");
    refused(
        &["--set", "see=true,false", "--set", "see=false"],
        "is given twice",
    );
    refused(&["--depth", "-3"], "a depth must be 1 or more, found -3");
    refused(&["--depth", "0"], "a depth must be 1 or more, found 0");
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("both.toml");
    std::fs::write(&grid, "name = \"both\"\ndepth = 3\nnodes = 1000\n").unwrap();
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .arg("--grid")
        .arg(&grid)
        .arg("--dry-run")
        .assert()
        .code(1)
        .stderr(contains("depth and nodes"));
}
