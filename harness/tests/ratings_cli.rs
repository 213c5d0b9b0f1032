//! Named players and joint ratings end to end: players named in a match file and on the command
//! line label every CSV and report; a three-player round robin's `ratings.csv` agrees with an
//! independent fit (tests/ratings_reference.py, standard library only) to 0.1 Elo; named players
//! are grid rows too; factorial designs are played, fitted, refitted, sharded and merged; ladders
//! play each rung; and players, designs and ladders that cannot be played are refused before any game.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{csv_rows, harness};
use predicates::str::contains;

const PLAYERS_FILE: &str = r#"
name = "named"
preset = "modern"

[[players]]
name = "modern"

[[players]]
name = "no-singular"
set = { singular = "off" }
"#;

fn column(rows: &[Vec<(String, String)>], name: &str) -> Vec<String> {
    rows.iter()
        .map(|r| r.iter().find(|(k, _)| k == name).unwrap().1.clone())
        .collect()
}

#[test]
fn named_players_label_the_match_and_its_joint_ratings_match_an_independent_fit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("players.toml");
    std::fs::write(&file, PLAYERS_FILE).unwrap();
    let out = dir.path().join("m");
    harness()
        .args(["match", "--grid", file.to_str().unwrap()])
        .args(["--player", "fischerle:preset=fischerle,lmr=off"])
        .args(["--round-robin", "--pairs", "12", "--limit", "nodes=1500"])
        .args(["--threads", "2", "--quiet", "--out", out.to_str().unwrap()])
        .assert()
        .success();
    let pairings = csv_rows(&out.join("pairings.csv"), &[]);
    assert_eq!(
        column(&pairings, "second_name"),
        ["no-singular", "fischerle", "fischerle"]
    );
    let ratings = csv_rows(&out.join("ratings.csv"), &[]);
    let mut names = column(&ratings, "name");
    names.sort();
    assert_eq!(names, ["fischerle", "modern", "no-singular"]);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("## Joint ratings"), "{report}");
    assert!(out.join("ratings.svg").exists() && !out.join("ratings.png").exists());

    let reference = reference_fit(&out.join("games.csv"));
    for row in &ratings {
        let get = |k: &str| row.iter().find(|(c, _)| c == k).unwrap().1.clone();
        let elo: f64 = get("elo").parse().unwrap();
        let expected = reference[&get("id")];
        assert!(
            (elo - expected).abs() < 0.1,
            "{}: harness {elo}, reference {expected}",
            get("id")
        );
        let (lo, hi): (f64, f64) = (
            get("elo_lo").parse().unwrap(),
            get("elo_hi").parse().unwrap(),
        );
        assert!(lo <= elo && elo <= hi, "{row:?}");
    }
}

/// `id → Elo` from the reference script, anchored at `p00`.
fn reference_fit(games: &Path) -> HashMap<String, f64> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ratings_reference.py");
    let out = common::python(&[script.as_ref(), games.as_ref(), "p00".as_ref()], &[]);
    out.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.trim().parse().unwrap()))
        .collect()
}

#[test]
fn named_players_are_grid_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    harness()
        .args([
            "grid",
            "--suite",
            common::tiny().to_str().unwrap(),
            "--depth",
            "2",
        ])
        .args([
            "--player",
            "plain:preset=plain",
            "--player",
            "modern:preset=modern",
        ])
        .args(["--quiet", "--out", out.to_str().unwrap()])
        .assert()
        .success();
    let rows = csv_rows(&out.join("runs.csv"), &[]);
    let players = column(&rows, "player");
    assert!(players.contains(&"plain".to_string()) && players.contains(&"modern".to_string()));
}

#[test]
fn players_that_cannot_be_told_apart_or_built_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let refused = |args: &[&str], expected: &str| refused_match(&out, args, expected);
    refused(
        &["--player", "a:lmr=off", "--player", "a:preset=modern"],
        "two players are named `a`",
    );
    refused(
        &["--player", "a", "--player", "b", "--set", "lmr=on,off"],
        "named players and an axis with 2 values (`lmr`)",
    );
    refused(
        &["--player", "a", "--player", "b:uci.Hash=16"],
        "needs engine=uci:PATH",
    );
    refused(
        &["--player", "a", "--player", "b:singular.margin=x"],
        "player `b`",
    );
    refused(
        &["--player", "a", "--player", "b", "--baseline", "c"],
        "--baseline c is not a player",
    );
}

