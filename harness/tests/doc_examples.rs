//! Every shell example of the README and of `docs/*.md` runs, so that an example cannot rot.
//!
//! The `harness` command lines of each fenced `sh` block — `cargo run --release -p harness -- …`,
//! `target/release/harness …` or `harness …`, backslash continuations joined, comments skipped —
//! are run with the binary of this build, each as the table [`EXERCISES`] says: `grid`, `match`
//! and `tune` with `--dry-run` (the plan is built and checked and every UCI engine started, nothing
//! searched), unless a later example on the same page reads what it writes, which then needs it
//! run for real; the others as written, or made smaller where the table says how. Nothing is
//! written into the repository: every `--out` goes to a temporary directory (and one is given to
//! commands that would otherwise write into `results/`), and a committed directory that a command
//! writes into (`report DIR`, `--resume DIR`) is copied there first. `../shared/suites/` is the
//! public suites' directory (`$FISCHERLE_SUITES`).
//!
//! Examples that need what this machine lacks — the public suites, a UCI engine such as Toga II —
//! say `NOT RUN:` as the other tests do (and fail under `FISCHERLE_REQUIRE_SUITES=1` /
//! `FISCHERLE_REQUIRE_TOOLS=1`). So does a line that reads what a script in the same block made
//! (a cluster job's shards): scripts (`scripts/…`) and other programs are not run here.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::copy_dir;

/// How the test runs one subcommand.
struct Exercise {
    /// The subcommand as typed (`suite make`).
    command: &'static str,
    /// It has `--dry-run`: run with it, unless a later example on the page reads its output.
    dry_run: bool,
    /// Without `--out` it would write into `results/<timestamp>-…/`: the test gives it one.
    default_out: bool,
    /// Exit codes that count as success.
    success: &'static [i32],
    /// What the test changes, in words (shown when the example fails).
    change: &'static str,
    /// The change itself, on the arguments after the subcommand's words.
    shrink: fn(&mut Vec<String>),
}

fn as_written(_: &mut Vec<String>) {}

impl Exercise {
    /// A subcommand with `--dry-run` that would write into `results/` without `--out`.
    const fn dry(command: &'static str) -> Self {
        Self {
            command,
            dry_run: true,
            default_out: true,
            success: &[0],
            change: "--dry-run (for real when a later example reads its --out)",
            shrink: as_written,
        }
    }

    /// A subcommand run for real, changed as `change` says (as written unless [`Self::shrunk`]).
    const fn real(command: &'static str, change: &'static str) -> Self {
        Self {
            command,
            dry_run: false,
            default_out: false,
            success: &[0],
            change,
            shrink: as_written,
        }
    }

    /// Writes into `results/` without `--out`: the test gives it one.
    const fn writes_out(self) -> Self {
        Self {
            default_out: true,
            ..self
        }
    }

    const fn succeeds_on(self, success: &'static [i32]) -> Self {
        Self { success, ..self }
    }

    const fn shrunk(self, shrink: fn(&mut Vec<String>)) -> Self {
        Self { shrink, ..self }
    }
}

