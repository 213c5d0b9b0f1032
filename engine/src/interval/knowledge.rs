//! What is known about a position without searching it: the knowledge rules of the 1989 text
//! (§2.3.5) for king and pawn against king, each giving an interval and, where the rule names one,
//! a move. Whatever a caller knows beyond them (other endgames, already validated) comes in
//! through the same [`Knowledge`] trait.

use cozy_chess::{Board, Move, Piece};

use super::value::{Interval, Wdl};
use crate::kpk::{self, Kpk, Verdict};

/// What a rule (or a table) says about a position, side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// Where the value lies.
    pub interval: Interval,
    /// The move the rule gives, if it gives one (the search tries it first, §2.3.5).
    pub best: Option<Move>,
    /// Who said so: a rule's name, or [`SETTLED`].
    pub source: &'static str,
}

/// The source of a position settled outside the rules: another endgame, taken as validated (§3.1).
pub const SETTLED: &str = "settled";

/// Knowledge the interval search asks at every node before searching it.
pub trait Knowledge {
    /// What is known about `board`, or `None`.
    fn probe(&self, board: &Board) -> Option<Known>;
}

/// The KPK rules of the text as intervals; each a switch, all on in [`TextRules::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRules {
    /// The pawn's side cannot lose: `[draw, win]` for it (the defender can at best take the pawn).
    pub cannot_lose: bool,
    /// The rule of the square: `[win, win]` and the pawn's advance.
    pub square: bool,
    /// Key squares: `[win, win]`, no move (the winning king manoeuvre depends on the defender, and
    /// the text's rule names none).
    pub key_squares: bool,
    /// The rook pawn with the defender in front or in the corner: `[draw, draw]`.
    pub rook_pawn: bool,
}

impl TextRules {
    /// Every rule on.
    pub const ALL: TextRules = TextRules {
        cannot_lose: true,
        square: true,
        key_squares: true,
        rook_pawn: true,
    };

    /// The rules' names in the order they are asked, as reports list them.
    pub const NAMES: [&'static str; 4] = ["cannot_lose", "rook_pawn", "square", "key_squares"];

    /// The first rule's interval, side to move's view: `[draw, win]` with the pawn's side to
    /// move, `[loss, draw]` with the defender's.
    pub fn cannot_lose(pawn_side_to_move: bool) -> Interval {
        let i = Interval::new(Wdl::Draw, Wdl::Win);
        if pawn_side_to_move {
            i
        } else {
            i.flip()
        }
    }

    /// Each switched-on rule that speaks, in [`TextRules::NAMES`] order: its interval (pawn
    /// side's view) and move.
    fn opinions(
        &self,
        board: &Board,
        p: &Kpk,
    ) -> impl Iterator<Item = (Interval, Option<Move>, &'static str)> {
        let decisive = |on: bool, rule: fn(&Kpk) -> Option<Verdict>, name: &'static str| {
            on.then(|| rule(p)).flatten().map(|v| match v {
                Verdict::Win => (Interval::point(Wdl::Win), None, name),
                Verdict::Draw => (Interval::point(Wdl::Draw), None, name),
            })
        };
        let cannot_lose =
            self.cannot_lose
                .then_some((Interval::new(Wdl::Draw, Wdl::Win), None, "cannot_lose"));
        let square = decisive(self.square, kpk::rule_of_square, "square")
            .map(|(i, _, n)| (i, pawn_advance(board, p), n));
        [
            cannot_lose,
            decisive(self.rook_pawn, kpk::rook_pawn, "rook_pawn"),
            square,
            decisive(self.key_squares, kpk::key_squares, "key_squares"),
        ]
        .into_iter()
        .flatten()
    }
}

