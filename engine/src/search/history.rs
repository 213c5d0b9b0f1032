//! History heuristic: quiet moves that caused beta cutoffs, by side, from-square and to-square,
//! weighted by the square of the remaining level (deep cutoffs say more).

use cozy_chess::{Color, Move};

/// Scores are halved when one passes this, so old evidence fades and nothing overflows (the
/// continuation-history table ages the same way).
pub(super) const CEILING: i32 = 1 << 20;

/// The bound gravity updates keep a score within (32 × 512).
pub const GRAVITY_LIMIT: i32 = 1 << 14;

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

    /// The gravity update of a quiet cutoff at `level`: the cut move gains and every quiet move
    /// `tried` before it loses b = min(level², 400), each scaled so a score stays within
    /// ±[`GRAVITY_LIMIT`] (h ← h ± 32·b − h·b/512).
    pub fn reward_with_malus(&mut self, color: Color, mv: Move, tried: &[Move], level: i32) {
        let bonus = (level * level).min(400);
        self.gravity(color, mv, bonus);
        for &other in tried {
            self.gravity(color, other, -bonus);
        }
    }

    fn gravity(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.scores[color as usize][mv.from as usize][mv.to as usize];
        *entry += 32 * bonus - *entry * bonus.abs() / 512;
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

    #[test]
    fn gravity_keeps_scores_within_the_limit_and_punishes_the_moves_tried() {
        let mut h = HistoryTable::default();
        let (cut, tried): (Move, Move) = ("g1f3".parse().unwrap(), "b1c3".parse().unwrap());
        h.reward_with_malus(Color::White, cut, &[tried], 3);
        assert_eq!(h.score(Color::White, cut), 32 * 9);
        assert_eq!(h.score(Color::White, tried), -32 * 9);
        for _ in 0..2000 {
            h.reward_with_malus(Color::White, cut, &[tried], 30);
        }
        let (up, down) = (h.score(Color::White, cut), h.score(Color::White, tried));
        assert!((GRAVITY_LIMIT - 99..=GRAVITY_LIMIT).contains(&up), "{up}");
        assert!(
            (-GRAVITY_LIMIT..-GRAVITY_LIMIT + 100).contains(&down),
            "{down}"
        );
    }
}
