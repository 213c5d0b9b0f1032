//! `games.pgn`: standard PGN, one game after another, with the tags Event, Site, Date, Round,
//! White, Black, Result, SetUp/FEN (the opening), TimeControl, Termination and the opening's id,
//! and after every move a comment with its player's report: score/depth, seldepth, nodes, time.

use std::fmt::Write as _;

use engine::search::score::mate_in_moves;
use engine::Variant;

use super::game::GameRecord;

/// The tags that differ between games of one match.
#[derive(Debug, Clone)]
pub struct Header<'a> {
    /// The match's name.
    pub event: &'a str,
    /// `PAIR.GAME` (1-based pair, game 1 or 2).
    pub round: String,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// `BASE+INC` or `-`.
    pub time_control: String,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
}

/// What a game's PGN shows: the same from a played game ([`Game::of`]) as from its rows in
/// `games.csv` and `moves.csv` ([`super::pgn_rebuild`]), so a match's PGN can be built again.
#[derive(Debug, Clone, PartialEq)]
pub struct Game<'a> {
    /// The opening's id.
    pub opening: &'a str,
    /// The start position (FEN; Shredder-FEN in Chess960).
    pub start_fen: String,
    /// Which chess the game was.
    pub variant: Variant,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'a str,
    /// Why the game ended, as `games.csv` names it.
    pub termination: &'a str,
    /// A fault's details (empty otherwise).
    pub reason: &'a str,
    /// The moves, each with its player's report.
    pub moves: Vec<Move<'a>>,
}

/// One move of a [`Game`] and the report its comment shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Move<'a> {
    /// The move in SAN.
    pub san: &'a str,
    /// The mover's score, centipawns (mates ±(32000 − plies)).
    pub score: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Deepest ply.
    pub seldepth: usize,
    /// Nodes.
    pub nodes: u64,
    /// Wall time of the move, ms, as `moves.csv` records it.
    pub time_ms: f64,
}

impl<'a> Game<'a> {
    /// The PGN view of a played game: its times rounded as `moves.csv` records them, so the
    /// PGN built again from the rows is the same text.
    pub fn of(game: &'a GameRecord) -> Self {
        Self {
            opening: &game.opening,
            start_fen: game.start_fen.clone(),
            variant: game.variant,
            result: game.outcome.pgn(),
            termination: game.termination.name(),
            reason: &game.reason,
            moves: game
                .moves
                .iter()
                .map(|m| Move {
                    san: &m.san,
                    score: m.report.score,
                    depth: m.report.depth,
                    seldepth: m.report.seldepth,
                    nodes: m.report.nodes,
                    time_ms: lab::export::rows::round3(m.report.time_ms),
                })
                .collect(),
        }
    }
}

/// One game as PGN text, ending with a blank line.
pub fn write(header: &Header, game: &Game) -> String {
    let mut out = String::new();
    let mut tags = vec![
        ("Event", header.event.to_string()),
        ("Site", "fischerle-lab harness match".to_string()),
        ("Date", header.date.to_string()),
        ("Round", header.round.clone()),
        ("White", header.white.to_string()),
        ("Black", header.black.to_string()),
        ("Result", game.result.to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", game.start_fen.clone()),
        ("TimeControl", header.time_control.clone()),
        ("Termination", game.termination.to_string()),
        ("Opening", game.opening.to_string()),
        ("PlyCount", game.moves.len().to_string()),
    ];
    if game.variant == Variant::Chess960 {
        // Where cutechess and python-chess look for it: right after the Result tag.
        tags.insert(7, ("Variant", "Chess960".to_string()));
    }
    for (tag, value) in tags {
        let _ = writeln!(out, "[{tag} \"{}\"]", escape(&value));
    }
    if !game.reason.is_empty() {
        let _ = writeln!(out, "[Annotator \"{}\"]", escape(game.reason));
    }
    out.push('\n');
    let (mut number, mut white) = fen_move_number(&game.start_fen);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.to_string());
        tokens.push(comment(m));
        if !white {
            number += 1;
        }
        white = !white;
    }
    tokens.push(game.result.to_string());
    out.push_str(&wrap(&tokens, 79));
    out.push_str("\n\n");
    out
}

/// `{+0.31/7 sd=12 n=5000 t=15ms}`; mates as `+M3` / `-M2`.
fn comment(m: &Move) -> String {
    let score = match m.score {
        None => "-".to_string(),
        Some(s) => match mate_in_moves(s) {
            Some(n) if n > 0 => format!("+M{n}"),
            Some(n) => format!("-M{}", -n),
            None => format!("{:+.2}", f64::from(s) / 100.0),
        },
    };
    format!(
        "{{{score}/{} sd={} n={} t={:.0}ms}}",
        m.depth, m.seldepth, m.nodes, m.time_ms
    )
}

/// The FEN's full-move number and whether White moves first.
fn fen_move_number(fen: &str) -> (u32, bool) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let number = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    (number, fields.get(1) != Some(&"b"))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Tokens joined by spaces into lines of at most `width` characters (a comment is one token).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::PlayedMove;
    use crate::arena::player::MoveReport;
    use crate::arena::rules::{Outcome, Termination};
    use engine::Variant;

    #[test]
    fn a_game_from_a_black_to_move_opening() {
        let report = |score| MoveReport {
            mv: "e7e5".parse().unwrap(),
            score,
            depth: 7,
            seldepth: 12,
            nodes: 5000,
            time_ms: 15.2,
            search_ms: 15.0,
            cut: Some(false),
        };
        let game = GameRecord {
            opening: "b.epd:1".into(),
            start_fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            variant: Variant::Standard,
            moves: vec![
                PlayedMove {
                    san: "e5".into(),
                    report: report(Some(-31)),
                },
                PlayedMove {
                    san: "Nf3".into(),
                    report: report(Some(31_995)),
                },
            ],
            outcome: Outcome::Draw,
            termination: Termination::MaxPlies,
            reason: String::new(),
            overruns: Default::default(),
        };
        let header = Header {
            event: "m",
            round: "1.2".into(),
            white: "a",
            black: "b \"q\"",
            time_control: "-".into(),
            date: "2026.11.23",
        };
        let text = write(&header, &Game::of(&game));
        assert!(text.contains("[Black \"b \\\"q\\\"\"]"), "{text}");
        assert!(text.contains("[Termination \"ply limit\"]"));
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(movetext.lines().all(|l| l.len() <= 79), "{text}");
        assert_eq!(
            movetext.replace('\n', " ").trim(),
            "1... e5 {-0.31/7 sd=12 n=5000 t=15ms} 2. Nf3 {+M3/7 sd=12 n=5000 t=15ms} 1/2-1/2"
        );
    }
}
