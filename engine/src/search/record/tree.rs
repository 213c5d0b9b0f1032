//! [`TreeRecorder`]: the whole tree in memory, node by node, up to a cap (`harness tree`).

use std::collections::HashMap;

use cozy_chess::Move;

use super::{Action, Enter, Leave, NodeKind, Recorder};
use crate::eval::Score;

/// One recorded node.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedNode {
    /// Its index in [`TreeRecorder::nodes`] (the order of visits).
    pub id: u32,
    /// Its parent's id (`None` for an iteration's root).
    pub parent: Option<u32>,
    /// The iteration (nominal depth) it belongs to.
    pub iteration: i32,
    /// What the search said on entering it.
    pub enter: Enter,
    /// Its static evaluation, where the search made one.
    pub static_eval: Option<Score>,
    /// What the search said on leaving it (`None` only while it is open).
    pub leave: Option<Leave>,
    /// Its best move, where it searched moves.
    pub best: Option<Move>,
    /// The move that failed high and its rank (0 = first), where one did.
    pub cutoff: Option<(Move, usize)>,
    /// What acted on it, in order (best move and cutoff apart).
    pub actions: Vec<Action>,
    /// Nodes in its subtree, itself included.
    pub subtree: u32,
}

/// Keeps the whole tree in memory, up to `max_nodes` nodes.
#[derive(Debug, Clone, Default)]
pub struct TreeRecorder {
    /// Every node recorded, in the order they were entered.
    pub nodes: Vec<RecordedNode>,
    /// The most nodes kept; past it, the recorder stops and says so in `overflowed`.
    pub max_nodes: usize,
    /// Whether the search visited more nodes than `max_nodes`.
    pub overflowed: bool,
    /// The iteration under way.
    pub iteration: i32,
    /// Open nodes, innermost last.
    open: Vec<u32>,
    /// Nodes entered past the cap and not yet left (their events are dropped).
    skipped_depth: usize,
}

impl TreeRecorder {
    /// The recorded best moves by position: the move that failed high where one did, else the
    /// best move searched (main-search nodes; a later iteration's move replaces an earlier one's).
    pub fn best_moves(&self) -> HashMap<u64, Move> {
        self.nodes
            .iter()
            .filter(|n| n.enter.kind == NodeKind::Main)
            .filter_map(|n| {
                n.cutoff
                    .map(|(mv, _)| mv)
                    .or(n.best)
                    .map(|mv| (n.enter.hash, mv))
            })
            .collect()
    }

    /// A recorder that keeps at most `max_nodes` nodes.
    pub fn new(max_nodes: usize) -> Self {
        Self {
            max_nodes,
            ..Self::default()
        }
    }

    fn current(&mut self) -> Option<&mut RecordedNode> {
        if self.skipped_depth > 0 {
            return None;
        }
        let id = *self.open.last()?;
        self.nodes.get_mut(id as usize)
    }
}

impl Recorder for TreeRecorder {
    const ON: bool = true;

    fn iteration(&mut self, depth: i32) {
        self.iteration = depth;
    }

    fn enter(&mut self, node: Enter) {
        if self.skipped_depth > 0 || self.nodes.len() >= self.max_nodes {
            self.overflowed = true;
            self.skipped_depth += 1;
            return;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(RecordedNode {
            id,
            parent: self.open.last().copied(),
            iteration: self.iteration,
            enter: node,
            static_eval: None,
            leave: None,
            best: None,
            cutoff: None,
            actions: Vec::new(),
            subtree: 1,
        });
        self.open.push(id);
    }

    fn act(&mut self, action: Action) {
        let Some(node) = self.current() else { return };
        match action {
            Action::Best(mv) => node.best = Some(mv),
            Action::Cutoff { mv, rank } => node.cutoff = Some((mv, rank)),
            _ => node.actions.push(action),
        }
    }

    fn static_eval(&mut self, score: Score) {
        if let Some(node) = self.current() {
            node.static_eval.get_or_insert(score);
        }
    }

    fn leave(&mut self, leave: Leave) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
            return;
        }
        let Some(id) = self.open.pop() else { return };
        let size = self.nodes.len() as u32 - id;
        let node = &mut self.nodes[id as usize];
        node.leave = Some(leave);
        node.subtree = size;
    }
}
