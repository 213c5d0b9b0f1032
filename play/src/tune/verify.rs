//! `tune --verify PAIRS`: the tuned player against the start in a match on openings the tune never
//! played (the book from offset `seed + pairs of the tune`), with an SPRT, in `verify/` — an
//! ordinary match directory (games.pgn, report.md) — and its result added to the tune's report.

use std::path::Path;

use anyhow::{bail, Context, Result};
use lab::elo::sprt::{Decision, Sprt};
use lab::elo::sprt_setup::SprtRates;
use lab::run_flow::Ended;

use super::TunePlan;
use crate::arena::limits::MoveLimit;
use crate::arena::openings::Book;
use crate::arena::plan::{MatchPlan, PlayerEntry, Schedule};
use crate::arena::player::PlayerKind;

/// The verification's directory inside the tune's (at another limit than the tune's,
/// `verify-LIMIT`).
pub const VERIFY_DIR: &str = "verify";

/// What a verification plays besides the tuned player: its pairs, limit and openings.
#[derive(Debug, Clone, Copy)]
pub struct Verification<'a> {
    /// Game pairs at most.
    pub pairs: u64,
    /// Limit per move.
    pub limit: MoveLimit,
    /// Its own book, if not the tune's.
    pub openings: Option<&'a Path>,
    /// `ELO0,ELO1`.
    pub sprt: &'a str,
}

/// The directory of a verification at `limit`.
pub fn dir_of(plan: &TunePlan, limit: MoveLimit) -> String {
    if limit == plan.limit {
        return VERIFY_DIR.to_string();
    }
    let text: String = limit
        .to_string()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '_'))
        .collect();
    format!("{VERIFY_DIR}-{text}")
}

/// Reads `--verify-sprt ELO0,ELO1` (fishtest's error rates, normalized Elo).
pub fn parse_sprt(text: &str) -> Result<Sprt> {
    lab::elo::sprt_setup::parse("--verify-sprt", text, SprtRates::FISHTEST)
}

/// The verification's openings and where it enters them: `file` without the positions the tune's
/// book has (compared by the first four FEN fields), from its start; or the tune's book from the
/// offset after the tune's pairs.
pub fn book_of(plan: &TunePlan, file: Option<&Path>, pairs: u64) -> Result<(Book, u64)> {
    let Some(path) = file else {
        if plan.total_pairs() + pairs > plan.book.openings.len() as u64 {
            eprintln!(
                "warning: the tune and its verification need {} openings, the book has {}: some verification openings repeat the tune's (give --verify-openings)",
                plan.total_pairs() + pairs,
                plan.book.openings.len()
            );
        }
        return Ok((plan.book.clone(), plan.seed + plan.total_pairs()));
    };
    let position = |b: &cozy_chess::Board| {
        b.to_string()
            .split(' ')
            .take(4)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let tuned: std::collections::HashSet<String> = plan
        .book
        .openings
        .iter()
        .map(|o| position(&o.board))
        .collect();
    let mut book = Book::read(path)?;
    let before = book.openings.len();
    book.openings
        .retain(|o| !tuned.contains(&position(&o.board)));
    if book.openings.is_empty() {
        bail!(
            "--verify-openings {}: every position is also in the tune's book",
            path.display()
        );
    }
    if book.openings.len() < before {
        eprintln!(
            "--verify-openings {}: {} of {before} positions are also in the tune's book and are left out",
            path.display(),
            before - book.openings.len()
        );
    }
    Ok((book, 0))
}

/// The match plan of the verification.
pub fn plan_of(
    plan: &TunePlan,
    theta: &[f64],
    v: &Verification,
    sprt: Sprt,
    (book, offset): (Book, u64),
) -> MatchPlan {
    let pairs = v.pairs;
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
        limit: v.limit,
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
        book,
        offset,
        rules: plan.rules,
        sprt: Some(sprt),
        threads: plan.threads,
        out: plan.out.join(dir_of(plan, v.limit)),
        range: 0..pairs,
        shard: None,
        factorial: None,
        nps_scale: None,
        affinity: None,
    }
}

/// Plays (or resumes) the verification; returns its verdict (see [`verdict`]), `None` if a
/// signal stopped it.
pub fn run(
    plan: &TunePlan,
    theta: &[f64],
    v: &Verification,
    quiet: bool,
) -> Result<Option<String>> {
    let sprt = parse_sprt(v.sprt)?;
    let book = book_of(plan, v.openings, v.pairs)?;
    let match_plan = plan_of(plan, theta, v, sprt, book);
    let resume = match_plan.out.join(lab::run_dir::MANIFEST).exists();
    if let Ended::Interrupted(_) = crate::arena::run::play(&match_plan, resume, quiet)? {
        return Ok(None);
    }
    verdict(&match_plan.out).map(Some)
}

/// The verification in `dir` in words: games, Elo with its interval, the SPRT's LLR and decision
/// (its match report is written again on the way).
pub fn verdict(dir: &Path) -> Result<String> {
    let manifest = crate::arena::manifest::MatchManifest::read(dir)?;
    let results = crate::arena::report::write(dir)?;
    crate::arena::report::print_results(&results);
    let r = results.first().context("a verification has one pairing")?;
    let llr = r.llr_trace.last().map_or(0.0, |p| p.1);
    let sprt = manifest.sprt.context("a verification has an SPRT")?;
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
    let limit = manifest
        .players
        .first()
        .map_or("", |p| p.limit.as_str())
        .to_string();
    Ok(format!(
        "tuned against start at {limit}, {} pairs of {} from offset {}: +{} ={} -{}, {elo}; SPRT [{}, {}] nElo: LLR {llr:.2}, {decision}",
        r.pairs.pairs(),
        manifest.book.source,
        manifest.seed,
        r.games.wins,
        r.games.draws,
        r.games.losses,
        sprt.elo0,
        sprt.elo1
    ))
}

/// The verification directories of a tune in `dir`, by name.
pub fn dirs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(VERIFY_DIR))
        })
        .filter(|p| p.join(lab::run_dir::MANIFEST).exists())
        .collect();
    found.sort();
    found
}
