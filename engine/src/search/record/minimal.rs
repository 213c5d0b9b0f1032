//! The measured minimal tree: [`minimal_tree`] re-searches with an ordering oracle and counts the
//! distinct lines ([`MinimalTreeRecorder`]); [`BestMoveRecorder`] collects the oracle from a
//! search without keeping its tree (`harness grid --minimal-tree`).

use std::collections::{HashMap, HashSet};

use cozy_chess::Move;

use super::{Action, Edge, Enter, Leave, NodeKind, Recorder};
use crate::eval::Score;
use crate::search::score::INFINITY;

/// The minimal tree (Knuth and Moore) of a depth-`depth` search of `position` with `config`: the
/// same search re-run to the same depth with `best` (a recorded search's best moves by position)
/// tried first at every node, and its distinct lines counted. With a perfect ordering, alpha-beta
/// visits exactly the minimal tree (Knuth and Moore 1975); the recorded best moves are the
/// left-most approximation of that ordering (Plaat, Schaeffer, Pijls and de Bruin 1996).
///
/// One search with the full window, not Plaat et al.'s two null-window proofs of the value: both
/// give the same tree for plain alpha-beta, but an engine prunes by the window — with a null window
/// the root is no longer a PV node, and `modern`'s late-move pruning then skipped root moves (WAC.014
/// at depth 5: 19 main-search nodes for 46 root moves), so the proofs measured a tree the engine's
/// own search could never be. Without the TT (a minimal tree has no transpositions) and aspiration
/// windows; every other heuristic of `config` is kept, so it is the minimal tree of this engine's
/// own search.
pub fn minimal_tree(
    config: &crate::SearchConfig,
    position: &crate::Position,
    depth: i32,
    best: HashMap<u64, Move>,
) -> MinimalTreeRecorder {
    let config = crate::SearchConfig {
        tt: None,
        tt_move: true,
        aspiration: None,
        ..config.clone()
    };
    let mut searcher = crate::Searcher::with_recorder(config, MinimalTreeRecorder::new(best));
    searcher.search_window(position, depth, (-INFINITY, INFINITY));
    searcher.into_recorder()
}

/// Counts the distinct nodes of one or more searches by their line from the root (a re-search of
/// a line counts once), by ply, and orders moves by an oracle: what the minimal tree is measured
/// with.
#[derive(Debug, Clone, Default)]
pub struct MinimalTreeRecorder {
    /// The move to search first, by position hash.
    pub oracle: HashMap<u64, Move>,
    /// Distinct lines visited, as hashes of their moves.
    lines: HashSet<u64>,
    /// Distinct nodes by ply: main search and QS.
    pub by_ply: Vec<(u64, u64)>,
    /// The open lines' hashes, innermost last.
    open: Vec<u64>,
}

impl MinimalTreeRecorder {
    /// A recorder with `oracle`'s moves first.
    pub fn new(oracle: HashMap<u64, Move>) -> Self {
        Self {
            oracle,
            ..Self::default()
        }
    }

    /// Distinct nodes counted: main search and QS.
    pub fn nodes(&self) -> (u64, u64) {
        self.by_ply
            .iter()
            .fold((0, 0), |(m, q), &(pm, pq)| (m + pm, q + pq))
    }
}

