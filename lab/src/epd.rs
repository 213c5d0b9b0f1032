//! EPD test suites: a position (the first four FEN fields, optionally followed by the two move
//! counters) and `;`-separated operations (`bm`, `am`, `id`, `c0`, `D1`…). Every line that cannot
//! be read becomes an [`EpdError`] naming its file and line; the others are still returned.
//!
//! Lenient forms seen in real suites are accepted: SAN without `x` or `+`, `e8N` for `e8=N`,
//! `0-0` for `O-O`, comma-separated move lists, long algebraic `Bh8-f6+`, stray `-` segments.

use std::path::Path;

use cozy_chess::{Board, Move};
use engine::board::parse_uci_move;
use engine::excerpt::excerpt;
use engine::Variant;
use thiserror::Error;

/// A line of an EPD file that could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{file}:{line}: {message}")]
pub struct EpdError {
    /// The file as given.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// One position of a suite.
#[derive(Debug, Clone)]
pub struct EpdRecord {
    /// `id`, or `file:line` when the record has none.
    pub id: String,
    /// 1-based line in its file.
    pub line: usize,
    /// The position.
    pub board: Board,
    /// Best moves (`bm`).
    pub best_moves: Vec<Move>,
    /// Partial credit, as STS gives it: moves (`c7`) with their points (`c8`); empty without.
    pub credit: Vec<(Move, u32)>,
    /// The stated mate length in moves (`dm N`, or `ce +MN` as the mate suites write it).
    pub mate_in: Option<u32>,
    /// Moves to avoid (`am`).
    pub avoid_moves: Vec<Move>,
    /// Every operation as read: opcode and operand text (quotes removed).
    pub ops: Vec<(String, String)>,
}

impl EpdRecord {
    /// The operand text of an opcode, if present.
    pub fn op(&self, opcode: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|(k, _)| k == opcode)
            .map(|(_, v)| v.as_str())
    }
}

/// A parsed suite: the records that were read and the lines that were not.
#[derive(Debug, Default)]
pub struct Suite {
    /// Records in file order.
    pub records: Vec<EpdRecord>,
    /// Unreadable lines.
    pub errors: Vec<EpdError>,
}

/// Reads a suite file (line by line, see [`parse_suite_bytes`]).
pub fn read_suite(path: &Path) -> std::io::Result<Suite> {
    let bytes = std::fs::read(path)?;
    Ok(parse_suite_bytes(&path.display().to_string(), &bytes))
}

/// Parses suite text of a variant (Chess960 books: Shredder-FEN or X-FEN castling rights);
/// `file` names it in errors and default ids.
pub fn parse_suite_in(file: &str, text: &str, variant: Variant) -> Suite {
    parse_lines(file, text.as_bytes(), variant)
}

/// Parses a suite's bytes one line at a time, so one bad byte costs one line, not the file: a UTF-8
/// byte-order mark is skipped, `\r\n` ends a line like `\n`, and a line that is not UTF-8 or holds a
/// control character (a NUL in an id would reach the CSVs) is reported with `file:line`. Comment
/// lines (`#`) are skipped whatever their encoding.
pub fn parse_suite_bytes(file: &str, bytes: &[u8]) -> Suite {
    parse_lines(file, bytes, Variant::Standard)
}

fn parse_lines(file: &str, bytes: &[u8], variant: Variant) -> Suite {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let mut suite = Suite::default();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.trim_ascii_start().starts_with(b"#") {
            continue;
        }
        let parsed = line_text(raw).and_then(|line| {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                Ok(None)
            } else {
                parse_record(file, line_no, trimmed, variant).map(Some)
            }
        });
        match parsed {
            Ok(Some(r)) => suite.records.push(r),
            Ok(None) => {}
            Err(message) => suite.errors.push(EpdError {
                file: file.to_string(),
                line: line_no,
                message,
            }),
        }
    }
    suite
}

