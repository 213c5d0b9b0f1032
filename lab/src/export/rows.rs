//! The rows of `runs.csv` and `iterations.csv`. Each row type is defined once, as a serde struct;
//! its CSV header and cells come from serialising it (arrays become numbered columns).

use cozy_chess::Board;
use engine::board::{legal_moves, uci_move};
use engine::{Iteration, SearchResult, SearchStats};
use serde::Serialize;

use crate::plan::JobKey;
use crate::solve::Solution;
use crate::uci::go::GoOutcome;

/// Everything one job produced.
#[derive(Debug, Clone)]
pub struct JobOutput {
    /// The job.
    pub key: JobKey,
    /// Its configuration's axis values.
    pub values: Vec<String>,
    /// Its `runs.csv` row.
    pub run: RunRow,
    /// Its `iterations.csv` rows.
    pub iterations: Vec<IterationRow>,
}

/// One configuration × position (after the key and axis columns): the outcome, the solving-rule
/// figures, and every counter of [`SearchStats`] (flattened, so a new statistic reaches the CSV
/// without being listed again; arrays become numbered columns such as `legal_moves_4`). An
/// external engine's row has the same columns, empty where UCI does not tell.
#[derive(Debug, Clone, Serialize)]
pub struct RunRow {
    /// Final best move is correct (see `solve`).
    pub solved: bool,
    /// Partial-credit points of the final best move (STS: `c8` points of the `c7` moves, 0 for
    /// a move not listed); empty for a position without credit. Set by the runner.
    pub points: Option<u32>,
    /// The most points the position gives (10 in STS); empty without credit.
    pub max_points: Option<u32>,
    /// Final best move (UCI).
    pub best_move: String,
    /// Final score, centipawns from the side to move (mates ±(32000 − ply)).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Legal moves at the root (the suite's mean is the b of the Knuth–Moore bound).
    pub root_moves: usize,
    /// Wall time of the search, milliseconds.
    pub time_ms: f64,
    /// The worker thread's CPU time for the search (for a UCI engine, its process's), milliseconds.
    pub cpu_ms: Option<f64>,
    /// Nodes when the final answer was found and kept.
    pub nodes_to_solution: Option<u64>,
    /// Time when it was found and kept, milliseconds.
    pub time_to_solution_ms: Option<f64>,
    /// Depth at which it was found and kept.
    pub depth_to_solution: Option<i32>,
    /// Depth at which a correct move was first best.
    pub first_seen_depth: Option<i32>,
    /// Nodes of the last iteration over those of the one before.
    pub ebf: Option<f64>,
    /// Share of beta cutoffs made by the first move.
    pub fail_high_first: Option<f64>,
    /// Share of TT probes that hit.
    pub tt_hit_rate: Option<f64>,
    /// The measured minimal tree (`grid --minimal-tree`); empty cells without it.
    #[serde(flatten)]
    pub minimal: MinimalCells,
    /// Every counter of the search.
    #[serde(flatten)]
    pub stats: Counters,
    /// The node cap stopped the search before its depth.
    pub censored: bool,
    /// The position (FEN), so that a row names its position without the suite file.
    pub fen: String,
    /// Why the job failed (an external engine crashed, hung or spoke garbage); empty if it ran.
    pub failure: String,
}

/// A job's measured minimal tree at its last completed depth (`grid --minimal-tree`, the project's
/// engine only): its distinct nodes, and the search's last iteration over them (main search and QS
/// apart), with what the measurement took. Column names are in `run_dir::column`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct MinimalCells {
    /// Main-search nodes of the minimal tree.
    pub minimal_main: Option<u64>,
    /// QS nodes of the minimal tree.
    pub minimal_qs: Option<u64>,
    /// The last iteration's main-search nodes over the minimal tree's.
    pub over_minimal_main: Option<f64>,
    /// The last iteration's QS nodes over the minimal tree's.
    pub over_minimal_qs: Option<f64>,
    /// Milliseconds the measurement took (the recorded search and the two null-window searches).
    pub minimal_ms: Option<f64>,
}

