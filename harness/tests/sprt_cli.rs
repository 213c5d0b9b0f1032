//! `harness sprt` against an independent Python implementation of the same published formulas
//! (tests/sprt_reference.py, standard library only), to 1e-3; and its errors.

mod common;

use common::harness;
use predicates::str::contains;

/// Result sets: the fastchess test counts, lopsided and sparse ones (empty cells are regularised).
const CASES: &[(&str, f64, f64, &str)] = &[
    ("normalized", 0.0, 2.0, "365,16618,36229,16974,390"),
    ("normalized", -1.75, 0.25, "127,4883,10712,5150,104"),
    ("logistic", 0.5, 2.5, "223,9863,21279,10037,246"),
    ("logistic", 0.0, 2.0, "871,26175,55983,26678,821"),
    ("normalized", 0.0, 5.0, "3,40,120,60,9"),
    ("logistic", -3.0, 1.0, "0,12,50,31,0"),
    ("normalized", 0.0, 2.0, "36027,68692,36433"),
    ("logistic", 0.0, 10.0, "50,300,180"),
];

/// `LLR`, `Elo` and `nElo` as `harness sprt` prints them.
fn harness_numbers(model: &str, elo0: f64, elo1: f64, counts: &str) -> [f64; 3] {
    let flag = if counts.split(',').count() == 5 {
        "--pentanomial".to_string()
    } else {
        // The reference reads (L, D, W); the CLI takes W,D,L.
        "--wdl".to_string()
    };
    let cli_counts = if flag == "--wdl" {
        counts.split(',').rev().collect::<Vec<_>>().join(",")
    } else {
        counts.to_string()
    };
    let out = harness()
        .args(["sprt", &flag, &cli_counts, "--model", model])
        .args(["--elo0", &elo0.to_string(), "--elo1", &elo1.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let number_after = |label: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(label)).unwrap();
        let rest = &line[line
            .find(if label == "SPRT" { "LLR " } else { label })
            .unwrap()..];
        rest.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    [
        number_after("SPRT"),
        number_after("Elo "),
        number_after("nElo"),
    ]
}

#[test]
fn llr_and_elo_agree_with_the_python_reference() {
    if !common::tools_available("sprt reference", common::python_has("math"), "python3") {
        return;
    }
    // The two implementations must agree to 1e-3 (they do to about 1e-9; the CLI rounds).
    let input: String = CASES
        .iter()
        .map(|(m, a, b, c)| format!("{m} {a} {b} {c}\n"))
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sprt_reference.py");
    let out = common::python(&[script.as_ref(), input.as_ref()], &[]);
    for ((model, elo0, elo1, counts), line) in CASES.iter().zip(out.lines()) {
        let want: Vec<f64> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let got = harness_numbers(model, *elo0, *elo1, counts);
        // The CLI prints two (Elo) or three (LLR) decimals.
        for (i, tol) in [(0, 1e-3), (1, 5e-3), (2, 5e-3)] {
            assert!(
                (got[i] - want[i]).abs() <= tol,
                "{model} [{elo0}, {elo1}] {counts}: value {i}: harness {} vs reference {}",
                got[i],
                want[i]
            );
        }
    }
}

#[test]
fn bad_counts_and_parameters_say_what_was_expected() {
    harness()
        .args(["sprt", "--pentanomial", "1,2,3"])
        .assert()
        .code(2)
        .stderr(contains("expected 5 comma-separated counts, found 3"));
    harness()
        .args(["sprt", "--wdl", "1,x,3"])
        .assert()
        .code(2)
        .stderr(contains("found `x`"));
    harness()
        .args(["sprt", "--wdl", "1,2,3", "--elo0", "2", "--elo1", "1"])
        .assert()
        .code(1)
        .stderr(contains("elo0 < elo1"));
    harness().args(["sprt"]).assert().code(2);
}
