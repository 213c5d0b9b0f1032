//! `harness train`: arguments → validated [`TrainPlan`] (or the one a run directory recorded) →
//! data → epochs → `net.nnue`, `net.json`, `report.html`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use lab::run_dir::{check_fresh_out, default_out, MANIFEST};
use lab::run_flow::{self, Ended, RecordedPlan};
use play::train::report::NetRecord;
use play::train::{self, FirstChunks, Schedule, TrainPlan, NET_FILE};

use crate::cli::RunArgs;

/// The hidden layer's activation, as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ActivationArg {
    /// clamp(x, 0, 1).
    Crelu,
    /// clamp(x, 0, 1)².
    Screlu,
}

/// `harness train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Training data: datagen run directories (their finished chunks, each checked against
    /// chunks.csv) or bulletformat files.
    #[arg(value_name = "DATA", required_unless_present = "resume")]
    pub inputs: Vec<PathBuf>,
    /// Only the first N chunks of each datagen run (they must all be finished): a network that
    /// can be trained again while its run adds chunks. One N for every run, or one per run in
    /// the order given (`1000,320`).
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',')]
    pub first_chunks: Vec<u64>,
    /// The hidden width H of (768→H)×2→1 (a multiple of 8).
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// The hidden layer's activation.
    #[arg(long, value_enum, default_value = "screlu")]
    pub activation: ActivationArg,
    /// The weight λ of the game result in the target (the rest is the search score's).
    #[arg(long, default_value_t = 0.1)]
    pub lambda: f64,
    /// Centipawns per unit of the network's output, and of the score's sigmoid.
    #[arg(long, default_value_t = 400.0)]
    pub scale: f64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384)]
    pub batch_size: usize,
    /// The first epoch's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// How it falls: `cosine:FINAL` (to FINAL × lr at the last epoch) or `step:GAMMA:EVERY`.
    #[arg(long, default_value = "cosine:0.05")]
    pub schedule: String,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f64,
    /// Hold out one chunk (or file) in this many for validation.
    #[arg(long, default_value_t = 20)]
    pub validation_every: usize,
    /// The seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads, output, resume, dry run, quiet.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `harness train`.
pub fn run(args: TrainArgs) -> Result<ExitCode> {
    let (plan, resuming) = match &args.run.resume {
        Some(dir) => (resumed(dir, &args)?, true),
        None => (build_plan(&args)?, false),
    };
    let data = train::data::read(
        &plan.inputs,
        plan.first_chunks.as_ref(),
        plan.validation_every,
    )?;
    eprintln!(
        "{} training and {} held-out positions, (768→{})×2→1 {:?}, {} epochs, {} threads → {}",
        data.train.len(),
        data.validation.len(),
        plan.hidden,
        plan.activation,
        plan.epochs,
        plan.threads,
        plan.out.display()
    );
    if args.run.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    let quiet = args.run.quiet;
    let speed = |seconds: f64| data.train.len() as f64 / seconds.max(1e-9);
    let report = |row: &train::run::EpochRow| {
        let losses = format!(
            "training loss {:.6}, validation loss {:.6}",
            row.train_loss, row.validation_loss
        );
        eprintln!(
            "epoch {:>3}: lr {:.2e}, {losses} ({:.0} positions/s)",
            row.epoch,
            row.lr,
            speed(row.seconds)
        );
    };
    let work = |()| {
        train::run::run(&plan, &data, |row| {
            if !quiet {
                report(row)
            }
        })
    };
    let (Ended::Completed(trained) | Ended::Interrupted(trained)) =
        run_flow::run(&plan.out, resuming, |_| plan.clone(), |_| Ok(()), work)?;
    if trained.rows.len() < plan.epochs as usize {
        eprintln!(
            "stopped after epoch {}: resume with harness train --resume {}",
            trained.rows.len(),
            plan.out.display()
        );
        return Ok(ExitCode::from(lab::shutdown::INTERRUPTED));
    }
    export(&plan, &data, &trained)?;
    Ok(ExitCode::SUCCESS)
}

