//! `harness match` end to end: python-chess referees the games, fixed-node matches repeat exactly
//! for 1 and 2 threads and after SIGKILL + resume, UCI players (the project's engine binary,
//! Debian's Stockfish, a script that forfeits) play legal games or lose by forfeit, and an SPRT
//! on a pair of players of very different strength stops at a bound.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::harness;
use predicates::prelude::*;
use predicates::str::contains;

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings.epd")
}

/// `match` arguments: fischerle against plain at fixed nodes, with every ending rule on.
fn match_args(out: &Path, threads: u32, pairs: u32) -> Vec<String> {
    let mut args: Vec<String> = [
        "match",
        "--set",
        "preset=fischerle,plain",
        "--limit",
        "nodes=1500",
        "--max-plies",
        "160",
        "--resign-score",
        "700",
        "--resign-moves",
        "3",
        "--draw-score",
        "5",
        "--draw-moves",
        "6",
        "--draw-after",
        "40",
        "--quiet",
    ]
    .map(String::from)
    .to_vec();
    args.extend(["--threads".into(), threads.to_string()]);
    args.extend(["--pairs".into(), pairs.to_string()]);
    args.extend(["--openings".into(), book().display().to_string()]);
    args.extend(["--out".into(), out.display().to_string()]);
    args
}

/// A file with the wall-clock parts (`t=…ms` in PGN comments, time columns in CSVs) masked.
fn timeless(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "pgn") {
        let re = |s: &str| -> String {
            s.split(" t=")
                .enumerate()
                .map(|(i, part)| {
                    if i == 0 {
                        part.to_string()
                    } else {
                        part.split_once("ms}")
                            .map_or(part.to_string(), |(_, r)| format!("ms}}{r}"))
                    }
                })
                .collect::<Vec<_>>()
                .join(" t=")
        };
        return re(&text).replace("\n", " ");
    }
    let drop = ["time_ms", "search_ms"];
    common::csv_rows(path, &[])
        .into_iter()
        .map(|row| {
            row.into_iter()
                .filter(|(k, _)| !drop.iter().any(|d| k.ends_with(d)))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn same_games(a: &Path, b: &Path) {
    for file in ["games.pgn", "games.csv", "moves.csv"] {
        assert_eq!(
            timeless(&a.join(file)),
            timeless(&b.join(file)),
            "{file} differs"
        );
    }
}

fn referee(run: &Path) {
    if !common::tools_available("match referee", common::python_has("chess"), "python-chess") {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/match_referee.py");
    let out = common::python(&[script.as_ref(), run.as_os_str()], &[]);
    assert!(out.contains(" 0 problems"), "{out}");
}

#[test]
fn games_are_legal_repeat_for_any_thread_count_and_are_refereed() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    harness().args(match_args(&one, 1, 4)).assert().success();
    harness()
        .args(match_args(&two, 2, 4))
        .assert()
        .success()
        .stdout(contains("p00-p01: 4 pairs"));
    same_games(&one, &two);
    referee(&one);
    let report = std::fs::read_to_string(one.join("report.md")).unwrap();
    assert!(report.contains("| p00-p01 | 4 |"), "{report}");
    assert!(
        report.contains("Rules: drawn after 160 plies; a player at −700 cp or worse for 3 of its moves in a row resigns; drawn when both scores stay within ±5 cp for 6 moves each from move 40 on."),
        "{report}"
    );
    assert!(one.join("elo.svg").exists());
    // `harness report` regenerates a match's report from its files, byte for byte.
    std::fs::remove_file(one.join("report.md")).unwrap();
    harness()
        .arg("report")
        .arg(&one)
        .assert()
        .success()
        .stdout(contains("p00-p01: 4 pairs"));
    assert_eq!(
        std::fs::read_to_string(one.join("report.md")).unwrap(),
        report
    );
    // And the PGN from games.csv, moves.csv and the book, the same text the match wrote.
    let pgn = std::fs::read_to_string(two.join("games.pgn")).unwrap();
    std::fs::remove_file(two.join("games.pgn")).unwrap();
    harness().arg("report").arg(&two).assert().success();
    assert_eq!(std::fs::read_to_string(two.join("games.pgn")).unwrap(), pgn);
    // Running into a finished match's directory is refused; resuming it plays nothing.
    harness()
        .args(match_args(&one, 1, 4))
        .assert()
        .code(1)
        .stderr(contains("already holds a match"));
    harness()
        .args(["match", "--quiet", "--resume"])
        .arg(&one)
        .assert()
        .success()
        .stdout(contains("p00-p01: 4 pairs"));
    assert_eq!(common::csv_rows(&one.join("games.csv"), &[]).len(), 8);
}

#[test]
fn killed_and_resumed_plays_exactly_the_uninterrupted_games() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, killed) = (dir.path().join("whole"), dir.path().join("killed"));
    harness().args(match_args(&whole, 2, 6)).assert().success();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(match_args(&killed, 2, 6))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = killed.join("games.csv");
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&games).map_or(0, |t| t.lines().count());
        if lines >= 3 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = std::fs::read_to_string(&games).unwrap().lines().count();
    assert!(partial < 13, "killed after the end ({partial} lines)");
    harness()
        .args(["match", "--quiet", "--threads", "1", "--resume"])
        .arg(&killed)
        .assert()
        .success();
    same_games(&whole, &killed);
    referee(&killed);
    // A run recorded with another built-in network (which the bench signature does not cover)
    // would mix two engines: refused.
    let path = killed.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["builtin_net"] = serde_json::json!("0".repeat(64));
    std::fs::write(&path, manifest.to_string()).unwrap();
    let refused = harness()
        .args(["match", "--quiet", "--threads", "1", "--resume"])
        .arg(&killed)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && e.contains("built-in network"),
        "{e}"
    );
}

