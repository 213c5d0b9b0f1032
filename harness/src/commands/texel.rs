//! `harness texel`: arguments → validated [`TexelPlan`] → positions → fit → files.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::SearchConfig;
use lab::run_dir::{check_fresh_out, default_out, MANIFEST};
use play::texel::data::{self, Selection};
use play::texel::{self, output, TexelPlan};

/// `harness texel`.
#[derive(Debug, Args)]
pub struct TexelArgs {
    /// Games to learn from (repeatable): PGN, or PGN gzipped (`.pgn.gz`), from any program (the
    /// harness's own `games.pgn` included). Each move's comment score (`{+0.35/6}`) is the
    /// reference `--lambda` blends toward.
    #[arg(long = "pgn", value_name = "FILE", required = true)]
    pub pgn: Vec<PathBuf>,
    /// Base preset whose evaluation is fitted (its switched-on terms, from its weights).
    #[arg(long, default_value = "modern")]
    pub preset: String,
    /// `KEY=VALUE` changes to the preset, in order (`eval.mobility=on`, `eval.tempo=off`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Positions before this ply of each game are left out (the book and the first moves).
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Weight of the game's own score in a label: (1 − λ) × result + λ × σ(K × score).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// The sigmoid's scale K, given instead of fitted on the results with the starting weights:
    /// one K for several fits makes their losses against the same labels comparable.
    #[arg(long, value_name = "K")]
    pub k: Option<f64>,
    /// Share of games held out to measure the fit on (whole games, chosen by --seed).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes of Adam over the training positions.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Which epoch's weights are written: `best` (lowest validation loss: early stopping) or
    /// `last`.
    #[arg(long, value_enum, default_value = "best")]
    pub keep: play::texel::Keep,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (new or empty). Default `results/<timestamp>-texel/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the plan and exit without reading the games.
    #[arg(long)]
    pub dry_run: bool,
    /// No line per epoch.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `harness texel`.
pub fn run(args: TexelArgs) -> Result<ExitCode> {
    let plan = build_plan(&args)?;
    if args.dry_run {
        print!("{}", describe(&plan));
        return Ok(ExitCode::SUCCESS);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("starting worker threads")?;
    pool.install(|| fit_and_write(&plan, args.quiet))?;
    Ok(ExitCode::SUCCESS)
}

fn fit_and_write(plan: &TexelPlan, quiet: bool) -> Result<()> {
    let clock = Instant::now();
    let (data, sources, warnings) = data::extract(&plan.files, plan.selection, &plan.config.eval)?;
    let per_s = data.entries.len() as f64 / clock.elapsed().as_secs_f64().max(1e-9);
    const SHOWN: usize = 10;
    for w in warnings.iter().take(SHOWN) {
        eprintln!("warning: {w}");
    }
    if warnings.len() > SHOWN {
        eprintln!(
            "warning: {} more games cut short (manifest.json lists the first {})",
            warnings.len() - SHOWN,
            output::WARNINGS_KEPT
        );
    }
    eprintln!(
        "{} games, {} positions kept of {} ({:.0} positions/s), {} epochs, {} threads → {}",
        data.counts.games,
        data.counts.kept,
        data.counts.positions,
        per_s,
        plan.epochs,
        plan.threads,
        plan.out.display()
    );
    let every = (plan.epochs / 20).max(1);
    let fitted = texel::fit(plan, &data, per_s, |epoch, train, validation| {
        if !quiet && (epoch % every == 0 || epoch == plan.epochs) {
            eprintln!("epoch {epoch:>5}: train {train:.6}, validation {validation:.6}");
        }
    });
    output::write(plan, &sources, &data.counts, &warnings, &fitted)?;
    println!(
        "K = {:.4}; validation loss {:.6} → {:.6} (epoch {}, rounded weights); wrote {}",
        fitted.k,
        fitted.losses[0].2,
        fitted.rounded.1,
        fitted.kept_epoch,
        plan.out.join(output::TUNED_TOML).display()
    );
    Ok(())
}

/// Arguments → a plan, every check made before any game is read.
fn build_plan(args: &TexelArgs) -> Result<TexelPlan> {
    let settings = crate::cli::key_values(&args.sets)?;
    let config =
        SearchConfig::with_settings(&args.preset, settings.iter().cloned()).with_context(|| {
            format!(
                "the configuration to fit ({} with the --set changes)",
                args.preset
            )
        })?;
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be within 0 and 1, found {}", args.lambda);
    }
    if let Some(k) = args.k {
        if !(k > 0.0 && k.is_finite()) {
            bail!("--k must be more than 0, found {k}");
        }
    }
    if !(0.0..1.0).contains(&args.validation) {
        bail!(
            "--validation must be at least 0 and below 1, found {}",
            args.validation
        );
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        bail!("--rate must be more than 0, found {}", args.rate);
    }
    for file in &args.pgn {
        if !file.is_file() {
            bail!("--pgn {}: no such file", file.display());
        }
    }
    let out = args.out.clone().unwrap_or_else(|| default_out("texel"));
    check_fresh_out(&out)?;
    if out.join(MANIFEST).exists() {
        bail!(
            "{} already holds a run; a texel fit is not resumed (it takes minutes): give another --out",
            out.display()
        );
    }
    Ok(TexelPlan {
        files: args.pgn.clone(),
        preset: args.preset.clone(),
        settings,
        config,
        selection: Selection {
            skip_plies: args.skip_plies,
        },
        lambda: args.lambda,
        k: args.k,
        validation: args.validation,
        seed: args.seed,
        epochs: args.epochs,
        rate: args.rate,
        keep: args.keep,
        threads: lab::workers::resolve(args.threads)?,
        out,
    })
}

fn describe(plan: &TexelPlan) -> String {
    let active = engine::eval::Params::of(&plan.config.eval)
        .active
        .iter()
        .filter(|&&a| a)
        .count();
    format!(
        "texel: {} file(s), preset {} ({} weights to fit), positions from ply {}, λ = {}, {:.0} % of games held out (seed {}), {} epochs at step {}, {} threads → {}\n",
        plan.files.len(),
        plan.preset,
        active,
        plan.selection.skip_plies,
        plan.lambda,
        100.0 * plan.validation,
        plan.seed,
        plan.epochs,
        plan.rate,
        plan.threads,
        plan.out.display()
    )
}

/// Rebuilds a texel run's `report.md` and figure in `dir` from its manifest, the configuration it
/// names and its `eval.toml`; nothing is fitted again.
pub fn rebuild_report(dir: &std::path::Path) -> Result<()> {
    let path = dir.join(MANIFEST);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut recorded: output::RecordedFit =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    recorded.plan.out = dir.to_path_buf();
    recorded.plan.config = SearchConfig::with_settings(
        &recorded.plan.preset,
        recorded.plan.settings.iter().cloned(),
    )
    .with_context(|| format!("the configuration {} records", path.display()))?;
    // The starting weights as written then (a later build's defaults, or a moved @FILE, could
    // differ); a run made before start-eval.toml existed falls back to the configuration.
    let start_path = dir.join(output::START_EVAL_TOML);
    let before = match std::fs::read_to_string(&start_path) {
        Ok(text) => {
            let start: engine::eval::Evaluation = toml::from_str(&text)
                .with_context(|| format!("reading {}", start_path.display()))?;
            engine::eval::Params::of(&start)
        }
        Err(_) => engine::eval::Params::of(&recorded.plan.config.eval),
    };
    let eval_path = dir.join(output::EVAL_TOML);
    let eval_text = std::fs::read_to_string(&eval_path)
        .with_context(|| format!("reading {}", eval_path.display()))?;
    let fitted: engine::eval::Evaluation =
        toml::from_str(&eval_text).with_context(|| format!("reading {}", eval_path.display()))?;
    recorded.fitted.before = before.weights;
    recorded.fitted.active = before.active;
    recorded.fitted.after = engine::eval::Params::of(&fitted).weights;
    output::write_report(
        &recorded.plan,
        &recorded.sources,
        &recorded.counts,
        &recorded.fitted,
    )
}