#[test]
fn a_factorial_fraction_is_played_fitted_and_refitted_from_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f");
    let factors = "lmr,singular,futility,check_extension,countermove";
    harness()
        .args([
            "match",
            "--preset",
            "modern",
            "--factorial",
            factors,
            "--fraction",
            "1",
        ])
        .args(["--pairs", "1", "--limit", "nodes=1500", "--quiet"])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success();
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert_eq!(manifest.matches("\"id\":\"p").count(), 16, "16 points");
    let effects = std::fs::read_to_string(out.join("effects.csv")).unwrap();
    assert_eq!(effects.lines().count(), 1 + 5 + 10, "{effects}");
    assert!(effects.contains("lmr×singular"), "{effects}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("2^(5−1) fraction, 16 points, generators E = ABCD (resolution V)"),
        "{report}"
    );
    // The best combination as data (best.json): what the report's section says.
    let best: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("best.json")).unwrap()).unwrap();
    let inside = &best["in_sample"];
    assert!(
        report.contains(&format!(
            "`{}`, {} Elo",
            inside["combination"].as_str().unwrap(),
            inside["shown"].as_str().unwrap()
        )),
        "{best}"
    );
    // Every point played every other once: 120 pairings, each on its own opening.
    let pairings = csv_rows(&out.join("pairings.csv"), &[]);
    assert_eq!(pairings.len(), 120);
    let mut openings = column(&csv_rows(&out.join("games.csv"), &[]), "opening");
    openings.sort();
    openings.dedup();
    assert_eq!(openings.len(), 120);
    std::fs::remove_file(out.join("effects.csv")).unwrap();
    harness()
        .args(["report", out.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(out.join("effects.csv")).unwrap(),
        effects
    );
    saturated_effects_match_the_reference_fit(&out);
}

