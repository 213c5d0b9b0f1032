//! Running a tune: iterations in order, the game pairs of one iteration in parallel. Each worker
//! keeps its two players (θ+ and θ−) between iterations, reconfigured to the new probes, so a
//! UCI engine is started once per worker. A pair depends only on its probes and opening, so at
//! fixed nodes or depth every iteration's result — and the whole trajectory — is the same for any
//! `--threads` and after any resume. An iteration cut short by a signal is not written: a resume
//! plays it again from its start.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Result;
use cozy_chess::Color;

use super::output::{IterationRow, TuneSink};
use super::spsa::{self, PairScore, Probe};
use super::TunePlan;
use crate::arena::game::{self, GameRecord, Side};
use crate::arena::player::{Player, PlayerKind};
use crate::arena::rules::Outcome;
use crate::progress::Progress;

/// What a run did, besides its files.
#[derive(Debug, Clone, Default)]
pub struct TuneSummary {
    /// θ after the last iteration written.
    pub theta: Vec<f64>,
    /// Iterations this run wrote.
    pub iterations: u64,
    /// Pairs this run played (in written iterations).
    pub pairs: u64,
    /// Wall time, seconds.
    pub wall_s: f64,
    /// Sum over the pairs of their time on a worker, ms.
    pub busy_ms: f64,
    /// Of which inside the players' searches, ms.
    pub search_ms: f64,
}

/// Plays iterations `from..=N` starting at `theta`.
pub fn run(
    plan: &TunePlan,
    mut sink: TuneSink,
    from: u64,
    mut theta: Vec<f64>,
    quiet: bool,
) -> Result<TuneSummary> {
    let n = plan.schedule.iterations;
    let progress = Progress::new(n.saturating_sub(from - 1), quiet);
    let workers = plan.threads.min(plan.pairs_per_iteration as usize).max(1);
    let slots: Vec<Mutex<[Option<Player>; 2]>> =
        (0..workers).map(|_| Mutex::new([None, None])).collect();
    let started = Instant::now();
    let mut summary = TuneSummary::default();
    for k in from..=n {
        let probe = spsa::probe(plan.schedule, &plan.params, &theta, k, plan.seed);
        let pairs = play_iteration(plan, &probe, &slots);
        if pairs.len() as u64 != plan.pairs_per_iteration {
            break; // interrupted: this iteration is played again on resume
        }
        let row = IterationRow::new(k, probe, &pairs, &plan.params, &theta);
        theta = row.theta.clone();
        sink.write(&row)?;
        summary.iterations += 1;
        summary.pairs += pairs.len() as u64;
        summary.busy_ms += pairs.iter().map(|p| p.busy_ms).sum::<f64>();
        summary.search_ms += pairs.iter().map(|p| p.search_ms).sum::<f64>();
        progress.job_done();
    }
    progress.finish();
    summary.theta = theta;
    summary.wall_s = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// The pairs of one iteration, in pair order (fewer if a signal stopped it).
fn play_iteration(
    plan: &TunePlan,
    probe: &Probe,
    slots: &[Mutex<[Option<Player>; 2]>],
) -> Vec<PairScore> {
    let kinds = [plan.player(&probe.plus), plan.player(&probe.minus)];
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, PairScore)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for slot in slots {
            let (kinds, next, results) = (&kinds, &next, &results);
            scope.spawn(move || {
                let mut players = slot.lock().expect("a worker panicked");
                for (player, kind) in players.iter_mut().zip(kinds) {
                    match player {
                        Some(p) => p.reconfigure(kind),
                        None => *player = Some(Player::new(kind)),
                    }
                }
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    if j >= plan.pairs_per_iteration || crate::shutdown::requested() {
                        return;
                    }
                    let score = play_pair(plan, probe.k, j, &mut players, kinds);
                    results.lock().expect("a worker panicked").push((j, score));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("a worker panicked");
    results.sort_by_key(|(j, _)| *j);
    results.into_iter().map(|(_, s)| s).collect()
}

/// Pair `j` of iteration `k`: θ+ White, then Black, from the same opening.
fn play_pair(
    plan: &TunePlan,
    k: u64,
    j: u64,
    players: &mut [Option<Player>; 2],
    kinds: &[PlayerKind; 2],
) -> PairScore {
    let start = Instant::now();
    let opening = plan.opening(k, j);
    let [Some(plus), Some(minus)] = players else {
        unreachable!("both players are made before the first pair")
    };
    let limit = plan.limit;
    let first = game::play(
        Side {
            player: plus,
            kind: &kinds[0],
            limit,
        },
        Side {
            player: minus,
            kind: &kinds[1],
            limit,
        },
        opening,
        &plan.rules,
    );
    let second = game::play(
        Side {
            player: minus,
            kind: &kinds[1],
            limit,
        },
        Side {
            player: plus,
            kind: &kinds[0],
            limit,
        },
        opening,
        &plan.rules,
    );
    let mut wdl = [0; 3];
    for (game, plus_colour) in [(&first, Color::White), (&second, Color::Black)] {
        wdl[outcome_for(game.outcome, plus_colour)] += 1;
    }
    PairScore {
        wdl,
        busy_ms: start.elapsed().as_secs_f64() * 1e3,
        search_ms: [&first, &second].iter().map(|g| search_ms(g)).sum(),
    }
}

/// 0 win, 1 draw, 2 loss for the side playing `colour`.
fn outcome_for(outcome: Outcome, colour: Color) -> usize {
    match (outcome, colour) {
        (Outcome::Draw, _) => 1,
        (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 0,
        _ => 2,
    }
}

fn search_ms(game: &GameRecord) -> f64 {
    game.moves.iter().map(|m| m.report.search_ms).sum()
}
