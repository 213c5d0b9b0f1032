//! `info` lines: what an engine reports while it searches. Only the fields the harness uses are
//! kept; unknown tokens are skipped (the protocol says to ignore them), but a known field with a
//! value that does not read is garbage.

use engine::excerpt::excerpt;
use engine::search::score::MATE;

/// A score as the engine gave it, from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl UciScore {
    /// Centipawns on the engine's scale: a mate in `m` moves is `MATE − (2m − 1)` plies, as the
    /// project's engine scores it, so both kinds of rows compare.
    pub fn centipawns(self) -> i32 {
        match self {
            Self::Cp(cp) => cp,
            Self::Mate(m) if m > 0 => MATE - (2 * m - 1),
            Self::Mate(m) => -MATE + 2 * -m,
        }
    }
}

impl std::fmt::Display for UciScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cp(cp) => write!(f, "cp {cp}"),
            Self::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// One `info` line's search fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<i32>,
    /// `seldepth`.
    pub seldepth: Option<usize>,
    /// `multipv` (1 when absent).
    pub multipv: usize,
    /// `score cp|mate`.
    pub score: Option<UciScore>,
    /// `lowerbound` or `upperbound` followed the score: not the iteration's final word.
    pub bound: bool,
    /// `nodes`: nodes of the whole search so far.
    pub nodes: Option<u64>,
    /// `time`: milliseconds since `go`.
    pub time_ms: Option<u64>,
    /// `pv`.
    pub pv: Vec<String>,
}

impl Info {
    /// A line that closes (part of) an iteration: depth, score and a principal variation.
    pub fn is_pv_line(&self) -> bool {
        self.depth.is_some() && self.score.is_some() && !self.pv.is_empty() && !self.bound
    }
}

/// Reads the fields of an `info …` line (`None` for a line that is not `info`).
pub fn parse(line: &str) -> Option<Result<Info, String>> {
    let rest = line.trim().strip_prefix("info")?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some(
        fields(rest.split_whitespace().collect())
            .map_err(|e| format!("{e} in `{}`", excerpt(line.trim()))),
    )
}

fn fields(words: Vec<&str>) -> Result<Info, String> {
    let mut info = Info {
        multipv: 1,
        ..Info::default()
    };
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1).copied();
        let num = |what: &str| -> Result<u64, String> {
            value.and_then(|v| v.parse().ok()).ok_or_else(|| {
                format!(
                    "`{what}` expects a number, found `{}`",
                    excerpt(value.unwrap_or(""))
                )
            })
        };
        match key {
            "depth" => info.depth = Some(num(key)? as i32),
            "seldepth" => info.seldepth = Some(num(key)? as usize),
            "multipv" => info.multipv = num(key)? as usize,
            "nodes" => info.nodes = Some(num(key)?),
            "time" => info.time_ms = Some(num(key)?),
            "nps" | "hashfull" | "tbhits" | "cpuload" | "currmovenumber" | "sbhits" => {
                num(key)?;
            }
            "score" => {
                info.score = Some(score(value, words.get(i + 2).copied())?);
                i += 1;
            }
            "lowerbound" | "upperbound" => {
                info.bound = true;
                i += 1;
                continue;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            // Free text to the end of the line.
            "string" | "currline" | "refutation" => break,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Ok(info)
}

fn score(kind: Option<&str>, value: Option<&str>) -> Result<UciScore, String> {
    let n: Option<i32> = value.and_then(|v| v.parse().ok());
    match (kind, n) {
        (Some("cp"), Some(n)) => Ok(UciScore::Cp(n)),
        (Some("mate"), Some(n)) => Ok(UciScore::Mate(n)),
        _ => Err(format!(
            "expected `score cp N` or `score mate N`, found `score {} {}`",
            kind.unwrap_or(""),
            value.unwrap_or("")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_line_with_wdl_and_bounds() {
        let line = "info depth 12 seldepth 17 multipv 2 score cp -35 upperbound wdl 10 900 90 nodes 81234 nps 900000 hashfull 12 tbhits 0 time 90 pv e2e4 e7e5 g1f3";
        let info = parse(line).unwrap().unwrap();
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(17));
        assert_eq!(info.multipv, 2);
        assert_eq!(info.score, Some(UciScore::Cp(-35)));
        assert!(info.bound && !info.is_pv_line());
        assert_eq!((info.nodes, info.time_ms), (Some(81234), Some(90)));
        assert_eq!(info.pv, vec!["e2e4", "e7e5", "g1f3"]);
    }

    #[test]
    fn mate_scores_use_the_engine_scale() {
        let info = parse("info depth 3 score mate 2 nodes 10 pv a1a8")
            .unwrap()
            .unwrap();
        assert!(info.is_pv_line());
        assert_eq!(info.score.unwrap().centipawns(), MATE - 3);
        assert_eq!(UciScore::Mate(-1).centipawns(), -MATE + 2);
        assert_eq!(
            engine::search::score::mate_in_moves(UciScore::Mate(-3).centipawns()),
            Some(-3)
        );
    }

    #[test]
    fn strings_and_other_lines() {
        assert!(parse("bestmove e2e4").is_none());
        assert!(parse("informal").is_none());
        let info = parse("info string depth banana").unwrap().unwrap();
        assert_eq!(info.depth, None);
        let info = parse("info depth 5 currmove e2e4 currmovenumber 1")
            .unwrap()
            .unwrap();
        assert!(!info.is_pv_line());
    }

    #[test]
    fn garbage_in_a_known_field_is_an_error() {
        let e = parse("info depth banana").unwrap().unwrap_err();
        assert!(
            e.contains("`depth` expects a number, found `banana`"),
            "{e}"
        );
        assert!(parse("info score cp").unwrap().is_err());
        assert!(parse("info nodes").unwrap().is_err());
    }
}
