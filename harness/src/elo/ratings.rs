//! Joint ratings of every player of a match on one scale: the [`davidson`]
//! maximum-likelihood fit on all games at once, anchored at one player (the baseline) = 0, with
//! 95 % percentile intervals and a likelihood-of-superiority matrix from a bootstrap that
//! resamples whole game pairs — so the correlation of a pair's two games (one opening, colours
//! reversed: the reason fishtest counts pentanomially) is carried into the intervals instead of
//! being assumed away. Within each pairing when every pairing has [`MIN_STRATUM`] pairs or more
//! (the schedule is kept); across the whole match otherwise, because a stratum of n pairs has a
//! bootstrap variance (n − 1)/n of the true one — half of it with 2 pairs per pairing, none with
//! 1, as a factorial design's round robin often has.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::davidson::{self, FitError, Tally, ELO_PER_NAT};
use crate::report::stats::quantile;

/// One game: `(player a, player b, a's score 1, ½ or 0)`.
pub type Game = (usize, usize, f64);
/// The games of one opening (two, colours reversed; one when a pair is cut short).
pub type Pair = Vec<Game>;

/// The ratings, their intervals and the LOS matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct JointRatings {
    /// Rating of each player in Elo, the anchor's 0.
    pub elo: Vec<f64>,
    /// Lower end of the 95 % bootstrap interval.
    pub lo: Vec<f64>,
    /// Upper end.
    pub hi: Vec<f64>,
    /// `los[i][j]`: the share of resamples in which i rates above j (ties count half).
    pub los: Vec<Vec<f64>>,
    /// Davidson's draw parameter of the fit.
    pub nu: f64,
    /// Resamples drawn.
    pub resamples: usize,
    /// Resamples whose likelihood had no finite maximum, left out of the intervals.
    pub failed: usize,
    /// Whether pairs were resampled within each pairing ([`stratified`]) or across the match.
    pub stratified: bool,
}

/// How the bootstrap is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bootstrap {
    /// Resamples (1,000 gives the 2.5 % quantile to about ±0.5 %).
    pub resamples: usize,
    /// Seed: the same seed, the same intervals, on any number of threads.
    pub seed: u64,
}

impl Default for Bootstrap {
    fn default() -> Self {
        Self {
            resamples: 1000,
            seed: 0,
        }
    }
}

/// Fits `players` ratings to the pairs of each pairing, player `anchor` = 0, with intervals.
pub fn joint_ratings(
    players: usize,
    pairings: &[Vec<Pair>],
    anchor: usize,
    bootstrap: Bootstrap,
) -> Result<JointRatings, FitError> {
    let fit = davidson::fit(
        players,
        &tallies(players, pairings.iter().flatten()),
        anchor,
    )?;
    let resampled = resample_fits(players, pairings, bootstrap, |t| {
        let fit = davidson::fit(players, t, anchor).ok()?;
        Some(
            fit.theta
                .iter()
                .map(|t| t * ELO_PER_NAT)
                .collect::<Vec<f64>>(),
        )
    });
    let ok: Vec<&Vec<f64>> = resampled.iter().flatten().collect();
    let column = |p: usize| -> Vec<f64> { ok.iter().map(|r| r[p]).collect() };
    let interval = |p: usize, q: f64| quantile(&column(p), q).unwrap_or(f64::NAN);
    let los = (0..players)
        .map(|i| (0..players).map(|j| superiority(&ok, i, j)).collect())
        .collect();
    Ok(JointRatings {
        elo: fit.elo(),
        lo: (0..players).map(|p| interval(p, 0.025)).collect(),
        hi: (0..players).map(|p| interval(p, 0.975)).collect(),
        los,
        nu: fit.nu,
        resamples: bootstrap.resamples,
        failed: resampled.len() - ok.len(),
        stratified: stratified(pairings),
    })
}

/// Where the data cannot place a player: `Some(true)` for one that won every game it played,
/// `Some(false)` for one that lost every game, `None` otherwise (or without games). Against every
/// opponent it met the likelihood grows without end as its rating runs off, so its fitted rating and
/// interval come from the fit's stopping rule and the bootstrap's failed resamples, not from games.
pub fn unrated(players: usize, pairings: &[Vec<Pair>]) -> Vec<Option<bool>> {
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); players];
    for (a, b, score) in pairings.iter().flatten().flatten() {
        scores[*a].push(*score);
        scores[*b].push(1.0 - score);
    }
    scores
        .iter()
        .map(|s| {
            if s.is_empty() {
                None
            } else if s.iter().all(|&x| x == 1.0) {
                Some(true)
            } else if s.iter().all(|&x| x == 0.0) {
                Some(false)
            } else {
                None
            }
        })
        .collect()
}

/// The fewest pairs every pairing needs for the bootstrap to resample within pairings: a stratum
/// of n pairs gives (n − 1)/n of the true variance, 0.97 at 30.
pub const MIN_STRATUM: usize = 30;

/// Whether the bootstrap of these pairings resamples within each pairing (else across all).
pub fn stratified(pairings: &[Vec<Pair>]) -> bool {
    pairings.iter().all(|p| p.len() >= MIN_STRATUM)
}

/// How the pairs were resampled, in words for a report.
pub fn scheme(stratified: bool) -> String {
    if stratified {
        "within each pairing".to_string()
    } else {
        format!("across the match (a pairing has fewer than {MIN_STRATUM} pairs)")
    }
}

