//! Running a plan: rayon over (configuration × position) jobs. Each job owns its searcher (TT,
//! killers, history, statistics), so node counts do not depend on the number of threads. Results go
//! through a channel to one writer, which flushes them as they arrive.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::Result;
use engine::{Position, Searcher};
use rayon::prelude::*;

use crate::export::rows::{IterationRow, JobOutput, RunRow};
use crate::export::sink::Sink;
use crate::plan::{Job, Plan};
use crate::progress::Progress;
use crate::solve::{judge, kept_for};

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
                || (tx.clone(), None),
                |(tx, table), job| {
                    // The writer only stops on an I/O error, which it reports itself.
                    let _ = tx.send(run_job(plan, job, table));
                },
            )
        });
        drop(tx);
        writer.join().expect("writer thread panicked")
    })
}

/// Searches one position with one configuration and turns the result into rows. `worker` is the
/// worker's searcher from its previous job, reused (see `Searcher::reuse`).
pub fn run_job(plan: &Plan, job: &Job, worker: &mut Option<Searcher>) -> JobOutput {
    let point = &plan.points[job.point];
    let record = &plan.suites[job.suite].records[job.record];
    let position = Position::new(record.board.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let limits = plan.limits.search_limits(stop.clone());
    let (best, avoid) = plan.answers(job);
    let mut searcher = Searcher::reuse(worker.take(), point.config.clone());
    let wall = Instant::now();
    let cpu = cpu_time::ThreadTime::now();
    let mut seen = Vec::new();
    let result = searcher.search(&position, limits, |it| {
        seen.push(it.clone());
        if plan.limits.early_stop(it.depth)
            && kept_for(&seen, &best, &avoid, plan.limits.solved_for.unwrap_or(0))
        {
            stop.store(true, Ordering::Relaxed);
        }
    });
    let time_ms = wall.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = cpu.elapsed().as_secs_f64() * 1e3;
    *worker = Some(searcher);
    let solution = judge(&result.stats.iterations, &best, &avoid);
    let key = plan.job_key(job);
    let censored = plan.limits.is_censored(result.depth, result.stats.nodes);
    let run = RunRow::new(&result, &record.board, solution, time_ms, cpu_ms, censored);
    let iterations = IterationRow::for_search(&result.stats.iterations);
    JobOutput {
        key,
        values: point.values.clone(),
        run,
        iterations,
    }
}