/// The quantised network, its record and its report.
fn export(plan: &TrainPlan, data: &train::data::Data, trained: &train::run::Trained) -> Result<()> {
    let shape = plan.shape();
    let net = train::export::quantise(shape, &trained.params);
    let bytes = net.to_bytes();
    let path = plan.out.join(NET_FILE);
    std::fs::write(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
    let sample = &data.validation[..data.validation.len().min(20_000)];
    let quantisation = train::export::error(shape, &trained.params, &net, sample, plan.scale);
    let record = NetRecord {
        net_sha256: lab::plan::sha256_hex(&bytes),
        plan: plan.clone(),
        sources: data.sources.clone(),
        train_positions: data.train.len(),
        validation_positions: data.validation.len(),
        epochs: trained.rows.clone(),
        quantisation,
    };
    train::report::write(&plan.out, &record)?;
    println!(
        "{} (SHA-256 {}): validation loss {:.6}, quantised within {:.2} cp on average ({:.1} at most) → play it with --set nnue.net={}{}",
        path.display(),
        record.net_sha256,
        trained.rows.last().map_or(f64::NAN, |r| r.validation_loss),
        quantisation.mean_abs_cp,
        quantisation.max_abs_cp,
        path.display(),
        match plan.activation {
            engine::nnue::Activation::Screlu => "",
            engine::nnue::Activation::Crelu => " --set nnue.activation=crelu",
        }
    );
    Ok(())
}

fn build_plan(args: &TrainArgs) -> Result<TrainPlan> {
    if args.hidden == 0 || !args.hidden.is_multiple_of(8) || args.hidden > 4096 {
        bail!(
            "--hidden {}: expected a multiple of 8 from 8 to 4096",
            args.hidden
        );
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda {}: expected a weight from 0 to 1", args.lambda);
    }
    if args.epochs == 0 || args.batch_size == 0 || args.scale <= 0.0 || args.lr <= 0.0 {
        bail!("--epochs, --batch-size, --scale and --lr must each be above 0");
    }
    let out = args.run.out.clone().unwrap_or_else(|| default_out("train"));
    check_fresh_out(&out)?;
    if out.join(MANIFEST).exists() {
        bail!(
            "{} already holds a run: continue it with --resume {}",
            out.display(),
            out.display()
        );
    }
    let runs = args.inputs.iter().filter(|i| i.is_dir()).count();
    Ok(TrainPlan {
        inputs: args.inputs.clone(),
        first_chunks: FirstChunks::from_values(&args.first_chunks, runs)?,
        hidden: args.hidden,
        activation: match args.activation {
            ActivationArg::Crelu => engine::nnue::Activation::Crelu,
            ActivationArg::Screlu => engine::nnue::Activation::Screlu,
        },
        lambda: args.lambda,
        scale: args.scale,
        epochs: args.epochs,
        batch_size: args.batch_size,
        lr: args.lr,
        schedule: schedule(&args.schedule)?,
        weight_decay: args.weight_decay,
        validation_every: args.validation_every,
        seed: args.seed,
        threads: lab::workers::resolve(args.run.threads)?,
        out,
    })
}

fn schedule(text: &str) -> Result<Schedule> {
    let bad = || {
        anyhow::anyhow!("--schedule expects cosine:FINAL (0 < FINAL ≤ 1) or step:GAMMA:EVERY (0 < GAMMA ≤ 1, EVERY ≥ 1), found `{text}`")
    };
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        ["cosine", f] => {
            let final_fraction: f64 = f.parse().map_err(|_| bad())?;
            (final_fraction > 0.0 && final_fraction <= 1.0)
                .then_some(Schedule::Cosine { final_fraction })
                .ok_or_else(bad)
        }
        ["step", g, e] => {
            let gamma: f64 = g.parse().map_err(|_| bad())?;
            let every: u32 = e.parse().map_err(|_| bad())?;
            (gamma > 0.0 && gamma <= 1.0 && every >= 1)
                .then_some(Schedule::Step { gamma, every })
                .ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// The plan `dir` recorded; `--epochs` may add epochs, `--threads` is refused (a run is
/// deterministic for its thread count).
fn resumed(dir: &Path, args: &TrainArgs) -> Result<TrainPlan> {
    let mut plan: TrainPlan = RecordedPlan::read(dir)?;
    plan.out = dir.to_path_buf();
    if args.run.threads.is_some_and(|t| t != plan.threads) {
        bail!(
            "--threads: the run trains with {} threads (its result depends on the count)",
            plan.threads
        );
    }
    Ok(plan)
}
