//! Budget ladders: `match --ladder nodes=2000,8000,32000` plays the same plan once per limit (a
//! rung: a complete match in `DIR/nodes-2000/`, …) and sets each effect of a factorial design, or
//! each player's joint rating otherwise, side by side across the rungs — fishtest's STC → LTC
//! question for every effect at once. A trend per effect: the weighted least-squares slope of its
//! Elo against log₂ of the rung's budget (weights 1/se², se from each rung's bootstrap), with a
//! 95 % interval. One family for Holm's correction: every effect of every rung and every trend
//! (a ratings ladder: the trends alone, a rating being an estimate, not a test), so that "real"
//! in the ladder's report holds at 5 % familywise across all of it; `ladder.csv`, `report.md` and
//! `ladder.svg` in DIR.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use lab::elo::{phi, Z95};
use lab::report::figures;
use lab::report::md_table::{Align, MdTable};
use serde::{Deserialize, Serialize};

use super::figures::LadderPlot;
use super::limits::MoveLimit;
use super::plan::MatchPlan;
use super::ratings::{RatingRow, RATINGS_CSV};
use crate::factorial::effects::Effect;
use crate::factorial::report::EFFECTS_CSV;
use lab::elo::holm::holm;

/// The ladder's record in its directory (the command, for `--resume`, and the rungs).
pub use lab::run_dir::LADDER_JSON;
/// One row per effect and rung.
pub const LADDER_CSV: &str = "ladder.csv";
/// The familywise error rate the report marks effects and trends at.
const ALPHA: f64 = 0.05;

/// The rungs, cheapest first as given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    /// The command line that made it.
    pub command: Vec<String>,
    /// Each rung's limit, as `--limit` spells it.
    pub rungs: Vec<String>,
}

impl Ladder {
    /// `KEY=V1,V2,…` (`nodes`, `depth`, `movetime` or `tc`): at least two rungs, every one a
    /// valid limit, each budget larger than the one before.
    pub fn parse(spec: &str) -> Result<Self> {
        let expected = "expected --ladder KEY=V1,V2,... with KEY nodes, depth, movetime or tc, e.g. nodes=2000,8000,32000";
        let (key, values) = spec
            .split_once('=')
            .with_context(|| format!("--ladder `{spec}`: {expected}"))?;
        let rungs: Vec<String> = values
            .split(',')
            .map(|v| format!("{}={}", key.trim(), v.trim()))
            .collect();
        if rungs.len() < 2 {
            bail!("--ladder `{spec}`: a ladder needs two rungs or more ({expected})");
        }
        for r in &rungs {
            r.parse::<MoveLimit>()
                .map_err(|e| anyhow::anyhow!("--ladder rung `{r}`: {e}"))?;
        }
        let budgets: Vec<f64> = rungs.iter().map(|r| budget(r)).collect();
        if budgets.windows(2).any(|w| w[1] <= w[0]) {
            bail!("--ladder `{spec}`: the budgets must grow from rung to rung");
        }
        Ok(Self {
            command: std::env::args().collect(),
            rungs,
        })
    }

    /// `--ladder SPEC` for `plan`, checked before any game: the ladder sets every limit
    /// (`limits_given` is refused), plays every rung whole (`stops_early`, an SPRT or a shard, is
    /// refused) and compares joint ratings or effects (three players or a design). A resumed
    /// ladder keeps the command it recorded.
    pub fn for_match(
        spec: &str,
        plan: &MatchPlan,
        limits_given: bool,
        stops_early: bool,
    ) -> Result<Self> {
        if limits_given {
            bail!("--ladder sets every player's limit, rung by rung: give no --limit");
        }
        if stops_early {
            bail!(
                "--ladder plays every rung to its full number of pairs: give no --sprt or --shard"
            );
        }
        if plan.players.len() < 3 && plan.factorial.is_none() {
            bail!("--ladder compares joint ratings or factorial effects across budgets: give three or more players, or --factorial");
        }
        let mut ladder = Self::parse(spec)?;
        if let Some(recorded) = Self::read(&plan.out)? {
            ladder.command = recorded.command;
        }
        Ok(ladder)
    }

