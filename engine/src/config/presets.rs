//! The named presets: `fischerle` (the default), `seeds`, `plain`, `modern`, `gated`, `strong`,
//! `fitted`, `picked`, `honed`, `swift` and `nnue`, and the values `on` gives a heuristic that is
//! off.

use super::*;

/// The names accepted by [`SearchConfig::preset`].
pub const PRESETS: &[&str] = &[
    "fischerle",
    "seeds",
    "plain",
    "modern",
    "gated",
    "strong",
    "fitted",
    "picked",
    "honed",
    "swift",
    "nnue",
];

/// What each preset adds to the one it is built on, in a line (the command line's `--help` lists
/// them with the names).
pub fn preset_summary(name: &str) -> Option<&'static str> {
    Some(match name {
        "fischerle" => "Fischerle as the spec describes it: `seeds` + PVS and adaptive null move",
        "seeds" => "the 1989 engine: selective deepening, Fischerle's QS and ordering, killers, TT",
        "plain" => "textbook alpha-beta: iterative deepening, TT, MVV-LVA, all-captures QS",
        "modern" => "`fischerle` + futility, late move pruning, LMR, aspiration and singular",
        "gated" => "`modern` + the changes that passed their SPRT gates (reverse futility pruning)",
        "strong" => "`gated` + the modern core: staged order, histories, LMR, IIR, SEE pruning, …",
        "fitted" => {
            "`strong` with every evaluation term on, fitted to Stockfish-labelled positions"
        }
        "picked" => "`fitted` + a move picker that scores quiet moves only when reached",
        "honed" => "`picked` + QS TT, quiet futility, history pruning, tables kept for the game",
        "swift" => "`honed` + the early null move, TT aging and the evaluation cache",
        "nnue" => "`swift` evaluating with the built-in network (results/nnue)",
        _ => return None,
    })
}

impl SearchConfig {
    /// Fischerle as the spec describes it: the [`seeds`](Self::seeds) engine plus the techniques
    /// §5 names that this engine has — principal-variation search and adaptive null-move pruning
    /// (reduction 2 + level / 4). The evaluation cache and the later pruning family (futility
    /// pruning, razoring, …) are switches, off here.
    pub fn fischerle() -> Self {
        Self {
            pvs: true,
            null_move: Some(NullMove {
                base: 2,
                divisor: 4,
                skip_pv: false,
                eval_divisor: None,
                early: false,
            }),
            ..Self::seeds()
        }
    }

    /// What the seed pages describe and nothing more: selective deepening 3/4/10, Fischerle QS
    /// (−30, Q+N), 14-bucket ordering without SEE, two killers by ply, history, TT with TT move;
    /// no PVS, no null move.
    pub fn seeds() -> Self {
        Self {
            selective: Selective {
                candidate_limit: 3,
                dyn_levels: 4,
                triv_dyn_levels: 10,
                depth_scaling: None,
            },
            qsearch: QSearch {
                min_level: -30,
                captures: CaptureFilter::Fischerle,
                promotions: Promotions::Qn,
                delta: None,
                see_prune: None,
                tt: false,
            },
            ordering: OrderingScheme::Fischerle,
            bad_captures_last: true,
            see: false,
            killers: Some(Killers {
                count: 2,
                index: KillerIndex::Ply,
            }),
            history: Some(History {
                moves: 2,
                sort_all: false,
                malus: false,
                keep: false,
            }),
            tt_move: true,
            tt: Some(Tt {
                size_mb: 16,
                cutoffs: true,
                budget_aware: false,
                replacement: Replacement::Always,
                skip_pv: false,
                aging: false,
            }),
            pvs: false,
            aspiration: None,
            null_move: None,
            check_extension: false,
            check_extension_see: false,
            mate_search: false,
            kpk: crate::kpk::KpkRules::default(),
            mate_distance_pruning: false,
            reverse_futility: None,
            late_move_pruning: None,
            futility: None,
            razoring: None,
            iir: None,
            lmr: None,
            eval_cache: None,
            lazy_eval: None,
            singular: None,
            sound_bounds: false,
            see_prune: None,
            continuation_history: None,
            countermove: false,
            quiet_futility: None,
            history_pruning: None,
            keep_tables: false,
            eval: Box::new(crate::eval::Evaluation::classic()),
            time: Box::default(),
            nnue: None,
        }
    }