impl Knowledge for TextRules {
    /// All rules that speak, intersected (a rule that would contradict the ones before it is
    /// passed over: the validation then finds the position inconsistent). The source is the rule
    /// that narrowed the interval last.
    fn probe(&self, board: &Board) -> Option<Known> {
        let p = Kpk::of(board)?;
        let mut known: Option<Known> = None;
        for (interval, best, source) in self.opinions(board, &p) {
            let interval = if p.attacker_to_move {
                interval
            } else {
                interval.flip()
            };
            let best = best.filter(|_| p.attacker_to_move);
            known = match known {
                None => Some(Known {
                    interval,
                    best,
                    source,
                }),
                Some(k) => match k.interval.intersect(interval) {
                    Some(narrower) if narrower != k.interval => Some(Known {
                        interval: narrower,
                        best: k.best.or(best),
                        source,
                    }),
                    _ => Some(k),
                },
            };
        }
        known
    }
}

/// The pawn's longest legal step forward, when its side is to move (the square rule's move: the
/// rule counts the double step from the second rank).
fn pawn_advance(board: &Board, p: &Kpk) -> Option<Move> {
    if !p.attacker_to_move {
        return None;
    }
    let mut best: Option<Move> = None;
    board.generate_moves_for(board.pieces(Piece::Pawn), |moves| {
        for mv in moves {
            let far = |m: Move| m.to.rank() as i32 - m.from.rank() as i32;
            let straight = mv.from.file() == mv.to.file();
            let better = best.is_none_or(|b| far(mv).abs() > far(b).abs());
            if straight && mv.promotion.is_none_or(|q| q == Piece::Queen) && better {
                best = Some(mv);
            }
        }
        false
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(fen: &str) -> Option<Known> {
        TextRules::ALL.probe(&fen.parse().unwrap())
    }

    #[test]
    fn the_pawns_side_cannot_lose() {
        // Kings in the middle, nothing decided: only the first rule speaks.
        let k = probe("8/8/3k4/8/3K4/3P4/8/8 w - - 0 1").unwrap();
        assert_eq!(k.interval, Interval::new(Wdl::Draw, Wdl::Win));
        assert_eq!(k.source, "cannot_lose");
        let k = probe("8/8/3k4/8/3K4/3P4/8/8 b - - 0 1").unwrap();
        assert_eq!(k.interval, Interval::new(Wdl::Loss, Wdl::Draw));
    }

    #[test]
    fn the_square_rule_gives_a_win_and_the_pawns_advance() {
        let board: Board = "8/8/6k1/P7/8/8/8/K7 w - - 0 1".parse().unwrap();
        let k = TextRules::ALL.probe(&board).unwrap();
        assert_eq!(
            (k.interval, k.source),
            (Interval::point(Wdl::Win), "square")
        );
        assert_eq!(crate::board::uci_move(&board, k.best.unwrap()), "a5a6");
        // From the second rank the advance is the double step the rule counts.
        let board: Board = "8/8/8/8/8/7k/P7/K7 w - - 0 1".parse().unwrap();
        let k = TextRules::ALL.probe(&board).unwrap();
        assert_eq!(crate::board::uci_move(&board, k.best.unwrap()), "a2a4");
        // The defender to move sees a loss, and gets no move.
        let k = probe("8/8/6k1/P7/8/8/8/K7 b - - 0 1").unwrap();
        assert_eq!((k.interval, k.best), (Interval::point(Wdl::Loss), None));
    }

    #[test]
    fn key_squares_win_without_a_move_and_the_rook_pawn_corner_draws() {
        let k = probe("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1").unwrap();
        assert_eq!(
            (k.interval, k.best, k.source),
            (Interval::point(Wdl::Win), None, "key_squares")
        );
        let k = probe("k7/8/8/8/8/8/P7/7K w - - 0 1").unwrap();
        assert_eq!(
            (k.interval, k.source),
            (Interval::point(Wdl::Draw), "rook_pawn")
        );
    }

    #[test]
    fn only_kpk_is_known_and_rules_switch_off() {
        assert_eq!(probe("8/8/3k4/8/3K4/3Q4/8/8 w - - 0 1"), None);
        let none = TextRules {
            cannot_lose: false,
            square: false,
            key_squares: false,
            rook_pawn: false,
        };
        assert_eq!(
            none.probe(&"8/8/6k1/P7/8/8/8/K7 w - - 0 1".parse().unwrap()),
            None
        );
    }
}
