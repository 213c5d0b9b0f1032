//! Code-speed benchmarks (criterion): move generation and make-move, evaluation, x-ray attack
//! counting, SEE, ordering one node, and fixed-depth searches. Search *efficiency* (nodes, EBF) is
//! what the harness measures; these measure how fast the code does its work.
//!
//!     cargo bench -p engine --features bench

use std::hint::black_box;

use cozy_chess::{Board, Square};
use criterion::{criterion_group, criterion_main, Criterion};
use engine::board::{legal_moves, parse_fen};
use engine::eval::evaluate;
use engine::search::attacks::count_attacks;
use engine::search::classify::victim;
use engine::search::ordering::{order_moves, Hints, MoveList, Scratch};
use engine::search::see::see;
use engine::{Limits, Position, SearchConfig, SearchStats, Searcher};

const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn boards() -> Vec<Board> {
    POSITIONS.iter().map(|f| parse_fen(f).unwrap()).collect()
}

fn movegen(c: &mut Criterion) {
    let boards = boards();
    let mut g = c.benchmark_group("movegen");
    g.sample_size(50);
    g.bench_function("legal moves, 4 positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| legal_moves(black_box(board)).len())
                .sum::<usize>()
        })
    });
    g.bench_function("make every legal move, 4 positions", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for board in &boards {
                for mv in legal_moves(board) {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    n ^= child.hash();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("perft 3, Kiwipete", |b| {
        b.iter(|| engine::perft::perft(black_box(&boards[1]), 3))
    });
    g.finish();
}

fn eval_and_attacks(c: &mut Criterion) {
    let boards = boards();
    let mut g = c.benchmark_group("eval");
    g.sample_size(50);
    g.bench_function("evaluate, 4 positions", |b| {
        b.iter(|| boards.iter().map(|x| evaluate(black_box(x))).sum::<i32>())
    });
    g.bench_function("x-ray attack counts, 64 squares x 2 sides, Kiwipete", |b| {
        b.iter(|| {
            let board = black_box(&boards[1]);
            Square::ALL
                .iter()
                .map(|&sq| {
                    count_attacks(board, sq, cozy_chess::Color::White).count
                        + count_attacks(board, sq, cozy_chess::Color::Black).count
                })
                .sum::<u32>()
        })
    });
    let captures: Vec<(Board, cozy_chess::Move)> = boards
        .iter()
        .flat_map(|b| {
            legal_moves(b)
                .into_iter()
                .filter(|&m| victim(b, m).is_some())
                .map(move |m| (b.clone(), m))
        })
        .collect();
    g.bench_function(
        format!("SEE, all {} captures of the 4 positions", captures.len()),
        |b| {
            b.iter(|| {
                captures
                    .iter()
                    .map(|(board, mv)| see(black_box(board), *mv))
                    .sum::<i32>()
            })
        },
    );
    g.finish();
}

fn ordering(c: &mut Criterion) {
    let boards = boards();
    let mut g = c.benchmark_group("ordering");
    g.sample_size(50);
    for (name, config) in [
        ("fischerle", SearchConfig::fischerle()),
        ("mvv_lva", SearchConfig::plain()),
    ] {
        g.bench_function(format!("order one node, {name}, 4 positions"), |b| {
            let (mut stats, mut scratch, mut list) = (
                SearchStats::default(),
                Scratch::default(),
                MoveList::default(),
            );
            b.iter(|| {
                for board in &boards {
                    order_moves(
                        black_box(board),
                        &config,
                        Hints::default(),
                        &mut stats,
                        &mut scratch,
                        &mut list,
                    );
                }
                list.len()
            })
        });
    }
    g.finish();
}

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (name, fen) in [("Kiwipete", POSITIONS[1]), ("WAC.001", POSITIONS[2])] {
        let position = Position::from_fen(fen).unwrap();
        g.bench_function(format!("fischerle depth 5, {name}"), |b| {
            b.iter(|| {
                Searcher::new(SearchConfig::fischerle())
                    .search(black_box(&position), Limits::depth(5), |_| {})
                    .stats
                    .nodes
            })
        });
    }
    g.finish();
}

criterion_group!(benches, movegen, eval_and_attacks, ordering, search);
criterion_main!(benches);
