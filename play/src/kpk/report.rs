//! What `harness kpk check` reports: how each configuration at each depth misjudged the table,
//! `positions.csv` position by position, and the Markdown report.

use std::path::Path;

use anyhow::{Context, Result};
use cozy_chess::Piece;
use lab::grid::GridPoint;
use lab::report::md_table::{Align, MdTable};

use super::rules::{self, RuleCheck};
use super::search::{Judgement, WIN_THRESHOLD};
use super::table::{Placement, Tables};

/// How one configuration at one depth did.
#[derive(Debug, Clone, Default)]
pub struct Misjudged {
    /// Won positions judged drawn, by side to move (White, Black).
    pub wins_as_draws: [usize; 2],
    /// Drawn positions judged won, by side to move.
    pub draws_as_wins: [usize; 2],
    /// Won positions, White to move, whose searched move throws the win away.
    pub lost_wins: usize,
    /// Two examples of each kind: kind, FEN, score for White, move, true value.
    pub examples: Vec<(String, String, i32, String, String)>,
}

impl Misjudged {
    /// Counts the wrong judgements (and keeps two examples of each kind).
    pub fn of(judgements: &[Judgement], tables: &Tables) -> Self {
        let mut m = Self::default();
        for j in judgements {
            let side = j.index % 2;
            let kind = if j.won && !j.judged_won {
                m.wins_as_draws[side] += 1;
                "win judged a draw"
            } else if !j.won && j.judged_won {
                m.draws_as_wins[side] += 1;
                "draw judged a win"
            } else if j.keeps_win == Some(false) {
                m.lost_wins += 1;
                "move throws the win away"
            } else {
                continue;
            };
            if m.examples.iter().filter(|e| e.0 == kind).count() < 2 {
                let board = Placement::from_index(Piece::Pawn, j.index)
                    .board()
                    .expect("legal");
                let truth = rules::describe(tables.pawn.values[j.index]);
                m.examples.push((
                    kind.to_string(),
                    board.to_string(),
                    j.score,
                    j.best_move.clone(),
                    truth,
                ));
            }
        }
        m
    }

    /// Wrong judgements of every kind.
    pub fn total_wrong(&self) -> usize {
        self.wins_as_draws
            .iter()
            .chain(&self.draws_as_wins)
            .sum::<usize>()
            + self.lost_wins
    }
}

/// One configuration at one depth: its judgement of every position and their tally.
pub type Run = (GridPoint, i32, Vec<Judgement>, Misjudged);

/// `positions.csv`: every position with its true value and each run's score, move and verdict.
pub fn write_positions(path: &Path, tables: &Tables, runs: &[Run]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    let mut header = vec!["fen".to_string(), "value".to_string()];
    for (point, depth, _, _) in runs {
        header.push(format!("{}_d{depth}_score", point.id));
        header.push(format!("{}_d{depth}_move", point.id));
        header.push(format!("{}_d{depth}_right", point.id));
    }
    w.write_record(&header)?;
    let rows = runs.first().map_or(0, |r| r.2.len());
    for k in 0..rows {
        let index = runs[0].2[k].index;
        let board = Placement::from_index(Piece::Pawn, index)
            .board()
            .expect("legal");
        let mut record = vec![
            board.to_string(),
            rules::describe(tables.pawn.values[index]),
        ];
        for (_, _, judgements, _) in runs {
            let j = &judgements[k];
            let right = j.won == j.judged_won && j.keeps_win != Some(false);
            record.extend([j.score.to_string(), j.best_move.clone(), right.to_string()]);
        }
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}

/// The Markdown report: the rules' tally, then each run's.
pub fn render(rules: &[RuleCheck], runs: &[Run]) -> String {
    let mut md = String::from("# KPK: rules and search against every position\n\n");
    md.push_str(&format!("Every legal position of king and pawn against king ({} with the pawn's side, White, \
        to move and {} with Black to move; the pawn's side is White throughout), valued exactly by retrograde \
        analysis (checked against Gaviota). A search judges a position won when its score for White is at \
        least {WIN_THRESHOLD} centipawns.\n\n", runs.first().map_or(0, |r| r.2.iter().filter(|j| j.index % 2 == 0).count()),
        runs.first().map_or(0, |r| r.2.iter().filter(|j| j.index % 2 == 1).count())));
    md.push_str("## Rules\n\nEach rule alone, on every position: how many it decides, and how many of those it gets wrong.\n\n");
    let mut table = MdTable::new()
        .left("rule")
        .columns(
            [
                "decides (White to move)",
                "decides (Black to move)",
                "wrong",
            ],
            Align::Right,
        )
        .left("counterexamples");
    for r in rules {
        let examples: Vec<String> = r
            .examples
            .iter()
            .take(3)
            .map(|(fen, v, truth)| format!("`{fen}` says {v:?}, is {truth}"))
            .collect();
        table.row([
            r.rule.to_string(),
            r.decided_white.to_string(),
            r.decided_black.to_string(),
            r.wrong.to_string(),
            if examples.is_empty() {
                "—".into()
            } else {
                examples.join("; ")
            },
        ]);
    }
    md.push_str(&table.render());
    md.push_str("\n## Search\n\n");
    let mut table = MdTable::new()
        .columns(["config", "values"], Align::Left)
        .columns(
            [
                "depth",
                "wins judged draws (W / B to move)",
                "draws judged wins (W / B)",
                "won, White to move, move throws the win away",
                "wrong in all",
            ],
            Align::Right,
        );
    for (point, depth, judgements, m) in runs {
        table.row([
            point.id.clone(),
            point.values.join(" "),
            depth.to_string(),
            format!("{} / {}", m.wins_as_draws[0], m.wins_as_draws[1]),
            format!("{} / {}", m.draws_as_wins[0], m.draws_as_wins[1]),
            m.lost_wins.to_string(),
            format!("{} of {}", m.total_wrong(), judgements.len()),
        ]);
    }
    md.push_str(&table.render());
    md.push_str("\nExamples:\n\n");
    let mut table = MdTable::new()
        .left("config")
        .right("depth")
        .columns(["kind", "FEN"], Align::Left)
        .right("score for White")
        .columns(["move", "true value"], Align::Left);
    for (point, depth, _, m) in runs {
        for (kind, fen, score, mv, truth) in &m.examples {
            table.row([
                point.id.clone(),
                depth.to_string(),
                kind.clone(),
                format!("`{fen}`"),
                score.to_string(),
                mv.clone(),
                truth.clone(),
            ]);
        }
    }
    md.push_str(&table.render());
    md
}
