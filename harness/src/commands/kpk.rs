//! `harness kpk table`: the retrograde KPK table, written out so that it can be checked against
//! a real tablebase (Gaviota, through python-chess). `harness kpk check`: the engine's KPK rules
//! and its search at small depths, checked against every position of that table.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use cozy_chess::{Color, Piece};

use crate::cli::KpkCheckArgs;
use crate::grid::{GridPoint, GridSpec};
use crate::kpk::rules::{self, RuleCheck};
use crate::kpk::search::{self, Judgement, WIN_THRESHOLD};
use crate::kpk::table::{Placement, Tables, DRAW, ILLEGAL, SIZE};

/// Builds KQK, KRK and KPK and writes every legal KPK position to `out`.
pub fn table(out: &Path) -> Result<ExitCode> {
    let start = Instant::now();
    let tables = Tables::build();
    let longest = |t: &crate::kpk::table::Table| t.longest_mate(Color::White).unwrap_or(0);
    eprintln!(
        "KQK, KRK and KPK built in {:.2} s; longest mates with White to move: KQK {} plies, KRK {}, KPK {}",
        start.elapsed().as_secs_f64(),
        longest(&tables.queen),
        longest(&tables.rook),
        longest(&tables.pawn)
    );
    let mut w =
        csv::Writer::from_path(out).with_context(|| format!("writing {}", out.display()))?;
    w.write_record(["fen", "wdl", "dtm"])?;
    let (mut wins, mut draws) = (0usize, 0usize);
    for i in 0..SIZE {
        let value = tables.pawn.values[i];
        if value == ILLEGAL {
            continue;
        }
        let p = Placement::from_index(Piece::Pawn, i);
        let board = p.board().expect("a legal index has a board");
        let (wdl, dtm) = side_to_move_view(value, p.stm);
        if value == DRAW {
            draws += 1
        } else {
            wins += 1
        }
        w.write_record([board.to_string(), wdl.to_string(), dtm.to_string()])?;
    }
    w.flush()?;
    println!(
        "{} legal KPK positions: {wins} won by White, {draws} drawn → {}",
        wins + draws,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Win/draw/loss and signed plies to mate from the side to move, as Gaviota reports them
/// (a checkmated side has dtm 0 and wdl −1).
fn side_to_move_view(value: u8, stm: Color) -> (i32, i32) {
    match (value, stm) {
        (DRAW, _) => (0, 0),
        (v, Color::White) => (1, i32::from(v)),
        (v, Color::Black) => (-1, -i32::from(v)),
    }
}

/// Runs `harness kpk check`: the rules, then every configuration at every depth.
pub fn check(args: &KpkCheckArgs) -> Result<ExitCode> {
    let points = kpk_points(args)?;
    let depths = if args.depths.is_empty() {
        vec![1, 2, 3]
    } else {
        args.depths.clone()
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| super::grid::default_out("kpk"));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let start = Instant::now();
    let tables = Tables::build();
    eprintln!("tables built in {:.2} s", start.elapsed().as_secs_f64());
    let rules = rules::check(&tables.pawn);
    let mut runs = Vec::new();
    for point in &points {
        for &depth in &depths {
            let start = Instant::now();
            let judgements = pool.install(|| {
                search::judge_all(
                    &tables,
                    point.config().expect("kpk grids are builtin"),
                    depth,
                )
            });
            let summary = Misjudged::of(&judgements, &tables);
            eprintln!(
                "{} {} depth {depth}: {} wrong of {} ({:.0} s)",
                point.id,
                point.values.join(" "),
                summary.total_wrong(),
                judgements.len(),
                start.elapsed().as_secs_f64()
            );
            runs.push((point.clone(), depth, judgements, summary));
        }
    }
    write_positions(&out.join("positions.csv"), &tables, &runs)?;
    let md = render(&rules, &runs);
    std::fs::write(out.join(crate::run_dir::REPORT), &md)
        .with_context(|| format!("writing {}/report.md", out.display()))?;
    print!("{md}");
    println!("results: {}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn kpk_points(args: &KpkCheckArgs) -> Result<Vec<GridPoint>> {
    let mut spec = GridSpec {
        name: "kpk".into(),
        preset: "fischerle".into(),
        ..GridSpec::default()
    };
    if let Some(preset) = &args.preset {
        spec.preset = preset.clone();
    } else if args.sets.is_empty() {
        spec.add_set("preset=fischerle,plain")?;
    }
    for set in &args.sets {
        spec.add_set(set)?;
    }
    Ok(spec.expand()?)
}

/// How one configuration at one depth did.
#[derive(Debug, Clone, Default)]
pub struct Misjudged {
    /// Won positions judged drawn, by side to move (White, Black).
    pub wins_as_draws: [usize; 2],
    /// Drawn positions judged won, by side to move.
    pub draws_as_wins: [usize; 2],
    /// Won positions, White to move, whose searched move throws the win away.
    pub lost_wins: usize,
    /// A few examples of each kind: FEN, score for White, move, true value.
    pub examples: Vec<(String, String, i32, String, String)>,
}

impl Misjudged {
    fn of(judgements: &[Judgement], tables: &Tables) -> Self {
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

    fn total_wrong(&self) -> usize {
        self.wins_as_draws
            .iter()
            .chain(&self.draws_as_wins)
            .sum::<usize>()
            + self.lost_wins
    }
}

type Run = (GridPoint, i32, Vec<Judgement>, Misjudged);

fn write_positions(path: &Path, tables: &Tables, runs: &[Run]) -> Result<()> {
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

fn render(rules: &[RuleCheck], runs: &[Run]) -> String {
    let mut md = String::from("# KPK: rules and search against every position\n\n");
    md.push_str(&format!("Every legal position of king and pawn against king ({} with the pawn's side, White, \
        to move and {} with Black to move; the pawn's side is White throughout), valued exactly by retrograde \
        analysis (checked against Gaviota). A search judges a position won when its score for White is at \
        least {WIN_THRESHOLD} centipawns.\n\n", runs.first().map_or(0, |r| r.2.iter().filter(|j| j.index % 2 == 0).count()),
        runs.first().map_or(0, |r| r.2.iter().filter(|j| j.index % 2 == 1).count())));
    md.push_str("## Rules\n\nEach rule alone, on every position: how many it decides, and how many of those it gets wrong.\n\n");
    md.push_str("| rule | decides (White to move) | decides (Black to move) | wrong | counterexamples |\n|---|---:|---:|---:|---|\n");
    for r in rules {
        let examples: Vec<String> = r
            .examples
            .iter()
            .take(3)
            .map(|(fen, v, truth)| format!("`{fen}` says {v:?}, is {truth}"))
            .collect();
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.rule,
            r.decided_white,
            r.decided_black,
            r.wrong,
            if examples.is_empty() {
                "—".into()
            } else {
                examples.join("; ")
            }
        ));
    }
    md.push_str("\n## Search\n\n| config | values | depth | wins judged draws (W / B to move) | draws judged wins (W / B) | won, White to move, move throws the win away | wrong in all |\n|---|---|---:|---:|---:|---:|---:|\n");
    for (point, depth, judgements, m) in runs {
        md.push_str(&format!(
            "| {} | {} | {depth} | {} / {} | {} / {} | {} | {} of {} |\n",
            point.id,
            point.values.join(" "),
            m.wins_as_draws[0],
            m.wins_as_draws[1],
            m.draws_as_wins[0],
            m.draws_as_wins[1],
            m.lost_wins,
            m.total_wrong(),
            judgements.len()
        ));
    }
    md.push_str("\nExamples:\n\n| config | depth | kind | FEN | score for White | move | true value |\n|---|---:|---|---|---:|---|---|\n");
    for (point, depth, _, m) in runs {
        for (kind, fen, score, mv, truth) in &m.examples {
            md.push_str(&format!(
                "| {} | {depth} | {kind} | `{fen}` | {score} | {mv} | {truth} |\n",
                point.id
            ));
        }
    }
    md
}
