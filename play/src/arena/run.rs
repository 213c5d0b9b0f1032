//! Running a match: worker threads play game pairs (each worker keeps one player object per
//! player: a searcher, or an engine process) and send them to the writer, which writes them in
//! job order and keeps the standings. A pairing whose SPRT has decided gets no more pairs; pairs
//! of it already under way are dropped. So the files are a prefix of the same job order for any
//! `--threads` and after any resume, and at fixed nodes or depth the games are identical.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Result;
use lab::progress::Progress;

use super::game::{self, Side};
use super::ladder::{Ladder, Trend};
use super::limits::MoveLimit;
use super::output::{GameRow, MatchSink, PairResult};
use super::plan::{Job, MatchPlan, PlayerEntry};
use super::player::{Mover, Player};
use super::standings::Standings;

/// What a run did, besides its files.
#[derive(Debug, Clone)]
pub struct RunSummary {
    /// The standings over every pair written (resumed ones included).
    pub standings: Standings,
    /// Pairs written by this run.
    pub pairs_written: u64,
    /// Wall time of this run, seconds.
    pub wall_s: f64,
    /// Sum over the pairs written of their time on a worker, ms.
    pub busy_ms: f64,
    /// Of which inside the players' searches, ms.
    pub search_ms: f64,
}

impl RunSummary {
    /// The run's pace in words (`None` when it wrote no pair): pairs, games a minute, and the
    /// share of the time inside the players' searches.
    pub fn speed(&self, threads: usize) -> Option<String> {
        (self.pairs_written > 0).then(|| {
            let times = (self.wall_s, self.busy_ms, self.search_ms);
            pace(self.pairs_written, times, threads)
        })
    }
}

/// `pairs` game pairs played in `(wall_s, busy_ms, search_ms)` by `threads` workers, in words:
/// games a minute and the share of the time inside the players' searches (`match`, `tune`).
pub fn pace(pairs: u64, (wall_s, busy_ms, search_ms): (f64, f64, f64), threads: usize) -> String {
    format!(
        "{pairs} pairs in {wall_s:.1} s ({:.0} games per minute); inside searches: {:.1} % of the workers' time, {:.1} % of wall time × threads",
        2.0 * pairs as f64 / wall_s.max(1e-9) * 60.0,
        100.0 * search_ms / busy_ms.max(1e-9),
        100.0 * search_ms / (1e3 * wall_s * threads as f64).max(1e-9)
    )
}

/// A match in its run directory, as `match` and `tune --verify` play it: the shared run flow
/// (lock, manifest, resume of `plan.out` when `resume`, signals) around [`run`].
pub fn play(
    plan: &MatchPlan,
    resume: bool,
    quiet: bool,
) -> Result<lab::run_flow::Ended<RunSummary>> {
    use super::manifest::MatchManifest;
    use super::output::{today, MatchSink};
    // A resumed match keeps the date its PGN headers were written with.
    let today = today();
    let date = |recorded: Option<&MatchManifest>| recorded.map_or(&today, |m| &m.date).clone();
    lab::run_flow::run(
        &plan.out,
        resume,
        |recorded| MatchManifest::new(plan, &date(recorded)),
        |recorded| match recorded {
            Some(m) => MatchSink::resume(&plan.out, &m.date),
            None => Ok((MatchSink::create(&plan.out, &today)?, Vec::new())),
        },
        |(sink, done)| {
            announce(plan, done.len() / 2);
            run(plan, sink, &done, quiet)
        },
    )
}

/// What the match will play, before it starts.
fn announce(plan: &MatchPlan, pairs_done: usize) {
    for problem in &plan.book.problems {
        eprintln!("warning: skipping {problem}");
    }
    eprintln!(
        "{} players, {} pairings × {} pairs, {pairs_done} pairs already played, {} threads → {}",
        plan.players.len(),
        plan.pairings.len(),
        plan.pairs,
        plan.threads,
        plan.out.display()
    );
}

/// Makes a worker's player for an entry of the plan: the match's own [`Player`]s, or a test's
/// scripted ones.
pub type NewPlayer<'a> = &'a (dyn Fn(&PlayerEntry) -> Box<dyn Mover> + Sync);

/// Plays each rung of `ladder` in its own directory under `plan.out` (resuming a started one),
/// then writes the ladder's report; its trends, or `None` when a signal stopped a rung.
pub fn play_ladder(plan: &MatchPlan, ladder: &Ladder, quiet: bool) -> Result<Option<Vec<Trend>>> {
    ladder.write(&plan.out)?;
    for rung in &ladder.rungs {
        let limit: MoveLimit = rung.parse().map_err(anyhow::Error::msg)?;
        let mut p = plan.clone();
        p.out = Ladder::rung_dir(&plan.out, rung);
        p.players.iter_mut().for_each(|player| player.limit = limit);
        let resume = p.out.join(lab::run_dir::MANIFEST).exists();
        if !quiet {
            println!("== rung {rung} → {}", p.out.display());
        }
        if let lab::run_flow::Ended::Interrupted(_) = play(&p, resume, quiet)? {
            return Ok(None);
        }
        super::report::write(&p.out)?;
    }
    super::ladder::report(&plan.out, ladder).map(Some)
}

