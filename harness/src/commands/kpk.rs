//! `harness kpk table`: the retrograde KPK table, written out so that it can be checked against
//! a real tablebase (Gaviota, through python-chess). `harness kpk check`: the engine's KPK rules
//! and its search at small depths, checked against every position of that table.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use cozy_chess::{Color, Piece};
use engine::interval::TextRules;
use lab::grid::{GridPoint, GridSpec};
use play::kpk::interval_gain;
use play::kpk::knowledge::RulesAndTables;
use play::kpk::report::{self, Misjudged};
use play::kpk::rules;
use play::kpk::search;
use play::kpk::table::{Placement, Tables, DRAW, ILLEGAL, SIZE};
use play::kpk::validate::Effort;
use play::kpk::validation_report::{self, ValidationRun};

use crate::cli::depth;

/// `harness kpk …`.
#[derive(Debug, Subcommand)]
pub enum KpkCommand {
    /// Build KQK, KRK and KPK by retrograde analysis and write every legal KPK position with its
    /// value from the side to move (`fen,wdl,dtm`; dtm in plies, Gaviota's convention).
    Table {
        /// Output CSV.
        #[arg(long, value_name = "FILE.csv")]
        out: PathBuf,
    },
    /// Check the engine's KPK rules and its search at each depth against every position.
    Check(KpkCheckArgs),
    /// The 1989 text's validation of its KPK rules by interval search over every legal position
    /// (seed 004, §3), checked in turn against the retrograde table; and the nodes the interval
    /// search needs against the scalar search, both with the rules.
    Validate(KpkValidateArgs),
}

/// `harness kpk validate`.
#[derive(Debug, Args)]
pub struct KpkValidateArgs {
    /// Validate every Nth legal position in table order (1: all of them). A sample's cycle search
    /// only sees support among the sampled positions.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Deepest iteration of a position's searches.
    #[arg(long, default_value_t = 40)]
    pub max_depth: u16,
    /// Node budget of one position's searches (the text's "tolerable effort").
    #[arg(long, default_value_t = 50_000)]
    pub max_nodes: u64,
    /// Depth of the interval-against-scalar comparison (repeatable). Default: 1 to 6.
    #[arg(long = "compare-depth")]
    pub compare_depths: Vec<u16>,
    /// The comparison takes every Nth legal position.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub compare_every: u64,
    /// Put a deliberately wrong rule before the text's rules, to measure what the procedure
    /// catches (the text's rules are never wrong as draws).
    #[arg(long, value_enum)]
    pub mutant: Option<play::kpk::mutant::Mutant>,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (validation.csv, comparison.csv, report.md). Default
    /// `results/<timestamp>-kpk-validate/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `harness kpk check`.
#[derive(Debug, Args)]
pub struct KpkCheckArgs {
    /// Base preset. Without --preset and --set: the axis preset=fischerle,plain.
    #[arg(long)]
    pub preset: Option<String>,
    /// An axis: `KEY=V1,V2,...` (repeatable), as for `grid` (e.g. `kpk.square=false,true`).
    #[arg(long = "set", value_name = "KEY=V1,V2,...")]
    pub sets: Vec<String>,
    /// Search depth (repeatable). Default: 1, 2 and 3.
    #[arg(long = "depth", value_parser = depth, allow_hyphen_values = true)]
    pub depths: Vec<i32>,
    /// Worker threads. Default: all logical CPUs.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (positions.csv, report.md). Default `results/<timestamp>-kpk/`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Builds KQK, KRK and KPK and writes every legal KPK position to `out`.
pub fn table(out: &Path) -> Result<ExitCode> {
    let start = Instant::now();
    let tables = Tables::build();
    let longest = |t: &play::kpk::table::Table| t.longest_mate(Color::White).unwrap_or(0);
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
    let (out, pool, tables) = prepare(args.out.as_deref(), "kpk", args.threads)?;
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
    report::write_positions(&out.join(lab::run_dir::POSITIONS_CSV), &tables, &runs)?;
    let md = report::render(&rules, &runs);
    lab::report::page::write(&out, &md)?;
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

/// Runs `harness kpk validate`: the text's validation over the chosen positions, the meta-check
/// against the table, and the interval-against-scalar comparison.
pub fn validate(args: &KpkValidateArgs) -> Result<ExitCode> {
    let (out, pool, tables) = prepare(args.out.as_deref(), "kpk-validate", args.threads)?;
    let knowledge = RulesAndTables {
        rules: TextRules::ALL,
        mutant: args.mutant,
        tables: &tables,
        founded: None,
        trust_draws: true,
    };
    let effort = Effort {
        max_depth: args.max_depth,
        max_nodes: args.max_nodes,
    };
    let start = Instant::now();
    let every = usize::try_from(args.every)?;
    let (validations, cycles) = pool.install(|| play::kpk::validate_all(&knowledge, effort, every));
    let validate_secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} positions validated in {validate_secs:.1} s",
        validations.len()
    );
    let depths = if args.compare_depths.is_empty() {
        (1..=6).collect()
    } else {
        args.compare_depths.clone()
    };
    let start = Instant::now();
    let compare_every = usize::try_from(args.compare_every)?;
    let pairs = pool.install(|| interval_gain::compare(&knowledge, &depths, compare_every));
    eprintln!(
        "{} comparisons in {:.1} s",
        pairs.len(),
        start.elapsed().as_secs_f64()
    );
    let run = ValidationRun {
        every: args.every,
        compare_every: args.compare_every,
        mutant: args.mutant,
        effort,
        validations: &validations,
        cycles,
        pairs: &pairs,
        tables: &tables,
        seconds: validate_secs,
    };
    validation_report::write_validations(&out.join(validation_report::VALIDATION_CSV), &run)?;
    validation_report::write_pairs(&out.join(validation_report::COMPARISON_CSV), &run)?;
    validation_report::write_summary(&out.join(validation_report::VALIDATION_JSON), &run)?;
    let md = validation_report::render(&run);
    lab::report::page::write(&out, &md)?;
    print!("{md}");
    println!("results: {}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The output directory (made), the worker pool and the tables every KPK check starts from.
fn prepare(
    out: Option<&Path>,
    name: &str,
    threads: Option<usize>,
) -> Result<(PathBuf, rayon::ThreadPool, Tables)> {
    let out = out.map_or_else(|| lab::run_dir::default_out(name), Path::to_path_buf);
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(lab::workers::resolve(threads)?)
        .build()?;
    let start = Instant::now();
    let tables = Tables::build();
    eprintln!("tables built in {:.2} s", start.elapsed().as_secs_f64());
    Ok((out, pool, tables))
}
