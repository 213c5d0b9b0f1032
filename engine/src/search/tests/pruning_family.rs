//! The later pruning family (#18): each switch does what it claims, counts it, and leaves the
//! search able to find what it found before.

use super::*;
use crate::config::{
    ContinuationHistory, EvalCache, Futility, Iir, Lmr, Razoring, Replacement, Singular,
};

/// A quiet middlegame where every pruning step has work to do.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
/// White mates with Ra8.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

fn lmr() -> Lmr {
    Lmr {
        base: 0.75,
        divisor: 2.25,
        min_level: 3,
        min_rank: 3,
        pv_less: true,
        history_less: false,
        cut_more: false,
        improving: false,
        history_divisor: None,
    }
}

/// `on` searches fewer nodes than `fischerle` on the middlegame at `depth`, with `count` > 0
/// there and 0 without it, and still finds the back-rank mate.
fn fewer_nodes(on: SearchConfig, depth: i32, count: impl Fn(&SearchStats) -> u64) {
    let with = search(MIDDLEGAME, on.clone(), depth);
    let without = search(MIDDLEGAME, SearchConfig::fischerle(), depth);
    assert!(count(&with.stats) > 0);
    assert_eq!(count(&without.stats), 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
    let mate = search(BACK_RANK, on, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn late_move_reductions_reduce_late_quiet_moves_and_search_again_those_that_beat_alpha() {
    let on = SearchConfig {
        lmr: Some(lmr()),
        ..SearchConfig::fischerle()
    };
    fewer_nodes(on.clone(), 6, |s| s.lmr_reductions);
    let with = search(MIDDLEGAME, on, 6);
    assert!(with.stats.lmr_researches > 0 && with.stats.lmr_researches < with.stats.lmr_reductions);
}

#[test]
fn late_move_reduction_adjustments_move_the_reduction_count() {
    let base = |pv_less, history_less| SearchConfig {
        lmr: Some(Lmr {
            pv_less,
            history_less,
            ..lmr()
        }),
        ..SearchConfig::fischerle()
    };
    let plain = search(MIDDLEGAME, base(false, false), 6).stats;
    let pv = search(MIDDLEGAME, base(true, false), 6).stats;
    let history = search(MIDDLEGAME, base(false, true), 6).stats;
    // One level less can only make some reductions vanish (or change the tree).
    assert_ne!(plain.nodes, pv.nodes);
    assert_ne!(plain.nodes, history.nodes);
}

#[test]
fn futility_pruning_skips_hopeless_moves_at_frontier_and_pre_frontier_nodes() {
    let on = |pre_frontier| SearchConfig {
        futility: Some(Futility {
            frontier: 300,
            pre_frontier,
        }),
        ..SearchConfig::fischerle()
    };
    fewer_nodes(on(Some(500)), 6, |s| s.futility_prunes);
    // The extension to pre-frontier nodes prunes more.
    let plain = search(MIDDLEGAME, on(None), 6).stats.futility_prunes;
    let extended = search(MIDDLEGAME, on(Some(500)), 6).stats.futility_prunes;
    assert!(plain > 0 && extended > plain, "{plain} vs {extended}");
}

#[test]
fn limited_razoring_searches_hopeless_pre_pre_frontier_nodes_shallower() {
    let on = SearchConfig {
        razoring: Some(Razoring { margin: 300 }),
        ..SearchConfig::fischerle()
    };
    // Over the test positions together: on one position the changed tree can cost more.
    let total = |config: &SearchConfig| -> (u64, u64) {
        POSITIONS.iter().fold((0, 0), |(n, r), fen| {
            let s = search(fen, config.clone(), 6).stats;
            (n + s.nodes, r + s.razorings)
        })
    };
    let (with, razorings) = total(&on);
    let (without, none) = total(&SearchConfig::fischerle());
    assert!(razorings > 0 && none == 0);
    assert!(with < without, "{with} vs {without}");
    let mate = search(BACK_RANK, on, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn internal_iterative_reduction_reduces_nodes_without_a_tt_move() {
    let on = SearchConfig {
        iir: Some(Iir { min_level: 3 }),
        ..SearchConfig::fischerle()
    };
    fewer_nodes(on, 6, |s| s.iir_reductions);
}

#[test]
fn singular_extension_extends_a_tt_move_no_other_move_comes_near_at_most_twice_a_path() {
    let on = |max_per_path| SearchConfig {
        singular: Some(Singular {
            min_level: 4,
            margin: 3,
            max_per_path,
            ..SearchConfig::modern().singular.unwrap()
        }),
        ..SearchConfig::fischerle()
    };
    let with = search(MIDDLEGAME, on(2), 7).stats;
    let without = search(MIDDLEGAME, SearchConfig::fischerle(), 7).stats;
    assert!(with.singular_extensions > 0 && with.singular_extensions < with.singular_tries);
    assert_eq!(
        (without.singular_tries, without.singular_extensions),
        (0, 0)
    );
    assert_ne!(with.nodes, without.nodes);
    // The restriction binds: one extension a path tries less often than two.
    let one = search(MIDDLEGAME, on(1), 7).stats;
    assert!(
        one.singular_tries < with.singular_tries,
        "{} vs {}",
        one.singular_tries,
        with.singular_tries
    );
    let mate = search(BACK_RANK, on(2), 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

/// A move-ordering switch: `on` places moves that cut off (`hits` > 0, 0 without it), changes
/// the middlegame's tree at depth 6, and still finds the back-rank mate.
fn orders_moves_that_cut_off(on: SearchConfig, hits: impl Fn(&SearchStats) -> u64) {
    let with = search(MIDDLEGAME, on.clone(), 6).stats;
    let without = search(MIDDLEGAME, SearchConfig::fischerle(), 6).stats;
    assert!(hits(&with) > 0);
    assert_eq!(hits(&without), 0);
    assert_ne!(with.nodes, without.nodes);
    let mate = search(BACK_RANK, on, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn continuation_history_moves_are_tried_and_cut_off() {
    let on = SearchConfig {
        continuation_history: Some(ContinuationHistory {
            moves: 2,
            plies: 1,
            gravity: false,
        }),
        ..SearchConfig::fischerle()
    };
    orders_moves_that_cut_off(on, |s| s.continuation_hits);
}

#[test]
fn cut_node_reductions_reduce_more_at_expected_cut_nodes_only() {
    // Expected cut nodes mostly cut off before a late move: at depth 6 the ones that reach one
    // are at level 3, where any reduction already ends at level 1, so depth 8, from rank 1.
    let lmr_with = |cut_more| SearchConfig {
        lmr: Some(Lmr {
            cut_more,
            min_rank: 1,
            ..lmr()
        }),
        ..SearchConfig::fischerle()
    };
    let plain = search(MIDDLEGAME, lmr_with(false), 8).stats;
    let cut = search(MIDDLEGAME, lmr_with(true), 8).stats;
    assert!(cut.nodes < plain.nodes, "{} vs {}", cut.nodes, plain.nodes);
    let mate = search(BACK_RANK, lmr_with(true), 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn countermoves_are_tried_after_the_killers_and_cut_off() {
    let on = SearchConfig {
        countermove: true,
        ..SearchConfig::fischerle()
    };
    orders_moves_that_cut_off(on, |s| s.countermove_hits);
}

#[test]
fn see_pruning_skips_losing_qs_captures_and_keeps_winning_ones() {
    let mut on = SearchConfig::fischerle();
    on.qsearch.captures = crate::config::CaptureFilter::All;
    on.qsearch.see_prune = Some(0);
    let mut off = on.clone();
    off.qsearch.see_prune = None;
    let fen = POSITIONS[3];
    let (with, without) = (search(fen, on.clone(), 4), search(fen, off, 4));
    assert!(with.stats.qs_see_prunes > 0);
    assert_eq!(without.stats.qs_see_prunes, 0);
    assert!(with.stats.qnodes < without.stats.qnodes);
    let free = search("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", on, 3);
    assert_eq!(free.stats.iterations.last().unwrap().best_move, "d2d5");
}

#[test]
fn the_evaluation_cache_hits_and_changes_nothing_but_time() {
    let on = SearchConfig {
        eval_cache: Some(EvalCache { size_kb: 256 }),
        ..SearchConfig::fischerle()
    };
    for fen in POSITIONS {
        let with = search(fen, on.clone(), 5);
        let without = search(fen, SearchConfig::fischerle(), 5);
        assert_eq!(
            (with.stats.nodes, with.score, with.pv),
            (without.stats.nodes, without.score, without.pv)
        );
        assert!(
            with.stats.eval_cache_hits > 0
                && with.stats.eval_cache_hits < with.stats.eval_cache_probes
        );
        assert_eq!(without.stats.eval_cache_probes, 0);
    }
}

#[test]
fn tt_replacement_policies_give_other_trees_and_keep_the_mate() {
    let with = |replacement| {
        let mut c = SearchConfig::fischerle();
        c.tt.as_mut().unwrap().replacement = replacement;
        // A small table, so that slots are contested.
        c.tt.as_mut().unwrap().size_mb = 1;
        c
    };
    let nodes: Vec<u64> = [
        Replacement::Always,
        Replacement::DepthPreferred,
        Replacement::TwoTier,
    ]
    .into_iter()
    .map(|r| {
        let mate = search(BACK_RANK, with(r), 4);
        assert_eq!(mate_in_moves(mate.score), Some(1));
        search(MIDDLEGAME, with(r), 7).stats.nodes
    })
    .collect();
    assert!(nodes[0] != nodes[1] && nodes[0] != nodes[2], "{nodes:?}");
}

#[test]
fn the_later_switches_are_set_by_key_checked_and_left_out_of_toml_when_off() {
    let mut c = SearchConfig::fischerle();
    for key in [
        "futility",
        "razoring",
        "iir",
        "lmr",
        "eval_cache",
        "singular",
    ] {
        c.set(key, "on").unwrap();
    }
    c.set("lmr.divisor", "2").unwrap();
    c.set("futility.pre_frontier", "off").unwrap();
    c.set("qsearch.see_prune", "50").unwrap();
    c.set("tt.replacement", "two_tier").unwrap();
    c.set("countermove", "true").unwrap();
    c.set("continuation_history", "on").unwrap();
    c.set("lmr.cut_more", "true").unwrap();
    assert_eq!(c.continuation_history.as_ref().unwrap().moves, 2);
    assert!(c.lmr.as_ref().unwrap().cut_more);
    assert!(c.clone().set("continuation_history.moves", "0").is_err());
    assert!(c.clone().set("continuation_history.moves", "9").is_err());
    assert_eq!(c.lmr.as_ref().unwrap().divisor, 2.0);
    assert_eq!(c.futility.as_ref().unwrap().pre_frontier, None);
    assert_eq!(c.razoring.as_ref().unwrap().margin, 900);
    assert_eq!(c.qsearch.see_prune, Some(50));
    assert!(c.clone().set("lmr.min_rank", "0").is_err());
    assert!(c.clone().set("lmr.divisor", "0").is_err());
    assert!(c.clone().set("iir.min_level", "1").is_err());
    assert!(c.clone().set("razoring.margin", "-1").is_err());
    assert!(c.clone().set("tt.replacement", "sometimes").is_err());
    assert!(c.clone().set("singular.max_per_path", "0").is_err());
    assert_eq!(SearchConfig::from_toml(&c.to_toml()).unwrap(), c);
    let text = SearchConfig::fischerle().to_toml();
    for key in [
        "futility",
        "razoring",
        "iir",
        "lmr",
        "eval_cache",
        "see_prune",
        "replacement",
    ] {
        assert!(!text.contains(key), "{key}");
    }
}