#[test]
fn uci_players_play_legal_games() {
    let dir = tempfile::tempdir().unwrap();
    let ours = dir.path().join("ours");
    let engine = common::engine_binary();
    harness()
        .args(["match", "--engine", "builtin", "--engine"])
        .arg(format!("uci:{}", engine.display()))
        .args([
            "--limit",
            "nodes=1000",
            "--pairs",
            "2",
            "--max-plies",
            "120",
            "--quiet",
        ])
        .arg("--openings")
        .arg(book())
        .arg("--out")
        .arg(&ours)
        .assert()
        .success();
    referee(&ours);
    let csv = std::fs::read_to_string(ours.join("games.csv")).unwrap();
    assert!(!csv.contains("forfeit"), "{csv}");
    let Some(stockfish) = common::stockfish("stockfish match") else {
        return;
    };
    let sf = dir.path().join("sf");
    harness()
        .args(["match", "--engine", "builtin", "--engine"])
        .arg(format!("uci:{}", stockfish.display()))
        .args(["--set", "uci.Threads=1", "--set", "uci.Hash=16"])
        .args([
            "--limit",
            "nodes=2000",
            "--pairs",
            "2",
            "--max-plies",
            "200",
            "--quiet",
        ])
        .arg("--openings")
        .arg(book())
        .arg("--out")
        .arg(&sf)
        .assert()
        .success();
    referee(&sf);
}

#[test]
fn a_misbehaving_uci_player_loses_by_forfeit_and_the_match_goes_on() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/forfeit-uci");
    let dir = tempfile::tempdir().unwrap();
    for (mode, reasons) in [
        ("", ["forfeit: illegal move", "forfeit: crash"]),
        ("hang", ["forfeit: hang", "forfeit: hang"]),
    ] {
        let out = dir.path().join(format!("forfeit-{mode}"));
        harness()
            .env("FORFEIT_UCI", mode)
            .args(["match", "--engine", "builtin", "--engine"])
            .arg(format!("uci:{}", script.display()))
            .args(["--limit", "nodes=500", "--pairs", "2", "--quiet"])
            .args(["--uci-timeout", "1", "--uci-slack", "300", "--threads", "1"])
            .arg("--openings")
            .arg(book())
            .arg("--out")
            .arg(&out)
            .assert()
            .success()
            .stdout(contains("p00-p01: 2 pairs, +0 =0 -4"));
        let rows = common::csv_rows(&out.join("games.csv"), &[]);
        assert_eq!(rows.len(), 4);
        for row in &rows {
            let get = |k: &str| row.iter().find(|(c, _)| c == k).unwrap().1.clone();
            let game: usize = get("game").parse().unwrap();
            assert_eq!(get("termination"), reasons[game - 1], "{row:?}");
            assert!(!get("reason").is_empty());
            // The builtin player p00 wins every game.
            let won = if get("white") == "p00" { "1-0" } else { "0-1" };
            assert_eq!(get("result"), won);
        }
        let report = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(report.contains("### Forfeits"), "{report}");
        referee(&out);
    }
}

