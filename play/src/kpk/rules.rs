//! Each KPK rule of the engine checked against the exact value of every position: which positions
//! it decides, and which of those it gets wrong (the "exceptions" of the 1989 text).

use cozy_chess::{Color, Piece};
use engine::kpk::{Kpk, Verdict, RULES};

use super::table::{Placement, Table, DRAW, ILLEGAL, SIZE};

/// Positions listed as counterexamples per rule.
pub const EXAMPLES: usize = 5;

/// One rule's record over all KPK positions.
#[derive(Debug, Clone)]
pub struct RuleCheck {
    /// Rule name (the `kpk.NAME` switch).
    pub rule: &'static str,
    /// Positions it decides, White (the pawn's side) to move.
    pub decided_white: usize,
    /// Positions it decides, Black to move.
    pub decided_black: usize,
    /// Decided positions where it is wrong.
    pub wrong: usize,
    /// Some wrong positions: FEN, the rule's verdict, the true value.
    pub examples: Vec<(String, Verdict, String)>,
}

/// The true value as text: `win in N plies` or `draw`.
pub fn describe(value: u8) -> String {
    if value == DRAW {
        "draw".into()
    } else {
        format!("win in {value} plies")
    }
}

/// Checks every rule on every legal KPK position of `table`.
pub fn check(table: &Table) -> Vec<RuleCheck> {
    RULES
        .iter()
        .map(|rule| {
            let mut c = RuleCheck {
                rule: rule.name,
                decided_white: 0,
                decided_black: 0,
                wrong: 0,
                examples: Vec::new(),
            };
            for i in (0..SIZE).filter(|&i| table.values[i] != ILLEGAL) {
                let p = Placement::from_index(Piece::Pawn, i);
                let board = p.board().expect("legal");
                let Some(verdict) = Kpk::of(&board).and_then(|k| (rule.decide)(&k)) else {
                    continue;
                };
                if p.stm == Color::White {
                    c.decided_white += 1
                } else {
                    c.decided_black += 1
                }
                let truth = table.values[i];
                if (verdict == Verdict::Win) != (truth < DRAW) {
                    c.wrong += 1;
                    if c.examples.len() < EXAMPLES {
                        c.examples
                            .push((board.to_string(), verdict, describe(truth)));
                    }
                }
            }
            c
        })
        .collect()
}
