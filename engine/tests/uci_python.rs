//! Runs `uci_games.py`: python-chess drives the `engine` binary through games against itself and
//! against Stockfish. Needs python-chess and Stockfish; where they are missing the test says it was
//! not run, and with `FISCHERLE_REQUIRE_TOOLS=1` (as the README's test command sets) it fails.

use std::path::Path;
use std::process::Command;

fn stockfish() -> Option<String> {
    ["stockfish", "/usr/games/stockfish"]
        .into_iter()
        .find(|p| Command::new(p).arg("quit").output().is_ok())
        .map(String::from)
}

fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn python_chess_plays_games_with_the_engine() {
    let (Some(stockfish), true) = (stockfish(), python_chess()) else {
        if std::env::var("FISCHERLE_REQUIRE_TOOLS").as_deref() == Ok("1") {
            panic!("python-chess and stockfish are required (run the README's test command, which installs them)");
        }
        not_run("python_chess_plays_games_with_the_engine needs python3 with python-chess and stockfish");
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/uci_games.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_engine"))
        .arg(stockfish)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("3 passed, 0 failed"), "{text}");
}

/// Says that the test was not run: past the test harness's capture (which would hide an
/// `eprintln!` of a passing test), and into `FISCHERLE_NOT_RUN_LOG` for cargo-nextest, which
/// captures each test process whole (as the harness's tests do in `tests/common`).
fn not_run(what: &str) {
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
