//! A game in progress: the board, the variant its moves are written in, and the hashes of every
//! earlier position for repetition detection.

use cozy_chess::{Board, Color, Move};

use crate::board::{parse_fen, FenError, MoveError};
use crate::variant::Variant;

/// A game: the current board plus the hashes of every earlier position, for repetition detection.
#[derive(Debug, Clone)]
pub struct Position {
    board: Board,
    history: Vec<u64>,
    variant: Variant,
}

impl Position {
    /// A standard-chess position with no history.
    pub fn new(board: Board) -> Self {
        Self::with_variant(board, Variant::Standard)
    }

    /// A position of `variant` with no history: its moves are read and written in that
    /// variant's UCI notation (the search's best move and PV too).
    pub fn with_variant(board: Board, variant: Variant) -> Self {
        Self {
            board,
            history: Vec::new(),
            variant,
        }
    }

    /// Which chess the position is.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Parses a FEN (4 to 6 fields).
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        parse_fen(fen).map(Self::new)
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a legal move given in the variant's UCI notation.
    pub fn play_uci(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.variant.parse_uci_move(&self.board, text)?;
        self.play(mv);
        Ok(())
    }

    /// Plays a move that must be legal.
    pub fn play(&mut self, mv: Move) {
        debug_assert!(self.board.is_legal(mv));
        self.history.push(self.board.hash());
        self.board.play_unchecked(mv);
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }
}
