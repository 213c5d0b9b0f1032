//! `harness tree`'s library: one search recorded node by node (the engine's `TreeRecorder`), the
//! nodes kept (`--iteration`, `--under`), each turned into a row with its moves in UCI and SAN and
//! what acted on it ([`TreeNode`]), written as Arrow IPC (`table.rs`) and summarised in `tree.md`
//! (`summary.rs`).

pub mod diff;
pub mod manifest;
pub mod summary;
pub mod table;
pub mod viewer;

use anyhow::{bail, Result};
use cozy_chess::{Board, Move};
use engine::board::{san_move, uci_move};
use engine::search::record::{Action, Edge, NodeKind, Probe, RecordedNode, TreeRecorder};
use engine::{Limits, Position, SearchConfig, Searcher};

/// The most nodes `harness tree` records unless told otherwise.
pub const DEFAULT_MAX_NODES: usize = 2_000_000;
/// How a null move is written in a path (UCI's null move).
pub const NULL_MOVE: &str = "0000";

/// Which iterations a recording keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Iterations {
    /// The deepest iteration searched (all its root searches, aspiration re-searches included).
    Last,
    /// Every iteration.
    All,
}

/// `--under`'s moves (UCI, separated by spaces or commas), each checked to be legal where it is
/// played, in UCI as the recorded paths write them.
pub fn line_under(root: &Board, under: Option<&str>) -> Result<Vec<String>> {
    let Some(text) = under else {
        return Ok(Vec::new());
    };
    let mut board = root.clone();
    let mut line = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let Ok(mv) = engine::board::parse_uci_move(&board, word) else {
            let after = if line.is_empty() {
                "the root".to_string()
            } else {
                line.join(" ")
            };
            bail!(
                "--under: `{}` is not a legal move after `{after}`",
                engine::excerpt::excerpt(word)
            );
        };
        line.push(uci_move(&board, mv));
        board.play_unchecked(mv);
    }
    Ok(line)
}

/// What a recording kept, in words: which iterations, under which line.
pub fn kept_words(iterations: Iterations, under: &[String], last: Option<i32>) -> String {
    let which = match iterations {
        Iterations::All => "every iteration".to_string(),
        Iterations::Last => format!("the last iteration (depth {})", last.unwrap_or(0)),
    };
    if under.is_empty() {
        which
    } else {
        format!("{which}, under `{}`", under.join(" "))
    }
}

/// One recorded node as a row.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeNode {
    /// Its id in the search (the order of visits).
    pub id: u32,
    /// Its parent's id; `None` at an iteration's root, or where the parent was not kept.
    pub parent: Option<u32>,
    /// The iteration (nominal depth) it belongs to.
    pub iteration: i32,
    /// The moves from the root to it, UCI, space-separated (a null move is `0000`).
    pub path: String,
    /// The move that led to it, UCI (`None` at a root).
    pub move_uci: Option<String>,
    /// The same in SAN (`--` for a null move).
    pub move_san: Option<String>,
    /// `main` or `qs`.
    pub kind: &'static str,
    /// Why its parent searched it: `plain`, `reduced` (LMR) or `singular` (verification).
    pub probe: &'static str,
    /// How its parent extended the move that led to it: `check` or `singular`.
    pub extension: Option<&'static str>,
    /// Distance from the root.
    pub ply: u32,
    /// Remaining depth.
    pub level: i32,
    /// The window it was entered with.
    pub alpha: i32,
    /// The window it was entered with.
    pub beta: i32,
    /// The node type its parent expected: `pv` (an open window), `cut` or `all`.
    pub expected: &'static str,
    /// What it turned out to be: `fail-high`, `fail-low` or `exact`.
    pub found: &'static str,
    /// Its static evaluation, where the search made one.
    pub static_eval: Option<i32>,
    /// The value it returned.
    pub value: i32,
    /// Its best move (UCI), where it searched moves.
    pub best: Option<String>,
    /// The move that failed high (UCI) and its rank (0 = first).
    pub cutoff: Option<(String, u32)>,
    /// Nodes recorded in its subtree, itself included.
    pub subtree: u32,
    /// Dynamic and trivial levels still allowed on its path.
    pub budget: (u32, u32),
    /// What acted on it, in words, `; `-separated.
    pub actions: String,
    /// The same, counted by kind.
    pub counts: ActionCounts,
}

