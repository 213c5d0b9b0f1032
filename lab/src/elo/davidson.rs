//! The Bradley–Terry model with Davidson's draws (Davidson 1970, "On extending the Bradley–Terry
//! model to accommodate ties"), fitted by maximum likelihood on all games at once.
//!
//! With strengths πᵢ = e^θᵢ and a draw parameter ν ≥ 0, a game between i and j is won by i with
//! probability πᵢ / D, by j with πⱼ / D and drawn with ν √(πᵢπⱼ) / D, D = πᵢ + πⱼ + ν √(πᵢπⱼ).
//! So the win odds are e^(θᵢ−θⱼ) whatever ν, the Elo of the fit is θ · 400 / ln 10 (the scale
//! BayesElo and Ordo report), and ν says how drawish the games are: between equals a draw has
//! probability ν / (2 + ν). Davidson's rather than BayesElo's `eloDraw` (Rao–Kupper) because its
//! log-likelihood is concave in (θ, ln ν) — one maximum, found by Newton's method — and a draw
//! counts as half a win for each side exactly as a game's score does.
//!
//! The games are taken as independent given the ratings; pairs of games on one opening are not
//! (their results correlate), which leaves the estimate unbiased but its curvature-based interval
//! too narrow or too wide: [`super::ratings`] takes intervals from a bootstrap over whole pairs or
//! openings ([`super::resample`]).

use thiserror::Error;

/// Elo per natural-log unit of strength: 400 / ln 10.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// A strength beyond this (in nats, ≈ 5,200 Elo) means the maximum lies at infinity.
const UNBOUNDED: f64 = 30.0;
const MAX_STEPS: usize = 200;

/// Why the likelihood has no finite maximum.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FitError {
    /// Some players never met, directly or through others: their difference is not estimable.
    #[error("the players are not connected by games: {0} cannot be placed against the anchor")]
    Disconnected(String),
    /// The design's parameters cannot all be told apart by these games.
    #[error("the model's effects are not estimable from these games (the information matrix is singular)")]
    NotEstimable,
    /// A group of players won (or lost) every game against the rest.
    #[error("no finite maximum: some player or group won or lost every game it played against the others")]
    Unbounded,
}

/// Outcomes between two players, `(i, j, [wins of i, wins of j, draws])`.
pub type Tally = (usize, usize, [f64; 3]);

/// The maximum-likelihood fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Strength of each player in nats, the anchor's 0.
    pub theta: Vec<f64>,
    /// Davidson's draw parameter (0 when no game was drawn).
    pub nu: f64,
    /// Newton steps taken.
    pub steps: usize,
}

impl Fit {
    /// Each player's rating in Elo, the anchor's 0.
    pub fn elo(&self) -> Vec<f64> {
        self.theta.iter().map(|t| t * ELO_PER_NAT).collect()
    }
}

/// Fits `players` strengths (and ν, unless no game was drawn) to the tallies, player `anchor`
/// held at 0.
pub fn fit(players: usize, tallies: &[Tally], anchor: usize) -> Result<Fit, FitError> {
    check_connected(players, tallies, anchor)?;
    let design: Vec<Vec<f64>> = (0..players)
        .map(|p| {
            (0..players)
                .filter(|&c| c != anchor)
                .map(|c| f64::from(u8::from(c == p)))
                .collect()
        })
        .collect();
    fit_design(&design, tallies).map(|(fit, _)| fit)
}

/// Fits `players` strengths to the tallies with a draw counted as half a win for each side —
/// Bradley–Terry on the score, the model of a plain percentage — player `anchor` held at 0. Its
/// likelihood is Davidson's with ν = 0 and each draw split into half a win and half a loss, so
/// the same Newton fit serves (the returned ν is 0).
pub fn fit_draws_as_half(
    players: usize,
    tallies: &[Tally],
    anchor: usize,
) -> Result<Fit, FitError> {
    let halved: Vec<Tally> = tallies
        .iter()
        .map(|&(i, j, [w, l, d])| (i, j, [w + d / 2.0, l + d / 2.0, 0.0]))
        .collect();
    fit(players, &halved, anchor)
}