/// The counters of [`SearchStats`] as named cells. The project's engine fills all of them; an
/// external engine only what UCI reports (`nodes`, `seldepth`), the others are empty cells, so
/// every row has the same columns and no counter claims a zero it did not count.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct Counters(serde_json::Map<String, serde_json::Value>);

impl Counters {
    /// All counters of a search of the project's engine.
    pub fn of_search(stats: &SearchStats) -> Self {
        let stats = SearchStats {
            iterations: Vec::new(),
            ..stats.clone()
        };
        match serde_json::to_value(stats).expect("stats serialise") {
            serde_json::Value::Object(map) => Self(map),
            _ => unreachable!("SearchStats is a struct"),
        }
    }

    /// What a UCI engine reported; every other counter empty.
    pub fn reported(nodes: Option<u64>, seldepth: Option<usize>) -> Self {
        let Self(mut map) = Self::of_search(&SearchStats::default());
        for value in map.values_mut() {
            *value = match value {
                serde_json::Value::Array(items) => {
                    serde_json::Value::Array(vec![serde_json::Value::Null; items.len()])
                }
                _ => serde_json::Value::Null,
            };
        }
        map.insert("nodes".into(), nodes.into());
        map.insert("seldepth".into(), seldepth.into());
        Self(map)
    }
}

impl RunRow {
    /// The row of a finished search.
    pub fn new(
        result: &SearchResult,
        root: &Board,
        solution: Solution,
        time_ms: f64,
        cpu_ms: f64,
        censored: bool,
    ) -> Self {
        let s = &result.stats;
        let at = |i: Option<usize>| i.map(|i| &s.iterations[i]);
        let kept = at(solution.kept_from);
        Self {
            solved: solution.solved,
            points: None,
            max_points: None,
            best_move: result
                .best_move
                .map(|mv| uci_move(root, mv))
                .unwrap_or_default(),
            score: result.score,
            depth: result.depth,
            root_moves: legal_moves(root).len(),
            time_ms: round3(time_ms),
            cpu_ms: Some(round3(cpu_ms)),
            nodes_to_solution: kept.map(|it| it.total_nodes),
            time_to_solution_ms: kept.map(|it| it.time_ms),
            depth_to_solution: kept.map(|it| it.depth),
            first_seen_depth: at(solution.first_seen).map(|it| it.depth),
            ebf: ebf(&s.iterations),
            fail_high_first: Some(round3(s.fail_high_first_rate())),
            tt_hit_rate: Some(round3(s.tt_hit_rate())),
            minimal: MinimalCells::default(),
            stats: Counters::of_search(s),
            censored,
            fen: root.to_string(),
            failure: String::new(),
        }
    }

    /// The row of a UCI engine's search: `iterations` as its `info` lines gave them (the last
    /// one ending with its `bestmove`), the solving rule applied to them; the EBF from the first
    /// `complete` iterations of the outcome.
    pub fn from_uci(
        outcome: &GoOutcome,
        iterations: &[Iteration],
        complete: usize,
        root: &Board,
        solution: Solution,
        censored: bool,
    ) -> Self {
        let at = |i: Option<usize>| i.map(|i| &iterations[i]);
        let kept = at(solution.kept_from);
        let last = iterations.last();
        Self {
            solved: solution.solved,
            points: None,
            max_points: None,
            best_move: outcome.best_move.clone(),
            score: last.map_or(0, |it| it.score),
            depth: last.map_or(0, |it| it.depth),
            root_moves: legal_moves(root).len(),
            time_ms: round3(outcome.time_ms),
            cpu_ms: outcome.cpu_ms.map(round3),
            nodes_to_solution: kept.map(|it| it.total_nodes),
            time_to_solution_ms: kept.map(|it| it.time_ms),
            depth_to_solution: kept.map(|it| it.depth),
            first_seen_depth: at(solution.first_seen).map(|it| it.depth),
            ebf: ebf(&outcome.iterations[..complete]),
            fail_high_first: None,
            tt_hit_rate: None,
            minimal: MinimalCells::default(),
            stats: Counters::reported(Some(outcome.nodes), Some(outcome.seldepth)),
            censored,
            fen: root.to_string(),
            failure: String::new(),
        }
    }

