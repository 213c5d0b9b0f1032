//! What intervals buy: on a sample of KPK positions, the interval search with the text's rules
//! against the engine's scalar search with the same rules as evaluation knowledge, at the same
//! depths — nodes, and how often each gets the position right.

use cozy_chess::Piece;
use engine::interval::{IntervalSearch, Wdl};
use engine::kpk::KpkRules;
use engine::{Limits, Position, SearchConfig, Searcher};
use rayon::prelude::*;

use super::knowledge::RulesAndTables;
use super::search::WIN_THRESHOLD;
use super::table::Placement;
use super::validate::{sample, truth};

/// One position at one depth, both searches.
#[derive(Debug, Clone)]
pub struct Pair {
    /// KPK table index.
    pub index: usize,
    /// Search depth.
    pub depth: u16,
    /// Interval search: nodes (iterative deepening to `depth`, stopping at a point interval).
    pub interval_nodes: u64,
    /// Its value when a point.
    pub interval_value: Option<Wdl>,
    /// Its interval, as text.
    pub interval_text: String,
    /// Scalar search: nodes (its own iterative deepening to `depth`).
    pub scalar_nodes: u64,
    /// Its score for the side to move.
    pub scalar_score: i32,
    /// The true value for the side to move.
    pub truth: Wdl,
}

impl Pair {
    /// The scalar search judges the position as the table does: won (for the side with the
    /// pawn) exactly when its score says at least [`WIN_THRESHOLD`] for that side.
    pub fn scalar_right(&self) -> bool {
        let white_to_move = self.index.is_multiple_of(2);
        let for_white = if white_to_move {
            self.scalar_score
        } else {
            -self.scalar_score
        };
        let white_wins = (self.truth == Wdl::Win) == white_to_move && self.truth != Wdl::Draw;
        (for_white >= WIN_THRESHOLD) == white_wins
    }
}

/// The scalar configuration: `fischerle` with every KPK rule of the engine on.
pub fn scalar_config() -> SearchConfig {
    let mut config = SearchConfig::preset("fischerle").expect("a built-in preset");
    config.kpk = KpkRules {
        square: true,
        key_squares: true,
        rook_pawn: true,
    };
    config
}

/// Both searches on every `every`th legal position at each of `depths`.
pub fn compare(knowledge: &RulesAndTables, depths: &[u16], every: usize) -> Vec<Pair> {
    let tables = knowledge.tables;
    let config = scalar_config();
    sample(tables, every)
        .par_iter()
        .map_init(
            || Searcher::new(config.clone()),
            |scalar, &index| {
                let board = Placement::from_index(Piece::Pawn, index)
                    .board()
                    .expect("legal");
                let mut pairs = Vec::with_capacity(depths.len());
                for &depth in depths {
                    let mut search = IntervalSearch::new(knowledge).ignoring_root_knowledge();
                    let solved = search.solve(&board, depth);
                    scalar.clear();
                    let limits = Limits::depth(i32::from(depth));
                    let result = scalar.search(&Position::new(board.clone()), limits, |_| {});
                    pairs.push(Pair {
                        index,
                        depth,
                        interval_nodes: search.stats.nodes,
                        interval_value: solved.value.interval.exact(),
                        interval_text: solved.value.interval.to_string(),
                        scalar_nodes: result.stats.nodes,
                        scalar_score: result.score,
                        truth: truth(tables, index),
                    });
                }
                pairs
            },
        )
        .flatten()
        .collect()
}
