//! Every committed study's figures agree with its run directories: each study script's `--check`
//! recomputes the tables and the README's script-written blocks (between `<!-- NAME -->` markers)
//! from the committed data and fails, printing a diff, where a README or a `table.md` says
//! something else. So a rerun that changes a figure, or a figure typed by hand into a block, fails
//! here instead of going stale. Needs python3 with numpy (the strength study's draw models);
//! where it is missing the test says it was not run, and with `FISCHERLE_REQUIRE_TOOLS=1` it fails.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

/// Every study whose README a script writes (`scripts/studies.txt`: a script and its directory).
const STUDIES: &str = include_str!("../../scripts/studies.txt");

/// Not a README: the design and ladder reports' Holm family and split-half best combination,
/// recomputed by an independent implementation from the committed games.
const DESIGN_CHECKS: (&str, &[&str]) = (
    "design_checks.py",
    &[
        "results/factorial/design",
        "results/strength/design",
        "results/strength/design2",
        "results/strength/ladder",
    ],
);

/// Each check: the script (under `scripts/`) and its arguments, run from the repository.
fn checks() -> Vec<(String, Vec<String>)> {
    let mut checks: Vec<(String, Vec<String>)> = STUDIES
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert!(
                fields.len() == 2,
                "scripts/studies.txt: expected SCRIPT DIR, found {line:?}"
            );
            (fields[0].into(), vec![fields[1].into(), "--check".into()])
        })
        .collect();
    let (script, args) = DESIGN_CHECKS;
    checks.push((script.into(), args.iter().map(|a| a.to_string()).collect()));
    checks
}

/// The list names every study script that has a `--check`, so a new study cannot be left out.
#[test]
fn the_study_list_names_every_readme_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let listed: Vec<String> = checks().into_iter().map(|(script, _)| script).collect();
    for entry in std::fs::read_dir(root.join("scripts")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".py") {
            continue;
        }
        let text = std::fs::read_to_string(root.join("scripts").join(&name)).unwrap();
        if text.contains("\"--check\"") || text.contains("'--check'") {
            assert!(
                listed.contains(&name),
                "scripts/{name} has a --check but scripts/studies.txt does not list it"
            );
        }
    }
}

#[test]
fn every_study_readme_agrees_with_its_run_directories() {
    let available = common::python_has("numpy");
    let test = "every_study_readme_agrees_with_its_run_directories";
    if !common::tools_available(test, available, "python3 with numpy") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // All at once: each is a few seconds of Python reading CSVs.
    let running: Vec<_> = checks()
        .into_iter()
        .map(|(script, args)| {
            let child = Command::new("python3")
                .arg(Path::new("scripts").join(&script))
                .args(&args)
                .current_dir(&root)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("python3 scripts/{script}: {e}"));
            (script, args, child)
        })
        .collect();
    let mut stale = Vec::new();
    for (script, args, child) in running {
        let out = child.wait_with_output().expect("a check finishes");
        if !out.status.success() {
            stale.push(format!(
                "scripts/{script} {}:\n{}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "a study's README or table.md no longer says what its data says (rewrite it with the \
         script's --readme):\n{}",
        stale.join("\n")
    );
}

/// The study scripts' library and how they use it (`scripts/study_stats_check.py`): no script
/// reads a figure back out of Markdown outside the few places it names, no two scripts import
/// each other, and Holm, the p of an interval and Wilson agree with statsmodels and scipy.
#[test]
fn the_study_scripts_read_data_and_their_statistics_agree_with_independent_ones() {
    // The Markdown reads and the import circles need Python alone: always checked.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("python3")
        .arg("scripts/study_stats_check.py")
        .current_dir(&root)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let available = common::python_has("statsmodels") && common::python_has("scipy");
    let test = "the_study_scripts_read_data_and_their_statistics_agree_with_independent_ones";
    if common::tools_available(test, available, "python3 with statsmodels and scipy") {
        assert!(!text.contains("NOT RUN"), "{text}");
    }
}

/// The check can fail: a figure changed by hand inside a script-written block is found (on a copy
/// of the smallest study, which reads only its own runs and the strength study's gauntlet ratings).
#[test]
fn a_figure_typed_into_a_block_is_found() {
    let test = "a_figure_typed_into_a_block_is_found";
    if !common::tools_available(test, common::python_has("csv"), "python3") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let study = dir.path().join("match-baseline");
    common::copy_dir(&root.join("results/match-baseline"), &study);
    std::fs::create_dir_all(dir.path().join("strength")).unwrap();
    std::fs::copy(
        root.join("results/strength/gauntlet.csv"),
        dir.path().join("strength/gauntlet.csv"),
    )
    .unwrap();
    let readme = study.join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    let check = |text: &str| {
        std::fs::write(&readme, text).unwrap();
        Command::new("python3")
            .arg(root.join("scripts/match_baseline_readme.py"))
            .args([study.to_str().unwrap(), "--check"])
            .output()
            .unwrap()
    };
    let out = check(&text);
    assert!(
        out.status.success(),
        "the copy checks as the original: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The SEE match's Elo, typed one tenth higher inside the block.
    let (head, block) = text.split_once("<!-- matches -->").unwrap();
    assert!(
        block.contains("+8.4 ± 21.7"),
        "the block holds the SEE match's Elo"
    );
    let changed = format!(
        "{head}<!-- matches -->{}",
        block.replacen("+8.4 ± 21.7", "+8.5 ± 21.7", 1)
    );
    let out = check(&changed);
    assert!(
        !out.status.success(),
        "a changed figure must fail the check"
    );
    let diff = String::from_utf8_lossy(&out.stderr);
    assert!(
        diff.contains("+8.5 ± 21.7") && diff.contains("+8.4 ± 21.7"),
        "{diff}"
    );
}

/// Every opening book a study committed, and every position sample its node grids searched (made
/// again from the committed suites), has the SHA-256 the study's manifests recorded
/// (`scripts/books_check.sh`, without `--rebuild`: seconds).
#[test]
fn every_committed_book_and_sample_has_its_recorded_sha256() {
    let test = "every_committed_book_and_sample_has_its_recorded_sha256";
    if !common::tools_available(test, common::python_has("json"), "python3") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The samples record the path of the suite they were made from: the studies' default one.
    if common::shared_suites(test).is_none() || !root.join("../shared/suites/wac.epd").exists() {
        common::not_run(&format!(
            "{test} needs the public suites at ../shared/suites"
        ));
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(root.join("scripts/books_check.sh"))
        .env("HARNESS", env!("CARGO_BIN_EXE_harness"))
        .env("BOOKS_WORK", work.path())
        .env_remove("FISCHERLE_SUITES")
        .current_dir(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A check that found nothing would pass for the wrong reason: three books and nine samples.
    let checked = stdout.lines().filter(|l| l.starts_with("ok")).count();
    assert!(checked >= 12, "only {checked} files checked:\n{stdout}");
}
