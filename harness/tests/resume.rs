//! A run killed with SIGKILL and resumed ends with exactly the rows of an uninterrupted run.

mod common;

use predicates::prelude::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{csv_rows, harness, tiny};

const TIMES: &[&str] = &["time_ms", "cpu_ms", "time_to_solution_ms"];

fn grid_args(out: &std::path::Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = [
        "grid",
        "--depth",
        "5",
        "--threads",
        "1",
        "--quiet",
        "--set",
        "selective.candidate_limit=0,2,3,4",
        "--suite",
    ]
    .iter()
    .map(Into::into)
    .collect();
    args.push(tiny().into());
    args.push("--out".into());
    args.push(out.into());
    args
}

#[test]
fn killed_and_resumed_equals_uninterrupted() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, killed) = (dir.path().join("whole"), dir.path().join("killed"));
    harness().args(grid_args(&whole)).assert().success();

    let bin = assert_cmd::cargo::cargo_bin("harness");
    let mut child = Command::new(&bin)
        .args(grid_args(&killed))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let runs = killed.join("runs.csv");
    let start = Instant::now();
    // Kill once a few jobs are written but before the end.
    loop {
        let lines = std::fs::read_to_string(&runs)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 4 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let partial = csv_rows(&runs, TIMES).len();
    assert!(
        partial < 24,
        "the run finished before it could be killed ({partial} rows)"
    );

    let mut resume_args = grid_args(&killed);
    let out_at = resume_args.iter().position(|a| a == "--out").unwrap();
    resume_args[out_at] = "--resume".into();
    harness().args(resume_args).assert().success();

    assert_eq!(
        csv_rows(&killed.join("runs.csv"), TIMES),
        csv_rows(&whole.join("runs.csv"), TIMES)
    );
    let iter_times = &["time_ms"];
    assert_eq!(
        csv_rows(&killed.join("iterations.csv"), iter_times),
        csv_rows(&whole.join("iterations.csv"), iter_times)
    );
}

#[test]
fn resume_alone_reuses_the_recorded_plan() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, cut) = (dir.path().join("whole"), dir.path().join("cut"));
    harness().args(grid_args(&whole)).assert().success();
    harness().args(grid_args(&cut)).assert().success();
    // Drop the last two jobs (and a dangling half line), as a kill would leave them.
    let runs = cut.join("runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        &runs,
        format!("{}\n{}", lines[..lines.len() - 2].join("\n"), "c0"),
    )
    .unwrap();
    // Run options (threads, UCI timeouts) are this command's and do not make it a new plan.
    harness()
        .arg("grid")
        .arg("--resume")
        .arg(&cut)
        .args(["--quiet", "--threads", "2", "--uci-timeout", "5"])
        .assert()
        .success();
    assert_eq!(
        csv_rows(&runs, TIMES),
        csv_rows(&whole.join("runs.csv"), TIMES)
    );
}

#[test]
fn a_plan_option_beside_resume_is_the_plan_not_silently_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--depth", "1", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    // `--min-depth` (the early stop's) once fell back to the recorded value on a resume; now any
    // plan option makes the command line the plan, and this one differs from the recorded.
    harness()
        .args(["grid", "--quiet", "--min-depth", "3", "--resume"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("different plan"));
    // The same plan spelled out in full is accepted.
    harness()
        .args(["grid", "--depth", "1", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--resume")
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn resuming_with_another_plan_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--depth", "1", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    // The refusal says what differs, in the words `harness merge` uses for shards.
    harness()
        .args(["grid", "--depth", "2", "--quiet", "--suite"])
        .arg(tiny())
        .arg("--resume")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("different plan (limits: "))
        .stderr(
            predicates::str::contains("\"depth\":1").and(predicates::str::contains("\"depth\":2")),
        );
}

#[test]
fn a_second_writer_on_a_running_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("busy");
    let mut args = grid_args(&out);
    // Deeper, so the first run is still going when the second starts.
    args[2] = "10".into();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !out.join("manifest.json").exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let still_running = child.try_wait().unwrap().is_none();
    harness()
        .args(["grid", "--quiet", "--resume"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "is in use by another harness process (PID {})",
            child.id()
        )));
    assert!(
        still_running,
        "the first run ended before the second started"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // With the first process gone, its lock is gone too: the run resumes.
    harness()
        .args(["grid", "--quiet", "--resume"])
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn stale_files_in_a_fresh_output_directory_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stale");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("iterations.csv"), "old,header\n").unwrap();
    harness()
        .args(grid_args(&out))
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "not a run directory (it holds `iterations.csv`)",
        ));
}

