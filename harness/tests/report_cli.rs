//! End-to-end tests of `harness report` and `harness compare` on small real runs of the tiny suite.

mod common;

use std::path::{Path, PathBuf};

use common::{harness, tiny};
use predicates::str::contains;

const FIGURES: &[&str] = &[
    "steps_candidate_limit_see-false",
    "steps_candidate_limit_see-true",
    "nodes_vs_depth",
    "ebf_vs_depth",
    "solved_vs_time",
    "solved_vs_nodes",
    "node_ratio_tails",
    "heatmap",
];

/// A 2 × 2 grid on the tiny suite at `depth`, written to `dir/name`.
fn run_grid(dir: &Path, name: &str, depth: &str) -> PathBuf {
    let out = dir.join(name);
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args([
            "--set",
            "selective.candidate_limit=3,4",
            "--set",
            "see=false,true",
        ])
        .args(["--depth", depth, "--threads", "2", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    out
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_grid_writes_the_report_and_every_figure_as_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_grid(dir.path(), "run", "4");
    let report = read(out.join("report.md"));
    for section in [
        "## Configurations",
        "## Against the baseline `c00` (candidate_limit=3 see=false)",
        "## Heinz table",
        "## Distance from the minimal tree (Knuth–Moore)",
        "| c03 | candidate_limit=4 see=true | 6 |",
        // candidate_limit is numeric, so the report steps along it; `see` is not.
        "## Steps along `selective.candidate_limit`",
        "| see=true | 3 → 4 | 6 |",
        "## Selective deepening: the mechanism",
    ] {
        assert!(
            report.contains(section),
            "report.md lacks `{section}`:\n{report}"
        );
    }
    for figure in FIGURES {
        assert!(
            !out.join(format!("{figure}.png")).exists(),
            "{figure}: one format"
        );
        let svg = read(out.join(format!("{figure}.svg")));
        assert!(svg.contains("<text"), "{figure}.svg has no text");
        assert!(
            report.contains(&format!("({figure}.svg)")),
            "report.md does not show {figure}"
        );
    }
    assert!(!report.contains("## Steps along `see`"));
    let summary = common::csv_rows(&out.join("summary.csv"), &[]);
    assert_eq!(summary.len(), 4);
}

#[test]
fn report_regenerates_the_same_report_from_the_csvs() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_grid(dir.path(), "run", "3");
    let first = read(out.join("report.md"));
    std::fs::remove_file(out.join("report.md")).unwrap();
    std::fs::remove_file(out.join("heatmap.svg")).unwrap();
    harness()
        .arg("report")
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("c03"));
    assert_eq!(read(out.join("report.md")), first);
    assert!(out.join("heatmap.svg").exists());
}

#[test]
fn report_takes_another_baseline_and_refuses_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_grid(dir.path(), "run", "3");
    harness()
        .args(["report", "--baseline", "c02"])
        .arg(&out)
        .assert()
        .success();
    assert!(read(out.join("report.md")).contains("## Against the baseline `c02`"));
    // paired.csv has the same comparisons, one row per other configuration, against c02.
    let rows = common::csv_rows(&out.join("paired.csv"), &[]);
    let field = |row: &[(String, String)], name: &str| {
        row.iter().find(|(h, _)| h == name).unwrap().1.clone()
    };
    let ids: Vec<String> = rows.iter().map(|r| field(r, "config_id")).collect();
    assert_eq!(ids, ["c00", "c01", "c03"]);
    for row in &rows {
        assert_eq!(field(row, "baseline"), "c02");
        let ratio: f64 = field(row, "geomean_ratio").parse().unwrap();
        let low: f64 = field(row, "ratio_low").parse().unwrap();
        let high: f64 = field(row, "ratio_high").parse().unwrap();
        assert!(low <= ratio && ratio <= high, "{row:?}");
    }
    // The manifest records the baseline: the report alone keeps it.
    let first = read(out.join("report.md"));
    harness().arg("report").arg(&out).assert().success();
    assert_eq!(read(out.join("report.md")), first);
    harness()
        .args(["report", "--baseline", "c9"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(contains(
            "baseline `c9` is not a configuration of this run (expected one of c00, c01, c02, c03)",
        ));
}

#[test]
fn report_alone_writes_the_committed_headline_report_again() {
    let dir = tempfile::tempdir().unwrap();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/dynlimit-blowup/steps");
    let copy = dir.path().join("steps");
    copy_tree(&committed, &copy);
    harness().arg("report").arg(&copy).assert().success();
    let (copy_name, name) = (copy.display().to_string(), "results/dynlimit-blowup/steps");
    let written = read(copy.join("report.md")).replace(&copy_name, name);
    assert!(written.contains("## Against the baseline `c02`"));
    assert_eq!(written, read(committed.join("report.md")));
    // The tables the study scripts read are the committed ones too.
    let tables = read(copy.join("report.json")).replace(&copy_name, name);
    assert_eq!(tables, read(committed.join("report.json")));
}

#[test]
fn report_on_a_directory_without_runs_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    harness()
        .arg("report")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(contains("manifest.json"));
}

