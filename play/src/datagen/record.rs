//! One training position as the field's tools read it: bulletformat's 32-byte `ChessBoard`
//! (bullet's own data loader reads it) and the text form `FEN | score | result`, with the score in
//! centipawns and the result (1.0, 0.5, 0.0) both from White's point of view.
//!
//! The binary record is side-to-move relative (bulletformat flips the board, the score and the
//! result when Black is to move); [`Sample::to_record`] leaves that to the crate's
//! `ChessBoard::from_raw`, so the bytes are what bullet's own converter would write.

use bulletformat::ChessBoard;
use cozy_chess::{Board, Color, Piece};

use crate::arena::rules::Outcome;

/// Bytes of one binary record.
pub const RECORD_BYTES: usize = 32;

/// A position with its search score and its game's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The search's score, centipawns, from White's point of view.
    pub white_score: i16,
    /// How the game ended.
    pub result: Outcome,
}

impl Sample {
    /// White's result: 1 a win, 0.5 a draw, 0 a loss.
    pub fn white_result(&self) -> f32 {
        match self.result {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    /// The bulletformat record.
    pub fn to_record(&self) -> ChessBoard {
        let b = &self.board;
        let bbs = [
            b.colors(Color::White).0,
            b.colors(Color::Black).0,
            b.pieces(Piece::Pawn).0,
            b.pieces(Piece::Knight).0,
            b.pieces(Piece::Bishop).0,
            b.pieces(Piece::Rook).0,
            b.pieces(Piece::Queen).0,
            b.pieces(Piece::King).0,
        ];
        let stm = usize::from(b.side_to_move() == Color::Black);
        ChessBoard::from_raw(bbs, stm, self.white_score, self.white_result())
            .expect("a legal board has a piece on every occupied square")
    }

    /// The text line `FEN | score | result` (no newline).
    pub fn to_text(&self) -> String {
        format!(
            "{} | {} | {:.1}",
            self.board,
            self.white_score,
            self.white_result()
        )
    }
}

/// The 32 little-endian bytes of `record`, as bullet reads them (its files are the structs'
/// memory on little-endian machines).
pub fn to_bytes(record: &ChessBoard) -> [u8; RECORD_BYTES] {
    let mut out = [0u8; RECORD_BYTES];
    out[..8].copy_from_slice(&record.occ.to_le_bytes());
    out[8..24].copy_from_slice(&record.pcs);
    out[24..26].copy_from_slice(&record.score.to_le_bytes());
    out[26] = record.result;
    out[27] = record.ksq;
    out[28] = record.opp_ksq;
    out[29..].copy_from_slice(&record.extra);
    out
}

/// Why 32 bytes are not a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// More than 32 pieces, or none.
    #[error("{0} pieces on the board (expected 2 to 32)")]
    Pieces(u32),
    /// A result byte other than 0, 1 or 2.
    #[error("result byte {0} (expected 0, 1 or 2)")]
    Result(u8),
    /// A piece code outside the twelve.
    #[error("piece code {0} (expected 0–5 or 8–13)")]
    Piece(u8),
}

/// The record in `bytes`, checked so a file of another format is refused rather than trained on.
pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<ChessBoard, RecordError> {
    let take = |range: std::ops::Range<usize>| bytes[range].to_vec();
    let occ = u64::from_le_bytes(take(0..8).try_into().expect("8 bytes"));
    let record = ChessBoard {
        occ,
        pcs: take(8..24).try_into().expect("16 bytes"),
        score: i16::from_le_bytes([bytes[24], bytes[25]]),
        result: bytes[26],
        ksq: bytes[27],
        opp_ksq: bytes[28],
        extra: take(29..32).try_into().expect("3 bytes"),
    };
    let count = occ.count_ones();
    if !(2..=32).contains(&count) {
        return Err(RecordError::Pieces(count));
    }
    if record.result > 2 {
        return Err(RecordError::Result(record.result));
    }
    if let Some((piece, _)) = record.into_iter().find(|&(p, _)| p & 7 > 5) {
        return Err(RecordError::Piece(piece));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bulletformat::BulletFormat;

    fn sample(fen: &str, score: i16, result: Outcome) -> Sample {
        Sample {
            board: fen.parse().unwrap(),
            white_score: score,
            result,
        }
    }

    #[test]
    fn bytes_are_the_crates_memory_layout_and_read_back() {
        let s = sample(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            35,
            Outcome::WhiteWins,
        );
        let record = s.to_record();
        let ours = to_bytes(&record);
        assert_eq!(&ours[..], ChessBoard::as_bytes_slice(&[record]));
        assert_eq!(from_bytes(&ours).unwrap(), record);
    }

    #[test]
    fn text_form_parses_to_the_same_record_as_the_binary() {
        for (fen, score, result) in [
            (
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
                12,
                Outcome::Draw,
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                -140,
                Outcome::BlackWins,
            ),
            ("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", 250, Outcome::WhiteWins),
        ] {
            let s = sample(fen, score, result);
            let text: ChessBoard = s.to_text().parse().unwrap();
            assert_eq!(text, s.to_record(), "{}", s.to_text());
        }
    }

    #[test]
    fn black_to_move_is_stored_from_blacks_side() {
        let s = sample("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", 250, Outcome::WhiteWins);
        let record = s.to_record();
        assert_eq!(record.score, -250);
        assert_eq!(record.result, 0);
    }

    #[test]
    fn bytes_of_another_format_are_refused() {
        let mut bytes =
            to_bytes(&sample("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", 0, Outcome::Draw).to_record());
        bytes[26] = 7;
        assert_eq!(from_bytes(&bytes), Err(RecordError::Result(7)));
        assert_eq!(from_bytes(&[0; RECORD_BYTES]), Err(RecordError::Pieces(0)));
    }
}
