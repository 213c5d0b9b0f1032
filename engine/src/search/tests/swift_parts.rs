//! What `swift` adds to `honed` (#54; `results/strength/core/`, its ninth amendment): the null
//! move before the moves are generated, and a TT whose entries age with the game's searches. Each
//! changes the `honed` tree where its step acts; neither acts where it cannot. Node counts are
//! exact: a fixed-depth search is deterministic.

use super::core_switches::{nodes, with, DEPTH, KIWIPETE, MIDDLEGAME};
use super::*;

#[test]
fn an_early_null_move_changes_the_honed_tree_and_still_cuts() {
    let honed = SearchConfig::honed();
    // Two levels deeper than the other parts' tests: internal iterative reduction, the one step
    // between the two places, acts from level 4.
    let late = search(MIDDLEGAME, honed.clone(), DEPTH + 2).stats;
    let early = search(
        MIDDLEGAME,
        with(&honed, "null_move.early", "true"),
        DEPTH + 2,
    )
    .stats;
    assert!(early.null_move_cutoffs > 0 && late.null_move_cutoffs > 0);
    assert_ne!(early.nodes, late.nodes);
}

/// The second search of a game in a table small enough to fill: aging changes it, a new game
/// (`ucinewgame`) resets the ages with the entries, and a single search never sees an older one.
#[test]
fn aging_changes_a_full_tables_next_search_and_nothing_else() {
    let first = Position::from_fen(MIDDLEGAME).unwrap();
    let second = Position::from_fen(KIWIPETE).unwrap();
    let (long, limits) = (Limits::nodes(300_000), Limits::depth(DEPTH));
    let small = with(&SearchConfig::honed(), "tt.size_mb", "1");
    let aged = with(&small, "tt.aging", "true");
    let after_first = |config: SearchConfig, new_game: bool| {
        let mut searcher = Searcher::new(config);
        // Four times the 1 MiB table's 65,536 slots.
        searcher.search(&first, long.clone(), |_| {});
        if new_game {
            searcher.clear();
        }
        searcher.search(&second, limits.clone(), |_| {}).stats.nodes
    };
    assert_ne!(
        after_first(aged.clone(), false),
        after_first(small.clone(), false)
    );
    assert_eq!(
        after_first(aged.clone(), true),
        after_first(small.clone(), true)
    );
    for fen in [MIDDLEGAME, KIWIPETE] {
        assert_eq!(nodes(fen, aged.clone()), nodes(fen, small.clone()), "{fen}");
    }
}

/// The pass is tried in one place or the other, never both: no node tries it twice.
#[test]
fn no_node_tries_the_pass_twice() {
    use crate::search::record::{Action, TreeRecorder};
    let position = Position::from_fen(MIDDLEGAME).unwrap();
    let honed = SearchConfig::honed();
    for config in [honed.clone(), with(&honed, "null_move.early", "true")] {
        let mut searcher = Searcher::with_recorder(config, TreeRecorder::new(usize::MAX));
        searcher.search(&position, Limits::depth(DEPTH + 2), |_| {});
        let tree = searcher.into_recorder();
        let tries = |actions: &[Action]| {
            actions
                .iter()
                .filter(|a| matches!(a, Action::NullMoveTry))
                .count()
        };
        let most = tree.nodes.iter().map(|n| tries(&n.actions)).max();
        assert_eq!(most, Some(1), "at most one try a node, and some node tries");
    }
}
