//! `tree.html` in a real browser: Debian's Chromium, headless, loads the page from disk; the DOM
//! shows the root's moves with their node counts, the page raised no error, and a screenshot is
//! kept (in Cargo's test temporary directory).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{harness, not_run};

fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.exists() {
        return Some(path);
    }
    if std::env::var("FISCHERLE_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("the viewer test needs Debian's chromium (scripts/test.sh installs it)");
    }
    not_run("the tree viewer test needs Debian's chromium at /usr/bin/chromium");
    None
}

/// Chromium as the machine's probe runs it: headless, no sandbox (root), no network of its own.
fn headless(browser: &Path, profile: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

#[test]
fn the_tree_page_shows_the_roots_moves_with_their_counts_and_no_error() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tree");
    harness()
        .args(["tree", "--suite"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/blowup.epd"))
        .args([
            "--id",
            "blowup.001",
            "--set",
            "selective.candidate_limit=4",
            "--depth",
            "5",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let page = format!("file://{}", out.join("tree.html").display());
    let dom = headless(&browser, &dir.path().join("profile"))
        .arg("--dump-dom")
        .arg(&page)
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&dom.stdout);
    let log = String::from_utf8_lossy(&dom.stderr);
    assert!(
        html.contains("data-ready=\"1\""),
        "the page did not finish: {html:.2000}"
    );
    assert!(
        !html.contains("data-error"),
        "the page raised an error: {html:.2000}"
    );
    assert!(!log.contains("Uncaught"), "console: {log}");
    // Cells are coloured by what decided their node, with a legend of the seven kinds.
    assert_eq!(
        html.matches("class=\"key\"").count(),
        7,
        "legend: {html:.3000}"
    );
    assert!(html.contains("data-decided=\""), "{html:.2000}");
    // The board and the FEN are the deepest selected node's: the engine, playing the cell's line
    // from the root, reaches the same position.
    let path = html
        .rsplit(" selected\"")
        .next()
        .and_then(|rest| rest.split("data-path=\"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .expect("a selected cell");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let mut position = engine::Position::from_fen(manifest["fen"].as_str().unwrap()).unwrap();
    for mv in path.split(' ').filter(|m| !m.is_empty()) {
        position.play_uci(mv).unwrap();
    }
    let expected = engine::Variant::Standard.fen(position.board());
    let shown = html
        .split("id=\"fen\"")
        .nth(1)
        .and_then(|rest| rest.split("value=\"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .expect("the FEN box");
    assert_eq!(shown, expected, "line {path}");
    assert!(html.matches("<text ").count() >= 2, "the board has pieces");
    // The root's cell and, on the next row, its moves: their counts and the first row's grey cell
    // (the moves too narrow to draw) add up to the root's, less the root itself.
    let cells = cells(&html);
    let (root_path, root_nodes) = &cells[0];
    assert!(root_path.is_empty());
    let moves: Vec<&(String, u64)> = cells
        .iter()
        .filter(|(p, _)| !p.is_empty() && !p.contains(' '))
        .collect();
    assert!(moves.len() >= 2, "{cells:?}");
    assert!(moves.iter().any(|(p, _)| p == "f4e5"), "{cells:?}");
    let below: u64 = moves.iter().map(|(_, n)| n).sum();
    let rest = first_rest(&html);
    assert_eq!(below + rest, root_nodes - 1, "{cells:?}, rest {rest}");
    // A screenshot, kept for a person to look at.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tree-viewer.png");
    let status = headless(&browser, &dir.path().join("profile2"))
        .args(["--window-size=1280,700"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&page)
        .output()
        .unwrap();
    assert!(status.status.success());
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{}",
        shot.display()
    );
}

/// The node count of the grey cell on the root's moves' row (0 without one).
fn first_rest(html: &str) -> u64 {
    let Some(row) = html.split("class=\"row\"").nth(2) else {
        return 0;
    };
    row.split("class=\"cell rest\"")
        .nth(1)
        .and_then(|cell| cell.split("… ").nth(1))
        .and_then(|n| n.split('<').next())
        .map_or(0, |n| n.parse().unwrap())
}

/// Every cell's `data-path` and `data-nodes`, in page order.
fn cells(html: &str) -> Vec<(String, u64)> {
    html.split("data-path=\"")
        .skip(1)
        .map(|rest| {
            let path = rest.split('"').next().unwrap().to_string();
            let nodes = rest.split("data-nodes=\"").nth(1).unwrap();
            let nodes = nodes.split('"').next().unwrap().parse().unwrap();
            (path, nodes)
        })
        .collect()
}
