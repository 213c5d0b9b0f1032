//! `tree.html` and `diff.html`: a self-contained page opened from disk (script and data inlined, no
//! network) that draws the tree as an icicle — one row per ply along the expanded line, cells as
//! wide as their subtrees, click to expand, hover for a node's details, find a line by its moves.
//! It draws only the rows of the expanded line, so a tree of a million nodes stays usable; the
//! nodes travel as base64 typed arrays (about 25 bytes a node).

use std::collections::HashMap;

use base64::Engine as _;

use super::TreeNode;

/// The page's template; `harness tree` fills in the title and the data.
const TEMPLATE: &str = include_str!("viewer.html");

/// Per node of a diff's second tree: nodes under its line in each search.
pub struct Growth {
    /// Nodes under the node's line in the first search.
    pub before: Vec<u32>,
    /// Nodes under the node's line in the second search.
    pub after: Vec<u32>,
}

impl Growth {
    /// For each of `nodes` (a diff's second tree), the nodes under its line in each search of
    /// `diff` (capped to what the page's 32-bit cells hold).
    pub fn of(diff: &super::diff::Diff, nodes: &[super::TreeNode]) -> Self {
        let under = |path: &str| {
            diff.lines.get(path).map_or((0, 0), |l| {
                (
                    l.before.min(u32::MAX.into()) as u32,
                    l.after.min(u32::MAX.into()) as u32,
                )
            })
        };
        Self {
            before: nodes.iter().map(|n| under(&n.path).0).collect(),
            after: nodes.iter().map(|n| under(&n.path).1).collect(),
        }
    }
}

/// The page for `nodes` (in visiting order) of a search from `fen`, titled `title`, with `meta`
/// under the title; `growth` colours the cells of a diff by how their line grew.
pub fn html(
    title: &str,
    meta: &str,
    fen: &str,
    nodes: &[TreeNode],
    growth: Option<&Growth>,
) -> String {
    let index: HashMap<u32, i32> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id, i as i32))
        .collect();
    let mut labels = Dictionary::default();
    labels.get(("root", ""));
    let mut actions = Dictionary::default();
    actions.get(("", ""));
    let parent: Vec<i32> = nodes
        .iter()
        .map(|n| n.parent.and_then(|p| index.get(&p).copied()).unwrap_or(-1))
        .collect();
    let label: Vec<u32> = nodes
        .iter()
        .map(|n| {
            let san = n.move_san.as_deref().unwrap_or("root");
            labels.get((san, n.move_uci.as_deref().unwrap_or("")))
        })
        .collect();
    let action: Vec<u32> = nodes
        .iter()
        .map(|n| actions.get((n.actions.as_str(), "")))
        .collect();
    let flags: Vec<u8> = nodes.iter().map(flags).collect();
    let decided: Vec<u8> = nodes.iter().map(|n| decided(n) as u8).collect();
    // The line from `fen` to the top nodes (`--under`): the page plays it before a node's own.
    let base = parent
        .iter()
        .position(|&p| p < 0)
        .map_or("", |i| nodes[i].path.as_str());
    let mut data = serde_json::json!({
        "meta": meta,
        "fen": fen,
        "base": base,
        "decided": base64::engine::general_purpose::STANDARD.encode(&decided),
        "parent": packed(&parent),
        "subtree": packed(&nodes.iter().map(|n| n.subtree).collect::<Vec<_>>()),
        "label": packed(&label),
        "level": packed(&nodes.iter().map(|n| n.level).collect::<Vec<_>>()),
        "value": packed(&nodes.iter().map(|n| n.value).collect::<Vec<_>>()),
        "flags": base64::engine::general_purpose::STANDARD.encode(&flags),
        "action": packed(&action),
        "san": labels.names.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>(),
        "uci": labels.names.iter().map(|(_, u)| u.clone()).collect::<Vec<_>>(),
        "actions": actions.names.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>(),
    });
    if let Some(g) = growth {
        data["before"] = packed(&g.before).into();
        data["after"] = packed(&g.after).into();
    }
    // The data sits inside a <script>: `</` would end it early.
    let json = data.to_string().replace("</", "<\\/");
    TEMPLATE
        .replace("TITLE_PLACEHOLDER", &escape(title))
        .replace("DATA_PLACEHOLDER", &json)
}

/// What decided a node, as the page colours it (its legend lists them in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// It searched its moves and returned an exact score: on the principal variation.
    Pv = 0,
    /// A move failed high (a cutoff).
    Cutoff = 1,
    /// Every move failed low.
    FailLow = 2,
    /// Ended before its moves: a TT cutoff, a null-move cutoff, reverse futility, mate distance.
    Pruned = 3,
    /// Searched reduced first (late move reduction).
    Reduced = 4,
    /// Its move was extended (check or singular).
    Extended = 5,
    /// Selective deepening granted it a dynamic level.
    Dynamic = 6,
}

/// The first that applies, in the order: ended early, extended, reduced, dynamic level, then
/// what the node found.
pub fn decided(n: &TreeNode) -> Decided {
    let c = &n.counts;
    if c.tt_cutoff || c.null_cutoff || c.reverse_futility || c.mate_distance {
        Decided::Pruned
    } else if n.extension.is_some() {
        Decided::Extended
    } else if n.probe == "reduced" {
        Decided::Reduced
    } else if c.dynamic_level {
        Decided::Dynamic
    } else {
        match n.found {
            "fail-high" => Decided::Cutoff,
            "fail-low" => Decided::FailLow,
            _ => Decided::Pv,
        }
    }
}

/// Kind (bit 0: QS), expected type (bits 1–2: pv, cut, all) and what was found (bits 3–4:
/// fail high, fail low, exact), as the page reads them.
fn flags(n: &TreeNode) -> u8 {
    let kind = u8::from(n.kind == "qs");
    let expected = match n.expected {
        "pv" => 0,
        "cut" => 1,
        _ => 2,
    };
    let found = match n.found {
        "fail-high" => 0,
        "fail-low" => 1,
        _ => 2,
    };
    kind | expected << 1 | found << 3
}

/// Little-endian bytes of 32-bit values, base64: the page views them as a typed array.
fn packed<T: Copy + Into<i64>>(values: &[T]) -> String {
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|&v| (v.into() as u32).to_le_bytes())
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Distinct strings (pairs) by first use, so a node carries a number instead of a string.
#[derive(Default)]
struct Dictionary {
    names: Vec<(String, String)>,
    index: HashMap<(String, String), u32>,
}

impl Dictionary {
    fn get(&mut self, (a, b): (&str, &str)) -> u32 {
        let key = (a.to_string(), b.to_string());
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(key.clone());
        self.index.insert(key, i);
        i
    }
}