/// Fits strengths constrained to a linear model, θₚ = Σ_c `design[p][c]` β_c (a factorial
/// design's main effects and interactions; the identity without the anchor's column for free
/// ratings), by the same likelihood. Returns the fit and β.
pub fn fit_design(design: &[Vec<f64>], tallies: &[Tally]) -> Result<(Fit, Vec<f64>), FitError> {
    let draws: f64 = tallies.iter().map(|t| t.2[2]).sum();
    let games: f64 = tallies.iter().map(|t| t.2.iter().sum::<f64>()).sum();
    let model = Model {
        design,
        columns: design.first().map_or(0, Vec::len),
        tallies,
        draws: draws > 0.0,
    };
    // Start at equal strengths and the ν that gives the observed draw rate between equals.
    let rate = (draws / games.max(1.0)).clamp(1e-6, 1.0 - 1e-6);
    let mut x = vec![0.0; model.dim()];
    if model.draws {
        x[model.columns] = (2.0 * rate / (1.0 - rate)).ln();
    }
    let mut ll = model.log_likelihood(&x);
    for step in 1..=MAX_STEPS {
        let (g, h) = model.gradient_hessian(&x);
        // Singular at the start: the design cannot tell its effects apart; later: the
        // likelihood flattens out on its way to a maximum at infinity.
        let singular = if step == 1 {
            FitError::NotEstimable
        } else {
            FitError::Unbounded
        };
        let delta = solve(h, g).ok_or(singular)?;
        let mut t = 1.0;
        let next = loop {
            let trial: Vec<f64> = x.iter().zip(&delta).map(|(a, d)| a + t * d).collect();
            let l = model.log_likelihood(&trial);
            if l >= ll - 1e-12 || t < 1e-6 {
                break (trial, l);
            }
            t *= 0.5;
        };
        let moved = delta.iter().fold(0.0f64, |m, d| m.max((t * d).abs()));
        (x, ll) = next;
        if model.thetas(&x).iter().any(|v| v.abs() > UNBOUNDED) {
            return Err(FitError::Unbounded);
        }
        if moved < 1e-10 {
            let fit = Fit {
                theta: model.thetas(&x),
                nu: model.ln_nu(&x).exp(),
                steps: step,
            };
            return Ok((fit, x[..model.columns].to_vec()));
        }
    }
    Err(FitError::Unbounded)
}

/// The likelihood's parameters: β (one per design column), then ln ν (when games were drawn).
struct Model<'a> {
    design: &'a [Vec<f64>],
    columns: usize,
    tallies: &'a [Tally],
    draws: bool,
}

impl Model<'_> {
    fn dim(&self) -> usize {
        self.columns + usize::from(self.draws)
    }

    fn thetas(&self, x: &[f64]) -> Vec<f64> {
        self.design
            .iter()
            .map(|row| row.iter().zip(x).map(|(d, b)| d * b).sum())
            .collect()
    }

    fn ln_nu(&self, x: &[f64]) -> f64 {
        if self.draws {
            x[self.columns]
        } else {
            f64::NEG_INFINITY
        }
    }

    /// P(i wins), P(j wins), P(draw) of one game.
    fn probabilities(theta: &[f64], ln_nu: f64, i: usize, j: usize) -> [f64; 3] {
        let (a, b) = (theta[i], theta[j]);
        let d = ln_nu + 0.5 * (a + b);
        let top = a.max(b).max(d);
        let (ea, eb, ed) = ((a - top).exp(), (b - top).exp(), (d - top).exp());
        let sum = ea + eb + ed;
        [ea / sum, eb / sum, ed / sum]
    }

    fn log_likelihood(&self, x: &[f64]) -> f64 {
        let (theta, ln_nu) = (self.thetas(x), self.ln_nu(x));
        self.tallies
            .iter()
            .map(|&(i, j, n)| {
                let p = Self::probabilities(&theta, ln_nu, i, j);
                (0..3)
                    .filter(|&k| n[k] > 0.0)
                    .map(|k| n[k] * p[k].ln())
                    .sum::<f64>()
            })
            .sum()
    }

    /// The log-likelihood's gradient and its negated Hessian. Per game the outcome's features in
    /// (θᵢ, θⱼ, ln ν) are (1, 0, 0), (0, 1, 0) and (½, ½, 1): the gradient is observed minus
    /// expected features, the negated Hessian n times their covariance. Both are summed over
    /// (θ of every player, ln ν) first, then carried to β through the design once.
    fn gradient_hessian(&self, x: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let (theta, ln_nu) = (self.thetas(x), self.ln_nu(x));
        let players = theta.len();
        let slot_nu = players;
        let (mut g, mut h) = (
            vec![0.0; players + 1],
            vec![vec![0.0; players + 1]; players + 1],
        );
        let features = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]];
        for &(i, j, n) in self.tallies {
            let total: f64 = n.iter().sum();
            let p = Self::probabilities(&theta, ln_nu, i, j);
            let slots = [Some(i), Some(j), self.draws.then_some(slot_nu)];
            let mean: Vec<f64> = (0..3)
                .map(|f| (0..3).map(|k| p[k] * features[k][f]).sum())
                .collect();
            for f in 0..3 {
                let Some(a) = slots[f] else { continue };
                let observed: f64 = (0..3).map(|k| n[k] * features[k][f]).sum();
                g[a] += observed - total * mean[f];
                for e in 0..3 {
                    let Some(b) = slots[e] else { continue };
                    let second: f64 = (0..3).map(|k| p[k] * features[k][f] * features[k][e]).sum();
                    h[a][b] += total * (second - mean[f] * mean[e]);
                }
            }
        }
        self.project(&g, &h)
    }

    /// Carries a gradient and Hessian over (θ…, ln ν) to (β…, ln ν): Xᵀg and XᵀHX with X the
    /// design extended by ln ν's own row and column.
    fn project(&self, g: &[f64], h: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let players = self.design.len();
        let m = self.dim();
        let row = |p: usize, c: usize| -> f64 {
            match (p == players, c == self.columns) {
                (false, false) => self.design[p][c],
                (true, true) => 1.0,
                _ => 0.0,
            }
        };
        let rows = players + usize::from(self.draws);
        let gb: Vec<f64> = (0..m)
            .map(|c| (0..rows).map(|p| row(p, c) * g[p]).sum())
            .collect();
        // H X first (rows × m), then Xᵀ (H X).
        let hx: Vec<Vec<f64>> = (0..rows)
            .map(|p| {
                (0..m)
                    .map(|c| (0..rows).map(|q| h[p][q] * row(q, c)).sum())
                    .collect()
            })
            .collect();
        let hb = (0..m)
            .map(|a| {
                (0..m)
                    .map(|b| (0..rows).map(|p| row(p, a) * hx[p][b]).sum())
                    .collect()
            })
            .collect();
        (gb, hb)
    }
}

