//! What a texel run writes: `texel.csv` (loss per epoch), `tuned.toml` (the fitted evaluation as a
//! grid file: `grid --grid`, `match --grid`), `manifest.json` (the plan, the data's files with
//! their SHA-256 and counts, K and the losses) and `report.md` with the loss figure and the
//! weights before and after.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use engine::eval::{layout, Pair, Params};
use lab::export::provenance::Provenance;
use lab::report::figures::{colour, legend, save, DrawResult, Figure, FAMILY};
use lab::report::md_table::{Align, MdTable};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;

use super::data::{Counts, Source};
use super::{Fitted, TexelPlan};

/// The loss per epoch.
pub use lab::run_dir::TEXEL_CSV;
/// The fitted evaluation as a grid file.
pub const TUNED_TOML: &str = "tuned.toml";
/// The fitted `eval` section alone: `--set eval=@eval.toml` on any preset.
pub const EVAL_TOML: &str = "eval.toml";
/// The starting `eval` section (what the report's "before" reads when it is rebuilt).
pub const START_EVAL_TOML: &str = "start-eval.toml";
/// The player `tuned.toml` defines.
pub const TUNED_PLAYER: &str = "texel-tuned";
/// Messages about unreadable games kept in the manifest (the rest are counted).
pub const WARNINGS_KEPT: usize = 50;

/// `manifest.json` of a texel run.
#[derive(Debug, Serialize)]
pub struct TexelManifest<'a> {
    /// Where and with what it ran.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// `texel`.
    pub kind: &'static str,
    /// When it finished (RFC 3339).
    pub date: String,
    /// The plan.
    pub plan: &'a TexelPlan,
    /// The input files.
    pub sources: &'a [Source],
    /// What was read and kept.
    pub counts: &'a Counts,
    /// Unreadable games (file, line, game, move), the first [`WARNINGS_KEPT`].
    pub warnings: &'a [String],
    /// How many there were in all.
    pub warning_count: usize,
    /// The fit.
    pub fitted: &'a Fitted,
}

/// Writes every file of a finished run into `plan.out`.
pub fn write(
    plan: &TexelPlan,
    sources: &[Source],
    counts: &Counts,
    warnings: &[String],
    fitted: &Fitted,
) -> Result<()> {
    let out = &plan.out;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    write_csv(&out.join(TEXEL_CSV), &fitted.losses)?;
    let tuned = tuned_toml(plan, fitted)?;
    std::fs::write(out.join(TUNED_TOML), tuned)?;
    let eval = Params::apply(&fitted.after, &plan.config.eval);
    std::fs::write(out.join(EVAL_TOML), toml::to_string(&eval)?)?;
    let start = Params::apply(&fitted.before, &plan.config.eval);
    std::fs::write(out.join(START_EVAL_TOML), toml::to_string(&start)?)?;
    let manifest = TexelManifest {
        provenance: Provenance::here(),
        kind: "texel",
        date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        plan,
        sources,
        counts,
        warnings: &warnings[..warnings.len().min(WARNINGS_KEPT)],
        warning_count: warnings.len(),
        fitted,
    };
    std::fs::write(
        out.join(lab::run_dir::MANIFEST),
        lab::json::to_lines(&manifest),
    )?;
    write_report(plan, sources, counts, fitted)
}

/// `report.md` and the loss figure (what `harness report DIR` rebuilds).
pub fn write_report(
    plan: &TexelPlan,
    sources: &[Source],
    counts: &Counts,
    fitted: &Fitted,
) -> Result<()> {
    let figure = save(&plan.out, &LossCurve(fitted.losses.clone()))?;
    let md = markdown(plan, sources, counts, fitted, &figure);
    lab::report::page::write(&plan.out, &md)?;
    Ok(())
}

/// A texel run's `manifest.json` as read back.
#[derive(Debug, serde::Deserialize)]
pub struct RecordedFit {
    /// The plan.
    pub plan: TexelPlan,
    /// The input files.
    pub sources: Vec<Source>,
    /// What was read and kept.
    pub counts: Counts,
    /// The fit (without its weights: they are in the configuration and `eval.toml`).
    pub fitted: Fitted,
}