/// The table: every subcommand a document may show, and how it is exercised here.
const EXERCISES: &[Exercise] = &[
    Exercise::dry("grid"),
    Exercise::dry("match"),
    Exercise::dry("tune"),
    Exercise::real(
        "report",
        "as written (a committed DIR is copied first: report writes into it); `--all results`: \
         a copy of one study (results/eval) instead of the committed results/",
    )
    .shrunk(smaller_report_all),
    Exercise::real(
        "index",
        "smaller: a copy of one study (results/eval) is indexed, not the committed results/",
    )
    .shrunk(smaller_index),
    Exercise::real("compare", "as written"),
    Exercise::real("merge", "as written"),
    Exercise::real("tree", "as written (a search of a second or so)").writes_out(),
    Exercise::real("tree diff", "as written").writes_out(),
    Exercise::real(
        "suite check",
        "as written; exit 3 (a line could not be read, named as file:line) is what it shows",
    )
    .succeeds_on(&[0, 3]),
    Exercise::real(
        "suite make",
        "smaller: --selfplay at most 2 games, --dfrc at most 4 starts, the reference's \
         --depth at most 6 (given when absent: the default is 14)",
    )
    .shrunk(smaller_suite),
    Exercise::real("perft", "as written (about a second at depth 5)"),
    Exercise::real("bench", "as written"),
    Exercise::real(
        "texel",
        "as written (about a second on the committed sample)",
    )
    .writes_out(),
    Exercise::real(
        "label",
        "as written (Stockfish at depth 12 on the 9 selected blowups: a second or two)",
    )
    .writes_out(),
    Exercise::real(
        "datagen",
        "smaller: --chunks at most 2, --games-per-chunk at most 2, --nodes at most 1000",
    )
    .writes_out()
    .shrunk(smaller_datagen),
    Exercise::real("train", "smaller: --epochs at most 2")
        .writes_out()
        .shrunk(smaller_train),
    Exercise::real("sprt", "as written"),
    Exercise::real("config", "as written"),
    Exercise::real("kpk table", "as written (under two seconds)"),
    Exercise::real(
        "kpk check",
        "smaller: depth 1 only (depth 3 over every KPK position takes about 20 s)",
    )
    .writes_out()
    .shrunk(smaller_kpk_check),
    Exercise::real(
        "kpk validate",
        "smaller: every 500th position (--every 500 --compare-every 5000; all of them \
         take about 2.5 minutes)",
    )
    .writes_out()
    .shrunk(smaller_kpk_validate),
];

/// The longest an example may run before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(300);

/// The value of `option` (the word after it), if given.
fn value<'a>(args: &'a [String], option: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == option)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// `option N` lowered to at most `most`; added with `most` when absent and `add`.
fn cap(args: &mut Vec<String>, option: &str, most: u64, add: bool) {
    match args.iter().position(|a| a == option) {
        Some(i) if i + 1 < args.len() => {
            if let Ok(n) = args[i + 1].parse::<u64>() {
                args[i + 1] = n.min(most).to_string();
            }
        }
        Some(_) => {}
        None if add => args.extend([option.to_string(), most.to_string()]),
        None => {}
    }
}

fn smaller_suite(args: &mut Vec<String>) {
    cap(args, "--selfplay", 2, false);
    cap(args, "--dfrc", 4, false);
    cap(args, "--depth", 6, true);
}

fn smaller_datagen(args: &mut Vec<String>) {
    cap(args, "--chunks", 2, false);
    cap(args, "--games-per-chunk", 2, true);
    cap(args, "--nodes", 1000, true);
}

fn smaller_train(args: &mut Vec<String>) {
    cap(args, "--epochs", 2, true);
}

