//! `harness suite make`: candidates from EPD, PGN and seeded self-play, labelled by a reference
//! UCI engine (Debian's stockfish, which CI installs) at MultiPV 2.

mod common;

use std::path::Path;

use common::{engine_binary, harness, stockfish, tiny};
use predicates::str::contains;

const PGN: &str = r#"[Event "test"]
[White "Anderssen"]
[Black "Kieseritzky"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5
9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6
16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8
22. Qf6+ Nxf6 23. Be7# 1-0
"#;

/// The records of an EPD file: (position, bm, id, c0).
fn records(path: &Path) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (fen_and_bm, rest) = l.split_once("; id \"").unwrap();
            let (fen, bm) = fen_and_bm.split_once(" bm ").unwrap();
            let (id, c0) = rest.split_once("\"; c0 \"").unwrap();
            (
                fen.into(),
                bm.into(),
                id.into(),
                c0.trim_end_matches("\";").into(),
            )
        })
        .collect()
}

fn margin_of(c0: &str) -> i32 {
    c0.rsplit("margin ").next().unwrap().parse().unwrap()
}

#[test]
fn a_reference_without_multipv_and_a_make_without_candidates_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.epd");
    harness()
        .args(["suite", "make", "--from-epd"])
        .arg(tiny())
        .arg("--reference")
        .arg(engine_binary())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains("a reference must offer the MultiPV option"));
    harness()
        .args(["suite", "make", "--out"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains(
            "no candidates: give --from-epd FILE, --from-pgn FILE, --selfplay GAMES or --select RUN_DIR",
        ));
    assert!(!out.exists());
}

#[test]
fn epd_and_pgn_candidates_are_labelled_and_kept_by_their_margin() {
    let Some(stockfish) = stockfish("suite make from EPD and PGN") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("immortal.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let out = dir.path().join("made.epd");
    harness()
        .args(["suite", "make", "--from-epd"])
        .arg(tiny())
        .arg("--from-pgn")
        .arg(&pgn)
        .args([
            "--from-ply",
            "30",
            "--every",
            "2",
            "--depth",
            "8",
            "--margin",
            "100",
        ])
        .arg("--reference")
        .arg(&stockfish)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("positions analysed"));
    harness()
        .args(["suite", "check"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("0 unreadable lines"));
    let made = records(&out);
    assert!(made.len() >= 4, "{made:?}");
    for (n, (_, bm, id, c0)) in made.iter().enumerate() {
        assert_eq!(id, &format!("made.{:03}", n + 1));
        assert!(
            c0.contains("labelled by Stockfish") && c0.contains("depth 8 multipv 2"),
            "{c0}"
        );
        assert!(margin_of(c0) >= 100, "{c0}");
        assert!(!bm.is_empty());
    }
    assert!(made
        .iter()
        .any(|r| r.3.starts_with(&format!("{}:", tiny().display()))));
    let from_pgn: Vec<_> = made
        .iter()
        .filter(|r| r.3.contains("game 1 (Anderssen - Kieseritzky) ply"))
        .collect();
    assert!(!from_pgn.is_empty(), "{made:?}");
    assert!(
        from_pgn.iter().all(|r| r.0.contains(" w ")),
        "ply 30, 32, …: White to move"
    );
}

#[test]
fn self_play_suites_repeat_exactly_whatever_the_thread_count() {
    let Some(stockfish) = stockfish("suite make from self-play") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let make = |threads: &str| {
        let sub = dir.path().join(threads);
        std::fs::create_dir(&sub).unwrap();
        let out = sub.join("sp.epd");
        harness()
            .args([
                "suite",
                "make",
                "--selfplay",
                "3",
                "--seed",
                "11",
                "--max-plies",
                "36",
            ])
            .args([
                "--play-depth",
                "3",
                "--depth",
                "7",
                "--margin",
                "60",
                "--per-game",
                "2",
            ])
            .args(["--threads", threads, "--reference"])
            .arg(&stockfish)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        records(&out)
    };
    let one = make("1");
    assert!(!one.is_empty() && one.len() <= 6, "{one:?}");
    assert_eq!(one, make("2"));
    for game in 0..3 {
        let kept = one
            .iter()
            .filter(|r| r.3.starts_with(&format!("selfplay game {game} ")))
            .count();
        assert!(kept <= 2, "--per-game 2, game {game} kept {kept}");
    }
    assert!(one.iter().all(|r| r.3.contains("seed 11 depth 3")));
}

/// The records of an unlabelled EPD file: (position, id, c0).
fn unlabelled(path: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            assert!(!l.contains(" bm "), "an unlabelled record has no bm: {l}");
            let (fen, rest) = l.split_once(" id \"").unwrap();
            let (id, c0) = rest.split_once("\"; c0 \"").unwrap();
            (fen.into(), id.into(), c0.trim_end_matches("\";").into())
        })
        .collect()
}

