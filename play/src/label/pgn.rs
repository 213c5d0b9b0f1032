//! `labelled.pgn`: the input games again, each labelled move's comment its label from the mover's
//! side, written as the harness, cutechess and fastchess write a score (`{+0.35/12}`, `{-M3/20}`),
//! so `texel --pgn labelled.pgn --lambda L` blends each game's result toward the labels.

use std::collections::HashMap;
use std::fmt::Write as _;

use cozy_chess::Board;
use engine::board::san_move;
use lab::pgn_reader::Game;

use super::{Key, LabelRow};

/// The PGN text of `games` (with their input's index) with the labels in `rows` as comments.
pub fn labelled_pgn(games: &[(usize, Game)], rows: &[LabelRow]) -> String {
    let by_key: HashMap<Key, &LabelRow> =
        rows.iter().map(|r| ((r.input, r.game, r.ply), r)).collect();
    let mut out = String::new();
    for (input, game) in games {
        write_game(&mut out, *input, game, &by_key);
    }
    out
}

fn write_game(out: &mut String, input: usize, game: &Game, labels: &HashMap<Key, &LabelRow>) {
    let (white, black) = game.title.split_once(" - ").unwrap_or(("?", "?"));
    let result = game.result.as_deref().unwrap_or("*");
    let start = &game.boards[0];
    let _ = writeln!(out, "[Event \"label {input}:{}\"]", game.number);
    let _ = writeln!(
        out,
        "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]"
    );
    if *start != Board::default() {
        let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{start}\"]");
    }
    out.push('\n');
    let mut words = Vec::new();
    for (ply, pair) in game.boards.windows(2).enumerate() {
        let Some(mv) = move_between(&pair[0], &pair[1]) else {
            break;
        };
        let (board, number) = (&pair[0], pair[0].fullmove_number());
        if board.side_to_move() == cozy_chess::Color::White {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(san_move(board, mv));
        if let Some(row) = labels.get(&(input, game.number, ply)) {
            words.push(format!("{{{}}}", comment(row)));
        }
    }
    words.push(result.to_string());
    out.push_str(&wrap(&words));
    out.push_str("\n\n");
}

/// The move that leads from `before` to `after`.
fn move_between(before: &Board, after: &Board) -> Option<cozy_chess::Move> {
    let mut found = None;
    before.generate_moves(|moves| {
        for mv in moves {
            let mut next = before.clone();
            next.play_unchecked(mv);
            if next.hash() == after.hash() {
                found = Some(mv);
                return true;
            }
        }
        false
    });
    found
}

/// `+0.35/12` or `+M3/12`, from the side to move (the mover).
fn comment(row: &LabelRow) -> String {
    match row.mate {
        Some(m) => format!(
            "{}M{}/{}",
            if m > 0 { '+' } else { '-' },
            m.abs(),
            row.depth
        ),
        None => format!("{:+.2}/{}", f64::from(row.score_cp) / 100.0, row.depth),
    }
}

/// Words joined by spaces in lines of at most 80 characters.
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in words {
        if line > 0 && line + 1 + word.len() > 80 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_comments_the_pgn_reader_reads_back() {
        let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n";
        let (games, errors) = lab::pgn_reader::parse("t.pgn", text);
        assert!(errors.is_empty(), "{errors:?}");
        let row = |ply, score_cp, mate| LabelRow {
            input: 0,
            game: 1,
            ply,
            fen: String::new(),
            score_cp,
            mate,
            depth: 9,
            nodes: 1,
            best_move: String::new(),
        };
        let rows = [row(0, 35, None), row(1, -20, None), row(3, 30000, Some(2))];
        let pgn = labelled_pgn(&[(0, games[0].clone())], &rows);
        assert!(
            pgn.contains("1. e4 {+0.35/9} e5 {-0.20/9} 2. Qh5 Nc6 {+M2/9} 1-0"),
            "{pgn}"
        );
        let (again, errors) = lab::pgn_reader::parse("labelled.pgn", &pgn);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again[0].scores, [Some(35), Some(-20), None, None]);
        assert_eq!(again[0].boards, games[0].boards);
    }
}
