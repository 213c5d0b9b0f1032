//! Main effects and two-factor interactions of a design, in Elo: the players' strengths are
//! constrained to θ(x) = Σᵢ βᵢ xᵢ + Σᵢ<ⱼ βᵢⱼ xᵢxⱼ (x = ±1 levels; the mean level needs no term,
//! only differences are rated) and fitted by the joint-ratings likelihood
//! ([`lab::elo::davidson::fit_design`]). An effect is reported as 2β in Elo — the usual
//! factorial convention: a main effect is the mean rating at +1 minus the mean at −1, an
//! interaction half the difference between one factor's effect at the other's +1 and at its −1.
//! Intervals are bootstrap percentiles over whole game pairs ([`lab::elo::ratings`] says how
//! they are drawn); p-values come from the bootstrap standard error (z = effect / se),
//! Holm-adjusted across all effects.

use lab::elo::davidson::{fit_design, FitError, Tally, ELO_PER_NAT};
use lab::elo::holm::holm;
use lab::elo::phi;
use lab::elo::ratings::{resample_fits, tallies, Bootstrap, Pair};
use lab::report::stats::quantile;

use super::Design;

/// One effect's estimate.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Effect {
    /// `lmr` or `lmr×singular`.
    pub effect: String,
    /// 1 for a main effect, 2 for an interaction.
    pub order: u8,
    /// The effect in Elo (2β).
    pub elo: f64,
    /// Lower end of the 95 % bootstrap interval.
    pub elo_lo: f64,
    /// Upper end.
    pub elo_hi: f64,
    /// Bootstrap standard error.
    pub se: f64,
    /// Two-sided p-value of "no effect".
    pub p: f64,
    /// Holm-adjusted across every effect of the table.
    pub p_holm: f64,
}

/// The model's columns: each factor, then each pair of factors, as (label, factor indices).
pub fn terms(design: &Design) -> Vec<(String, Vec<usize>)> {
    let k = design.factors.len();
    let name = |i: usize| design.factors[i].name.clone();
    let mains = (0..k).map(|i| (name(i), vec![i]));
    let pairs = (0..k).flat_map(move |i| (i + 1..k).map(move |j| (i, j)));
    let pairs = pairs.map(|(i, j)| (format!("{}×{}", name(i), name(j)), vec![i, j]));
    mains.chain(pairs).collect()
}

/// Each point's row of the model matrix.
pub fn model_matrix(design: &Design) -> Vec<Vec<f64>> {
    let terms = terms(design);
    design
        .points
        .iter()
        .map(|levels| {
            terms
                .iter()
                .map(|(_, f)| f.iter().map(|&i| f64::from(levels[i])).product())
                .collect()
        })
        .collect()
}

/// The effects in Elo of the games `pairings` (players in the design's point order), each with
/// its bootstrap interval and p, Holm-adjusted across the effects of this one design.
pub fn estimate(
    design: &Design,
    pairings: &[Vec<Pair>],
    bootstrap: Bootstrap,
) -> Result<Vec<Effect>, FitError> {
    let fitted = fit_resampled(design, pairings, bootstrap)?;
    let mut effects: Vec<Effect> = terms(design)
        .into_iter()
        .enumerate()
        .map(|(c, (label, factors))| {
            let column: Vec<f64> = fitted.resamples.iter().map(|r| r[c]).collect();
            let se = std_dev(&column);
            let elo = fitted.point[c];
            Effect {
                effect: label,
                order: factors.len() as u8,
                elo,
                elo_lo: quantile(&column, 0.025).unwrap_or(f64::NAN),
                elo_hi: quantile(&column, 0.975).unwrap_or(f64::NAN),
                se,
                p: 2.0 * (1.0 - phi((elo / se).abs())),
                p_holm: f64::NAN,
            }
        })
        .collect();
    let adjusted = holm(&effects.iter().map(|e| e.p).collect::<Vec<_>>());
    for (e, p) in effects.iter_mut().zip(adjusted) {
        e.p_holm = p;
    }
    Ok(effects)
}

/// The effects in Elo (one per [`terms`] column) of one set of games and of each bootstrap
/// resample of it that could be fitted.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The fit to the games themselves.
    pub point: Vec<f64>,
    /// The fits to the resamples (failed fits left out).
    pub resamples: Vec<Vec<f64>>,
}