/// A line as text: UTF-8 without control characters (tabs allowed).
fn line_text(raw: &[u8]) -> Result<&str, String> {
    let line = std::str::from_utf8(raw).map_err(|e| {
        format!(
            "expected UTF-8 text, found the byte 0x{:02X} at byte {} (a Latin-1 file? convert it with iconv)",
            raw[e.valid_up_to()],
            e.valid_up_to() + 1
        )
    })?;
    match line
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && *c != '\t')
    {
        Some((col, c)) => Err(format!(
            "expected printable text, found the control character U+{:04X} at column {}",
            u32::from(c),
            col + 1
        )),
        None => Ok(line),
    }
}

fn parse_record(
    file: &str,
    line: usize,
    text: &str,
    variant: Variant,
) -> Result<EpdRecord, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() < 4 {
        return Err(format!(
            "expected 4 FEN fields, found {} in `{}`",
            tokens.len(),
            excerpt(text)
        ));
    }
    // Some suites put the two move counters between the FEN fields and the operations; the FEN
    // reader checks they are counters a board can hold.
    let number = |i: usize| {
        tokens
            .get(i)
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
    };
    let counters = number(4) && number(5);
    let fen_len = if counters { 6 } else { 4 };
    let board = variant
        .parse_fen(&tokens[..fen_len].join(" "))
        .map_err(|e| e.to_string())?;
    let rest = skip_tokens(text, fen_len);
    let ops = split_operations(rest)?;
    let best_moves = moves_of(&board, &ops, "bm")?;
    let avoid_moves = moves_of(&board, &ops, "am")?;
    let credit = credit_of(&board, &ops)?;
    let mate_in = mate_length(&ops)?;
    if best_moves.iter().any(|m| avoid_moves.contains(m)) {
        return Err("a move is both a best move (`bm`) and one to avoid (`am`)".into());
    }
    let id = ops
        .iter()
        .find(|(k, _)| k == "id")
        .map_or_else(|| format!("{file}:{line}"), |(_, v)| v.clone());
    Ok(EpdRecord {
        id,
        line,
        board,
        best_moves,
        credit,
        mate_in,
        avoid_moves,
        ops,
    })
}

/// `dm N` (direct mate in N), else `ce +MN`; a `dm` that is not a positive number is an error.
fn mate_length(ops: &[(String, String)]) -> Result<Option<u32>, String> {
    let op = |name: &str| ops.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim());
    if let Some(dm) = op("dm") {
        return match dm.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "expected a mate length of 1 or more in `dm`, found `{}`",
                excerpt(dm)
            )),
        };
    }
    Ok(op("ce")
        .and_then(|ce| ce.strip_prefix("+M"))
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0))
}

/// STS's partial credit: `c7` lists moves, `c8` their points, in the same order.
fn credit_of(board: &Board, ops: &[(String, String)]) -> Result<Vec<(Move, u32)>, String> {
    let points_op = ops.iter().find(|(k, _)| k == "c8");
    let moves = moves_of(board, ops, "c7")?;
    let Some((_, points)) = points_op else {
        return match moves.is_empty() {
            true => Ok(Vec::new()),
            false => Err("expected `c8` points for the `c7` moves, found none".into()),
        };
    };
    let points: Vec<u32> = points
        .split_whitespace()
        .map(|t| {
            t.parse()
                .map_err(|_| format!("expected whole points in `c8`, found `{}`", excerpt(t)))
        })
        .collect::<Result<_, _>>()?;
    if points.len() != moves.len() {
        return Err(format!(
            "expected as many `c8` points as `c7` moves, found {} moves and {} points",
            moves.len(),
            points.len()
        ));
    }
    Ok(moves.into_iter().zip(points).collect())
}

/// The text after the first `n` whitespace-separated tokens.
fn skip_tokens(text: &str, n: usize) -> &str {
    let mut rest = text.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
}

