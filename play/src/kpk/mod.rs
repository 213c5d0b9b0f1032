//! Exhaustive validation in KPK, after the 1989 text (seed 004): the exact value of every position
//! by retrograde analysis (`table`), against which the engine's search and its KPK knowledge rules
//! are checked position by position.

pub mod cycles;
pub mod interval_gain;
pub mod knowledge;
pub mod mutant;
pub mod report;
pub mod rules;
pub mod search;
pub mod support;
pub mod table;
pub mod validate;
pub mod validation_report;

use cycles::CycleSummary;
use knowledge::RulesAndTables;
use rayon::prelude::*;
use validate::{sample, validate, Effort, Validation};

/// Validates every `every`th legal position (1: all of them), then searches the support for
/// cycles.
pub fn validate_all(
    knowledge: &RulesAndTables,
    effort: Effort,
    every: usize,
) -> (Vec<Validation>, CycleSummary) {
    let mut all: Vec<Validation> = sample(knowledge.tables, every)
        .into_par_iter()
        .map(|i| validate(knowledge, effort, i))
        .collect();
    let summary = cycles::settle(&mut all, knowledge, effort);
    (all, summary)
}

#[cfg(test)]
mod tests {
    use super::table::*;
    use cozy_chess::{Board, Color, Piece};

    fn value(t: &Table, fen: &str) -> u8 {
        let board: Board = fen.parse().unwrap();
        t.value(&Placement::of_board(&board).unwrap())
    }

    #[test]
    fn the_tables_know_the_textbook_maxima_and_positions() {
        let start = std::time::Instant::now();
        let t = Tables::build();
        eprintln!("built in {:?}", start.elapsed());
        // KQK: mate in 10 at most (19 plies with White to move); KRK: mate in 16 (31 plies).
        assert_eq!(t.queen.longest_mate(Color::White), Some(19));
        assert_eq!(t.rook.longest_mate(Color::White), Some(31));
        // Black checkmated; stalemate; the pawn captured.
        assert_eq!(value(&t.queen, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), 0);
        assert_eq!(value(&t.queen, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), DRAW);
        assert_eq!(value(&t.pawn, "8/8/8/8/8/8/3kP3/7K b - - 0 1"), DRAW);
        // The opposition: White to move draws, Black to move loses.
        assert_eq!(value(&t.pawn, "8/4k3/8/4K3/4P3/8/8/8 w - - 0 1"), DRAW);
        assert!(value(&t.pawn, "8/4k3/8/4K3/4P3/8/8/8 b - - 0 1") < DRAW);
        // The king on the sixth rank in front of its pawn wins whoever moves.
        assert!(value(&t.pawn, "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") < DRAW);
        // A rook pawn with the defender in the corner is a draw even with the move.
        assert_eq!(value(&t.pawn, "k7/8/8/8/8/8/P7/7K w - - 0 1"), DRAW);
        let legal = |t: &Table, c: Color| {
            t.values
                .iter()
                .enumerate()
                .filter(|(i, v)| (i % 2 == 0) == (c == Color::White) && **v != ILLEGAL)
                .count()
        };
        eprintln!(
            "KPK legal: {} white, {} black to move",
            legal(&t.pawn, Color::White),
            legal(&t.pawn, Color::Black)
        );
        assert_eq!(t.pawn.piece, Piece::Pawn);
    }
}
