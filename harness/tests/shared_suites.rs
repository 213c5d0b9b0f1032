//! Tests on the public suites in `../shared/suites` (or `$FISCHERLE_SUITES`). Where they are not on
//! the machine these tests print that they were not run; `.ci/run` requires them.

mod common;

use common::{harness, shared_suites, tiny};
use predicates::str::contains;

#[test]
fn suite_position_counts_are_pinned() {
    let Some(dir) = shared_suites("suite_position_counts_are_pinned") else {
        return;
    };
    for (file, count) in [
        ("wac.epd", 300),
        ("bk.epd", 24),
        ("sts/sts1-15_v3.epd", 1500),
    ] {
        harness()
            .args(["suite", "check"])
            .arg(dir.join(file))
            .assert()
            .success()
            .stdout(contains(format!(
                "{count} positions ({count} with bm/am), 0 unreadable lines"
            )));
    }
}

/// The malformed lines of the public suites are named, never half-read: ERET 41 has a stray `-`
/// before its `id` (read before as an opcode `-` that swallowed the id), mate_in_5 line 185 a
/// stray `-` before `bm` (the bm was lost and the position scored without it), mate_in_2 line 263
/// an empty `bm`, zpts line 29 a comment after the last `;`.
#[test]
fn the_unreadable_lines_of_the_public_suites_are_named() {
    let Some(dir) = shared_suites("the_unreadable_lines_of_the_public_suites_are_named") else {
        return;
    };
    for (file, line, positions) in [
        ("eret.epd", "eret.epd:41: expected an opcode", 110),
        ("mate/mate_in_2.epd", "mate_in_2.epd:263:", 879),
        (
            "mate/mate_in_5.epd",
            "mate_in_5.epd:185: expected an opcode",
            901,
        ),
        ("zugzwang/zpts.epd", "zpts.epd:29: expected an opcode", 29),
    ] {
        harness()
            .args(["suite", "check"])
            .arg(dir.join(file))
            .assert()
            .code(3)
            .stdout(contains(line))
            .stdout(contains(format!("{positions} positions")))
            .stdout(contains("1 unreadable lines"));
    }
}

/// Line 51 of perft.epd cannot arise in a game (two bishops check along one diagonal); cozy-chess
/// accepts it and its counts match, so it is checked like the others.
#[test]
fn perft_matches_both_shared_files() {
    let Some(dir) = shared_suites("perft_matches_both_shared_files") else {
        return;
    };
    harness()
        .args(["perft", "--depth", "5"])
        .arg(dir.join("perft.epd"))
        .assert()
        .success()
        .stdout(contains("127 positions, 635 counts checked, 0 problems"));
    harness()
        .args(["perft", "--depth", "5"])
        .arg(dir.join("perft_cpw.epd"))
        .assert()
        .success()
        .stdout(contains("7 positions, 35 counts checked, 0 problems"));
}

#[test]
fn a_grid_runs_on_wac() {
    let Some(dir) = shared_suites("a_grid_runs_on_wac") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    harness()
        .env("FISCHERLE_SUITES", &dir)
        .args([
            "grid",
            "--depth",
            "2",
            "--quiet",
            "--set",
            "selective.candidate_limit=3,4",
            "--suite",
        ])
        .arg(dir.join("wac.epd"))
        .arg("--out")
        .arg(out.path().join("wac"))
        .assert()
        .success()
        .stdout(contains("/300"));
}

#[test]
fn every_shipped_grid_file_makes_a_valid_plan() {
    let Some(dir) = shared_suites("every_shipped_grid_file_makes_a_valid_plan") else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let grids = std::fs::read_dir(root.join("harness/grids")).unwrap();
    let mut checked = 0;
    for entry in grids {
        let path = entry.unwrap().path();
        let mut cmd = harness();
        cmd.current_dir(&root)
            .env("FISCHERLE_SUITES", &dir)
            .args(["grid", "--dry-run", "--grid"])
            .arg(&path);
        // The blowup study's samples are made into target/ by scripts/dynlimit-blowup.sh (one holds
        // a sample of STS, which stays out of the repository). Where they are not made yet, the
        // rest of the grid (axes, values, limits) is checked on the tiny suite instead.
        let text = std::fs::read_to_string(&path).unwrap();
        let made_by_script = text
            .split('"')
            .filter(|s| s.starts_with("target/dynlimit-blowup/"))
            .any(|s| !root.join(s).exists());
        if made_by_script {
            assert!(
                std::fs::read_to_string(root.join("scripts/dynlimit-blowup.sh"))
                    .unwrap()
                    .contains("work=target/dynlimit-blowup")
            );
            cmd.arg("--suite").arg(tiny());
        }
        cmd.assert().success().stdout(contains("jobs"));
        checked += 1;
    }
    assert!(checked >= 4, "{checked}");
}