#[test]
fn an_unlabelled_population_keeps_every_position_and_its_phases_partition_it() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str, phase: Option<&str>| {
        let out = dir.path().join(name);
        let mut cmd = harness();
        cmd.args([
            "suite",
            "make",
            "--unlabelled",
            "--selfplay",
            "3",
            "--seed",
            "5",
        ])
        .args(["--play-depth", "2", "--max-plies", "90", "--from-ply", "8"])
        .args(["--every", "3", "--out"])
        .arg(&out);
        if let Some(phase) = phase {
            cmd.args(["--phase", phase]);
        }
        cmd.assert().success().stdout(contains("unlabelled"));
        unlabelled(&out)
    };
    let all = make("all.epd", None);
    assert!(all.len() > 20, "{}", all.len());
    for (_, _, c0) in &all {
        let ply: usize = c0
            .split(" ply ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(ply >= 8 && (ply - 8).is_multiple_of(3), "{c0}");
        assert!(
            c0.ends_with("; endgame") || c0.ends_with("; middlegame"),
            "{c0}"
        );
    }
    let end = make("end.epd", Some("endgame"));
    let middle = make("middle.epd", Some("middlegame"));
    assert!(end.iter().all(|r| r.2.ends_with("; endgame")));
    assert!(middle.iter().all(|r| r.2.ends_with("; middlegame")));
    let fens = |rs: &[(String, String, String)]| rs.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    let mut joined = fens(&end);
    joined.extend(fens(&middle));
    joined.sort();
    let mut expected = fens(&all);
    expected.sort();
    assert_eq!(
        joined, expected,
        "the two phases split the population exactly"
    );
    let sampled = dir.path().join("sampled.epd");
    harness()
        .args([
            "suite",
            "make",
            "--unlabelled",
            "--sample",
            "2",
            "--from-epd",
        ])
        .arg(tiny())
        .arg("--out")
        .arg(&sampled)
        .assert()
        .success();
    let lines: Vec<String> = unlabelled(&sampled)
        .iter()
        .map(|r| {
            r.2.rsplit(':')
                .next()
                .unwrap()
                .split(';')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(lines, ["1", "3", "5"], "every second record of the file");
    harness()
        .args([
            "suite",
            "make",
            "--unlabelled",
            "--margin",
            "50",
            "--selfplay",
            "1",
        ])
        .arg("--out")
        .arg(dir.path().join("x.epd"))
        .assert()
        .failure()
        .stderr(contains("--margin"));
}

#[test]
fn a_selection_keeps_exactly_the_positions_that_grow_by_the_ratio() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    harness()
        .args(["grid", "--preset", "fischerle", "--suite"])
        .arg(tiny())
        .args([
            "--set",
            "selective.candidate_limit=2,4",
            "--depth",
            "4",
            "--quiet",
            "--out",
        ])
        .arg(&run)
        .assert()
        .success();
    // The node ratio c01 / c00 per position, from runs.csv.
    let rows = common::csv_rows(&run.join("runs.csv"), &[]);
    let get = |row: &Vec<(String, String)>, key: &str| {
        row.iter().find(|(k, _)| k == key).unwrap().1.clone()
    };
    let nodes = |config: &str| -> Vec<(String, f64)> {
        rows.iter()
            .filter(|r| get(r, "config_id") == config)
            .map(|r| (get(r, "fen"), get(r, "nodes").parse().unwrap()))
            .collect()
    };
    let mut ratios: Vec<(f64, String)> = nodes("c00")
        .into_iter()
        .zip(nodes("c01"))
        .map(|((fen, a), (fen1, b))| {
            assert_eq!(fen, fen1);
            (b / a, fen)
        })
        .collect();
    ratios.sort_by(|a, b| b.0.total_cmp(&a.0));
    let bound = ratios[1].0;
    let expected: Vec<String> = ratios
        .iter()
        .filter(|(r, _)| *r >= bound)
        .map(|(_, fen)| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let out = dir.path().join("picked.epd");
    harness()
        .args(["suite", "make", "--unlabelled", "--select"])
        .arg(&run)
        .args([
            "--select-pair",
            "c00/c01",
            "--min-ratio",
            &bound.to_string(),
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let picked: Vec<String> = unlabelled(&out).into_iter().map(|r| r.0).collect();
    assert_eq!(
        picked, expected,
        "largest ratio first, none below the bound"
    );
    assert!(unlabelled(&out)[0].2.contains("selected from"));
    harness()
        .args(["suite", "make", "--unlabelled", "--select"])
        .arg(&run)
        .args(["--select-pair", "c00/c07", "--out"])
        .arg(dir.path().join("none.epd"))
        .assert()
        .failure()
        .stderr(contains(
            "no configuration `c07` (expected one of c00, c01)",
        ));
}

/// `--dfrc N`: a Chess960 book of double-Fischer-random starts in Shredder-FEN, seeded, that
/// python-chess reads as Chess960 starts with all four castling rights; labelled by Stockfish
/// told `UCI_Chess960` when a balance window is asked.
#[test]
fn dfrc_books_are_seeded_chess960_starts_that_python_chess_reads() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        harness()
            .args([
                "suite",
                "make",
                "--dfrc",
                "12",
                "--seed",
                "5",
                "--threads",
                "1",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .assert()
            .success();
        out
    };
    let book = make("dfrc.epd", &["--unlabelled"]);
    let again = make("again.epd", &["--unlabelled"]);
    let body = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(" id ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&book), body(&again), "seeded");
    assert_eq!(body(&book).len(), 12);
    if common::tools_available("dfrc referee", common::python_has("chess"), "python-chess") {
        let check = "import chess, sys\n\
            for fen in open(sys.argv[1]).read().splitlines()[1:]:\n\
            \x20   b = chess.Board(fen.split(' id ')[0] + ' 0 1', chess960=True)\n\
            \x20   assert b.is_valid() and b.fullmove_number == 1, fen\n\
            \x20   assert bin(b.castling_rights).count('1') == 4, fen\n\
            \x20   assert b.fen(shredder=True).split()[2] == fen.split()[2], fen\n\
            print('ok')\n";
        let out = common::python(&["-c".as_ref(), check.as_ref(), book.as_os_str()], &[]);
        assert!(out.contains("ok"), "{out}");
    }
    // The default reference is Debian's Stockfish.
    if stockfish("dfrc balanced").is_some() {
        let balanced = make(
            "balanced.epd",
            &["--balanced", "300", "--depth", "6", "--hash", "16"],
        );
        let text = std::fs::read_to_string(&balanced).unwrap();
        assert!(text.contains("evaluated by Stockfish"), "{text}");
    }
}
