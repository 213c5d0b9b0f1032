//! Where a self-play game starts: a few uniformly random plies from the start position (the
//! field's practice: a book's openings made a net no better than the evaluation that played them,
//! in akimbo's and others' reports), or a book's openings in order.

use cozy_chess::{Board, GameStatus, Move};
use engine::Variant;
use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::arena::openings::Opening;

/// How many random plies, from the start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomPlies {
    /// The fewest plies.
    pub min: u32,
    /// The most plies (each game draws uniformly in `min..=max`).
    pub max: u32,
}

/// The random plies of the issue that asked for datagen: 8 or 9.
pub const DEFAULT_PLIES: RandomPlies = RandomPlies { min: 8, max: 9 };

/// A start position after a random number of uniformly random legal plies; a line that ends the
/// game before its last ply is drawn again.
pub fn random_opening(rng: &mut ChaCha8Rng, plies: RandomPlies, id: String) -> Opening {
    loop {
        let count = rng.random_range(plies.min..=plies.max);
        if let Some(board) = random_line(rng, count) {
            return Opening {
                id,
                board,
                variant: Variant::Standard,
            };
        }
    }
}

fn random_line(rng: &mut ChaCha8Rng, plies: u32) -> Option<Board> {
    let mut board = Board::default();
    for _ in 0..plies {
        let mut moves: Vec<Move> = Vec::new();
        board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
        if moves.is_empty() {
            return None;
        }
        board.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    (board.status() == GameStatus::Ongoing).then_some(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn one_seed_one_line_and_the_plies_asked_for() {
        let draw = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..20)
                .map(|i| random_opening(&mut rng, DEFAULT_PLIES, i.to_string()).board)
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        for board in draw(7) {
            let plies = 2 * (board.fullmove_number() - 1)
                + u16::from(board.side_to_move() == cozy_chess::Color::Black);
            assert!((8..=9).contains(&plies), "{board}: {plies} plies");
        }
    }
}
