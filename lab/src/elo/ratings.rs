//! Joint ratings of every player of a match on one scale, fitted by maximum likelihood on all
//! games at once under two draw models side by side — Bradley–Terry with [`davidson`]'s draws
//! and Bradley–Terry with a draw counted as half a win — anchored at one player (the baseline) =
//! 0, with 95 % percentile intervals and a likelihood-of-superiority matrix from a bootstrap that
//! draws whole clusters of games ([`super::resample`]: the openings when one recurs across
//! pairings, else game pairs). A player the data cannot place ([`unrated`]) is left out of the
//! fit and named.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::davidson::{self, Fit, FitError, Tally, ELO_PER_NAT};
use super::resample::resample_scheme;
pub use super::resample::{resample_fits, scheme, stratified, tallies, Bootstrap, Pair, Scheme};
use crate::report::stats::quantile;

/// One draw model's ratings and intervals, in Elo, the anchor's 0. A player not rated by the data
/// ([`unrated`]) has ±∞ (won or lost every game) and no interval (NaN).
#[derive(Debug, Clone, PartialEq)]
pub struct Estimates {
    /// Rating of each player.
    pub elo: Vec<f64>,
    /// Lower end of the 95 % bootstrap interval.
    pub lo: Vec<f64>,
    /// Upper end.
    pub hi: Vec<f64>,
    /// Resamples whose likelihood had no finite maximum, left out of the intervals.
    pub failed: usize,
}

/// The ratings under both draw models, their intervals and the LOS matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct JointRatings {
    /// Bradley–Terry with Davidson's draws: the ratings the report leads with.
    pub davidson: Estimates,
    /// Bradley–Terry with a draw counted as half a win for each side.
    pub half: Estimates,
    /// `los[i][j]`: the share of resamples in which i rates above j under Davidson's model (ties
    /// count half; NaN for a player not rated by the data).
    pub los: Vec<Vec<f64>>,
    /// Davidson's draw parameter of the fit.
    pub nu: f64,
    /// Resamples drawn.
    pub resamples: usize,
    /// What the bootstrap drew.
    pub scheme: Scheme,
    /// [`unrated`]: the players left out of the fit.
    pub unrated: Vec<Option<bool>>,
}

/// One of the two draw models.
type Model = fn(usize, &[Tally], usize) -> Result<Fit, FitError>;

/// Fits `players` ratings to the pairs of each pairing, player `anchor` = 0, with intervals; pair
/// `i` of pairing `k` was played from opening `openings[k][i]` (which chooses the [`Scheme`]).
/// Players not rated by the data are left out of the fit (an error if the anchor is one).
pub fn joint_ratings(
    players: usize,
    pairings: &[Vec<Pair>],
    openings: &[Vec<usize>],
    anchor: usize,
    bootstrap: Bootstrap,
) -> Result<JointRatings, FitError> {
    let unrated = unrated(players, pairings);
    if unrated[anchor].is_some() {
        return Err(FitError::Unbounded);
    }
    let kept: Vec<usize> = (0..players).filter(|&p| unrated[p].is_none()).collect();
    let (pairings, openings) = only(&kept, pairings, openings);
    let n = kept.len();
    let anchor = kept.iter().position(|&p| p == anchor).unwrap_or(0);
    let scheme = Scheme::of(&pairings, &openings);
    let models: [Model; 2] = [davidson::fit, davidson::fit_draws_as_half];
    let fits = models.map(|m| m(n, &tallies(n, pairings.iter().flatten()), anchor));
    let [dav, half] = fits;
    let (dav, half) = (dav?, half?);
    let resampled = resample_scheme(n, &pairings, &openings, scheme, bootstrap, |t| {
        Some(models.map(|m| m(n, t, anchor).ok().map(|f| f.elo())))
    });
    let draws = |m: usize| -> Vec<Vec<f64>> {
        resampled
            .iter()
            .flatten()
            .filter_map(|r| r[m].clone())
            .collect()
    };
    let (dav_draws, half_draws) = (draws(0), draws(1));
    let widen = |e: Estimates| widened(e, &kept, &unrated);
    Ok(JointRatings {
        davidson: widen(estimates(&dav, &dav_draws, bootstrap.resamples)),
        half: widen(estimates(&half, &half_draws, bootstrap.resamples)),
        los: (0..players)
            .map(|i| {
                let ki = kept.iter().position(|&p| p == i);
                (0..players)
                    .map(|j| match (ki, kept.iter().position(|&p| p == j)) {
                        (Some(a), Some(b)) => superiority(&dav_draws, a, b),
                        _ => f64::NAN,
                    })
                    .collect()
            })
            .collect(),
        nu: dav.nu,
        resamples: bootstrap.resamples,
        scheme,
        unrated,
    })
}

