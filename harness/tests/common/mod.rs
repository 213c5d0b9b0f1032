//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The harness binary.
pub fn harness() -> Command {
    Command::cargo_bin("harness").expect("the harness binary is built")
}

/// The project's tiny test suite.
pub fn tiny() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny.epd")
}

/// The shared public suites, or `None` (and a plain message) where they are not on this machine.
/// With `FISCHERLE_REQUIRE_SUITES=1` (as `.ci/run` sets) their absence is a failure.
pub fn shared_suites(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("FISCHERLE_SUITES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/suites"));
    if dir.join("wac.epd").exists() {
        return Some(dir);
    }
    if std::env::var("FISCHERLE_REQUIRE_SUITES").as_deref() == Ok("1") {
        panic!(
            "{test}: the public suites are required but not found at {}",
            dir.display()
        );
    }
    not_run(&format!(
        "{test} needs the public suites (set FISCHERLE_SUITES); none at {}",
        dir.display()
    ));
    None
}

/// Rows of a CSV file as maps from column to cell, without the columns named in `drop`.
pub fn csv_rows(path: &Path, drop: &[&str]) -> Vec<Vec<(String, String)>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let mut rows: Vec<Vec<(String, String)>> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .filter(|(h, _)| !drop.contains(h))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect();
    rows.sort();
    rows
}

/// Whether `python3 -c "import MODULES"` works.
pub fn python_has(modules: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether a test that needs outside tools (`needs`, in words) may run: yes if `available`;
/// otherwise it says plainly that it was not run, and with `FISCHERLE_REQUIRE_TOOLS=1` (as the
/// README's test command sets, after installing them) the absence is a failure.
pub fn tools_available(test: &str, available: bool, needs: &str) -> bool {
    if available {
        return true;
    }
    if std::env::var("FISCHERLE_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{test} requires {needs} (run the README's test command, which installs them)");
    }
    not_run(&format!("{test} needs {needs}"));
    false
}

/// Says that a test was not run, past the test harness's output capture (which would hide an
/// `eprintln!` of a passing test), so that the absence shows in every `cargo test`. Under
/// cargo-nextest, which captures each test process whole, the line also goes to the file named
/// by `FISCHERLE_NOT_RUN_LOG` (`scripts/test.sh` prints it after the run).
pub fn not_run(what: &str) {
    use std::io::Write;
    let line = format!("NOT RUN: {what}");
    let _ = writeln!(std::io::stderr(), "{line}");
    if let Some(log) = std::env::var_os("FISCHERLE_NOT_RUN_LOG") {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log);
        if let Ok(mut file) = file {
            let _ = writeln!(file, "{line}");
        }
    }
}

/// The project's `engine` binary of this build (built here if the test run did not build it).
pub fn engine_binary() -> PathBuf {
    let harness = assert_cmd::cargo::cargo_bin("harness");
    let engine = harness.with_file_name("engine");
    if !engine.exists() {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "-p", "engine", "--bin", "engine"])
            .status()
            .unwrap();
        assert!(status.success(), "building the engine binary failed");
    }
    engine
}

/// Debian's Stockfish, or `None` (said plainly; a failure under `FISCHERLE_REQUIRE_TOOLS=1`).
pub fn stockfish(test: &str) -> Option<PathBuf> {
    let path = Path::new("/usr/games/stockfish");
    tools_available(test, path.exists(), "Debian's stockfish").then(|| path.to_path_buf())
}

/// Runs `python3 ARGS…` with `envs`; fails the test with both outputs unless it succeeds, and
/// returns its standard output.
pub fn python(args: &[&std::ffi::OsStr], envs: &[(&str, &std::ffi::OsStr)]) -> String {
    let out = std::process::Command::new("python3")
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A copy of a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
