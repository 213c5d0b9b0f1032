//! History heuristic: quiet moves that caused beta cutoffs, by side, from-square and to-square,
//! weighted by the square of the remaining level (deep cutoffs say more).

use cozy_chess::{Color, Move};

/// Scores are halved when one passes this, so old evidence fades and nothing overflows (the
/// continuation-history table ages the same way).
pub(super) const CEILING: i32 = 1 << 20;

/// The history table of one search.
#[derive(Debug, Clone)]
pub struct HistoryTable {
    scores: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for HistoryTable {
    fn default() -> Self {
        Self {
            scores: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl HistoryTable {
    /// The score of a move for `color`.
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.scores[color as usize][mv.from as usize][mv.to as usize]
    }

    /// The sum of every score of `color` (how much evidence the table holds).
    pub fn total(&self, color: Color) -> i64 {
        self.scores[color as usize]
            .iter()
            .flatten()
            .map(|&s| i64::from(s))
            .sum()
    }

    /// Forgets every score.
    pub fn reset(&mut self) {
        self.scores
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|s| *s = 0);
    }

    /// Rewards a quiet move that cut off at `level`.
    pub fn reward(&mut self, color: Color, mv: Move, level: i32) {
        let entry = &mut self.scores[color as usize][mv.from as usize][mv.to as usize];
        *entry += level * level;
        if *entry > CEILING {
            self.age();
        }
    }

    fn age(&mut self) {
        self.scores
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|s| *s /= 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_grow_with_level_and_age() {
        let mut h = HistoryTable::default();
        let mv: Move = "g1f3".parse().unwrap();
        h.reward(Color::White, mv, 3);
        assert_eq!(h.score(Color::White, mv), 9);
        assert_eq!(h.score(Color::Black, mv), 0);
        for _ in 0..20 {
            h.reward(Color::White, mv, 300);
        }
        assert!(h.score(Color::White, mv) <= CEILING);
    }
}
