//! End-to-end tests of `harness texel` on the committed sample (300 games of
//! `scripts/texel-data.sh`): it writes its files, its fit does not depend on the threads, its
//! `tuned.toml` is a grid file the other commands read, bad input is refused before any work (or,
//! for one unreadable game, named and skipped); and the coefficient form it fits is the engine's
//! evaluation on every position of the public suites.

mod common;

use std::path::{Path, PathBuf};

use common::harness;
use engine::eval::{Evaluation, Evaluator, Params, Trace};
use predicates::str::contains;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/texel-sample.pgn.gz")
}

fn fit(out: &Path, threads: &str) {
    fit_games(&sample(), out, threads);
}

fn fit_games(games: &Path, out: &Path, threads: &str) {
    harness()
        .args(["texel", "--pgn"])
        .arg(games)
        .args(["--set", "eval.mobility=on", "--set", "eval.bishop_pair=on"])
        .args(["--epochs", "30", "--quiet", "--threads", threads, "--out"])
        .arg(out)
        .assert()
        .success()
        .stdout(contains("K = "));
}

#[test]
fn a_fit_writes_its_files_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    fit(&one, "1");
    fit(&two, "2");
    for name in [
        "texel.csv",
        "tuned.toml",
        "eval.toml",
        "start-eval.toml",
        "report.md",
        "manifest.json",
        "loss.svg",
    ] {
        assert!(one.join(name).exists(), "{name}");
    }
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(
        read(&one, "texel.csv"),
        read(&two, "texel.csv"),
        "deterministic on any threads"
    );
    assert_eq!(read(&one, "tuned.toml"), read(&two, "tuned.toml"));
    // The games in another order (as a match on more threads writes them): the same fit.
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(sample()).unwrap()),
        &mut text,
    )
    .unwrap();
    let mut games: Vec<String> = text
        .split("\n\n[Event ")
        .map(|g| format!("[Event {}", g.trim_start_matches("[Event ").trim_end()))
        .collect();
    games.reverse();
    let reversed = dir.path().join("reversed.pgn");
    std::fs::write(&reversed, games.join("\n\n") + "\n").unwrap();
    let three = dir.path().join("three");
    fit_games(&reversed, &three, "2");
    assert_eq!(
        read(&one, "texel.csv"),
        read(&three, "texel.csv"),
        "the games' order is no input"
    );
    // The report rebuilds from the directory alone.
    let before = read(&one, "report.md");
    harness().arg("report").arg(&one).assert().success();
    assert_eq!(read(&one, "report.md"), before);
    // The loss falls on the training positions.
    let rows = common::csv_rows(&one.join("texel.csv"), &[]);
    let train = |r: &Vec<(String, String)>| r[1].1.parse::<f64>().unwrap();
    assert_eq!(rows.len(), 31);
    assert!(train(&rows[30]) < train(&rows[0]));
    let manifest: serde_json::Value = serde_json::from_str(&read(&one, "manifest.json")).unwrap();
    assert_eq!(manifest["kind"], "texel");
    assert_eq!(manifest["sources"][0]["games"], 300);
    assert_eq!(manifest["sources"][0]["sha256"].as_str().unwrap().len(), 64);
    assert!(manifest["counts"]["kept"].as_u64().unwrap() > 10_000);
    let report = read(&one, "report.md");
    assert!(
        report.contains("mobility.knight[4]") && report.contains("bishop_pair.bonus"),
        "{report}"
    );
    // tuned.toml is a grid file: the fitted evaluation as one player, searching and playing.
    harness()
        .args(["match", "--dry-run", "--grid"])
        .arg(one.join("tuned.toml"))
        .args(["--player", "modern:preset=modern"])
        .assert()
        .success()
        .stdout(contains("texel-tuned"));
    let grid = dir.path().join("grid");
    harness()
        .args(["grid", "--quiet", "--depth", "3", "--suite"])
        .arg(common::tiny())
        .arg("--grid")
        .arg(one.join("tuned.toml"))
        .arg("--out")
        .arg(&grid)
        .assert()
        .success();
    let rows = common::csv_rows(&grid.join("runs.csv"), &[]);
    assert!(!rows.is_empty());
    // eval.toml is the section alone: the same player from a preset and one --set.
    let eval = format!("eval=@{}", one.join("eval.toml").display());
    let same = dir.path().join("same");
    harness()
        .args([
            "grid", "--quiet", "--depth", "3", "--preset", "modern", "--set", &eval, "--suite",
        ])
        .arg(common::tiny())
        .arg("--out")
        .arg(&same)
        .assert()
        .success();
    let nodes = |d: &Path| {
        common::csv_rows(&d.join("runs.csv"), &[])
            .iter()
            .map(|r| r.iter().find(|c| c.0 == "nodes").unwrap().1.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        nodes(&grid),
        nodes(&same),
        "one evaluation, two ways of naming it"
    );
}