/// Plays the plan's jobs after those in `done` (rows read back on resume).
pub fn run(plan: &MatchPlan, sink: MatchSink, done: &[GameRow], quiet: bool) -> Result<RunSummary> {
    run_with(plan, sink, done, quiet, &|p| Box::new(Player::new(&p.kind)))
}

/// [`run`] with the players `new_player` makes (one per player and worker).
pub fn run_with(
    plan: &MatchPlan,
    mut sink: MatchSink,
    done: &[GameRow],
    quiet: bool,
    new_player: NewPlayer,
) -> Result<RunSummary> {
    let mut standings = Standings::new(plan);
    let mut next_write = plan.range.start;
    for pair in done.chunks(2) {
        let job = plan.job(pair[0].index);
        let second = &plan.players[plan.pairings[job.pairing].1].id;
        standings.add_pair(job.pairing, second, &[&pair[0], &pair[1]]);
        next_write = job.index + 1;
    }
    let decided: Vec<AtomicBool> = (0..plan.pairings.len())
        .map(|i| AtomicBool::new(standings.decided(i)))
        .collect();
    let next_job = AtomicU64::new(next_write);
    let progress = Progress::new(plan.range.end.saturating_sub(next_write), quiet);
    let start = Instant::now();
    let mut summary = RunSummary {
        standings,
        pairs_written: 0,
        wall_s: 0.0,
        busy_ms: 0.0,
        search_ms: 0.0,
    };
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = mpsc::channel::<PairResult>();
        for i in 0..plan.threads {
            let tx = tx.clone();
            let (decided, next_job) = (&decided, &next_job);
            let core = plan.affinity.as_ref().map(|cores| cores[i % cores.len()]);
            scope.spawn(move || {
                if let Some(core) = core {
                    super::affinity::pin(core);
                }
                worker(plan, (decided, next_job), tx, new_player)
            });
        }
        drop(tx);
        let mut waiting: BTreeMap<u64, PairResult> = BTreeMap::new();
        let mut write_next = |summary: &mut RunSummary,
                              waiting: &mut BTreeMap<u64, PairResult>|
         -> Result<bool> {
            if next_write >= plan.range.end {
                return Ok(false);
            }
            let job = plan.job(next_write);
            if summary.standings.decided(job.pairing) {
                waiting.remove(&next_write);
                next_write += 1;
                progress.job_done();
                return Ok(true);
            }
            let Some(pair) = waiting.remove(&next_write) else {
                return Ok(false);
            };
            let rows = sink.write(plan, &pair)?;
            let second = &plan.players[plan.pairings[job.pairing].1].id;
            summary
                .standings
                .add_pair(job.pairing, second, &[&rows[0], &rows[1]]);
            decided[job.pairing].store(summary.standings.decided(job.pairing), Ordering::Relaxed);
            summary.pairs_written += 1;
            summary.busy_ms += pair.wall_ms;
            summary.search_ms += pair
                .games
                .iter()
                .flat_map(|g| &g.moves)
                .map(|m| m.report.search_ms)
                .sum::<f64>();
            next_write += 1;
            progress.job_done();
            Ok(true)
        };
        for pair in rx {
            waiting.insert(pair.job.index, pair);
            while write_next(&mut summary, &mut waiting)? {}
        }
        while write_next(&mut summary, &mut waiting)? {}
        Ok(())
    })?;
    progress.finish();
    summary.wall_s = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Takes jobs in order until none is left, skipping pairings that are decided.
fn worker(
    plan: &MatchPlan,
    (decided, next_job): (&[AtomicBool], &AtomicU64),
    tx: mpsc::Sender<PairResult>,
    new_player: NewPlayer,
) {
    let mut players: Vec<Box<dyn Mover>> = plan.players.iter().map(new_player).collect();
    loop {
        let index = next_job.fetch_add(1, Ordering::Relaxed);
        if index >= plan.range.end || lab::shutdown::requested() {
            return;
        }
        let job = plan.job(index);
        if decided[job.pairing].load(Ordering::Relaxed) {
            continue;
        }
        let pair = play_pair(plan, job, &mut players);
        if tx.send(pair).is_err() {
            return;
        }
    }
}

/// The opening of `job` twice: the pairing's first player White, then Black.
fn play_pair(plan: &MatchPlan, job: Job, players: &mut [Box<dyn Mover>]) -> PairResult {
    let start = Instant::now();
    let (a, b) = plan.pairings[job.pairing];
    let opening = plan.opening(&job);
    let games = [(a, b), (b, a)].map(|(w, bl)| {
        let (white, black) = two_mut(players, w, bl);
        game::play(
            Side {
                player: &mut **white,
                kind: &plan.players[w].kind,
                limit: plan.players[w].limit,
            },
            Side {
                player: &mut **black,
                kind: &plan.players[bl].kind,
                limit: plan.players[bl].limit,
            },
            opening,
            &plan.rules,
        )
    });
    PairResult {
        job,
        games,
        wall_ms: start.elapsed().as_secs_f64() * 1e3,
    }
}

/// Mutable references to two different elements.
fn two_mut<T>(items: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j, "a player does not play itself");
    if i < j {
        let (left, right) = items.split_at_mut(j);
        (&mut left[i], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(i);
        (&mut right[0], &mut left[j])
    }
}
