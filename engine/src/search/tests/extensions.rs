//! The extensions' forms. The singular extension's two (`singular.search`): each acts only where
//! its conditions hold, the excluded form's verification is its node searched again without the
//! TT move, and each part of the reference form counts only when on. The check extension with
//! its SEE condition (`check_extension_see`) extends a subset of the checks it extended.

use super::*;
use crate::config::{Singular, SingularSearch};
use crate::search::record::{Action, Edge, TreeRecorder};

/// A quiet middlegame where the pruning steps and the extensions all have work to do.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 1";

fn swift_with(singular: Option<Singular>) -> SearchConfig {
    SearchConfig {
        singular,
        ..SearchConfig::swift()
    }
}

fn all_counts(config: &SearchConfig, depth: i32) -> Vec<SearchStats> {
    POSITIONS
        .iter()
        .chain([&MIDDLEGAME])
        .map(|fen| search(fen, config.clone(), depth).stats)
        .collect()
}

#[test]
fn below_its_shallowest_level_neither_form_changes_the_tree() {
    for form in [
        SearchConfig::modern().singular.unwrap(),
        Singular::reference(),
    ] {
        // Iterations of depth 5 never reach level 9 (selective deepening adds at most 2).
        let idle = Singular {
            min_level: 9,
            ..form.clone()
        };
        let (with, without) = (swift_with(Some(idle)), swift_with(None));
        for (a, b) in all_counts(&with, 5).iter().zip(all_counts(&without, 5)) {
            assert_eq!((a.singular_tries, a.nodes), (0, b.nodes), "{form:?}");
        }
        let active = all_counts(&swift_with(Some(form.clone())), 9);
        assert!(active.iter().any(|s| s.singular_extensions > 0), "{form:?}");
    }
}

#[test]
fn each_part_of_the_reference_form_counts_only_when_on() {
    let counts = |s: Singular| {
        let stats = all_counts(&swift_with(Some(s)), 10);
        let sum = |f: fn(&SearchStats) -> u64| stats.iter().map(f).sum::<u64>();
        (
            sum(|s| s.singular_doubles),
            sum(|s| s.singular_multicuts),
            sum(|s| s.singular_negatives),
            sum(|s| s.singular_nodes),
        )
    };
    let reference = Singular::reference();
    let (doubles, multicuts, negatives, verified) = counts(reference.clone());
    assert!(doubles > 0 && multicuts > 0 && negatives > 0 && verified > 0);
    let bare = Singular {
        double_margin: None,
        double_max: 0,
        multicut: false,
        negative: false,
        ..reference
    };
    let (doubles, multicuts, negatives, verified) = counts(bare);
    assert_eq!((doubles, multicuts, negatives), (0, 0, 0));
    assert!(verified > 0);
}

/// Every verification in a recorded tree: the node's own position, half its level, a null
/// window, no move it excludes searched under it, and none of the steps that end or shorten a
/// node before its move loop.
#[test]
fn a_verification_is_its_node_again_without_the_tt_move() {
    let position = Position::from_fen(MIDDLEGAME).unwrap();
    let config = swift_with(Some(Singular::reference()));
    let mut searcher = Searcher::with_recorder(config, TreeRecorder::new(usize::MAX));
    searcher.search(&position, Limits::depth(10), |_| {});
    let tree = searcher.into_recorder();
    let mut verifications = 0;
    for node in &tree.nodes {
        let Edge::Exclusion(excluded) = node.enter.edge else {
            continue;
        };
        verifications += 1;
        let parent = &tree.nodes[node.parent.unwrap() as usize];
        assert_eq!(node.enter.hash, parent.enter.hash);
        assert_eq!(node.enter.ply, parent.enter.ply);
        assert!(parent.enter.level >= 8);
        assert_eq!(node.enter.beta - node.enter.alpha, 1);
        // The node's level before razoring or IIR shortened it is not recorded: at most half.
        assert!(node.enter.level <= (parent.enter.level - 1) / 2 + 1);
        let children = tree.nodes.iter().filter(|c| c.parent == Some(node.id));
        assert!(children
            .into_iter()
            .all(|c| c.enter.edge != Edge::Move(excluded)));
        let early = |a: &Action| {
            matches!(
                a,
                Action::TtCutoff
                    | Action::ReverseFutility
                    | Action::NullMoveTry
                    | Action::Razoring
                    | Action::Iir
            )
        };
        assert!(!node.actions.iter().any(early), "{:?}", node.actions);
    }
    assert!(verifications > 0);
}

