//! `tt.budget_aware`: a stored score answers a node only if it was searched with at least the
//! node's selective-deepening budget.

use super::*;

fn with_budget_awareness(on: bool) -> SearchConfig {
    let mut config = SearchConfig::fischerle();
    config.tt.as_mut().unwrap().budget_aware = on;
    config
}

#[test]
fn budget_aware_tables_refuse_entries_searched_with_less_budget() {
    let mut refused = 0;
    for fen in POSITIONS.iter().chain([&FORCED]) {
        let off = search(fen, with_budget_awareness(false), 5);
        let on = search(fen, with_budget_awareness(true), 5);
        assert_eq!(off.stats.tt_budget_refusals, 0, "{fen}");
        refused += on.stats.tt_budget_refusals;
        // Every refusal is a cutoff the other search took (or a node it never reached).
        assert!(on.best_move.is_some());
    }
    assert!(
        refused > 0,
        "transpositions with different budgets occur on these positions"
    );
}

#[test]
fn without_selective_deepening_the_switch_changes_nothing() {
    // Every node then has the same (empty) budget: no entry can be refused.
    for fen in POSITIONS {
        let mut plain_aware = SearchConfig::plain();
        plain_aware.tt.as_mut().unwrap().budget_aware = true;
        let (a, b) = (
            search(fen, SearchConfig::plain(), 4),
            search(fen, plain_aware, 4),
        );
        assert_eq!((a.stats.nodes, a.pv), (b.stats.nodes, b.pv), "{fen}");
        assert_eq!(b.stats.tt_budget_refusals, 0);
    }
}