    /// The ladder recorded in `dir`, if it is a ladder's directory.
    pub fn read(dir: &Path) -> Result<Option<Self>> {
        let path = dir.join(LADDER_JSON);
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text)
            .map(Some)
            .with_context(|| format!("{}: not a ladder record", path.display()))
    }

    /// Records it in `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(LADDER_JSON);
        std::fs::write(&path, lab::json::to_lines(self))
            .with_context(|| format!("writing {}", path.display()))
    }

    /// The directory of each rung.
    pub fn rung_dir(dir: &Path, rung: &str) -> PathBuf {
        dir.join(rung.replace('=', "-"))
    }
}

/// The number a rung's budget grows with: nodes, depth, milliseconds, or a clock's base.
fn budget(rung: &str) -> f64 {
    let value = rung.split_once('=').map_or(rung, |(_, v)| v);
    let head = value.split(['+', '/']).next().unwrap_or(value);
    head.parse().unwrap_or(f64::NAN)
}

/// One effect at one rung.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderRow {
    /// The effect, or the player's name.
    pub effect: String,
    /// The rung's limit.
    pub rung: String,
    /// log₂ of its budget.
    pub log2_budget: f64,
    /// Elo at this rung.
    pub elo: f64,
    /// 95 % interval.
    pub elo_lo: f64,
    /// 95 % interval.
    pub elo_hi: f64,
    /// Standard error.
    pub se: f64,
    /// Two-sided p of "no effect" at this rung (a design's effect; none for a player's rating).
    pub p: Option<f64>,
    /// Holm-adjusted across the ladder's whole family ([`correct`]).
    pub p_holm: Option<f64>,
}

/// One effect's trend across the rungs.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// The effect.
    pub effect: String,
    /// Elo per doubling of the budget.
    pub slope: f64,
    /// Its standard error.
    pub se: f64,
    /// Two-sided p of "no trend".
    pub p: f64,
    /// Holm-adjusted across the ladder's whole family ([`correct`]).
    pub p_holm: f64,
}

/// Reads each rung's effects (or ratings), writes `ladder.csv`, the figure and `report.md`.
pub fn report(dir: &Path, ladder: &Ladder) -> Result<Vec<Trend>> {
    let mut rows = Vec::new();
    for rung in &ladder.rungs {
        rows.extend(rung_rows(&Ladder::rung_dir(dir, rung), rung)?);
    }
    let mut trends = trends(&rows);
    let family = correct(&mut rows, &mut trends);
    let path = dir.join(LADDER_CSV);
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    for r in &rows {
        w.serialize(r)?;
    }
    w.flush()?;
    let figure = figures::save(dir, &plot(&rows, &trends))?;
    let md = markdown(ladder, &rows, &trends, family, &figure);
    lab::report::page::write(dir, &md)?;
    Ok(trends)
}

/// A rung's effects (a factorial design) or its players' joint ratings.
fn rung_rows(dir: &Path, rung: &str) -> Result<Vec<LadderRow>> {
    let x = budget(rung).log2();
    let row = |effect: String, elo: f64, lo: f64, hi: f64, se: f64, p| LadderRow {
        effect,
        rung: rung.to_string(),
        log2_budget: x,
        elo,
        elo_lo: lo,
        elo_hi: hi,
        se,
        p,
        p_holm: None,
    };
    if dir.join(EFFECTS_CSV).exists() {
        let effects: Vec<Effect> = super::output::read_rows(&dir.join(EFFECTS_CSV))?;
        return Ok(effects
            .into_iter()
            .map(|e| row(e.effect, e.elo, e.elo_lo, e.elo_hi, e.se, Some(e.p)))
            .collect());
    }
    if dir.join(RATINGS_CSV).exists() {
        let ratings: Vec<RatingRow> = super::output::read_rows(&dir.join(RATINGS_CSV))?;
        return Ok(ratings
            .into_iter()
            .filter(|r| r.elo_hi > r.elo_lo)
            .map(|r| {
                let se = (r.elo_hi - r.elo_lo) / (2.0 * Z95);
                row(r.name, r.elo, r.elo_lo, r.elo_hi, se, None)
            })
            .collect());
    }
    bail!(
        "{}: neither {EFFECTS_CSV} nor {RATINGS_CSV} (a ladder needs three or more players or a --factorial design)",
        dir.display()
    )
}

