//! How a game ends: by the rules of chess (mate, stalemate, threefold repetition, the fifty-move
//! rule, insufficient material), by the ply limit, by score adjudication as cutechess and fastchess
//! name it (`--resign-score/--resign-moves`, `--draw-score/--draw-moves/--draw-after`), or by a
//! player's fault (time, crash, hang, illegal move: that player loses).

use cozy_chess::{BitBoard, Board, Color, GameStatus, Piece};
use serde::{Deserialize, Serialize};

/// A finished game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result.
    pub fn pgn(self) -> &'static str {
        match self {
            Self::WhiteWins => "1-0",
            Self::BlackWins => "0-1",
            Self::Draw => "1/2-1/2",
        }
    }

    /// The win of `color`.
    pub fn win_for(color: Color) -> Self {
        match color {
            Color::White => Self::WhiteWins,
            Color::Black => Self::BlackWins,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// `--max-plies` reached.
    MaxPlies,
    /// A player's score stayed below `−resign-score` for `resign-moves` moves.
    Resignation,
    /// Both scores stayed within `draw-score` for `draw-moves` moves each.
    DrawAdjudication,
    /// The project's tables valued the position (`--tb-adjudicate`).
    Tablebase,
    /// A player's clock ran out.
    Time,
    /// A UCI player exited or closed its pipes.
    Crash,
    /// A UCI player did not answer in time.
    Hang,
    /// A UCI player sent an illegal or unreadable move.
    IllegalMove,
}

impl Termination {
    /// The name in `games.csv` and the PGN `Termination` tag.
    pub fn name(self) -> &'static str {
        match self {
            Self::Checkmate => "checkmate",
            Self::Stalemate => "stalemate",
            Self::Repetition => "threefold repetition",
            Self::FiftyMoves => "fifty-move rule",
            Self::InsufficientMaterial => "insufficient material",
            Self::MaxPlies => "ply limit",
            Self::Resignation => "adjudication: resignation",
            Self::DrawAdjudication => "adjudication: draw",
            Self::Tablebase => "adjudication: tablebase",
            Self::Time => "time forfeit",
            Self::Crash => "forfeit: crash",
            Self::Hang => "forfeit: hang",
            Self::IllegalMove => "forfeit: illegal move",
        }
    }
}

/// Score adjudication: resign when hopeless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Centipawns: a player whose score is at most −this …
    pub score: i32,
    /// … for this many of its own consecutive moves loses.
    pub moves: usize,
}

/// Score adjudication: draw when dead even.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Centipawns: when both players' scores stay within ±this …
    pub score: i32,
    /// … for this many moves each …
    pub moves: usize,
    /// … from this full-move number on, the game is drawn.
    pub after: u32,
}

/// The ending rules of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Rules {
    /// Plies after which the game is drawn (`--max-plies`).
    pub max_plies: Option<usize>,
    /// Resignation adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Milliseconds a move may overrun its clock without losing (fastchess's `timemargin`):
    /// the overrun is forgiven, counted, and the clock set to 0 before the increment.
    #[serde(default)]
    pub time_margin_ms: u64,
    /// Adjudicate KQK, KRK and KPK by the project's retrograde tables (`--tb-adjudicate`).
    #[serde(default)]
    pub tb_adjudicate: bool,
}

/// For `report.md`: `no ply limit; resign at −500 cp for 3 moves; no draw adjudication`.
impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.max_plies {
            Some(p) => write!(f, "drawn after {p} plies")?,
            None => write!(f, "no ply limit")?,
        }
        match self.resign {
            Some(r) => write!(
                f,
                "; a player at −{} cp or worse for {} of its moves in a row resigns",
                r.score, r.moves
            )?,
            None => write!(f, "; no resignation adjudication")?,
        }
        match self.draw {
            Some(d) => write!(
                f,
                "; drawn when both scores stay within ±{} cp for {} moves each from move {} on",
                d.score, d.moves, d.after
            ),
            None => write!(f, "; no draw adjudication"),
        }?;
        if self.tb_adjudicate {
            write!(f, "; KQK, KRK and KPK adjudicated by the project's tables")?;
        }
        match self.time_margin_ms {
            0 => Ok(()),
            ms => write!(f, "; clock overruns up to {ms} ms forgiven"),
        }
    }
}

/// The end by the rules of chess, if the game is over in `board`; `history` holds the hashes of
/// the positions before it since the game started.
pub fn by_the_rules(board: &Board, history: &[u64]) -> Option<(Outcome, Termination)> {
    // cozy-chess reports the fifty-move rule as `Drawn` too: stalemate is no legal move.
    let no_moves = !board.generate_moves(|_| true);
    match board.status() {
        GameStatus::Won => {
            return Some((
                Outcome::win_for(!board.side_to_move()),
                Termination::Checkmate,
            ))
        }
        GameStatus::Drawn if no_moves => return Some((Outcome::Draw, Termination::Stalemate)),
        _ => {}
    }
    if board.halfmove_clock() >= 100 {
        return Some((Outcome::Draw, Termination::FiftyMoves));
    }
    let hash = board.hash();
    let reversible = (board.halfmove_clock() as usize).min(history.len());
    let earlier = history[history.len() - reversible..]
        .iter()
        .filter(|&&h| h == hash)
        .count();
    if earlier >= 2 {
        return Some((Outcome::Draw, Termination::Repetition));
    }
    insufficient_material(board).then_some((Outcome::Draw, Termination::InsufficientMaterial))
}

/// No pawn, rook or queen, and at most one minor piece, or only bishops all on squares of one
/// colour: no sequence of legal moves can mate.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if (knights | bishops).len() <= 1 {
        return true;
    }
    let dark = BitBoard(0xAA55_AA55_AA55_AA55);
    knights.is_empty() && ((bishops & dark).is_empty() || (bishops & !dark).is_empty())
}