/// What acted on one node, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ActionCounts {
    /// A stored score ended it.
    pub tt_cutoff: bool,
    /// Mate-distance pruning ended it.
    pub mate_distance: bool,
    /// Reverse futility pruning returned its static evaluation.
    pub reverse_futility: bool,
    /// It was razored a level.
    pub razoring: bool,
    /// Internal iterative reduction took a level.
    pub iir: bool,
    /// A null move was tried.
    pub null_move: bool,
    /// The null move failed high and ended it.
    pub null_cutoff: bool,
    /// Selective deepening granted a dynamic level here.
    pub dynamic_level: bool,
    /// Selective deepening granted a trivial level here.
    pub trivial_level: bool,
    /// Moves futility pruning skipped.
    pub futility_prunes: u32,
    /// Moves late move pruning skipped.
    pub late_move_prunes: u32,
    /// Quiet moves history pruning skipped.
    pub history_prunes: u32,
    /// Moves searched reduced first (LMR).
    pub reductions: u32,
    /// Of which searched again at their full level.
    pub researches: u32,
    /// Moves extended for giving check.
    pub check_extensions: u32,
    /// The TT move extended as singular.
    pub singular_extensions: u32,
    /// The TT move searched a level shallower (the singular extension's negative extension).
    pub negative_extensions: u32,
    /// The singular verification's multicut ended the node.
    pub multicut: bool,
    /// QS: the static evaluation stood.
    pub stand_pat: bool,
    /// QS: captures delta pruning skipped.
    pub delta_prunes: u32,
    /// QS: captures SEE pruning skipped.
    pub see_prunes: u32,
}

/// Searches `position` with `config` within `limits`, recording at most `max_nodes` nodes.
/// Refuses a search that visits more, unless `truncate`.
pub fn record(
    position: &Position,
    config: SearchConfig,
    limits: Limits,
    max_nodes: usize,
    truncate: bool,
) -> Result<(engine::SearchResult, TreeRecorder)> {
    let mut searcher = Searcher::with_recorder(config, TreeRecorder::new(max_nodes));
    let result = searcher.search(position, limits, |_| {});
    let recorder = searcher.into_recorder();
    if recorder.overflowed && !truncate {
        bail!(
            "the search visited {} nodes, more than --max-nodes {max_nodes}: raise --max-nodes, lower \
             the limit, record one line with --under, or keep the first {max_nodes} with --truncate",
            result.stats.nodes
        );
    }
    Ok((result, recorder))
}

/// The kept nodes of `recorder` as rows: `iterations` decides which iterations, `under` (UCI
/// moves from the root) which subtree. Nodes come in the order the search visited them.
pub fn rows(
    root: &Board,
    recorder: &TreeRecorder,
    iterations: Iterations,
    under: &[String],
) -> Vec<TreeNode> {
    let last = recorder.nodes.iter().map(|n| n.iteration).max();
    // The open path: (id, board, path) of each ancestor of the next node, innermost last.
    let mut open: Vec<(u32, Board, String)> = Vec::new();
    let mut kept = std::collections::HashSet::new();
    let mut out = Vec::new();
    for node in &recorder.nodes {
        while open
            .last()
            .is_some_and(|(id, _, _)| Some(*id) != node.parent)
        {
            open.pop();
        }
        let (board, path, uci, san) = match (open.last(), node.enter.edge) {
            (Some((_, parent, path)), Edge::Move(mv)) => step(parent, path, mv),
            // A singular verification: its node's position, searched again.
            (Some((_, parent, path)), Edge::Exclusion(_)) => {
                (parent.clone(), path.clone(), None, None)
            }
            (Some((_, parent, path)), Edge::Null) => {
                let board = parent.null_move().unwrap_or_else(|| parent.clone());
                let path = join(path, NULL_MOVE);
                (
                    board,
                    path,
                    Some(NULL_MOVE.to_string()),
                    Some("--".to_string()),
                )
            }
            _ => (root.clone(), String::new(), None, None),
        };
        let wanted = match iterations {
            Iterations::All => true,
            Iterations::Last => Some(node.iteration) == last,
        } && is_under(&path, under);
        if wanted {
            kept.insert(node.id);
            let mut row = row(node, &board, path.clone(), uci, san);
            row.parent = node.parent.filter(|p| kept.contains(p));
            row.extension = node
                .parent
                .and_then(|p| extension(&recorder.nodes[p as usize], node.enter.edge));
            out.push(row);
        }
        open.push((node.id, board, path));
    }
    out
}

/// The child of `parent` by `mv`, its path, and the move in UCI and SAN.
fn step(parent: &Board, path: &str, mv: Move) -> (Board, String, Option<String>, Option<String>) {
    let uci = uci_move(parent, mv);
    let san = san_move(parent, mv);
    let mut board = parent.clone();
    board.play_unchecked(mv);
    (board, join(path, &uci), Some(uci), Some(san))
}

fn join(path: &str, mv: &str) -> String {
    if path.is_empty() {
        mv.to_string()
    } else {
        format!("{path} {mv}")
    }
}

/// Whether `path` is the line `under` or lies below it.
fn is_under(path: &str, under: &[String]) -> bool {
    let mut moves = path.split(' ').filter(|m| !m.is_empty());
    under.iter().all(|u| moves.next() == Some(u.as_str()))
}

