//! The retrograde KPK table against a real tablebase: every legal position's win/draw/loss and
//! distance to mate compared with Gaviota's (Debian's `gaviotatb`, probed by python-chess). Where
//! those are missing the test says it was not run; with `FISCHERLE_REQUIRE_TOOLS=1` (as the README's
//! test command sets) it fails.

mod common;

use std::path::Path;
use std::process::Command;

use common::harness;

const GAVIOTA: &str = "/usr/share/gaviotatb/gtb4";

#[test]
fn every_kpk_position_matches_gaviota() {
    let available =
        Path::new(GAVIOTA).join("kpk.gtb.cp4").exists() && common::python_has("chess.gaviota");
    let needs = format!("{GAVIOTA} (Debian gaviotatb) and python-chess");
    if !common::tools_available("every_kpk_position_matches_gaviota", available, &needs) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("kpk.csv");
    harness()
        .args(["kpk", "table", "--out"])
        .arg(&table)
        .assert()
        .success()
        .stdout(predicates::str::contains("331352 legal KPK positions"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kpk_gaviota.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&table)
        .arg(GAVIOTA)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("331352 positions checked against Gaviota, 0 mismatches"),
        "{stdout}"
    );
}
