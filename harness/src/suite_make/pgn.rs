//! Games from PGN: the tag pairs (only `FEN` matters here) and the main line of the movetext.
//! Comments (`{…}`, `;…`), variations (`(…)`), NAGs, move numbers and results are skipped; moves
//! are SAN, read by the same lenient parser as EPD `bm`. A game with an illegal move is reported
//! with its file, game number and move, and keeps the moves before it.

use cozy_chess::Board;
use engine::board::parse_fen;
use engine::excerpt::excerpt;

use crate::epd::parse_lenient_move;

/// One game: its start position and the boards after each move of its main line.
#[derive(Debug, Clone)]
pub struct Game {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// `White - Black` from the tags, when present.
    pub title: String,
    /// The position before each move, then the final one; index = ply.
    pub boards: Vec<Board>,
}

/// The games of a PGN text, and a message for every game that could not be read to its end.
pub fn parse(file: &str, text: &str) -> (Vec<Game>, Vec<String>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (i, chunk) in split_games(text).iter().enumerate() {
        let number = i + 1;
        match game(chunk, number) {
            Ok(g) => games.push(g),
            Err((g, e)) => {
                errors.push(format!("{file}: game {number}: {e}"));
                games.extend(g);
            }
        }
    }
    (games, errors)
}

/// Splits at each tag section that follows movetext.
fn split_games(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut in_moves = false;
    for line in text.lines() {
        let tag = line.trim_start().starts_with('[');
        if tag && (in_moves || games.is_empty()) {
            games.push(String::new());
            in_moves = false;
        }
        if !tag && !line.trim().is_empty() {
            in_moves = true;
            if games.is_empty() {
                games.push(String::new());
            }
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

type Partial = (Option<Game>, String);

fn game(text: &str, number: usize) -> Result<Game, Partial> {
    let tag = |name: &str| tag_value(text, name);
    let start = match tag("FEN") {
        Some(fen) => parse_fen(&fen).map_err(|e| (None, format!("FEN tag: {e}")))?,
        None => Board::default(),
    };
    let title = match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} - {b}"),
        _ => String::new(),
    };
    let mut game = Game {
        number,
        title,
        boards: vec![start],
    };
    for token in movetext_tokens(text) {
        let board = game.boards.last().expect("a start position").clone();
        let Some(mv) = parse_lenient_move(&board, &token) else {
            let ply = game.boards.len();
            return Err((
                Some(game),
                format!("move `{}` at ply {ply} is not legal here", excerpt(&token)),
            ));
        };
        let mut next = board;
        next.play_unchecked(mv);
        game.boards.push(next);
    }
    Ok(game)
}

fn tag_value(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
        let (key, value) = inner.split_once(char::is_whitespace)?;
        (key == name).then(|| value.trim().trim_matches('"').to_string())
    })
}

/// The SAN moves of the main line.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut clean = String::new();
    let (mut brace, mut paren) = (false, 0usize);
    for line in text.lines().filter(|l| !l.trim_start().starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' if !brace => brace = true,
                '}' if brace => brace = false,
                _ if brace => {}
                ';' => break,
                '(' => paren += 1,
                ')' => paren = paren.saturating_sub(1),
                _ if paren > 0 => {}
                _ => clean.push(c),
            }
        }
        clean.push(' ');
    }
    clean
        .split_whitespace()
        // `12.`, `12...e5`, `12.e4`: the move number goes, castling as `0-0` stays.
        .map(|t| t.rsplit('.').next().unwrap_or(t))
        .filter(|t| !t.is_empty() && !t.starts_with('$') && !t.chars().all(|c| c.is_ascii_digit()))
        .take_while(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"[Event "t"]
[White "A"]
[Black "B"]

1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 ; Ruy Lopez
4. Ba4 1-0

[Event "u"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 2. Kf2 Qh5 *
"#;

    #[test]
    fn main_lines_comments_variations_and_fen_tags() {
        let (games, errors) = parse("t.pgn", TWO);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].title, "A - B");
        assert_eq!(games[0].boards.len(), 8, "start + 7 plies");
        assert_eq!(
            games[0].boards[7].to_string(),
            "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"
        );
        assert_eq!(games[1].boards.len(), 4, "kept up to the illegal move");
        assert_eq!(
            errors,
            ["t.pgn: game 2: move `Qh5` at ply 4 is not legal here"]
        );
    }

    #[test]
    fn a_movetext_without_tags_is_a_game() {
        let (games, errors) = parse(
            "t.pgn",
            "1. d4 d5 2.c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 0-0 *\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].boards.len(), 11);
    }
}