/// A 2^(5−1) with its 15 main effects and interactions is saturated (16 points): the model's
/// effects are then the free ratings' contrasts, 2/16 Σₚ xₚ rₚ. With r from the independent fit
/// (tests/ratings_reference.py) they must equal `effects.csv` to 0.1 Elo.
fn saturated_effects_match_the_reference_fit(out: &Path) {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let points = manifest["factorial"]["points"].as_array().unwrap();
    let ids: Vec<&str> = manifest["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let rating = reference_fit(&out.join("games.csv"));
    let level = |p: usize, f: usize| points[p][f].as_f64().unwrap();
    let names: Vec<&str> = manifest["factorial"]["factors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    let k = names.len();
    let mut terms: Vec<(String, Vec<usize>)> =
        (0..k).map(|i| (names[i].to_string(), vec![i])).collect();
    for i in 0..k {
        for j in i + 1..k {
            terms.push((format!("{}×{}", names[i], names[j]), vec![i, j]));
        }
    }
    let rows = csv_rows(&out.join("effects.csv"), &[]);
    assert_eq!(rows.len(), terms.len());
    for row in &rows {
        let get = |c: &str| column(std::slice::from_ref(row), c)[0].clone();
        let (_, term) = terms.iter().find(|(n, _)| *n == get("effect")).unwrap();
        let expected: f64 = (0..ids.len())
            .map(|p| term.iter().map(|&f| level(p, f)).product::<f64>() * rating[ids[p]])
            .sum::<f64>()
            * 2.0
            / ids.len() as f64;
        let elo: f64 = get("elo").parse().unwrap();
        assert!(
            (elo - expected).abs() < 0.1,
            "{row:?}: reference {expected}"
        );
        // One pair per pairing: resampled within pairings the interval would have no width.
        let (lo, hi): (f64, f64) = (
            get("elo_lo").parse().unwrap(),
            get("elo_hi").parse().unwrap(),
        );
        assert!(hi - lo > 1.0, "{row:?}");
    }
}

/// `match ARGS` fails saying `expected` and leaves no run directory.
fn refused_match(out: &Path, args: &[&str], expected: &str) {
    harness()
        .arg("match")
        .args(args)
        .args(["--pairs", "1", "--out", out.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(contains(expected));
    assert!(!out.exists(), "{args:?} started a run");
}

#[test]
fn designs_that_cannot_be_played_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let refused = |args: &[&str], expected: &str| {
        refused_match(&out, &[&["--preset", "modern"], args].concat(), expected)
    };
    refused(&["--factorial", "lmr"], "at least two factors");
    refused(
        &["--factorial", "lmr,singular,futility", "--fraction", "1"],
        "no fraction 2^(3−1)",
    );
    refused(&["--factorial", "lmr,aspiration.window"], "not a switch");
    refused(
        &["--factorial", "lmr,singular", "--set", "see=true,false"],
        "give each --set one value",
    );
    refused(
        &["--factorial", "lmr,singular", "--player", "a"],
        "give no named players",
    );
}

#[test]
fn a_ladder_plays_each_rung_and_sets_the_effects_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("l");
    let run = |extra: &[&str]| {
        harness()
            .args(["match", "--quiet", "--threads", "2"])
            .args(extra)
            .assert()
            .success();
    };
    run(&[
        "--preset",
        "modern",
        "--factorial",
        "lmr,singular",
        "--pairs",
        "2",
        "--ladder",
        "nodes=800,1600",
        "--out",
        out.to_str().unwrap(),
    ]);
    let ladder = csv_rows(&out.join("ladder.csv"), &[]);
    assert_eq!(ladder.len(), 3 * 2, "3 effects × 2 rungs");
    let rungs = column(&ladder, "rung");
    assert_eq!(rungs.iter().filter(|r| *r == "nodes=800").count(), 3);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| lmr×singular"), "{report}");
    // One Holm family: 3 effects at each of 2 rungs and 3 trends; the rungs name their own.
    assert!(
        report.contains("the 9 tests of this ladder — the 6 effects of its 2 rungs"),
        "{report}"
    );
    let adjusted = column(&ladder, "p_holm");
    assert!(
        adjusted.iter().all(|p| p.parse::<f64>().is_ok()),
        "{adjusted:?}"
    );
    let rung = std::fs::read_to_string(out.join("nodes-800/report.md")).unwrap();
    assert!(
        rung.contains("the 3 effects of this design: the family is this table (this rung alone")
    );
    assert!(rung.contains("### The best combination") && rung.contains("in-sample, biased upward"));
    let games = std::fs::read_to_string(out.join("nodes-1600/games.csv")).unwrap();
    assert_eq!(
        games.lines().count(),
        1 + 6 * 2 * 2,
        "6 pairings × 2 pairs × 2 games"
    );
    // A resume of a finished ladder plays nothing more and changes no game.
    run(&["--resume", out.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_to_string(out.join("nodes-1600/games.csv")).unwrap(),
        games
    );
    let fresh = std::fs::read_to_string(out.join("ladder.csv")).unwrap();
    harness()
        .args(["report", out.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(out.join("ladder.csv")).unwrap(),
        fresh
    );
}

#[test]
fn ladders_that_cannot_be_compared_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let refused = |args: &[&str], expected: &str| {
        refused_match(&out, &[&["--preset", "modern"], args].concat(), expected)
    };
    let design = ["--factorial", "lmr,singular"];
    refused(
        &[&design[..], &["--ladder", "nodes=1000"]].concat(),
        "two rungs",
    );
    refused(
        &[
            &design[..],
            &["--ladder", "nodes=1000,2000", "--limit", "nodes=5"],
        ]
        .concat(),
        "give no --limit",
    );
    refused(
        &["--set", "lmr=on,off", "--ladder", "nodes=1000,2000"],
        "three or more players",
    );
}

#[test]
fn a_design_played_in_shards_merges_into_the_same_effects() {
    let dir = tempfile::tempdir().unwrap();
    let design = [
        "--preset",
        "modern",
        "--factorial",
        "lmr,singular",
        "--pairs",
        "3",
    ];
    let play = |out: &Path, shard: Option<&str>| {
        let mut cmd = harness();
        cmd.arg("match")
            .args(design)
            .args(["--limit", "nodes=800", "--quiet"]);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        cmd.arg("--out").arg(out).assert().success();
    };
    let (whole, a, b, merged) = (
        dir.path().join("whole"),
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("merged"),
    );
    play(&whole, None);
    play(&a, Some("0/2"));
    play(&b, Some("1/2"));
    harness()
        .arg("merge")
        .args([&a, &b])
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    for file in ["effects.csv", "ratings.csv"] {
        assert_eq!(
            std::fs::read_to_string(merged.join(file)).unwrap(),
            std::fs::read_to_string(whole.join(file)).unwrap(),
            "{file}"
        );
    }
}
