//! `report.html` of each kind of run, and `results/index.html`, in a real browser: copies of
//! committed run directories (a grid, a match, a ladder, a tune, a texel fit, a KPK validation)
//! get their page from `harness report`, a small results tree gets its index from `harness
//! index`; headless Chromium loads each from disk with every host unresolvable. Each page raises
//! no console error, refers to nothing on the network, links only to files that exist, sorts a
//! table when its header is clicked, stays under 2 MB; a screenshot of each is kept in Cargo's
//! test temporary directory.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_dir, harness, not_run};

/// The committed run directories whose pages are checked, one per kind, and whether `harness
/// report` can rebuild them from their tables (else the page renders the committed report.md),
/// with the baseline their report was made against. A rebuilt report must be the committed one,
/// byte for byte: this is the CI-sized sample of `scripts/regenerate_check.sh`, which checks every
/// committed run directory.
const RUNS: &[(&str, &str, Option<Option<&str>>)] = &[
    ("grid", "results/dynlimit-blowup/steps", Some(Some("c02"))),
    ("match", "results/eval/tuned", Some(None)),
    ("ladder", "results/factorial/design", Some(None)),
    ("tune", "results/tuning/focus", Some(None)),
    ("texel", "results/eval/fit-all", Some(None)),
    ("kpk", "results/kpk-validation/text-rules", None),
];

/// The largest page a committed run may have.
const MOST_BYTES: usize = 2 * 1024 * 1024;

fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.exists() {
        return Some(path);
    }
    if std::env::var("FISCHERLE_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("the page tests need Debian's chromium (scripts/test.sh installs it)");
    }
    not_run("the page tests need Debian's chromium at /usr/bin/chromium");
    None
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Headless Chromium from disk, every host unresolvable: a page that asked for anything on the
/// network would log the failure.
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
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Every `src="…"`, `href="…"` and `url(…)` of a page.
fn references(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["src=\"", "href=\"", "url("] {
        for rest in html.split(marker).skip(1) {
            let end = rest.find(['"', ')']).unwrap_or(rest.len());
            found.push(rest[..end].to_string());
        }
    }
    found
}