#[test]
fn the_reference_form_still_finds_the_mates() {
    let config = swift_with(Some(Singular::reference()));
    let back_rank = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", config, 6);
    assert_eq!(mate_in_moves(back_rank.score), Some(1));
}

#[test]
fn the_excluded_forms_parts_are_refused_in_fischerles_form() {
    let mut config = SearchConfig::modern();
    assert!(config.set("singular.multicut", "true").is_err());
    assert!(config.set("singular.double_margin", "20").is_err());
    config.set("singular.search", "excluded").unwrap();
    // A double extension needs its limit.
    assert!(config.set("singular.double_margin", "20").is_err());
    config.set("singular.double_max", "2").unwrap();
    config.set("singular.double_margin", "20").unwrap();
    assert_eq!(
        config.singular.as_ref().unwrap().search,
        SingularSearch::Excluded
    );
}

#[test]
fn a_preset_serialises_as_before_the_excluded_form() {
    // Run keys hash the serialised configuration: the new parts appear only when set.
    let text = toml::to_string(&SearchConfig::modern()).unwrap();
    let section = text.split("[singular]").nth(1).unwrap();
    let section = section.split("\n[").next().unwrap();
    assert_eq!(
        section.trim(),
        "min_level = 4\nmargin = 3\nmax_per_path = 2"
    );
}

#[test]
fn the_see_condition_extends_only_checks_that_do_not_lose_material() {
    let plain = SearchConfig::swift();
    assert!(plain.check_extension);
    let with_see = SearchConfig {
        check_extension_see: true,
        ..plain.clone()
    };
    // At depth 1 the root's children are the only nodes that may extend: the same moves are
    // searched, and the extended ones are the root's checks that do not lose material by SEE.
    for fen in POSITIONS.iter().chain([&MIDDLEGAME]) {
        let board = Position::from_fen(fen).unwrap().board().clone();
        let mut checks = (0, 0);
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                if !child.checkers().is_empty() {
                    checks.0 += 1;
                    checks.1 += u64::from(crate::search::see::see(&board, mv) >= 0);
                }
            }
            false
        });
        let extended = |c: &SearchConfig| search(fen, c.clone(), 1).stats.check_extensions;
        assert_eq!((extended(&plain), extended(&with_see)), checks, "{fen}");
    }
    let at_depth = |c: &SearchConfig| {
        all_counts(c, 7)
            .iter()
            .map(|s| s.check_extensions)
            .sum::<u64>()
    };
    assert!(at_depth(&with_see) < at_depth(&plain));
}

#[test]
fn the_documented_reference_form_is_the_one_in_the_code_and_the_study() {
    let docs = include_str!("../../../../docs/configuration.md");
    let start = docs
        .find("--set 'singular={")
        .expect("the reference form is documented")
        + 7;
    let value = &docs[start..];
    let value = &value[..value.find('\'').unwrap()];
    let (key, value) = value.split_once('=').unwrap();
    let mut config = SearchConfig::swift();
    config.set(key, value).unwrap();
    assert_eq!(config.singular, Some(Singular::reference()));
    // The fidelity study plays the file's form.
    let study = include_str!("../../../../results/fidelity/singular-reference.toml");
    assert_eq!(
        toml::from_str::<Singular>(study).unwrap(),
        Singular::reference()
    );
}