#[test]
fn compare_of_two_identical_runs_finds_no_difference() {
    let dir = tempfile::tempdir().unwrap();
    let a = run_grid(dir.path(), "a", "3");
    let b = run_grid(dir.path(), "b", "3");
    let out = dir.path().join("cmp");
    let assert = harness()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("Same configurations, suites (by SHA-256) and limits."));
    // Node counts are deterministic, so every ratio is exactly 1 and nothing is gained or lost.
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| c01 |"))
        .unwrap_or_else(|| panic!("no c01 row: {stdout}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(
        &cells[2..11],
        &[
            "candidate_limit=3 see=true",
            "6",
            "1.000 [1.000, 1.000]",
            "1.000",
            "0",
            "0",
            "0",
            "0",
            cells[10]
        ],
        "{row}"
    );
    // Solved first = solved second, nothing gained or lost, McNemar p = 1.
    assert_eq!(cells[10], cells[11], "{row}");
    assert_eq!(&cells[12..15], &["0", "0", "1.000"], "{row}");
    assert_eq!(read(out.join("compare.md")), stdout);
    assert!(out.join("compare_node_ratio_tails.svg").exists());
}

#[test]
fn compare_reports_a_different_plan_and_fails_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let a = run_grid(dir.path(), "a", "3");
    let b = run_grid(dir.path(), "b", "4");
    harness()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(3)
        .stdout(contains("- limits.depth: 3 vs 4"))
        .stderr(contains("--allow-mismatch"));
    harness()
        .args(["compare", "--allow-mismatch"])
        .arg(&a)
        .arg(&b)
        .assert()
        .success()
        .stdout(contains("## Mismatches"));
}

/// Gzips `dir/name` into `dir/name.gz` and removes the plain file, as committed results keep
/// their large tables.
fn gzip_in_place(dir: &Path, name: &str) {
    use std::io::Write;
    let plain = dir.join(name);
    let bytes = std::fs::read(&plain).unwrap();
    let packed = std::fs::File::create(dir.join(format!("{name}.gz"))).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(packed, flate2::Compression::best());
    encoder.write_all(&bytes).unwrap();
    encoder.finish().unwrap();
    std::fs::remove_file(plain).unwrap();
}

/// A copy of the run directory `from` at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn a_committed_match_gets_its_pgn_from_its_tables_and_its_book() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let committed = root.join("results/strength/core/gauntlet-2s-glaurung");
    // Under the repository, as a study's runs are; the book is named from the repository's root
    // and this test runs in harness/, so it is found above the run directory.
    let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgn-rebuild/gauntlet-2s-glaurung");
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&committed, &copy);
    harness().arg("report").arg(&copy).assert().success();
    let pgn = read(copy.join("games.pgn"));
    let mut games = String::new();
    let packed = std::fs::File::open(copy.join("games.csv.gz")).unwrap();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(packed), &mut games).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), games.lines().count() - 1);
    let book = read(root.join("results/strength/gauntlet-openings.epd"));
    let first_fen = pgn
        .split("[FEN \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let placement = first_fen.split(' ').next().unwrap();
    assert!(
        book.lines().any(|l| l.starts_with(placement)),
        "{first_fen}"
    );
    // The report beside it is the committed one.
    assert_eq!(
        read(copy.join("report.md")),
        read(committed.join("report.md"))
    );
}

