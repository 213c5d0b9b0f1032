//! Killers and history after a beta cutoff are keyed by the level of the node that cut off, not by
//! its child's (a check extension or selective deepening gives the child another level).

use super::*;

/// A depth-2 search without selective deepening: the root (level 2) never cuts off with a full
/// window, so every quiet cutoff happens at a level-1 node.
fn level_one_cutoffs(index: KillerIndex) -> Searcher {
    let config = SearchConfig {
        selective: selective(0, 0, 0),
        killers: Some(Killers { count: 2, index }),
        ..SearchConfig::fischerle()
    };
    let mut searcher = Searcher::new(config);
    // A quiet middlegame: Black's refutations at ply 1 are mostly quiet moves.
    let position =
        Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1")
            .unwrap();
    let r = searcher.search(&position, Limits::depth(2), |_| {});
    assert!(r.stats.beta_cutoffs > 0);
    searcher
}

#[test]
fn a_killer_stored_at_level_one_is_offered_at_level_one() {
    let searcher = level_one_cutoffs(KillerIndex::Level);
    let killers = searcher.killers.as_ref().unwrap();
    assert!(
        killers.get(killers.slot(1, 1)).iter().any(Option::is_some),
        "the level-1 slot must hold the killers of level-1 cutoffs"
    );
    assert!(
        killers.get(killers.slot(1, 0)).iter().all(Option::is_none),
        "no main-search node has level 0, so its slot stays empty"
    );
}

#[test]
fn killers_by_ply_are_stored_at_the_cutting_nodes_ply() {
    let searcher = level_one_cutoffs(KillerIndex::Ply);
    let killers = searcher.killers.as_ref().unwrap();
    assert!(killers.get(1).iter().any(Option::is_some));
    assert!(killers.get(2).iter().all(Option::is_none));
}

#[test]
fn history_grows_at_level_one_cutoffs() {
    let searcher = level_one_cutoffs(KillerIndex::Ply);
    let history = searcher.history.as_ref().unwrap();
    // White to move: the cutoffs at ply 1 are Black's moves, rewarded 1² each.
    assert!(history.total(cozy_chess::Color::Black) > 0);
    assert_eq!(history.total(cozy_chess::Color::White), 0);
}
