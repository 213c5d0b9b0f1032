//! External UCI engines as grid members: the project's own `engine` binary (always), a script
//! that crashes, hangs and speaks garbage on purpose, Debian's `stockfish` and `toga2` (CI installs
//! them).

mod common;

use std::path::{Path, PathBuf};

use common::{csv_rows, engine_binary, harness, tiny, tools_available};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn cell<'a>(row: &'a [(String, String)], column: &str) -> &'a str {
    row.iter()
        .find(|(h, _)| h == column)
        .map_or_else(|| panic!("no column {column}"), |(_, v)| v.as_str())
}

fn by_position<'a>(rows: &'a [Vec<(String, String)>], id: &str) -> &'a [(String, String)] {
    rows.iter()
        .find(|r| cell(r, "position_id") == id)
        .unwrap_or_else(|| panic!("no row for {id}"))
}

#[test]
fn crashed_hung_and_garbage_jobs_fail_with_their_reason_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let engine = format!("uci:{}", data("flaky-uci").display());
    harness()
        .args(["grid", "--suite"])
        .arg(data("flaky.epd"))
        .args([
            "--engine",
            &engine,
            "--movetime",
            "100",
            "--uci-slack",
            "300",
        ])
        .args(["--threads", "1", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(contains("warning: 3 jobs failed"));
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert_eq!(runs.len(), 5);
    for (id, reason) in [
        ("crash", "crashed: the engine exited (exit status: 3)"),
        ("hang", "hung: no `bestmove` 400 ms after `go movetime 100"),
        ("garbage", "garbage: `bestmove z9z9` is not a legal move"),
    ] {
        let row = by_position(&runs, id);
        assert!(
            cell(row, "failure").starts_with(reason),
            "{id}: {}",
            cell(row, "failure")
        );
        assert_eq!(cell(row, "solved"), "false");
        assert_eq!(cell(row, "nodes"), "", "a failed job counts nothing");
    }
    // Each failure killed the process; the next position got a fresh one that answered.
    for (id, best, nodes) in [("start", "e2e4", "40"), ("after-e4", "e7e5", "7")] {
        let row = by_position(&runs, id);
        assert_eq!(
            (
                cell(row, "failure"),
                cell(row, "solved"),
                cell(row, "best_move")
            ),
            ("", "true", best)
        );
        assert_eq!(cell(row, "nodes"), nodes);
        assert_eq!(cell(row, "engine"), "flaky-uci");
        assert_eq!(cell(row, "qnodes"), "", "UCI does not report QS nodes");
    }
    let start = by_position(&runs, "start");
    assert_eq!(
        (
            cell(start, "depth_to_solution"),
            cell(start, "first_seen_depth")
        ),
        ("2", "2"),
        "found and kept is read from the info lines"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("## Failed jobs (3)"), "{report}");
    assert!(
        report.contains("| c00 | engine=flaky-uci | 2/5 | 0 | 3 |"),
        "{report}"
    );
    // Resuming the finished run searches nothing and duplicates nothing.
    harness()
        .args(["grid", "--quiet", "--resume"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(csv_rows(&out.join("runs.csv"), &[]).len(), 5);
}

#[test]
fn retry_failed_runs_the_failed_jobs_again_and_replaces_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("flaky-uci");
    std::fs::copy(data("flaky-uci"), &script).unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["grid", "--suite"])
        .arg(data("flaky.epd"))
        .arg("--engine")
        .arg(format!("uci:{}", script.display()))
        .args([
            "--movetime",
            "100",
            "--uci-slack",
            "300",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    // The engine is mended (same name and options): it now answers every position.
    let text = std::fs::read_to_string(&script).unwrap();
    let mended = text
        .replace("exit 3 ;;", "echo \"bestmove h1h8\" ;;")
        .replace("hung=1 ;;", "echo \"bestmove a1a8\" ;;")
        .replace("bestmove z9z9", "bestmove e1d2");
    std::fs::write(&script, mended).unwrap();
    harness()
        .args(["grid", "--quiet", "--retry-failed", "--resume"])
        .arg(&out)
        .assert()
        .success();
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert_eq!(runs.len(), 5, "each failed row replaced, none duplicated");
    assert!(runs
        .iter()
        .all(|r| cell(r, "failure").is_empty() && cell(r, "solved") == "true"));
}

#[test]
fn engines_that_do_not_answer_and_keys_without_an_engine_are_errors_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let flaky = format!("uci:{}", data("flaky-uci").display());
    let cases: [(&[&str], &str); 5] = [
        // `cat` echoes `uci` back and never says `uciok`.
        (
            &["--engine", "uci:/bin/cat", "--uci-handshake", "300"],
            "timeout: no `uciok` within 300 ms",
        ),
        (&["--engine", "uci:/bin/true"], "crashed: the engine exited"),
        (
            &["--engine", "uci:/no/such/engine"],
            "cannot start UCI engine /no/such/engine",
        ),
        (
            &["--engine", &flaky, "--set", "uci.Contempt=1,2"],
            "UCI engine `flaky-uci` has no option `Contempt`",
        ),
        (
            &["--engine", &flaky, "--set", "see=true,false"],
            "`see` configures the builtin engine, which is not in the grid",
        ),
    ];
    for (args, message) in cases {
        let out = dir.path().join("run");
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args(args)
            .args(["--depth", "2", "--quiet", "--out"])
            .arg(&out)
            .assert()
            .code(1)
            .stderr(contains(message));
        assert!(!out.join("runs.csv").exists(), "{args:?} searched anyway");
    }
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args(["--set", "uci.Hash=16", "--dry-run"])
        .assert()
        .code(1)
        .stderr(contains(
            "`uci.Hash` is a UCI option, but the grid has no UCI engine",
        ));
}

#[test]
fn the_project_engine_over_uci_counts_exactly_the_nodes_it_counts_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let engine = format!("uci:{}", engine_binary().display());
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args(["--engine", "builtin", "--engine", &engine, "--depth", "4"])
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let runs = csv_rows(&out.join("runs.csv"), &[]);
    assert_eq!(runs.len(), 2 * 6);
    let of = |engine: &str| -> Vec<(String, String, String, String, String)> {
        let mut rows: Vec<_> = runs
            .iter()
            .filter(|r| cell(r, "engine") == engine)
            .map(|r| {
                let c = |k| cell(r, k).to_string();
                (
                    c("position_id"),
                    c("nodes"),
                    c("best_move"),
                    c("solved"),
                    c("depth_to_solution"),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(of("builtin").len(), 6);
    assert_eq!(
        of("builtin"),
        of("engine"),
        "in-process and UCI searches differ"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("\"id_name\":\"fischerle-lab"),
        "{manifest}"
    );
}

#[test]
fn stockfish_joins_the_grid_with_option_axes_and_is_deterministic_at_fixed_depth() {
    let stockfish = Path::new("/usr/games/stockfish");
    if !tools_available(
        "stockfish grid test",
        stockfish.exists(),
        "Debian's stockfish",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let out = dir.path().join(name);
        harness()
            .args(["grid", "--suite"])
            .arg(tiny())
            .args([
                "--engine",
                "builtin",
                "--engine",
                "uci:/usr/games/stockfish",
            ])
            .args(["--set", "uci.Threads=1", "--set", "uci.Hash=16,32"])
            .args(["--set", "selective.candidate_limit=3,4", "--depth", "6"])
            .args(["--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        csv_rows(
            &out.join("runs.csv"),
            &["time_ms", "cpu_ms", "time_to_solution_ms"],
        )
    };
    let first = run("a");
    assert_eq!(first.len(), 4 * 6, "2 builtin + 2 stockfish configurations");
    let report = std::fs::read_to_string(dir.path().join("a/report.md")).unwrap();
    assert!(
        report.contains("## Speed by engine") && report.contains("| stockfish |"),
        "two engines: their speeds and the fixed-node caveat"
    );
    assert_eq!(first, run("b"), "node counts must repeat exactly");
    let sf: Vec<_> = first
        .iter()
        .filter(|r| cell(r, "engine") == "stockfish")
        .collect();
    assert_eq!(sf.len(), 12);
    assert!(sf
        .iter()
        .all(|r| cell(r, "selective.candidate_limit").is_empty()));
    assert!(sf
        .iter()
        .all(|r| ["16", "32"].contains(&cell(r, "uci.Hash"))));
    assert!(sf
        .iter()
        .all(|r| cell(r, "failure").is_empty() && cell(r, "depth") == "6"));
    let solved = sf.iter().filter(|r| cell(r, "solved") == "true").count();
    assert!(
        solved >= 10,
        "stockfish solved {solved} of 12 tiny positions at depth 6"
    );
}

/// Toga II (Debian's `toga2`) declares its heuristics as combo, check and spin options with
/// spaces in their names, and an `OwnBook` that defaults to true.
#[test]
fn toga_options_with_spaces_are_checked_and_its_own_book_is_off_unless_asked() {
    let toga = Path::new("/usr/games/toga2");
    if !tools_available("toga2 options test", toga.exists(), "Debian's toga2") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let grid = |sets: &[&str]| {
        let mut cmd = harness();
        cmd.args(["grid", "--engine", "uci:/usr/games/toga2", "--suite"])
            .arg(tiny())
            .args(["--depth", "4", "--threads", "1", "--quiet", "--out"])
            .arg(dir.path().join(format!("g{}", sets.len())));
        for s in sets {
            cmd.args(["--set", s]);
        }
        cmd
    };
    // Any case in, the engine's spelling out; the book switched off and recorded.
    let mut dry = grid(&["uci.nullmove pruning=always,fail high", "uci.Hash=16"]);
    dry.arg("--dry-run").assert().success().stdout(contains(
        "(setoption OwnBook=false NullMove Pruning=Fail High Hash=16)",
    ));
    grid(&["uci.OwnBook=true", "uci.Hash=16"])
        .arg("--dry-run")
        .assert()
        .success()
        .stdout(contains("(setoption OwnBook=true Hash=16)"));
    for (bad, expected) in [
        (
            "uci.NullMove Pruning=Sometimes",
            "expected one of Always, Fail High, Never",
        ),
        ("uci.Futility Margin=900", "a spin in [0, 500]"),
        ("uci.History Pruning=maybe", "expected true or false"),
    ] {
        grid(&[bad])
            .arg("--dry-run")
            .assert()
            .failure()
            .stderr(contains(expected));
    }
    // A real run: null move always and never, at fixed depth (Toga ignores `go nodes`).
    grid(&["uci.NullMove Pruning=Always,Never", "uci.Hash=16"])
        .assert()
        .success();
    let rows = csv_rows(&dir.path().join("g2/runs.csv"), &[]);
    assert_eq!(rows.len(), 12, "6 positions × 2 settings");
    let manifest = std::fs::read_to_string(dir.path().join("g2/manifest.json")).unwrap();
    assert!(
        manifest.contains("OwnBook"),
        "the manifest records the book setting"
    );
    // A tune of Toga goes through the same options: its book off, its values checked.
    let tune = |hash: &str| {
        let mut cmd = harness();
        cmd.args(["tune", "--engine", "uci:/usr/games/toga2", "--set"])
            .arg(format!("uci.Hash={hash}"))
            .args([
                "--param",
                "uci.Futility Margin=400,0,500",
                "--limit",
                "depth=3",
            ])
            .args([
                "--iterations",
                "1",
                "--pairs-per-iteration",
                "1",
                "--quiet",
                "--out",
            ])
            .arg(dir.path().join("tune"));
        cmd
    };
    tune("99999")
        .assert()
        .failure()
        .stderr(contains("a spin in [4, 1024]"));
    tune("16").assert().success();
    let manifest = std::fs::read_to_string(dir.path().join("tune/manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(
        manifest["plan"]["tuned"]["options"][0],
        serde_json::json!(["OwnBook", "false"])
    );
}

/// Toga II moves at once, at depth 1, when its clock is short: the match report says so instead
/// of letting the result pass for its search.
#[test]
fn a_clock_too_short_for_toga_is_named_in_the_report() {
    let toga = Path::new("/usr/games/toga2");
    if !tools_available("toga2 clock test", toga.exists(), "Debian's toga2") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    harness()
        .args([
            "match",
            "--engine",
            "builtin",
            "--engine",
            "uci:/usr/games/toga2",
        ])
        // The builtin engine at fixed nodes, so only Toga's clock is short, whatever the load.
        .args([
            "--set",
            "uci.Hash=16",
            "--pairs",
            "1",
            "--limit",
            "p00:nodes=3000",
        ])
        .args(["--limit", "p01:tc=0.5+0.005"])
        .args(["--max-plies", "60", "--threads", "1", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(
        report.contains("**Shallow moves**: p01 (toga2")
            && !report.contains("**Shallow moves**: p00"),
        "only Toga is named:\n{report}"
    );
}

/// A `button` option is pressed with `=press` and sent without a value (the test engine crashes
/// on `setoption name Clear Hash value …`); any other value is refused before any search.
#[test]
fn a_button_option_is_sent_without_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("start.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    let grid = |value: &str| {
        let mut cmd = harness();
        cmd.arg("grid")
            .arg("--engine")
            .arg(format!("uci:{}", data("flaky-uci").display()))
            .args(["--set", &format!("uci.Clear Hash={value}"), "--depth", "2"])
            .args(["--threads", "1", "--quiet", "--suite"])
            .arg(&suite)
            .arg("--out")
            .arg(dir.path().join(value));
        cmd
    };
    grid("press").assert().success();
    let rows = csv_rows(&dir.path().join("press/runs.csv"), &[]);
    assert_eq!(cell(&rows[0], "failure"), "", "the engine took the button");
    grid("yes")
        .assert()
        .failure()
        .stderr(contains("is a button: expected `press`"));
}

/// An engine whose own threads times the games at once exceed the cores is named before any game
/// (Glaurung 2.2, two threads by default, lost 31 of 40 games on time so on 2 cores).
#[test]
fn a_match_warns_when_an_engine_would_share_its_cores() {
    let engine = format!("uci:{}", data("flaky-uci").display());
    let dry = |extra: &[&str]| {
        let mut cmd = harness();
        cmd.args([
            "match",
            "--engine",
            "builtin",
            "--engine",
            &engine,
            "--threads",
            "1",
        ])
        .args(extra)
        .arg("--dry-run");
        cmd
    };
    dry(&[]).assert().success().stderr(contains(
        "searches with 512 threads while the match plays 1 at once",
    ));
    dry(&["--set", "uci.Threads=1"])
        .assert()
        .success()
        .stderr(contains("threads while the match plays").not());
}
