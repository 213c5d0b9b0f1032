//! A grid cut into shards (`--shard I/N`, interleaved or balanced by an earlier run's nodes) and
//! joined by `harness merge` has exactly the rows of the unsharded run; shards that do not make a
//! whole are refused with what is wrong, or merged as they are with `--partial`.

mod common;

use std::path::Path;

use common::{csv_rows, harness, tiny};
use predicates::str::contains;

const TIMES: &[&str] = &["time_ms", "cpu_ms", "time_to_solution_ms"];

fn grid(out: &Path, depth: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    harness()
        .args(["grid", "--quiet", "--threads", "1", "--depth", depth])
        .args(["--set", "selective.candidate_limit=2,3,4", "--suite"])
        .arg(tiny())
        .args(extra)
        .arg("--out")
        .arg(out)
        .assert()
}

fn merge(shards: &[&Path], out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    harness()
        .arg("merge")
        .args(shards)
        .args(extra)
        .arg("--out")
        .arg(out)
        .assert()
}

fn same_rows(a: &Path, b: &Path) {
    for name in ["runs.csv", "iterations.csv"] {
        assert_eq!(
            csv_rows(&a.join(name), TIMES),
            csv_rows(&b.join(name), TIMES),
            "{name}"
        );
    }
}

#[test]
fn shards_merged_equal_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    grid(&whole, "3", &[]).success();
    for (cut, extra) in [
        ("interleaved", vec![]),
        ("balanced", vec!["--cost-from", whole.to_str().unwrap()]),
    ] {
        let shards: Vec<_> = (0..3)
            .map(|i| dir.path().join(format!("{cut}-{i}")))
            .collect();
        for (i, shard) in shards.iter().enumerate() {
            let mut args = vec!["--shard".to_string(), format!("{i}/3")];
            args.extend(extra.iter().map(|s| s.to_string()));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            grid(shard, "3", &args).success();
        }
        let rows: usize = shards
            .iter()
            .map(|s| csv_rows(&s.join("runs.csv"), TIMES).len())
            .sum();
        assert_eq!(rows, 18, "{cut}: every job in exactly one shard");
        // Given in any order.
        let merged = dir.path().join(format!("{cut}-merged"));
        let given: Vec<&Path> = [2, 0, 1].iter().map(|&i| shards[i].as_path()).collect();
        merge(&given, &merged, &[]).success();
        same_rows(&merged, &whole);
        assert!(merged.join("report.md").exists());
        let manifest = std::fs::read_to_string(merged.join("manifest.json")).unwrap();
        assert!(!manifest.contains("\"shard\""), "{cut}: {manifest}");
        assert!(manifest.contains("merged_from"));
    }
}

#[test]
fn shards_that_do_not_make_a_whole_are_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize, depth: &str| {
        let out = dir.path().join(format!("d{depth}-{i}"));
        grid(&out, depth, &["--shard", &format!("{i}/3")]).success();
        out
    };
    let (a, b, c) = (shard(0, "2"), shard(1, "2"), shard(2, "2"));
    let other = shard(2, "3");
    let out = |name: &str| dir.path().join(name);

    merge(&[&a, &b], &out("m1"), &[])
        .code(1)
        .stderr(contains("shards missing: 2/3"));
    merge(&[&a, &b, &a], &out("m2"), &[])
        .code(1)
        .stderr(contains("shard 0/3 is given twice"));
    merge(&[&a, &b, &other], &out("m3"), &[])
        .code(1)
        .stderr(contains("not of one plan"))
        .stderr(contains("limits"));
    merge(&[&a, &tiny_run(dir.path())], &out("m4"), &[])
        .code(1)
        .stderr(contains("is not a shard"));
    // An unfinished shard: its last row gone, as a kill would leave it.
    let runs = c.join("runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&runs, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    merge(&[&a, &b, &c], &out("m5"), &[])
        .code(1)
        .stderr(contains("has 5 of its 6 jobs"));
    // --partial merges what is there and says what is missing.
    merge(&[&a, &b], &out("m6"), &["--partial"])
        .success()
        .stderr(contains("partial: shards missing: 2/3"));
    assert_eq!(csv_rows(&out("m6").join("runs.csv"), TIMES).len(), 12);
}

fn tiny_run(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("unsharded");
    grid(&out, "1", &[]).success();
    out
}

#[test]
fn shard_arguments_say_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    grid(&dir.path().join("x"), "1", &["--shard", "3/3"])
        .code(2)
        .stderr(contains("expected `--shard I/N` with 0 ≤ I < N"));
    harness()
        .env_remove("SLURM_ARRAY_TASK_ID")
        .args([
            "grid", "--quiet", "--depth", "1", "--shard", "slurm", "--suite",
        ])
        .arg(tiny())
        .arg("--out")
        .arg(dir.path().join("y"))
        .assert()
        .code(2)
        .stderr(contains("SLURM_ARRAY_TASK_ID"));
}
