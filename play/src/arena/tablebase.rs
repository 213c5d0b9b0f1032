//! Adjudication by the project's own retrograde tables (`--tb-adjudicate`), as fastchess
//! adjudicates with Syzygy: a game that reaches king and queen, rook or pawn against a lone king
//! ends with the tables' value — won by the side with the piece, or drawn — as termination
//! `adjudication: tablebase`. The tables ([`crate::kpk::table`], under a second to build) are
//! built once per process, on the first game that needs them.

use std::sync::OnceLock;

use cozy_chess::{Board, Piece};

use super::rules::{Outcome, Termination};
use crate::kpk::table::{Placement, Tables, DRAW, ILLEGAL};

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables' verdict on `board`, if it is KQK, KRK or KPK (either colour with the piece).
pub fn adjudicate(board: &Board) -> Option<(Outcome, Termination)> {
    let (placement, strong) = Placement::of_either_side(board)?;
    let tables = TABLES.get_or_init(Tables::build);
    let table = match placement.piece {
        Piece::Queen => &tables.queen,
        Piece::Rook => &tables.rook,
        Piece::Pawn => &tables.pawn,
        _ => return None,
    };
    match table.value(&placement) {
        ILLEGAL => None,
        DRAW => Some((Outcome::Draw, Termination::Tablebase)),
        _ => Some((Outcome::win_for(strong), Termination::Tablebase)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(fen: &str) -> Option<Outcome> {
        adjudicate(&engine::board::parse_fen(fen).unwrap()).map(|(o, _)| o)
    }

    #[test]
    fn the_tables_judge_both_colours_and_only_their_material() {
        // KQK: won for the side with the queen, whichever colour it is.
        assert_eq!(
            verdict("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
            Some(Outcome::WhiteWins)
        );
        assert_eq!(
            verdict("3qk3/8/8/8/4K3/8/8/8 b - - 0 1"),
            Some(Outcome::BlackWins)
        );
        // The lone king takes the undefended rook: a draw.
        assert_eq!(
            verdict("8/8/8/8/8/8/1k6/1R5K b - - 0 1"),
            Some(Outcome::Draw)
        );
        // KPK: the king on the sixth ahead of its pawn wins whoever moves; pawn on the sixth,
        // king behind it, the defender in front and White to move draws (Kf6 Kf8 e7+ Ke8 Ke6 is
        // stalemate); a stalemated king draws; mirrored for Black.
        assert_eq!(
            verdict("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"),
            Some(Outcome::WhiteWins)
        );
        assert_eq!(
            verdict("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1"),
            Some(Outcome::Draw)
        );
        assert_eq!(
            verdict("8/8/8/8/8/2k5/2p5/2K5 w - - 0 1"),
            Some(Outcome::Draw)
        );
        assert_eq!(
            verdict("8/8/8/8/8/3k4/2p5/4K3 b - - 0 1"),
            Some(Outcome::BlackWins)
        );
        // Other material is not the tables'.
        assert_eq!(verdict("8/8/8/4k3/8/8/8/3BK3 w - - 0 1"), None);
        assert_eq!(verdict("8/8/8/4k3/8/8/3P4/3QK3 w - - 0 1"), None);
    }
}
