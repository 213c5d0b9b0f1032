//! The bootstrap behind joint ratings (factorial effects and a design's best combination resample
//! game pairs, through [`resample_fits`]'s pairs scheme): games grouped into clusters that are
//! drawn whole, so whatever correlates the games of a cluster is carried into the intervals
//! instead of being assumed away. A cluster is a game pair (one opening, colours reversed: the
//! reason fishtest counts pentanomially) — or, when an opening recurs across pairings, every game
//! any pairing played from that opening ([`Scheme::Openings`]): an opening that suits one player
//! shifts all of its pairings at once, so its pairings are not independent samples.

use std::collections::BTreeMap;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::davidson::Tally;

/// One game: `(player a, player b, a's score 1, ½ or 0)`.
pub type Game = (usize, usize, f64);
/// The games of one opening (two, colours reversed; one when a pair is cut short).
pub type Pair = Vec<Game>;

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

/// The fewest pairs every pairing needs for the bootstrap to resample within pairings: a stratum
/// of n pairs gives (n − 1)/n of the true variance, 0.97 at 30.
pub const MIN_STRATUM: usize = 30;

/// What the bootstrap draws with replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// The openings (this many), each with every game any pairing played from it, across the
    /// whole match — chosen whenever an opening recurs in more than one pairing.
    Openings(usize),
    /// Whole game pairs within each pairing (every pairing has [`MIN_STRATUM`] pairs or more).
    WithinPairings,
    /// Whole game pairs across the match: a stratum of n pairs has a bootstrap variance
    /// (n − 1)/n of the true one — half of it with 2 pairs per pairing, none with 1.
    AcrossMatch,
}

impl Scheme {
    /// The scheme for these pairings, whose pair `i` of pairing `k` was played from opening
    /// `openings[k][i]`: openings as clusters if one appears in two pairings or more, else pairs.
    pub fn of(pairings: &[Vec<Pair>], openings: &[Vec<usize>]) -> Self {
        let mut first_pairing: BTreeMap<usize, usize> = BTreeMap::new();
        let mut recurs = false;
        for (k, ids) in openings.iter().enumerate() {
            for &o in ids {
                recurs |= *first_pairing.entry(o).or_insert(k) != k;
            }
        }
        if recurs {
            Self::Openings(first_pairing.len())
        } else {
            Self::pairs(pairings)
        }
    }

    /// The pair scheme for these pairings: within each pairing if every one has
    /// [`MIN_STRATUM`] pairs or more, else across the match.
    pub fn pairs(pairings: &[Vec<Pair>]) -> Self {
        if stratified(pairings) {
            Self::WithinPairings
        } else {
            Self::AcrossMatch
        }
    }

    /// What was resampled, in words for a report ("… bootstrap resamples {this}").
    pub fn describe(self) -> String {
        match self {
            Self::Openings(n) => {
                let few = if n < MIN_STRATUM {
                    format!(
                        "; with {n} openings the bootstrap's variance is (n − 1)/n = {:.2} of \
                         the true one and its percentiles are coarse",
                        (n as f64 - 1.0) / n as f64
                    )
                } else {
                    String::new()
                };
                format!(
                    "of the {n} openings — every game any pairing played from one opening is one \
                     cluster, drawn whole, because the same opening recurs across pairings{few}"
                )
            }
            Self::WithinPairings | Self::AcrossMatch => {
                format!(
                    "of whole game pairs {}",
                    scheme(self == Self::WithinPairings)
                )
            }
        }
    }
}

/// Whether the pair bootstrap of these pairings resamples within each pairing (else across all).
pub fn stratified(pairings: &[Vec<Pair>]) -> bool {
    pairings.iter().all(|p| p.len() >= MIN_STRATUM)
}

/// Where the pairs were resampled, in words for a report.
pub fn scheme(stratified: bool) -> String {
    if stratified {
        "within each pairing".to_string()
    } else {
        format!("across the match (a pairing has fewer than {MIN_STRATUM} pairs)")
    }
}

/// Strata of clusters of pairs: what one resample draws from.
type Strata<'a> = Vec<Vec<Vec<&'a Pair>>>;

/// The strata and clusters `scheme` draws (`openings` parallel to `pairings`; read only by
/// [`Scheme::Openings`]). Clusters of openings are in the order of the openings' indices.
fn strata<'a>(pairings: &'a [Vec<Pair>], openings: &[Vec<usize>], scheme: Scheme) -> Strata<'a> {
    let single = |pairs: &'a Vec<Pair>| pairs.iter().map(|p| vec![p]).collect();
    match scheme {
        Scheme::WithinPairings => pairings.iter().map(single).collect(),
        Scheme::AcrossMatch => vec![pairings.iter().flatten().map(|p| vec![p]).collect()],
        Scheme::Openings(_) => {
            let mut clusters: BTreeMap<usize, Vec<&Pair>> = BTreeMap::new();
            for (pairs, ids) in pairings.iter().zip(openings) {
                for (pair, &o) in pairs.iter().zip(ids) {
                    clusters.entry(o).or_default().push(pair);
                }
            }
            vec![clusters.into_values().collect()]
        }
    }
}

