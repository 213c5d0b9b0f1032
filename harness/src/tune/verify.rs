//! `tune --verify PAIRS`: the tuned player against the start in a match on openings the tune never
//! played (the book from offset `seed + pairs of the tune`), with an SPRT, in `verify/` — an
//! ordinary match directory (games.pgn, report.md) — and its result added to the tune's report.

use std::fmt::Write;

use anyhow::{Context, Result};

use super::TunePlan;
use crate::arena::plan::{MatchPlan, PlayerEntry, Schedule};
use crate::arena::player::PlayerKind;
use crate::elo::sprt::{Decision, EloModel, Sprt};
use crate::run_flow::Ended;

/// The verification's directory inside the tune's.
pub const VERIFY_DIR: &str = "verify";

/// What the verification found.
#[derive(Debug, Clone)]
pub struct Verified {
    /// Tuned against start, in words (Elo ± interval, games, LLR, decision).
    pub line: String,
}

/// Reads `--verify-sprt ELO0,ELO1` (fishtest's error rates, normalized Elo).
pub fn parse_sprt(text: &str) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .ok()
        .filter(|b: &Vec<f64>| b.len() == 2)
        .with_context(|| {
            format!("--verify-sprt expects ELO0,ELO1 (two numbers), found `{text}`")
        })?;
    let sprt = Sprt {
        elo0: bounds[0],
        elo1: bounds[1],
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    crate::commands::sprt::check(&sprt)?;
    Ok(sprt)
}

/// The match plan of the verification.
pub fn plan_of(plan: &TunePlan, theta: &[f64], pairs: u64, sprt: Sprt) -> MatchPlan {
    let entry = |id: &str, name: &str, kind: PlayerKind| PlayerEntry {
        id: id.into(),
        name: name.into(),
        description: match &kind {
            PlayerKind::Builtin(c) => serde_json::to_value(c).expect("configs serialise"),
            PlayerKind::Uci { path, options, .. } => {
                serde_json::json!({"path": path, "options": options})
            }
        },
        kind,
        limit: plan.limit,
    };
    MatchPlan {
        name: format!("{}-verify", plan.name),
        players: vec![
            entry("p00", "start", plan.player(&plan.start())),
            entry("p01", "tuned", plan.player(theta)),
        ],
        schedule: Schedule::Gauntlet,
        pairings: vec![(0, 1)],
        pairs,
        book: plan.book.clone(),
        offset: plan.seed + plan.total_pairs(),
        rules: plan.rules,
        sprt: Some(sprt),
        threads: plan.threads,
        out: plan.out.join(VERIFY_DIR),
        range: 0..pairs,
        shard: None,
    }
}

/// Plays (or resumes) the verification and adds it to the tune's report; `None` if a signal
/// stopped it.
pub fn run(
    plan: &TunePlan,
    theta: &[f64],
    pairs: u64,
    sprt: &str,
    quiet: bool,
) -> Result<Option<Verified>> {
    let sprt = parse_sprt(sprt)?;
    let match_plan = plan_of(plan, theta, pairs, sprt);
    if plan.seed + plan.total_pairs() + pairs > plan.seed + plan.book.openings.len() as u64 {
        eprintln!(
            "warning: the tune and its verification need {} openings, the book has {}: some verification openings repeat the tune's",
            plan.total_pairs() + pairs,
            plan.book.openings.len()
        );
    }
    let resume = match_plan.out.join(crate::run_dir::MANIFEST).exists();
    if let Ended::Interrupted(_) = crate::arena::run::play(&match_plan, resume, quiet)? {
        return Ok(None);
    }
    let results = crate::arena::report::write(&match_plan.out)?;
    crate::arena::report::print_results(&results);
    let r = results
        .first()
        .context("the verification has one pairing")?;
    let llr = r.llr_trace.last().map_or(0.0, |p| p.1);
    let decision = match sprt.decide(llr) {
        Decision::H1 => "H1 accepted (the tuned player is stronger)",
        Decision::H0 => "H0 accepted (no gain of the size tested)",
        Decision::Continue => "undecided after the pairs played",
    };
    let elo = r.estimate.map_or("Elo -".into(), |e| {
        format!(
            "Elo {:+.1} ± {:.1} (nElo {:+.1} ± {:.1})",
            e.elo, e.elo95, e.nelo, e.nelo95
        )
    });
    let line = format!(
        "tuned against start, {} pairs from book offset {}: +{} ={} -{}, {elo}; SPRT [{}, {}] nElo: LLR {llr:.2}, {decision}",
        r.pairs.pairs(),
        match_plan.offset,
        r.games.wins,
        r.games.draws,
        r.games.losses,
        sprt.elo0,
        sprt.elo1
    );
    let report = plan.out.join(crate::run_dir::REPORT);
    let mut md = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = write!(
        md,
        "## Verification\n\n{line}. The games: `{VERIFY_DIR}/`.\n"
    );
    std::fs::write(&report, md)?;
    Ok(Some(Verified { line }))
}