    /// Textbook alpha-beta: iterative deepening + TT, MVV-LVA, all-captures QS, no extensions,
    /// no killers or history.
    pub fn plain() -> Self {
        Self {
            selective: Selective {
                candidate_limit: 0,
                dyn_levels: 0,
                triv_dyn_levels: 0,
                depth_scaling: None,
            },
            qsearch: QSearch {
                min_level: -30,
                captures: CaptureFilter::All,
                promotions: Promotions::Qrbn,
                delta: None,
                see_prune: None,
                tt: false,
            },
            ordering: OrderingScheme::MvvLva,
            killers: None,
            history: None,
            ..Self::seeds()
        }
    }

    /// `fischerle` plus every switch of the later pruning family whose fixed-node match against
    /// `fischerle` (200 game pairs at 10,000 nodes a move, `results/heuristics/`) gave a likelihood
    /// of superiority of 95 % or more, each with its `on` values: futility pruning (extended), late
    /// move pruning, late move reductions, QS SEE pruning, aspiration windows and the restricted
    /// singular extension.
    pub fn modern() -> Self {
        let on = Self::everything_on();
        Self {
            qsearch: QSearch {
                see_prune: on.qsearch.see_prune,
                ..Self::fischerle().qsearch
            },
            aspiration: on.aspiration,
            late_move_pruning: on.late_move_pruning,
            futility: on.futility,
            lmr: on.lmr,
            singular: on.singular,
            ..Self::fischerle()
        }
    }

    /// `modern` plus every change the gates of `results/strength/` accepted, in the order they were
    /// played (each an SPRT on normalized Elo [0, 25] at 1 s + 0.01 s against the configuration
    /// before it; the changelog with the rejected changes is the study's README): reverse futility
    /// pruning at a margin of 85 per level up to level 6.
    pub fn gated() -> Self {
        Self {
            reverse_futility: Some(ReverseFutility {
                margin: 85,
                max_level: 6,
                improving: false,
            }),
            ..Self::modern()
        }
    }

    /// The modern search core built as a whole (`results/strength/core/`): `gated` with
    /// Fischerle's selective levels off and the check extension on, all captures in the QS, the
    /// staged move order over butterfly, continuation (one and two plies back) and countermove
    /// histories with gravity, late move reductions adjusted by history, node type and
    /// *improving*, late move pruning and reverse futility to level 8 with *improving*, null
    /// move `3 + level / 3` (more with a lead, not at PV nodes), internal iterative reduction,
    /// SEE pruning, a two-tier TT without PV cutoffs, sound bounds after pruning, one-sided
    /// aspiration windows of 25 and mate-distance pruning; singular extension off. Its time
    /// manager scales the soft bound by best-move stability, score drop and node share and
    /// predicts the next iteration's time (none of which acts at a depth or node limit).
    pub fn strong() -> Self {
        let on = Self::everything_on();
        let gated = Self::gated();
        Self {
            selective: Selective {
                candidate_limit: 0,
                dyn_levels: 0,
                triv_dyn_levels: 0,
                depth_scaling: None,
            },
            qsearch: QSearch {
                captures: CaptureFilter::All,
                promotions: Promotions::Q,
                ..gated.qsearch
            },
            ordering: OrderingScheme::Staged,
            history: Some(History {
                moves: 2,
                sort_all: false,
                malus: true,
                keep: false,
            }),
            countermove: true,
            continuation_history: Some(ContinuationHistory {
                moves: 2,
                plies: 2,
                gravity: true,
            }),
            tt: Some(Tt {
                size_mb: 16,
                cutoffs: true,
                budget_aware: false,
                replacement: Replacement::TwoTier,
                skip_pv: true,
                aging: false,
            }),
            aspiration: Some(Aspiration {
                window: 25,
                min_depth: 4,
                one_sided: true,
            }),
            null_move: Some(NullMove {
                base: 3,
                divisor: 3,
                skip_pv: true,
                eval_divisor: Some(200),
                early: false,
            }),
            check_extension: true,
            mate_distance_pruning: true,
            reverse_futility: Some(ReverseFutility {
                margin: 75,
                max_level: 8,
                improving: true,
            }),
            late_move_pruning: Some(LateMovePruning {
                base: 3,
                max_level: 8,
                improving: true,
            }),
            iir: on.iir,
            lmr: Some(Lmr {
                min_rank: 2,
                cut_more: true,
                improving: true,
                history_divisor: Some(8192),
                ..on.lmr.expect("everything_on has late move reductions")
            }),
            see_prune: on.see_prune,
            singular: None,
            sound_bounds: true,
            time: Box::new(TimeManager {
                partial_iteration: false,
                predict: true,
                ..TimeManager::everything_on()
            }),
            ..gated
        }
    }

