//! Games from PGN: the tag pairs (`FEN`, `Result`, `White`, `Black`), the main line of the
//! movetext and the score each move's comment gives (`{+0.35/6 …}`, as the harness, cutechess and
//! fastchess write them). Variations (`(…)`), NAGs, move numbers and results are skipped; moves are
//! SAN, read by the same lenient parser as EPD `bm`. A game with an illegal move is reported with
//! its file, line, game number and move, and keeps the moves before it.

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
    /// The `Result` tag (`1-0`, `0-1`, `1/2-1/2`, `*`), or the movetext's last token when
    /// there is no tag.
    pub result: Option<String>,
    /// The position before each move, then the final one; index = ply.
    pub boards: Vec<Board>,
    /// The score in centipawns that move `i`'s comment gives, from the mover's side (`None`:
    /// no comment, no score in it, or a mate score).
    pub scores: Vec<Option<i32>>,
}

/// The games of a PGN text, and a message for every game that could not be read to its end.
pub fn parse(file: &str, text: &str) -> (Vec<Game>, Vec<String>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (i, (line, chunk)) in split_games(text).iter().enumerate() {
        let number = i + 1;
        match game(chunk, number) {
            Ok(g) => games.push(g),
            Err(partial) => {
                let (g, e) = *partial;
                errors.push(format!("{file}:{line}: game {number}: {e}"));
                games.extend(g);
            }
        }
    }
    (games, errors)
}

/// Splits at each tag section that follows movetext: (first line, text) of each game.
fn split_games(text: &str) -> Vec<(usize, String)> {
    let mut games: Vec<(usize, String)> = Vec::new();
    let mut in_moves = false;
    for (i, line) in text.lines().enumerate() {
        let tag = line.trim_start().starts_with('[');
        let blank = line.trim().is_empty();
        if tag && (in_moves || games.is_empty()) {
            games.push((i + 1, String::new()));
            in_moves = false;
        }
        if !tag && !blank {
            in_moves = true;
            if games.is_empty() {
                games.push((i + 1, String::new()));
            }
        }
        if let Some((_, g)) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

/// What was read of a game that stopped early, and why (boxed: the error path is rare).
type Partial = Box<(Option<Game>, String)>;

fn game(text: &str, number: usize) -> Result<Game, Partial> {
    let tag = |name: &str| tag_value(text, name);
    let start = match tag("FEN") {
        Some(fen) => parse_fen(&fen).map_err(|e| Box::new((None, format!("FEN tag: {e}"))))?,
        None => Board::default(),
    };
    let title = match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} - {b}"),
        _ => String::new(),
    };
    let mut game = Game {
        number,
        title,
        result: tag("Result"),
        boards: vec![start],
        scores: Vec::new(),
    };
    let (tokens, result) = movetext_tokens(text);
    game.result = game.result.or(result);
    for token in tokens {
        let san = match token {
            Token::Comment(c) => {
                if let Some(last) = game.scores.last_mut() {
                    *last = last.or(comment_score(&c));
                }
                continue;
            }
            Token::Move(san) => san,
        };
        let board = game.boards.last().expect("a start position").clone();
        let Some(mv) = parse_lenient_move(&board, &san) else {
            let ply = game.boards.len();
            return Err(Box::new((
                Some(game),
                format!("move `{}` at ply {ply} is not legal here", excerpt(&san)),
            )));
        };
        let mut next = board;
        next.play_unchecked(mv);
        game.boards.push(next);
        game.scores.push(None);
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

/// The score a move comment starts with, in centipawns: `+0.35/6 …` → 35. Mate scores (`+M5`)
/// and comments without a score are `None`.
fn comment_score(comment: &str) -> Option<i32> {
    let first = comment.split_whitespace().next()?;
    let pawns: f64 = first.split('/').next()?.parse().ok()?;
    pawns.is_finite().then(|| (pawns * 100.0).round() as i32)
}

/// A piece of the main line's movetext.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Move(String),
    Comment(String),
}

/// The SAN moves and comments of the main line, and the result that ends it.
fn movetext_tokens(text: &str) -> (Vec<Token>, Option<String>) {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut comment: Option<String> = None;
    let mut paren = 0usize;
    for line in text.lines().filter(|l| !l.trim_start().starts_with('[')) {
        for c in line.chars() {
            if let Some(body) = comment.as_mut() {
                if c == '}' {
                    if paren == 0 {
                        tokens.push(Token::Comment(std::mem::take(body)));
                    }
                    comment = None;
                } else {
                    body.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    push_word(&mut tokens, &mut word, paren);
                    comment = Some(String::new());
                }
                ';' => break,
                '(' => {
                    push_word(&mut tokens, &mut word, paren);
                    paren += 1;
                }
                ')' => {
                    push_word(&mut tokens, &mut word, paren);
                    paren = paren.saturating_sub(1);
                }
                c if c.is_whitespace() => push_word(&mut tokens, &mut word, paren),
                c => word.push(c),
            }
        }
        if let Some(body) = comment.as_mut() {
            body.push(' ');
        }
        push_word(&mut tokens, &mut word, paren);
    }
    let end = tokens.iter().position(
        |t| matches!(t, Token::Move(m) if ["1-0", "0-1", "1/2-1/2", "*"].contains(&m.as_str())),
    );
    let result = end.map(|i| match &tokens[i] {
        Token::Move(m) | Token::Comment(m) => m.clone(),
    });
    tokens.truncate(end.unwrap_or(tokens.len()));
    (tokens, result)
}

/// Ends the word being read: a move unless it is a move number or a NAG, or inside a variation.
fn push_word(tokens: &mut Vec<Token>, word: &mut String, paren: usize) {
    let w = std::mem::take(word);
    if paren > 0 {
        return;
    }
    // `12.`, `12...e5`, `12.e4`: the move number goes, castling as `0-0` stays.
    let t = w.rsplit('.').next().unwrap_or(&w);
    if t.is_empty() || t.starts_with('$') || t.chars().all(|c| c.is_ascii_digit()) {
        return;
    }
    tokens.push(Token::Move(t.to_string()));
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
            ["t.pgn:8: game 2: move `Qh5` at ply 4 is not legal here"]
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

    #[test]
    fn results_and_comment_scores_are_read() {
        let (games, errors) = parse("t.pgn", TWO);
        assert!(errors.len() == 1);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[0].scores.len(), 7);
        assert!(
            games[0].scores.iter().all(Option::is_none),
            "`best by test` is no score"
        );
        let text = "1. e4 {+0.35/6 n=100} e5 {-0.20/5} 2. Nf3 {+M3/4} *";
        let (games, _) = parse("s.pgn", text);
        assert_eq!(games[0].scores, [Some(35), Some(-20), None]);
    }
}
