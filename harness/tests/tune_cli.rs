//! End-to-end tests of `harness tune`: a short fixed-node tune writes its files, its trajectory
//! does not depend on the threads, survives SIGKILL + `--resume`, and bad parameters are refused
//! before any game.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::harness;
use predicates::str::contains;

const ITERATIONS: usize = 8;

fn tune_args(out: &Path, threads: &str) -> Vec<String> {
    [
        "tune",
        "--preset",
        "modern",
        "--param",
        "futility.frontier=300,100,500",
        "--param",
        "lmr.divisor=2.25,1,4",
        "--iterations",
        "8",
        "--pairs-per-iteration",
        "2",
        "--limit",
        "nodes=1500",
        "--seed",
        "3",
        "--quiet",
        "--threads",
        threads,
        "--out",
    ]
    .map(String::from)
    .into_iter()
    .chain([out.display().to_string()])
    .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_tune_writes_its_files_the_same_for_any_threads_and_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two, killed) = (
        dir.path().join("one"),
        dir.path().join("two"),
        dir.path().join("killed"),
    );
    harness()
        .args(tune_args(&one, "1"))
        .assert()
        .success()
        .stdout(contains("futility.frontier: 300 →"));
    harness().args(tune_args(&two, "2")).assert().success();
    let csv = read(&one.join("tune.csv"));
    assert_eq!(csv.lines().count(), 1 + ITERATIONS);
    assert!(csv.starts_with(
        "k,wins,draws,losses,result,ll,ld,dd,wd,ww,theta:futility.frontier,plus:futility.frontier"
    ));
    assert_eq!(
        csv,
        read(&two.join("tune.csv")),
        "the trajectory depends on --threads"
    );
    for file in [
        "manifest.json",
        "report.md",
        "tuned.toml",
        "start.toml",
        "theta_futility.frontier.svg",
        "theta_lmr.divisor.svg",
    ] {
        assert!(one.join(file).exists(), "{file} missing");
    }
    assert!(read(&one.join("report.md")).contains("| `lmr.divisor` | 2.25 |"));
    // tuned.toml is a player grid and match take.
    let tuned = read(&one.join("tuned.toml"));
    assert!(tuned.contains("preset = \"modern\"") && tuned.contains("\"futility.frontier\" = "));
    harness()
        .args(["grid", "--grid"])
        .arg(one.join("tuned.toml"))
        .arg("--dry-run")
        .assert()
        .success();

    let bin = assert_cmd::cargo::cargo_bin("harness");
    let mut child = Command::new(&bin)
        .args(tune_args(&killed, "2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rows = killed.join("tune.csv");
    let start = Instant::now();
    while std::fs::read_to_string(&rows).map_or(0, |t| t.lines().count()) < 3
        && start.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = read(&rows).lines().count();
    assert!(
        partial < 1 + ITERATIONS,
        "the tune finished before it could be killed"
    );
    harness()
        .args(["tune", "--quiet", "--resume"])
        .arg(&killed)
        .assert()
        .success();
    assert_eq!(read(&rows), csv, "a killed and resumed tune differs");

    // A finished tune verified afterwards: a match on the openings after the tune's.
    harness()
        .args(["tune", "--quiet", "--verify", "3", "--resume"])
        .arg(&one)
        .assert()
        .success()
        .stdout(contains(
            "verification: tuned against start at nodes=1500, 3 pairs of builtin:openings.epd from offset 19",
        ));
    assert!(
        read(&one.join("report.md")).contains("### `verify/`\n\ntuned against start at nodes=1500")
    );
    assert!(read(&one.join("verify/games.pgn")).contains("[White \"tuned\"]"));
}

#[test]
fn bad_parameters_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["--param", "futility.bogus=1,0,2"][..],
            "futility.bogus: not a SearchConfig key",
        ),
        (&["--param", "see=1,0,2"], "see: expected a numeric key"),
        (
            &["--param", "futility.frontier=900,100,500"],
            "START must lie in [MIN, MAX]",
        ),
        (
            &["--param", "futility.frontier=300,500,100"],
            "MIN must be below MAX",
        ),
        (
            &["--param", "futility.frontier=300,100,500,-1"],
            "C_END must be above 0",
        ),
        (
            &[
                "--param",
                "futility.frontier=300,100,500",
                "--pairs-per-iteration",
                "0",
            ],
            "--pairs-per-iteration must be at least 1",
        ),
    ] {
        let out = dir.path().join("never");
        harness()
            .args(["tune", "--preset", "modern", "--quiet", "--out"])
            .arg(&out)
            .args(args)
            .assert()
            .failure()
            .stderr(contains(message));
        assert!(
            !out.exists(),
            "{message}: a refused tune left {}",
            out.display()
        );
    }
    let out = dir.path().join("resumed");
    harness().args(tune_args(&out, "2")).assert().success();
    let mut other = tune_args(&out, "2");
    let at = other.iter().position(|a| a == "--out").unwrap();
    other[at] = "--resume".into();
    let seed = other.iter().position(|a| a == "3").unwrap();
    other[seed] = "4".into();
    harness()
        .args(&other)
        .assert()
        .failure()
        .stderr(contains("different plan (seed)"));
}

