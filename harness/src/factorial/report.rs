//! A design's effects in the match report: `effects.csv`, the section (design, generators,
//! schedule, one row per effect with its interval and Holm-adjusted p), `effects.png` and, for
//! each interaction that survives the correction, `interaction-A-B.png`.

use std::path::Path;

use anyhow::{Context, Result};

use super::effects::{estimate, Effect};
use super::Design;
use crate::arena::figures::{EloBars, InteractionPlot};
use crate::elo::ratings::{Bootstrap, Pair};
use crate::report::figures;
use crate::report::format::pvalue;
use crate::report::md_table::{Align, MdTable};

/// The effects table.
pub const EFFECTS_CSV: &str = "effects.csv";
/// The familywise error rate the report flags effects at.
const ALPHA: f64 = 0.05;

/// Writes the effects of `design` fitted to `pairings` into `dir`; returns the report section.
pub fn write(dir: &Path, design: &Design, pairings: &[Vec<Pair>]) -> Result<String> {
    let mut md = format!("## Factorial effects\n\nDesign: {}.", design.describe());
    let effects = match estimate(design, pairings, Bootstrap::default()) {
        Ok(e) => e,
        Err(e) => return Ok(md + &format!(" Not fitted: {e}.\n\n")),
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
         standard error, Holm-adjusted over all {} effects.{}\n\n",
        factors.join(", "),
        crate::elo::ratings::scheme(crate::elo::ratings::stratified(pairings)),
        effects.len(),
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
        .columns(["se", "p", "p (Holm)"], Align::Right);
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
    md += "\n** Holm-adjusted p < 0.05.\n\n";
    let mut names = vec![figures::save(dir, &bars(&effects))?];
    for plot in interactions(design, &effects, pairings) {
        names.push(figures::save(dir, &plot)?);
    }
    for n in names {
        md += &format!("![{n}]({n}.png)\n");
    }
    md.push('\n');
    Ok(md)
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
    let Ok(fit) = crate::elo::davidson::fit(
        players,
        &crate::elo::ratings::tallies(players, pairings.iter().flatten()),
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