fn write_csv(path: &Path, losses: &[(usize, f64, f64)]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record(["epoch", "train_loss", "validation_loss"])?;
    for (epoch, train, validation) in losses {
        w.write_record([
            epoch.to_string(),
            format!("{train:.9}"),
            format!("{validation:.9}"),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// `tuned.toml`: a grid file with one player, `texel-tuned`: the plan's preset, its settings
/// outside the evaluation, and the fitted `eval` section whole (one file holds a tuned
/// evaluation). `grid --grid tuned.toml` searches with it; `match --grid tuned.toml --player
/// modern:preset=modern` plays it against `modern`.
pub fn tuned_toml(plan: &TexelPlan, fitted: &Fitted) -> Result<String> {
    let eval = Params::apply(&fitted.after, &plan.config.eval);
    let mut set = toml::Table::new();
    for (key, value) in plan
        .settings
        .iter()
        .filter(|(k, _)| k != "eval" && !k.starts_with("eval."))
    {
        set.insert(key.clone(), toml::Value::String(value.clone()));
    }
    set.insert("eval".into(), toml::Value::try_from(&eval)?);
    let mut player = toml::Table::new();
    player.insert("name".into(), TUNED_PLAYER.into());
    player.insert("preset".into(), plan.preset.clone().into());
    player.insert("set".into(), toml::Value::Table(set));
    let mut file = toml::Table::new();
    file.insert("name".into(), "texel".into());
    file.insert("preset".into(), plan.preset.clone().into());
    file.insert(
        "players".into(),
        toml::Value::Array(vec![toml::Value::Table(player)]),
    );
    Ok(format!(
        "# The evaluation `harness texel` fitted ({} positions, K = {:.4}, validation loss {:.6}).\n# `grid --grid {TUNED_TOML}` searches with it; `match --grid {TUNED_TOML} --player modern:preset=modern` plays it.\n{}",
        fitted.train_positions,
        fitted.k,
        fitted.rounded.1,
        toml::to_string(&file)?
    ))
}

fn markdown(
    plan: &TexelPlan,
    sources: &[Source],
    counts: &Counts,
    fitted: &Fitted,
    figure: &str,
) -> String {
    let mut md = String::from("# Texel fit\n\n");
    let _ = writeln!(md, "- base: `{}`{}", plan.preset, settings_text(plan));
    for s in sources {
        let _ = writeln!(
            md,
            "- games: `{}` ({} games, SHA-256 `{}`)",
            s.path.display(),
            s.games,
            &s.sha256[..16]
        );
    }
    let _ = writeln!(
        md,
        "- positions: {} where a move was played; left out {} before ply {}, {} in check, {} not quiet (a capture or promotion wins by SEE); {} games without a result, {} cut short by an unreadable move",
        counts.positions, counts.opening, plan.selection.skip_plies, counts.in_check, counts.not_quiet, counts.games_without_result, counts.games_with_errors
    );
    let _ = writeln!(
        md,
        "- kept: {} positions, {} to fit and {} held out (whole games, {:.0} % by seed {})",
        counts.kept,
        fitted.train_positions,
        fitted.validation_positions,
        100.0 * plan.validation,
        plan.seed
    );
    let _ = writeln!(
        md,
        "- K = {:.4} ({}); λ = {}; {} epochs of Adam, step {} cp",
        fitted.k,
        if plan.k.is_some() {
            "given"
        } else {
            "fitted on the results with the starting weights"
        },
        plan.lambda,
        plan.epochs,
        plan.rate
    );
    let _ = writeln!(
        md,
        "- time: extraction {:.0} positions/s, one epoch {:.2} s (median) on {} threads\n",
        fitted.extraction_per_s, fitted.epoch_s, plan.threads
    );
    md.push_str("## Loss\n\n");
    let first = fitted.losses.first().copied().unwrap_or_default();
    let last = fitted.losses.last().copied().unwrap_or_default();
    let mut t = MdTable::new()
        .left("weights")
        .right("train loss")
        .right("validation loss");
    t.row([
        "start".to_string(),
        format!("{:.6}", first.1),
        format!("{:.6}", first.2),
    ]);
    t.row([
        format!("after {} epochs", last.0),
        format!("{:.6}", last.1),
        format!("{:.6}", last.2),
    ]);
    let kept = match plan.keep {
        super::Keep::Best => "the lowest validation loss",
        super::Keep::Last => "the last",
    };
    t.row([
        format!("epoch {} ({kept}), rounded: tuned.toml", fitted.kept_epoch),
        format!("{:.6}", fitted.rounded.0),
        format!("{:.6}", fitted.rounded.1),
    ]);
    md.push_str(&t.render());
    let _ = writeln!(
        md,
        "\n{}\n\n*Mean squared error between σ(K·E) and each position's label, on the {} training positions and the {} held-out ones, at the start weights (epoch 0) and after each epoch.*\n",
        lab::report::figures::markdown("Train and validation loss against epochs", figure),
        fitted.train_positions,
        fitted.validation_positions
    );
    md.push_str(&weights_section(fitted));
    md
}

fn settings_text(plan: &TexelPlan) -> String {
    if plan.settings.is_empty() {
        return String::new();
    }
    let sets: Vec<String> = plan
        .settings
        .iter()
        .map(|(k, v)| format!("`{k}={v}`"))
        .collect();
    format!(" with {}", sets.join(", "))
}

/// Every fitted weight but the piece-square tables before and after; the tables summarised per
/// piece (they are whole in `tuned.toml`).
fn weights_section(fitted: &Fitted) -> String {
    let mut md = String::from("## Weights\n\n");
    let mut t = MdTable::new().left("weight").columns(
        ["before mg", "before eg", "after mg", "after eg"],
        Align::Right,
    );
    let psqt = layout::PSQT..layout::PSQT + 6 * 64;
    for i in (0..layout::LEN).filter(|&i| fitted.active[i] && !psqt.contains(&i)) {
        let (b, a) = (fitted.before[i], fitted.after[i]);
        t.row([
            layout::name(i),
            b.mg.to_string(),
            b.eg.to_string(),
            a.mg.to_string(),
            a.eg.to_string(),
        ]);
    }
    md.push_str(&t.render());
    md.push_str(
        "\nPiece-square tables (whole in `tuned.toml`): mean absolute change per piece.\n\n",
    );
    let mut t = MdTable::new()
        .left("piece")
        .columns(["mean |Δ mg|", "mean |Δ eg|"], Align::Right);
    for (p, name) in layout::PIECE_NAMES.iter().enumerate() {
        let range = layout::PSQT + p * 64..layout::PSQT + (p + 1) * 64;
        let delta = |f: fn(&Pair) -> i32| {
            range
                .clone()
                .map(|i| f64::from((f(&fitted.after[i]) - f(&fitted.before[i])).abs()))
                .sum::<f64>()
                / 64.0
        };
        t.row([
            name.to_string(),
            format!("{:.1}", delta(|p| p.mg)),
            format!("{:.1}", delta(|p| p.eg)),
        ]);
    }
    md.push_str(&t.render());
    md
}

/// Which loss of an epoch's row a curve draws.
type Column = fn(&(usize, f64, f64)) -> f64;

/// Train and validation loss against epochs.
struct LossCurve(Vec<(usize, f64, f64)>);

impl Figure for LossCurve {
    fn name(&self) -> String {
        "loss".into()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let max_x = self.0.last().map_or(1, |p| p.0).max(1) as f64;
        let values = self
            .0
            .iter()
            .flat_map(|p| [p.1, p.2])
            .filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let (lo, hi) = if lo > hi { (0.0, 1.0) } else { (lo, hi) };
        let pad = 0.05 * (hi - lo).max(1e-9);
        let mut chart = ChartBuilder::on(root)
            .caption("Texel fit: loss against epochs", (FAMILY, 24))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d(0.0..max_x, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("mean squared error")
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .draw()?;
        let series: [(&str, usize, Column); 2] =
            [("train", 0, |p| p.1), ("validation", 1, |p| p.2)];
        for (label, index, value) in series {
            let c = colour(index);
            let line = self.0.iter().map(|p| (p.0 as f64, value(p)));
            chart
                .draw_series(LineSeries::new(line, c.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}
