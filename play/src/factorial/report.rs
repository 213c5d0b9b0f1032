//! A design's effects in the match report: `effects.csv`, the section (design, generators,
//! schedule, one row per effect with its interval and p Holm-adjusted across the effects of this
//! design, a family the text names), the best combination chosen on one half of the games and
//! estimated on the other ([`super::best`]), `effects.svg` and, for each interaction that
//! survives the correction, `interaction-A-B.svg`.

use std::path::Path;

use anyhow::{Context, Result};
use lab::elo::ratings::{Bootstrap, Pair};
use lab::report::figures;
use lab::report::figures::EloBars;
use lab::report::format::pvalue;
use lab::report::md_table::{Align, MdTable};

use super::best::{choose, predict, split_half, Halves};
use super::effects::{estimate, Effect};
use super::figures::InteractionPlot;
use super::Design;

/// The effects table.
pub const EFFECTS_CSV: &str = "effects.csv";
/// The best combination as data (split-half and in-sample), written beside the effects.
pub const BEST_JSON: &str = "best.json";
/// The familywise error rate the report flags effects at.
const ALPHA: f64 = 0.05;

/// Where a design's report sits: what its correction's family is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// A match of its own.
    Alone,
    /// One rung of a ladder, whose report corrects across every rung.
    Rung,
}

/// Writes the effects of `design` fitted to `pairings` (and the best combination, from `halves`
/// of the same games) into `dir`; returns the report section.
pub fn write(
    dir: &Path,
    design: &Design,
    pairings: &[Vec<Pair>],
    halves: &Halves,
    setting: Setting,
) -> Result<String> {
    let mut md = format!("## Factorial effects\n\nDesign: {}.", design.describe());
    let effects = match estimate(design, pairings, Bootstrap::default()) {
        Ok(e) => e,
        Err(e) => {
            // No best combination either: a best.json of an earlier fit must not stay beside it.
            let _ = std::fs::remove_file(dir.join(BEST_JSON));
            return Ok(md + &format!(" Not fitted: {e}.\n\n"));
        }
    };
    let path = dir.join(EFFECTS_CSV);
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    for e in &effects {
        w.serialize(e)?;
    }
    w.flush()?;
    let factors: Vec<String> = design
        .factors
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let letter = super::fraction::LETTERS[i] as char;
            format!("{letter} `{}` ({} → {})", f.key, f.off, f.on)
        })
        .collect();
    md.push_str(&format!(
        " Factors: {}. Every point played every other (round robin). Model: rating = Σ βᵢxᵢ + \
         Σ βᵢⱼxᵢxⱼ with x = ±1, fitted by the joint-ratings likelihood; an effect is 2β in Elo \
         (a main effect: the mean rating with the factor at its second value minus at its first). \
         95 % intervals from 1,000 bootstrap resamples of game pairs {}; p from the bootstrap \
         standard error, Holm-adjusted across the {} effects of this design: the family is this \
         table{}.{}\n\n",
        factors.join(", "),
        lab::elo::ratings::scheme(lab::elo::ratings::stratified(pairings)),
        effects.len(),
        match setting {
            Setting::Alone => "",
            Setting::Rung =>
                " (this rung alone: the ladder's report, `../report.md`, corrects across every \
                 effect of every rung and the trends)",
        },
        if design.generators.is_empty() {
            String::new()
        } else {
            " In this fraction each main effect and two-factor interaction is aliased with \
             interactions of three or more factors only (assumed negligible)."
                .to_string()
        }
    ));
    let mut table = MdTable::new()
        .left("effect")
        .right("Elo")
        .left("95 % interval")
        .columns(["se", "p", "p (Holm, this design)"], Align::Right);
    for e in &effects {
        table.row([
            format!("{}{}", e.effect, if e.p_holm < ALPHA { " **" } else { "" }),
            format!("{:+.1}", e.elo),
            format!("[{:+.1}, {:+.1}]", e.elo_lo, e.elo_hi),
            format!("{:.1}", e.se),
            pvalue(e.p),
            pvalue(e.p_holm),
        ]);
    }
    md += &table.render();
    md += &format!(
        "\n** Holm-adjusted p < 0.05 across the {} effects of this design.\n\n",
        effects.len()
    );
    let (section, best) = best_section(design, &effects, halves);
    md += &section;
    let path = dir.join(BEST_JSON);
    std::fs::write(&path, lab::json::to_lines(&best))
        .with_context(|| format!("writing {}", path.display()))?;
    let mut names = vec![figures::save(dir, &bars(&effects))?];
    for plot in interactions(design, &effects, pairings) {
        names.push(figures::save(dir, &plot)?);
    }
    for n in names {
        md += &format!("{}\n", figures::markdown(&n, &n));
    }
    md.push('\n');
    Ok(md)
}

