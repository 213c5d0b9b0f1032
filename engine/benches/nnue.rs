//! The network's micro-benchmark: nanoseconds per accumulator update (a quiet move, a capture) and
//! per evaluation from the accumulators, with the built-in network (H = 128, SCReLU), over the
//! positions of the evaluation benchmark — what the search pays per node with `nnue` on.
//!
//!     cargo bench -p engine --features bench --bench nnue

use std::hint::black_box;

use cozy_chess::{Board, Move};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::board::parse_fen;
use engine::nnue::{Accumulator, Nnue};

const MIDDLEGAME: &str = include_str!("../../suites/unselected-middlegame.epd");

/// Every 10th middle-game position with its first quiet move and its first capture, if any.
fn positions() -> Vec<(Board, Option<Move>, Option<Move>)> {
    MIDDLEGAME
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(10)
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().take(4).collect();
            let board = parse_fen(&format!("{} 0 1", fields.join(" "))).expect("the suite's FEN");
            let mut moves = Vec::new();
            board.generate_moves(|m| {
                moves.extend(m);
                false
            });
            let enemy = board.colors(!board.side_to_move());
            let quiet = moves
                .iter()
                .copied()
                .find(|m| !enemy.has(m.to) && m.promotion.is_none());
            let capture = moves.iter().copied().find(|m| enemy.has(m.to));
            (board, quiet, capture)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let nnue = Nnue::default();
    let net = nnue.load().expect("the built-in network");
    let all = positions();
    let accs: Vec<Accumulator> = all
        .iter()
        .map(|(b, _, _)| Accumulator::of(&net, b))
        .collect();
    let mut group = c.benchmark_group("nnue");
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            for ((board, _, _), acc) in all.iter().zip(&accs) {
                black_box(acc.evaluate(&net, board.side_to_move(), nnue.activation, nnue.scale));
            }
        })
    });
    for (name, pick) in [("update quiet", 1), ("update capture", 2)] {
        let cases: Vec<(&Board, Move, &Accumulator)> = all
            .iter()
            .zip(&accs)
            .filter_map(|((b, q, x), a)| {
                if pick == 1 {
                    q.map(|m| (b, m, a))
                } else {
                    x.map(|m| (b, m, a))
                }
            })
            .collect();
        group.throughput(Throughput::Elements(cases.len() as u64));
        let mut child = Accumulator::default();
        group.bench_function(name, |b| {
            b.iter(|| {
                for &(board, mv, acc) in &cases {
                    child.set_after(acc, &net, board, mv);
                    black_box(&child);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