#[test]
fn an_sprt_between_very_unequal_players_stops_at_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sprt");
    // The second player searches 30 nodes a move against 3000: far below H0 = 0 Elo.
    harness()
        .args(["match", "--set", "preset=fischerle,fischerle"])
        .args(["--limit", "nodes=3000", "--limit", "p01:nodes=30"])
        .args([
            "--sprt", "0,20", "--model", "logistic", "--pairs", "200", "--quiet",
        ])
        .args([
            "--max-plies",
            "200",
            "--resign-score",
            "600",
            "--resign-moves",
            "3",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("LLR -"));
    let pairs = common::csv_rows(&out.join("games.csv"), &[]).len() / 2;
    assert!(pairs < 200, "the SPRT did not stop: {pairs} pairs");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains(" H0 |"), "{report}");
    assert!(out.join("llr_trace.svg").exists());
    // pairings.csv carries the same result for scripts: the weak second player loses and its
    // LLR is negative, and its pentanomial counts add up to the pairs played.
    let rows = common::csv_rows(&out.join("pairings.csv"), &[]);
    assert_eq!(rows.len(), 1);
    let field = |name: &str| rows[0].iter().find(|(h, _)| h == name).unwrap().1.clone();
    let number = |name: &str| field(name).parse::<f64>().unwrap();
    assert_eq!(
        (field("first"), field("second")),
        ("p00".into(), "p01".into())
    );
    assert!(number("losses") > number("wins") && number("llr") < 0.0);
    // A player that lost every pair has no finite Elo: the field is left empty, not made up.
    assert!(field("elo").is_empty() || number("elo") < 0.0);
    let counts: f64 = ["ll", "ld", "dd_wl", "wd", "ww"]
        .iter()
        .map(|c| number(c))
        .sum();
    assert_eq!(counts as usize, pairs);
}

#[test]
fn a_clock_match_spends_its_time_without_losing_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tc");
    harness()
        .args(["match", "--set", "see=false,true", "--limit", "tc=1+0.05"])
        .args([
            "--pairs",
            "1",
            "--max-plies",
            "60",
            "--threads",
            "2",
            "--quiet",
        ])
        .arg("--openings")
        .arg(book())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    clock_games_are_sound(&out, "1+0.05");
}

/// The games of a clock match: the PGN names the clock, no game was lost on time, and
/// python-chess referees them.
fn clock_games_are_sound(out: &Path, tc: &str) {
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains(&format!("[TimeControl \"{tc}\"]")), "{pgn}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(!games.contains("time forfeit"), "{games}");
    referee(out);
}

/// cutechess's `tc=MOVES/BASE+INC`: a period's base is added again after every MOVES moves, and
/// a UCI player is told `movestogo` (the project's engine over UCI reads it).
#[test]
fn a_clock_of_periods_refills_each_period_and_tells_uci_players_moves_to_go() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods");
    harness()
        .args(["match", "--engine", "builtin", "--engine"])
        .arg(format!("uci:{}", common::engine_binary().display()))
        .args([
            "--limit",
            "tc=10/1+0.05",
            "--pairs",
            "1",
            "--max-plies",
            "44",
        ])
        .args(["--threads", "2", "--quiet", "--openings"])
        .arg(book())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    clock_games_are_sound(&out, "10/1+0.05");
    harness()
        .args(["match", "--limit", "tc=0/1", "--set", "see=false,true"])
        .assert()
        .failure()
        .stderr(contains("whole number of moves above 0"));
}

