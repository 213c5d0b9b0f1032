//! The switches the strength study's rounds 3 and 4 added: main-search SEE pruning, the null
//! move's PV and evaluation terms, and a history table kept through a game.

use super::*;

const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";

fn search(fen: &str, config: SearchConfig, depth: i32) -> SearchResult {
    let position = Position::from_fen(fen).unwrap();
    Searcher::new(config).search(&position, Limits::depth(depth), |_| {})
}

fn gated_with(key: &str, value: &str) -> SearchConfig {
    let mut c = SearchConfig::gated();
    c.set(key, value).unwrap();
    c
}

#[test]
fn see_pruning_skips_losing_moves_in_the_main_search() {
    let with = search(MIDDLEGAME, gated_with("see_prune", "on"), 9);
    let without = search(MIDDLEGAME, SearchConfig::gated(), 9);
    assert!(with.stats.see_prunes > 0);
    assert_eq!(without.stats.see_prunes, 0);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
}

#[test]
fn the_null_move_can_stay_out_of_pv_nodes_and_reduce_more_with_a_lead() {
    let skip = search(MIDDLEGAME, gated_with("null_move.skip_pv", "true"), 9);
    let every = search(MIDDLEGAME, SearchConfig::gated(), 9);
    assert!(skip.stats.null_move_tries > 0);
    assert_ne!(skip.stats.nodes, every.stats.nodes);
    let lead = search(MIDDLEGAME, gated_with("null_move.eval_divisor", "50"), 9);
    assert!(
        lead.stats.nodes < every.stats.nodes,
        "{} vs {}",
        lead.stats.nodes,
        every.stats.nodes
    );
}

#[test]
fn a_kept_history_lasts_until_the_game_is_cleared() {
    let position = Position::from_fen(MIDDLEGAME).unwrap();
    let evidence = |s: &Searcher| {
        let h = s.history.as_ref().unwrap();
        h.total(cozy_chess::Color::White) + h.total(cozy_chess::Color::Black)
    };
    for keep in [false, true] {
        let config = gated_with("history.keep", &keep.to_string());
        let mut searcher = Searcher::new(config);
        searcher.search(&position, Limits::depth(5), |_| {});
        let after = evidence(&searcher);
        assert!(after > 0);
        searcher.start(&position, Limits::depth(5));
        assert_eq!(evidence(&searcher) == after, keep, "keep = {keep}");
        searcher.clear();
        assert_eq!(evidence(&searcher), 0);
    }
    // Cleared, a kept history repeats the first search exactly.
    let mut searcher = Searcher::new(gated_with("history.keep", "true"));
    let first = searcher.search(&position, Limits::depth(5), |_| {});
    searcher.search(&position, Limits::depth(5), |_| {});
    searcher.clear();
    let again = searcher.search(&position, Limits::depth(5), |_| {});
    assert_eq!(first.stats.nodes, again.stats.nodes);
}

#[test]
fn the_history_malus_changes_the_tree() {
    let with = search(MIDDLEGAME, gated_with("history.malus", "true"), 6);
    let without = search(MIDDLEGAME, SearchConfig::gated(), 6);
    assert_ne!(with.stats.nodes, without.stats.nodes);
}
