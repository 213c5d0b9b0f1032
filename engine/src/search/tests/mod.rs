//! Search invariants: determinism, rules, alpha-beta correctness under every ordering scheme,
//! selective-deepening budgets and the QS depth bound.

use super::*;
use crate::board::parse_uci_move;
use crate::config::{CaptureFilter, KillerIndex, Killers, OrderingScheme, Selective, Tt};
use crate::search::score::{mate_in_moves, MATE_BOUND};

fn search(fen: &str, config: SearchConfig, depth: i32) -> SearchResult {
    let position = Position::from_fen(fen).unwrap();
    Searcher::new(config).search(&position, Limits::depth(depth), |_| {})
}

/// Middlegame and endgame positions with tactics (WAC 1, 2, 3, Kiwipete, a rook ending, a
/// pawn race).
const POSITIONS: &[&str] = &[
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/5pk1/6p1/8/1R6/6P1/r4P1P/6K1 w - - 0 1",
    "8/2p5/8/1P6/6k1/8/6P1/6K1 w - - 0 1",
];

#[test]
fn same_search_twice_gives_identical_nodes_and_pv() {
    for fen in POSITIONS {
        let mut a = search(fen, SearchConfig::fischerle(), 5);
        let mut b = search(fen, SearchConfig::fischerle(), 5);
        // Everything but the wall-clock times must agree.
        for it in a
            .stats
            .iterations
            .iter_mut()
            .chain(b.stats.iterations.iter_mut())
        {
            it.time_ms = 0.0;
        }
        assert_eq!(a.stats, b.stats, "{fen}");
        assert_eq!(a.pv, b.pv, "{fen}");
    }
}

#[test]
fn a_cleared_searcher_repeats_itself_whatever_ran_before() {
    let position = Position::from_fen(POSITIONS[0]).unwrap();
    let mut searcher = Searcher::new(SearchConfig::fischerle());
    let first = searcher.search(&position, Limits::depth(4), |_| {});
    searcher.clear();
    searcher.search(
        &Position::from_fen(POSITIONS[3]).unwrap(),
        Limits::depth(4),
        |_| {},
    );
    searcher.clear();
    let again = searcher.search(&position, Limits::depth(4), |_| {});
    assert_eq!(first.stats.nodes, again.stats.nodes);
    assert_eq!(first.pv, again.pv);
}

#[test]
fn searches_in_parallel_threads_match_sequential_ones() {
    let sequential: Vec<u64> = POSITIONS
        .iter()
        .map(|f| search(f, SearchConfig::fischerle(), 4).stats.nodes)
        .collect();
    let parallel: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = POSITIONS
            .iter()
            .map(|f| s.spawn(move || search(f, SearchConfig::fischerle(), 4).stats.nodes))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sequential, parallel);
}

#[test]
fn finds_mate_in_two() {
    // Back rank with doubled rooks: 1. Rd8+ Rxd8 2. Rxd8#.
    let r = search(
        "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1",
        SearchConfig::fischerle(),
        4,
    );
    assert_eq!(mate_in_moves(r.score), Some(2), "score {}", r.score);
}

#[test]
fn checkmated_and_stalemated_roots() {
    let mated = search(
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        SearchConfig::fischerle(),
        3,
    );
    assert_eq!(mated.best_move, None);
    assert!(mated.score < -MATE_BOUND);
    let stalemate = search(
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        SearchConfig::fischerle(),
        3,
    );
    assert_eq!((stalemate.best_move, stalemate.score), (None, 0));
}

#[test]
fn repetition_and_fifty_moves_are_draws() {
    let mut position = Position::new(Board::default());
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        position.play_uci(mv).unwrap();
    }
    let mut searcher = Searcher::new(SearchConfig::fischerle());
    searcher.path = position.history().to_vec();
    assert!(searcher.is_draw(position.board()));
    let fresh = Position::new(Board::default());
    searcher.path = fresh.history().to_vec();
    assert!(!searcher.is_draw(fresh.board()));
    let fifty = crate::board::parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    assert!(searcher.is_draw(&fifty));
}

#[test]
fn node_limit_stops_the_search() {
    let position = Position::from_fen(POSITIONS[3]).unwrap();
    let r =
        Searcher::new(SearchConfig::fischerle()).search(&position, Limits::nodes(20_000), |_| {});
    assert!(r.stats.nodes <= 20_000, "{}", r.stats.nodes);
    assert!(r.best_move.is_some() && r.depth >= 2);
}

