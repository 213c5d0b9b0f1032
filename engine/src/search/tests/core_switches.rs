//! The modern core's switches (#54): each one changes the `strong` tree, and a switch whose
//! heuristic is off, or whose step never runs, changes no tree. Node counts are exact: a
//! fixed-depth search is deterministic.

use super::*;
use crate::search::score::mate_in_moves;

/// A quiet middlegame where every step has work to do.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
/// Kiwipete: captures, checks and pins everywhere.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

const DEPTH: i32 = 8;

fn nodes(fen: &str, config: SearchConfig) -> u64 {
    search(fen, config, DEPTH).stats.nodes
}

fn with(base: &SearchConfig, key: &str, value: &str) -> SearchConfig {
    let mut c = base.clone();
    c.set(key, value).unwrap();
    c
}

/// Every switch of the core, flipped from its `strong` value.
const FLIPS: &[(&str, &str)] = &[
    ("ordering", "mvv_lva"),
    ("continuation_history.plies", "1"),
    ("continuation_history.gravity", "false"),
    ("lmr.improving", "false"),
    ("lmr.history_divisor", "off"),
    ("late_move_pruning.improving", "false"),
    ("reverse_futility.improving", "false"),
    ("tt.skip_pv", "false"),
    ("sound_bounds", "false"),
    ("aspiration.one_sided", "false"),
];

#[test]
fn strong_searches_the_committed_trees() {
    let strong = SearchConfig::strong();
    assert_eq!(
        [nodes(MIDDLEGAME, strong.clone()), nodes(KIWIPETE, strong)],
        [STRONG_MIDDLEGAME, STRONG_KIWIPETE]
    );
}

/// `strong`'s node counts at depth 8; a change to the preset or its steps must update them.
const STRONG_MIDDLEGAME: u64 = 0;
const STRONG_KIWIPETE: u64 = 0;

#[test]
fn each_switch_of_the_core_changes_the_strong_tree() {
    let strong = SearchConfig::strong();
    let base = [nodes(MIDDLEGAME, strong.clone()), nodes(KIWIPETE, strong.clone())];
    for (key, value) in FLIPS {
        let flipped = with(&strong, key, value);
        let got = [nodes(MIDDLEGAME, flipped.clone()), nodes(KIWIPETE, flipped)];
        assert_ne!(got, base, "{key}={value} left both trees as they were");
    }
}

#[test]
fn a_switch_whose_heuristic_is_off_changes_nothing() {
    let gated = SearchConfig::gated();
    let base = nodes(MIDDLEGAME, gated.clone());
    for (off, key, value) in [
        ("lmr", "lmr.improving", "true"),
        ("lmr", "lmr.history_divisor", "100"),
        ("late_move_pruning", "late_move_pruning.improving", "true"),
        ("reverse_futility", "reverse_futility.improving", "true"),
    ] {
        let without = with(&gated, off, "off");
        let reference = nodes(MIDDLEGAME, without.clone());
        assert_ne!(reference, base, "{off} off changes gated's tree");
        assert_eq!(nodes(MIDDLEGAME, with(&without, key, value)), reference, "{key}");
    }
    // TT cutoffs off: no cutoff to skip at PV nodes; no window before depth 99: none to widen.
    let no_cutoffs = with(&gated, "tt.cutoffs", "false");
    let reference = nodes(MIDDLEGAME, no_cutoffs.clone());
    assert_eq!(nodes(MIDDLEGAME, with(&no_cutoffs, "tt.skip_pv", "true")), reference);
    let no_window = with(&gated, "aspiration.min_depth", "99");
    let reference = nodes(MIDDLEGAME, no_window.clone());
    let one_sided = with(&no_window, "aspiration.one_sided", "true");
    assert_eq!(nodes(MIDDLEGAME, one_sided), reference);
    // Nothing pruned in the move loop (no futility, LMP or SEE pruning): no bound to make sound.
    let mut no_pruning = gated.clone();
    for key in ["futility", "late_move_pruning", "see_prune"] {
        no_pruning.set(key, "off").unwrap();
    }
    let reference = nodes(MIDDLEGAME, no_pruning.clone());
    assert_eq!(nodes(MIDDLEGAME, with(&no_pruning, "sound_bounds", "true")), reference);
}

#[test]
fn strong_finds_the_tactics_the_other_presets_find() {
    // WAC 1 (Qg6), the back-rank mate, and a pawn race.
    let strong = SearchConfig::strong();
    let wac1 = search(POSITIONS[0], strong.clone(), 8);
    assert_eq!(
        wac1.best_move.map(|m| m.to_string()),
        Some("g3g6".to_string())
    );
    let mate = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", strong, 4);
    assert_eq!(mate_in_moves(mate.score), Some(1));
}
