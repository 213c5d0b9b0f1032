//! Running a tune: iterations in order, the games of one iteration in parallel. Each worker
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
use lab::progress::Progress;

use super::output::{IterationRow, TuneSink};
use super::spsa::{self, PairScore, Probe};
use super::TunePlan;
use crate::arena::game::{self, GameRecord, Side};
use crate::arena::player::{Player, PlayerKind};
use crate::arena::rules::Outcome;

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
    let workers = plan
        .threads
        .min(2 * plan.pairs_per_iteration as usize)
        .max(1);
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

/// The pairs of one iteration, in pair order (fewer if a signal stopped it). The workers take
/// games, not pairs, so that the iteration's barrier (the next probe needs this θ) waits for at
/// most one game per worker: every game starts from an empty TT and history, so which worker plays
/// it does not change its result.
fn play_iteration(
    plan: &TunePlan,
    probe: &Probe,
    slots: &[Mutex<[Option<Player>; 2]>],
) -> Vec<PairScore> {
    let kinds = [plan.player(&probe.plus), plan.player(&probe.minus)];
    let games = 2 * plan.pairs_per_iteration;
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, PlusGame)>> = Mutex::new(Vec::new());
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
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games || lab::shutdown::requested() {
                        return;
                    }
                    let game = play_game(plan, probe.k, g, &mut players, kinds);
                    results.lock().expect("a worker panicked").push((g, game));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("a worker panicked");
    results.sort_by_key(|(g, _)| *g);
    pairs_of(&results)
}

/// The complete pairs among the games played (game 2j and 2j + 1 are pair j), in pair order.
fn pairs_of(games: &[(u64, PlusGame)]) -> Vec<PairScore> {
    let mut pairs = Vec::new();
    for two in games.chunks_exact(2) {
        let [(a, first), (b, second)] = two else {
            unreachable!("chunks of two")
        };
        if *a != 2 * pairs.len() as u64 || *b != a + 1 {
            break; // a signal left a gap: the pairs after it are incomplete
        }
        let mut wdl = [0; 3];
        wdl[first.result] += 1;
        wdl[second.result] += 1;
        pairs.push(PairScore {
            wdl,
            busy_ms: first.busy_ms + second.busy_ms,
            search_ms: first.search_ms + second.search_ms,
        });
    }
    pairs
}

/// One game from θ+'s point of view.
#[derive(Debug, Clone, Copy)]
struct PlusGame {
    /// 0 win, 1 draw, 2 loss for θ+.
    result: usize,
    busy_ms: f64,
    search_ms: f64,
}

/// Game `g` of iteration `k`: the opening of pair g / 2, θ+ White in the even game and Black in
/// the odd one.
fn play_game(
    plan: &TunePlan,
    k: u64,
    g: u64,
    players: &mut [Option<Player>; 2],
    kinds: &[PlayerKind; 2],
) -> PlusGame {
    let start = Instant::now();
    let opening = plan.opening(k, g / 2);
    let [Some(plus), Some(minus)] = players else {
        unreachable!("both players are made before the first game")
    };
    let limit = plan.limit;
    let plus_side = Side {
        player: plus,
        kind: &kinds[0],
        limit,
    };
    let minus_side = Side {
        player: minus,
        kind: &kinds[1],
        limit,
    };
    let (record, plus_colour) = if g.is_multiple_of(2) {
        let record = game::play(plus_side, minus_side, opening, &plan.rules);
        (record, Color::White)
    } else {
        let record = game::play(minus_side, plus_side, opening, &plan.rules);
        (record, Color::Black)
    };
    PlusGame {
        result: outcome_for(record.outcome, plus_colour),
        busy_ms: start.elapsed().as_secs_f64() * 1e3,
        search_ms: search_ms(&record),
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
