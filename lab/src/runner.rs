//! Running a plan: rayon over (configuration × position) jobs. Each job owns its searcher (TT,
//! killers, history, statistics), so node counts do not depend on the number of threads. Results go
//! through a channel to one writer, which flushes them as they arrive. External engines run as
//! one process per worker and engine, sent `ucinewgame` and `isready` before every position; one
//! that crashes, hangs or speaks garbage fails its job (the reason is in the row), is dropped
//! (killed), and the worker starts a fresh one for its next job.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::Result;
use engine::{Position, Searcher};
use rayon::prelude::*;

use crate::engines::EngineSpec;
use crate::export::rows::{round3, IterationRow, JobOutput, MinimalCells, RunRow};
use crate::export::sink::Sink;
use crate::grid::Player;
use crate::plan::{Job, Plan};
use crate::progress::Progress;
use crate::solve::{judge, kept_for, Answer};
use crate::uci::client::{UciEngine, UciError};
use crate::uci::go;

/// A worker's process of one UCI engine and the options it was given.
type UciSlot = Option<(UciEngine, Vec<(String, String)>)>;

/// What a worker keeps between jobs.
#[derive(Default)]
pub struct Worker {
    /// The project's searcher from the previous job (see `Searcher::reuse`).
    searcher: Option<Searcher>,
    /// Per engine index: a running UCI process and the options it was given.
    uci: Vec<UciSlot>,
}

