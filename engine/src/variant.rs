//! Which chess a game is: standard, or Chess960 (Fischer random; its double form DFRC, where the
//! two sides' back ranks differ, is the same rules). cozy-chess plays castling as the king taking
//! its own rook in both; what differs is the notation. In Chess960 castling rights name the
//! rook's file (Shredder-FEN `HAha`, or X-FEN's `KQkq` for the outermost rook on that side) and a
//! UCI castling move is written king-takes-rook (`e1h1`), as engines expect once `UCI_Chess960`
//! is set.
//!
//! ```
//! use engine::variant::Variant;
//! // A DFRC start: white's king on b1 between rooks on a1 and h1.
//! let fen = "rkbnnqbr/pppppppp/8/8/8/8/PPPPPPPP/RKNBBQNR w KQkq - 0 1";
//! let board = Variant::Chess960.parse_fen(fen).unwrap();
//! assert_eq!(Variant::Chess960.fen(&board), "rkbnnqbr/pppppppp/8/8/8/8/PPPPPPPP/RKNBBQNR w HAha - 0 1");
//! assert!(Variant::Standard.parse_fen(fen).is_err(), "the king is not on e1");
//! ```

use std::fmt;
use std::str::FromStr;

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};
use serde::{Deserialize, Serialize};

use crate::board::{self, FenError, MoveError};

/// Standard chess or Chess960.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Standard chess: castling rights `KQkq`, castling written as the king's two-square move.
    #[default]
    Standard,
    /// Chess960 and DFRC: castling rights by rook file, castling written king-takes-rook.
    Chess960,
}

impl Variant {
    /// Parses a FEN (4 to 6 fields) of this variant: standard positions as
    /// [`board::parse_fen`] does; Chess960 ones with Shredder-FEN or X-FEN castling rights.
    pub fn parse_fen(self, fen: &str) -> Result<Board, FenError> {
        match self {
            Self::Standard => board::parse_fen(fen),
            Self::Chess960 => parse_960(fen),
        }
    }

    /// The position's FEN: Shredder-FEN castling rights in Chess960 (python-chess, Stockfish and
    /// cutechess read them), `KQkq` in standard chess.
    pub fn fen(self, board: &Board) -> String {
        match self {
            Self::Standard => board.to_string(),
            Self::Chess960 => format!("{board:#}"),
        }
    }

    /// The move in this variant's UCI notation.
    pub fn uci_move(self, board: &Board, mv: Move) -> String {
        match self {
            Self::Standard => board::uci_move(board, mv),
            Self::Chess960 => mv.to_string(),
        }
    }

    /// Parses a move in this variant's UCI notation and checks that it is legal here.
    pub fn parse_uci_move(self, board: &Board, text: &str) -> Result<Move, MoveError> {
        match self {
            Self::Standard => board::parse_uci_move(board, text),
            Self::Chess960 => text
                .parse::<Move>()
                .ok()
                .filter(|&mv| board.is_legal(mv))
                .ok_or_else(|| MoveError(crate::excerpt::excerpt(text).into_owned())),
        }
    }

    /// Its name on the command line, in manifests and in PGN's `Variant` tag.
    pub fn name(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Chess960 => "chess960",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Self::Standard),
            "chess960" | "fischerandom" | "frc" | "dfrc" => Ok(Self::Chess960),
            _ => Err(format!(
                "expected a variant `standard` or `chess960`, found `{}`",
                crate::excerpt::excerpt(s)
            )),
        }
    }
}

/// A Chess960 FEN: the placement and counters checked as in standard chess, X-FEN rights turned
/// into Shredder-FEN, then read by cozy-chess (which checks each right's king and rook).
fn parse_960(fen: &str) -> Result<Board, FenError> {
    let mut fields = board::full_fields(fen)?;
    let invalid = |reason: String| FenError::Invalid {
        fen: crate::excerpt::excerpt(fen).into_owned(),
        reason,
    };
    let squares = board::placement(&fields[0]).map_err(invalid)?;
    fields[2] = shredder_rights(&squares, &fields[2]).map_err(invalid)?;
    let text = fields.join(" ");
    Board::from_fen(&text, true).map_err(|e| {
        invalid(format!(
            "{e}: expected each castling right's rook on its file of the back rank, beside the king"
        ))
    })
}

