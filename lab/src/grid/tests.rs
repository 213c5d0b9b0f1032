//! Grid expansion: files, `--set` axes, engines, and the property tests of the cartesian product.

use super::*;
use crate::uci::client::OptionDecl;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
    /// Fuzz: any grid-file text and any `--set` argument is a grid or a clear error (never a
    /// panic), and expanding whatever was accepted checks every value before any search.
    #[test]
    fn any_grid_text_and_set_argument_is_a_grid_or_an_error(
        toml in "\\PC{0,80}|(name = \"[a-z]{0,4}\"\n)?(depth = -?[0-9]{1,3}\n)?\\[axes\\]\n(\"[a-z._]{1,24}\" = \\[[-0-9a-z, \"]{0,16}\\]\n){0,3}",
        set in "[a-z._]{0,24}=?[-0-9a-z,]{0,16}|\\PC{0,30}"
    ) {
        if let Ok(mut spec) = GridSpec::from_toml(&toml) {
            if spec.add_set(&set).is_ok() {
                if let Err(e) = spec.expand() {
                    proptest::prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}
use proptest::prelude::*;

#[test]
fn set_arguments_make_a_three_by_two_grid() {
    let mut g = GridSpec {
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    g.add_set("selective.candidate_limit=2,3,4").unwrap();
    g.add_set("see=true,false").unwrap();
    let points = g.expand().unwrap();
    assert_eq!(points.len(), 6);
    assert_eq!(points[1].values, vec!["2", "false"]);
    assert_eq!(points[5].config().unwrap().selective.candidate_limit, 4);
    assert!(!points[5].config().unwrap().see);
    assert_eq!(points[5].id, "c05");
}

#[test]
fn points_that_search_identically_are_named() {
    let mut g = GridSpec {
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    g.add_set("tt=on,off").unwrap();
    g.add_set("tt_move=true,false").unwrap();
    let points = g.expand().unwrap();
    assert_eq!(points[2].values, ["off", "true"]);
    assert_eq!(same_search(&points), [("c02".into(), "c03".into())]);
    g.axes.remove(0);
    assert!(same_search(&g.expand().unwrap()).is_empty());
}

#[test]
fn bad_keys_values_and_empty_axes_fail_before_running() {
    let mut g = GridSpec {
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    g.add_set("selective.candidate_limt=3").unwrap();
    assert!(g
        .expand()
        .unwrap_err()
        .to_string()
        .contains("candidate_limt"));
    let mut g = GridSpec {
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    g.add_set("see=perhaps").unwrap();
    assert!(g.expand().unwrap_err().to_string().contains("perhaps"));
    let mut g = GridSpec {
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    g.add_set("see=").unwrap();
    assert!(matches!(g.expand(), Err(GridError::EmptyAxis(_))));
    assert!(g.add_set("noequals").is_err());
    let g = GridSpec {
        preset: "nosuch".into(),
        ..GridSpec::default()
    };
    assert!(g.expand().unwrap_err().to_string().contains("nosuch"));
}

#[test]
fn toml_file_with_fixed_values_and_axes() {
    let text = r#"
        name = "t"
        preset = "plain"
        depth = 4
        [set]
        "qsearch.min_level" = -10
        [axes]
        "selective.candidate_limit" = [0, 3]
        ordering = ["fischerle", "mvv_lva", "none"]
    "#;
    let g = GridSpec::from_toml(text).unwrap();
    assert_eq!(
        g.axes[0].key, "selective.candidate_limit",
        "file order is kept"
    );
    let points = g.expand().unwrap();
    assert_eq!(points.len(), 6);
    assert!(points
        .iter()
        .all(|p| p.config().unwrap().qsearch.min_level == -10));
    assert!(GridSpec::from_toml("bogus = 1").is_err());
}

#[test]
fn a_preset_axis_picks_the_base() {
    let mut g = GridSpec {
        preset: "fischerle".into(),
        fixed: vec![("tt.size_mb".into(), "2".into())],
        ..GridSpec::default()
    };
    g.add_set("preset=fischerle,plain").unwrap();
    let points = g.expand().unwrap();
    assert_eq!(
        points[0].config().unwrap().ordering,
        engine::config::OrderingScheme::Fischerle
    );
    assert_eq!(
        points[1].config().unwrap().ordering,
        engine::config::OrderingScheme::MvvLva
    );
    assert!(
        points
            .iter()
            .all(|p| p.config().unwrap().tt.as_ref().unwrap().size_mb == 2),
        "fixed values apply to every preset"
    );
}

#[test]
fn each_engine_gets_the_product_of_its_own_axes() {
    let text = r#"
        engines = ["builtin", "uci:/usr/games/stockfish"]
        [set]
        "uci.threads" = 1
        "tt.size_mb" = 8
        [axes]
        see = [true, false]
        "uci.Hash" = [16, 64]
    "#;
    let g = GridSpec::from_toml(text).unwrap();
    assert_eq!(g.engines.len(), 2);
    let stockfish = EngineSpec::Uci {
        label: "stockfish".into(),
        path: "/usr/games/stockfish".into(),
        identity: crate::uci::client::Identity {
            name: "Stockfish".into(),
            declared: vec![
                OptionDecl::parse("Threads type spin default 1 min 1 max 1024"),
                OptionDecl::parse("Hash type spin default 16 min 1 max 33554432"),
            ],
        },
    };
    let engines = [EngineSpec::Builtin, stockfish];
    assert_eq!(g.columns(&engines), ["engine", "see", "uci.Hash"]);
    let points = g.expand_with(&engines).unwrap();
    let values: Vec<Vec<&str>> = points
        .iter()
        .map(|p| p.values.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        values,
        [
            ["builtin", "true", ""],
            ["builtin", "false", ""],
            ["stockfish", "", "16"],
            ["stockfish", "", "64"]
        ]
    );
    assert_eq!(points[1].config().unwrap().tt.as_ref().unwrap().size_mb, 8);
    let Player::Uci { engine, options } = &points[3].player else {
        panic!("c03 is stockfish")
    };
    assert_eq!(*engine, 1);
    let expected = [("Threads", "1"), ("Hash", "64")].map(|(k, v)| (k.to_string(), v.to_string()));
    assert_eq!(
        options, &expected,
        "names as the engine spells them, fixed first"
    );
    assert_eq!(points[3].id, "c03");
}

#[test]
fn command_line_axis_replaces_the_file_axis() {
    let mut g = GridSpec::from_toml("[axes]\nsee = [true, false]\n").unwrap();
    g.add_set("see=true").unwrap();
    assert_eq!(g.expand().unwrap().len(), 1);
}

proptest! {
    #[test]
    fn product_size_and_uniqueness(sizes in proptest::collection::vec(1usize..4, 0..4)) {
        let axes: Vec<Axis> = sizes.iter().enumerate()
            .map(|(i, &n)| Axis { key: format!("k{i}"), values: (0..n).map(|v| v.to_string()).collect() })
            .collect();
        let combos = cartesian(&axes);
        prop_assert_eq!(combos.len(), sizes.iter().product::<usize>());
        let mut unique = combos.clone();
        unique.sort();
        unique.dedup();
        prop_assert_eq!(unique.len(), combos.len());
    }
}

#[test]
fn set_values_split_outside_brackets() {
    assert_eq!(split_values("1,2, 3"), ["1", "2", "3"]);
    assert_eq!(split_values("[7,3],[0, 0]"), ["[7,3]", "[0, 0]"]);
    assert_eq!(
        split_values("{ a = [1, 2] },off"),
        ["{ a = [1, 2] }", "off"]
    );
}