/// `fit` applied to each of `bootstrap.resamples` resamples (`None` where it fails): each
/// stratum's pairs (a pairing's, or the whole match's: [`stratified`]) drawn with replacement, as
/// many as it has, resample `b` from its own ChaCha stream — so the results are the same on any
/// number of threads.
pub fn resample_fits<T: Send>(
    players: usize,
    pairings: &[Vec<Pair>],
    bootstrap: Bootstrap,
    fit: impl Fn(&[Tally]) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    let strata: Vec<Vec<&Pair>> = if stratified(pairings) {
        pairings.iter().map(|p| p.iter().collect()).collect()
    } else {
        vec![pairings.iter().flatten().collect()]
    };
    (0..bootstrap.resamples)
        .into_par_iter()
        .map(|b| {
            let mut rng = ChaCha8Rng::seed_from_u64(bootstrap.seed);
            rng.set_stream(b as u64);
            let drawn = strata.iter().flat_map(|pairs| {
                let picks: Vec<usize> = (0..pairs.len())
                    .map(|_| rng.random_range(0..pairs.len()))
                    .collect();
                picks.into_iter().map(|k| pairs[k])
            });
            let drawn: Vec<&Pair> = drawn.collect();
            fit(&tallies(players, drawn.into_iter()))
        })
        .collect()
}

/// Wins, losses and draws per pair of players (lower index first).
pub fn tallies<'a>(players: usize, pairs: impl Iterator<Item = &'a Pair>) -> Vec<Tally> {
    let mut counts = vec![[0.0; 3]; players * players];
    for &(a, b, score) in pairs.flatten() {
        let (i, j, s) = if a < b {
            (a, b, score)
        } else {
            (b, a, 1.0 - score)
        };
        let k = if s > 0.75 {
            0
        } else if s < 0.25 {
            1
        } else {
            2
        };
        counts[i * players + j][k] += 1.0;
    }
    let mut out = Vec::new();
    for i in 0..players {
        for j in i + 1..players {
            let n = counts[i * players + j];
            if n.iter().sum::<f64>() > 0.0 {
                out.push((i, j, n));
            }
        }
    }
    out
}

fn superiority(resamples: &[&Vec<f64>], i: usize, j: usize) -> f64 {
    if resamples.is_empty() {
        return f64::NAN;
    }
    let won: f64 = resamples
        .iter()
        .map(|r| match r[i].total_cmp(&r[j]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    won / resamples.len() as f64
}

/// Games simulated from known ratings (Elo) under the Davidson model with draw parameter `nu`:
/// a round robin of `pairs` pairs per pairing — for the tests' coverage check and `bench --ratings`.
pub fn simulate_round_robin(truth: &[f64], nu: f64, pairs: usize, seed: u64) -> Vec<Vec<Pair>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let strength: Vec<f64> = truth.iter().map(|r| (r / ELO_PER_NAT).exp()).collect();
    let mut game = |a: usize, b: usize| -> f64 {
        let (pa, pb) = (strength[a], strength[b]);
        let u = rng.random::<f64>() * (pa + pb + nu * (pa * pb).sqrt());
        if u < pa {
            1.0
        } else if u < pa + pb {
            0.0
        } else {
            0.5
        }
    };
    let mut pairings = Vec::new();
    for a in 0..truth.len() {
        for b in a + 1..truth.len() {
            let games = (0..pairs)
                .map(|_| vec![(a, b, game(a, b)), (b, a, game(b, a))])
                .collect();
            pairings.push(games);
        }
    }
    pairings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simulate(truth: &[f64], nu: f64, pairs: usize, seed: u64) -> Vec<Vec<Pair>> {
        simulate_round_robin(truth, nu, pairs, seed)
    }

    #[test]
    fn the_same_seed_gives_the_same_intervals_on_any_threads() {
        let data = simulate(&[0.0, 40.0, -30.0], 0.8, 60, 1);
        let b = Bootstrap {
            resamples: 200,
            seed: 9,
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let a = one.install(|| joint_ratings(3, &data, 0, b).unwrap());
        assert_eq!(a, joint_ratings(3, &data, 0, b).unwrap());
        assert_eq!((a.lo[0], a.hi[0]), (0.0, 0.0), "the anchor is fixed");
        assert!((a.los[1][2] + a.los[2][1] - 1.0).abs() < 1e-12);
    }

    /// Coverage from known truth: 4 players, a round robin of 100 pairs per pairing, 400
    /// simulations of 300 resamples each; the 95 % intervals of the three free ratings must cover
    /// the truth in 93–97 % of the 1,200 cases.
    #[test]
    fn intervals_cover_the_truth_about_95_percent_of_the_time() {
        let truth = [0.0, 35.0, -25.0, 70.0];
        let (sims, mut covered, mut cases) = (400, 0, 0);
        for s in 0..sims {
            let data = simulate(&truth, 0.9, 100, 1000 + s);
            let b = Bootstrap {
                resamples: 300,
                seed: s,
            };
            let r = joint_ratings(4, &data, 0, b).unwrap();
            for (p, t) in truth.iter().enumerate().skip(1) {
                cases += 1;
                covered += usize::from(r.lo[p] <= *t && *t <= r.hi[p]);
            }
        }
        let rate = covered as f64 / cases as f64;
        eprintln!("coverage {rate:.4} of {cases} intervals");
        assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
    }
}
