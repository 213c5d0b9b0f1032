//! The material-and-placement part of the evaluation, kept up to date move by move: the search
//! updates it on each move it makes instead of the evaluation summing every piece at each node.
//! It holds exactly the sums the evaluation would make, so values do not change.

use cozy_chess::{Board, Color, File, Move, Piece, Square};

use super::layout;
use super::{phase_weight, Pair, Score};

/// Material plus square weight of every piece of every colour on every square
/// (`[colour][piece][square]`): an evaluation's weights worked out once for the inner loop (the
/// king's material is left out: both sides always have one).
pub type PlacedTable = [[[Pair; 64]; 6]; 2];

/// The table of `weights` (indexed as [`layout`]).
pub fn placed_table(weights: &[Pair]) -> Box<PlacedTable> {
    let mut table = Box::new([[[Pair::default(); 64]; 6]; 2]);
    for piece in Piece::ALL {
        let value = match piece {
            Piece::King => Pair::default(),
            _ => weights[layout::material(piece)],
        };
        for square in Square::ALL {
            for color in Color::ALL {
                let white_square = match color {
                    Color::White => square,
                    Color::Black => square.flip_rank(),
                };
                let bonus = weights[layout::psqt(piece, white_square)];
                table[color as usize][piece as usize][square as usize] =
                    Pair::new(value.mg + bonus.mg, value.eg + bonus.eg);
            }
        }
    }
    table
}

/// Material plus square bonuses of every piece (White's minus Black's, middle game and endgame)
/// and the unclamped game phase, of one position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Placement {
    /// White's middle-game sum minus Black's.
    pub mg: Score,
    /// White's endgame sum minus Black's.
    pub eg: Score,
    /// The phase weights of every piece on the board (the evaluation clamps it).
    pub phase: Score,
}

impl Placement {
    /// Summed over the whole board.
    pub fn of(board: &Board, table: &PlacedTable) -> Self {
        let mut placement = Self::default();
        for color in Color::ALL {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    placement.add(table, color, piece, square);
                }
            }
        }
        placement
    }

    /// After `mv` (legal in `board`) is played: only the squares the move changes are looked at.
    pub fn after(mut self, board: &Board, mv: Move, table: &PlacedTable) -> Self {
        let us = board.side_to_move();
        let piece = board.piece_on(mv.from).expect("a move starts on a piece");
        if board.colors(us).has(mv.to) {
            // Castling: cozy-chess writes it as the king taking its own rook.
            let rank = mv.from.rank();
            let short = mv.to.file() > mv.from.file();
            let (king_to, rook_to) = if short {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            self.remove(table, us, Piece::King, mv.from);
            self.remove(table, us, Piece::Rook, mv.to);
            self.add(table, us, Piece::King, Square::new(king_to, rank));
            self.add(table, us, Piece::Rook, Square::new(rook_to, rank));
            return self;
        }
        self.remove(table, us, piece, mv.from);
        if board.colors(!us).has(mv.to) {
            let victim = board.piece_on(mv.to).expect("an enemy piece stands there");
            self.remove(table, !us, victim, mv.to);
        } else if piece == Piece::Pawn && mv.from.file() != mv.to.file() {
            // En passant: the captured pawn stands beside the capturer.
            self.remove(
                table,
                !us,
                Piece::Pawn,
                Square::new(mv.to.file(), mv.from.rank()),
            );
        }
        self.add(table, us, mv.promotion.unwrap_or(piece), mv.to);
        self
    }

    fn add(&mut self, table: &PlacedTable, color: Color, piece: Piece, square: Square) {
        self.shift(table, color, piece, square, 1);
    }

    fn remove(&mut self, table: &PlacedTable, color: Color, piece: Piece, square: Square) {
        self.shift(table, color, piece, square, -1);
    }

    fn shift(
        &mut self,
        table: &PlacedTable,
        color: Color,
        piece: Piece,
        square: Square,
        sign: Score,
    ) {
        let w = table[color as usize][piece as usize][square as usize];
        let sign_for_white = if color == Color::White { sign } else { -sign };
        self.mg += sign_for_white * w.mg;
        self.eg += sign_for_white * w.eg;
        self.phase += sign * phase_weight(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every term's table on, so that no weight is zero by accident.
    fn table() -> Box<PlacedTable> {
        placed_table(&layout::Params::of(&super::super::Evaluation::everything_on()).weights)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Updated move by move, the placement equals the one summed over the new board, for
        /// every legal move (castling both ways, en passant, promotions, captures) of positions
        /// of random games.
        #[test]
        fn updated_equals_summed(seed in 0u64..u64::MAX, plies in 0usize..160) {
            let board = crate::board::random_playout(seed, plies);
            let table = table();
            let here = Placement::of(&board, &table);
            for mv in crate::board::legal_moves(&board) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                proptest::prop_assert_eq!(here.after(&board, mv, &table), Placement::of(&child, &table), "{}", mv);
            }
        }
    }

    #[test]
    fn castling_and_en_passant_are_updated() {
        for (fen, uci) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n"),
        ] {
            let board = crate::board::parse_fen(fen).unwrap();
            let mv = crate::board::parse_uci_move(&board, uci).unwrap();
            let mut child = board.clone();
            child.play_unchecked(mv);
            let table = table();
            assert_eq!(
                Placement::of(&board, &table).after(&board, mv, &table),
                Placement::of(&child, &table),
                "{uci}"
            );
        }
    }
}
