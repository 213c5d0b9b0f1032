//! `harness sprt`: the statistics of finished results, from their counts — to recompute a test
//! that ran elsewhere, or to check a match's report by hand.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::cli::{Counts, SprtCalcArgs};
use crate::elo::sprt::{Decision, Sprt};
use crate::elo::{EloEstimate, Pentanomial, Trinomial};

/// Prints Elo and nElo with their 95 % intervals, LOS, and the LLR against Wald's bounds.
pub fn run(args: &SprtCalcArgs) -> Result<ExitCode> {
    let sprt = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.sprt.alpha,
        beta: args.sprt.beta,
        model: args.sprt.model,
    };
    check(&sprt)?;
    let (counts, estimate, what) = match (&args.pentanomial, &args.wdl) {
        (Some(Counts(p)), _) => {
            let p = Pentanomial {
                ll: p[0],
                ld: p[1],
                dd_wl: p[2],
                wd: p[3],
                ww: p[4],
            };
            let text = format!(
                "{} pairs ({} games): LL {} LD {} DD+WL {} WD {} WW {}",
                p.pairs(),
                2 * p.pairs(),
                p.ll,
                p.ld,
                p.dd_wl,
                p.wd,
                p.ww
            );
            (p.counts().to_vec(), EloEstimate::from_pairs(&p), text)
        }
        (None, Some(Counts(t))) => {
            let t = Trinomial {
                wins: t[0],
                draws: t[1],
                losses: t[2],
            };
            let text = format!(
                "{} games: W {} D {} L {} (draw ratio {:.1} %)",
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.draw_ratio()
            );
            (t.counts().to_vec(), EloEstimate::from_games(&t), text)
        }
        (None, None) => bail!("expected --pentanomial LL,LD,DD,WD,WW or --wdl W,D,L"),
    };
    println!("{what}");
    print!("{}", describe(&sprt, &counts, estimate.as_ref()));
    Ok(ExitCode::SUCCESS)
}

/// The test of `option ELO0,ELO1` (`match --sprt`, `tune --verify-sprt`) with `options`' error
/// rates and model, checked.
pub fn parse(option: &str, text: &str, options: crate::cli::SprtOptions) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .ok()
        .filter(|b: &Vec<f64>| b.len() == 2)
        .with_context(|| format!("{option} expects ELO0,ELO1 (two numbers), found `{text}`"))?;
    let sprt = Sprt {
        elo0: bounds[0],
        elo1: bounds[1],
        alpha: options.alpha,
        beta: options.beta,
        model: options.model,
    };
    check(&sprt)?;
    Ok(sprt)
}

/// fishtest's test presets: the bounds its "Create New Test" page fills in
/// (`server/fishtest/templates/tests_run.html.j2`, `presetBounds`: standard STC [0, 2], standard
/// LTC [0.5, 2.5], regression [−1.75, 0.25], normalized Elo, α = β = 0.05) and the clocks of its
/// short and long tests (10 + 0.1 and 60 + 0.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SprtPreset {
    /// Short time control, a gain: [0, 2] nElo at 10 + 0.1.
    Stc,
    /// Long time control, a gain: [0.5, 2.5] nElo at 60 + 0.6.
    Ltc,
    /// Non-regression (a simplification): [−1.75, 0.25] nElo at 10 + 0.1.
    Nonreg,
}

impl SprtPreset {
    /// The SPRT.
    pub fn sprt(self) -> Sprt {
        let (elo0, elo1) = match self {
            Self::Stc => (0.0, 2.0),
            Self::Ltc => (0.5, 2.5),
            Self::Nonreg => (-1.75, 0.25),
        };
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: crate::elo::sprt::EloModel::Normalized,
        }
    }

    /// The clock, as `--limit` spells it.
    pub fn clock(self) -> &'static str {
        match self {
            Self::Stc | Self::Nonreg => "tc=10+0.1",
            Self::Ltc => "tc=60+0.6",
        }
    }
}

/// The parameters must describe a test.
pub fn check(sprt: &Sprt) -> Result<()> {
    for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
        if !(p > 0.0 && p < 0.5) {
            bail!("--{name} must lie strictly between 0 and 0.5, found {p}");
        }
    }
    if sprt.elo0 >= sprt.elo1 {
        bail!(
            "the SPRT needs elo0 < elo1, found elo0 {} and elo1 {}",
            sprt.elo0,
            sprt.elo1
        );
    }
    Ok(())
}

/// The estimate and the test's state as text lines (also the report's).
pub fn describe(sprt: &Sprt, counts: &[u64], estimate: Option<&EloEstimate>) -> String {
    let mut out = String::new();
    match estimate {
        Some(e) => {
            out.push_str(&format!(
                "Score  {:.2} %   LOS {:.2} %\nElo    {:+.2} ± {:.2} (95 %)\nnElo   {:+.2} ± {:.2} (95 %)\n",
                100.0 * e.score,
                100.0 * e.los,
                e.elo,
                e.elo95,
                e.nelo,
                e.nelo95
            ));
        }
        None => out.push_str("Elo    undefined (no games, or every result the same)\n"),
    }
    let llr = sprt.llr(counts);
    let (lower, upper) = sprt.bounds();
    let verdict = match sprt.decide(llr) {
        Decision::H1 => "H1 accepted",
        Decision::H0 => "H0 accepted",
        Decision::Continue => "continue",
    };
    out.push_str(&format!(
        "SPRT   {} [{}, {}], alpha {}, beta {}: LLR {:.3} ({:.3}, {:.3}) → {verdict}\n",
        model_name(sprt),
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        llr,
        lower,
        upper
    ));
    out
}

fn model_name(sprt: &Sprt) -> &'static str {
    match sprt.model {
        crate::elo::sprt::EloModel::Logistic => "Elo",
        crate::elo::sprt::EloModel::Normalized => "nElo",
    }
}
