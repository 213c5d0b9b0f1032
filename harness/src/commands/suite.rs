//! `harness suite check FILE…`: positions per file and every unreadable line with `file:line`.
//! `harness suite make`: arguments → [`MakePlan`] → candidates, labels → the EPD file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::cli::SuiteMakeArgs;
use crate::commands::CHECK_FAILED;
use lab::epd::read_suite;
use lab::suite_make::dfrc::Dfrc;
use lab::suite_make::label::Reference;
use lab::suite_make::select::Selection;
use lab::suite_make::selfplay::SelfPlay;
use lab::suite_make::{make as make_suite, MakePlan, Source};

/// Validates the files; exit 3 if any line could not be read.
pub fn check(files: &[PathBuf]) -> Result<ExitCode> {
    let mut problems = 0;
    for file in files {
        let suite = read_suite(file).with_context(|| format!("reading {}", file.display()))?;
        for error in &suite.errors {
            println!("{error}");
        }
        let with_answer = suite
            .records
            .iter()
            .filter(|r| !r.best_moves.is_empty() || !r.avoid_moves.is_empty())
            .count();
        println!(
            "{}: {} positions ({with_answer} with bm/am), {} unreadable lines",
            file.display(),
            suite.records.len(),
            suite.errors.len()
        );
        problems += suite.errors.len();
    }
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(CHECK_FAILED)
    })
}

/// Makes a suite; the file is written only when the whole run succeeded.
pub fn make(args: &SuiteMakeArgs) -> Result<ExitCode> {
    let plan = make_plan(args)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let made = make_suite(&plan, &command)?;
    for problem in &made.problems {
        eprintln!("warning: {problem}");
    }
    std::fs::write(&args.out, &made.epd)
        .with_context(|| format!("writing {}", args.out.display()))?;
    match &plan.reference {
        Some(r) => {
            let rule = match r.balanced {
                Some(w) => format!("balanced within ±{w} cp"),
                None => format!("margin {} cp", r.margin),
            };
            println!(
                "{} positions analysed, {} kept ({rule} at depth {}) → {}",
                made.analysed,
                made.kept,
                r.depth,
                args.out.display()
            );
        }
        None => println!(
            "{} candidates, {} kept (unlabelled) → {}",
            made.analysed,
            made.kept,
            args.out.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn make_plan(args: &SuiteMakeArgs) -> Result<MakePlan> {
    let mut sources: Vec<Source> = args.from_epd.iter().cloned().map(Source::Epd).collect();
    sources.extend(args.from_pgn.iter().cloned().map(Source::Pgn));
    if let Some(games) = args.selfplay {
        let play = SelfPlay {
            seed: args.seed,
            random_plies: args.random_plies,
            depth: args.play_depth,
            max_plies: args.max_plies,
            config: engine::SearchConfig::preset(&args.preset)?,
        };
        sources.push(Source::SelfPlay(play, games));
    }
    if let Some(count) = args.dfrc {
        sources.push(Source::Dfrc(Dfrc {
            count,
            seed: args.seed,
        }));
    }
    let variant = if args.dfrc.is_some() {
        engine::Variant::Chess960
    } else {
        engine::Variant::Standard
    };
    if let (Some(run), Some(pair)) = (&args.select, &args.select_pair) {
        sources.push(Source::Selected(Selection::new(
            run.clone(),
            pair,
            args.min_ratio,
        )?));
    }
    if sources.is_empty() {
        bail!("no candidates: give --from-epd FILE, --from-pgn FILE, --selfplay GAMES or --select RUN_DIR");
    }
    if args.depth < 1 {
        bail!("--depth must be at least 1, found {}", args.depth);
    }
    let id_prefix = args.id_prefix.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("suite".into(), |s| s.to_string_lossy().to_string())
    });
    Ok(MakePlan {
        sources,
        from_ply: args.from_ply,
        every: args.every.max(1),
        sample: args.sample.max(1),
        per_game: args.per_game,
        max: args.max,
        phase: args.phase,
        reference: (!args.unlabelled).then(|| Reference {
            path: args.reference.clone(),
            depth: args.depth,
            hash_mb: args.hash,
            margin: args.margin,
            balanced: args.balanced,
            timeout: Duration::from_secs(args.timeout),
            variant,
        }),
        id_prefix,
        threads: lab::workers::resolve(args.threads)?,
        variant,
    })
}
