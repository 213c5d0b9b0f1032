//! `harness datagen`: the same data on every run and thread count at fixed nodes, a killed run
//! resumed into exactly the uninterrupted run's files, more chunks added to a finished run, a UCI
//! engine as the player, and bad options, changed files and changed players refused with what was
//! expected.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{engine_binary, harness};

const SMALL: &[&str] = &["--nodes", "300", "--games-per-chunk", "2", "--quiet"];

fn datagen(args: &[&str], out: &Path) -> std::process::Output {
    harness()
        .arg("datagen")
        .args(SMALL)
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &std::process::Output) -> String {
    assert!(!o.status.success(), "expected a refusal");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file of a run's data, by name: chunks.csv and the chunk files.
fn data(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("chunks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.push((
        "chunks.csv".into(),
        std::fs::read(dir.join("chunks.csv")).unwrap(),
    ));
    files.sort();
    files
}

#[test]
fn fixed_nodes_give_the_same_data_on_every_run_and_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    ok(&datagen(&["--chunks", "3", "--threads", "1"], &a));
    ok(&datagen(&["--chunks", "3", "--threads", "2"], &b));
    assert_eq!(data(&a), data(&b));
    let rows = common::csv_rows(&a.join("chunks.csv"), &[]);
    assert_eq!(rows.len(), 3);
    let field = |row: &Vec<(String, String)>, name: &str| -> u64 {
        row.iter()
            .find(|(k, _)| k == name)
            .unwrap()
            .1
            .parse()
            .unwrap()
    };
    for (k, row) in rows.iter().enumerate() {
        let positions = field(row, "positions");
        assert!(positions > 20, "chunk {k}: {positions} positions");
        assert_eq!(field(row, "games"), 2);
        let bin = std::fs::metadata(a.join(format!("chunks/{k:05}.bin")))
            .unwrap()
            .len();
        assert_eq!(bin, 32 * positions, "chunk {k}: 32 bytes a position");
        let txt = std::fs::read_to_string(a.join(format!("chunks/{k:05}.txt"))).unwrap();
        assert_eq!(txt.lines().count() as u64, positions);
        for line in txt.lines() {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
            assert!(parts[1].parse::<i16>().unwrap().abs() < 31_000, "{line}");
        }
    }
}

#[test]
fn a_killed_run_resumes_into_the_uninterrupted_runs_files_and_may_add_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    ok(&datagen(&["--chunks", "14", "--threads", "1"], &whole));

    let killed = dir.path().join("killed");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("datagen")
        .args(SMALL)
        .args(["--chunks", "12", "--threads", "1", "--out"])
        .arg(&killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = killed.join("chunks.csv");
    let started = Instant::now();
    while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no chunk written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = std::fs::read_to_string(&log).unwrap().lines().count() - 1;
    assert!(
        finished < 12,
        "the run was killed before its end ({finished} chunks)"
    );
    // A kill while writing leaves a torn row and a partial chunk file.
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    file.write_all(b"1,1234,2,0").unwrap();
    drop(file);
    std::fs::write(killed.join("chunks/00001.partial"), b"torn").unwrap();

    let resumed = harness()
        .args(["datagen", "--quiet", "--chunks", "14", "--resume"])
        .arg(&killed)
        .output()
        .unwrap();
    let stdout = ok(&resumed);
    assert!(stdout.contains("done before"), "{stdout}");
    // The resumed run records the plan it grew to.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(killed.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["plan"]["chunks"], 14);
    let mut got = data(&killed);
    got.retain(|(name, _)| !name.ends_with(".partial"));
    assert_eq!(got, data(&whole));
}

#[test]
fn a_uci_engine_plays_and_its_scores_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine_binary();
    let out = dir.path().join("uci");
    let o = datagen(
        &[
            "--chunks",
            "1",
            "--engine",
            &format!("uci:{}", engine.display()),
        ],
        &out,
    );
    ok(&o);
    let txt = std::fs::read_to_string(out.join("chunks/00000.txt")).unwrap();
    assert!(txt.lines().count() > 20, "{txt}");
    let scores: Vec<i32> = txt
        .lines()
        .map(|l| l.split(" | ").nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        scores.iter().any(|&s| s != 0),
        "the engine's scores are kept"
    );
}

#[test]
fn bad_options_are_refused_with_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let e = err(&datagen(&["--chunks", "1", "--random-plies", "9-8"], &out));
    assert!(e.contains("expects MIN-MAX") && e.contains("`9-8`"), "{e}");
    let e = err(&datagen(&["--chunks", "0"], &out));
    assert!(e.contains("at least 1"), "{e}");
    let e = err(&datagen(&["--chunks", "1", "--set", "lmr=sideways"], &out));
    assert!(e.contains("lmr"), "{e}");
    let e = err(&datagen(&["--chunks", "1", "--engine", "stockfish"], &out));
    assert!(e.contains("uci:PATH"), "{e}");
    assert!(!out.exists(), "nothing was written for a refused plan");
}

#[test]
fn a_changed_chunk_file_or_fewer_chunks_on_resume_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    ok(&datagen(&["--chunks", "1", "--threads", "1"], &out));
    let resume = |extra: &[&str]| {
        harness()
            .args(["datagen", "--quiet", "--resume"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let e = err(&resume(&["--chunks", "0"]));
    assert!(e.contains("may only add chunks"), "{e}");
    let bin = out.join("chunks/00000.bin");
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes[0] ^= 1;
    std::fs::write(&bin, bytes).unwrap();
    let e = err(&resume(&["--chunks", "2"]));
    assert!(
        e.contains("00000.bin") && e.contains("changed since it was written"),
        "{e}"
    );
    std::fs::remove_file(&bin).unwrap();
    let e = err(&resume(&["--chunks", "2"]));
    assert!(e.contains("00000.bin") && e.contains("missing"), "{e}");
    // A run recorded by a build with another bench signature plays other data: refused, before a
    // dry run too.
    let path = out.join("manifest.json");
    let recorded = std::fs::read_to_string(&path).unwrap();
    let mut manifest: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    manifest["bench_signature"] = serde_json::json!(1);
    std::fs::write(&path, manifest.to_string()).unwrap();
    let e = err(&resume(&["--chunks", "2", "--dry-run"]));
    assert!(
        e.contains("bench signature") && e.contains("start a new run"),
        "{e}"
    );
    // So is one whose engine had another built-in network, which the signature does not cover.
    let mut manifest: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    assert_eq!(manifest["builtin_net"].as_str().map(str::len), Some(64));
    manifest["builtin_net"] = serde_json::json!("0".repeat(64));
    std::fs::write(&path, manifest.to_string()).unwrap();
    let e = err(&resume(&["--chunks", "2", "--dry-run"]));
    assert!(e.contains("built-in network"), "{e}");
}

/// python-chess referees every record: a legal position not in check, and the binary record the
/// same position from the side to move's view (`datagen_referee.py`, the layout read there from
/// bulletformat's documentation).
#[test]
fn python_chess_referees_every_record_of_both_formats() {
    let test = "datagen_cli::python_chess_referees_every_record_of_both_formats";
    if !common::tools_available(
        test,
        common::python_has("chess"),
        "python3 with python-chess",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    ok(&datagen(&["--chunks", "3", "--threads", "2"], &out));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datagen_referee.py");
    let stdout = common::python(&[script.as_os_str(), out.as_os_str()], &[]);
    assert!(stdout.contains("positions refereed"), "{stdout}");
}