/// Loads `page` and checks it as the module says; `kind` names the screenshot.
fn check_page(browser: &Path, page: &Path, kind: &str, scratch: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.len() <= MOST_BYTES, "{kind}: {} bytes", html.len());
    for reference in references(&html) {
        assert!(
            !reference.starts_with("http") && !reference.starts_with("//"),
            "{kind}: a network reference `{reference}`"
        );
        if reference.starts_with('#') || reference.starts_with("data:") {
            continue;
        }
        let file = reference.split('#').next().unwrap();
        assert!(
            page.parent().unwrap().join(file).exists(),
            "{kind}: the link `{reference}` leads nowhere"
        );
    }
    let url = format!("file://{}#selftest", page.display());
    let out = headless(browser, &scratch.join(format!("profile-{kind}")))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{kind}: {log}");
    assert!(
        dom.contains("data-selftest=\"sorted\""),
        "{kind}: the sort self-test did not pass: {:.300}",
        dom.split("<body").nth(1).unwrap_or("")
    );
    for bad in [
        "Uncaught",
        "ERR_NAME_NOT_RESOLVED",
        "Failed to load resource",
    ] {
        assert!(!log.contains(bad), "{kind}: the console says {bad}: {log}");
    }
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("page-{kind}.png"));
    let status = headless(browser, &scratch.join(format!("shot-{kind}")))
        .args(["--window-size=1280,1400"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(status.status.success(), "{kind}");
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{}", shot.display());
}

#[test]
fn every_kind_of_page_loads_sorts_and_stays_offline() {
    let Some(browser) = chromium() else { return };
    let scratch = tempfile::tempdir().unwrap();
    for (kind, dir, rebuild) in RUNS {
        let copy = scratch.path().join(kind);
        copy_dir(&root().join(dir), &copy);
        let _ = std::fs::remove_file(copy.join("report.html"));
        let mut cmd = harness();
        cmd.arg("report").arg(&copy);
        match rebuild {
            None => {
                cmd.arg("--page");
            }
            Some(Some(baseline)) => {
                cmd.args(["--baseline", baseline]);
            }
            Some(None) => {}
        }
        cmd.assert().success();
        let committed = std::fs::read_to_string(root().join(dir).join("report.md")).unwrap();
        // A tune's report names its directory in the commands it suggests: the copy's, here.
        let rebuilt = std::fs::read_to_string(copy.join("report.md"))
            .unwrap()
            .replace(&copy.display().to_string(), dir);
        assert!(
            committed == rebuilt,
            "{kind}: {dir}/report.md does not regenerate byte for byte"
        );
        let page = copy.join("report.html");
        assert!(page.exists(), "{kind}: no report.html");
        check_page(&browser, &page, kind, scratch.path());
    }
}

#[test]
fn the_index_lists_each_study_and_run_and_loads() {
    let Some(browser) = chromium() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let results = scratch.path().join("results");
    // The strength study too: the other two's strength notes link to it.
    for study in ["eval", "kpk-validation", "strength"] {
        copy_dir(&root().join("results").join(study), &results.join(study));
    }
    // The committed studies keep no pages: --all renders each run's report.md, then the index.
    for page in ["eval/tuned/report.html", "index.html"] {
        let _ = std::fs::remove_file(results.join(page));
    }
    harness()
        .args(["report", "--all"])
        .arg(&results)
        .assert()
        .success();
    assert!(results.join("eval/tuned/report.html").is_file());
    let md = std::fs::read_to_string(results.join("index.md")).unwrap();
    // index.md links the committed reports, so building the pages does not change it; the
    // rendered index links the pages.
    assert!(md.contains("](eval/tuned/report.md)"), "{md:.2000}");
    let html = std::fs::read_to_string(results.join("index.html")).unwrap();
    assert!(
        html.contains("href=\"eval/tuned/report.html\""),
        "{html:.2000}"
    );
    assert!(md.contains("](eval/README.md)") && md.contains("](kpk-validation/README.md)"));
    // One row per study, its answer and key figure from the summary its script wrote.
    assert!(
        md.contains("| study | question | answer | key figure (95 % interval) | since | runs |")
    );
    for study in [
        "eval",
        "eval/labelled",
        "kpk-validation",
        "strength",
        "strength/core",
    ] {
        let text = std::fs::read_to_string(results.join(study).join("summary.json")).unwrap();
        let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
        let answer = summary["answer"].as_str().unwrap().replace('|', "\\|");
        assert!(md.contains(&answer), "{study}'s answer missing: {md:.2000}");
    }
    for run in ["eval/tuned", "eval/fit-all", "kpk-validation/text-rules"] {
        assert!(
            md.contains(&format!("[{run}](")),
            "{run} missing: {md:.2000}"
        );
    }
    check_page(
        &browser,
        &results.join("index.html"),
        "index",
        scratch.path(),
    );
    // In the browser: the studies' table is the page's first, one row per study.
    let out = headless(&browser, &scratch.path().join("profile-index-table"))
        .arg("--dump-dom")
        .arg(format!("file://{}", results.join("index.html").display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let first = dom.split("<table").nth(1).expect("a table");
    let first = first.split("</table>").next().unwrap();
    assert!(
        first.contains(">question<") && first.contains(">answer<"),
        "{first:.500}"
    );
    assert_eq!(first.matches("<tr>").count(), 1 + 5, "{first:.3000}");
}

/// Every directory under `dir` with a manifest or a report, relative to `root`.
fn run_dirs(root: &Path, dir: &Path, found: &mut Vec<String>) {
    if dir.join("manifest.json").is_file() || dir.join("report.md").is_file() {
        found.push(
            dir.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        );
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            run_dirs(root, &path, found);
        }
    }
}

/// The files git tracks under `dir`, relative to it; `None` outside a git checkout (a
/// downloaded source tree), where every run directory counts.
fn tracked_files(dir: &Path) -> Option<std::collections::HashSet<String>> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "--", "."])
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8(out.stdout).ok()?;
    Some(
        text.split('\0')
            .filter(|f| !f.is_empty())
            .map(String::from)
            .collect(),
    )
}

#[test]
fn the_committed_index_names_every_study_and_run_directory() {
    let results = root().join("results");
    let md = std::fs::read_to_string(results.join("index.md"))
        .expect("results/index.md is committed (`harness index results`)");
    for entry in std::fs::read_dir(&results).unwrap() {
        let path = entry.unwrap().path();
        if path.join("README.md").is_file() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                md.contains(&format!("]({name}/README.md)")),
                "results/index.md lacks the study {name}: run `harness index results`"
            );
        }
    }
    let mut runs = Vec::new();
    run_dirs(&results, &results, &mut runs);
    // Only committed runs: the README's main command writes its own run under results/ (a
    // newcomer's first command), and the index describes what the repository holds.
    if let Some(tracked) = tracked_files(&results) {
        runs.retain(|run| {
            ["manifest.json", "report.md"]
                .iter()
                .any(|file| tracked.contains(&format!("{run}/{file}")))
        });
    }
    assert!(runs.len() > 100, "{}", runs.len());
    for run in runs {
        assert!(
            md.contains(&format!("[{run}](")) || md.contains(&format!("| {run} |")),
            "results/index.md lacks the run {run}: run `harness index results`"
        );
    }
}
