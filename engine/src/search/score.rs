//! Score conventions: mate scores are `MATE - ply` (mating) and `-(MATE - ply)` (mated), counted
//! from the root; in the TT they are stored relative to the node.

use crate::eval::Score;

/// The score of giving mate at the root (ply 0).
pub const MATE: Score = 32_000;
/// Above this magnitude a score is a mate score.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: Score = MATE + 1;
/// A draw.
pub const DRAW: Score = 0;

/// The score of being mated at `ply`.
pub fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Converts a root-relative mate score to node-relative for storing.
pub fn to_tt(score: Score, ply: usize) -> Score {
    match score {
        s if s > MATE_BOUND => s + ply as Score,
        s if s < -MATE_BOUND => s - ply as Score,
        s => s,
    }
}

/// Converts a stored node-relative mate score back to root-relative.
pub fn from_tt(score: Score, ply: usize) -> Score {
    match score {
        s if s > MATE_BOUND => s - ply as Score,
        s if s < -MATE_BOUND => s + ply as Score,
        s => s,
    }
}

/// Moves to mate (positive: the side to move mates; negative: it is mated), if a mate score.
pub fn mate_in_moves(score: Score) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score + 1) / 2)
    } else {
        None
    }
}