/// fastchess's `order=random plies=N`: a PGN book made here, entered after 4 plies, shuffled;
/// the manifest records both, python-chess referees the games, and games too short are counted.
#[test]
fn a_pgn_book_is_entered_after_n_plies_in_a_fixed_random_order() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pgn");
    let games = [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
        "1. c4 e5 2. Nc3 Nf6 3. g3 d5",
        "1. Nf3 d5 2. g3 Nf6 3. Bg2 c6",
        "1. e4 c5",
    ];
    let text: String = games
        .iter()
        .enumerate()
        .map(|(i, m)| format!("[Event \"b\"]\n[Round \"{i}\"]\n\n{m} *\n\n"))
        .collect();
    std::fs::write(&book, text).unwrap();
    let out = dir.path().join("m");
    let run = harness()
        .args(["match", "--set", "see=false,true", "--limit", "nodes=500"])
        .args([
            "--pairs", "4", "--order", "random", "--plies", "4", "--quiet",
        ])
        .arg("--openings")
        .arg(&book)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    run.stderr(contains("1 of the 5 games of"));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("\"order\":\"random\"") && manifest.contains("\"plies\":4"),
        "{manifest}"
    );
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    // After 4 plies of a full game it is White's move 3 (…KQkq - 2 3 or similar).
    assert!(pgn.contains(" w KQkq - ") && pgn.contains(" 3\"]"), "{pgn}");
    referee(&out);
}