/// The best combination, chosen on half A and estimated on half B, then the in-sample figure: the
/// report's section and the same figures as data (`best.json`).
fn best_section(
    design: &Design,
    effects: &[Effect],
    halves: &Halves,
) -> (String, serde_json::Value) {
    let k = design.factors.len();
    let (a, b) = halves.sizes();
    let mut md = format!(
        "### The best combination\n\nChosen on one half of the games and estimated on the other, \
         so that choosing the largest of 2^{k} = {} noisy predictions does not inflate the \
         estimate (the winner's curse). The games are split by their opening, so that no \
         opening is in both halves (a book that cycles repeats openings across pairs): the \
         pairs on an opening whose id hashes even (FNV-1a) go to half A ({a} pairs), the \
         others to half B ({b} pairs). The effects fitted to half A rank every combination by its \
         predicted rating θ = Σ (e/2)·Πx; the highest is estimated from the effects fitted to \
         half B alone, in Elo over the average of all {} combinations (θ's zero, not the \
         design's base player), with a 95 % interval from {} bootstrap resamples of half B's \
         pairs.\n\n",
        1u64 << k,
        1u64 << k,
        Bootstrap::default().resamples
    );
    let best = if a == 0 || b == 0 {
        Err("a half has no games".to_string())
    } else {
        split_half(design, halves, Bootstrap::default()).map_err(|e| e.to_string())
    };
    let split = match best {
        Ok(best) => {
            let shown = format!(
                "{:+.1} Elo [{:+.1}, {:+.1}]",
                best.elo, best.elo_lo, best.elo_hi
            );
            md += &format!(
                "- chosen on half A, estimated on half B: `{}` ({}): **{shown}**; as settings: `{}`\n",
                design.point_name(&best.levels),
                if best.played {
                    "a point the design played"
                } else {
                    "not a point of this fraction: its prediction rests on the model alone"
                },
                settings(design, &best.levels)
            );
            serde_json::json!({
                "combination": design.point_name(&best.levels),
                "played": best.played,
                "elo": best.elo,
                "low": best.elo_lo,
                "high": best.elo_hi,
                "shown": shown,
                "settings": settings(design, &best.levels),
            })
        }
        Err(e) => {
            md += &format!("- not estimated: {e}\n");
            serde_json::json!({"not_estimated": e})
        }
    };
    let elo: Vec<f64> = effects.iter().map(|e| e.elo).collect();
    let inside = choose(design, &elo);
    let inside_elo = predict(design, &elo, &inside);
    md += &format!(
        "- in-sample, biased upward (chosen and estimated on all games; not an estimate of its \
         worth): `{}`, {:+.1} Elo\n\n",
        design.point_name(&inside),
        inside_elo
    );
    let data = serde_json::json!({
        "split_half": split,
        "in_sample": {
            "combination": design.point_name(&inside),
            "elo": inside_elo,
            "shown": format!("{inside_elo:+.1}"),
        },
    });
    (md, data)
}

/// A combination as the `KEY=VALUE` list that plays it.
fn settings(design: &Design, levels: &[i8]) -> String {
    let values = design
        .factors
        .iter()
        .zip(levels)
        .map(|(f, &l)| format!("{}={}", f.key, if l > 0 { &f.on } else { &f.off }));
    values.collect::<Vec<_>>().join(",")
}

fn bars(effects: &[Effect]) -> EloBars {
    EloBars {
        bars: effects
            .iter()
            .map(|e| (e.effect.clone(), e.elo, e.elo_lo, e.elo_hi))
            .collect(),
        unit: "Elo".into(),
        title: "Main effects and two-factor interactions, 95 % bootstrap interval".into(),
        file: "effects".into(),
    }
}

/// For each interaction significant after Holm: the mean joint rating of the points at each of
/// the four level combinations of its two factors.
fn interactions(
    design: &Design,
    effects: &[Effect],
    pairings: &[Vec<Pair>],
) -> Vec<InteractionPlot> {
    let players = design.points.len();
    let Ok(fit) = lab::elo::davidson::fit(
        players,
        &lab::elo::ratings::tallies(players, pairings.iter().flatten()),
        0,
    ) else {
        return Vec::new();
    };
    let elo = fit.elo();
    let terms = super::effects::terms(design);
    effects
        .iter()
        .zip(&terms)
        .filter(|(e, (_, f))| f.len() == 2 && e.p_holm < ALPHA)
        .map(|(_, (_, f))| {
            let (a, b) = (f[0], f[1]);
            let mean = |la: i8, lb: i8| {
                let r: Vec<f64> = design
                    .points
                    .iter()
                    .zip(&elo)
                    .filter(|(x, _)| x[a] == la && x[b] == lb)
                    .map(|(_, r)| *r)
                    .collect();
                r.iter().sum::<f64>() / r.len().max(1) as f64
            };
            let (fa, fb) = (&design.factors[a], &design.factors[b]);
            InteractionPlot {
                file: format!("interaction-{}-{}", fa.name, fb.name),
                x_factor: fa.name.clone(),
                x_levels: [fa.off.clone(), fa.on.clone()],
                lines: [-1i8, 1].map(|lb| {
                    let label = format!("{} = {}", fb.name, if lb > 0 { &fb.on } else { &fb.off });
                    (label, [mean(-1, lb), mean(1, lb)])
                }),
            }
        })
        .collect()
}
