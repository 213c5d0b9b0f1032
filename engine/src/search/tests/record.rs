//! A recorded search is the same search: the same result and node counts, one recorded node per
//! node counted, subtrees that add up; and what acted on the nodes is in the record.

use super::*;
use crate::search::record::{Action, Edge, NodeKind, TreeRecorder};

fn recorded(
    fen: &str,
    config: SearchConfig,
    depth: i32,
    cap: usize,
) -> (SearchResult, TreeRecorder) {
    let position = Position::from_fen(fen).unwrap();
    let mut searcher = Searcher::with_recorder(config, TreeRecorder::new(cap));
    let result = searcher.search(&position, Limits::depth(depth), |_| {});
    (result, searcher.into_recorder())
}

/// `modern` with every switch the recorder reports on.
fn everything() -> SearchConfig {
    let mut c = SearchConfig::modern();
    for (key, value) in [
        ("reverse_futility", "on"),
        ("razoring", "on"),
        ("iir", "on"),
        ("mate_distance_pruning", "true"),
        ("qsearch.delta", "200"),
        ("check_extension", "true"),
        ("lmr.cut_more", "true"),
    ] {
        c.set(key, value).unwrap();
    }
    c
}

#[test]
fn recording_never_changes_the_search_and_counts_every_node() {
    for config in [SearchConfig::fischerle(), everything()] {
        for fen in POSITIONS {
            let plain = search(fen, config.clone(), 5);
            let (result, tree) = recorded(fen, config.clone(), 5, usize::MAX);
            assert_eq!(
                (
                    plain.stats.nodes,
                    plain.stats.qnodes,
                    plain.score,
                    &plain.pv
                ),
                (
                    result.stats.nodes,
                    result.stats.qnodes,
                    result.score,
                    &result.pv
                ),
                "{fen}"
            );
            assert!(!tree.overflowed);
            assert_eq!(tree.nodes.len() as u64, result.stats.nodes, "{fen}");
            let qs = tree
                .nodes
                .iter()
                .filter(|n| n.enter.kind == NodeKind::Quiescence);
            assert_eq!(qs.count() as u64, result.stats.qnodes, "{fen}");
            check_shape(&tree);
        }
    }
}

/// Parents come before their children, every node was left, subtree sizes add up, and the roots
/// (one per root search of each iteration) hold every node.
fn check_shape(tree: &TreeRecorder) {
    let mut below = vec![0u32; tree.nodes.len()];
    for node in &tree.nodes {
        assert!(node.leave.is_some(), "node {} was never left", node.id);
        if let Some(parent) = node.parent {
            assert!(parent < node.id);
            assert_eq!(tree.nodes[parent as usize].enter.ply + 1, node.enter.ply);
            below[parent as usize] += node.subtree;
        } else {
            assert_eq!((node.enter.ply, node.enter.edge), (0, Edge::Root));
        }
    }
    for node in &tree.nodes {
        assert_eq!(
            node.subtree,
            1 + below[node.id as usize],
            "node {}",
            node.id
        );
    }
    let roots: u32 = tree
        .nodes
        .iter()
        .filter(|n| n.parent.is_none())
        .map(|n| n.subtree)
        .sum();
    assert_eq!(roots as usize, tree.nodes.len());
}

#[test]
fn what_acted_on_a_node_is_recorded() {
    let (_, tree) = recorded(POSITIONS[3], everything(), 6, usize::MAX);
    let acted = |f: &dyn Fn(&Action) -> bool| tree.nodes.iter().any(|n| n.actions.iter().any(f));
    assert!(acted(&|a| matches!(a, Action::TtCutoff)));
    assert!(acted(&|a| matches!(a, Action::NullMoveCutoff)));
    assert!(acted(&|a| matches!(a, Action::Reduction { .. })));
    assert!(acted(&|a| matches!(
        a,
        Action::Futility(_) | Action::LateMovePruning(_)
    )));
    assert!(acted(&|a| matches!(a, Action::ReverseFutility)));
    assert!(acted(&|a| matches!(a, Action::StandPat)));
    assert!(tree
        .nodes
        .iter()
        .any(|n| n.cutoff.is_some_and(|(_, rank)| rank == 0)));
    assert!(tree.nodes.iter().any(|n| n.static_eval.is_some()));
    // A null move's reply is reached by a pass.
    assert!(tree.nodes.iter().any(|n| n.enter.edge == Edge::Null));
    // Fischerle's selective deepening on a pawn ending: dynamic levels, with the count they
    // were granted for.
    let (_, tree) = recorded(POSITIONS[5], SearchConfig::fischerle(), 6, usize::MAX);
    assert!(tree.nodes.iter().any(|n| n.actions.iter().any(|a| matches!(
        a,
        Action::DynamicLevel { legal, limit: 3 } if *legal <= 3
    ))));
}

#[test]
fn a_full_recorder_stops_recording_and_says_so() {
    let plain = search(POSITIONS[0], SearchConfig::fischerle(), 5);
    let (result, tree) = recorded(POSITIONS[0], SearchConfig::fischerle(), 5, 1_000);
    assert_eq!(plain.stats.nodes, result.stats.nodes);
    assert!(tree.overflowed);
    assert_eq!(tree.nodes.len(), 1_000);
}

#[test]
fn the_minimal_tree_is_smaller_than_the_search_it_measures() {
    use crate::search::record::minimal_tree;
    // Textbook alpha-beta without a TT: Knuth and Moore's bound holds, the search visits at least
    // the minimal tree of its value.
    let mut config = SearchConfig::plain();
    config.tt = None;
    for fen in POSITIONS {
        let (result, tree) = recorded(fen, config.clone(), 4, usize::MAX);
        let last = result.stats.iterations.last().unwrap();
        let position = Position::from_fen(fen).unwrap();
        let minimal = minimal_tree(&config, &position, 4, tree.best_moves());
        let (main, qs) = minimal.nodes();
        assert!(
            main > 4 && main + qs <= last.nodes,
            "{fen}: {main} + {qs} > {}",
            last.nodes
        );
        assert_eq!(minimal.by_ply[0], (1, 0));
        // The same measurement twice gives the same count.
        let again = minimal_tree(&config, &position, 4, tree.best_moves());
        assert_eq!(again.by_ply, minimal.by_ply);
    }
}

#[test]
fn the_light_best_move_recorder_collects_what_the_tree_recorder_does() {
    use crate::search::record::BestMoveRecorder;
    for config in [SearchConfig::fischerle(), everything()] {
        for fen in POSITIONS {
            let (result, tree) = recorded(fen, config.clone(), 5, usize::MAX);
            let position = Position::from_fen(fen).unwrap();
            let mut searcher = Searcher::with_recorder(config.clone(), BestMoveRecorder::default());
            let light = searcher.search(&position, Limits::depth(5), |_| {});
            assert_eq!(light.stats.nodes, result.stats.nodes, "{fen}");
            assert_eq!(light.best_move, result.best_move, "{fen}");
            assert_eq!(searcher.recorder().best_moves(), tree.best_moves(), "{fen}");
        }
    }
}
