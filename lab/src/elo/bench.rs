//! `harness bench --ratings`: the joint-ratings fit timed on a large simulated round robin — 64
//! players (ratings spread over ±300 Elo), 25 pairs per pairing (100,800 games) — alone and with
//! its 1,000 bootstrap resamples (openings as clusters, both draw models) on every core.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use super::davidson;
use super::ratings::{joint_ratings, simulate_round_robin, tallies, Bootstrap};

/// Players of the benchmark.
const PLAYERS: usize = 64;
/// Pairs per pairing.
const PAIRS: usize = 25;

/// Prints the times of the fit and of the bootstrap.
pub fn run() -> Result<ExitCode> {
    let truth: Vec<f64> = (0..PLAYERS)
        .map(|i| -300.0 + 600.0 * i as f64 / (PLAYERS - 1) as f64)
        .collect();
    let data = simulate_round_robin(&truth, 1.0, PAIRS, 1);
    let games: usize = data.iter().flatten().map(Vec::len).sum();
    let start = Instant::now();
    let t = tallies(PLAYERS, data.iter().flatten());
    let fit = davidson::fit(PLAYERS, &t, 0)?;
    let fit_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    // Pair i of every pairing on opening i, as a match schedules them: openings as clusters.
    let openings: Vec<Vec<usize>> = data.iter().map(|p| (0..p.len()).collect()).collect();
    let r = joint_ratings(PLAYERS, &data, &openings, 0, Bootstrap::default())?;
    let all_s = start.elapsed().as_secs_f64();
    let worst = fit
        .elo()
        .iter()
        .zip(&truth)
        .map(|(e, t)| (e - (t - truth[0])).abs())
        .fold(0.0, f64::max);
    println!(
        "players {PLAYERS}, games {games}, Newton steps {}",
        fit.steps
    );
    println!(
        "fit: {:.3} s (largest error against the truth {worst:.1} Elo)",
        fit_s
    );
    println!(
        "fit + {} bootstrap resamples on {} threads: {:.2} s",
        r.resamples,
        rayon::current_num_threads(),
        all_s
    );
    Ok(ExitCode::SUCCESS)
}
