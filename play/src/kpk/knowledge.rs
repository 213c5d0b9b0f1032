//! What the validation searches with: the text's rules under validation (a deliberately wrong
//! rule asked first, if any) and, after a promotion, the KQK and KRK tables; how far claimed
//! results are trusted is part of it (the re-searches of §3.4).

use cozy_chess::{Board, Color, Piece};
use engine::interval::{Interval, Knowledge, Known, TextRules, Wdl, SETTLED};
use engine::kpk::Kpk;

use super::mutant::Mutant;
use super::table::{Placement, Tables, DRAW};

/// The rules under validation, with the tables for the endgames a promotion leads to.
pub struct RulesAndTables<'t> {
    /// The rules being validated.
    pub rules: TextRules,
    /// A deliberately wrong rule asked before them, if any.
    pub mutant: Option<Mutant>,
    /// KQK and KRK (and the KPK truth, which the procedure never reads).
    pub tables: &'t Tables,
    /// When set, only the claimed wins and losses marked here (by table index) are trusted as
    /// decided; the others count as undecided (the re-search of §3.4's support cycles).
    pub founded: Option<&'t [bool]>,
    /// Whether claimed draws are trusted as decided; the draw check (§3.4) searches without them.
    pub trust_draws: bool,
}

impl Knowledge for RulesAndTables<'_> {
    fn probe(&self, board: &Board) -> Option<Known> {
        let p = Placement::of_board(board)?;
        let settled = |interval| {
            Some(Known {
                interval,
                best: None,
                source: SETTLED,
            })
        };
        match p.piece {
            Piece::Pawn => self.claim(board).map(|k| self.trusted(k, &p)),
            Piece::Queen | Piece::Rook => {
                let table = if p.piece == Piece::Queen {
                    &self.tables.queen
                } else {
                    &self.tables.rook
                };
                settled(Interval::point(white_view(table.value(&p), p.stm)))
            }
            _ => settled(Interval::point(Wdl::Draw)),
        }
    }
}

impl RulesAndTables<'_> {
    /// What the rules (the mutant first) say about a KPK position, all trusted.
    pub fn claim(&self, board: &Board) -> Option<Known> {
        let mutant = self.mutant.and_then(|m| {
            let p = Kpk::of(board)?;
            let interval = m.decide(&p)?;
            Some(Known {
                interval: if p.attacker_to_move {
                    interval
                } else {
                    interval.flip()
                },
                best: None,
                source: m.name(),
            })
        });
        mutant.or_else(|| self.rules.probe(board))
    }

    /// A claimed win or loss not (yet) founded, or a claimed draw when draws are not trusted, is
    /// only what the pawn's side cannot lose.
    fn trusted(&self, k: Known, p: &Placement) -> Known {
        let distrusted = match k.interval.exact() {
            Some(Wdl::Draw) => !self.trust_draws,
            Some(_) => self.founded.is_some_and(|founded| !founded[p.index()]),
            None => false,
        };
        if !distrusted {
            return k;
        }
        Known {
            interval: TextRules::cannot_lose(p.stm == Color::White),
            best: None,
            source: "cannot_lose",
        }
    }
}

/// A table value (plies to White's mate, or a draw) as a result for the side to move.
pub fn white_view(value: u8, stm: Color) -> Wdl {
    match (value, stm) {
        (DRAW, _) => Wdl::Draw,
        (_, Color::White) => Wdl::Win,
        (_, Color::Black) => Wdl::Loss,
    }
}