#[test]
fn iterations_add_up_to_the_total() {
    let r = search(POSITIONS[0], SearchConfig::fischerle(), 5);
    assert_eq!(r.stats.iterations.len(), 5);
    assert_eq!(
        r.stats.iterations.iter().map(|i| i.nodes).sum::<u64>(),
        r.stats.nodes
    );
    assert_eq!(
        r.stats.iterations.last().unwrap().total_nodes,
        r.stats.nodes
    );
}

/// With TT cutoffs and pruning off, alpha-beta returns the minimax value whatever the order:
/// every ordering scheme and hint switch must give the same root score; only node counts differ.
/// `see` also switches the QS filter (SEE ≥ 0 instead of rules a/b), so orderings are compared
/// within each `see` setting, where the filter is fixed.
#[test]
fn every_ordering_gives_the_same_root_score() {
    for see in [false, true] {
        let base = SearchConfig {
            tt: Some(Tt {
                size_mb: 1,
                cutoffs: false,
                budget_aware: false,
                replacement: crate::config::Replacement::Always,
                skip_pv: false,
                aging: false,
            }),
            see,
            ..SearchConfig::fischerle()
        };
        let mut variants: Vec<SearchConfig> = [
            OrderingScheme::Fischerle,
            OrderingScheme::MvvLva,
            OrderingScheme::None,
        ]
        .into_iter()
        .map(|ordering| SearchConfig {
            ordering,
            ..base.clone()
        })
        .collect();
        variants.push(SearchConfig {
            killers: None,
            history: None,
            tt_move: false,
            ..base.clone()
        });
        variants.push(SearchConfig {
            killers: Some(Killers {
                count: 2,
                index: KillerIndex::Level,
            }),
            ..base.clone()
        });
        variants.push(SearchConfig {
            pvs: true,
            ..base.clone()
        });
        for fen in POSITIONS {
            let results: Vec<SearchResult> =
                variants.iter().map(|c| search(fen, c.clone(), 3)).collect();
            let scores: Vec<Score> = results.iter().map(|r| r.score).collect();
            assert!(
                scores.iter().all(|&s| s == scores[0]),
                "see={see} {fen}: {scores:?}"
            );
            let nodes: Vec<u64> = results.iter().map(|r| r.stats.nodes).collect();
            assert!(
                nodes.iter().any(|&n| n != nodes[0]),
                "{fen}: orderings should differ in nodes"
            );
        }
    }
}

fn selective(candidate_limit: u32, dyn_levels: u32, triv_dyn_levels: u32) -> Selective {
    Selective {
        candidate_limit,
        dyn_levels,
        triv_dyn_levels,
        depth_scaling: None,
    }
}

/// A mate in four whose lines of checks leave one legal reply each, without repeating a position
/// (found with python-chess among the WAC and mate-suite positions).
const FORCED: &str = "2b4k/2rn2p1/2p3Pp/p3p1N1/1pB1P3/P4R2/1PP5/2K5 w - - 0 1";

#[test]
fn trivial_levels_on_a_forced_line_equal_the_budget() {
    for budget in 0..=4 {
        let config = SearchConfig {
            selective: selective(0, 0, budget),
            ..SearchConfig::fischerle()
        };
        let r = search(FORCED, config, 6);
        assert_eq!(r.stats.max_extension, budget, "budget {budget}");
        assert_eq!(r.stats.dyn_levels, 0);
        assert_eq!(r.stats.triv_levels > 0, budget > 0);
    }
}

#[test]
fn selective_deepening_off_is_a_plain_search() {
    let off = SearchConfig {
        selective: selective(0, 4, 0),
        ..SearchConfig::fischerle()
    };
    let none = SearchConfig {
        selective: selective(0, 0, 0),
        ..SearchConfig::fischerle()
    };
    for fen in POSITIONS {
        let (a, b) = (search(fen, off.clone(), 4), search(fen, none.clone(), 4));
        assert_eq!(a.stats.nodes, b.stats.nodes, "{fen}");
        assert_eq!(
            (
                a.stats.dyn_levels,
                a.stats.triv_levels,
                a.stats.max_extension
            ),
            (0, 0, 0)
        );
    }
}

#[test]
fn extensions_never_exceed_the_budgets() {
    let config = SearchConfig::fischerle();
    for fen in POSITIONS {
        let r = search(fen, config.clone(), 4);
        assert!(r.stats.max_extension <= 4 + 10, "{fen}");
    }
}