#[test]
fn sigterm_stops_cleanly_and_says_how_to_resume() {
    let Some(suites) = common::shared_suites("sigterm_stops_cleanly_and_says_how_to_resume") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (whole, stopped) = (dir.path().join("whole"), dir.path().join("stopped"));
    let args = |out: &std::path::Path| -> Vec<std::ffi::OsString> {
        let mut a: Vec<std::ffi::OsString> = [
            "grid",
            "--depth",
            "7",
            "--threads",
            "1",
            "--quiet",
            "--suite",
        ]
        .iter()
        .map(Into::into)
        .collect();
        a.push(suites.join("bk.epd").into());
        a.push("--out".into());
        a.push(out.into());
        a
    };
    harness().args(args(&whole)).assert().success();
    let child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(args(&stopped))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let runs = stopped.join("runs.csv");
    let start = Instant::now();
    while std::fs::read_to_string(&runs).map_or(0, |t| t.lines().count()) < 3
        && start.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains(&format!("harness grid --resume {}", stopped.display())),
        "{stderr}"
    );
    let partial = csv_rows(&runs, TIMES).len();
    assert!(partial < 24, "{partial} rows: the run was not stopped");
    harness()
        .args(["grid", "--quiet", "--resume"])
        .arg(&stopped)
        .assert()
        .success();
    assert_eq!(
        csv_rows(&whole.join("runs.csv"), TIMES),
        csv_rows(&runs, TIMES)
    );
}

#[test]
fn damaged_run_files_are_reported_on_resume_not_resumed_over() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = |out: &std::path::Path| {
        let mut a: Vec<std::ffi::OsString> = ["grid", "--depth", "1", "--quiet", "--suite"]
            .iter()
            .map(Into::into)
            .collect();
        a.push(tiny().into());
        a.push("--out".into());
        a.push(out.into());
        a
    };
    harness().args(args(&out)).assert().success();
    let runs = out.join("runs.csv");
    let original = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    let resume = || {
        harness()
            .arg("grid")
            .arg("--resume")
            .arg(&out)
            .arg("--quiet")
            .assert()
    };
    // (edit of runs.csv, what the error must say)
    let duplicated = format!("{original}{}\n", lines[2]);
    let foreign = format!("{original}{}\n", lines[2].replacen("c00", "c07", 1));
    let garbage = {
        let fields: Vec<&str> = lines[2].split(',').collect();
        let nodes = lines[0].split(',').position(|h| h == "nodes").unwrap();
        let mut damaged: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        damaged[nodes] = "zz".into();
        format!("{}\n{}\n", lines[..2].join("\n"), damaged.join(","))
    };
    let f: Vec<&str> = lines[2].split(',').collect();
    let twice = format!(
        ":{}: job ({}, {}, {}) is already on line 3",
        lines.len() + 1,
        f[0],
        f[1],
        f[2]
    );
    for (text, expected) in [
        (duplicated, twice.as_str()),
        (foreign, "is not part of this run's plan"),
        (garbage, ":3: expected a node count, found `zz`"),
    ] {
        std::fs::write(&runs, text).unwrap();
        resume()
            .failure()
            .stderr(predicates::str::contains(expected));
    }
    std::fs::write(&runs, &original).unwrap();
    std::fs::remove_file(out.join("iterations.csv")).unwrap();
    resume()
        .failure()
        .stderr(predicates::str::contains("iterations.csv is missing"));
}