#[test]
fn bad_input_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let refused = |args: &[&str], expected: &str| {
        harness()
            .arg("texel")
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(contains(expected));
        assert!(!out.exists(), "nothing written for {args:?}");
    };
    let sample = sample().display().to_string();
    refused(&["--pgn", "/no/such.pgn"], "no such file");
    refused(&["--pgn", &sample, "--set", "eval.bogus=on"], "bogus");
    refused(
        &["--pgn", &sample, "--set", "eval.tempo.bonus=[9000,0]"],
        "within ±2000",
    );
    refused(
        &["--pgn", &sample, "--lambda", "2"],
        "--lambda must be within 0 and 1",
    );
    let unfinished = dir.path().join("unfinished.pgn");
    std::fs::write(&unfinished, "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n").unwrap();
    refused(
        &["--pgn", unfinished.to_str().unwrap()],
        "no usable position",
    );
    let notes = dir.path().join("notes");
    std::fs::create_dir(&notes).unwrap();
    std::fs::write(notes.join("mine.txt"), "keep").unwrap();
    harness()
        .args(["texel", "--pgn", &sample, "--out"])
        .arg(&notes)
        .assert()
        .failure();
    assert_eq!(
        std::fs::read_to_string(notes.join("mine.txt")).unwrap(),
        "keep"
    );
}

#[test]
fn an_unreadable_game_is_named_and_the_others_are_used() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("two.pgn");
    let good = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n\n";
    let bad = "[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n";
    std::fs::write(&pgn, format!("{good}{bad}")).unwrap();
    harness()
        .args([
            "texel",
            "--skip-plies",
            "2",
            "--validation",
            "0",
            "--epochs",
            "2",
            "--pgn",
        ])
        .arg(&pgn)
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stderr(contains(
            "two.pgn:5: game 2: move `Ke3` at ply 3 is not legal here",
        ));
}

/// The coefficient form is the engine's evaluation, exactly, on every position of the public
/// suites, with every term on and with the classic evaluation.
#[test]
fn the_coefficient_form_is_the_evaluation_on_every_suite_position() {
    let Some(suites) = common::shared_suites("texel coefficient form") else {
        return;
    };
    let evaluations = [Evaluation::classic(), Evaluation::everything_on()];
    let evaluators: Vec<Evaluator> = evaluations.iter().map(Evaluator::new).collect();
    let weights: Vec<_> = evaluations.iter().map(|e| Params::of(e).weights).collect();
    let mut checked = 0;
    for file in epd_files(&suites) {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() < 4 || line.starts_with('#') {
                continue;
            }
            let Ok(board) = engine::board::parse_fen(&format!("{} 0 1", fields.join(" "))) else {
                continue;
            };
            let stm = if board.side_to_move() == cozy_chess::Color::White {
                1
            } else {
                -1
            };
            for ((e, evaluator), w) in evaluations.iter().zip(&evaluators).zip(&weights) {
                let traced = Trace::of(&board, e).evaluate(w);
                assert_eq!(
                    stm * traced,
                    evaluator.evaluate_board(&board),
                    "{}: {line}",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 5_000, "{checked} positions");
}

fn epd_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "epd") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `--lambda` blends each label toward the game's own comment score: a different fit, recorded.
#[test]
fn lambda_blends_toward_the_games_scores() {
    let dir = tempfile::tempdir().unwrap();
    let run = |lambda: &str| {
        let out = dir.path().join(format!("l{lambda}"));
        harness()
            .args([
                "texel", "--epochs", "5", "--quiet", "--lambda", lambda, "--pgn",
            ])
            .arg(sample())
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        out
    };
    let (plain, blended) = (run("0"), run("0.5"));
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_ne!(read(&plain, "texel.csv"), read(&blended, "texel.csv"));
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&blended, "manifest.json")).unwrap();
    assert_eq!(manifest["plan"]["lambda"], 0.5);
}

/// `--k` replaces the fitted K: the report and the manifest carry the given one, and the loss at
/// the start weights changes with it (the same positions, another sigmoid).
#[test]
fn a_given_k_is_used_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        harness()
            .args(["texel", "--epochs", "0", "--quiet", "--pgn"])
            .arg(sample())
            .args(extra)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap())
                .unwrap();
        manifest
    };
    let fitted = run("fitted", &[]);
    let given = run("given", &["--k", "0.5"]);
    assert_eq!(given["plan"]["k"], 0.5);
    assert_eq!(given["fitted"]["k"], 0.5, "{given}");
    assert!(fitted["plan"].get("k").is_none());
    assert_ne!(fitted["fitted"]["k"], 0.5);
    assert_ne!(fitted["fitted"]["losses"][0], given["fitted"]["losses"][0]);
    let report = std::fs::read_to_string(dir.path().join("given/report.md")).unwrap();
    assert!(report.contains("K = 0.5000 (given)"), "{report}");
}