/// The castling field in Shredder-FEN: file letters kept, X-FEN's `K`/`Q` turned into the file of
/// the outermost rook on that side of the king.
fn shredder_rights(squares: &[Option<(Color, Piece)>; 64], field: &str) -> Result<String, String> {
    if field == "-" {
        return Ok(field.to_string());
    }
    field
        .chars()
        .map(|c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let letter = match c.to_ascii_lowercase() {
                f @ 'a'..='h' => f,
                side @ ('k' | 'q') => outermost_rook(squares, color, side == 'k').ok_or_else(|| {
                    format!("castling right `{c}` needs a {color:?} rook on the back rank on that side of the king")
                })?,
                _ => {
                    return Err(format!(
                        "expected castling rights as file letters (Shredder-FEN), KQkq (X-FEN) or -, found `{c}`"
                    ))
                }
            };
            Ok(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            })
        })
        .collect()
}

/// The file letter of `color`'s outermost rook on its back rank, beyond the king on the short
/// (h-file) or long (a-file) side.
fn outermost_rook(
    squares: &[Option<(Color, Piece)>; 64],
    color: Color,
    short: bool,
) -> Option<char> {
    let rank = Rank::First.relative_to(color);
    let at = |file: File| squares[Square::new(file, rank) as usize];
    let king = File::ALL
        .into_iter()
        .find(|&f| at(f) == Some((color, Piece::King)))?;
    let rooks = File::ALL
        .into_iter()
        .filter(|&f| at(f) == Some((color, Piece::Rook)) && (f > king) == short && f != king);
    let file = if short { rooks.max() } else { rooks.min() }?;
    Some(char::from(file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    /// Perft of Chess960 positions from the reference list that chessprogramming.org carries
    /// (Reinhard Scharnagl's, checked by many engines): castling in every form, including the
    /// king and rook swapping squares and castling with the rook already on the target square.
    const PERFTS: [(&str, [u64; 4]); 4] = [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            [21, 528, 12189, 326672],
        ),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            [21, 807, 18002, 667366],
        ),
        (
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            [20, 479, 10471, 273318],
        ),
        (
            "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
            [22, 593, 13440, 382958],
        ),
    ];

    #[test]
    fn chess960_perft_matches_the_reference_counts() {
        for (fen, counts) in PERFTS {
            let board = Variant::Chess960.parse_fen(fen).unwrap();
            for (depth, &expected) in counts.iter().enumerate() {
                assert_eq!(
                    perft(&board, depth as u32 + 1),
                    expected,
                    "{fen} depth {}",
                    depth + 1
                );
            }
        }
    }

    #[test]
    fn x_fen_rights_name_the_outermost_rooks() {
        // Rooks on b1, d1 and h1 around the king on c1: Q is b, K is h (not d).
        let fen = "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1RKR3R w KQkq - 0 1";
        let board = Variant::Chess960.parse_fen(fen).unwrap();
        assert_eq!(
            Variant::Chess960.fen(&board),
            "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1RKR3R w HBhb - 0 1"
        );
        let err = Variant::Chess960
            .parse_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1")
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("castling right `K` needs a White rook"),
            "{err}"
        );
        let err = Variant::Chess960
            .parse_fen("4k3/8/8/8/8/8/8/R3K3 w X - 0 1")
            .unwrap_err();
        assert!(err.to_string().contains("found `X`"), "{err}");
    }

    #[test]
    fn castling_is_written_king_takes_rook_in_chess960_and_two_squares_in_standard() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let standard = Variant::Standard.parse_fen(fen).unwrap();
        let c960 = Variant::Chess960.parse_fen(fen).unwrap();
        assert_eq!(standard, c960, "the same position either way");
        let short = Variant::Chess960.parse_uci_move(&c960, "e1h1").unwrap();
        assert_eq!(Variant::Standard.uci_move(&standard, short), "e1g1");
        assert_eq!(Variant::Chess960.uci_move(&c960, short), "e1h1");
        assert_eq!(
            Variant::Standard.parse_uci_move(&standard, "e1g1").unwrap(),
            short
        );
        assert!(
            Variant::Chess960.parse_uci_move(&c960, "e1g1").is_err(),
            "a king move of two squares is not castling here"
        );
        // King on b1, rook on a1: long castling lands the king on c1 — a plain king step in
        // standard notation, so only king-takes-rook says which move is meant.
        let b = Variant::Chess960
            .parse_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1")
            .unwrap();
        let long = Variant::Chess960.parse_uci_move(&b, "b1a1").unwrap();
        let mut after = b.clone();
        after.play(long);
        assert_eq!(after.piece_on(Square::C1), Some(Piece::King));
        assert_eq!(after.piece_on(Square::D1), Some(Piece::Rook));
    }

    #[test]
    fn variants_are_named_as_fastchess_and_cutechess_name_them() {
        assert_eq!("chess960".parse::<Variant>(), Ok(Variant::Chess960));
        assert_eq!("fischerandom".parse::<Variant>(), Ok(Variant::Chess960));
        assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Standard));
        assert!("crazyhouse"
            .parse::<Variant>()
            .unwrap_err()
            .contains("expected a variant"));
    }
}
