//! The engine's search on every legal KPK position: does it judge the position right (win or
//! draw) at depth d, and where White (the pawn's side) is to move in a won position, does its
//! move keep the win?

use cozy_chess::{Board, Color, Piece};
use engine::{Limits, Position, SearchConfig, Searcher};
use rayon::prelude::*;

use super::table::{Placement, Tables, DRAW, ILLEGAL, SIZE};

/// A search judges a position won when its score for White is at least this: one and a half pawns
/// beyond the pawn White has, so a pawn-up evaluation is not a win, while a promotion seen (a
/// queen) or a rule's known win (600 + ) is.
pub const WIN_THRESHOLD: i32 = 250;

/// One search.
#[derive(Debug, Clone)]
pub struct Judgement {
    /// Table index of the position.
    pub index: usize,
    /// Score for White, centipawns.
    pub score: i32,
    /// The searched move (UCI), empty without one.
    pub best_move: String,
    /// The table says White wins.
    pub won: bool,
    /// The search judged it won.
    pub judged_won: bool,
    /// White to move in a won position: the move keeps the win (None otherwise).
    pub keeps_win: Option<bool>,
}

/// Searches every legal KPK position with `config` to `depth`.
pub fn judge_all(tables: &Tables, config: &SearchConfig, depth: i32) -> Vec<Judgement> {
    let legal: Vec<usize> = (0..SIZE)
        .filter(|&i| tables.pawn.values[i] != ILLEGAL)
        .collect();
    legal
        .par_iter()
        .map_init(
            || None::<Searcher>,
            |worker, &i| {
                let mut searcher = Searcher::reuse(worker.take(), config.clone());
                let j = judge(tables, &mut searcher, i, depth);
                *worker = Some(searcher);
                j
            },
        )
        .collect()
}

fn judge(tables: &Tables, searcher: &mut Searcher, index: usize, depth: i32) -> Judgement {
    let p = Placement::from_index(Piece::Pawn, index);
    let board = p.board().expect("legal");
    let result = searcher.search(&Position::new(board.clone()), Limits::depth(depth), |_| {});
    let score = if p.stm == Color::White {
        result.score
    } else {
        -result.score
    };
    let won = tables.pawn.values[index] < DRAW;
    let keeps_win = (won && p.stm == Color::White).then(|| {
        result.best_move.is_some_and(|mv| {
            let mut after = board.clone();
            after.play_unchecked(mv);
            value_after(tables, &after) < DRAW
        })
    });
    Judgement {
        index,
        score,
        best_move: result
            .best_move
            .map(|mv| engine::board::uci_move(&board, mv))
            .unwrap_or_default(),
        won,
        judged_won: score >= WIN_THRESHOLD,
        keeps_win,
    }
}

/// The value of a position reached from KPK: KPK itself, KQK/KRK after a promotion, else a draw.
fn value_after(tables: &Tables, board: &Board) -> u8 {
    let Some(q) = Placement::of_board(board) else {
        return DRAW;
    };
    match q.piece {
        Piece::Pawn => tables.pawn.value(&q),
        Piece::Queen => tables.queen.value(&q),
        Piece::Rook => tables.rook.value(&q),
        _ => DRAW,
    }
}
