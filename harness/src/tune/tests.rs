//! SPSA without games: a simulated match whose Elo is a known concave function of θ, games drawn
//! from it (two per pair, win/draw/loss from the Elo difference), must bring θ from far off to
//! the optimum.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::spsa::{probe, update, Param, Schedule};

/// The optimum of the simulated engine.
const OPTIMUM: [f64; 2] = [130.0, 60.0];
/// Elo lost per C_END² of squared distance from the optimum.
const CURVATURE: f64 = 10.0;
/// Draws of a game between equals.
const DRAW_RATE: f64 = 0.5;

fn params() -> Vec<Param> {
    let param = |key: &str, start, integer| Param {
        key: key.into(),
        start,
        min: 0.0,
        max: 200.0,
        c_end: 10.0,
        r_end: 0.002,
        integer,
    };
    vec![param("a", 40.0, false), param("b", 150.0, true)]
}

fn elo(theta: &[f64], c_end: f64) -> f64 {
    -CURVATURE
        * theta
            .iter()
            .zip(OPTIMUM)
            .map(|(t, o)| ((t - o) / c_end).powi(2))
            .sum::<f64>()
}

/// One game's points for the side `diff` Elo stronger: 1, ½ or 0.
fn game(diff: f64, rng: &mut ChaCha8Rng) -> f64 {
    let score = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
    let draw = DRAW_RATE.min(2.0 * score.min(1.0 - score));
    let win = score - draw / 2.0;
    let u: f64 = rng.random();
    if u < win {
        1.0
    } else if u < win + draw {
        0.5
    } else {
        0.0
    }
}

/// A whole tune on the simulated engine (starting 90 from the optimum in each parameter, 9
/// C_END); returns the final θ.
fn simulate(seed: u64, iterations: u64, pairs: u64) -> Vec<f64> {
    let params = params();
    let schedule = Schedule { iterations };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
    for k in 1..=iterations {
        let pr = probe(schedule, &params, &theta, k, seed);
        let diff = elo(&pr.plus, 10.0) - elo(&pr.minus, 10.0);
        let mut result = 0.0;
        for _ in 0..2 * pairs {
            result += 2.0 * game(diff, &mut rng) - 1.0; // W − L of one game
        }
        theta = update(&params, &theta, &pr, result);
    }
    theta
}

/// The stated precision: within half a C_END of the optimum in every parameter.
const PRECISION: f64 = 5.0;

#[test]
fn spsa_finds_the_optimum_of_a_simulated_engine_from_far_off() {
    let runs: usize = 50;
    let hits = (0..runs)
        .filter(|&seed| {
            let theta = simulate(seed as u64, 2000, 4);
            theta
                .iter()
                .zip(OPTIMUM)
                .all(|(t, o)| (t - o).abs() <= PRECISION)
        })
        .count();
    assert!(
        hits * 10 >= runs * 9,
        "{hits} of {runs} runs ended within {PRECISION} of the optimum"
    );
}
