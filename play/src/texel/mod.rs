//! `harness texel`: the evaluation's weights fitted to game results (Texel's method). PGN games →
//! quiet positions in coefficient form (`data`) → K, then every weight of the switched-on terms by
//! Adam, with a held-out split of whole games (`fit`) → `texel.csv`, `tuned.toml`, `report.md`
//! and `manifest.json` (`output`).

pub mod data;
pub mod fit;
pub mod output;

use std::path::PathBuf;
use std::time::Instant;

use data::{Dataset, Selection};
use engine::eval::{Pair, Params};
use engine::SearchConfig;
use fit::{Adam, Sample, Weights};
use serde::{Deserialize, Serialize};

/// A validated `harness texel` run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TexelPlan {
    /// The games.
    pub files: Vec<PathBuf>,
    /// Base preset of the configuration whose evaluation is fitted.
    pub preset: String,
    /// Its `--set` changes, in order.
    pub settings: Vec<(String, String)>,
    /// The configuration they make (its `eval` section is what is fitted).
    #[serde(skip)]
    pub config: SearchConfig,
    /// Which positions are kept.
    pub selection: Selection,
    /// Weight of the reference score in a label (0: the game's result alone).
    pub lambda: f64,
    /// K when given (`--k`); absent, K is fitted on the training results with the start weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<f64>,
    /// Share of games held out for validation.
    pub validation: f64,
    /// Seed of the split.
    pub seed: u64,
    /// Full passes over the training positions.
    pub epochs: usize,
    /// Adam's step size, centipawns.
    pub rate: f64,
    /// Which epoch's weights are written.
    pub keep: Keep,
    /// Worker threads.
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
}

/// Which epoch's weights a fit writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Keep {
    /// The epoch with the lowest validation loss (early stopping: the held-out games choose it,
    /// so their loss there is a little optimistic; a match on other openings is the test).
    Best,
    /// The last epoch.
    Last,
}

/// What a fit found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fitted {
    /// The sigmoid's scale.
    pub k: f64,
    /// `(epoch, train loss, validation loss)`, epoch 0 at the start weights.
    pub losses: Vec<(usize, f64, f64)>,
    /// The epoch whose weights are kept.
    pub kept_epoch: usize,
    /// Train and validation loss of the rounded (integer) weights the engine uses.
    pub rounded: (f64, f64),
    /// The weights before and after (integers).
    #[serde(skip)]
    pub before: Vec<Pair>,
    /// The fitted weights, rounded.
    #[serde(skip)]
    pub after: Vec<Pair>,
    /// Which weights were fitted.
    #[serde(skip)]
    pub active: Vec<bool>,
    /// Positions in the training and validation sets.
    pub train_positions: usize,
    /// Positions held out.
    pub validation_positions: usize,
    /// Positions kept per second of extraction.
    pub extraction_per_s: f64,
    /// Median seconds of one epoch (gradient over the training set, loss over validation).
    pub epoch_s: f64,
}

/// Whether game `g` is held out: a hash of (seed, g) against the share, so the split is fixed by
/// the seed and keeps each game's positions together.
fn held_out(seed: u64, game: u32, share: f64) -> bool {
    let mut x = seed ^ (u64::from(game).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (x as f64 / u64::MAX as f64) < share
}

/// Runs the fit of `plan` on `data` (extracted at `extraction_per_s`), reporting each epoch.
pub fn fit(
    plan: &TexelPlan,
    data: &Dataset,
    extraction_per_s: f64,
    mut on_epoch: impl FnMut(usize, f64, f64),
) -> Fitted {
    let params = Params::of(&plan.config.eval);
    let start: Weights = params
        .weights
        .iter()
        .map(|p| [f64::from(p.mg), f64::from(p.eg)])
        .collect();
    let (train_rows, validation_rows): (Vec<usize>, Vec<usize>) = (0..data.entries.len())
        .partition(|&r| !held_out(plan.seed, data.entries[r].game, plan.validation));
    let result = |e: &data::Entry| f64::from(e.result);
    let k = plan
        .k
        .unwrap_or_else(|| fit_k_on(data, &train_rows, &start));
    let label = |e: &data::Entry| match e.reference {
        Some(r) if plan.lambda > 0.0 => {
            (1.0 - plan.lambda) * result(e) + plan.lambda * fit::sigmoid(k, f64::from(r))
        }
        _ => result(e),
    };
    let train = Sample::new(data, train_rows, label);
    let validation = Sample::new(data, validation_rows, label);
    let mut weights = start.clone();
    let mut adam = Adam::new(plan.rate, params.active.clone());
    let mut losses = Vec::with_capacity(plan.epochs + 1);
    let mut times = Vec::with_capacity(plan.epochs);
    let mut kept = (0, start.clone(), f64::INFINITY);
    for epoch in 0..=plan.epochs {
        let clock = Instant::now();
        let (train_loss, gradient) = train.gradient(&weights, k);
        let validation_loss = validation.loss(&weights, k);
        losses.push((epoch, train_loss, validation_loss));
        on_epoch(epoch, train_loss, validation_loss);
        let better = validation_loss < kept.2 || validation.is_empty();
        if plan.keep == Keep::Last || better {
            kept = (epoch, weights.clone(), validation_loss);
        }
        if epoch < plan.epochs {
            adam.step(&mut weights, &gradient);
            times.push(clock.elapsed().as_secs_f64());
        }
    }
    let (kept_epoch, weights, _) = kept;
    let after: Vec<Pair> = weights
        .iter()
        .map(|w| Pair::new(w[0].round() as i32, w[1].round() as i32))
        .collect();
    let rounded: Weights = after
        .iter()
        .map(|p| [f64::from(p.mg), f64::from(p.eg)])
        .collect();
    times.sort_by(f64::total_cmp);
    Fitted {
        k,
        rounded: (train.loss(&rounded, k), validation.loss(&rounded, k)),
        kept_epoch,
        losses,
        before: params.weights,
        after,
        active: params.active,
        train_positions: train.len(),
        validation_positions: validation.len(),
        extraction_per_s,
        epoch_s: times.get(times.len() / 2).copied().unwrap_or(0.0),
    }
}

/// K fitted on the game results alone.
fn fit_k_on(data: &Dataset, rows: &[usize], weights: &Weights) -> f64 {
    let sample = Sample::new(data, rows.to_vec(), |e| f64::from(e.result));
    fit::fit_k(&sample, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_fixed_by_the_seed_and_near_the_share() {
        let out: Vec<bool> = (0..10_000).map(|g| held_out(7, g, 0.1)).collect();
        let share = out.iter().filter(|&&x| x).count() as f64 / 1e4;
        assert!((share - 0.1).abs() < 0.01, "{share}");
        assert_eq!(
            out,
            (0..10_000).map(|g| held_out(7, g, 0.1)).collect::<Vec<_>>()
        );
        assert_ne!(
            out,
            (0..10_000).map(|g| held_out(8, g, 0.1)).collect::<Vec<_>>()
        );
    }
}
