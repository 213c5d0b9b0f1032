//! Match statistics as fishtest, OpenBench and fastchess compute them: game and game-pair counts,
//! logistic and normalized Elo with 95 % intervals, LOS, and the generalized SPRT
//! ([`sprt`]) on trinomial or pentanomial results. Formulas follow fishtest's `LLRcalc` and
//! `stat_util` and Van den Bergh's notes on normalized Elo, re-derived here (see [`mle`]).

pub mod bench;
#[cfg(test)]
mod coverage;
pub mod davidson;
pub mod holm;
pub mod mle;
pub mod ratings;
pub mod resample;
pub mod sprt;
pub mod sprt_setup;

use serde::{Deserialize, Serialize};

/// The two-sided 95 % quantile of the standard normal distribution, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Win/draw/loss counts of one player's games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// Game-pair counts of one player (each opening played with both colours): the pair's score is
/// 0, ½, 1, 1½ or 2 points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Both games lost (LL).
    pub ll: u64,
    /// A loss and a draw (LD).
    pub ld: u64,
    /// Two draws or a win and a loss (DD + WL).
    pub dd_wl: u64,
    /// A win and a draw (WD).
    pub wd: u64,
    /// Both games won (WW).
    pub ww: u64,
}

impl Pentanomial {
    /// Counts a pair by its two game scores (1, ½ or 0 each) for the player.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        match ((first + second) * 2.0).round() as u8 {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.dd_wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// The counts in fishtest's order: LL, LD, DD+WL, WD, WW.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_wl, self.wd, self.ww]
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }
}

impl Trinomial {
    /// Counts a game by the player's score (1, ½ or 0).
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The counts in fishtest's order: L, D, W.
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Share of draws (0 with no games).
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
}

/// An empirical score distribution: outcomes scaled to [0, 1] (a game: 0, ½, 1; a pair: 0, ¼, …,
/// 1) with their frequencies.
#[derive(Debug, Clone, PartialEq)]
pub struct Pdf {
    /// (score, probability), scores ascending.
    pub points: Vec<(f64, f64)>,
    /// Observations (games or pairs), after regularisation.
    pub n: f64,
}

impl Pdf {
    /// From raw counts in ascending score order; with `regularize`, an empty cell counts as 0.001
    /// (fishtest's prior, so that a likelihood never takes the log of zero).
    pub fn from_counts(counts: &[u64], regularize: bool) -> Self {
        let cells: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 && regularize { 1e-3 } else { c as f64 })
            .collect();
        let n: f64 = cells.iter().sum();
        let last = (cells.len() - 1) as f64;
        let points = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / last, if n > 0.0 { c / n } else { 0.0 }))
            .collect();
        Self { points, n }
    }

    /// Mean and variance.
    pub fn stats(&self) -> (f64, f64) {
        mean_var(&self.points)
    }
}

/// Mean and variance of a discrete distribution given as (value, probability).
pub fn mean_var(points: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = points.iter().map(|(a, p)| a * p).sum();
    let var = points.iter().map(|(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// Logistic Elo of a mean score: −400 log₁₀(1/s − 1).
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// What a match says about the player against its opponent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo.
    pub elo: f64,
    /// Half-width of its 95 % interval (the mean of the two distances to the bounds).
    pub elo95: f64,
    /// Normalized Elo: the score's distance from ½ in per-game standard deviations, × 800 / ln 10.
    pub nelo: f64,
    /// Half-width of its 95 % interval.
    pub nelo95: f64,
    /// Likelihood of superiority: Φ of the score's t-value.
    pub los: f64,
    /// Mean score.
    pub score: f64,
}

impl EloEstimate {
    /// From game counts (each game an observation), as cutechess and fastchess report them.
    pub fn from_games(t: &Trinomial) -> Option<Self> {
        Self::from_pdf(&Pdf::from_counts(&t.counts(), false), 1.0)
    }

    /// From game-pair counts (each pair an observation: the variance then includes what the
    /// opening does to both games), as fishtest reports them.
    pub fn from_pairs(p: &Pentanomial) -> Option<Self> {
        Self::from_pdf(&Pdf::from_counts(&p.counts(), false), 2.0)
    }

    fn from_pdf(pdf: &Pdf, games_per_observation: f64) -> Option<Self> {
        let (mu, var) = pdf.stats();
        if pdf.n < 1.0 || var <= 0.0 || mu <= 0.0 || mu >= 1.0 {
            return None;
        }
        let se = (var / pdf.n).sqrt();
        let (low, high) = (mu - Z95 * se, mu + Z95 * se);
        let elo95 = (elo(high.min(1.0 - 1e-12)) - elo(low.max(1e-12))) / 2.0;
        let sigma_per_game = (games_per_observation * var).sqrt();
        let games = games_per_observation * pdf.n;
        Some(Self {
            elo: elo(mu),
            elo95,
            nelo: (mu - 0.5) / sigma_per_game * NELO_PER_T,
            nelo95: Z95 * NELO_PER_T / games.sqrt(),
            los: phi((mu - 0.5) / se),
            score: mu,
        })
    }
}

#[cfg(test)]
mod tests;
