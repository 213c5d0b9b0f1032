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
            "no candidates: give --from-epd FILE, --from-pgn FILE or --selfplay GAMES",
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