/// fastchess's `timemargin`: a player that overruns its clock by about 40 ms a move loses on
/// time without a margin (the overrun in the reason) and plays on with `--time-margin 400`, each
/// overrun counted in games.csv and the report.
#[test]
fn a_time_margin_forgives_overruns_and_counts_them() {
    let has = common::python_has("chess");
    if !common::tools_available("time margin test", has, "python-chess") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let slow = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slow-uci");
    let run = |name: &str, margin: &str| {
        let out = dir.path().join(name);
        harness()
            .args(["match", "--engine", "builtin", "--engine"])
            .arg(format!("uci:{}", slow.display()))
            .args(["--limit", "tc=0.2+0", "--pairs", "1", "--max-plies", "8"])
            .args([
                "--time-margin",
                margin,
                "--threads",
                "2",
                "--quiet",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        (
            std::fs::read_to_string(out.join("games.csv")).unwrap(),
            common::csv_rows(&out.join("games.csv"), &[]),
            std::fs::read_to_string(out.join("report.md")).unwrap(),
        )
    };
    let (text, _, _) = run("strict", "0");
    assert_eq!(text.matches("time forfeit").count(), 2, "{text}");
    assert!(text.contains("clock ran out (by "), "{text}");
    let (text, rows, report) = run("margin", "400");
    assert!(!text.contains("time forfeit"), "{text}");
    for row in &rows {
        let get = |k: &str| row.iter().find(|(c, _)| c == k).unwrap().1.clone();
        let side = if get("white") == "p01" {
            "white"
        } else {
            "black"
        };
        let count: u32 = get(&format!("{side}_overruns")).parse().unwrap();
        let max: f64 = get(&format!("{side}_max_overrun_ms")).parse().unwrap();
        assert_eq!(count, 4, "four moves, each over: {row:?}");
        assert!((40.0..400.0).contains(&max), "{row:?}");
    }
    assert!(report.contains("## Clock overruns") && report.contains("Time margin: 400 ms"));
}

/// fishtest's NPS scaling: the clock is multiplied by reference / measured NPS, the measurement is
/// recorded, and a resume keeps it (a new measurement would change the plan).
#[test]
fn clocks_scale_by_the_machines_bench_speed_and_a_resume_keeps_the_measurement() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scaled");
    let args = [
        "match",
        "--set",
        "see=false,true",
        "--limit",
        "tc=1+0.01",
        "--pairs",
        "1",
        "--max-plies",
        "10",
        "--nps-scale",
        "2000000",
        "--quiet",
        "--out",
    ];
    harness().args(args).arg(&out).assert().success();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let measured = manifest["nps_scale"]["measured"].as_f64().unwrap();
    assert!(measured > 1e5, "{manifest}");
    let factor = 2e6 / measured;
    let limit = manifest["players"][0]["limit"]
        .as_str()
        .unwrap()
        .to_string();
    let base: f64 = limit["tc=".len()..limit.find('+').unwrap()]
        .parse()
        .unwrap();
    assert!(
        (base - factor).abs() < 0.002,
        "{limit} against factor {factor}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("Clocks scaled to this machine"), "{report}");
    harness()
        .args(["match", "--resume"])
        .arg(&out)
        .args(["--quiet"])
        .assert()
        .success();
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(again["nps_scale"], manifest["nps_scale"]);
}

/// fastchess adjudicates by Syzygy; here the project's own KQK/KRK/KPK tables do: every game of a
/// book of such endings ends after its first move (or by the rules) with the tables' result,
/// and python-chess referees each one.
#[test]
fn games_that_reach_the_projects_tables_are_adjudicated_by_them() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("endings.epd");
    std::fs::write(
        &book,
        "8/8/8/4k3/8/8/8/3QK3 w - - id \"kqk\";\n\
         3rk3/8/8/8/4K3/8/8/8 w - - id \"krk-black\";\n\
         4k3/8/4P3/4K3/8/8/8/8 w - - id \"kpk-draw\";\n\
         8/8/8/8/8/3k4/2p5/4K3 w - - id \"kpk-black\";\n",
    )
    .unwrap();
    let out = dir.path().join("tb");
    harness()
        .args(["match", "--set", "see=false,true", "--limit", "nodes=2000"])
        .args(["--pairs", "4", "--tb-adjudicate", "--quiet", "--openings"])
        .arg(&book)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let rows = common::csv_rows(&out.join("games.csv"), &[]);
    let get =
        |r: &Vec<(String, String)>, k: &str| r.iter().find(|(c, _)| c == k).unwrap().1.clone();
    for r in &rows {
        let (opening, result, term) = (get(r, "opening"), get(r, "result"), get(r, "termination"));
        assert_eq!(term, "adjudication: tablebase", "{r:?}");
        let expected = match opening.as_str() {
            "kqk" => "1-0",
            "krk-black" | "kpk-black" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(result, expected, "{r:?}");
    }
    referee(&out);
}

/// fastchess's `-use-affinity`: pinned workers (and the UCI engine they start) play the same
/// games at fixed nodes; the cores are recorded; a core the machine lacks is refused.
#[test]
fn pinned_workers_play_the_same_games_and_unknown_cores_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let play = |name: &str, pin: Option<&str>| {
        let out = dir.path().join(name);
        let mut cmd = harness();
        cmd.args(["match", "--engine", "builtin", "--engine"])
            .arg(format!("uci:{}", common::engine_binary().display()))
            .args([
                "--limit",
                "nodes=1500",
                "--pairs",
                "2",
                "--threads",
                "1",
                "--quiet",
            ]);
        if let Some(p) = pin {
            cmd.args(["--affinity", p]);
        }
        cmd.arg("--out").arg(&out).assert().success();
        let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
        let games = common::csv_rows(
            &out.join("games.csv"),
            &[
                "white_mean_time_ms",
                "white_max_time_ms",
                "black_mean_time_ms",
                "black_max_time_ms",
            ],
        );
        (manifest, games)
    };
    let (_, free) = play("free", None);
    let (manifest, pinned) = play("pinned", Some("0"));
    assert_eq!(free, pinned);
    assert!(manifest.contains("\"affinity\""), "{manifest}");
    harness()
        .args([
            "match",
            "--set",
            "see=false,true",
            "--affinity",
            "0,99999",
            "--dry-run",
        ])
        .assert()
        .failure()
        .stderr(contains("this machine has no core 99999"));
}

/// fishtest's presets (server/fishtest/templates/tests_run.html.j2): bounds and clock.
#[test]
fn sprt_presets_are_fishtests_bounds_and_clocks() {
    let dry = |extra: &[&str]| {
        let out = harness()
            .args(["match", "--set", "see=false,true", "--dry-run"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for (preset, bounds, clock) in [
        ("stc", "elo0: 0.0, elo1: 2.0", "(tc=10+0.1)"),
        ("ltc", "elo0: 0.5, elo1: 2.5", "(tc=60+0.6)"),
        ("nonreg", "elo0: -1.75, elo1: 0.25", "(tc=10+0.1)"),
    ] {
        let plan = dry(&["--sprt-preset", preset]);
        assert!(
            plan.contains(bounds) && plan.contains("Normalized"),
            "{plan}"
        );
        assert!(plan.contains(clock), "{plan}");
    }
    let own = dry(&["--sprt-preset", "stc", "--limit", "nodes=1000"]);
    assert!(
        own.contains("(nodes=1000)") && own.contains("elo1: 2.0"),
        "{own}"
    );
    harness()
        .args(["match", "--set", "see=false,true", "--dry-run"])
        .args(["--sprt-preset", "stc", "--sprt", "0,5"])
        .assert()
        .failure()
        .stderr(contains("cannot be used with"));
}

#[test]
fn plans_that_cannot_be_played_are_refused_before_any_game() {
    harness()
        .args(["match", "--preset", "fischerle", "--quiet", "--dry-run"])
        .assert()
        .code(1)
        .stderr(contains("a match needs at least two players, found 1"));
    harness()
        .args([
            "match",
            "--set",
            "see=false,true",
            "--limit",
            "nodes=0",
            "--dry-run",
        ])
        .assert()
        .code(1)
        .stderr(contains("`nodes` expects a whole number above 0"));
    harness()
        .args([
            "match",
            "--set",
            "see=false,true",
            "--limit",
            "p07:depth=3",
            "--dry-run",
        ])
        .assert()
        .code(1)
        .stderr(contains("no player `p07`"));
    harness()
        .args([
            "match",
            "--set",
            "see=false,true",
            "--sprt",
            "5,0",
            "--dry-run",
        ])
        .assert()
        .code(1)
        .stderr(contains("elo0 < elo1"));
    harness()
        .args([
            "match",
            "--set",
            "see=false,true",
            "--sprt",
            "-5,5",
            "--dry-run",
        ])
        .assert()
        .success()
        .stdout(contains("player      p01 see=true (nodes=5000)"))
        .stdout(contains("elo0: -5.0"));
    harness()
        .args([
            "match",
            "--set",
            "selective.candidate_limit=2,3,4",
            "--round-robin",
        ])
        .args(["--baseline", "p01", "--dry-run"])
        .assert()
        .success()
        .stdout(contains("RoundRobin: p01-p00, p01-p02, p00-p02"));
}

/// At a fixed node or depth limit an opening played again replays the same games: a match that
/// needs more openings than its book has is refused unless asked for, and a clock match is not.
#[test]
fn more_pairs_than_openings_at_fixed_nodes_are_refused_unless_asked_for() {
    let dry = |extra: &[&str]| {
        harness()
            .args(["match", "--set", "see=false,true", "--dry-run"])
            .args(extra)
            .assert()
    };
    dry(&["--pairs", "433"]).code(1).stderr(contains(
        "each pairing needs 433 openings but builtin:openings.epd gives it 432",
    ));
    dry(&["--pairs", "433", "--limit", "depth=3"]).code(1);
    dry(&["--pairs", "432"]).success();
    dry(&["--pairs", "433", "--repeat-openings"]).success();
    dry(&["--pairs", "433", "--limit", "tc=1+0.01"]).success();
}

#[test]
fn the_dry_run_states_its_rules_in_words() {
    let out = harness()
        .args(["match", "--set", "see=false,true", "--max-plies", "300"])
        .args(["--resign-score", "600", "--resign-moves", "4", "--dry-run"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("rules       drawn after 300 plies; a player at −600 cp or worse for 4 of its moves in a row resigns; no draw adjudication"),
        "{text}"
    );
    assert!(!text.contains("Rules {"), "{text}");
}

#[test]
fn a_match_in_shards_merged_is_the_unsharded_match() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    harness().args(match_args(&whole, 2, 5)).assert().success();
    let shards: Vec<PathBuf> = (0..2).map(|i| dir.path().join(format!("s{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        harness()
            .args(match_args(shard, 1, 5))
            .args(["--shard", &format!("{i}/2")])
            .assert()
            .success();
    }
    let merged = dir.path().join("merged");
    harness()
        .arg("merge")
        .args(shards.iter().rev())
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    same_games(&merged, &whole);
    assert!(merged.join("report.md").exists());
    // Shards of another build (here: a manifest naming another commit) are refused, as the grid
    // merge refuses them.
    let manifest = shards[1].join("manifest.json");
    let mut recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    recorded["git_commit"] = serde_json::Value::String("0".repeat(40));
    std::fs::write(&manifest, recorded.to_string()).unwrap();
    harness()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(dir.path().join("mixed"))
        .assert()
        .code(1)
        .stderr(contains("commit:").and(contains("0".repeat(40))));
    // A sequential test cannot be cut into fixed ranges.
    harness()
        .args(match_args(&dir.path().join("x"), 1, 5))
        .args(["--shard", "0/2", "--sprt", "0,10"])
        .assert()
        .code(1)
        .stderr(contains("--shard plays fixed ranges"));
}

/// Chess960 and DFRC starts, in X-FEN (`KQkq`: the outermost rooks) and Shredder-FEN (files).
const CHESS960_BOOK: &str = "\
rkbnnqbr/pppppppp/8/8/8/8/PPPPPPPP/RKNBBQNR w KQkq - 0 1 id \"dfrc-1\";
nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1 id \"960-2\";
bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 id \"960-3\";
rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/BRNKRQNB w GAeb - 0 1 id \"dfrc-4\";
";

/// `--variant chess960`: the builtin engine against the project's engine over UCI (told
/// `UCI_Chess960`) on Chess960 and DFRC starts; python-chess referees every game by Chess960's
/// rules. A standard match refuses the book, and a UCI engine that cannot be told the notation is
/// refused before any game.
#[test]
fn chess960_games_castle_king_takes_rook_and_are_refereed() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("960.epd");
    std::fs::write(&book, CHESS960_BOOK).unwrap();
    let run = dir.path().join("run");
    let engine = format!("uci:{}", common::engine_binary().display());
    let play = |out: &Path, extra: &[&str]| {
        let mut cmd = harness();
        cmd.args(["match", "--engine", "builtin", "--engine", &engine])
            .args([
                "--limit",
                "nodes=1500",
                "--pairs",
                "4",
                "--max-plies",
                "120",
            ])
            .args([
                "--threads",
                "2",
                "--quiet",
                "--repeat-openings",
                "--openings",
            ])
            .arg(&book)
            .args(extra)
            .arg("--out")
            .arg(out);
        cmd
    };
    play(&run, &["--variant", "chess960"]).assert().success();
    let pgn = std::fs::read_to_string(run.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 8, "{pgn}");
    assert!(pgn.contains("O-O"), "some game castles:\n{pgn}");
    assert!(
        pgn.contains("[FEN \"rkbnnqbr/pppppppp/8/8/8/8/PPPPPPPP/RKNBBQNR w HAha - 0 1\"]"),
        "X-FEN rights are written as Shredder-FEN"
    );
    let manifest = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"UCI_Chess960\":\"true\""), "{manifest}");
    referee(&run);

    play(&dir.path().join("standard"), &[])
        .assert()
        .failure()
        .stderr(contains("no playable standard position"))
        .stderr(contains("needs the chess960 variant"));
    let slow = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slow-uci");
    harness()
        .args(["match", "--engine", "builtin", "--engine"])
        .arg(format!("uci:{}", slow.display()))
        .args(["--variant", "chess960", "--openings"])
        .arg(&book)
        .arg("--out")
        .arg(dir.path().join("slow"))
        .assert()
        .failure()
        .stderr(contains("does not declare UCI_Chess960"));
    harness()
        .args([
            "match",
            "--set",
            "preset=fischerle,plain",
            "--variant",
            "chess960",
            "--out",
        ])
        .arg(dir.path().join("nobook"))
        .assert()
        .failure()
        .stderr(contains("needs a book of Chess960 positions"));
}