#[test]
fn qs_depth_bound_stops_a_long_exchange() {
    // Three white and three black heavy pieces on the d-file fight over d5.
    let fen = "3r2k1/3r4/3q4/3p4/8/3Q4/3R4/3R2K1 w - - 0 1";
    let mut config = SearchConfig::plain();
    config.qsearch.captures = CaptureFilter::All;
    config.qsearch.min_level = -1;
    let shallow = search(fen, config.clone(), 1);
    config.qsearch.min_level = -30;
    let deep = search(fen, config, 1);
    assert!(shallow.stats.qs_depth_cutoffs > 0);
    assert_eq!(deep.stats.qs_depth_cutoffs, 0);
    assert!(deep.stats.qnodes > shallow.stats.qnodes);
}

#[test]
fn qs_entries_are_counted_by_case() {
    let r = search(POSITIONS[3], SearchConfig::fischerle(), 3);
    let s = &r.stats;
    assert!(s.qs_entries_capture > 0 && s.qs_skipped > 0);
    assert!(s.captures_advantageous + s.captures_neutral + s.captures_disadvantageous > 0);
}

#[test]
fn mate_search_mode_inserts_no_levels() {
    let config = SearchConfig {
        mate_search: true,
        ..SearchConfig::fischerle()
    };
    let r = search(FORCED, config, 5);
    assert_eq!((r.stats.dyn_levels, r.stats.triv_levels), (0, 0));
}

#[test]
fn wac_one_is_solved_by_every_preset() {
    // Null-move pruning (in `fischerle`) hides the quiet mate at depth 5, a horizon effect of
    // the reduction, not a bug; the presets without it see it at depth 5, `fischerle` by depth 7.
    for (config, depth) in [
        (SearchConfig::seeds(), 5),
        (SearchConfig::plain(), 5),
        (SearchConfig::fischerle(), 7),
    ] {
        let position = Position::from_fen(POSITIONS[0]).unwrap();
        let r = Searcher::new(config).search(&position, Limits::depth(depth), |_| {});
        let expected = parse_uci_move(position.board(), "g3g6").unwrap();
        assert_eq!(r.best_move, Some(expected), "depth {depth}");
    }
}

#[test]
fn modern_switches_keep_the_best_move_on_a_tactic() {
    let config = SearchConfig {
        pvs: true,
        aspiration: Some(crate::config::Aspiration {
            window: 30,
            min_depth: 3,
            one_sided: false,
        }),
        check_extension: true,
        ..SearchConfig::seeds()
    };
    let r = search(POSITIONS[0], config, 5);
    assert_eq!(
        crate::board::uci_move(
            &Board::from_fen(POSITIONS[0], false).unwrap(),
            r.best_move.unwrap()
        ),
        "g3g6"
    );
    assert!(r.stats.check_extensions > 0 && r.stats.aspiration_researches > 0);
}