/// `index DIR` writes into DIR: a fresh directory holding a copy of one study is indexed instead.
fn smaller_index(args: &mut Vec<String>) {
    let dir = std::env::temp_dir().join(format!("doc-index-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&root().join("results/eval"), &dir.join("eval"));
    args.truncate(1);
    args.push(dir.display().to_string());
}

/// `report --all DIR` writes into DIR: a fresh directory holding a copy of one study instead.
fn smaller_report_all(args: &mut Vec<String>) {
    if !args.iter().any(|a| a == "--all") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("doc-pages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&root().join("results/eval"), &dir.join("eval"));
    args.truncate(1);
    args.extend(["--all".to_string(), dir.display().to_string()]);
}

fn smaller_kpk_check(args: &mut Vec<String>) {
    let mut kept = Vec::new();
    let mut words = std::mem::take(args).into_iter();
    while let Some(word) = words.next() {
        if word == "--depth" {
            let depth = words.next().unwrap_or_default();
            if depth.parse::<u32>().is_ok_and(|d| d <= 1) {
                kept.extend([word, depth]);
            }
        } else {
            kept.push(word);
        }
    }
    if !kept.iter().any(|w| w == "--depth") {
        kept.extend(["--depth".to_string(), "1".to_string()]);
    }
    *args = kept;
}

fn smaller_kpk_validate(args: &mut Vec<String>) {
    for (option, n) in [("--every", "500"), ("--compare-every", "5000")] {
        if value(args, option).is_none() {
            args.extend([option.to_string(), n.to_string()]);
        }
    }
}

/// The workspace root (the parent of this crate).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness crate sits in the workspace")
        .to_path_buf()
}

/// A line as the shell splits it into words: quotes, backslashes, a `#` comment. Anything else
/// the shell would act on (pipes, redirections, variables, `&&`) is refused: an example of a
/// harness command is one plain command.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a ' quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => word.extend(['\\', c]),
                            None => return Err("a \" quote is not closed".into()),
                        },
                        Some('$' | '`') => return Err("a variable or command inside quotes".into()),
                        Some(c) => word.push(c),
                        None => return Err("a \" quote is not closed".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '|' | '&' | ';' | '<' | '>' | '$' | '`' | '(' | ')' => {
                return Err(format!("`{c}` outside quotes"));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// One logical line of an `sh` block.
struct Line {
    /// The document, relative to the root.
    file: String,
    /// Its first physical line (1-based).
    line: usize,
    /// Which `sh` block of the document it is in.
    block: usize,
    /// As written (continuations joined).
    text: String,
}

/// The logical lines of every fenced `sh` block of a document: continuations joined, comment
/// lines and blank lines left out.
fn sh_lines(file: &str, text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut in_sh = None::<bool>;
    let mut block = 0;
    let mut pending: Option<Line> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if let Some(fence) = trimmed.strip_prefix("```") {
            match in_sh {
                None => {
                    let sh = fence.trim() == "sh";
                    block += usize::from(sh);
                    in_sh = Some(sh);
                }
                Some(_) if fence.trim().is_empty() => in_sh = None,
                Some(_) => {}
            }
            continue;
        }
        if in_sh != Some(true) {
            continue;
        }
        let (body, continued) = match trimmed.strip_suffix('\\') {
            Some(body) => (body.trim_end(), true),
            None => (trimmed, false),
        };
        let mut line = match pending.take() {
            Some(mut line) => {
                line.text.push(' ');
                line.text.push_str(body);
                line
            }
            None if body.is_empty() || body.starts_with('#') => continue,
            None => Line {
                file: file.to_string(),
                line: i + 1,
                block,
                text: body.to_string(),
            },
        };
        if continued {
            pending = Some(line);
        } else {
            line.text = line.text.trim().to_string();
            lines.push(line);
        }
    }
    lines.extend(pending);
    lines
}

/// The harness arguments of a command line, or `None` for another program.
fn harness_args(words: &[String]) -> Result<Option<Vec<String>>, String> {
    const CARGO: [&str; 6] = ["cargo", "run", "--release", "-p", "harness", "--"];
    if words.len() >= CARGO.len() && words.iter().zip(CARGO).all(|(w, c)| w == c) {
        return Ok(Some(words[CARGO.len()..].to_vec()));
    }
    match words.first().map(String::as_str) {
        Some("target/release/harness" | "./target/release/harness" | "harness") => {
            Ok(Some(words[1..].to_vec()))
        }
        Some("cargo")
            if words.get(1).is_some_and(|w| w == "run") && words.iter().any(|w| w == "harness") =>
        {
            Err(format!(
                "a cargo command of the harness not in the form `{} …`",
                CARGO.join(" ")
            ))
        }
        _ => Ok(None),
    }
}

/// Whether a line begins as a harness command does (its words may still not read).
fn starts_like_harness(line: &str) -> bool {
    [
        "cargo run",
        "target/release/harness",
        "./target/release/harness",
        "harness ",
    ]
    .iter()
    .any(|p| line.starts_with(p))
        && line.contains("harness")
}

/// `--name=value` as two words, as clap reads it.
fn split_equals(args: Vec<String>) -> Vec<String> {
    args.into_iter()
        .flat_map(
            |a| match a.strip_prefix("--").and_then(|r| r.split_once('=')) {
                Some((name, v)) => vec![format!("--{name}"), v.to_string()],
                None => vec![a],
            },
        )
        .collect()
}

/// The subcommand's words (`suite make`, `tree diff`, `grid`).
fn command_of(args: &[String]) -> String {
    let first = args.first().map(String::as_str).unwrap_or("");
    match (first, args.get(1).map(String::as_str)) {
        ("suite" | "kpk", Some(second)) => format!("{first} {second}"),
        ("tree", Some("diff")) => "tree diff".into(),
        _ => first.into(),
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters.
fn glob_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// A harness example of a page, with what the test makes of it.
struct Example {
    at: Line,
    /// The arguments as written (`--name=value` split).
    args: Vec<String>,
    command: String,
}

/// Whether `arg` (as written) names `out` (as written) or something in it.
fn reads(arg: &str, out: &str) -> bool {
    arg == out || arg.starts_with(&format!("{out}/")) || (arg.contains('*') && glob_match(arg, out))
}

/// What a page's examples wrote: each `--out` as written, and where it went.
struct Outputs {
    tmp: PathBuf,
    made: Vec<(String, PathBuf)>,
    count: usize,
}

impl Outputs {
    fn fresh(&mut self, name: &str) -> PathBuf {
        self.count += 1;
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.tmp.join(format!("{:02}-{safe}", self.count))
    }

    /// `arg` with a path an earlier example wrote replaced by where it went (a glob by every
    /// match, in order); `None` if it names none.
    fn resolve(&self, arg: &str) -> Option<Vec<String>> {
        if arg.contains('*') {
            let mut hits: Vec<&(String, PathBuf)> = self
                .made
                .iter()
                .filter(|(out, _)| glob_match(arg, out))
                .collect();
            hits.sort_by(|a, b| a.0.cmp(&b.0));
            hits.dedup_by(|a, b| a.0 == b.0);
            return (!hits.is_empty())
                .then(|| hits.iter().map(|(_, p)| p.display().to_string()).collect());
        }
        self.made.iter().rev().find_map(|(out, path)| {
            if arg == out {
                Some(vec![path.display().to_string()])
            } else {
                arg.strip_prefix(&format!("{out}/"))
                    .map(|rest| vec![path.join(rest).display().to_string()])
            }
        })
    }
}

/// The UCI engines an example starts (paths), the reference of `suite make` included.
fn engines_of(command: &str, args: &[String]) -> Vec<PathBuf> {
    let mut engines: Vec<PathBuf> = Vec::new();
    for arg in args {
        let mut rest = arg.as_str();
        while let Some(at) = rest.find("uci:") {
            let path = &rest[at + 4..];
            let end = path.find(',').unwrap_or(path.len());
            if path.starts_with('/') || path.starts_with('.') {
                engines.push(PathBuf::from(&path[..end]));
            }
            rest = &path[end..];
        }
    }
    if command == "label" {
        engines.extend(value(args, "--engine").map(PathBuf::from));
    }
    if command == "suite make" && !args.iter().any(|a| a == "--unlabelled") {
        let reference = value(args, "--reference").unwrap_or("/usr/games/stockfish");
        engines.push(PathBuf::from(reference));
    }
    engines
}

/// Runs the harness with `args` in `dir`; the exit code and the tail of both outputs.
fn run(args: &[String], dir: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the harness binary starts");
    // Drain both pipes while waiting, so a talkative command never blocks on a full pipe.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (out, err) = (stdout.join().unwrap(), stderr.join().unwrap());
    let tail = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(12)..].join("\n")
    };
    (
        code,
        format!("stdout:\n{}\nstderr:\n{}", tail(&out), tail(&err)),
    )
}

/// The base directory of a scheduler's line: `submit.sh N BASE …`, or the `--out BASE/shard-{}`
/// of a GNU parallel line.
fn scheduler_base(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| w.ends_with("slurm/submit.sh")) {
        return words.get(i + 2).map(|b| b.to_string());
    }
    if words.first() == Some(&"seq") && line.contains("parallel") {
        let at = line.find("--out ")? + "--out ".len();
        let out = line[at..].split_whitespace().next()?;
        return out.strip_suffix("/shard-{}").map(str::to_string);
    }
    None
}

/// What the scheduler of `line` leaves in `base`: two shards of a small grid
/// (`BASE/shard-0`, `BASE/shard-1`) and, for submit.sh (whose merge job runs after the array),
/// their merge in `BASE/merged`; each registered as written by this page.
fn stand_in_for_scheduler(base: &str, line: &str, outputs: &mut Outputs) -> Result<(), String> {
    if outputs.resolve(&format!("{base}/shard-0")).is_some() {
        return Ok(());
    }
    let mut shards = Vec::new();
    for i in 0..2 {
        let name = format!("{base}/shard-{i}");
        let path = outputs.fresh(&name);
        let args: Vec<String> = [
            "grid",
            "--suite",
            "suites/blowup.epd",
            "--depth",
            "3",
            "--quiet",
            "--shard",
            &format!("{i}/2"),
            "--out",
            &path.display().to_string(),
        ]
        .map(String::from)
        .to_vec();
        let (code, output) = run(&args, &root());
        if code != Some(0) {
            return Err(format!("shard {i}: exit {code:?}\n{output}"));
        }
        shards.push(path.display().to_string());
        outputs.made.push((name, path));
    }
    if line.contains("slurm/submit.sh") {
        let name = format!("{base}/merged");
        let path = outputs.fresh(&name);
        let mut args = vec!["merge".to_string()];
        args.extend(shards);
        args.extend(["--out".to_string(), path.display().to_string()]);
        let (code, output) = run(&args, &root());
        if code != Some(0) {
            return Err(format!("merge: exit {code:?}\n{output}"));
        }
        outputs.made.push((name, path));
    }
    Ok(())
}

/// Counts of what the test did.
#[derive(Default)]
struct Tally {
    dry: usize,
    real: usize,
    not_run: usize,
}

/// The public suites' directory, asked once (`None` where they are not on this machine).
fn public_suites(cache: &mut Option<Option<PathBuf>>) -> Option<PathBuf> {
    cache
        .get_or_insert_with(|| common::shared_suites("doc_examples"))
        .clone()
}

/// Runs every example of one page; failures are pushed with their place.
fn run_page(
    file: &str,
    text: &str,
    tmp: &Path,
    suites_dir: &mut Option<Option<PathBuf>>,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    let mut examples = Vec::new();
    let mut foreign: Vec<Line> = Vec::new();
    for line in sh_lines(file, text) {
        let place = format!("{}:{}: `{}`", line.file, line.line, line.text);
        let split = match words(&line.text) {
            Ok(words) => harness_args(&words),
            Err(e) => Err(e),
        };
        match split {
            Ok(Some(args)) => {
                let args = split_equals(args);
                let command = command_of(&args);
                examples.push(Example {
                    at: line,
                    args,
                    command,
                });
            }
            Ok(None) => {
                foreign.push(line);
            }
            Err(e) if starts_like_harness(&line.text) => failures.push(format!("{place}: {e}")),
            Err(_) => {
                foreign.push(line);
            }
        }
    }
    let mut outputs = Outputs {
        tmp: tmp.to_path_buf(),
        made: Vec::new(),
        count: 0,
    };
    for (i, example) in examples.iter().enumerate() {
        let at = &example.at;
        let place = format!("{}:{}: `{}`", at.file, at.line, at.text);
        let Some(exercise) = EXERCISES.iter().find(|e| e.command == example.command) else {
            failures.push(format!(
                "{place}: no row for `{}` in doc_examples.rs's EXERCISES: say how the test runs it",
                example.command
            ));
            continue;
        };
        // What a script or another program of this block made: not run here.
        let earlier_foreign: Vec<&Line> = foreign
            .iter()
            .filter(|f| f.block == at.block && f.line < at.line)
            .collect();
        let from_script = example.args.iter().find_map(|arg| {
            let (parent, _) = arg.rsplit_once('/')?;
            let made_here = outputs.resolve(arg).is_some();
            let exists = root().join(arg).exists();
            if made_here || exists || parent.is_empty() {
                return None;
            }
            earlier_foreign
                .iter()
                .find(|f| {
                    f.text.contains(&format!("{parent}/")) || f.text.contains(&format!("{parent} "))
                })
                .map(|f| (arg.clone(), f.text.clone()))
        });
        if let Some((arg, script)) = from_script {
            // A scheduler's shards (Slurm's submit.sh, GNU parallel): the test plays the
            // scheduler with a small sharded grid, so the merge and report lines after it run on
            // real shards (tests/slurm.rs runs submit.sh itself on a real cluster).
            match scheduler_base(&script) {
                Some(base) if arg.starts_with(&format!("{base}/")) => {
                    if let Err(e) = stand_in_for_scheduler(&base, &script, &mut outputs) {
                        failures.push(format!("{place}: playing the scheduler of `{script}`: {e}"));
                        continue;
                    }
                }
                _ => {
                    failures.push(format!(
                        "{place}: `{arg}` is made by `{script}`, which this test cannot stand in for"
                    ));
                    continue;
                }
            }
        }
        // What this machine must have.
        let needs_suites = example.args.iter().any(|a| a.contains("../shared/suites"));
        let suites = if needs_suites {
            public_suites(suites_dir)
        } else {
            None
        };
        if needs_suites && suites.is_none() {
            common::not_run(&format!("{place}: needs the public suites"));
            tally.not_run += 1;
            continue;
        }
        let missing: Vec<PathBuf> = engines_of(&example.command, &example.args)
            .into_iter()
            .filter(|p| !p.exists())
            .collect();
        if !missing.is_empty() {
            let needs = missing
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            common::tools_available(&place, false, &needs);
            tally.not_run += 1;
            continue;
        }
        // Run for real when a later example reads what this one writes.
        let out_written = value(&example.args, "--out").map(str::to_string);
        let read_later = out_written.as_deref().is_some_and(|out| {
            examples[i + 1..]
                .iter()
                .any(|later| later.args.iter().any(|a| reads(a, out)))
        });
        // The arguments to run.
        let mut args: Vec<String> = Vec::new();
        let mut k = 0;
        while k < example.args.len() {
            let arg = &example.args[k];
            let next = example.args.get(k + 1);
            k += 1;
            match (arg.as_str(), next) {
                ("--out", Some(out)) => {
                    k += 1;
                    let path = outputs.fresh(out);
                    args.extend(["--out".to_string(), path.display().to_string()]);
                    outputs.made.push((out.clone(), path));
                }
                ("--resume", Some(dir)) => {
                    k += 1;
                    args.extend(["--resume".to_string(), writable_copy(dir, &mut outputs)]);
                }
                // `report DIR` writes into DIR.
                (dir, _) if example.command == "report" && k == 2 => {
                    args.push(writable_copy(dir, &mut outputs));
                }
                _ => {
                    if let (Some(dir), Some(rest)) = (&suites, arg.strip_prefix("../shared/suites"))
                    {
                        args.push(format!("{}{rest}", dir.display()));
                    } else if let Some(paths) = outputs.resolve(arg) {
                        args.extend(paths);
                    } else if arg.contains('*') {
                        args.extend(expand_on_disk(arg));
                    } else {
                        args.push(arg.clone());
                    }
                }
            }
        }
        // A resumed run writes into the directory it resumes.
        let resumes = args.iter().any(|a| a == "--resume");
        if exercise.default_out && !resumes && value(&args, "--out").is_none() {
            let path = outputs.fresh(&example.command);
            args.extend(["--out".to_string(), path.display().to_string()]);
        }
        let dry = exercise.dry_run && !read_later;
        if dry && !args.iter().any(|a| a == "--dry-run") {
            args.push("--dry-run".into());
        }
        (exercise.shrink)(&mut args);
        if dry {
            tally.dry += 1;
        } else {
            tally.real += 1;
        }
        let started = Instant::now();
        let (code, output) = run(&args, &root());
        let ok = code.is_some_and(|c| exercise.success.contains(&c));
        println!(
            "{}:{}: harness {} ({:.1} s)",
            at.file,
            at.line,
            args.join(" "),
            started.elapsed().as_secs_f64()
        );
        if !ok {
            let status = code.map_or_else(
                || format!("no exit in {TIMEOUT:?}"),
                |c| format!("exit {c}"),
            );
            failures.push(format!(
                "{place}\n  ran: harness {}\n  ({}: {})\n  {status} after {:.1} s\n{output}",
                args.join(" "),
                exercise.command,
                exercise.change,
                started.elapsed().as_secs_f64()
            ));
        }
    }
}

/// A directory an example writes into: one an earlier example made, else a copy of the
/// repository's (a committed run is never written over).
fn writable_copy(dir: &str, outputs: &mut Outputs) -> String {
    if let Some(mut paths) = outputs.resolve(dir) {
        return paths.remove(0);
    }
    let source = root().join(dir);
    if !source.is_dir() {
        return dir.to_string();
    }
    let copy = outputs.fresh(dir);
    copy_dir(&source, &copy);
    copy.display().to_string()
}

/// A glob over the repository (relative to the root), sorted; the pattern itself if nothing matches.
fn expand_on_disk(pattern: &str) -> Vec<String> {
    let (parent, name) = pattern.rsplit_once('/').unwrap_or((".", pattern));
    let mut hits: Vec<String> = std::fs::read_dir(root().join(parent))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| glob_match(name, n))
        .map(|n| format!("{parent}/{n}"))
        .collect();
    hits.sort();
    if hits.is_empty() {
        vec![pattern.to_string()]
    } else {
        hits
    }
}