/// Runs every job of the plan not already in `sink`, writing rows as they finish.
pub fn run(plan: &Plan, mut sink: Sink, quiet: bool) -> Result<()> {
    let jobs: Vec<Job> = plan
        .jobs()
        .into_iter()
        .filter(|j| !sink.is_done(&plan.job_key(j)))
        .collect();
    let progress = Progress::new(jobs.len() as u64, quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()?;
    let (tx, rx) = mpsc::channel::<JobOutput>();
    std::thread::scope(|scope| -> Result<()> {
        let writer = scope.spawn(move || -> Result<()> {
            for output in rx {
                sink.write(&output)?;
                progress.job_done();
            }
            progress.finish();
            Ok(())
        });
        pool.install(|| {
            // Each worker keeps its searcher between jobs (TT cleared in O(1), buffers reused)
            // instead of allocating 16 MiB and a set of tables per job.
            jobs.par_iter().for_each_init(
                || (tx.clone(), Worker::default()),
                |(tx, worker), job| {
                    if crate::shutdown::requested() {
                        return; // asked to stop: no new job; those under way finish
                    }
                    // The writer only stops on an I/O error, which it reports itself.
                    let _ = tx.send(run_job(plan, job, worker));
                },
            )
        });
        drop(tx);
        writer.join().expect("writer thread panicked")
    })
}

/// Searches one position with one configuration and turns the result into rows.
pub fn run_job(plan: &Plan, job: &Job, worker: &mut Worker) -> JobOutput {
    let point = &plan.points[job.point];
    let (mut run, iterations) = match &point.player {
        Player::Builtin(config) => builtin_job(plan, job, config, &mut worker.searcher),
        Player::Uci { engine, options } => {
            worker.uci.resize_with(plan.engines.len(), || None);
            uci_job(plan, job, *engine, options, &mut worker.uci[*engine])
        }
    };
    if let Some((points, max)) = plan.points(job, &run.best_move) {
        (run.points, run.max_points) = (Some(points), Some(max));
    }
    JobOutput {
        key: plan.job_key(job),
        values: point.values.clone(),
        run,
        iterations,
    }
}

/// A search of the project's engine, in this thread.
fn builtin_job(
    plan: &Plan,
    job: &Job,
    config: &engine::SearchConfig,
    worker: &mut Option<Searcher>,
) -> (RunRow, Vec<IterationRow>) {
    let record = &plan.suites[job.suite].records[job.record];
    let position = Position::new(record.board.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let limits = plan.limits.search_limits(stop.clone());
    let answer = plan.answer(job);
    let mut searcher = Searcher::reuse(worker.take(), config.clone());
    let wall = Instant::now();
    let cpu = cpu_time::ThreadTime::now();
    let mut seen = Vec::new();
    let result = searcher.search(&position, limits, |it| {
        seen.push(it.clone());
        if plan.limits.early_stop(it.depth)
            && kept_for(&seen, &answer, plan.limits.solved_for.unwrap_or(0))
        {
            stop.store(true, Ordering::Relaxed);
        }
    });
    let time_ms = wall.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = cpu.elapsed().as_secs_f64() * 1e3;
    *worker = Some(searcher);
    let solution = judge(&result.stats.iterations, &answer);
    let censored = plan.limits.is_censored(result.depth, result.stats.nodes);
    let mut run = RunRow::new(&result, &record.board, solution, time_ms, cpu_ms, censored);
    if plan.limits.minimal_tree && !censored {
        run.minimal = minimal_cells(config, &position, &result);
    }
    (
        run,
        IterationRow::for_search(&result.stats.iterations, true),
    )
}

/// The minimal tree of `result`'s last completed depth against that iteration.
fn minimal_cells(
    config: &engine::SearchConfig,
    position: &Position,
    result: &engine::SearchResult,
) -> MinimalCells {
    let started = Instant::now();
    let (again, minimal) =
        engine::search::record::measure_minimal_tree(config, position, result.depth);
    debug_assert_eq!(
        again.stats.nodes, result.stats.nodes,
        "a recorded search is the same search"
    );
    let Some(last) = result.stats.iterations.last() else {
        return MinimalCells::default();
    };
    let (main, qs) = minimal.nodes();
    let over =
        |search: u64, minimal: u64| (minimal > 0).then(|| round3(search as f64 / minimal as f64));
    MinimalCells {
        minimal_main: Some(main),
        minimal_qs: Some(qs),
        over_minimal_main: over(last.nodes - last.qnodes, main),
        over_minimal_qs: over(last.qnodes, qs),
        minimal_ms: Some(round3(started.elapsed().as_secs_f64() * 1e3)),
    }
}

/// A search of an external engine. On failure the process is dropped (killed); the next job of
/// this worker starts a new one.
fn uci_job(
    plan: &Plan,
    job: &Job,
    engine: usize,
    options: &[(String, String)],
    slot: &mut UciSlot,
) -> (RunRow, Vec<IterationRow>) {
    let record = &plan.suites[job.suite].records[job.record];
    let answer = plan.answer(job);
    let wall = Instant::now();
    let searched = ready_engine(plan, engine, options, slot).and_then(|uci| {
        let deadline = plan.uci.deadline(plan.limits.movetime_ms);
        go::search(
            uci,
            &Position::new(record.board.clone()),
            &plan.limits.go_args(),
            deadline,
            |its| {
                its.last()
                    .is_some_and(|it| plan.limits.early_stop(it.depth))
                    && kept_for(its, &answer, plan.limits.solved_for.unwrap_or(0))
            },
        )
    });
    match searched {
        Ok(outcome) => uci_rows(plan, record, &answer, &outcome),
        Err(e) => {
            *slot = None;
            let ms = wall.elapsed().as_secs_f64() * 1e3;
            (RunRow::failed(&record.board, e.to_string(), ms), Vec::new())
        }
    }
}

/// The rows of a UCI search that answered: the solving rule on its iterations, ended by its
/// `bestmove`.
fn uci_rows(
    plan: &Plan,
    record: &crate::epd::EpdRecord,
    answer: &Answer,
    outcome: &go::GoOutcome,
) -> (RunRow, Vec<IterationRow>) {
    let judged = outcome.answered_iterations();
    let solution = judge(&judged, answer);
    let depth = judged.last().map_or(0, |it| it.depth);
    let censored = plan.limits.is_censored(depth, outcome.nodes);
    let complete = outcome.completed(plan.limits.depth);
    let run = RunRow::from_uci(
        outcome,
        &judged,
        complete,
        &record.board,
        solution,
        censored,
    );
    (run, IterationRow::for_search(&outcome.iterations, false))
}

/// The worker's process for `engine`, started if needed, with `options` set, after
/// `ucinewgame` and `isready`.
fn ready_engine<'a>(
    plan: &Plan,
    engine: usize,
    options: &[(String, String)],
    slot: &'a mut UciSlot,
) -> Result<&'a mut UciEngine, UciError> {
    let EngineSpec::Uci { path, .. } = &plan.engines[engine] else {
        unreachable!("UCI configurations name UCI engines");
    };
    if slot.is_none() {
        *slot = Some((UciEngine::start(path, plan.uci.handshake)?, Vec::new()));
    }
    let (uci, applied) = slot.as_mut().expect("started above");
    if applied.as_slice() != options {
        for (name, value) in options {
            uci.set_option(name, value)?;
        }
        *applied = options.to_vec();
    }
    uci.new_game(plan.uci.handshake)?;
    Ok(uci)
}