/// The effects of `pairings` and of `bootstrap.resamples` resamples of them.
pub fn fit_resampled(
    design: &Design,
    pairings: &[Vec<Pair>],
    bootstrap: Bootstrap,
) -> Result<Fitted, FitError> {
    let players = design.points.len();
    let x = model_matrix(design);
    let point = fit_effects(&x, &tallies(players, pairings.iter().flatten()))?;
    let resamples = resample_fits(players, pairings, bootstrap, |t| fit_effects(&x, t).ok());
    Ok(Fitted {
        point,
        resamples: resamples.into_iter().flatten().collect(),
    })
}

/// The effects in Elo (2β) of the model matrix `x` fitted to `tallies`.
pub fn fit_effects(x: &[Vec<f64>], tallies: &[Tally]) -> Result<Vec<f64>, FitError> {
    let (_, beta) = fit_design(x, tallies)?;
    Ok(beta.iter().map(|b| 2.0 * b * ELO_PER_NAT).collect())
}

fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    if n < 2.0 {
        return f64::NAN;
    }
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::factorial::tests::{design, simulate};

    /// The 95 % intervals' (covered, cases) over 800 simulated round robins of a full 2^3
    /// design (3 main effects, 3 interactions) with `pairs` pairs per pairing, 200 resamples each;
    /// `stratified`: whether the bootstrap resamples within pairings (≥ 30 pairs) or across.
    fn coverage(pairs: usize, seed: u64, stratified: bool) -> (usize, usize) {
        let d = design(3, &[]);
        let truth = [40.0, -20.0, 10.0, 15.0, 0.0, -10.0];
        let (mut covered, mut cases) = (0, 0);
        for s in 0..800 {
            let data = simulate(&d, &truth, pairs, seed + s);
            assert_eq!(lab::elo::ratings::stratified(&data), stratified);
            let b = Bootstrap {
                resamples: 200,
                seed: s,
            };
            let Ok(effects) = estimate(&d, &data, b) else {
                continue;
            };
            for (e, t) in effects.iter().zip(truth) {
                cases += 1;
                covered += usize::from(e.elo_lo <= t && t <= e.elo_hi);
            }
        }
        (covered, cases)
    }

    /// Coverage from known truth, 30 pairs per pairing: the 95 % intervals must cover the true
    /// effects in 93–97 % of the 4,800 cases (93.9 % here: percentile intervals run slightly
    /// short at 840 games; ±1.96 bootstrap se gave 94.6 %).
    #[test]
    fn effect_intervals_cover_the_truth_about_95_percent_of_the_time() {
        let (covered, cases) = coverage(30, 5000, true);
        assert_eq!(cases, 4800, "every simulated design is fitted");
        let rate = covered as f64 / cases as f64;
        eprintln!("effect coverage {rate:.4} of {cases} intervals");
        assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
    }

    /// The same with 4 pairs per pairing (112 pairs in all), where the bootstrap resamples across
    /// the match: resampling within pairings of 4 would give 3/4 of the variance.
    #[test]
    fn effect_intervals_cover_the_truth_with_few_pairs_per_pairing() {
        let (covered, cases) = coverage(4, 9000, false);
        let rate = covered as f64 / cases as f64;
        eprintln!("effect coverage (pooled) {rate:.4} of {cases} intervals");
        assert!(
            cases >= 4000 && (0.93..=0.97).contains(&rate),
            "coverage {rate} of {cases}"
        );
    }

    #[test]
    fn a_half_fraction_recovers_known_effects() {
        // 2^(5−1): 16 points, 15 effects (saturated), truth 60 Elo for A, −40 for B, 30 for A×C.
        let d = design(5, &["ABCD"]);
        let mut truth = vec![0.0; 15];
        truth[0] = 60.0;
        truth[1] = -40.0;
        let ac = terms(&d).iter().position(|(l, _)| l == "f0×f2").unwrap();
        truth[ac] = 30.0;
        let data = simulate(&d, &truth, 40, 7);
        let b = Bootstrap {
            resamples: 200,
            seed: 1,
        };
        let effects = estimate(&d, &data, b).unwrap();
        for (e, t) in effects.iter().zip(&truth) {
            assert!(
                (e.elo - t).abs() < 4.0 * e.se,
                "{}: {} ± {} against {t}",
                e.effect,
                e.elo,
                e.se
            );
        }
        let significant: Vec<&str> = effects
            .iter()
            .filter(|e| e.p_holm < 0.05)
            .map(|e| e.effect.as_str())
            .collect();
        assert_eq!(significant, ["f0", "f1", "f0×f2"]);
    }
}
