//! `tree.md`: where a recorded search's nodes go — by ply and by level, by root move, by node type
//! (expected against found), and the share of the nodes that lie under each named step.

use std::collections::{BTreeMap, HashMap};

use super::TreeNode;
use crate::report::md_table::{Align, MdTable};

/// The file the summary is written to, beside the tree.
pub const SUMMARY_FILE: &str = "tree.md";
/// The summary's tables as data (`report::tables`), written beside it.
pub const TREE_JSON: &str = "tree.json";

/// What `tree.md` says about the search besides its nodes.
pub struct Header<'a> {
    /// The position, as FEN.
    pub fen: &'a str,
    /// The configuration, in words (`modern lmr.cut_more=true`).
    pub config: &'a str,
    /// The limit, in words (`depth 6`).
    pub limit: &'a str,
    /// Which iterations and which line were kept, in words.
    pub kept: &'a str,
    /// Nodes the whole search counted.
    pub search_nodes: u64,
    /// Whether the recording stopped at its cap.
    pub truncated: bool,
    /// The measured minimal tree, for a depth-limited search recorded whole.
    pub minimal: Option<Minimal>,
}

/// The minimal tree measured for a recording (`engine::search::record::minimal_tree`).
pub struct Minimal {
    /// The search's depth.
    pub depth: i32,
    /// Legal moves at the root (the uniform-tree formula's branching factor).
    pub root_moves: usize,
    /// Distinct nodes of the minimal tree by ply: main search and QS.
    pub by_ply: Vec<(u64, u64)>,
    /// How long the measurement took, seconds.
    pub seconds: f64,
}

impl Minimal {
    /// The minimal tree of `config`'s depth-limited search of `position` that `recorder`
    /// recorded whole, to `result`'s depth along its best moves.
    pub fn measure(
        config: &engine::SearchConfig,
        position: &engine::Position,
        result: &engine::SearchResult,
        recorder: &engine::search::record::TreeRecorder,
    ) -> Self {
        let started = std::time::Instant::now();
        let measured = engine::search::record::minimal_tree(
            config,
            position,
            result.depth,
            recorder.best_moves(),
        );
        Self {
            depth: result.depth,
            root_moves: engine::board::legal_moves(position.board()).len(),
            by_ply: measured.by_ply,
            seconds: started.elapsed().as_secs_f64(),
        }
    }
}

/// Whether a node lies under each named step: strictly inside the subtree the step searched.
#[derive(Debug, Clone, Copy, Default)]
struct Under {
    null_move: bool,
    reduced: bool,
    singular_verification: bool,
    dynamic_level: bool,
    trivial_level: bool,
    check_extension: bool,
    singular_extension: bool,
}

/// The Markdown summary of `nodes`.
pub fn markdown(header: &Header, nodes: &[TreeNode]) -> String {
    let mut md = String::new();
    md.push_str("# Search tree\n\n");
    md.push_str(&format!("- position: `{}`\n", header.fen));
    md.push_str(&format!("- configuration: `{}`\n", header.config));
    md.push_str(&format!(
        "- limit: {}; kept: {}\n",
        header.limit, header.kept
    ));
    let qs = nodes.iter().filter(|n| n.kind == "qs").count();
    md.push_str(&format!(
        "- nodes kept: {} ({} main search, {qs} QS), of {} the search counted{}\n\n",
        nodes.len(),
        nodes.len() - qs,
        header.search_nodes,
        if header.truncated {
            " — the recording stopped at --max-nodes"
        } else {
            ""
        }
    ));
    by_ply(&mut md, nodes);
    by_level(&mut md, nodes);
    by_root_move(&mut md, nodes);
    by_type(&mut md, nodes);
    under_steps(&mut md, nodes);
    if let Some(minimal) = &header.minimal {
        minimal_tree(&mut md, nodes, minimal);
    }
    md
}