    /// `strong` with the evaluation fitted to positions labelled by Stockfish
    /// (`results/eval/labelled/`): every term on, draw scaling, the weights of the study's gated
    /// fit (`fit-blend/eval.toml`, copied to `fitted_eval.toml` beside this file).
    pub fn fitted() -> Self {
        let eval: crate::eval::Evaluation =
            toml::from_str(include_str!("fitted_eval.toml")).expect("the committed fit reads");
        Self {
            eval: Box::new(eval),
            ..Self::strong()
        }
    }

    /// `fitted` with the move picker (`ordering = "picker"`): its quiet moves scored when the
    /// search reaches them (`results/strength/core/`, seventh amendment).
    pub fn picked() -> Self {
        Self {
            ordering: OrderingScheme::Picker,
            ..Self::fitted()
        }
    }

    /// `picked` with the four parts of the eighth amendment (`results/strength/core/`), each at
    /// its `on` values, none of them worse than `picked` at fixed nodes: the QS probes and stores
    /// the TT, quiet futility pruning by level with a history limit, history pruning, and the
    /// history, countermove and continuation tables kept for the game.
    pub fn honed() -> Self {
        let on = Self::everything_on();
        let picked = Self::picked();
        Self {
            qsearch: QSearch {
                tt: true,
                ..picked.qsearch
            },
            quiet_futility: on.quiet_futility,
            history_pruning: on.history_pruning,
            keep_tables: true,
            history: picked.history.map(|h| History { keep: true, ..h }),
            ..picked
        }
    }

    /// `honed` with the evaluation cache and the parts of the ninth amendment
    /// (`results/strength/core/`) its fixed-node screen did not find worse: the null move before
    /// the moves are generated, and TT entries that age with the game's searches.
    pub fn swift() -> Self {
        let on = Self::everything_on();
        let honed = Self::honed();
        Self {
            eval_cache: on.eval_cache,
            null_move: honed.null_move.map(|n| NullMove { early: true, ..n }),
            tt: honed.tt.map(|t| Tt { aging: true, ..t }),
            ..honed
        }
    }

    /// `swift` evaluating with the built-in network (`results/nnue/`) instead of its hand-written
    /// terms.
    pub fn nnue() -> Self {
        Self {
            nnue: Some(crate::nnue::Nnue::default()),
            ..Self::swift()
        }
    }

