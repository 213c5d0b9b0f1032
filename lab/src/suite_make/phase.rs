//! The game phase a position is counted in when a population is described or split: an endgame
//! has at most a quarter of the opening's piece material (the evaluation's phase, 24 with all
//! pieces on: minor 1, rook 2, queen 4), e.g. rook and bishop against rook and knight.

use std::fmt;
use std::str::FromStr;

use cozy_chess::Board;

/// The evaluation phase at or below which a position counts as an endgame.
pub const ENDGAME_PHASE: i32 = 6;

/// Middle game (opening included) or endgame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// More than [`ENDGAME_PHASE`] of piece material.
    Middlegame,
    /// At most [`ENDGAME_PHASE`].
    Endgame,
}

impl Phase {
    /// The phase of `board`.
    pub fn of(board: &Board) -> Self {
        if engine::eval::game_phase(board) <= ENDGAME_PHASE {
            Phase::Endgame
        } else {
            Phase::Middlegame
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        })
    }
}

impl FromStr for Phase {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "middlegame" => Ok(Phase::Middlegame),
            "endgame" => Ok(Phase::Endgame),
            _ => Err(format!("expected `middlegame` or `endgame`, found `{s}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_and_minor_each_is_an_endgame_a_queen_more_is_not() {
        let board = |fen: &str| Board::from_fen(fen, false).unwrap();
        let rb_rn = board("4k3/2r1n3/8/8/8/8/2R1B3/4K3 w - - 0 1");
        assert_eq!(Phase::of(&rb_rn), Phase::Endgame);
        let plus_queen = board("3qk3/2r1n3/8/8/8/8/2R1B3/4K3 w - - 0 1");
        assert_eq!(Phase::of(&plus_queen), Phase::Middlegame);
        assert_eq!(Phase::of(&Board::default()), Phase::Middlegame);
        assert_eq!("endgame".parse::<Phase>(), Ok(Phase::Endgame));
        assert!("opening".parse::<Phase>().is_err());
    }
}