/// The search's last iteration against its measured minimal tree and the uniform-tree formula.
fn minimal_tree(md: &mut String, nodes: &[TreeNode], m: &Minimal) {
    let mut search: Vec<(u64, u64)> = vec![(0, 0); m.by_ply.len()];
    for n in nodes.iter().filter(|n| n.iteration == m.depth) {
        if search.len() <= n.ply as usize {
            search.resize(n.ply as usize + 1, (0, 0));
        }
        let cell = &mut search[n.ply as usize];
        if n.kind == "qs" {
            cell.1 += 1;
        } else {
            cell.0 += 1;
        }
    }
    let total = |v: &[(u64, u64)]| v.iter().fold((0, 0), |(a, b), &(x, y)| (a + x, b + y));
    let ((sm, sq), (mm, mq)) = (total(&search), total(&m.by_ply));
    let b = m.root_moves as f64;
    let (up, down) = ((m.depth + 1) / 2, m.depth / 2);
    let formula = b.powi(up) + b.powi(down) - 1.0;
    let ratio = |a: u64, b: u64| {
        if b == 0 {
            "-".into()
        } else {
            format!("{:.2}", a as f64 / b as f64)
        }
    };
    md.push_str(&format!("## Minimal tree (Knuth–Moore), measured\n\n\
        The same search re-run to depth {}, the recorded best moves tried first at every node (with a perfect ordering \
        alpha-beta visits exactly the minimal tree), without the TT (a minimal tree has no transpositions) and aspiration \
        windows; distinct lines counted. It took {:.3} s.\n\n", m.depth, m.seconds));
    md.push_str(&format!("- the search's last iteration: {} nodes ({sm} main, {sq} QS); the minimal tree: {} ({mm} main, {mq} QS): **{} ×** the minimal tree (main search {} ×)\n", sm + sq, mm + mq, ratio(sm + sq, mm + mq), ratio(sm, mm)));
    md.push_str(&format!("- the uniform-tree formula the grid report uses, b^⌈d/2⌉ + b^⌊d/2⌋ − 1 with b = {} root moves: {formula:.0} nodes, against {mm} measured main-search nodes\n\n", m.root_moves));
    let mut table = MdTable::new().columns(
        [
            "ply",
            "search main",
            "minimal main",
            "ratio",
            "search QS",
            "minimal QS",
            "ratio",
        ],
        Align::Right,
    );
    for (ply, (s, mt)) in search
        .iter()
        .zip(m.by_ply.iter().chain(std::iter::repeat(&(0, 0))))
        .enumerate()
    {
        table.row([
            ply.to_string(),
            s.0.to_string(),
            mt.0.to_string(),
            ratio(s.0, mt.0),
            s.1.to_string(),
            mt.1.to_string(),
            ratio(s.1, mt.1),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn share(part: usize, whole: usize) -> String {
    format!("{:.1} %", 100.0 * part as f64 / whole.max(1) as f64)
}

fn by_ply(md: &mut String, nodes: &[TreeNode]) {
    let mut rows: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for n in nodes {
        let row = rows.entry(n.ply).or_default();
        if n.kind == "qs" {
            row.1 += 1;
        } else {
            row.0 += 1;
        }
    }
    md.push_str("## Nodes by ply\n\n");
    let mut table = MdTable::new().columns(["ply", "main", "QS", "all", "share"], Align::Right);
    for (ply, (main, qs)) in rows {
        table.row([
            ply.to_string(),
            main.to_string(),
            qs.to_string(),
            (main + qs).to_string(),
            share(main + qs, nodes.len()),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn by_level(md: &mut String, nodes: &[TreeNode]) {
    let mut rows: BTreeMap<i32, usize> = BTreeMap::new();
    for n in nodes.iter().filter(|n| n.kind == "main") {
        *rows.entry(n.level).or_default() += 1;
    }
    md.push_str("## Main-search nodes by level (remaining depth)\n\n");
    let mut table = MdTable::new().columns(["level", "nodes", "share"], Align::Right);
    let main = rows.values().sum();
    for (level, count) in rows.iter().rev() {
        table.row([level.to_string(), count.to_string(), share(*count, main)]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

/// Children of the kept roots, by move: their subtrees added over the root's searches
/// (aspiration windows may search a root more than once).
fn by_root_move(md: &mut String, nodes: &[TreeNode]) {
    let roots: Vec<u32> = nodes
        .iter()
        .filter(|n| n.parent.is_none())
        .map(|n| n.id)
        .collect();
    let mut rows: Vec<(String, usize, i32, &str)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for n in nodes
        .iter()
        .filter(|n| n.parent.is_some_and(|p| roots.contains(&p)))
    {
        let name = n.move_san.clone().unwrap_or_default();
        let i = *index.entry(name.clone()).or_insert_with(|| {
            rows.push((name, 0, 0, ""));
            rows.len() - 1
        });
        rows[i].1 += n.subtree as usize;
        // The last search of the move is the one that counts: its value and what it found.
        rows[i].2 = -n.value;
        rows[i].3 = n.found;
    }
    rows.sort_by_key(|row| std::cmp::Reverse(row.1));
    md.push_str("## Nodes by root move\n\nValue from the root's side; what the move's node found (its own fail high is the root's fail low).\n\n");
    let mut table = MdTable::new()
        .left("move")
        .columns(["nodes", "share", "value"], Align::Right)
        .left("found");
    for (name, count, value, found) in &rows {
        table.row([
            name.clone(),
            count.to_string(),
            share(*count, nodes.len()),
            value.to_string(),
            found.to_string(),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn by_type(md: &mut String, nodes: &[TreeNode]) {
    let mut cells: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for n in nodes.iter().filter(|n| n.kind == "main") {
        *cells.entry((n.expected, n.found)).or_default() += 1;
    }
    md.push_str("## Main-search nodes by type: expected (Knuth–Moore) against found\n\n");
    let found = ["fail-high", "fail-low", "exact"];
    let mut table = MdTable::new().left("expected").columns(found, Align::Right);
    for expected in ["pv", "cut", "all"] {
        let count = |found| {
            cells
                .get(&(expected, found))
                .copied()
                .unwrap_or(0)
                .to_string()
        };
        table.row(std::iter::once(expected.to_string()).chain(found.map(count)));
    }
    md.push_str(&table.render());
    md.push('\n');
}

/// The nodes that lie under each step: inside a null move's search, an LMR-reduced search, a
/// singular verification, below a dynamic or trivial level, below a check or singular extension.
fn under_steps(md: &mut String, nodes: &[TreeNode]) {
    let mut flags: HashMap<u32, Under> = HashMap::new();
    let mut totals = [0usize; 8];
    for n in nodes {
        let parent = n.parent.and_then(|p| flags.get(&p).copied());
        let from_parent = n.parent.and_then(|p| nodes_by_id(nodes, p));
        let mut u = parent.unwrap_or_default();
        u.null_move |= n.move_uci.as_deref() == Some(super::NULL_MOVE);
        u.reduced |= n.probe == "reduced";
        u.singular_verification |= n.probe == "singular";
        u.dynamic_level |= from_parent.is_some_and(|p| p.counts.dynamic_level);
        u.trivial_level |= from_parent.is_some_and(|p| p.counts.trivial_level);
        u.check_extension |= n.extension == Some("check");
        u.singular_extension |= n.extension == Some("singular");
        flags.insert(n.id, u);
        for (i, on) in [
            u.null_move,
            u.reduced,
            u.singular_verification,
            u.dynamic_level,
            u.trivial_level,
            u.check_extension,
            u.singular_extension,
            n.kind == "qs",
        ]
        .into_iter()
        .enumerate()
        {
            totals[i] += usize::from(on);
        }
    }
    let names = [
        "a null move's search",
        "an LMR-reduced search",
        "a singular verification search",
        "a dynamic level (selective deepening)",
        "a trivial level (selective deepening)",
        "a check extension",
        "a singular extension",
        "the quiescence search (QS nodes)",
    ];
    md.push_str("## Nodes under each step\n\nA node counts under every step on its path (the shares overlap).\n\n");
    let mut table = MdTable::new()
        .left("under")
        .columns(["nodes", "share"], Align::Right);
    for (name, total) in names.iter().zip(totals) {
        table.row([
            name.to_string(),
            total.to_string(),
            share(total, nodes.len()),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

/// The node with `id`: rows are in id order, so a binary search finds it.
fn nodes_by_id(nodes: &[TreeNode], id: u32) -> Option<&TreeNode> {
    nodes
        .binary_search_by_key(&id, |n| n.id)
        .ok()
        .map(|i| &nodes[i])
}