    /// A preset by name (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Self, ConfigError> {
        match name {
            "fischerle" => Ok(Self::fischerle()),
            "seeds" => Ok(Self::seeds()),
            "plain" => Ok(Self::plain()),
            "modern" => Ok(Self::modern()),
            "gated" => Ok(Self::gated()),
            "strong" => Ok(Self::strong()),
            "fitted" => Ok(Self::fitted()),
            "picked" => Ok(Self::picked()),
            "honed" => Ok(Self::honed()),
            "swift" => Ok(Self::swift()),
            "nnue" => Ok(Self::nnue()),
            _ => Err(ConfigError::UnknownPreset {
                found: name.to_string(),
            }),
        }
    }

    /// A preset with `settings` (dotted key, value) applied in order, as `--set` and a grid's
    /// `[set]` give them: the one way a named base and its changes become a configuration.
    ///
    /// ```
    /// let c = engine::SearchConfig::with_settings("modern", [("see", "false")]).unwrap();
    /// assert!(!c.see);
    /// ```
    pub fn with_settings<K: AsRef<str>, V: AsRef<str>>(
        preset: &str,
        settings: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigError> {
        let mut config = Self::preset(preset)?;
        for (key, value) in settings {
            config.set(key.as_ref(), value.as_ref())?;
        }
        Ok(config)
    }

    /// Every optional heuristic switched on with its default parameters: where `key=on`, or a
    /// key inside a heuristic that is off, takes its values from.
    pub(super) fn everything_on() -> Self {
        Self {
            pvs: true,
            aspiration: Some(Aspiration {
                window: 50,
                min_depth: 4,
                one_sided: false,
            }),
            null_move: Some(NullMove {
                base: 2,
                divisor: 4,
                skip_pv: false,
                eval_divisor: None,
                early: false,
            }),
            check_extension: true,
            qsearch: QSearch {
                delta: Some(200),
                see_prune: Some(0),
                tt: true,
                ..Self::fischerle().qsearch
            },
            mate_distance_pruning: true,
            reverse_futility: Some(ReverseFutility {
                margin: 120,
                max_level: 3,
                improving: false,
            }),
            late_move_pruning: Some(LateMovePruning {
                base: 3,
                max_level: 3,
                improving: false,
            }),
            futility: Some(Futility {
                frontier: 300,
                pre_frontier: Some(500),
            }),
            razoring: Some(Razoring { margin: 900 }),
            iir: Some(Iir { min_level: 4 }),
            lmr: Some(Lmr {
                base: 0.75,
                divisor: 2.25,
                min_level: 3,
                min_rank: 3,
                pv_less: true,
                history_less: false,
                cut_more: false,
                improving: false,
                history_divisor: None,
            }),
            eval_cache: Some(EvalCache { size_kb: 1024 }),
            lazy_eval: Some(LazyEval { margin: 400 }),
            see_prune: Some(SeePrune {
                quiet: 80,
                capture: 18,
                max_level: 8,
            }),
            quiet_futility: Some(QuietFutility {
                margin: 75,
                max_level: 8,
                history_limit: 12_000,
            }),
            history_pruning: Some(HistoryPruning {
                margin: 2_000,
                max_level: 4,
            }),
            keep_tables: true,
            singular: Some(Singular {
                min_level: 4,
                margin: 3,
                max_per_path: 2,
                search: SingularSearch::Moves,
                tt_level_gap: 3,
                double_margin: None,
                double_max: 0,
                multicut: false,
                negative: false,
            }),
            countermove: true,
            continuation_history: Some(ContinuationHistory {
                moves: 2,
                plies: 1,
                gravity: false,
            }),
            eval: Box::new(crate::eval::Evaluation::everything_on()),
            time: Box::new(TimeManager::everything_on()),
            nnue: Some(crate::nnue::Nnue::default()),
            ..Self::fischerle()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_summary() {
        for name in PRESETS {
            assert!(preset_summary(name).is_some(), "{name}");
        }
        assert_eq!(preset_summary("bogus"), None);
    }

    #[test]
    fn presets_round_trip_through_toml() {
        for name in PRESETS {
            let c = SearchConfig::preset(name).unwrap();
            assert_eq!(SearchConfig::from_toml(&c.to_toml()).unwrap(), c, "{name}");
        }
    }

    #[test]
    fn modern_is_fischerle_with_the_switches_its_matches_chose() {
        let mut c = SearchConfig::fischerle();
        for key in [
            "futility",
            "late_move_pruning",
            "lmr",
            "aspiration",
            "singular",
        ] {
            c.set(key, "on").unwrap();
        }
        c.set("qsearch.see_prune", "0").unwrap();
        assert_eq!(SearchConfig::modern(), c);
        assert_eq!(SearchConfig::preset("modern").unwrap(), c);
    }

    /// The accepted changes of `results/strength/` as `scripts/strength.sh` plays them (its
    /// `STEPS`, the accepted ones, in order).
    const GATED_STEPS: &[(&str, &str)] = &[
        ("reverse_futility.margin", "85"),
        ("reverse_futility.max_level", "6"),
    ];

    #[test]
    fn gated_is_modern_with_the_changes_its_gates_accepted() {
        let mut c = SearchConfig::modern();
        for (key, value) in GATED_STEPS {
            c.set(key, value).unwrap();
        }
        assert_eq!(SearchConfig::gated(), c);
        assert_eq!(SearchConfig::preset("gated").unwrap(), c);
    }

    /// The core's settings over `gated`, as `results/strength/core/README.md` lists them.
    const CORE_OVER_GATED: &[(&str, &str)] = &[
        ("selective.candidate_limit", "0"),
        ("selective.dyn_levels", "0"),
        ("selective.triv_dyn_levels", "0"),
        ("qsearch.captures", "all"),
        ("qsearch.promotions", "q"),
        ("ordering", "staged"),
        ("history.malus", "true"),
        ("countermove", "true"),
        ("continuation_history", "on"),
        ("continuation_history.gravity", "true"),
        ("continuation_history.plies", "2"),
        ("tt.replacement", "two_tier"),
        ("tt.skip_pv", "true"),
        ("aspiration.window", "25"),
        ("aspiration.one_sided", "true"),
        ("null_move.base", "3"),
        ("null_move.divisor", "3"),
        ("null_move.skip_pv", "true"),
        ("null_move.eval_divisor", "200"),
        ("check_extension", "true"),
        ("mate_distance_pruning", "true"),
        ("reverse_futility.margin", "75"),
        ("reverse_futility.max_level", "8"),
        ("reverse_futility.improving", "true"),
        ("late_move_pruning.max_level", "8"),
        ("late_move_pruning.improving", "true"),
        ("iir", "on"),
        ("lmr.min_rank", "2"),
        ("lmr.cut_more", "true"),
        ("lmr.improving", "true"),
        ("lmr.history_divisor", "8192"),
        ("see_prune", "on"),
        ("singular", "off"),
        ("sound_bounds", "true"),
        ("time.stability", "on"),
        ("time.score_drop", "on"),
        ("time.node_share", "on"),
        ("time.predict", "true"),
    ];

    #[test]
    fn strong_is_gated_with_the_core() {
        let mut c = SearchConfig::gated();
        for (key, value) in CORE_OVER_GATED {
            c.set(key, value).unwrap();
        }
        assert_eq!(SearchConfig::strong(), c);
        assert_eq!(SearchConfig::preset("strong").unwrap(), c);
    }

    /// The preset's evaluation is the study's gated fit, byte for byte, and validates.
    #[test]
    fn fitted_is_strong_with_the_labelled_fit() {
        let study = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../results/eval/labelled/fit-blend/eval.toml"
        );
        assert_eq!(
            std::fs::read_to_string(study).unwrap(),
            include_str!("fitted_eval.toml")
        );
        let mut c = SearchConfig::strong();
        c.set("eval", &format!("@{study}")).unwrap();
        assert_eq!(SearchConfig::fitted(), c);
        assert_eq!(SearchConfig::preset("fitted").unwrap(), c);
        c.validate().unwrap();
    }

    #[test]
    fn picked_is_fitted_with_the_move_picker() {
        let mut c = SearchConfig::fitted();
        c.set("ordering", "picker").unwrap();
        assert_eq!(SearchConfig::picked(), c);
        assert_eq!(SearchConfig::preset("picked").unwrap(), c);
    }

    /// The parts of the eighth amendment, as `scripts/core.sh parts2` plays them.
    #[test]
    fn honed_is_picked_with_the_parts_its_screen_kept() {
        let mut c = SearchConfig::picked();
        for (key, value) in [
            ("qsearch.tt", "true"),
            ("quiet_futility", "on"),
            ("history_pruning", "on"),
            ("keep_tables", "true"),
            ("history.keep", "true"),
        ] {
            c.set(key, value).unwrap();
        }
        assert_eq!(SearchConfig::honed(), c);
        assert_eq!(SearchConfig::preset("honed").unwrap(), c);
    }

    /// The parts of the ninth amendment, as `scripts/core.sh parts3` plays them, and the
    /// evaluation cache.
    #[test]
    fn swift_is_honed_with_the_cache_and_the_parts_its_screen_kept() {
        let mut c = SearchConfig::honed();
        for (key, value) in [
            ("eval_cache", "on"),
            ("null_move.early", "true"),
            ("tt.aging", "true"),
        ] {
            c.set(key, value).unwrap();
        }
        assert_eq!(SearchConfig::swift(), c);
        assert_eq!(SearchConfig::preset("swift").unwrap(), c);
    }

    #[test]
    fn nnue_is_swift_with_the_built_in_network() {
        let mut c = SearchConfig::swift();
        c.set("nnue", "on").unwrap();
        assert_eq!(SearchConfig::nnue(), c);
        assert_eq!(c.nnue.unwrap().net, crate::nnue::DEFAULT_NET);
    }

    #[test]
    fn fischerle_is_the_seeds_engine_with_pvs_and_null_move() {
        let (f, s) = (SearchConfig::fischerle(), SearchConfig::seeds());
        assert!(f.pvs && f.null_move.is_some());
        assert!(!s.pvs && s.null_move.is_none());
        assert_eq!(
            SearchConfig {
                pvs: false,
                null_move: None,
                ..f
            },
            s
        );
        let p = SearchConfig::plain();
        assert!(
            !p.pvs && p.null_move.is_none(),
            "plain stays textbook alpha-beta"
        );
    }

    #[test]
    fn unknown_preset_names_the_choices() {
        let err = SearchConfig::preset("nope").unwrap_err().to_string();
        assert!(err.contains("fischerle") && err.contains("nope"), "{err}");
    }
}
