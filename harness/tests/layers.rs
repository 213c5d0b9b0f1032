//! The import picture of the workspace runs one way (the layout of `../shared/docs/style.md`): the
//! command line on top (the `harness` binary: `main.rs`, `cli.rs`, `commands/`), play beneath it
//! (`play`), what every command stands on beneath that (`lab`), the engine at the bottom. The
//! compiler keeps the crates' order (pinned in [`CRATES`]); this test keeps what it cannot: no two
//! modules inside a crate importing each other, directly or round a longer circle. Read from the sources: every
//! `crate::…` and `super::…` path (in `use` trees, braces expanded, and inline) is an edge from its
//! file to the module file it names. A module and its own submodules are one family (a parent
//! declares its children and they read its items), so edges between a `mod.rs` and the files
//! beneath it are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's module files by module path (`["arena", "report"]` → `arena/report.rs`).
struct Crate {
    src: PathBuf,
    modules: BTreeMap<Vec<String>, PathBuf>,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let mut modules = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    modules.insert(module_of(src, &path), path);
                }
            }
        }
        Self {
            src: src.to_path_buf(),
            modules,
        }
    }

    /// The deepest module file a path from the crate root names.
    fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        (0..=segments.len())
            .rev()
            .map(|n| segments[..n].to_vec())
            .find(|m| self.modules.contains_key(m))
    }

    /// Edges from each module to the modules it names, parents and children left out.
    fn edges(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut edges = BTreeMap::new();
        for (module, path) in &self.modules {
            let text = std::fs::read_to_string(path).unwrap();
            let text = without_tests(&text);
            let mut targets = BTreeSet::new();
            for absolute in paths_in(text, module) {
                if let Some(target) = self.resolve(&absolute) {
                    let family = target.starts_with(module) || module.starts_with(&target);
                    if !family {
                        targets.insert(target);
                    }
                }
            }
            edges.insert(module.clone(), targets);
        }
        edges
    }
}

/// The module path of a file: `a/b.rs` and `a/b/mod.rs` → `[a, b]`; `lib.rs`/`main.rs` → `[]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text before the file's unit-test module (tests may reach anywhere).
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i])
}

/// Every `crate::…`/`super::…`/`self::…` path of the text, made absolute (braces expanded).
fn paths_in(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let own: Vec<String> = module.to_vec();
    let mut out = Vec::new();
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let root = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|r| boundary && rest.starts_with(r));
        let Some(root) = root else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let (tree, used) = use_tree(&rest[root.len()..]);
        let base: Vec<String> = match root {
            "crate::" => Vec::new(),
            "self::" => own.clone(),
            _ => own[..own.len().saturating_sub(1)].to_vec(),
        };
        for leaf in tree {
            let mut path = base.clone();
            // `super::super::x`
            let mut segments = leaf.into_iter().peekable();
            while segments.peek().is_some_and(|s| s == "super") {
                segments.next();
                path.pop();
            }
            path.extend(segments.filter(|s| s != "self"));
            out.push(path);
        }
        i += root.len() + used;
    }
    out
}

/// Reads a use tree (`a::b::{c, d::{e, f}}` or `a::b::C`) at the start of `text`: its leaves as
/// segment lists, and the bytes read.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    loop {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i > start {
            prefix.push(text[start..i].to_string());
        }
        if text[i..].starts_with("::{") {
            i += 3;
            let mut leaves = Vec::new();
            loop {
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    i += 1;
                    break;
                }
                let (inner, used) = use_tree(&text[i..]);
                i += used.max(1);
                for leaf in inner {
                    leaves.push(prefix.iter().cloned().chain(leaf).collect());
                }
            }
            return (leaves, i);
        }
        if text[i..].starts_with("::") {
            i += 2;
            continue;
        }
        return (vec![prefix], i);
    }
}

/// The modules that take part in a circle of imports (strongly connected, Tarjan), each circle
/// as its members.
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    let names: Vec<&Vec<String>> = edges.keys().collect();
    let index: BTreeMap<&Vec<String>, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
    let nodes: Vec<_> = names.iter().map(|_| graph.add_node(())).collect();
    for (from, targets) in edges {
        for to in targets {
            if let Some(&j) = index.get(to) {
                graph.add_edge(nodes[index[from]], nodes[j], ());
            }
        }
    }
    petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .map(|scc| {
            let mut members: Vec<String> = scc
                .iter()
                .map(|n| {
                    let name = names[n.index()].join("/");
                    if name.is_empty() {
                        "(root)".to_string()
                    } else {
                        name
                    }
                })
                .collect();
            members.sort();
            members
        })
        .collect()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .into()
}

