//! `harness sprt`: the statistics of finished results, from their counts — to recompute a test
//! that ran elsewhere, or to check a match's report by hand.

use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use lab::elo::sprt_setup::{check, describe};
use lab::elo::{EloEstimate, Pentanomial, Trinomial};

use crate::cli::{counts, Counts, SprtOptions};

/// `harness sprt`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("results").required(true).args(["pentanomial", "wdl"])))]
pub struct SprtCalcArgs {
    /// Game-pair counts `LL,LD,DD,WD,WW` (DD counts draw-draw and win-loss pairs).
    #[arg(long, value_name = "LL,LD,DD,WD,WW", value_parser = counts::<5>)]
    pub pentanomial: Option<Counts>,
    /// Game counts `W,D,L` (when pairs were not recorded).
    #[arg(long, value_name = "W,D,L", value_parser = counts::<3>)]
    pub wdl: Option<Counts>,
    /// Elo under H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo under H1.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Error rates and model.
    #[command(flatten)]
    pub sprt: SprtOptions,
}

/// Prints Elo and nElo with their 95 % intervals, LOS, and the LLR against Wald's bounds.
pub fn run(args: &SprtCalcArgs) -> Result<ExitCode> {
    let sprt = args.sprt.rates().with_bounds(args.elo0, args.elo1);
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