    /// The row of a job that failed: unsolved, nothing counted, the reason in `failure`.
    pub fn failed(root: &Board, reason: String, time_ms: f64) -> Self {
        Self {
            solved: false,
            points: None,
            max_points: None,
            best_move: String::new(),
            score: 0,
            depth: 0,
            root_moves: legal_moves(root).len(),
            time_ms: round3(time_ms),
            cpu_ms: None,
            nodes_to_solution: None,
            time_to_solution_ms: None,
            depth_to_solution: None,
            first_seen_depth: None,
            ebf: None,
            fail_high_first: None,
            tt_hit_rate: None,
            minimal: MinimalCells::default(),
            stats: Counters::reported(None, None),
            censored: false,
            fen: root.to_string(),
            failure: reason,
        }
    }
}

impl RunRow {
    /// The column names of every row (they do not depend on the values).
    pub fn column_names() -> Vec<String> {
        cells(&Self::failed(&Board::default(), String::new(), 0.0)).0
    }
}

/// Nodes of the last iteration over those of the one before.
fn ebf(iterations: &[Iteration]) -> Option<f64> {
    let n = iterations.len();
    (n >= 2).then(|| round3(iterations[n - 1].nodes as f64 / iterations[n - 2].nodes.max(1) as f64))
}

/// `x` rounded to three decimals, as the tables print ratios.
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One completed iteration of one job.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IterationRow {
    /// Nominal depth.
    pub depth: i32,
    /// Nodes of this iteration.
    pub nodes: u64,
    /// QS nodes of this iteration (empty for a UCI engine: it does not tell).
    pub qnodes: Option<u64>,
    /// Nodes of the search so far.
    pub total_nodes: u64,
    /// Milliseconds since the search started (to the microsecond for the project's engine; an
    /// external engine reports whole milliseconds).
    pub time_ms: f64,
    /// Deepest ply so far.
    pub seldepth: usize,
    /// Best move (UCI).
    pub best_move: String,
    /// Score.
    pub score: i32,
    /// N_d / N_(d−1), iteration nodes.
    pub ebf: Option<f64>,
    /// √(N_d / N_(d−2)): free of the odd/even effect.
    pub ebf2: Option<f64>,
}

impl IterationRow {
    /// The column names of every row (they do not depend on the values).
    pub fn column_names() -> Vec<String> {
        cells(&Self::default()).0
    }

    /// The rows of a search's completed iterations; `qnodes_known` is false for UCI engines.
    pub fn for_search(iterations: &[Iteration], qnodes_known: bool) -> Vec<Self> {
        let nodes: Vec<f64> = iterations.iter().map(|it| it.nodes.max(1) as f64).collect();
        iterations
            .iter()
            .enumerate()
            .map(|(i, it)| Self {
                depth: it.depth,
                nodes: it.nodes,
                qnodes: qnodes_known.then_some(it.qnodes),
                total_nodes: it.total_nodes,
                time_ms: it.time_ms,
                seldepth: it.seldepth,
                best_move: it.best_move.clone(),
                score: it.score,
                ebf: (i >= 1).then(|| round3(nodes[i] / nodes[i - 1])),
                ebf2: (i >= 2).then(|| round3((nodes[i] / nodes[i - 2]).sqrt())),
            })
            .collect()
    }
}

/// A serialisable row as CSV header names and cells. Arrays become `name_0`, `name_1`, …
pub fn cells<T: Serialize>(row: &T) -> (Vec<String>, Vec<String>) {
    let value = serde_json::to_value(row).expect("rows serialise");
    let mut names = Vec::new();
    let mut cells = Vec::new();
    for (name, v) in value.as_object().expect("rows are structs") {
        match v {
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    names.push(format!("{name}_{i}"));
                    cells.push(cell(item));
                }
            }
            other => {
                names.push(name.clone());
                cells.push(cell(other));
            }
        }
    }
    (names, cells)
}

fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