/// How `parent` extended the move of `edge`, if it did.
fn extension(parent: &RecordedNode, edge: Edge) -> Option<&'static str> {
    let Edge::Move(mv) = edge else { return None };
    parent.actions.iter().find_map(|a| match *a {
        Action::CheckExtension(m) if m == mv => Some("check"),
        Action::SingularExtension(m) if m == mv => Some("singular"),
        Action::NegativeExtension(m) if m == mv => Some("negative"),
        _ => None,
    })
}

/// The row of `node` at `board` (its parent and extension are the caller's to fill in).
fn row(
    node: &RecordedNode,
    board: &Board,
    path: String,
    move_uci: Option<String>,
    move_san: Option<String>,
) -> TreeNode {
    let e = node.enter;
    let value = node.leave.map_or(0, |l| l.value);
    let (counts, actions) = describe(board, &node.actions);
    TreeNode {
        id: node.id,
        parent: node.parent,
        iteration: node.iteration,
        path,
        move_uci,
        move_san,
        kind: match e.kind {
            NodeKind::Main => "main",
            NodeKind::Quiescence => "qs",
        },
        probe: match e.probe {
            Probe::Plain => "plain",
            Probe::Reduced => "reduced",
            Probe::Singular => "singular",
        },
        extension: None,
        ply: e.ply as u32,
        level: e.level,
        alpha: e.alpha,
        beta: e.beta,
        expected: if e.beta - e.alpha > 1 {
            "pv"
        } else if e.expected_cut {
            "cut"
        } else {
            "all"
        },
        found: if value >= e.beta {
            "fail-high"
        } else if value <= e.alpha {
            "fail-low"
        } else {
            "exact"
        },
        static_eval: node.static_eval,
        value,
        best: node.best.map(|mv| uci_move(board, mv)),
        cutoff: node
            .cutoff
            .map(|(mv, rank)| (uci_move(board, mv), rank as u32)),
        subtree: node.subtree,
        budget: e.budget,
        actions,
        counts,
    }
}

/// The actions on a node at `board`, counted and in words.
fn describe(board: &Board, actions: &[Action]) -> (ActionCounts, String) {
    let mut c = ActionCounts::default();
    let san = |mv: Move| san_move(board, mv);
    let words: Vec<String> = actions
        .iter()
        .map(|action| match *action {
            Action::TtCutoff => flag(&mut c.tt_cutoff, "TT cutoff"),
            Action::MateDistance => flag(&mut c.mate_distance, "mate-distance cutoff"),
            Action::MateWindow => "window narrowed to the mates still possible".into(),
            Action::ReverseFutility => flag(&mut c.reverse_futility, "reverse futility"),
            Action::Razoring => flag(&mut c.razoring, "razored a level"),
            Action::Iir => flag(&mut c.iir, "IIR: a level less without a TT move"),
            Action::NullMoveTry => flag(&mut c.null_move, "null move tried"),
            Action::NullMoveCutoff => flag(&mut c.null_cutoff, "null-move cutoff"),
            Action::DynamicLevel { legal, limit } => {
                c.dynamic_level = true;
                format!("{legal} legal moves ≤ candidate limit {limit}: dynamic level granted")
            }
            Action::TrivialLevel => flag(&mut c.trivial_level, "1 legal move: trivial level"),
            Action::Futility(mv) => count(&mut c.futility_prunes, "futility pruned", san(mv)),
            Action::LateMovePruning(mv) => {
                count(&mut c.late_move_prunes, "late move pruned", san(mv))
            }
            Action::HistoryPrune(mv) => count(&mut c.history_prunes, "history pruned", san(mv)),
            Action::Reduction { mv, by, researched } => {
                c.reductions += 1;
                c.researches += u32::from(researched);
                let again = if researched { ", searched again" } else { "" };
                format!("LMR {} by {by}{again}", san(mv))
            }
            Action::CheckExtension(mv) => {
                count(&mut c.check_extensions, "check extension", san(mv))
            }
            Action::SingularExtension(mv) => {
                count(&mut c.singular_extensions, "singular extension", san(mv))
            }
            Action::NegativeExtension(mv) => {
                count(&mut c.negative_extensions, "negative extension", san(mv))
            }
            Action::Multicut => flag(&mut c.multicut, "singular multicut"),
            Action::StandPat => flag(&mut c.stand_pat, "stand pat"),
            Action::DeltaPrune(mv) => count(&mut c.delta_prunes, "delta pruned", san(mv)),
            Action::SeePrune(mv) => count(&mut c.see_prunes, "SEE pruned", san(mv)),
            Action::Cutoff { .. } | Action::Best(_) => String::new(),
        })
        .filter(|w| !w.is_empty())
        .collect();
    (c, words.join("; "))
}

fn flag(slot: &mut bool, words: &str) -> String {
    *slot = true;
    words.to_string()
}

fn count(slot: &mut u32, words: &str, mv: String) -> String {
    *slot += 1;
    format!("{words} {mv}")
}

#[cfg(test)]
mod tests;