/// Every player must reach the anchor through games.
fn check_connected(players: usize, tallies: &[Tally], anchor: usize) -> Result<(), FitError> {
    let mut reached = vec![false; players];
    reached[anchor] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &(i, j, n) in tallies {
            if n.iter().sum::<f64>() > 0.0 && reached[i] != reached[j] {
                reached[i] = true;
                reached[j] = true;
                changed = true;
            }
        }
    }
    let missing: Vec<String> = (0..players)
        .filter(|&p| !reached[p])
        .map(|p| format!("player {p}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(FitError::Disconnected(missing.join(", ")))
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * p;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_recover_the_closed_form() {
        // Two players: the MLE matches the observed frequencies, so with W, L, D wins, losses and
        // draws θ = ln(W / L) and ν = D / √(W L).
        let (w, l, d) = (30.0, 10.0, 20.0);
        let f = fit(2, &[(1, 0, [w, l, d])], 0).unwrap();
        assert!((f.theta[1] - (w / l).ln()).abs() < 1e-9, "{f:?}");
        assert!((f.nu - d / (w * l).sqrt()).abs() < 1e-9, "{f:?}");
        assert_eq!(f.theta[0], 0.0);
    }

    #[test]
    fn without_draws_it_is_bradley_terry() {
        let f = fit(2, &[(0, 1, [3.0, 1.0, 0.0])], 1).unwrap();
        assert_eq!(f.nu, 0.0);
        assert!((f.elo()[0] - 400.0 * 3f64.log10()).abs() < 1e-6, "{f:?}");
    }

    #[test]
    fn no_maximum_and_disconnected_players_are_errors() {
        assert_eq!(
            fit(2, &[(0, 1, [5.0, 0.0, 0.0])], 0),
            Err(FitError::Unbounded)
        );
        let e = fit(3, &[(0, 1, [1.0, 1.0, 1.0])], 0).unwrap_err();
        assert_eq!(e, FitError::Disconnected("player 2".into()));
    }

    #[test]
    fn draws_as_half_recover_the_score_odds() {
        // Two players: θ = ln((W + D/2) / (L + D/2)), the odds of the score.
        let (w, l, d) = (30.0, 10.0, 20.0);
        let f = fit_draws_as_half(2, &[(1, 0, [w, l, d])], 0).unwrap();
        assert!((f.theta[1] - (40.0f64 / 20.0).ln()).abs() < 1e-9, "{f:?}");
        assert_eq!(f.nu, 0.0);
        // Davidson's reads the same games as a wider gap: win odds 3 against score odds 2.
        assert!(fit(2, &[(1, 0, [w, l, d])], 0).unwrap().theta[1] > f.theta[1]);
    }

    #[test]
    fn the_anchor_changes_only_the_origin() {
        let t: Vec<Tally> = vec![
            (0, 1, [10.0, 5.0, 8.0]),
            (1, 2, [4.0, 9.0, 7.0]),
            (0, 2, [6.0, 6.0, 12.0]),
        ];
        let (a, b) = (fit(3, &t, 0).unwrap(), fit(3, &t, 2).unwrap());
        for p in 0..3 {
            let shift = b.theta[p] - a.theta[p];
            assert!((shift - (b.theta[0] - a.theta[0])).abs() < 1e-9);
        }
        assert!((a.nu - b.nu).abs() < 1e-9);
    }
}