#[test]
fn null_move_prunes_a_quiet_position() {
    let nm = SearchConfig {
        null_move: Some(crate::config::NullMove {
            base: 2,
            divisor: 4,
            skip_pv: false,
            eval_divisor: None,
            early: false,
        }),
        ..SearchConfig::seeds()
    };
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
    let with = search(fen, nm, 5);
    let without = search(fen, SearchConfig::seeds(), 5);
    assert!(with.stats.null_move_cutoffs > 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
}

#[test]
fn mate_distance_pruning_cuts_lines_that_cannot_beat_a_mate_found_and_keeps_it() {
    // Mate in one on the back rank (Rb8# or Rd8#): once a mate is found, every line that could
    // only mate later is cut, and the mate stays.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/1R1R2K1 w - - 0 1";
    let on = SearchConfig {
        mate_distance_pruning: true,
        ..SearchConfig::fischerle()
    };
    let with = search(fen, on, 6);
    let without = search(fen, SearchConfig::fischerle(), 6);
    assert_eq!(mate_in_moves(with.score), mate_in_moves(without.score));
    assert!(mate_in_moves(with.score).is_some());
    assert!(with.stats.mate_distance_cutoffs > 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
    assert_eq!(without.stats.mate_distance_cutoffs, 0);
}

#[test]
fn reverse_futility_prunes_near_the_horizon_and_still_finds_the_tactic() {
    let on = SearchConfig {
        reverse_futility: Some(crate::config::ReverseFutility {
            margin: 120,
            max_level: 3,
            improving: false,
        }),
        ..SearchConfig::fischerle()
    };
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
    let with = search(fen, on.clone(), 6);
    let without = search(fen, SearchConfig::fischerle(), 6);
    assert!(with.stats.reverse_futility_prunes > 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
    assert_eq!(without.stats.reverse_futility_prunes, 0);
    // The back-rank mate is still found.
    let mate = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", on, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn delta_pruning_skips_hopeless_qs_captures_and_keeps_winning_ones() {
    let mut on = SearchConfig::fischerle();
    on.qsearch.delta = Some(200);
    let fen = POSITIONS[3];
    let with = search(fen, on.clone(), 5);
    let without = search(fen, SearchConfig::fischerle(), 5);
    assert!(with.stats.delta_prunes > 0);
    assert!(
        with.stats.qnodes < without.stats.qnodes,
        "{} vs {}",
        with.stats.qnodes,
        without.stats.qnodes
    );
    assert_eq!(without.stats.delta_prunes, 0);
    // A free queen is still taken.
    let free = search("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", on, 3);
    assert_eq!(free.stats.iterations.last().unwrap().best_move, "d2d5");
}

#[test]
fn late_move_pruning_skips_late_quiet_moves_near_the_horizon() {
    let on = SearchConfig {
        late_move_pruning: Some(crate::config::LateMovePruning {
            base: 3,
            max_level: 3,
            improving: false,
        }),
        ..SearchConfig::fischerle()
    };
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
    let with = search(fen, on.clone(), 6);
    let without = search(fen, SearchConfig::fischerle(), 6);
    assert!(with.stats.late_move_prunes > 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
    assert_eq!(without.stats.late_move_prunes, 0);
    let mate = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", on, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

#[test]
fn the_pruning_switches_are_set_by_key_and_checked() {
    let mut c = SearchConfig::fischerle();
    c.set("reverse_futility", "on").unwrap();
    c.set("reverse_futility.margin", "90").unwrap();
    c.set("mate_distance_pruning", "true").unwrap();
    assert_eq!(
        c.reverse_futility.as_ref().map(|r| (r.margin, r.max_level)),
        Some((90, 3))
    );
    assert!(c.mate_distance_pruning);
    assert!(c.clone().set("reverse_futility.max_level", "0").is_err());
    c.set("late_move_pruning", "on").unwrap();
    c.set("qsearch.delta", "150").unwrap();
    assert_eq!(
        (
            c.late_move_pruning.as_ref().map(|l| l.base),
            c.qsearch.delta
        ),
        (Some(3), Some(150))
    );
    assert!(c.clone().set("late_move_pruning.base", "0").is_err());
    assert!(c.clone().set("qsearch.delta", "-5").is_err());
    // Off, they are left out of the TOML, so earlier configurations read and compare the same.
    let text = SearchConfig::fischerle().to_toml();
    for key in ["reverse_futility", "mate_distance", "late_move", "delta"] {
        assert!(!text.contains(key), "{key}");
    }
    assert_eq!(SearchConfig::from_toml(&c.to_toml()).unwrap(), c);
}

#[test]
fn a_reused_searcher_matches_a_fresh_one() {
    let position = Position::from_fen(POSITIONS[0]).unwrap();
    let fresh =
        Searcher::new(SearchConfig::fischerle()).search(&position, Limits::depth(4), |_| {});
    let mut used = Searcher::new(SearchConfig::plain());
    used.search(
        &Position::from_fen(POSITIONS[3]).unwrap(),
        Limits::depth(4),
        |_| {},
    );
    let mut reused = Searcher::reuse(Some(used), SearchConfig::fischerle());
    let again = reused.search(&position, Limits::depth(4), |_| {});
    assert_eq!(
        (fresh.stats.nodes, fresh.stats.killer_hits, fresh.pv),
        (again.stats.nodes, again.stats.killer_hits, again.pv)
    );
}

mod core_switches;
mod cutoffs;
mod draws;
mod extensions;
mod honed_parts;
mod network;
mod pruning_family;
mod record;
mod strength_switches;
mod swift_parts;
mod time;
mod tt_budget;

#[test]
fn a_soft_time_bound_starts_no_new_iteration() {
    // A zero soft bound lets the first iteration run and nothing after it.
    let position = Position::from_fen(POSITIONS[3]).unwrap();
    let limits = Limits {
        depth: Some(6),
        soft_time: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    let r = Searcher::new(SearchConfig::fischerle()).search(&position, limits, |_| {});
    assert_eq!(r.depth, 1);
}