#[test]
fn every_example_of_the_readme_and_the_docs_runs() {
    let root = root();
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("a docs/ directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    pages.extend(docs);

    let started = Instant::now();
    let mut suites_dir = None;
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        run_page(
            page,
            &text,
            tmp.path(),
            &mut suites_dir,
            &mut tally,
            &mut failures,
        );
    }
    let ran = tally.dry + tally.real;
    println!(
        "{ran} examples run ({} as dry runs, {} for real), {} not run, in {:.1} s",
        tally.dry,
        tally.real,
        tally.not_run,
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} examples failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // A reader that found nothing would pass for the wrong reason.
    assert!(
        ran + tally.not_run >= 40,
        "only {} examples found in {pages:?}",
        ran + tally.not_run
    );
}

#[test]
fn example_lines_are_split_as_the_shell_splits_them() {
    let split = |s: &str| words(s).unwrap();
    assert_eq!(
        split(r#"harness grid --set "uci.NullMove Pruning=Always,Never" --depth 8   # a comment"#),
        [
            "harness",
            "grid",
            "--set",
            "uci.NullMove Pruning=Always,Never",
            "--depth",
            "8"
        ]
    );
    assert_eq!(split("a 'b c' d\\ e x#y"), ["a", "b c", "d e", "x#y"]);
    assert!(words("harness grid | tee log").is_err());
    assert!(words("harness grid --out \"unclosed").is_err());
    let lines = sh_lines(
        "x.md",
        "text\n```sh\n# comment\ncargo run --release -p harness -- grid \\\n    --depth 5\n```\n```\nharness bench\n```\n",
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(
        (lines[0].line, lines[0].text.as_str()),
        (4, "cargo run --release -p harness -- grid --depth 5")
    );
    let args = harness_args(&split("cargo run --release -p harness -- tree diff a b")).unwrap();
    assert_eq!(command_of(&args.unwrap()), "tree diff");
    assert!(harness_args(&split("cargo run -p harness -- bench")).is_err());
    assert!(glob_match("results/s/shard-*", "results/s/shard-12"));
    assert!(!glob_match("results/s/shard-*", "results/t/shard-1"));
}