#[test]
fn a_grid_file_gives_the_player_and_its_params() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("start.toml");
    std::fs::write(
        &file,
        "preset = \"modern\"\n[set]\n\"aspiration.window\" = 40\n[params]\n\"lmr.divisor\" = [2.25, 1, 4]\n\"null_move.base\" = \"2,1,4\"\n",
    )
    .unwrap();
    harness()
        .args(["tune", "--dry-run", "--grid"])
        .arg(&file)
        .args(["--param", "futility.frontier=300,100,500"])
        .assert()
        .success()
        .stdout(contains("param       lmr.divisor start 2.25 in [1, 4]"))
        .stdout(contains(
            "param       null_move.base start 2 in [1, 4], C_END 0.15, R_END 0.002, integer",
        ))
        .stdout(contains("param       futility.frontier start 300"));
    // grid and match read the same file and leave [params] to tune.
    harness()
        .args(["grid", "--dry-run", "--grid"])
        .arg(&file)
        .assert()
        .success();
}

#[test]
fn one_named_player_of_a_grid_file_is_the_start_and_two_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("start.toml");
    std::fs::write(
        &file,
        "[[players]]\nname = \"wide\"\npreset = \"modern\"\nset = { \"singular.margin\" = 7 }\n",
    )
    .unwrap();
    let out = dir.path().join("t");
    harness()
        .args(["tune", "--grid"])
        .arg(&file)
        .args(["--param", "lmr.base=0.75,0,2", "--iterations", "1"])
        .args([
            "--pairs-per-iteration",
            "1",
            "--limit",
            "nodes=500",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let tuned = read(&out.join("tuned.toml"));
    assert!(
        tuned.contains("preset = \"modern\"") && tuned.contains("\"singular.margin\" = 7"),
        "{tuned}"
    );
    std::fs::write(
        &file,
        "[[players]]\nname = \"a\"\n[[players]]\nname = \"b\"\n",
    )
    .unwrap();
    harness()
        .args(["tune", "--dry-run", "--grid"])
        .arg(&file)
        .args(["--param", "lmr.base=0.75,0,2"])
        .assert()
        .failure()
        .stderr(contains("a tune starts from one player; the file names 2"));
}

/// The committed tunes under `results/`: every directory with a `tune.csv`.
fn committed_tunes() -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.file_name() == Some("tune.csv".as_ref()) {
                out.push(dir.to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../results"),
        &mut out,
    );
    out.sort();
    out
}

/// The cells of the markdown table whose header line starts with `header`, row by row, keeping
/// the columns `keep`.
fn table_cells(md: &str, header: &str, keep: &[usize]) -> Vec<Vec<String>> {
    let rows = md
        .lines()
        .skip_while(|l| !l.starts_with(header))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    rows.map(|l| {
        let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
        keep.iter().map(|&i| cells[i].to_string()).collect()
    })
    .collect()
}

/// The uci engine a tune's manifest records, if it tuned one.
fn tuned_uci_engine(dir: &Path) -> Option<std::path::PathBuf> {
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&dir.join("manifest.json"))).unwrap();
    manifest["plan"]["tuned"]["uci"].as_str().map(Into::into)
}

#[test]
fn the_drift_table_equals_the_study_script_on_every_committed_tune() {
    let test = "drift table against scripts/tuning_drift.py";
    if !common::tools_available(test, common::python_has("csv, json"), "python3") {
        return;
    }
    let tunes = committed_tunes();
    assert!(tunes.len() >= 3, "{tunes:?}");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/tuning_drift.py");
    let tmp = tempfile::tempdir().unwrap();
    for dir in tunes {
        if let Some(engine) = tuned_uci_engine(&dir) {
            let needs = format!("{} (rebuilding {})", engine.display(), dir.display());
            if !common::tools_available(test, engine.exists(), &needs) {
                continue;
            }
        }
        // The report rebuilt from the two files it is made from, in a copy.
        let copy = tmp.path().join(dir.file_name().unwrap());
        std::fs::create_dir(&copy).unwrap();
        for file in ["manifest.json", "tune.csv"] {
            std::fs::copy(dir.join(file), copy.join(file)).unwrap();
        }
        harness().arg("report").arg(&copy).assert().success();
        let ours = table_cells(
            &read(&copy.join("report.md")),
            "| parameter | drift (C_END) |",
            &[0, 1, 2, 3, 4, 5],
        );
        // The script's columns: parameter, drift, noise, z, P(|drift| > 1), p, Holm p, verdict.
        let theirs = table_cells(
            &common::python(&[script.as_ref(), dir.as_os_str()], &[]),
            "| parameter | drift (C_END) |",
            &[0, 1, 2, 3, 6, 7],
        );
        let verdict = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
            rows.into_iter()
                .map(|mut r| {
                    r[5] = (r[5] == "yes").to_string();
                    r
                })
                .collect()
        };
        assert!(!ours.is_empty(), "{}: no drift table", dir.display());
        assert_eq!(verdict(ours), verdict(theirs), "{}", dir.display());
    }
}