/// A line's hash from its parent's and the edge to it (FNV-style mixing, then a final
/// avalanche, so sibling lines spread).
fn line_hash(parent: u64, edge: Edge) -> u64 {
    let step = match edge {
        Edge::Root => 0,
        Edge::Null => 1,
        // The same position: the verification's nodes are the node's own line.
        Edge::Exclusion(_) => return parent,
        Edge::Move(mv) => {
            2 + ((mv.from as u64) << 8
                | (mv.to as u64) << 2
                | mv.promotion.map_or(0, |p| p as u64 + 1))
        }
    };
    let mut h = (parent ^ step).wrapping_mul(0x100_0000_01b3);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

impl Recorder for MinimalTreeRecorder {
    const ON: bool = true;

    fn iteration(&mut self, _: i32) {}

    fn enter(&mut self, node: Enter) {
        let parent = self.open.last().copied().unwrap_or(0xcbf2_9ce4_8422_2325);
        let line = line_hash(parent, node.edge);
        self.open.push(line);
        if self.lines.insert(line) {
            if self.by_ply.len() <= node.ply {
                self.by_ply.resize(node.ply + 1, (0, 0));
            }
            let cell = &mut self.by_ply[node.ply];
            match node.kind {
                NodeKind::Main => cell.0 += 1,
                NodeKind::Quiescence => cell.1 += 1,
            }
        }
    }

    fn act(&mut self, _: Action) {}

    fn static_eval(&mut self, _: Score) {}

    fn leave(&mut self, _: Leave) {
        self.open.pop();
    }

    fn oracle(&self, hash: u64) -> Option<Move> {
        self.oracle.get(&hash).copied()
    }
}

/// The best moves of a search by position, as [`TreeRecorder::best_moves`](super::TreeRecorder::best_moves)
/// gives them, without keeping the tree: per main-search node the move that failed high, else the
/// best move searched; where a position recurs, the node entered last wins. Memory is one entry
/// per distinct position, not per node.
#[derive(Debug, Clone, Default)]
pub struct BestMoveRecorder {
    /// Per position: the entry order of the node that set it, and its move.
    moves: HashMap<u64, (u64, Move)>,
    /// Open nodes, innermost last: entry order, hash, main search, best, cutoff.
    open: Vec<OpenNode>,
    /// Nodes entered so far.
    entered: u64,
}

#[derive(Debug, Clone, Copy)]
struct OpenNode {
    order: u64,
    hash: u64,
    main: bool,
    best: Option<Move>,
    cutoff: Option<Move>,
}

impl BestMoveRecorder {
    /// The best moves by position: the ordering oracle of [`minimal_tree`].
    pub fn best_moves(&self) -> HashMap<u64, Move> {
        self.moves.iter().map(|(&h, &(_, mv))| (h, mv)).collect()
    }
}

impl Recorder for BestMoveRecorder {
    const ON: bool = true;

    fn iteration(&mut self, _: i32) {}

    fn enter(&mut self, node: Enter) {
        self.entered += 1;
        self.open.push(OpenNode {
            order: self.entered,
            hash: node.hash,
            main: node.kind == NodeKind::Main,
            best: None,
            cutoff: None,
        });
    }

    fn act(&mut self, action: Action) {
        let Some(node) = self.open.last_mut() else {
            return;
        };
        match action {
            Action::Best(mv) => node.best = Some(mv),
            Action::Cutoff { mv, .. } => node.cutoff = Some(mv),
            _ => {}
        }
    }

    fn static_eval(&mut self, _: Score) {}

    fn leave(&mut self, _: Leave) {
        let Some(node) = self.open.pop() else { return };
        let Some(mv) = node.cutoff.or(node.best).filter(|_| node.main) else {
            return;
        };
        let entry = self.moves.entry(node.hash).or_insert((node.order, mv));
        if entry.0 <= node.order {
            *entry = (node.order, mv);
        }
    }
}

/// The minimal tree of a fresh depth-`depth` search of `position` with `config`: the search run
/// again with a [`BestMoveRecorder`] (recording never changes a search), then [`minimal_tree`] with
/// its best moves. Returns that search's result beside the measurement.
pub fn measure_minimal_tree(
    config: &crate::SearchConfig,
    position: &crate::Position,
    depth: i32,
) -> (crate::SearchResult, MinimalTreeRecorder) {
    let mut searcher = crate::Searcher::with_recorder(config.clone(), BestMoveRecorder::default());
    let result = searcher.search(position, crate::Limits::depth(depth), |_| {});
    let best = searcher.recorder().best_moves();
    let measured = minimal_tree(config, position, result.depth, best);
    (result, measured)
}