impl Rules {
    /// The end by adjudication after a move, given every move's score so far from its mover's
    /// point of view (`None` where a player gave none), the ply count and the full-move number.
    pub fn adjudicate(
        &self,
        scores: &[Option<i32>],
        fullmove: u32,
        mover: Color,
    ) -> Option<(Outcome, Termination)> {
        if self.max_plies.is_some_and(|m| scores.len() >= m) {
            return Some((Outcome::Draw, Termination::MaxPlies));
        }
        if let Some(r) = self.resign {
            let own: Vec<Option<i32>> = scores
                .iter()
                .rev()
                .step_by(2)
                .take(r.moves)
                .copied()
                .collect();
            if r.moves > 0
                && own.len() == r.moves
                && own.iter().all(|s| s.is_some_and(|v| v <= -r.score))
            {
                return Some((Outcome::win_for(!mover), Termination::Resignation));
            }
        }
        if let Some(d) = self.draw {
            let last: Vec<Option<i32>> = scores.iter().rev().take(2 * d.moves).copied().collect();
            if d.moves > 0
                && fullmove >= d.after
                && last.len() == 2 * d.moves
                && last.iter().all(|s| s.is_some_and(|v| v.abs() <= d.score))
            {
                return Some((Outcome::Draw, Termination::DrawAdjudication));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::board::parse_fen;

    #[test]
    fn rules_read_as_a_sentence() {
        assert_eq!(
            Rules::default().to_string(),
            "no ply limit; no resignation adjudication; no draw adjudication"
        );
        let rules = Rules {
            max_plies: Some(400),
            resign: Some(ResignRule {
                score: 600,
                moves: 4,
            }),
            draw: Some(DrawRule {
                score: 10,
                moves: 8,
                after: 34,
            }),
            time_margin_ms: 50,
            tb_adjudicate: true,
        };
        assert_eq!(
            rules.to_string(),
            "drawn after 400 plies; a player at −600 cp or worse for 4 of its moves in a row resigns; \
             drawn when both scores stay within ±10 cp for 8 moves each from move 34 on; KQK, KRK and \
             KPK adjudicated by the project's tables; clock overruns up to 50 ms forgiven"
        );
    }

    fn end(fen: &str) -> Option<(Outcome, Termination)> {
        by_the_rules(&parse_fen(fen).unwrap(), &[])
    }

    #[test]
    fn the_rules_of_chess() {
        assert_eq!(
            end("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
            Some((Outcome::WhiteWins, Termination::Checkmate))
        );
        assert_eq!(
            end("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((Outcome::Draw, Termination::Stalemate))
        );
        assert_eq!(
            end("7k/8/8/8/8/8/1R6/6K1 b - - 100 80"),
            Some((Outcome::Draw, Termination::FiftyMoves))
        );
        assert_eq!(end("7k/8/8/8/8/8/1R6/6K1 b - - 99 80"), None);
        for (fen, dead) in [
            ("7k/8/8/8/8/8/8/6K1 w - - 0 1", true),
            ("7k/8/8/8/8/8/8/5NK1 w - - 0 1", true),
            ("5b1k/8/8/8/8/8/8/2B3K1 w - - 0 1", true),
            ("6bk/8/8/8/8/8/8/2B3K1 w - - 0 1", false),
            ("7k/8/8/8/8/8/8/4NNK1 w - - 0 1", false),
            ("7k/8/8/8/8/8/P7/6K1 w - - 0 1", false),
        ] {
            assert_eq!(
                insufficient_material(&parse_fen(fen).unwrap()),
                dead,
                "{fen}"
            );
        }
    }

    #[test]
    fn the_third_occurrence_is_a_repetition() {
        let board = parse_fen("7k/8/8/8/8/8/1R6/6K1 b - - 8 40").unwrap();
        let h = board.hash();
        assert_eq!(by_the_rules(&board, &[h, 1, 2, 3]), None);
        assert_eq!(
            by_the_rules(&board, &[h, 1, 2, 3, h, 5, 6, 7]),
            Some((Outcome::Draw, Termination::Repetition))
        );
        // Positions before the last irreversible move do not count.
        assert_eq!(
            by_the_rules(&board, &[h, 9, h, 1, 2, 3, 4, 5, 6, 7, 8]),
            None
        );
    }

    #[test]
    fn adjudication_by_scores() {
        let rules = Rules {
            max_plies: Some(100),
            resign: Some(ResignRule {
                score: 600,
                moves: 3,
            }),
            draw: Some(DrawRule {
                score: 10,
                moves: 2,
                after: 30,
            }),
            time_margin_ms: 0,
            tb_adjudicate: false,
        };
        // Black's last three moves (plies 2, 4, 6) say −700: Black resigns after its third.
        let s = [
            Some(20),
            Some(-700),
            Some(700),
            Some(-700),
            Some(650),
            Some(-700),
        ];
        assert_eq!(
            rules.adjudicate(&s, 10, Color::Black),
            Some((Outcome::WhiteWins, Termination::Resignation))
        );
        assert_eq!(rules.adjudicate(&s[..5], 10, Color::White), None);
        let even = [Some(5), Some(-3), Some(0), Some(8)];
        assert_eq!(
            rules.adjudicate(&even, 30, Color::Black),
            Some((Outcome::Draw, Termination::DrawAdjudication))
        );
        assert_eq!(rules.adjudicate(&even, 29, Color::Black), None, "too early");
        assert_eq!(
            rules.adjudicate(&[None; 100], 60, Color::Black),
            Some((Outcome::Draw, Termination::MaxPlies))
        );
    }
}
