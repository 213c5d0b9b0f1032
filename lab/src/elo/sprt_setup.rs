//! A test as a user states it: bounds from `ELO0,ELO1` text and error rates, fishtest's presets,
//! the check that the parameters describe a test, and the test's state as text lines (what
//! `harness sprt` prints and a match report shows).

use anyhow::{bail, Context, Result};

use super::sprt::{Decision, EloModel, Sprt};
use super::EloEstimate;

/// A test's error rates and Elo scale, without its hypotheses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtRates {
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Scale of the hypotheses.
    pub model: EloModel,
}

impl SprtRates {
    /// fishtest's: α = β = 0.05, normalized Elo.
    pub const FISHTEST: Self = Self {
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };

    /// The test of `elo0` against `elo1` at these rates (unchecked; see [`check`]).
    pub fn with_bounds(self, elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
        }
    }
}

/// The test of `option ELO0,ELO1` (`match --sprt`, `tune --verify-sprt`) at `rates`, checked.
pub fn parse(option: &str, text: &str, rates: SprtRates) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .ok()
        .filter(|b: &Vec<f64>| b.len() == 2)
        .with_context(|| format!("{option} expects ELO0,ELO1 (two numbers), found `{text}`"))?;
    let sprt = rates.with_bounds(bounds[0], bounds[1]);
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
        SprtRates::FISHTEST.with_bounds(elo0, elo1)
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
        EloModel::Logistic => "Elo",
        EloModel::Normalized => "nElo",
    }
}