/// `op1 a b; op2 "x; y"; …` → [(op1, "a b"), (op2, "x; y")]. Semicolons inside quotes do not split;
/// empty and `-` segments are skipped. An unterminated quote, or an opcode that is not a letter
/// followed by letters, digits or `_` (a stray number, say, that would swallow the next
/// operation), is an error: a line yields exactly its operations or none.
fn split_operations(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut segments = vec![String::new()];
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => segments.push(String::new()),
            _ => segments.last_mut().expect("never empty").push(c),
        }
    }
    if quoted {
        return Err("expected a closing `\"`, found the end of the line".into());
    }
    segments
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty() && *s != "-")
        .map(|s| {
            let (op, operand) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
            let valid = op.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && op.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(format!(
                    "expected an opcode (a letter, then letters, digits or `_`), found `{}` in `{}`",
                    excerpt(op),
                    excerpt(s)
                ));
            }
            if matches!(op, "bm" | "am") && operand.trim().is_empty() {
                return Err(format!("`{}` names no move", excerpt(op)));
            }
            Ok((op.to_string(), operand.trim().to_string()))
        })
        .collect()
}

fn moves_of(board: &Board, ops: &[(String, String)], opcode: &str) -> Result<Vec<Move>, String> {
    let Some((_, operand)) = ops.iter().find(|(k, _)| k == opcode) else {
        return Ok(Vec::new());
    };
    operand
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            parse_lenient_move(board, t)
                .ok_or_else(|| format!("{opcode} move `{}` is not a legal move here", excerpt(t)))
        })
        .collect()
}

