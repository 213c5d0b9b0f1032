//! A real single-node Slurm cluster (started by `scripts/slurm/start-cluster.sh`) runs a sharded
//! grid and a sharded match as job arrays with a dependent merge job (`scripts/slurm/submit.sh`);
//! the merged rows equal an unsharded run on this machine — also when a shard is requeued mid-run
//! (the scheduler's SIGTERM, then SIGKILL, then the task again, which resumes its shard).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{csv_rows, harness};

const TIMES: &[&str] = &["time_ms", "cpu_ms", "time_to_solution_ms"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Starts the cluster (idempotent); false, with a plain message, where Slurm cannot run here.
fn cluster(test: &str) -> bool {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let installed = Command::new("sh")
        .args(["-c", "command -v slurmctld && command -v munged"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::tools_available(
        test,
        is_root && installed,
        "slurm-wlm and munge, run as root",
    ) {
        return false;
    }
    // Both tests need the cluster; the first to get here starts it, the other waits for that.
    static STARTED: OnceLock<Result<(), String>> = OnceLock::new();
    let started = STARTED.get_or_init(|| {
        let out = Command::new("bash")
            .arg(root().join("scripts/slurm/start-cluster.sh"))
            .output()
            .expect("start-cluster.sh runs");
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        }
    });
    if let Err(stderr) = started {
        panic!("start-cluster.sh failed: {stderr}");
    }
    true
}

/// `submit.sh N BASE ARGS…` → (array job id, merge job id).
fn submit(n: usize, base: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new("bash")
        .arg(root().join("scripts/slurm/submit.sh"))
        .arg(n.to_string())
        .arg(base)
        .args(args)
        .env("HARNESS", assert_cmd::cargo::cargo_bin("harness"))
        .output()
        .expect("submit.sh runs");
    assert!(
        out.status.success(),
        "submit.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let ids: Vec<&str> = text.split_whitespace().collect();
    (ids[0].to_string(), ids[1].to_string())
}

/// Waits until none of `jobs` is queued or running (no accounting daemon: squeue is the record).
fn wait_for(jobs: &[&str], base: &Path) {
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i %T", "-j", &jobs.join(",")])
            .output()
            .expect("squeue runs");
        if String::from_utf8_lossy(&out.stdout).trim().is_empty() {
            return;
        }
        if start.elapsed() > Duration::from_secs(600) {
            panic!(
                "jobs {jobs:?} still queued after 10 minutes: {}; logs in {}",
                String::from_utf8_lossy(&out.stdout),
                base.display()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn logs(base: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(base).unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with("slurm-") {
            text += &format!("== {}\n", entry.path().display());
            text += &std::fs::read_to_string(entry.path()).unwrap_or_default();
        }
    }
    text
}

const GRID: &[&str] = &[
    "grid",
    "--suite",
    "builtin:selfplay.epd",
    "--depth",
    "7",
    "--set",
    "selective.candidate_limit=2,3",
    "--threads",
    "1",
];

#[test]
fn a_sharded_grid_through_slurm_merges_to_the_unsharded_run_even_after_a_requeue() {
    if !cluster("slurm grid") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    harness()
        .args(GRID)
        .args(["--quiet", "--out"])
        .arg(&whole)
        .assert()
        .success();

    let base = dir.path().join("sharded");
    let (array, merge) = submit(2, &base, GRID);
    // Requeue shard 0 once it has written a few rows and before it is done: the scheduler stops
    // it (SIGTERM, then SIGKILL) and starts it again, and it must resume its shard exactly.
    let runs = base.join("shard-0/runs.csv");
    let start = Instant::now();
    let rows = |p: &Path| std::fs::read_to_string(p).map_or(0, |t| t.lines().count());
    while rows(&runs) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "shard 0 wrote nothing: {}",
            logs(&base)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = rows(&runs);
    let requeue = Command::new("scontrol")
        .args(["requeue", &format!("{array}_0")])
        .output()
        .unwrap();
    assert!(
        requeue.status.success(),
        "scontrol requeue: {}",
        String::from_utf8_lossy(&requeue.stderr)
    );
    assert!(
        before < 73,
        "shard 0 finished before the requeue ({before} lines)"
    );
    // A requeued task waits about two minutes (its begin time); let it start again now.
    let task = format!("{array}_0");
    let start = Instant::now();
    loop {
        let state = Command::new("squeue")
            .args(["-h", "-o", "%T", "-j", &task])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&state.stdout).contains("PENDING") {
            let now = Command::new("scontrol")
                .args(["update", &format!("JobId={task}"), "StartTime=now"])
                .output()
                .unwrap();
            assert!(
                now.status.success(),
                "{}",
                String::from_utf8_lossy(&now.stderr)
            );
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the requeued task never went back to the queue: {}",
            String::from_utf8_lossy(&state.stdout)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    wait_for(&[&array, &merge], &base);

    let merged = base.join("merged");
    assert!(
        merged.join("report.md").exists(),
        "no merge: {}",
        logs(&base)
    );
    for name in ["runs.csv", "iterations.csv"] {
        assert_eq!(
            csv_rows(&merged.join(name), TIMES),
            csv_rows(&whole.join(name), TIMES),
            "{name}"
        );
    }
    // The task started again said how many of its jobs were already written.
    let resumed = logs(&base).lines().any(|l| {
        l.split(" already done")
            .next()
            .and_then(|head| head.rsplit(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| n > 0)
    });
    assert!(
        resumed,
        "the requeued shard did not resume: {}",
        logs(&base)
    );
}

#[test]
fn a_sharded_match_through_slurm_merges_to_the_unsharded_match() {
    if !cluster("slurm match") {
        return;
    }
    let args = [
        "match",
        "--set",
        "preset=fischerle,plain",
        "--limit",
        "nodes=1500",
        "--max-plies",
        "120",
        "--pairs",
        "4",
        "--threads",
        "1",
    ];
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    harness()
        .args(args)
        .args(["--quiet", "--out"])
        .arg(&whole)
        .assert()
        .success();
    let base = dir.path().join("sharded");
    let (array, merge) = submit(2, &base, &args);
    wait_for(&[&array, &merge], &base);
    let merged = base.join("merged");
    assert!(
        merged.join("report.md").exists(),
        "no merge: {}",
        logs(&base)
    );
    let masked = |p: &Path| {
        csv_rows(p, &[]).into_iter().map(|row| {
            row.into_iter()
                .filter(|(k, _)| !k.ends_with("time_ms") && !k.ends_with("search_ms"))
                .collect::<Vec<_>>()
        })
    };
    for name in ["games.csv", "moves.csv"] {
        assert!(
            masked(&merged.join(name)).eq(masked(&whole.join(name))),
            "{name} differs"
        );
    }
}
