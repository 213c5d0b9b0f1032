//! The modern core's switches (#54): each one changes the `strong` tree, and a switch whose
//! heuristic is off, or whose step never runs, changes no tree. Node counts are exact: a
//! fixed-depth search is deterministic.

use super::*;
use crate::search::score::mate_in_moves;

/// A quiet middlegame where every step has work to do.
pub(super) const MIDDLEGAME: &str =
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";
/// Kiwipete: captures, checks and pins everywhere.
pub(super) const KIWIPETE: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

pub(super) const DEPTH: i32 = 8;

pub(super) fn nodes(fen: &str, config: SearchConfig) -> u64 {
    search(fen, config, DEPTH).stats.nodes
}

pub(super) fn with(base: &SearchConfig, key: &str, value: &str) -> SearchConfig {
    let mut c = base.clone();
    c.set(key, value).unwrap();
    c
}

/// Every switch of the core, flipped from its `strong` value (settings applied in order).
const FLIPS: &[&[(&str, &str)]] = &[
    &[("ordering", "mvv_lva")],
    &[("continuation_history.plies", "1")],
    // Two plies need gravity's updates: the classic reward writes only one.
    &[
        ("continuation_history.plies", "1"),
        ("continuation_history.gravity", "false"),
    ],
    &[("lmr.improving", "false")],
    // At `strong`'s 8,192 a history score rarely reaches a level within one search (off leaves
    // both trees at depth 8 as they are); a finer divisor shows the step acts.
    &[("lmr.history_divisor", "1024")],
    &[("late_move_pruning.improving", "false")],
    &[("reverse_futility.improving", "false")],
    &[("tt.skip_pv", "false")],
    &[("sound_bounds", "false")],
    &[("aspiration.one_sided", "false")],
    &[("ordering", "picker")],
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
const STRONG_MIDDLEGAME: u64 = 17_021;
const STRONG_KIWIPETE: u64 = 50_072;

#[test]
fn each_switch_of_the_core_changes_the_strong_tree() {
    let strong = SearchConfig::strong();
    let base = [
        nodes(MIDDLEGAME, strong.clone()),
        nodes(KIWIPETE, strong.clone()),
    ];
    for flip in FLIPS {
        let flipped = flip
            .iter()
            .fold(strong.clone(), |c, (key, value)| with(&c, key, value));
        let got = [nodes(MIDDLEGAME, flipped.clone()), nodes(KIWIPETE, flipped)];
        assert_ne!(got, base, "{flip:?} left both trees as they were");
    }
}

#[test]
fn a_switch_whose_step_never_acts_changes_nothing() {
    let gated = SearchConfig::gated();
    // Each case: a setting under which the step never acts, then the switch that refines it.
    for (never, key, value) in [
        (("lmr.min_level", "99"), "lmr.improving", "true"),
        (("lmr.min_level", "99"), "lmr.history_divisor", "1"),
        (
            ("late_move_pruning.base", "500"),
            "late_move_pruning.improving",
            "true",
        ),
        (("tt.cutoffs", "false"), "tt.skip_pv", "true"),
        (
            ("aspiration.min_depth", "99"),
            "aspiration.one_sided",
            "true",
        ),
    ] {
        let quiet = with(&gated, never.0, never.1);
        let reference = nodes(MIDDLEGAME, quiet.clone());
        assert_eq!(
            nodes(MIDDLEGAME, with(&quiet, key, value)),
            reference,
            "{key}"
        );
    }
    // Nothing pruned in the move loop (no futility, LMP or SEE pruning): no bound to make sound.
    let mut no_pruning = gated.clone();
    for key in ["futility", "late_move_pruning", "see_prune"] {
        no_pruning.set(key, "off").unwrap();
    }
    let reference = nodes(MIDDLEGAME, no_pruning.clone());
    assert_eq!(
        nodes(MIDDLEGAME, with(&no_pruning, "sound_bounds", "true")),
        reference
    );
}

/// The move picker differs from the staged order only in when it reads the history: with no
/// history table to read (nor continuation history), every tree is the same, to the node.
#[test]
fn the_picker_is_the_staged_order_when_there_is_no_history_to_read() {
    let mut no_history = SearchConfig::strong();
    for key in ["history", "continuation_history"] {
        no_history.set(key, "off").unwrap();
    }
    for fen in [MIDDLEGAME, KIWIPETE] {
        let staged = search(fen, no_history.clone(), DEPTH).stats;
        let picked = search(fen, with(&no_history, "ordering", "picker"), DEPTH).stats;
        assert_eq!(picked.nodes, staged.nodes, "{fen}");
        assert_eq!(picked.qnodes, staged.qnodes, "{fen}");
    }
}

/// With the history on, the picker reads it later: `strong`'s trees with the picker, pinned.
#[test]
fn the_picker_searches_its_committed_trees() {
    let picker = with(&SearchConfig::strong(), "ordering", "picker");
    assert_eq!(
        [nodes(MIDDLEGAME, picker.clone()), nodes(KIWIPETE, picker)],
        [PICKER_MIDDLEGAME, PICKER_KIWIPETE]
    );
}

const PICKER_MIDDLEGAME: u64 = 17_504;
const PICKER_KIWIPETE: u64 = 50_075;

#[test]
fn strong_finds_the_back_rank_mate() {
    let mate = search(
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        SearchConfig::strong(),
        4,
    );
    assert_eq!(mate_in_moves(mate.score), Some(1));
}

/// Lazy evaluation bypasses only the piece terms: with an evaluation that has none (the classic
/// one, and with draw scaling) it searches the same tree; with every term it cuts stand pats on the cheap part and, at a margin too small
/// for the piece terms, the tree changes.
#[test]
fn lazy_evaluation_acts_only_where_there_are_piece_terms() {
    let strong = SearchConfig::strong();
    let lazy = with(&strong, "lazy_eval", "on");
    let classic = search(MIDDLEGAME, lazy.clone(), DEPTH);
    assert_eq!(classic.stats.nodes, STRONG_MIDDLEGAME);
    assert!(classic.stats.lazy_cutoffs > 0);
    let scaled = with(&strong, "eval.scaling", "on");
    for fen in [
        MIDDLEGAME,
        KIWIPETE,
        "8/5k2/3b4/1p6/1P6/3B4/5K2/8 w - - 40 80",
    ] {
        assert_eq!(
            search(fen, scaled.clone(), DEPTH).stats.nodes,
            search(fen, with(&scaled, "lazy_eval", "on"), DEPTH)
                .stats
                .nodes,
            "{fen}"
        );
    }
    let mut rich = strong.clone();
    for term in crate::eval::TERMS {
        rich.set(&format!("eval.{term}"), "on").unwrap();
    }
    let rich_lazy = with(&rich, "lazy_eval.margin", "0");
    let (plain, cut) = (
        search(MIDDLEGAME, rich, DEPTH),
        search(MIDDLEGAME, rich_lazy, DEPTH),
    );
    assert!(cut.stats.lazy_cutoffs > 0);
    assert_ne!(plain.stats.nodes, cut.stats.nodes);
}
