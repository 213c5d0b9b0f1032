//! What `honed` adds to `picked` (#54; `results/strength/core/`, its eighth amendment): each part
//! changes the `picked` tree and counts its work where its step acts, and changes nothing where
//! it never does. Node counts are exact: a fixed-depth search is deterministic.

use super::core_switches::{nodes, with, DEPTH, KIWIPETE, MIDDLEGAME};
use super::*;

#[test]
fn each_part_changes_the_picked_tree_and_counts_its_work() {
    let picked = SearchConfig::picked();
    let base = search(MIDDLEGAME, picked.clone(), DEPTH).stats;
    assert_eq!((base.qs_tt_cutoffs, base.history_prunes), (0, 0));

    let qs_tt = search(MIDDLEGAME, with(&picked, "qsearch.tt", "true"), DEPTH).stats;
    assert!(qs_tt.qs_tt_cutoffs > 0);
    assert_ne!(qs_tt.nodes, base.nodes);

    let futility = search(MIDDLEGAME, with(&picked, "quiet_futility", "on"), DEPTH).stats;
    assert!(futility.futility_prunes > base.futility_prunes);
    assert_ne!(futility.nodes, base.nodes);

    // A history falls below −2,000 × level only after a few maluses: two levels deeper.
    let deeper = search(MIDDLEGAME, picked.clone(), DEPTH + 2).stats;
    let history = search(
        MIDDLEGAME,
        with(&picked, "history_pruning", "on"),
        DEPTH + 2,
    )
    .stats;
    assert!(history.history_prunes > 0);
    assert_ne!(history.nodes, deeper.nodes);
}

#[test]
fn a_part_whose_step_never_acts_changes_nothing() {
    let picked = SearchConfig::picked();
    for fen in [MIDDLEGAME, KIWIPETE] {
        let reference = nodes(fen, picked.clone());
        // No history is below the lowest limit, or −100,000 × level (the tables stay within
        // ±16,384 each, three of them).
        let never_futile = with(
            &with(&picked, "quiet_futility", "on"),
            "quiet_futility.history_limit",
            &i32::MIN.to_string(),
        );
        let never_poor = with(
            &with(&picked, "history_pruning", "on"),
            "history_pruning.margin",
            "100000",
        );
        assert_eq!(nodes(fen, never_futile), reference, "{fen}");
        assert_eq!(nodes(fen, never_poor), reference, "{fen}");
        // Without a TT there is nothing for the QS to probe or store.
        let no_tt = with(&picked, "tt", "off");
        assert_eq!(
            nodes(fen, with(&no_tt, "qsearch.tt", "true")),
            nodes(fen, no_tt),
            "{fen}"
        );
    }
}

/// The second of two searches in one game: kept tables change it, and a new game (UCI
/// `ucinewgame`) empties them, so it is then the search a new searcher makes.
#[test]
fn kept_tables_carry_a_game_and_a_new_game_empties_them() {
    let first = Position::from_fen(MIDDLEGAME).unwrap();
    let second = Position::from_fen(KIWIPETE).unwrap();
    let limits = Limits::depth(DEPTH);
    let after_first = |config: SearchConfig, new_game: bool| {
        let mut searcher = Searcher::new(config);
        searcher.search(&first, limits.clone(), |_| {});
        if new_game {
            searcher.clear();
        }
        searcher.search(&second, limits.clone(), |_| {}).stats.nodes
    };
    let picked = SearchConfig::picked();
    let kept = with(&picked, "keep_tables", "true");
    assert_ne!(after_first(kept.clone(), false), after_first(picked, false));
    assert_eq!(after_first(kept.clone(), true), nodes(KIWIPETE, kept));
}