/// `fit` applied to each of `bootstrap.resamples` pair resamples (`None` where it fails): each
/// stratum's pairs (a pairing's, or the whole match's: [`stratified`]) drawn with replacement, as
/// many as it has.
pub fn resample_fits<T: Send>(
    players: usize,
    pairings: &[Vec<Pair>],
    bootstrap: Bootstrap,
    fit: impl Fn(&[Tally]) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    let scheme = Scheme::pairs(pairings);
    resample_by(players, &strata(pairings, &[], scheme), bootstrap, fit)
}

/// `fit` applied to each resample drawn by `scheme` (see [`resample_fits`]; with
/// [`Scheme::Openings`] the openings are drawn, as many as were played).
pub fn resample_scheme<T: Send>(
    players: usize,
    pairings: &[Vec<Pair>],
    openings: &[Vec<usize>],
    scheme: Scheme,
    bootstrap: Bootstrap,
    fit: impl Fn(&[Tally]) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    let strata = strata(pairings, openings, scheme);
    resample_by(players, &strata, bootstrap, fit)
}

/// Each stratum's clusters drawn with replacement, as many as it has, resample `b` from its own
/// ChaCha stream — so the results are the same on any number of threads.
fn resample_by<T: Send>(
    players: usize,
    strata: &Strata<'_>,
    bootstrap: Bootstrap,
    fit: impl Fn(&[Tally]) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    (0..bootstrap.resamples)
        .into_par_iter()
        .map(|b| {
            let mut rng = ChaCha8Rng::seed_from_u64(bootstrap.seed);
            rng.set_stream(b as u64);
            let mut drawn: Vec<&Pair> = Vec::new();
            for clusters in strata {
                for _ in 0..clusters.len() {
                    drawn.extend(&clusters[rng.random_range(0..clusters.len())]);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: usize, b: usize) -> Pair {
        vec![(a, b, 1.0), (b, a, 0.5)]
    }

    #[test]
    fn openings_shared_by_pairings_are_clusters_else_pairs_are() {
        let pairings = vec![vec![pair(0, 1); 2], vec![pair(0, 2); 2]];
        assert_eq!(
            Scheme::of(&pairings, &[vec![0, 1], vec![2, 3]]),
            Scheme::AcrossMatch
        );
        // An opening twice within one pairing is still a pair scheme; across two it is not.
        assert_eq!(
            Scheme::of(&pairings, &[vec![0, 0], vec![2, 3]]),
            Scheme::AcrossMatch
        );
        assert_eq!(
            Scheme::of(&pairings, &[vec![0, 1], vec![1, 2]]),
            Scheme::Openings(3)
        );
        let s = strata(&pairings, &[vec![0, 1], vec![1, 2]], Scheme::Openings(3));
        let sizes: Vec<usize> = s[0].iter().map(Vec::len).collect();
        assert_eq!(
            sizes,
            [1, 2, 1],
            "opening 1's cluster holds both pairings' pair"
        );
    }

    #[test]
    fn a_resample_draws_whole_clusters_as_many_as_there_are() {
        // Opening 0: one decisive pair in each pairing; opening 1: a drawn pair in each. Every
        // resample holds 4 pairs, both pairings' pairs of an opening or neither.
        let won = |a, b| vec![(a, b, 1.0), (b, a, 0.0)];
        let drawn = |a, b| vec![(a, b, 0.5), (b, a, 0.5)];
        let pairings = vec![vec![won(0, 1), drawn(0, 1)], vec![won(0, 2), drawn(0, 2)]];
        let openings = [vec![0, 1], vec![0, 1]];
        let b = Bootstrap {
            resamples: 50,
            seed: 3,
        };
        let draws = resample_scheme(3, &pairings, &openings, Scheme::Openings(2), b, |t| {
            let count = |k: usize| t.iter().map(|x| x.2[k]).sum::<f64>();
            let per_pairing: Vec<f64> = t.iter().map(|x| x.2[2]).collect();
            Some((count(0) + count(1) + count(2), per_pairing))
        });
        for (games, draws_each) in draws.into_iter().flatten() {
            assert_eq!(games, 8.0);
            assert!(
                draws_each.windows(2).all(|w| w[0] == w[1]),
                "{draws_each:?}"
            );
        }
    }
}
