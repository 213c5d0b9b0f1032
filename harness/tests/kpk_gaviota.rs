//! The retrograde KPK table against a real tablebase: every legal position's win/draw/loss and
//! distance to mate compared with Gaviota's (Debian's `gaviotatb`, probed by python-chess). Where
//! those are missing the test says it was not run; with `FISCHERLE_REQUIRE_TOOLS=1` (as the README's
//! test command sets) it fails.

mod common;

use std::path::Path;

use common::{harness, python};

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
    let stdout = python(
        &[script.as_os_str(), table.as_os_str(), GAVIOTA.as_ref()],
        &[],
    );
    assert!(
        stdout.contains("331352 positions checked against Gaviota, 0 mismatches"),
        "{stdout}"
    );
}