#[test]
fn a_report_reads_gzipped_tables_as_it_reads_plain_ones() {
    let dir = tempfile::tempdir().unwrap();
    let plain = run_grid(dir.path(), "plain", "3");
    let packed = dir.path().join("packed");
    copy_dir(&plain, &packed);
    gzip_in_place(&packed, "runs.csv");
    gzip_in_place(&packed, "iterations.csv");
    for run in [&plain, &packed] {
        harness().arg("report").arg(run).assert().success();
    }
    for table in ["summary.csv", "paired.csv"] {
        assert_eq!(read(plain.join(table)), read(packed.join(table)), "{table}");
    }
    // A match directory: games.csv and moves.csv gzipped, the same standings.
    let game_dir = dir.path().join("match");
    harness()
        .args(["match", "--set", "see=false,true", "--limit", "nodes=300"])
        .args(["--pairs", "2", "--threads", "2", "--quiet", "--out"])
        .arg(&game_dir)
        .assert()
        .success();
    let packed_games = dir.path().join("match-packed");
    copy_dir(&game_dir, &packed_games);
    gzip_in_place(&packed_games, "games.csv");
    gzip_in_place(&packed_games, "moves.csv");
    std::fs::remove_file(packed_games.join("pairings.csv")).unwrap();
    harness()
        .arg("report")
        .arg(&packed_games)
        .assert()
        .success();
    assert_eq!(
        read(game_dir.join("pairings.csv")),
        read(packed_games.join("pairings.csv"))
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Committed run directories of other kinds regenerate too (#43): a match whose `moves.csv` a
/// study left out says so instead of printing zeros, and a tune's directory rebuilds its report
/// and start/tuned players from `tune.csv`, identically but for the directory's own path.
#[test]
fn committed_matches_without_moves_and_tunes_regenerate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let tune = dir.path().join("focus");
    copy_tree(&root.join("results/tuning/focus"), &tune);
    harness().arg("report").arg(&tune).assert().success();
    let committed = std::fs::read_to_string(root.join("results/tuning/focus/report.md")).unwrap();
    let here =
        read(tune.join("report.md")).replace(&tune.display().to_string(), "results/tuning/focus");
    assert_eq!(here, committed);
    assert!(read(tune.join("start.toml")).starts_with("# The player `harness tune` started from"));
    let verify = tune.join("verify");
    harness().arg("report").arg(&verify).assert().success();
    let report = read(verify.join("report.md"));
    assert!(
        report.contains("`moves.csv` is not in this directory"),
        "{report}"
    );
    assert!(!report.contains("| p00 | 0 |"), "{report}");
}

/// Every committed run directory's report is rebuilt from its committed tables by this build and
/// compared with the committed one (`scripts/regenerate_check.sh`): identical, or listed with the
/// reason in `results/regenerate-exceptions.txt`. A report section added without regenerating the
/// committed reports, or a table a study forgot to commit, fails here.
#[test]
fn every_committed_report_regenerates_or_is_a_listed_exception() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let work = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("bash")
        .arg(root.join("scripts/regenerate_check.sh"))
        .env("HARNESS", env!("CARGO_BIN_EXE_harness"))
        .env("REGENERATE_WORK", work.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let unexplained: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" — not in "))
        .collect();
    assert!(
        out.status.success(),
        "{} run directories do not regenerate and are not listed:\n{}\n{}",
        unexplained.len(),
        unexplained.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    // A check that found nothing to check would pass for the wrong reason.
    let total: usize = stdout
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("identical "))
        .and_then(|l| l.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    assert!(
        total >= 150,
        "only {total} directories regenerated:\n{stdout}"
    );
}
