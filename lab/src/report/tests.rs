//! The report's tables on a hand-made run whose figures can be worked out on paper: two
//! configurations (candidate limit 3 and 4) and two positions searched to depth 2.

use std::collections::BTreeMap;

use super::data::{IterationPoint, Run, RunDir};
use super::{analyse, depth, depth_tail, heinz, selective, steps};
use crate::export::manifest::Manifest;

fn manifest() -> Manifest {
    serde_json::from_value(serde_json::json!({
        "command": ["harness", "grid"], "name": "paper", "engine_version": "test",
        "git_commit": null, "bench_signature": 0, "threads": 1, "host": "test",
        "axes": ["selective.candidate_limit"],
        "configs": [
            {"id": "c00", "values": ["3"], "config": {}},
            {"id": "c01", "values": ["4"], "config": {}}
        ],
        "suites": [{"label": "s.epd", "source": "s.epd", "sha256": "00", "positions": 2}],
        "limits": {"depth": 2}
    }))
    .unwrap()
}

/// Config `c`, position `p`: its nodes, solved-at depth and counters.
fn run(c: &str, p: &str, nodes: f64, solved_at: Option<f64>, counters: &[(&str, f64)]) -> Run {
    Run {
        config: c.into(),
        suite: "s.epd".into(),
        position: p.into(),
        solved: solved_at.is_some(),
        points: None,
        censored: false,
        nodes,
        qnodes: Some(nodes / 2.0),
        time_ms: 1.0,
        cpu_ms: 1.0,
        nodes_to_solution: solved_at.map(|_| nodes),
        time_to_solution_ms: solved_at.map(|_| 1.0),
        depth_to_solution: solved_at,
        ebf: Some(4.0),
        fail_high_first: Some(0.9),
        root_moves: Some(if p == "a" { 10.0 } else { 30.0 }),
        fen: format!("fen-{p}"),
        failure: String::new(),
        minimal: None,
        counters: counters
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn iteration(c: &str, p: &str, depth: i32, nodes: f64, total: f64) -> IterationPoint {
    IterationPoint {
        config: c.into(),
        suite: "s.epd".into(),
        position: p.into(),
        depth,
        nodes,
        total_nodes: total,
        ebf: None,
        // A search of 10 nodes per millisecond: time ratios equal node ratios on paper.
        time_ms: total / 10.0,
    }
}

fn paper_run() -> RunDir {
    let histogram = |four: f64| {
        [
            ("dyn_levels", 10.0 * four),
            ("legal_moves_4", four),
            ("legal_moves_8", 100.0 - four),
            ("nodes_below_dyn", 5.0 * four),
            ("max_extension", four),
        ]
    };
    RunDir {
        dir: std::env::temp_dir(),
        manifest: manifest(),
        runs: vec![
            run("c00", "a", 100.0, Some(2.0), &histogram(1.0)),
            run("c00", "b", 400.0, None, &histogram(1.0)),
            run("c01", "a", 200.0, Some(1.0), &histogram(3.0)),
            run("c01", "b", 3200.0, Some(2.0), &histogram(3.0)),
        ],
        failed: vec![],
        iterations: vec![
            iteration("c00", "a", 1, 20.0, 20.0),
            iteration("c00", "a", 2, 80.0, 100.0),
            iteration("c00", "b", 1, 40.0, 40.0),
            iteration("c00", "b", 2, 360.0, 400.0),
            iteration("c01", "a", 1, 20.0, 20.0),
            iteration("c01", "a", 2, 180.0, 200.0),
            iteration("c01", "b", 1, 60.0, 60.0),
            iteration("c01", "b", 2, 3140.0, 3200.0),
        ],
    }
}

#[test]
fn summary_and_ablation_on_paper() {
    let run = paper_run();
    let a = analyse(&run, None).unwrap();
    let (s0, s1) = (&a.summary[0], &a.summary[1]);
    assert_eq!(
        (s0.solved, s0.total_nodes, s0.geomean_nodes),
        (1, 500, 200.0)
    );
    assert_eq!(
        (s1.solved, s1.total_nodes, s1.geomean_nodes),
        (2, 3400, 800.0)
    );
    assert_eq!(s1.median_nodes_to_solution, Some(1700.0));
    assert_eq!(s0.qs_share, Some(0.5));
    let (id, p) = &a.paired[0];
    assert_eq!(id, "c01");
    // Ratios 2 and 8: geometric mean 4, median 5; both grow ×2 or more, one ×8.
    assert!((p.geomean_ratio.unwrap().point - 4.0).abs() < 1e-12);
    assert_eq!(p.median_ratio, Some(5.0));
    assert_eq!(
        (p.at_least(2.0), p.at_least(8.0), p.at_least(10.0)),
        (2, 1, 0)
    );
    assert_eq!((p.gained, p.lost), (1, 0));
    assert_eq!(p.mcnemar_p, 1.0);
}

#[test]
fn failed_jobs_count_as_unsolved_positions_and_stay_out_of_every_figure() {
    let mut run = paper_run();
    let mut crashed = Run {
        failure: "crashed: the engine exited".into(),
        ..self::run("c01", "c", 0.0, None, &[])
    };
    crashed.qnodes = None;
    run.failed.push(crashed);
    let a = analyse(&run, None).unwrap();
    let s1 = &a.summary[1];
    assert_eq!((s1.positions, s1.solved, s1.failed), (3, 2, 1));
    assert_eq!((s1.total_nodes, s1.geomean_nodes), (3400, 800.0));
    assert_eq!(a.paired[0].1.pairs.len(), 2);
    let md = super::markdown::render(&run, &a, &[]);
    assert!(md.contains("## Failed jobs (1)"), "{md}");
    assert!(
        md.contains("| c01 | s.epd | c | crashed: the engine exited |"),
        "{md}"
    );
}

#[test]
fn heinz_cells_on_paper() {
    let cells = heinz::table(&paper_run(), "c00", "c01");
    // Depth 1: (20 + 60) / (20 + 40) − 1 = +33.3 %; depth 2: 3400 / 500 − 1 = +580 %.
    assert_eq!(cells.len(), 2);
    assert!((cells[0].delta_nodes_pct - 100.0 / 3.0).abs() < 1e-9);
    assert!((cells[1].delta_nodes_pct - 580.0).abs() < 1e-9);
    // Solved by depth 1: c01 has a, c00 nothing; by depth 2: c01 both, c00 only a.
    assert_eq!((cells[0].delta_solved, cells[1].delta_solved), (1, 1));
}

#[test]
fn depth_series_and_minimal_tree_on_paper() {
    let run = paper_run();
    let s = depth::series(&run, "c01");
    assert_eq!(
        (s[1].depth, s[1].median_nodes, s[1].q1_nodes, s[1].q3_nodes),
        (2, 1700.0, 950.0, 2450.0)
    );
    let rows = depth::minimal_tree(&run);
    // b = mean root moves = 20; depth 2 leaves = 20 + 20 − 1 = 39; c00's depth-2 iterations average 220.
    let row = rows
        .iter()
        .find(|r| r.config == "c00" && r.depth == 2)
        .unwrap();
    assert_eq!(
        (row.branching, row.minimal_leaves, row.mean_nodes),
        (20.0, 39.0, 220.0)
    );
}

#[test]
fn depths_that_fewer_than_half_the_positions_completed_are_left_out() {
    let mut run = paper_run();
    // c01 gets a third position that only reaches depth 1, and position a alone reaches depth 3.
    run.runs.push(self::run("c01", "c", 10.0, None, &[]));
    run.iterations.push(iteration("c01", "c", 1, 10.0, 10.0));
    run.iterations.push(iteration("c01", "a", 3, 800.0, 1000.0));
    let depths: Vec<(i32, usize)> = depth::series(&run, "c01")
        .iter()
        .map(|p| (p.depth, p.positions))
        .collect();
    assert_eq!(depths, [(1, 3), (2, 2)], "depth 3: 1 of 3 positions");
    let rows = depth::minimal_tree(&run);
    assert!(!rows.iter().any(|r| r.config == "c01" && r.depth == 3));
    assert!(rows.iter().any(|r| r.config == "c01" && r.depth == 2));
}

#[test]
fn steps_and_selective_counters_on_paper() {
    let run = paper_run();
    let all = steps::steps(&run);
    assert_eq!(all.len(), 1);
    assert_eq!(
        (
            all[0].from.as_str(),
            all[0].to.as_str(),
            all[0].context.as_str()
        ),
        ("3", "4", "")
    );
    assert_eq!(all[0].paired.pairs.last().unwrap().fen, "fen-b");
    let rows = selective::table(&run);
    assert_eq!(rows[1].dyn_levels, 60.0);
    // legal_moves_4 over the whole histogram: 2 × 3 / 2 × 100.
    assert!((rows[1].move_count_shares[3] - 0.03).abs() < 1e-12);
    // nodes_below_dyn 2 × 15 over main nodes (3400 − 1700).
    assert!((rows[1].below_dyn_share - 30.0 / 1700.0).abs() < 1e-12);
    assert_eq!(
        (rows[1].median_max_extension, rows[1].max_extension),
        (3.0, 3.0)
    );
    // Ratios 2 and 8: both ≥ ×2 (Wilson 2/2: 34.2–100 %), one ≥ ×5, none ≥ ×10 (0/2: 0–65.8 %).
    let md = super::markdown::render(&run, &analyse(&run, None).unwrap(), &[]);
    assert!(
        md.contains("| — | 3 → 4 | **all** | 2 | 2 (100.0 %) [34.2, 100.0] | 1 (50.0 %) [9.5, 90.5] | 0 (0.0 %) [0.0, 65.8] |"),
        "{md}"
    );
}

#[test]
fn depth_tails_on_paper_count_cut_searches_as_lower_bounds_and_drop_cut_baselines() {
    let mut dir = paper_run();
    // Positions at depth 3: a grows ×6, b stays, c's search after the step is cut by the cap
    // before depth 3 (5,000 nodes, 500 ms: at least ×50), d's search before the step is cut.
    let cut = |c: &str, p: &str, nodes: f64| {
        let mut r = run_cut(c, p, nodes);
        r.time_ms = nodes / 10.0;
        r
    };
    dir.runs = vec![
        run("c00", "a", 100.0, None, &[]),
        run("c01", "a", 600.0, None, &[]),
        run("c00", "b", 100.0, None, &[]),
        run("c01", "b", 100.0, None, &[]),
        run("c00", "c", 100.0, None, &[]),
        cut("c01", "c", 5000.0),
        cut("c00", "d", 5000.0),
        cut("c01", "d", 5000.0),
    ];
    dir.iterations = vec![
        iteration("c00", "a", 3, 80.0, 100.0),
        iteration("c01", "a", 3, 580.0, 600.0),
        iteration("c00", "b", 3, 80.0, 100.0),
        iteration("c01", "b", 3, 80.0, 100.0),
        iteration("c00", "c", 3, 80.0, 100.0),
    ];
    let rows = depth_tail::tails(&dir, &steps::steps(&dir));
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!((r.from.as_str(), r.to.as_str(), r.depth), ("3", "4", 3));
    assert_eq!((r.pairs, r.censored, r.dropped), (3, 1, 1));
    assert_eq!((r.nodes.p50, r.nodes.max), (6.0, 50.0));
    assert!((r.geomean_nodes - 300f64.cbrt()).abs() < 1e-9);
    assert_eq!(r.time_ratios, [1.0, 6.0, 50.0]);
    assert_eq!((r.nodes_over, r.time_over), ([2, 1], [2, 1]));
    // Type-7 p90 of [1, 6, 50]: 6 + 0.8 · 44.
    assert!((r.time.p90 - 41.2).abs() < 1e-9);
}

fn run_cut(c: &str, p: &str, nodes: f64) -> Run {
    Run {
        censored: true,
        ..run(c, p, nodes, None, &[])
    }
}

#[test]
fn depth_figures_are_panels_of_the_other_axes_with_a_curve_per_studied_value() {
    let mut run = paper_run();
    // Two axes: the curves are candidate_limit's values, the panels tt.size_mb's.
    run.manifest = serde_json::from_value(serde_json::json!({
        "command": ["harness", "grid"], "name": "paper", "engine_version": "test",
        "git_commit": null, "bench_signature": 0, "threads": 1, "host": "test",
        "axes": ["selective.candidate_limit", "tt.size_mb"],
        "configs": [
            {"id": "c00", "values": ["3", "16"], "config": {}},
            {"id": "c01", "values": ["3", "64"], "config": {}},
            {"id": "c02", "values": ["4", "16"], "config": {}},
            {"id": "c03", "values": ["4", "64"], "config": {}}
        ],
        "suites": [{"label": "s.epd", "source": "s.epd", "sha256": "00", "positions": 2}],
        "limits": {"depth": 2}
    }))
    .unwrap();
    for (from, to) in [("c00", "c02"), ("c01", "c03")] {
        let copy = |r: &Run| Run {
            config: to.into(),
            ..r.clone()
        };
        let extra: Vec<Run> = run.runs_of(from).map(copy).collect();
        run.runs.extend(extra);
        let iterations: Vec<IterationPoint> = run
            .iterations
            .iter()
            .filter(|it| it.config == from)
            .map(|it| IterationPoint {
                config: to.into(),
                ..it.clone()
            })
            .collect();
        run.iterations.extend(iterations);
    }
    let p = depth::panels(&run);
    assert_eq!(p.legend, ["candidate_limit=3", "candidate_limit=4"]);
    let titles: Vec<&str> = p.panels.iter().map(|x| x.title.as_str()).collect();
    assert_eq!(titles, ["size_mb=16", "size_mb=64"]);
    let colours: Vec<usize> = p.panels[1].curves.iter().map(|c| c.0).collect();
    assert_eq!(colours, [0, 1]);
    // One axis: one untitled panel, a curve per configuration.
    let single = depth::panels(&paper_run());
    assert_eq!(single.panels.len(), 1);
    assert_eq!(single.panels[0].title, "");
    assert_eq!(single.legend, ["candidate_limit=3", "candidate_limit=4"]);
}