/// The fit's point estimates with percentile intervals from the resamples that had a maximum.
fn estimates(fit: &Fit, resamples: &[Vec<f64>], drawn: usize) -> Estimates {
    let interval = |p: usize, q: f64| {
        let column: Vec<f64> = resamples.iter().map(|r| r[p]).collect();
        quantile(&column, q).unwrap_or(f64::NAN)
    };
    let players = fit.theta.len();
    Estimates {
        elo: fit.elo(),
        lo: (0..players).map(|p| interval(p, 0.025)).collect(),
        hi: (0..players).map(|p| interval(p, 0.975)).collect(),
        failed: drawn - resamples.len(),
    }
}

/// Estimates of the `kept` players carried back to all players: ±∞ and no interval for the
/// unrated.
fn widened(e: Estimates, kept: &[usize], unrated: &[Option<bool>]) -> Estimates {
    let spread = |values: &[f64], outside: fn(bool) -> f64| -> Vec<f64> {
        let mut all: Vec<f64> = unrated
            .iter()
            .map(|u| u.map_or(f64::NAN, outside))
            .collect();
        for (k, &p) in kept.iter().enumerate() {
            all[p] = values[k];
        }
        all
    };
    let infinite = |won: bool| {
        if won {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    };
    Estimates {
        elo: spread(&e.elo, infinite),
        lo: spread(&e.lo, |_| f64::NAN),
        hi: spread(&e.hi, |_| f64::NAN),
        failed: e.failed,
    }
}

/// The pairings and openings among the `kept` players only, renumbered in their order (games
/// with anyone else, and pairs left empty, dropped).
fn only(
    kept: &[usize],
    pairings: &[Vec<Pair>],
    openings: &[Vec<usize>],
) -> (Vec<Vec<Pair>>, Vec<Vec<usize>>) {
    let index = |p: usize| kept.iter().position(|&k| k == p);
    let mut out = (Vec::new(), Vec::new());
    for (k, pairs) in pairings.iter().enumerate() {
        let (mut kept_pairs, mut kept_openings) = (Vec::new(), Vec::new());
        for (i, pair) in pairs.iter().enumerate() {
            let games: Pair = pair
                .iter()
                .filter_map(|&(a, b, s)| Some((index(a)?, index(b)?, s)))
                .collect();
            if !games.is_empty() {
                kept_pairs.push(games);
                kept_openings.push(openings[k][i]);
            }
        }
        out.0.push(kept_pairs);
        out.1.push(kept_openings);
    }
    out
}

/// Whether each player's two estimates differ by more than their intervals allow: Davidson's
/// rating lies outside the draws-as-half 95 % interval, or the draws-as-half rating outside
/// Davidson's. `false` for the anchor and for players without intervals.
pub fn models_differ(r: &JointRatings) -> Vec<bool> {
    let (d, h) = (&r.davidson, &r.half);
    let outside = |x: f64, lo: f64, hi: f64| x < lo || x > hi;
    (0..d.elo.len())
        .map(|p| outside(d.elo[p], h.lo[p], h.hi[p]) || outside(h.elo[p], d.lo[p], d.hi[p]))
        .collect()
}

/// Where the data cannot place a player: `Some(true)` for one that won every game it played,
/// `Some(false)` for one that lost every game, `None` otherwise (or without games) — counting only
/// games between players not yet named, until no other is found. Against every
/// opponent it met the likelihood grows without end as its rating runs off, so its fitted rating and
/// interval come from the fit's stopping rule and the bootstrap's failed resamples, not from games.
pub fn unrated(players: usize, pairings: &[Vec<Pair>]) -> Vec<Option<bool>> {
    // Repeated until nothing changes: without a player who won every game, another may have won
    // every game that is left.
    let mut out = vec![None; players];
    loop {
        let mut scores: Vec<Vec<f64>> = vec![Vec::new(); players];
        let rated = |p: &usize| out[*p].is_none();
        for (a, b, score) in pairings.iter().flatten().flatten() {
            if rated(a) && rated(b) {
                scores[*a].push(*score);
                scores[*b].push(1.0 - score);
            }
        }
        let found: Vec<(usize, bool)> = scores
            .iter()
            .enumerate()
            .filter(|(p, s)| out[*p].is_none() && !s.is_empty())
            .filter_map(|(p, s)| {
                let all = |v: f64| s.iter().all(|&x| x == v);
                (all(1.0) || all(0.0)).then(|| (p, all(1.0)))
            })
            .collect();
        if found.is_empty() {
            return out;
        }
        for (p, won) in found {
            out[p] = Some(won);
        }
    }
}

fn superiority(resamples: &[Vec<f64>], i: usize, j: usize) -> f64 {
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

    /// Pair `i` of every pairing on opening `i`, as the harness schedules a match.
    fn openings(data: &[Vec<Pair>]) -> Vec<Vec<usize>> {
        data.iter().map(|p| (0..p.len()).collect()).collect()
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
        for openings in [openings(&data), vec![vec![0; 60], vec![1; 60], vec![2; 60]]] {
            let a = one.install(|| joint_ratings(3, &data, &openings, 0, b).unwrap());
            assert_eq!(a, joint_ratings(3, &data, &openings, 0, b).unwrap());
            let d = &a.davidson;
            assert_eq!((d.lo[0], d.hi[0]), (0.0, 0.0), "the anchor is fixed");
            assert!((a.los[1][2] + a.los[2][1] - 1.0).abs() < 1e-12);
        }
        let schemes = [openings(&data), vec![vec![0; 60], vec![1; 60], vec![2; 60]]]
            .map(|o| joint_ratings(3, &data, &o, 0, b).unwrap().scheme);
        assert_eq!(schemes, [Scheme::Openings(60), Scheme::WithinPairings]);
    }

    #[test]
    fn a_player_the_data_cannot_place_is_left_out_and_the_rest_are_rated() {
        // Player 3 wins every game; the others are rated among themselves as without it.
        let mut data = simulate(&[0.0, 40.0, -30.0], 0.8, 40, 2);
        let rest = joint_ratings(3, &data, &openings(&data), 0, Bootstrap::default()).unwrap();
        for p in 0..3 {
            data.push((0..40).map(|_| vec![(3, p, 1.0), (p, 3, 0.0)]).collect());
        }
        let all = joint_ratings(4, &data, &openings(&data), 0, Bootstrap::default()).unwrap();
        assert_eq!(all.unrated, [None, None, None, Some(true)]);
        assert_eq!(all.davidson.elo[3], f64::INFINITY);
        assert!(all.half.lo[3].is_nan() && all.los[3][0].is_nan());
        assert_eq!(all.davidson.elo[..3], rest.davidson.elo[..]);
        assert_eq!(all.half.elo[..3], rest.half.elo[..]);
        // The baseline itself cannot be the one left out.
        let flipped: Vec<Vec<Pair>> = data
            .iter()
            .map(|ps| {
                ps.iter()
                    .map(|g| g.iter().map(|&(a, b, s)| (3 - a, 3 - b, s)).collect())
                    .collect()
            })
            .collect();
        let openings = openings(&flipped);
        assert_eq!(
            joint_ratings(4, &flipped, &openings, 0, Bootstrap::default()),
            Err(FitError::Unbounded)
        );
    }

    #[test]
    fn the_models_differ_when_one_estimate_leaves_the_others_interval() {
        let e = |elo: f64, lo: f64, hi: f64| Estimates {
            elo: vec![0.0, elo],
            lo: vec![0.0, lo],
            hi: vec![0.0, hi],
            failed: 0,
        };
        let r = |d: Estimates, h: Estimates| JointRatings {
            davidson: d,
            half: h,
            los: Vec::new(),
            nu: 0.0,
            resamples: 0,
            scheme: Scheme::Openings(2),
            unrated: vec![None; 2],
        };
        assert_eq!(
            models_differ(&r(e(100.0, 60.0, 140.0), e(90.0, 60.0, 120.0))),
            [false, false]
        );
        assert_eq!(
            models_differ(&r(e(100.0, 60.0, 140.0), e(55.0, 30.0, 80.0))),
            [false, true]
        );
        assert_eq!(
            models_differ(&r(e(100.0, 90.0, 110.0), e(80.0, 60.0, 101.0))),
            [false, true]
        );
    }

    /// Coverage from known truth: 4 players, a round robin of 100 pairs per pairing, every pair
    /// on its own opening (so pairs are resampled within pairings), 400 simulations of 300
    /// resamples each; the 95 % intervals of the three free ratings must cover the truth in
    /// 93–97 % of the 1,200 cases.
    #[test]
    fn intervals_cover_the_truth_about_95_percent_of_the_time() {
        let truth = [0.0, 35.0, -25.0, 70.0];
        let (sims, mut covered, mut cases) = (400, 0, 0);
        for s in 0..sims {
            let data = simulate(&truth, 0.9, 100, 1000 + s);
            let own: Vec<Vec<usize>> = (0..data.len())
                .map(|k| (0..100).map(|i| k * 100 + i).collect())
                .collect();
            let b = Bootstrap {
                resamples: 300,
                seed: s,
            };
            let r = joint_ratings(4, &data, &own, 0, b).unwrap();
            assert_eq!(r.scheme, Scheme::WithinPairings);
            let d = &r.davidson;
            for (p, t) in truth.iter().enumerate().skip(1) {
                cases += 1;
                covered += usize::from(d.lo[p] <= *t && *t <= d.hi[p]);
            }
        }
        let rate = covered as f64 / cases as f64;
        eprintln!("coverage {rate:.4} of {cases} intervals");
        assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
    }
}
