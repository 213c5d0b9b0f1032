//! The training loop: from the newest checkpoint (or the seed's initial weights), each epoch a
//! seeded shuffle of the training positions cut into batches, each batch's gradient summed in one
//! part per thread and the parts added in order, an AdamW step; then the validation loss, the
//! checkpoint and the epoch's row. After the last epoch the network is quantised and exported.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use bulletformat::ChessBoard;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::checkpoint::Checkpoint;
use super::data::Data;
use super::model::{inputs, target, Shape};
use super::optim::AdamW;
use super::{TrainPlan, TRAIN_CSV};

/// One epoch, as `train.csv` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochRow {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Its learning rate.
    pub lr: f64,
    /// Mean loss over its batches, as they were trained.
    pub train_loss: f64,
    /// Mean loss over the held-out positions after it.
    pub validation_loss: f64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// The state a run ends in.
pub struct Trained {
    /// The parameters.
    pub params: Vec<f32>,
    /// Every epoch's row (earlier runs' included).
    pub rows: Vec<EpochRow>,
    /// Epochs this run trained.
    pub trained: u32,
}

impl TrainPlan {
    /// The network's shape.
    pub fn shape(&self) -> Shape {
        Shape {
            hidden: self.hidden,
            activation: self.activation,
        }
    }
}

/// Trains `plan` on `data` from where its directory left off; `on_epoch` hears of each epoch.
pub fn run(plan: &TrainPlan, data: &Data, on_epoch: impl Fn(&EpochRow)) -> Result<Trained> {
    let shape = plan.shape();
    let (mut params, mut adam, done) = match Checkpoint::latest(&plan.out, shape.params())? {
        Some(c) => (c.params, c.adam, c.epochs_done),
        None => (shape.init(plan.seed), AdamW::new(shape.params()), 0),
    };
    let mut rows = rows_until(&plan.out, done)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("starting the trainer's threads")?;
    let mut trained = 0;
    for epoch in done..plan.epochs {
        if lab::shutdown::requested() {
            break;
        }
        let start = Instant::now();
        let lr = plan.schedule.rate(plan.lr, epoch, plan.epochs);
        let order = shuffled(data.train.len(), plan.seed, epoch);
        let mut loss_sum = 0.0;
        for batch in order.chunks(plan.batch_size) {
            let (grad, loss) = pool.install(|| gradient(plan, &params, &data.train, batch));
            loss_sum += loss;
            adam.step(&mut params, &grad, lr as f32, plan.weight_decay as f32);
        }
        let row = EpochRow {
            epoch: epoch + 1,
            lr,
            train_loss: loss_sum / data.train.len() as f64,
            validation_loss: pool.install(|| loss(plan, &params, &data.validation)),
            seconds: start.elapsed().as_secs_f64(),
        };
        Checkpoint {
            epochs_done: epoch + 1,
            params: params.clone(),
            adam: adam.clone(),
        }
        .write(&plan.out)?;
        rows.push(row.clone());
        write_rows(&plan.out, &rows)?;
        on_epoch(&row);
        trained += 1;
    }
    Ok(Trained {
        params,
        rows,
        trained,
    })
}

/// The order of epoch `epoch`'s positions: a function of the seed and the epoch alone.
fn shuffled(len: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7261_696e);
    rng.set_stream(u64::from(epoch) + 1);
    let mut order: Vec<u32> = (0..len as u32).collect();
    order.shuffle(&mut rng);
    order
}

/// A batch's mean gradient and summed loss: one part per thread, added in order.
fn gradient(
    plan: &TrainPlan,
    params: &[f32],
    records: &[ChessBoard],
    batch: &[u32],
) -> (Vec<f32>, f64) {
    let shape = plan.shape();
    let part = batch.len().div_ceil(plan.threads.max(1));
    let parts: Vec<(Vec<f32>, f64)> = batch
        .par_chunks(part.max(1))
        .map(|ids| {
            let mut grad = vec![0.0f32; shape.params()];
            let mut loss = 0.0f64;
            for &i in ids {
                let r = &records[i as usize];
                let t = target(r, plan.lambda as f32, plan.scale as f32);
                loss += f64::from(shape.backprop(params, &inputs(r), t, &mut grad));
            }
            (grad, loss)
        })
        .collect();
    let mut iter = parts.into_iter();
    let (mut grad, mut loss) = iter.next().expect("a batch has a part");
    for (g, l) in iter {
        for (a, b) in grad.iter_mut().zip(&g) {
            *a += b;
        }
        loss += l;
    }
    let n = batch.len() as f32;
    grad.iter_mut().for_each(|g| *g /= n);
    (grad, loss)
}

/// The mean loss of `params` over `records` (in parts, added in order).
pub fn loss(plan: &TrainPlan, params: &[f32], records: &[ChessBoard]) -> f64 {
    if records.is_empty() {
        return f64::NAN;
    }
    let shape = plan.shape();
    let sums: Vec<f64> = records
        .par_chunks(4096)
        .map(|part| {
            part.iter()
                .map(|r| {
                    let t = target(r, plan.lambda as f32, plan.scale as f32);
                    let p = super::model::sigmoid(shape.output(params, &inputs(r)));
                    f64::from((p - t) * (p - t))
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / records.len() as f64
}

/// The rows of `train.csv` up to epoch `done` (a killed run may have written none past its last
/// checkpoint; any it did are dropped with the epochs they describe).
fn rows_until(dir: &Path, done: u32) -> Result<Vec<EpochRow>> {
    let path = dir.join(TRAIN_CSV);
    if !path.exists() {
        return Ok(Vec::new());
    }
    lab::export::appender::cut_partial_line(&path)?;
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let rows = reader
        .deserialize::<EpochRow>()
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(rows.into_iter().filter(|r| r.epoch <= done).collect())
}

fn write_rows(dir: &Path, rows: &[EpochRow]) -> Result<()> {
    let path = dir.join(TRAIN_CSV);
    let tmp = path.with_extension("csv.partial");
    let mut w =
        csv::Writer::from_path(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
    for r in rows {
        w.serialize(r)?;
    }
    w.flush()?;
    drop(w);
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))
}
