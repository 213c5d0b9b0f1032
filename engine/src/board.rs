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
        /// The FEN as given (a bounded excerpt of a long one).
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
    let full = full_fields(fen)?;
    let full: Vec<&str> = full.iter().map(String::as_str).collect();
    if let Some(reason) = rights_problem(&full) {
        return Err(invalid(fen, reason));
    }
    Board::from_fen(&full.join(" "), false)
        .map_err(|e| invalid(fen, check_problem(&full).unwrap_or(e.to_string())))
}

/// A FEN's six fields (missing move counters as `0 1`), its placement and counters checked.
pub(crate) fn full_fields(fen: &str) -> Result<Vec<String>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(FenError::TooFewFields(fields.len()));
    }
    let mut full = fields[..fields.len().min(6)].to_vec();
    let defaults = ["0", "1"];
    full.extend_from_slice(&defaults[full.len() - 4..]);
    let problem = placement_problem(full[0]).or_else(|| counters_problem(full[4], full[5]));
    match problem {
        Some(reason) => Err(invalid(fen, reason)),
        None => Ok(full.into_iter().map(String::from).collect()),
    }
}

fn invalid(fen: &str, reason: String) -> FenError {
    FenError::Invalid {
        fen: crate::excerpt::excerpt(fen).into_owned(),
        reason,
    }
}

/// The largest halfmove clock a position can hold (the board library's bound: a clock past 100
/// plies is a game already drawn by the 50-move rule).
pub const MAX_HALFMOVE_CLOCK: u8 = 100;
/// The largest move number a position can hold (the board library stores it in 16 bits).
pub const MAX_FULLMOVE_NUMBER: u16 = u16::MAX;

/// What is wrong with a FEN's move counters: each must be a number the board can hold.
fn counters_problem(half: &str, full: &str) -> Option<String> {
    let half_ok = half.parse::<u8>().is_ok_and(|h| h <= MAX_HALFMOVE_CLOCK);
    let full_ok = full.parse::<u16>().is_ok_and(|f| f >= 1);
    (!(half_ok && full_ok)).then(|| {
        format!(
            "expected a halfmove clock of 0 to {MAX_HALFMOVE_CLOCK} and a move number of 1 to \
             {MAX_FULLMOVE_NUMBER}, found `{} {}`",
            crate::excerpt::excerpt(half),
            crate::excerpt::excerpt(full)
        )
    })
}

/// The piece on each square of a FEN's placement field (index = square, a1 = 0), or what is wrong
/// with the field.
pub(crate) fn placement(field: &str) -> Result<[Option<(Color, Piece)>; 64], String> {
    let mut squares = [None; 64];
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "expected 8 ranks in the placement, found {}",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let rank_no = 8 - i;
        let mut file = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let piece = Piece::try_from(c.to_ascii_lowercase()).map_err(|_| {
                format!("expected a piece letter or a digit, found `{c}` on rank {rank_no}")
            })?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if file < 8 {
                squares[(rank_no - 1) * 8 + file] = Some((color, piece));
            }
            file += 1;
        }
        if file != 8 {
            return Err(format!("rank {rank_no} has {file} squares, expected 8"));
        }
    }
    Ok(squares)
}

/// Kings and pawns: one king a side, no pawn on the first or last rank.
fn placement_problem(field: &str) -> Option<String> {
    let squares = match placement(field) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    for color in [Color::White, Color::Black] {
        let kings = squares
            .iter()
            .filter(|s| **s == Some((color, Piece::King)))
            .count();
        if kings != 1 {
            return Some(format!("{color:?} has {kings} kings, expected 1"));
        }
    }
    let pawn_rank =
        (0..64).find(|&i| matches!(squares[i], Some((_, Piece::Pawn))) && !(8..56).contains(&i));
    pawn_rank.map(|i| {
        format!(
            "a pawn stands on {} (no pawn can be on the first or last rank)",
            cozy_chess::Square::index(i)
        )
    })
}