/// Weighted least squares of Elo on log₂ budget per effect, weights 1/se² (`p_holm` left for
/// [`correct`]).
pub fn trends(rows: &[LadderRow]) -> Vec<Trend> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.effect.as_str()) {
            names.push(&r.effect);
        }
    }
    names
        .iter()
        .map(|name| {
            let pts: Vec<&LadderRow> = rows.iter().filter(|r| r.effect == *name).collect();
            let w: Vec<f64> = pts.iter().map(|r| 1.0 / r.se.powi(2)).collect();
            let sw: f64 = w.iter().sum();
            let mx = pts
                .iter()
                .zip(&w)
                .map(|(r, w)| w * r.log2_budget)
                .sum::<f64>()
                / sw;
            let my = pts.iter().zip(&w).map(|(r, w)| w * r.elo).sum::<f64>() / sw;
            let sxx: f64 = pts
                .iter()
                .zip(&w)
                .map(|(r, w)| w * (r.log2_budget - mx).powi(2))
                .sum();
            let sxy: f64 = pts
                .iter()
                .zip(&w)
                .map(|(r, w)| w * (r.log2_budget - mx) * (r.elo - my))
                .sum();
            let (slope, se) = (sxy / sxx, (1.0 / sxx).sqrt());
            Trend {
                effect: name.to_string(),
                slope,
                se,
                p: 2.0 * (1.0 - phi((slope / se).abs())),
                p_holm: f64::NAN,
            }
        })
        .collect()
}

/// Holm's correction across the ladder's one family — every rung's effects that carry a p, then
/// every trend — written into their `p_holm`; returns the family's size.
pub fn correct(rows: &mut [LadderRow], trends: &mut [Trend]) -> usize {
    let mut p: Vec<f64> = rows.iter().filter_map(|r| r.p).collect();
    p.extend(trends.iter().map(|t| t.p));
    let mut adjusted = holm(&p).into_iter();
    for r in rows.iter_mut().filter(|r| r.p.is_some()) {
        r.p_holm = adjusted.next();
    }
    for (t, a) in trends.iter_mut().zip(adjusted) {
        t.p_holm = a;
    }
    p.len()
}

/// Main effects (and every player's rating) and the interactions whose trend is significant: 21
/// lines of a six-factor design would hide each other.
fn plot(rows: &[LadderRow], trends: &[Trend]) -> LadderPlot {
    LadderPlot {
        series: trends
            .iter()
            .filter(|t| !t.effect.contains('×') || t.p_holm < ALPHA)
            .map(|t| {
                let pts = rows
                    .iter()
                    .filter(|r| r.effect == t.effect)
                    .map(|r| (r.log2_budget, r.elo, r.elo_lo, r.elo_hi))
                    .collect();
                (t.effect.clone(), pts)
            })
            .collect(),
        rungs: {
            let mut seen: Vec<(f64, String)> = Vec::new();
            for r in rows {
                if !seen.iter().any(|(x, _)| *x == r.log2_budget) {
                    seen.push((r.log2_budget, r.rung.clone()));
                }
            }
            seen
        },
    }
}

fn markdown(
    ladder: &Ladder,
    rows: &[LadderRow],
    trends: &[Trend],
    family: usize,
    figure: &str,
) -> String {
    let mut md = format!(
        "# Budget ladder: {}\n\nEach rung is a complete match in its own directory ({}). Per \
         effect, Elo at each rung with its 95 % interval, and the trend: the weighted least-squares \
         slope of Elo on log₂ of the budget (Elo per doubling; weights 1/se²), its 95 % interval, \
         and its p. {} An estimate or trend marked ** is real at 5 % familywise across all of \
         them (a marked trend grows or shrinks with the budget beyond what the rungs' noise \
         explains). The figure shows the main effects and the interactions whose trend is \
         marked.\n\n",
        ladder.rungs.join(", "),
        ladder
            .rungs
            .iter()
            .map(|r| format!("`{}/`", r.replace('=', "-")))
            .collect::<Vec<_>>()
            .join(", "),
        family_text(ladder, rows, trends, family)
    );
    let mut table = MdTable::new()
        .left("effect")
        .columns(&ladder.rungs, Align::Left)
        .columns(["per doubling", "p (Holm, ladder)"], Align::Left);
    for t in trends {
        let at_rungs = ladder.rungs.iter().map(|rung| {
            rows.iter()
                .find(|r| r.effect == t.effect && &r.rung == rung)
                .map_or("–".to_string(), |r| {
                    let real = r.p_holm.is_some_and(|p| p < ALPHA);
                    format!(
                        "{:+.1} [{:+.1}, {:+.1}]{}",
                        r.elo,
                        r.elo_lo,
                        r.elo_hi,
                        if real { " **" } else { "" }
                    )
                })
        });
        let trend = [
            format!("{:+.1} ± {:.1}", t.slope, Z95 * t.se),
            lab::report::format::pvalue(t.p_holm),
        ];
        let effect = format!("{}{}", t.effect, if t.p_holm < ALPHA { " **" } else { "" });
        table.row(std::iter::once(effect).chain(at_rungs).chain(trend));
    }
    md += &table.render();
    md += &format!("\n{}\n", figures::markdown(figure, figure));
    md
}

