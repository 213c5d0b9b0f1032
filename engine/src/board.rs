//! A thin layer over [`cozy_chess::Board`]: FEN/EPD parsing, UCI move notation, and the game
//! history the search needs for repetition detection.

use cozy_chess::{util, Board, Color, Move, Piece};
use thiserror::Error;

/// Why a FEN (or the four position fields of an EPD record) could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than four fields.
    #[error("expected at least 4 FEN fields (board, side, castling, en passant), found {0}")]
    TooFewFields(usize),
    /// cozy-chess rejected the position.
    #[error("invalid FEN `{fen}`: {reason}")]
    Invalid {
        /// The FEN as given.
        fen: String,
        /// cozy-chess's reason.
        reason: String,
    },
}

/// Why a move in UCI or SAN notation could not be played.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("expected a legal move, found `{0}`")]
pub struct MoveError(pub String);

/// Parses a FEN with 4 to 6 fields; missing move counters default to `0 1` (EPD has only 4 fields).
///
/// ```
/// let board = engine::board::parse_fen("8/8/8/8/8/8/8/K1k5 w - -").unwrap();
/// assert_eq!(board.fullmove_number(), 1);
/// ```
pub fn parse_fen(fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(FenError::TooFewFields(fields.len()));
    }
    let mut full = fields[..fields.len().min(6)].to_vec();
    let defaults = ["0", "1"];
    full.extend_from_slice(&defaults[full.len() - 4..]);
    let text = full.join(" ");
    Board::from_fen(&text, false).map_err(|e| FenError::Invalid {
        fen: fen.to_string(),
        reason: e.to_string(),
    })
}

/// The move in UCI notation (castling as king two squares, not king-takes-rook).
pub fn uci_move(board: &Board, mv: Move) -> String {
    util::display_uci_move(board, mv).to_string()
}

/// Parses a move in UCI notation and checks that it is legal here.
pub fn parse_uci_move(board: &Board, text: &str) -> Result<Move, MoveError> {
    util::parse_uci_move(board, text)
        .ok()
        .filter(|&mv| board.is_legal(mv))
        .ok_or_else(|| MoveError(text.to_string()))
}

/// The move in standard algebraic notation.
pub fn san_move(board: &Board, mv: Move) -> String {
    util::display_san_move(board, mv).to_string()
}

/// Whether the move captures (including en passant; castling is king-takes-own-rook, not a capture).
pub fn is_capture(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to) || is_en_passant(board, mv)
}

/// Whether the move is an en-passant capture.
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && board.piece_on(mv.to).is_none()
}

/// Whether the move is castling (encoded king-takes-own-rook by cozy-chess).
pub fn is_castling(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// All legal moves in generation order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
}

/// A game: the current board plus the hashes of every earlier position, for repetition detection.
#[derive(Debug, Clone)]
pub struct Position {
    board: Board,
    history: Vec<u64>,
}

impl Position {
    /// A position with no history.
    pub fn new(board: Board) -> Self {
        Self {
            board,
            history: Vec::new(),
        }
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

    /// Plays a legal move given in UCI notation.
    pub fn play_uci(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = parse_uci_move(&self.board, text)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_fields_get_default_counters() {
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(b, Board::default());
    }

    #[test]
    fn short_fen_is_an_error() {
        assert_eq!(parse_fen("8/8/8 w"), Err(FenError::TooFewFields(2)));
    }

    #[test]
    fn castling_is_printed_in_uci_form() {
        let b = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let mv = parse_uci_move(&b, "e1g1").unwrap();
        assert!(is_castling(&b, mv));
        assert!(!is_capture(&b, mv));
        assert_eq!(uci_move(&b, mv), "e1g1");
    }

    #[test]
    fn illegal_uci_move_is_rejected() {
        let b = Board::default();
        assert!(parse_uci_move(&b, "e2e5").is_err());
        assert!(parse_uci_move(&b, "zz").is_err());
    }

    #[test]
    fn en_passant_is_a_capture() {
        let b = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        let mv = parse_uci_move(&b, "e5d6").unwrap();
        assert!(is_en_passant(&b, mv) && is_capture(&b, mv));
    }
}
