//! What `harness kpk validate` writes: `validation.csv` (one row per position), `comparison.csv`
//! (interval against scalar search) and the Markdown report with the meta-check — what the 1989
//! procedure flags against what the retrograde table shows is wrong.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use cozy_chess::Piece;
use engine::interval::Wdl;
use lab::report::format::thousands;
use lab::report::md_table::{Align, MdTable};
use lab::report::stats::quantile;

use super::cycles::CycleSummary;
use super::interval_gain::Pair;
use super::table::{Placement, Tables};
use super::validate::{move_text, truth, Effort, Outcome, Validation};

/// Per-position rows.
pub const VALIDATION_CSV: &str = "validation.csv";
/// The figures the report gives in prose, as data ([`write_summary`]).
pub const VALIDATION_JSON: &str = "validation.json";
/// Interval against scalar search, per position and depth.
pub use lab::run_dir::COMPARISON_CSV;
/// Examples listed per kind in the report.
const EXAMPLES: usize = 5;

/// One run's inputs and results.
pub struct ValidationRun<'a> {
    /// Every how many legal positions were validated (1: all).
    pub every: u64,
    /// Every how many legal positions were compared against the scalar search.
    pub compare_every: u64,
    /// The deliberately wrong rule put before the text's, if any.
    pub mutant: Option<super::mutant::Mutant>,
    /// The effort per position.
    pub effort: Effort,
    /// Every validated position.
    pub validations: &'a [Validation],
    /// The cycle search.
    pub cycles: CycleSummary,
    /// The comparison.
    pub pairs: &'a [Pair],
    /// The tables (the truth).
    pub tables: &'a Tables,
    /// Wall time of the validation.
    pub seconds: f64,
}

fn fen(index: usize) -> String {
    Placement::from_index(Piece::Pawn, index)
        .board()
        .expect("legal")
        .to_string()
}

fn name(w: Option<Wdl>) -> &'static str {
    w.map_or("", Wdl::name)
}

/// The rule behind a claim, or `none`.
fn rule_of(v: &Validation) -> &'static str {
    v.claim.map_or("none", |k| k.source)
}