/// The workspace's crates, each above the ones it may use: the compiler keeps every import
/// pointing down (a crate cannot name one that does not depend on it, and Cargo refuses a circle
/// of crates); this pins which way down is.
const CRATES: [(&str, &[&str]); 4] = [
    ("engine", &[]),
    ("lab", &["engine"]),
    ("play", &["engine", "lab"]),
    ("harness", &["engine", "lab", "play"]),
];

/// The workspace crates a crate's `Cargo.toml` depends on (its `path = "../x"` dependencies).
fn path_dependencies(krate: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(workspace().join(krate).join("Cargo.toml")).unwrap();
    let manifest: toml::Table = text.parse().unwrap();
    let mut found = BTreeSet::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = manifest.get(section).and_then(|d| d.as_table()) else {
            continue;
        };
        for (name, spec) in deps {
            if spec.get("path").is_some() {
                found.insert(name.clone());
            }
        }
    }
    found
}

#[test]
fn each_crate_uses_only_the_crates_below_it() {
    let members: toml::Table = std::fs::read_to_string(workspace().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let listed: BTreeSet<String> = members["workspace"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let layered: BTreeSet<String> = CRATES.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(
        listed, layered,
        "every workspace member has its place in CRATES"
    );
    for (krate, below) in CRATES {
        let below: BTreeSet<String> = below.iter().map(|b| b.to_string()).collect();
        let used = path_dependencies(krate);
        assert!(
            used.is_subset(&below),
            "{krate} uses {:?}, which are not below it",
            used.difference(&below).collect::<Vec<_>>()
        );
    }
}

#[test]
fn no_two_modules_import_each_other() {
    for krate in ["engine/src", "lab/src", "play/src", "harness/src"] {
        let krate = Crate::read(&workspace().join(krate));
        let found = circles(&krate.edges());
        assert!(
            found.is_empty(),
            "circles of imports in {}: {found:#?}",
            krate.src.display()
        );
    }
}

/// The same picture one floor up: each top-level module (a folder and everything in it) is one
/// node, so a circle between folders (`a/x.rs` → `b/`, `b/y.rs` → `a/`) is found too.
#[test]
fn no_two_top_level_modules_import_each_other() {
    for krate in ["engine/src", "lab/src", "play/src", "harness/src"] {
        let krate = Crate::read(&workspace().join(krate));
        let mut folders: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (from, targets) in krate.edges() {
            let top = |m: &Vec<String>| m.iter().take(1).cloned().collect::<Vec<String>>();
            let entry = folders.entry(top(&from)).or_default();
            for to in &targets {
                if top(to) != top(&from) && !top(&from).is_empty() {
                    entry.insert(top(to));
                }
            }
        }
        let found = circles(&folders);
        assert!(
            found.is_empty(),
            "circles between top-level modules of {}: {found:#?}",
            krate.src.display()
        );
    }
}

#[test]
fn the_reader_sees_braced_and_nested_paths() {
    let (leaves, _) = use_tree("arena::{game::{self, GameRecord}, player::Player};");
    assert_eq!(
        leaves,
        vec![
            vec!["arena", "game", "self"],
            vec!["arena", "game", "GameRecord"],
            vec!["arena", "player", "Player"],
        ]
    );
    let module = vec!["tune".to_string(), "run".to_string()];
    let paths = paths_in(
        "use super::output::Sink;\nlet x = crate::elo::sprt::Sprt::new();",
        &module,
    );
    assert_eq!(
        paths,
        vec![
            vec!["tune", "output", "Sink"],
            vec!["elo", "sprt", "Sprt", "new"],
        ]
    );
    // A circle is found, and a one-way picture has none.
    let m = |s: &str| vec![s.to_string()];
    let mut edges = BTreeMap::new();
    edges.insert(m("a"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("a")]));
    edges.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(
        circles(&edges),
        vec![vec!["a".to_string(), "b".to_string()]]
    );
    edges.insert(m("b"), BTreeSet::new());
    assert!(circles(&edges).is_empty());
}
