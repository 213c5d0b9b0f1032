//! The time manager's switches: whether a search says it was cut inside an iteration, and the
//! interrupted iteration's move with `time.partial_iteration`.

use super::*;

#[test]
fn a_search_says_whether_it_stopped_inside_an_iteration() {
    let position = Position::from_fen(POSITIONS[3]).unwrap();
    let at_depth =
        Searcher::new(SearchConfig::modern()).search(&position, Limits::depth(4), |_| {});
    assert!(!at_depth.cut);
    let at_nodes =
        Searcher::new(SearchConfig::modern()).search(&position, Limits::nodes(20_000), |_| {});
    assert!(at_nodes.cut);
}

#[test]
fn the_partial_iteration_switch_changes_the_move_played_and_nothing_else() {
    let mut on = SearchConfig::modern();
    on.set("time.partial_iteration", "true").unwrap();
    let mut changed = 0;
    for fen in POSITIONS {
        let position = Position::from_fen(fen).unwrap();
        for nodes in (2_000..=40_000).step_by(2_000) {
            let run = |config: &SearchConfig| {
                Searcher::new(config.clone()).search(&position, Limits::nodes(nodes), |_| {})
            };
            let (a, b) = (run(&SearchConfig::modern()), run(&on));
            // The same tree: only the answer read from it differs.
            assert_eq!(
                (a.stats.nodes, a.depth, a.score),
                (b.stats.nodes, b.depth, b.score)
            );
            assert_eq!(b.best_move, b.pv.first().copied());
            if a.best_move != b.best_move {
                changed += 1;
                assert!(b.cut, "{fen} at {nodes} nodes");
            }
        }
    }
    // The switch is not idle on these 120 searches.
    assert!(changed > 0);
}