/// The sentence that names the correction's family and its size.
fn family_text(ladder: &Ladder, rows: &[LadderRow], trends: &[Trend], family: usize) -> String {
    let tested = rows.iter().filter(|r| r.p.is_some()).count();
    if tested == 0 {
        return format!(
            "p is Holm-adjusted across the {family} trends, one family (a player's rating at a \
             rung is an estimate, not a test)."
        );
    }
    format!(
        "One family for Holm's correction: the {family} tests of this ladder — the {tested} \
         effects of its {} rungs ({} a rung) and the {} trends. Each rung's own report adjusts \
         over its effects alone; those per-rung p are not used here, and the raw and \
         ladder-adjusted p of every effect are in `{LADDER_CSV}` (`p`, `p_holm`).",
        ladder.rungs.len(),
        tested / ladder.rungs.len().max(1),
        trends.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_parse_and_refuse_what_they_cannot_play() {
        let l = Ladder::parse("nodes=2000,8000,32000").unwrap();
        assert_eq!(l.rungs, ["nodes=2000", "nodes=8000", "nodes=32000"]);
        assert_eq!(budget("tc=1+0.01"), 1.0);
        let err = |s: &str| Ladder::parse(s).unwrap_err().to_string();
        assert!(err("nodes=2000").contains("two rungs"));
        assert!(err("nodes=8000,2000").contains("must grow"));
        assert!(err("bogus=1,2").contains("rung `bogus=1`"));
        assert!(err("2000,8000").contains("expected --ladder KEY="));
    }

    /// Coverage from known truth: effects on a line of 10 Elo per doubling at 1k, 4k and 16k
    /// nodes, each measured with a known se (6, 8, 10) and normal noise; the slope's 95 %
    /// interval must cover 10 in 94–96 % of 4,000 simulations.
    #[test]
    fn the_trend_interval_covers_the_true_slope() {
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut normal = || {
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let rungs = [(1000.0f64, 6.0), (4000.0, 8.0), (16000.0, 10.0)];
        let sims = 4000;
        let covered = (0..sims)
            .filter(|_| {
                let rows: Vec<LadderRow> = rungs
                    .iter()
                    .map(|&(nodes, se)| {
                        let x = nodes.log2();
                        let elo = 5.0 + 10.0 * x + se * normal();
                        LadderRow {
                            effect: "a".into(),
                            rung: format!("nodes={nodes}"),
                            log2_budget: x,
                            elo,
                            elo_lo: elo - Z95 * se,
                            elo_hi: elo + Z95 * se,
                            se,
                            p: None,
                            p_holm: None,
                        }
                    })
                    .collect();
                let t = &trends(&rows)[0];
                (t.slope - 10.0).abs() <= Z95 * t.se
            })
            .count();
        let rate = covered as f64 / sims as f64;
        assert!((0.94..=0.96).contains(&rate), "coverage {rate}");
    }

    #[test]
    fn the_trend_is_the_weighted_slope_per_doubling() {
        // Elo 10, 20, 30 at 1, 2, 4 (log₂ 0, 1, 2), equal se 5: slope 10, se 5/√2.
        let rows: Vec<LadderRow> = [(0.0, 10.0), (1.0, 20.0), (2.0, 30.0)]
            .iter()
            .map(|&(x, y)| LadderRow {
                effect: "a".into(),
                rung: format!("nodes={}", 2f64.powf(x)),
                log2_budget: x,
                elo: y,
                elo_lo: y - 9.8,
                elo_hi: y + 9.8,
                se: 5.0,
                p: None,
                p_holm: None,
            })
            .collect();
        let t = &trends(&rows)[0];
        assert!((t.slope - 10.0).abs() < 1e-12 && (t.se - 5.0 / 2f64.sqrt()).abs() < 1e-12);
        assert!(t.p < 0.05);
    }

    /// Whether (the ladder's one family, Holm per table) finds anything in one ladder of 3 rungs
    /// of a full 2^3 design (6 effects) whose true effects are all 0, 4, 6 and 8 pairs per pairing.
    fn false_positives(rep: u64) -> (bool, bool) {
        use crate::factorial::effects::estimate;
        use crate::factorial::tests::{design, simulate};
        let d = design(3, &[]);
        let mut rows = Vec::new();
        let mut per_table = false;
        for (r, pairs) in [4usize, 6, 8].into_iter().enumerate() {
            let seed = 40_000 + 10 * rep + r as u64;
            let data = simulate(&d, &[0.0; 6], pairs, seed);
            let b = lab::elo::ratings::Bootstrap {
                resamples: 60,
                seed,
            };
            let effects = estimate(&d, &data, b).expect("a round robin of 8 points is fitted");
            per_table |= effects.iter().any(|e| e.p_holm < ALPHA);
            let x = (1000.0 * 4f64.powi(r as i32)).log2();
            rows.extend(effects.into_iter().map(|e| LadderRow {
                rung: format!("nodes={}", 1000 * 4usize.pow(r as u32)),
                log2_budget: x,
                p: Some(e.p),
                p_holm: None,
                effect: e.effect,
                elo: e.elo,
                elo_lo: e.elo_lo,
                elo_hi: e.elo_hi,
                se: e.se,
            }));
        }
        let mut t = trends(&rows);
        let by_trends = holm(&t.iter().map(|t| t.p).collect::<Vec<_>>());
        per_table |= by_trends.iter().any(|&p| p < ALPHA);
        assert_eq!(
            correct(&mut rows, &mut t),
            3 * 6 + 6,
            "the family: 18 effects, 6 trends"
        );
        let ladder = rows.iter().any(|r| r.p_holm.is_some_and(|p| p < ALPHA))
            || t.iter().any(|t| t.p_holm < ALPHA);
        (ladder, per_table)
    }

    /// The familywise error from known truth: 300 simulated ladders with no true effect (each
    /// effect's se from 60 bootstrap resamples, to keep the test short). With the
    /// ladder's one family, something is called real in at most 7 % (5 % and 1.6 binomial
    /// standard errors of 300); Holm within each rung's table and among the trends alone calls
    /// something real far more often (about 1 − 0.95⁴ ≈ 19 %: four families).
    #[test]
    fn one_family_keeps_the_familywise_error_of_a_null_ladder_at_five_percent() {
        let reps = 300;
        let (mut ladder, mut per_table) = (0, 0);
        for rep in 0..reps {
            let (a, b) = false_positives(rep);
            ladder += usize::from(a);
            per_table += usize::from(b);
        }
        let rate = |n: usize| n as f64 / reps as f64;
        eprintln!(
            "null ladders with a false positive: one family {:.3}, Holm per table {:.3}",
            rate(ladder),
            rate(per_table)
        );
        assert!(rate(ladder) <= 0.07, "one family: {}", rate(ladder));
        assert!(rate(per_table) >= 0.10, "per table: {}", rate(per_table));
    }

    #[test]
    fn the_family_takes_every_tested_effect_and_every_trend() {
        let row = |effect: &str, rung: &str, p: Option<f64>| LadderRow {
            effect: effect.into(),
            rung: rung.into(),
            log2_budget: if rung == "a" { 0.0 } else { 1.0 },
            elo: 10.0,
            elo_lo: 0.0,
            elo_hi: 20.0,
            se: 5.0,
            p,
            p_holm: None,
        };
        let mut rows = vec![row("x", "a", Some(0.01)), row("x", "b", Some(0.04))];
        let mut t = trends(&rows);
        // Three tests, adjusted together as the independent holm of the three p gives.
        assert_eq!(correct(&mut rows, &mut t), 3);
        let mut all = vec![0.01, 0.04, t[0].p];
        let expected = holm(&all);
        all = vec![
            rows[0].p_holm.unwrap(),
            rows[1].p_holm.unwrap(),
            t[0].p_holm,
        ];
        assert_eq!(all, expected);
        let mut ratings = vec![row("p1", "a", None), row("p1", "b", None)];
        let mut t = trends(&ratings);
        assert_eq!(
            correct(&mut ratings, &mut t),
            1,
            "a ratings ladder: the trends alone"
        );
        assert!(ratings.iter().all(|r| r.p_holm.is_none()));
    }
}