/// SAN as written in real suites, falling back to long algebraic (`Bh8-f6+`) and UCI.
pub fn parse_lenient_move(board: &Board, text: &str) -> Option<Move> {
    let san = text
        .replace('0', "O")
        .trim_end_matches(['+', '#', '!', '?'])
        .to_string();
    if let Ok(mv) = cozy_chess::util::parse_san_move(board, &san) {
        return Some(mv);
    }
    // Long algebraic: keep the two squares, then a promotion piece if one is named.
    let cleaned = text.replace("/ep", "").replace("e.p.", "");
    let squares: String = cleaned
        .chars()
        .filter(|c| matches!(c, 'a'..='h' | '1'..='8'))
        .collect();
    if squares.len() != 4 {
        return None;
    }
    let last = cleaned
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .last();
    let uci = match last.filter(|c| "QRBNqrn".contains(*c)) {
        Some(p) => format!("{squares}{}", p.to_ascii_lowercase()),
        None => squares,
    };
    parse_uci_move(board, &uci).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::board::parse_fen;

    fn parse_suite(file: &str, text: &str) -> Suite {
        parse_suite_bytes(file, text.as_bytes())
    }

    #[test]
    fn a_stated_mate_length_is_read_from_dm_or_ce() {
        let head = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#;";
        let suite = parse_suite(
            "mates.epd",
            &format!("{head} dm 2;\n{head} ce +M3;\n{head} ce 120;\n{head} dm 0;\n"),
        );
        let lengths: Vec<Option<u32>> = suite.records.iter().map(|r| r.mate_in).collect();
        assert_eq!(lengths, [Some(2), Some(3), None]);
        assert_eq!(suite.errors.len(), 1);
        assert_eq!(
            (suite.errors[0].line, suite.errors[0].message.as_str()),
            (4, "expected a mate length of 1 or more in `dm`, found `0`")
        );
    }

    #[test]
    fn sts_partial_credit_is_read_and_checked() {
        let head = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#;";
        let suite = parse_suite(
            "credit.epd",
            &format!(
                "{head} c7 \"Ra8# h3\"; c8 \"10 3\";\n\
                 {head} c7 \"Ra8#\";\n\
                 {head} c7 \"Ra8# h3\"; c8 \"10\";\n\
                 {head} c7 \"Ra8#\"; c8 \"ten\";\n\
                 {head} c0 \"no credit\";\n"
            ),
        );
        let credit: Vec<(String, u32)> = suite.records[0]
            .credit
            .iter()
            .map(|&(m, p)| (engine::board::uci_move(&suite.records[0].board, m), p))
            .collect();
        assert_eq!(credit, [("a1a8".to_string(), 10), ("h2h3".to_string(), 3)]);
        assert!(suite.records[1].credit.is_empty());
        assert_eq!(suite.records[1].line, 5);
        let errors: Vec<(usize, &str)> = suite
            .errors
            .iter()
            .map(|e| (e.line, e.message.as_str()))
            .collect();
        assert_eq!(
            errors,
            [
                (2, "expected `c8` points for the `c7` moves, found none"),
                (
                    3,
                    "expected as many `c8` points as `c7` moves, found 2 moves and 1 points"
                ),
                (4, "expected whole points in `c8`, found `ten`"),
            ]
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// Fuzz: any bytes are records or `file:line` errors, never a panic, and no line is both.
        #[test]
        fn any_bytes_are_records_or_located_errors(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            epd_like in "([1-8pnbrqkPNBRQK/]{1,20} [wb] [KQkq-]{1,4} [a-h1-8-]{1,2}( [0-9]{1,3}){0,2} ?(bm|am|id|c0|D1)? ?[\\\";a-hNBRQK1-8x+=#, ]{0,30}\n){0,4}"
        ) {
            for input in [bytes.as_slice(), epd_like.as_bytes()] {
                let s = parse_suite_bytes("f.epd", input);
                let mut lines: Vec<usize> = s.records.iter().map(|r| r.line).collect();
                for e in &s.errors {
                    let located = e.to_string().starts_with(&format!("f.epd:{}: ", e.line));
                    proptest::prop_assert!(located, "{}", e);
                    proptest::prop_assert!(!e.message.is_empty());
                    lines.push(e.line);
                }
                let n = lines.len();
                lines.sort_unstable();
                lines.dedup();
                proptest::prop_assert_eq!(lines.len(), n);
            }
        }
    }

    #[test]
    fn wac_line_with_quotes_and_alternatives() {
        let s = parse_suite("t.epd", "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nxc6 Qd2; id \"WAC; 1\";\n");
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let r = &s.records[0];
        assert_eq!(r.id, "WAC; 1");
        assert_eq!(r.best_moves.len(), 2);
    }

    #[test]
    fn lines_that_would_lose_an_operation_are_errors() {
        let fen = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq -";
        for (ops, expected) in [
            ("bm Nxc6; id \"WAC.1;", "closing `\"`"),
            ("5 bm Nxc6; id \"x\";", "found `5`"),
            ("99999999 1 bm Nxc6;", "found `99999999 1`"),
            (
                "99999999999999999999 1 bm Nxc6;",
                "found `99999999999999999999 1`",
            ),
            ("200 1 bm Nxc6;", "halfmove clock of 0 to 100"),
            ("101 1 bm Nxc6;", "halfmove clock of 0 to 100"),
            ("0 0 bm Nxc6;", "move number of 1 to 65535"),
            ("0 65536 bm Nxc6;", "move number of 1 to 65535"),
            ("bm ; id \"x\";", "`bm` names no move"),
            ("bm Nxc6; am Nxc6;", "both a best move"),
        ] {
            let s = parse_suite("t.epd", &format!("{fen} {ops}\n"));
            assert!(s.records.is_empty(), "{ops} was read");
            let e = s.errors[0].to_string();
            assert!(e.contains("t.epd:1") && e.contains(expected), "{ops}: {e}");
        }
        let s = parse_suite("t.epd", &format!("{fen} 0 1 bm Nxc6; c0 \"a; b\";\n"));
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert_eq!(s.records[0].op("c0"), Some("a; b"));
    }

    #[test]
    fn every_counter_a_board_can_hold_is_read() {
        let fen = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq -";
        let s = parse_suite("t.epd", &format!("{fen} 100 65535 bm Nxc6;\n"));
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let board = &s.records[0].board;
        assert_eq!(
            (board.halfmove_clock(), board.fullmove_number()),
            (100, 65535)
        );
    }

    #[test]
    fn a_huge_line_gets_a_short_message() {
        // A 100 KB line: each message quotes a bounded excerpt, never the line.
        let fen = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq -";
        let junk = "z".repeat(100_000);
        for line in [
            format!("{junk} w"),
            format!("{fen} 1{junk};"),
            format!("{fen} bm {junk};"),
            format!("{fen} 0 {junk}1 bm Nxc6;"),
            format!("{junk}/8/8/8/8/8/8/8 w - -"),
        ] {
            let s = parse_suite("t.epd", &format!("{line}\n"));
            let e = s.errors[0].to_string();
            assert!(
                e.len() < 400 && e.contains("more characters"),
                "{}",
                &e[..e.len().min(400)]
            );
        }
    }

    #[test]
    fn lenient_forms() {
        let b = parse_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for text in [
            "0-0", "O-O+", "b8=Q", "b8Q", "bxa8N", "Ke1-e2", "e1e2", "Rh1-h8+",
        ] {
            assert!(parse_lenient_move(&b, text).is_some(), "{text}");
        }
        assert!(parse_lenient_move(&b, "Qd4").is_none());
    }

    #[test]
    fn counters_before_operations_and_stray_segments() {
        let s = parse_suite(
            "t.epd",
            "8/8/8/8/8/8/6k1/4K2R w K - 0 1 ;D1 15 ;D2 66 ; - ;\n",
        );
        let r = &s.records[0];
        assert_eq!(r.op("D2"), Some("66"));
        assert_eq!(r.id, "t.epd:1");
    }

    #[test]
    fn comma_separated_moves() {
        let s = parse_suite(
            "t.epd",
            "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4, e3; id \"x\";\n",
        );
        assert_eq!(s.records[0].best_moves.len(), 2);
    }

    #[test]
    fn bad_lines_name_file_and_line_and_the_rest_is_kept() {
        let text = "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;\nnot a position\n4k3/8/8/8/8/8/4P3/4K3 w - - bm Qh5;\n\n# comment\n4k3/8/8/8/8/8/4P3/4K3 w - - bm e3;\n";
        let s = parse_suite("bad.epd", text);
        assert_eq!(s.records.len(), 2);
        let msgs: Vec<String> = s.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(msgs.len(), 2);
        assert!(msgs[0].starts_with("bad.epd:2: "), "{}", msgs[0]);
        assert!(
            msgs[1].starts_with("bad.epd:3: ") && msgs[1].contains("Qh5"),
            "{}",
            msgs[1]
        );
    }

    #[test]
    fn encoding_costs_one_line_at_most() {
        let good = b"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"ok\";";
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(good);
        bytes.extend_from_slice(b"\r\n# Latin-1 comment: caf\xE9\n");
        bytes.extend_from_slice(b"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"caf\xE9\";\n");
        bytes.extend_from_slice(b"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"a\x00b\";\n");
        bytes.extend_from_slice(good);
        let s = parse_suite_bytes("e.epd", &bytes);
        let ids: Vec<(&str, usize)> = s.records.iter().map(|r| (r.id.as_str(), r.line)).collect();
        assert_eq!(
            ids,
            [("ok", 1), ("ok", 5)],
            "BOM skipped, CRLF and comment read"
        );
        let errors: Vec<String> = s.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with("e.epd:3: expected UTF-8 text, found the byte 0xE9 at byte"),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].starts_with(
                "e.epd:4: expected printable text, found the control character U+0000"
            ),
            "{}",
            errors[1]
        );
    }
}
