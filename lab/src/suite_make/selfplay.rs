//! Games the project's engine plays against itself from seeded openings: a few uniformly random
//! legal plies (ChaCha8, one stream per game, so a game does not depend on which thread plays
//! it or on the games before it), then both sides searched to a fixed depth. A game ends at mate,
//! stalemate, the fifty-move rule, a threefold repetition or the ply limit.

use cozy_chess::{Board, GameStatus};
use engine::board::legal_moves;
use engine::{Limits, Position, SearchConfig, Searcher};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// How the games are played.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    /// Seed of the openings.
    pub seed: u64,
    /// Random legal plies from the start position.
    pub random_plies: usize,
    /// Search depth of every move.
    pub depth: i32,
    /// Plies after which a game stops.
    pub max_plies: usize,
    /// The engine's configuration.
    pub config: SearchConfig,
}

impl SelfPlay {
    /// Game `number`: the boards before each ply and the final one.
    pub fn play(&self, number: u64) -> Vec<Board> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(number);
        let mut position = Position::new(Board::default());
        let mut boards = vec![position.board().clone()];
        let mut searcher = Searcher::new(self.config.clone());
        while boards.len() <= self.max_plies && !finished(&position) {
            let board = position.board().clone();
            let mv = if boards.len() <= self.random_plies {
                let moves = legal_moves(&board);
                moves[rng.random_range(0..moves.len())]
            } else {
                let limits = Limits {
                    depth: Some(self.depth),
                    ..Limits::default()
                };
                match searcher.search(&position, limits, |_| {}).best_move {
                    Some(mv) => mv,
                    None => break,
                }
            };
            position.play(mv);
            boards.push(position.board().clone());
        }
        boards
    }
}

fn finished(position: &Position) -> bool {
    let board = position.board();
    let hash = board.hash();
    let repeated = position.history().iter().filter(|&&h| h == hash).count() >= 2;
    board.status() != GameStatus::Ongoing || board.halfmove_clock() >= 100 || repeated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_depends_on_its_seed_and_number_only() {
        let play = SelfPlay {
            seed: 7,
            random_plies: 4,
            depth: 1,
            max_plies: 12,
            config: SearchConfig::fischerle(),
        };
        let a = play.play(3);
        assert_eq!(a.len(), 13);
        assert_eq!(play.play(3), a);
        assert_ne!(play.play(4)[4], a[4], "another stream, another opening");
        for pair in a.windows(2) {
            assert!(legal_moves(&pair[0]).iter().any(|&mv| {
                let mut b = pair[0].clone();
                b.play_unchecked(mv);
                b == pair[1]
            }));
        }
    }
}
