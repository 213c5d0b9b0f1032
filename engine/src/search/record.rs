//! Recording a search tree: what the search tells a [`Recorder`] about each node it visits and
//! what acted on it. The search is generic over its recorder; the default, [`NoRecorder`], has
//! `ON = false`, so every call site (`if R::ON { … }`) compiles away and an unrecorded search is
//! the code it was. [`TreeRecorder`] keeps every node in memory, with a cap.

use cozy_chess::Move;

use crate::eval::Score;

/// Where a node belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The main search (`alphabeta`).
    Main,
    /// The quiescence search.
    Quiescence,
}

/// How a node was reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// The root of an iteration.
    Root,
    /// A move.
    Move(Move),
    /// A null move (a pass, for null-move pruning).
    Null,
}

/// The purpose of a search of a child, where it is not the plain one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// The plain search of a move (full window or PVS null window).
    Plain,
    /// A late move reduction's reduced null-window search.
    Reduced,
    /// The singular extension's verification search.
    Singular,
}

/// Something that acted on the current node (or on one of its moves).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// A stored score ended the node.
    TtCutoff,
    /// Mate-distance pruning ended the node (its window left nothing).
    MateDistance,
    /// The node's window was narrowed by mate-distance pruning.
    MateWindow,
    /// Reverse futility pruning returned the static evaluation.
    ReverseFutility,
    /// Limited razoring searched the node a level shallower.
    Razoring,
    /// Internal iterative reduction searched the node a level shallower.
    Iir,
    /// A null move was tried.
    NullMoveTry,
    /// The null move's search failed high and ended the node.
    NullMoveCutoff,
    /// Selective deepening granted a dynamic level: `legal` moves against the candidate limit.
    DynamicLevel {
        /// Legal moves at the node.
        legal: usize,
        /// The candidate limit they were held against.
        limit: usize,
    },
    /// Selective deepening granted a trivial level (a single legal move).
    TrivialLevel,
    /// A move was not searched: futility pruning.
    Futility(Move),
    /// A move was not searched: late move pruning.
    LateMovePruning(Move),
    /// A move was searched `by` levels shallower first (LMR); `researched` if it beat alpha there.
    Reduction {
        /// The move.
        mv: Move,
        /// Levels it was reduced by.
        by: i32,
        /// Whether it was searched again at its full level.
        researched: bool,
    },
    /// A move that gives check was searched a level deeper.
    CheckExtension(Move),
    /// The TT move was singular and searched a level deeper.
    SingularExtension(Move),
    /// QS: the static evaluation stood (stand pat at or above beta).
    StandPat,
    /// QS: a capture was not searched (delta pruning).
    DeltaPrune(Move),
    /// QS: a capture was not searched (SEE pruning).
    SeePrune(Move),
    /// The move at `rank` (0 = first) failed high and ended the node.
    Cutoff {
        /// The move.
        mv: Move,
        /// Its place in the order.
        rank: usize,
    },
    /// The node's best move (the one with the best score among those searched).
    Best(Move),
}

/// What a recorder learns when a node is entered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Enter {
    /// Main search or QS.
    pub kind: NodeKind,
    /// How the node was reached.
    pub edge: Edge,
    /// Why its parent searched it.
    pub probe: Probe,
    /// Distance from the root.
    pub ply: usize,
    /// Remaining depth.
    pub level: i32,
    /// The window it was entered with.
    pub alpha: Score,
    /// The window it was entered with.
    pub beta: Score,
    /// Whether its parent expected it to fail high (main search).
    pub expected_cut: bool,
    /// Dynamic and trivial levels the selective budget still allows on this path.
    pub budget: (u32, u32),
    /// The position's Zobrist hash.
    pub hash: u64,
}

/// What a recorder learns when a node is left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leave {
    /// The value it returned (from its side to move's point of view).
    pub value: Score,
}

/// Receives a search's tree, node by node, in the order the search visits them.
pub trait Recorder {
    /// Whether anything is recorded; the search asks it before building an event.
    const ON: bool;
    /// An iteration of nominal depth `depth` starts (its root may be searched more than once:
    /// aspiration windows that fail are widened and searched again).
    fn iteration(&mut self, depth: i32);
    /// A node is entered (every `enter` has its `leave`).
    fn enter(&mut self, node: Enter);
    /// Something acted on the node entered last and not yet left.
    fn act(&mut self, action: Action);
    /// The static evaluation of the current node was made.
    fn static_eval(&mut self, score: Score);
    /// The node entered last is left.
    fn leave(&mut self, node: Leave);
    /// A move to search first in the position with `hash`, ahead of the TT move: an ordering
    /// oracle (the minimal tree's re-search). None by default.
    fn oracle(&self, _hash: u64) -> Option<Move> {
        None
    }
}

/// The recorder of an unrecorded search: nothing, at no cost.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRecorder;

impl Recorder for NoRecorder {
    const ON: bool = false;
    #[inline(always)]
    fn iteration(&mut self, _: i32) {}
    #[inline(always)]
    fn enter(&mut self, _: Enter) {}
    #[inline(always)]
    fn act(&mut self, _: Action) {}
    #[inline(always)]
    fn static_eval(&mut self, _: Score) {}
    #[inline(always)]
    fn leave(&mut self, _: Leave) {}
}

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
    pub fn best_moves(&self) -> std::collections::HashMap<u64, Move> {
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

/// The minimal tree (Knuth and Moore) of a depth-`depth` search of `position` with `config` whose
/// value is `value`, measured as Plaat, Schaeffer, Pijls and de Bruin measure it: the same search
/// re-run to the same depth with `value` as a null window from each side — `(value − 1, value)`
/// proves it is at least `value`, `(value, value + 1)` at most — with `best` (a recorded search's
/// best moves by position) tried first at every node, and the distinct lines of the two counted.
/// Without the TT (a minimal tree has no transpositions) and without aspiration windows; every other
/// heuristic of `config` is kept, so it is the minimal tree of this engine's own search.
pub fn minimal_tree(
    config: &crate::SearchConfig,
    position: &crate::Position,
    depth: i32,
    value: Score,
    best: std::collections::HashMap<u64, Move>,
) -> MinimalTreeRecorder {
    let config = crate::SearchConfig {
        tt: None,
        tt_move: true,
        aspiration: None,
        ..config.clone()
    };
    let mut searcher = crate::Searcher::with_recorder(config, MinimalTreeRecorder::new(best));
    for window in [(value - 1, value), (value, value + 1)] {
        searcher.search_window(position, depth, window);
    }
    searcher.into_recorder()
}

/// Counts the distinct nodes of one or more searches by their line from the root (a re-search of
/// a line counts once), by ply, and orders moves by an oracle: what the minimal tree is measured
/// with.
#[derive(Debug, Clone, Default)]
pub struct MinimalTreeRecorder {
    /// The move to search first, by position hash.
    pub oracle: std::collections::HashMap<u64, Move>,
    /// Distinct lines visited, as hashes of their moves.
    lines: std::collections::HashSet<u64>,
    /// Distinct nodes by ply: main search and QS.
    pub by_ply: Vec<(u64, u64)>,
    /// The open lines' hashes, innermost last.
    open: Vec<u64>,
}

impl MinimalTreeRecorder {
    /// A recorder with `oracle`'s moves first.
    pub fn new(oracle: std::collections::HashMap<u64, Move>) -> Self {
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
