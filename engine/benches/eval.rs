//! The evaluation micro-benchmark: nanoseconds per evaluation, as the search pays it (material and
//! squares already summed move by move, the pawn terms from the memo), over fixed positions — the
//! classic evaluation, each switchable term alone on top of it, and every term on. An evaluation's
//! cost apart from the tree it shapes (`harness bench` NPS mixes the two).
//!
//!     cargo bench -p engine --features bench --bench eval
//!
//! The positions: every 10th of `suites/unselected-middlegame.epd` and every 4th of
//! `suites/unselected-endgame.epd` (the project's unselected self-play populations), 452 in all.
//! Criterion reports time per position ("thrpt" in elements).

use std::hint::black_box;

use cozy_chess::Board;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::board::parse_fen;
use engine::eval::{Evaluation, Evaluator, Placement, TERMS};

const MIDDLEGAME: &str = include_str!("../../suites/unselected-middlegame.epd");
const ENDGAME: &str = include_str!("../../suites/unselected-endgame.epd");

/// Every `every`-th record of an EPD text, as boards.
fn sample(epd: &str, every: usize) -> Vec<Board> {
    epd.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(every)
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().take(4).collect();
            parse_fen(&format!("{} 0 1", fields.join(" "))).expect("the suite's FEN")
        })
        .collect()
}

fn evaluations() -> Vec<(String, Evaluation)> {
    let mut all = vec![("classic".to_string(), Evaluation::classic())];
    for term in TERMS {
        let e = Evaluation::classic().with_term(term).expect("a known term");
        all.push((format!("classic + {term}"), e));
    }
    all.push(("every term".to_string(), Evaluation::everything_on()));
    all
}

fn evaluation(c: &mut Criterion) {
    let mut boards = sample(MIDDLEGAME, 10);
    boards.extend(sample(ENDGAME, 4));
    let mut g = c.benchmark_group("evaluation");
    g.sample_size(30);
    g.throughput(Throughput::Elements(boards.len() as u64));
    for (name, evaluation) in evaluations() {
        let mut evaluator = Evaluator::new(&evaluation);
        let placed: Vec<(Board, Placement)> = boards
            .iter()
            .map(|b| (b.clone(), evaluator.placement(b)))
            .collect();
        g.bench_function(name, |b| {
            b.iter(|| {
                placed
                    .iter()
                    .map(|(board, placement)| evaluator.evaluate(black_box(board), *placement))
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
