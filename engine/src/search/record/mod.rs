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
    /// No move: the parent's own position searched again without this move, its TT move (a
    /// singular verification, `singular.search = "excluded"`).
    Exclusion(Move),
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
    /// A quiet move was not searched: its history is too poor this near the horizon.
    HistoryPrune(Move),
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
    /// The TT move was singular and searched a level deeper (two with a double extension).
    SingularExtension(Move),
    /// The TT move was not singular but reached beta: searched a level shallower.
    NegativeExtension(Move),
    /// The singular verification reached a bound at or above beta: the node returned it.
    Multicut,
    /// QS: the static evaluation stood (stand pat at or above beta).
    StandPat,
    /// QS: a capture was not searched (delta pruning).
    DeltaPrune(Move),
    /// A move was not searched: its static exchange loses too much (SEE pruning, in the QS by
    /// `qsearch.see_prune`, in the main search by `see_prune`).
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

mod minimal;
mod tree;

pub use minimal::{measure_minimal_tree, minimal_tree, BestMoveRecorder, MinimalTreeRecorder};
pub use tree::{RecordedNode, TreeRecorder};