/// Castling rights need the king and that rook on their home squares (standard chess, not
/// Chess960); an en-passant square must lie behind a pawn that just made a double step.
fn rights_problem(fields: &[&str]) -> Option<String> {
    let squares = placement(fields[0]).ok()?;
    let at = |sq: &str| squares[sq.parse::<cozy_chess::Square>().ok()? as usize];
    for right in fields[2].chars().filter(|&c| c != '-') {
        let (color, king, rook) = match right {
            'K' => (Color::White, "e1", "h1"),
            'Q' => (Color::White, "e1", "a1"),
            'k' => (Color::Black, "e8", "h8"),
            'q' => (Color::Black, "e8", "a8"),
            other => {
                return Some(format!(
                    "expected castling rights from KQkq or - (standard chess; Shredder-FEN rights need the chess960 variant), found `{other}`"
                ))
            }
        };
        if at(king) != Some((color, Piece::King)) || at(rook) != Some((color, Piece::Rook)) {
            return Some(format!(
                "castling right `{right}` needs the {color:?} king on {king} and a rook on {rook} (standard chess; a Chess960 position needs the chess960 variant)"
            ));
        }
    }
    let ep = fields[3];
    if ep != "-" {
        let (behind, pawn_rank, mover) = match fields[1] {
            "w" => ('6', '5', Color::Black),
            _ => ('3', '4', Color::White),
        };
        let file = ep.chars().next().unwrap_or('?');
        let fits = ep.len() == 2
            && ep.ends_with(behind)
            && at(&format!("{file}{pawn_rank}")) == Some((mover, Piece::Pawn))
            && at(ep).is_none();
        if !fits {
            return Some(format!(
                "en-passant square `{ep}` does not fit: expected a square on rank {behind} behind a {mover:?} pawn that just moved two squares"
            ));
        }
    }
    None
}

/// The side not to move in check (cozy-chess only says the board is invalid).
fn check_problem(fields: &[&str]) -> Option<String> {
    let mut flipped = fields.to_vec();
    flipped[1] = if fields[1] == "w" { "b" } else { "w" };
    flipped[3] = "-";
    let board = Board::from_fen(&flipped.join(" "), false).ok()?;
    (!board.checkers().is_empty()).then(|| {
        format!(
            "the side not to move ({:?}) is in check",
            board.side_to_move()
        )
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

/// A position after `plies` random legal moves from the start (fewer if the game ends first),
/// drawn from `seed`: positions of every phase for property tests.
#[cfg(test)]
pub(crate) fn random_playout(seed: u64, plies: usize) -> Board {
    let mut board = Board::default();
    let mut state = seed | 1;
    for _ in 0..plies {
        let moves = legal_moves(&board);
        if moves.is_empty() {
            break;
        }
        // xorshift64: enough spread for picking moves, no dependency.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        board.play_unchecked(moves[(state % moves.len() as u64) as usize]);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Fuzz: any text, and text shaped like a FEN, is a board or a reasoned error, never a panic.
        #[test]
        fn any_fen_text_is_a_board_or_an_error(
            text in "[1-8pnbrqkPNBRQK/ wa-h0-9-]{0,90}|\\PC{0,60}"
        ) {
            if let Err(e) = parse_fen(&text) {
                proptest::prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn epd_fields_get_default_counters() {
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(b, Board::default());
    }

    #[test]
    fn invalid_positions_say_which_rule_failed() {
        for (fen, reason) in [
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 kings"),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings"),
            ("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn stands on d8"),
            ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", ""),
            (
                "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
                "the side not to move (Black) is in check",
            ),
            (
                "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
                "castling right `K` needs the White king on e1 and a rook on h1",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                "en-passant square `e6` does not fit",
            ),
            ("4k3/8/8/8/8/8/8/4K3 w Z - 0 1", "castling rights from KQkq"),
            ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "rank 1 has 9 squares"),
            ("4k3/8/8/8/8/8/4K3 w - - 0 1", "expected 8 ranks"),
            ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "found `X`"),
        ] {
            match parse_fen(fen) {
                Ok(_) => assert_eq!(reason, "", "{fen} was accepted"),
                Err(e) => {
                    let e = e.to_string();
                    assert!(!reason.is_empty() && e.contains(reason), "{fen}: {e}");
                }
            }
        }
        // A real en-passant square is fine.
        assert!(parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").is_ok());
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