/// `validation.csv`.
pub fn write_validations(path: &Path, run: &ValidationRun) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "fen",
        "rule",
        "claim",
        "rule_move",
        "outcome",
        "found",
        "via_move",
        "truth",
        "nodes",
        "depth",
        "support",
        "support_fens",
    ])?;
    for v in run.validations {
        let claim = v.claim.and_then(|k| k.interval.exact());
        w.write_record([
            fen(v.index),
            rule_of(v).to_string(),
            name(claim).to_string(),
            move_text(v.index, v.claim.and_then(|k| k.best)),
            v.outcome.name().to_string(),
            name(v.found).to_string(),
            name(v.via_move).to_string(),
            truth(run.tables, v.index).name().to_string(),
            v.nodes.to_string(),
            v.depth.to_string(),
            v.support
                .as_ref()
                .map_or(String::new(), |s| s.len().to_string()),
            v.support.as_ref().map_or(String::new(), |s| {
                let fens: Vec<String> = s.iter().map(|&i| fen(i as usize)).collect();
                fens.join(";")
            }),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// The run's figures the report gives in its prose, as data (`validation.json`): its wall time,
/// how many positions it validated, and the cycle search's counts.
pub fn write_summary(path: &Path, run: &ValidationRun) -> Result<()> {
    let summary = serde_json::json!({
        "seconds": run.seconds,
        "validated": run.validations.len(),
        "cycles": run.cycles,
    });
    std::fs::write(path, lab::json::to_lines(&summary))
        .with_context(|| format!("writing {}", path.display()))
}

/// `comparison.csv`.
pub fn write_pairs(path: &Path, run: &ValidationRun) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "fen",
        "depth",
        "truth",
        "interval",
        "interval_nodes",
        "scalar_score",
        "scalar_right",
        "scalar_nodes",
    ])?;
    for p in run.pairs {
        w.write_record([
            fen(p.index),
            p.depth.to_string(),
            p.truth.name().to_string(),
            p.interval_text.clone(),
            p.interval_nodes.to_string(),
            p.scalar_score.to_string(),
            p.scalar_right().to_string(),
            p.scalar_nodes.to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Whether a rule's claim agrees with the table.
fn claim_right(run: &ValidationRun, v: &Validation) -> Option<bool> {
    let claim = v.claim?.interval.exact()?;
    Some(claim == truth(run.tables, v.index))
}

/// The meta-check for one rule (or all): claims by truth × what the procedure concluded.
#[derive(Debug, Default, Clone)]
pub struct MetaCheck {
    /// Wrong claims the procedure flags.
    pub wrong_flagged: usize,
    /// Wrong claims it confirms.
    pub wrong_confirmed: usize,
    /// Wrong claims left unresolved.
    pub wrong_unresolved: usize,
    /// Right claims it flags (false alarms).
    pub right_flagged: usize,
    /// Right claims it confirms.
    pub right_confirmed: usize,
    /// Right claims left unresolved.
    pub right_unresolved: usize,
}

impl MetaCheck {
    fn add(&mut self, right: bool, outcome: Outcome) {
        let slot = match (right, outcome) {
            (false, o) if o.flags() => &mut self.wrong_flagged,
            (false, Outcome::Unresolved) => &mut self.wrong_unresolved,
            (false, _) => &mut self.wrong_confirmed,
            (true, o) if o.flags() => &mut self.right_flagged,
            (true, Outcome::Unresolved) => &mut self.right_unresolved,
            (true, _) => &mut self.right_confirmed,
        };
        *slot += 1;
    }
}

/// The meta-check by rule, and over all rules (`all`).
pub fn meta_check(run: &ValidationRun) -> BTreeMap<&'static str, MetaCheck> {
    let mut by_rule: BTreeMap<&'static str, MetaCheck> = BTreeMap::new();
    for v in run.validations {
        if let Some(right) = claim_right(run, v) {
            by_rule.entry(rule_of(v)).or_default().add(right, v.outcome);
            by_rule.entry("all").or_default().add(right, v.outcome);
        }
    }
    by_rule
}

/// One row of the effort table: how many positions, the quantiles of their nodes, the total.
fn effort_row(label: &str, mut nodes: Vec<u64>) -> [String; 7] {
    nodes.sort_unstable();
    let total: u64 = nodes.iter().sum();
    let as_f64: Vec<f64> = nodes.iter().map(|&n| n as f64).collect();
    [
        label.to_string(),
        nodes.len().to_string(),
        thousands(quantile(&as_f64, 0.5).unwrap_or(0.0)),
        thousands(quantile(&as_f64, 0.9).unwrap_or(0.0)),
        thousands(quantile(&as_f64, 0.99).unwrap_or(0.0)),
        thousands(nodes.last().copied().unwrap_or(0) as f64),
        thousands(total as f64),
    ]
}

/// The Markdown report.
pub fn render(run: &ValidationRun) -> String {
    let v = run.validations;
    let mut md =
        String::from("# KPK: the 1989 validation procedure, checked against the table\n\n");
    md.push_str(&format!(
        "Positions validated: {} ({}), in {:.1} s. Effort per position: \
         iterative deepening to depth {} or {} nodes. The rules (all on): the pawn's side cannot \
         lose [draw, win]; the rule of the square [win, win] with the pawn's advance; key squares \
         [win, win]; the rook pawn's corner [draw, draw]{}. After a promotion the KQK/KRK tables \
         are the validated endgames.\n\n",
        v.len(),
        if run.every == 1 {
            "all legal KPK positions".to_string()
        } else {
            format!("every {}th legal KPK position", run.every)
        },
        run.seconds,
        run.effort.max_depth,
        thousands(run.effort.max_nodes as f64),
        run.mutant.map_or(String::new(), |m| format!(
            "; and, asked first, the deliberately wrong rule `{}`",
            m.name()
        )),
    ));
    outcomes(&mut md, v);
    cycles(&mut md, run);
    meta(&mut md, run);
    undecided(&mut md, run);
    effort(&mut md, v);
    examples(&mut md, run);
    comparison(&mut md, run);
    md
}

fn outcomes(md: &mut String, v: &[Validation]) {
    md.push_str("## Outcomes\n\nWhat the procedure concludes, by the rule that decides the position (`none`: no rule decides it, the search values it).\n\n");
    let order = [
        Outcome::Confirmed,
        Outcome::Contradicted,
        Outcome::BetterMove,
        Outcome::MoveFails,
        Outcome::Unfounded,
        Outcome::Unresolved,
        Outcome::Searched,
    ];
    let mut table = MdTable::new()
        .left("rule")
        .columns(order.map(Outcome::name), Align::Right);
    let mut by: BTreeMap<&str, BTreeMap<Outcome, usize>> = BTreeMap::new();
    for x in v {
        *by.entry(rule_of(x))
            .or_default()
            .entry(x.outcome)
            .or_default() += 1;
    }
    for (rule, counts) in &by {
        let counts = order.map(|o| counts.get(&o).copied().unwrap_or(0).to_string());
        table.row(std::iter::once(rule.to_string()).chain(counts));
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn cycles(md: &mut String, run: &ValidationRun) {
    let c = run.cycles;
    md.push_str("## Support cycles\n\n");
    md.push_str(&format!(
        "The support of {} confirmed claimed wins and losses was traced (at the winner's turn the \
         rule's move, else a pawn move, else the search's best). Its graph has {} strongly \
         connected components with a cycle, holding {} positions. {} confirmed claims are not \
         founded on it (on a cycle, or resting on one or on a claim the validation did not \
         confirm). Searched again trusting only founded claims ({} rounds): {} are rejected, {} \
         stay unfounded (flagged `unfounded`: the supposed loser can keep the play among \
         unfounded claims within the effort). Draws are not traced (the text, §3.3); but a \
         wrong draw can rest on other wrong draws (§3.4's \"Remiskreise\"), so every confirmed \
         draw is searched again trusting no draw claim and only founded wins and losses: {} are \
         refuted by a forced win or loss.{}\n\n",
        c.traced,
        c.components,
        c.on_cycles,
        c.unfounded_first,
        c.rounds,
        c.rejected,
        c.unfounded,
        c.draws_refuted,
        if run.every > 1 {
            " (A sample: support outside it counts as founded.)"
        } else {
            ""
        }
    ));
}

fn meta(md: &mut String, run: &ValidationRun) {
    md.push_str("## Meta-check: the procedure against the table\n\nEvery claim of a rule, by whether the table says it is right, and what the procedure made of it. \
        *Flagged* = contradicted, better move, move fails or unfounded.\n\n");
    let mut table = MdTable::new().left("rule").columns(
        [
            "wrong: flagged",
            "wrong: confirmed (missed)",
            "wrong: unresolved",
            "right: flagged (false alarm)",
            "right: confirmed",
            "right: unresolved",
        ],
        Align::Right,
    );
    for (rule, m) in meta_check(run) {
        let counts = [
            m.wrong_flagged,
            m.wrong_confirmed,
            m.wrong_unresolved,
            m.right_flagged,
            m.right_confirmed,
            m.right_unresolved,
        ];
        table.row(std::iter::once(rule.to_string()).chain(counts.map(|n| n.to_string())));
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn undecided(md: &mut String, run: &ValidationRun) {
    let searched: Vec<&Validation> = run
        .validations
        .iter()
        .filter(|v| v.outcome == Outcome::Searched)
        .collect();
    let wrong = searched
        .iter()
        .filter(|v| v.found != Some(truth(run.tables, v.index)))
        .count();
    let unresolved = run
        .validations
        .iter()
        .filter(|v| v.claim.is_none() && v.outcome == Outcome::Unresolved)
        .count();
    md.push_str(&format!(
        "## Positions no rule decides\n\nSearched to a point interval within the effort: {}, of which the table contradicts {wrong}; \
         not resolved within the effort: {unresolved}.\n\n",
        searched.len()
    ));
}

fn effort(md: &mut String, v: &[Validation]) {
    md.push_str("## Effort (nodes per position, all its searches)\n\n");
    let mut table = MdTable::new().left("positions").columns(
        ["count", "median", "p90", "p99", "max", "total"],
        Align::Right,
    );
    let nodes =
        |f: &dyn Fn(&Validation) -> bool| v.iter().filter(|x| f(x)).map(|x| x.nodes).collect();
    table.row(effort_row(
        "decided by a rule",
        nodes(&|x| x.claim.is_some()),
    ));
    table.row(effort_row(
        "no rule, resolved",
        nodes(&|x| x.outcome == Outcome::Searched),
    ));
    table.row(effort_row(
        "unresolved",
        nodes(&|x| x.outcome == Outcome::Unresolved),
    ));
    md.push_str(&table.render());
    md.push('\n');
}

/// Picks the positions of one kind of example.
type Pick<'a> = &'a dyn Fn(&Validation) -> bool;

fn examples(md: &mut String, run: &ValidationRun) {
    md.push_str("## Examples\n\n");
    let mut table = MdTable::new().columns(
        [
            "kind",
            "FEN",
            "rule",
            "claim",
            "outcome",
            "search found",
            "table",
        ],
        Align::Left,
    );
    let kinds: [(&str, Pick); 3] = [
        ("wrong claim, flagged", &|v| {
            claim_right(run, v) == Some(false) && v.outcome.flags()
        }),
        ("wrong claim, confirmed", &|v| {
            claim_right(run, v) == Some(false) && v.outcome == Outcome::Confirmed
        }),
        ("right claim, flagged", &|v| {
            claim_right(run, v) == Some(true) && v.outcome.flags()
        }),
    ];
    for (kind, pick) in kinds {
        for v in run.validations.iter().filter(|v| pick(v)).take(EXAMPLES) {
            table.row([
                kind.to_string(),
                format!("`{}`", fen(v.index)),
                rule_of(v).to_string(),
                name(v.claim.and_then(|k| k.interval.exact())).to_string(),
                v.outcome.name().to_string(),
                name(v.found).to_string(),
                truth(run.tables, v.index).name().to_string(),
            ]);
        }
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn comparison(md: &mut String, run: &ValidationRun) {
    md.push_str(&format!(
        "## What intervals buy\n\nEvery {}th legal position, both searches to the same depth with the rules: the interval search \
         (the rules above; iterative deepening, stopping at a point interval) and the engine's scalar search (`fischerle` with \
         `kpk.square`, `kpk.key_squares`, `kpk.rook_pawn` on; right when its score says won exactly when the table does).\n\n",
        run.compare_every
    ));
    let mut table = MdTable::new().columns(
        [
            "depth",
            "positions",
            "interval: decided",
            "decided wrongly",
            "interval nodes",
            "scalar: right",
            "scalar nodes",
            "nodes scalar / interval",
        ],
        Align::Right,
    );
    let mut by_depth: BTreeMap<u16, Vec<&Pair>> = BTreeMap::new();
    for p in run.pairs {
        by_depth.entry(p.depth).or_default().push(p);
    }
    for (depth, pairs) in by_depth {
        let n = pairs.len();
        let decided = pairs.iter().filter(|p| p.interval_value.is_some()).count();
        let wrong = pairs
            .iter()
            .filter(|p| p.interval_value.is_some_and(|w| w != p.truth))
            .count();
        let right = pairs.iter().filter(|p| p.scalar_right()).count();
        let inodes: u64 = pairs.iter().map(|p| p.interval_nodes).sum();
        let snodes: u64 = pairs.iter().map(|p| p.scalar_nodes).sum();
        table.row([
            depth.to_string(),
            n.to_string(),
            lab::report::format::share(decided, n),
            wrong.to_string(),
            thousands(inodes as f64),
            lab::report::format::share(right, n),
            thousands(snodes as f64),
            format!("{:.2}", snodes as f64 / inodes.max(1) as f64),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}
