//! `harness label`: the same labels at a fixed depth on every run, a killed run resumed without
//! losing or repeating a position, an unreadable line named, and a position the engine cannot take
//! skipped with its reason while the others are labelled.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{engine_binary, harness};

/// The project's self-play suite: 72 positions.
fn selfplay() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/selfplay.epd")
}

/// labels.csv's rows without the node counts' order: sorted, so runs with several engine
/// processes (which finish in any order) compare.
fn rows(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("labels.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("input,game,ply,fen,score_cp,mate,depth,nodes,best_move")
    );
    let mut rows: Vec<String> = lines.map(String::from).collect();
    rows.sort();
    rows
}

fn label(args: &[&str], out: &Path) -> std::process::Output {
    let engine = engine_binary();
    harness()
        .arg("label")
        .args(args)
        .args(["--engine", engine.to_str().unwrap(), "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn a_fixed_depth_gives_the_same_labels_on_every_run_and_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let suite = selfplay();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (out, threads) in [(&a, "1"), (&b, "2")] {
        let o = label(
            &[
                suite.to_str().unwrap(),
                "--depth",
                "4",
                "--threads",
                threads,
            ],
            out,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let first = rows(&a);
    assert_eq!(first.len(), 72);
    assert_eq!(first, rows(&b));
    let manifest = std::fs::read_to_string(a.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("\"sha256\"") && manifest.contains("\"depth\":4"),
        "{manifest}"
    );
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let suite = selfplay();
    let whole = dir.path().join("whole");
    let o = label(
        &[suite.to_str().unwrap(), "--depth", "6", "--threads", "1"],
        &whole,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let killed = dir.path().join("killed");
    let engine = engine_binary();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("label")
        .args([
            suite.to_str().unwrap(),
            "--depth",
            "6",
            "--threads",
            "1",
            "--quiet",
        ])
        .args(["--engine", engine.to_str().unwrap(), "--out"])
        .arg(&killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let labels = killed.join("labels.csv");
    let started = Instant::now();
    while std::fs::read_to_string(&labels).map_or(0, |t| t.lines().count()) < 10 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no rows written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // A kill in the middle of a write leaves a torn last line.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&labels)
        .unwrap();
    file.write_all(b"0,77,0,r1b").unwrap();
    drop(file);

    let resumed = harness()
        .args(["label", "--quiet", "--resume"])
        .arg(&killed)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(stdout.contains("done before"), "{stdout}");
    let (got, want) = (rows(&killed), rows(&whole));
    let keys: BTreeSet<String> = got
        .iter()
        .map(|r| r.splitn(4, ',').take(3).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(keys.len(), got.len(), "a position labelled twice");
    assert_eq!(got, want);
}

#[test]
fn a_signal_stops_new_positions_and_the_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let suite = selfplay();
    let out = dir.path().join("stopped");
    let engine = engine_binary();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("label")
        .args([suite.to_str().unwrap(), "--depth", "6", "--threads", "1"])
        .args(["--quiet", "--engine", engine.to_str().unwrap(), "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let labels = out.join("labels.csv");
    let started = Instant::now();
    while std::fs::read_to_string(&labels).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed() < Duration::from_secs(60), "no rows");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("harness label --resume"), "{stderr}");
    let resumed = harness()
        .args(["label", "--quiet", "--resume"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let whole = dir.path().join("whole");
    let o = label(
        &[suite.to_str().unwrap(), "--depth", "6", "--threads", "1"],
        &whole,
    );
    assert!(o.status.success());
    assert_eq!(rows(&out), rows(&whole));
}

/// A UCI engine that labels every position `cp 12` and dies on any position with a lone king on
/// e8 and a pawn on e2.
const FRAGILE: &str = r#"#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name fragile"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position fen 4k3/8/8/8/8/8/4P3/4K3"*) doomed=1 ;;
    position*) doomed=0 ;;
    go*) [ "$doomed" = 1 ] && exit 3
         echo "info depth 1 score cp 12 nodes 7 pv e2e4"; echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn a_bad_line_is_named_and_a_position_the_engine_cannot_take_is_skipped_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("fragile.sh");
    std::fs::write(&engine, FRAGILE).unwrap();
    std::process::Command::new("chmod")
        .args(["+x", engine.to_str().unwrap()])
        .status()
        .unwrap();
    let epd = dir.path().join("mixed.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n\
         this is not a position\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - id \"doomed\";\n\
         4k3/8/8/8/8/8/4P3/3K4 w - - id \"fine\";\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    let o = harness()
        .args([
            "label",
            epd.to_str().unwrap(),
            "--depth",
            "1",
            "--quiet",
            "--threads",
            "1",
        ])
        .args(["--engine", engine.to_str().unwrap(), "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("mixed.epd:2:"),
        "the unreadable line named: {stderr}"
    );
    assert!(stdout.contains("2 labelled, 1 skipped"), "{stdout}");
    let skipped = std::fs::read_to_string(out.join("skipped.csv")).unwrap();
    let mut lines = skipped.lines();
    assert_eq!(lines.next(), Some("input,game,ply,fen,reason"));
    let row = lines.next().unwrap();
    assert!(
        row.starts_with("0,3,0,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,"),
        "{row}"
    );
    assert_eq!(lines.next(), None);
    // The engine was started again for the position after the one it died on.
    assert!(rows(&out)
        .iter()
        .any(|r| r.starts_with("0,4,0,4k3/8/8/8/8/8/4P3/3K4")));
}
