//! The file list of docs/architecture.md (*Files*) stays the map of the code: every `.rs` file of the workspace is
//! named on its directory's line, and every name there is a file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness crate sits in the workspace")
        .to_path_buf()
}

/// The *Files* block of docs/architecture.md: directory → the `.rs` names on its line and continuation lines.
fn listed() -> BTreeMap<String, BTreeSet<String>> {
    let readme =
        std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md");
    let section = readme
        .split("## Files")
        .nth(1)
        .expect("docs/architecture.md has a `## Files` section");
    let block = section
        .split("```")
        .nth(1)
        .expect("the Files section has a code block");
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = None;
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        if !line.starts_with(' ') {
            let dir = words.next().expect("a directory").trim_end_matches('/');
            current = Some(dir.to_string());
        }
        let dir = current
            .clone()
            .expect("a continuation line follows a directory line");
        let names = words
            .map(|w| w.trim_matches(|c: char| c == '(' || c == ')'))
            .filter(|w| w.ends_with(".rs"))
            .map(str::to_string);
        map.entry(dir).or_default().extend(names);
    }
    map
}

/// Every `.rs` file of the workspace's crates, by directory relative to the root.
fn on_disk() -> BTreeMap<String, BTreeSet<String>> {
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack: Vec<PathBuf> = ["engine", "lab", "play", "harness"]
        .iter()
        .map(|c| root().join(c))
        .collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = dir.strip_prefix(root()).expect("under the root");
                let name = path.file_name().expect("a file name").to_string_lossy();
                map.entry(rel.to_string_lossy().replace('\\', "/"))
                    .or_default()
                    .insert(name.to_string());
            }
        }
    }
    map
}

#[test]
fn every_source_file_is_on_the_readme_map_and_nothing_else() {
    let (listed, on_disk) = (listed(), on_disk());
    let mut problems = Vec::new();
    for (dir, files) in &on_disk {
        let named = listed.get(dir).cloned().unwrap_or_default();
        for file in files.difference(&named) {
            problems.push(format!(
                "{dir}/{file} is not named in the architecture page's Files list"
            ));
        }
    }
    for (dir, names) in &listed {
        let files = on_disk.get(dir).cloned().unwrap_or_default();
        for name in names.difference(&files) {
            problems.push(format!(
                "the architecture page's Files list names {dir}/{name}, which is no file"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
