//! The network's micro-benchmark: nanoseconds per accumulator update (a quiet move, a capture) and
//! per evaluation from the accumulators (SCReLU), over the positions of the evaluation benchmark —
//! what the search pays per node with `nnue` on — at widths H = 64, 128 and 256 (networks of
//! fixed pseudo-random weights: the cost does not depend on the values).
//!
//!     cargo bench -p engine --features bench --bench nnue

use std::hint::black_box;

use cozy_chess::{Board, Move};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::board::parse_fen;
use engine::nnue::{Accumulator, Activation, Network, INPUTS};

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

/// A network of width `hidden` with small pseudo-random weights.
fn network(hidden: usize) -> Network {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |range: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state % (2 * range)) as i64 - range as i64) as i16
    };
    Network::from_parts(
        hidden,
        (0..INPUTS * hidden).map(|_| next(40)).collect(),
        (0..hidden).map(|_| next(100)).collect(),
        (0..2 * hidden).map(|_| next(120)).collect(),
        next(500),
    )
}

fn bench(c: &mut Criterion) {
    let all = positions();
    for hidden in [64, 128, 256] {
        width(c, hidden, &all);
    }
}

fn width(c: &mut Criterion, hidden: usize, all: &[(Board, Option<Move>, Option<Move>)]) {
    let net = network(hidden);
    let accs: Vec<Accumulator> = all
        .iter()
        .map(|(b, _, _)| Accumulator::of(&net, b))
        .collect();
    let mut group = c.benchmark_group(format!("nnue H={hidden}"));
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            for ((board, _, _), acc) in all.iter().zip(&accs) {
                black_box(acc.evaluate(&net, board.side_to_move(), Activation::Screlu, 400));
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
