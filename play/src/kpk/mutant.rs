//! Deliberately wrong rules, put in front of the text's rules to measure what the validation
//! procedure catches: the text's own rules are wrong only as wins (the square rule's
//! exceptions), so whether wrong draws — the text's "Remiskreise" — are caught needs a rule that
//! draws wrongly.

use clap::ValueEnum;
use cozy_chess::{Rank, Square};
use engine::interval::{Interval, Wdl};
use engine::kpk::{self, Kpk};

/// A wrong rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mutant {
    /// "The defending king directly in front of the pawn draws" — wrong when the attacking king
    /// stands ahead of its pawn with the opposition, or the pawn is about to queen.
    FrontDraws,
    /// The rule of the square without the defender's tempo: a win whenever the defending king
    /// is outside the square as if the pawn's side were to move — wrong when the defender to
    /// move steps into it.
    EagerSquare,
}

impl Mutant {
    /// The rule's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::FrontDraws => "mutant_front_draws",
            Mutant::EagerSquare => "mutant_eager_square",
        }
    }

    /// Its verdict, from the pawn's side (a point interval), if it speaks.
    pub fn decide(self, p: &Kpk) -> Option<Interval> {
        match self {
            Mutant::FrontDraws => {
                let front =
                    Square::new(p.pawn.file(), Rank::try_index(p.pawn.rank() as usize + 1)?);
                (p.defender == front).then_some(Interval::point(Wdl::Draw))
            }
            Mutant::EagerSquare => {
                // Outside the square only if the pawn's side had the move: the real rule is
                // silent, the mutant calls it won.
                let as_if_to_move = Kpk {
                    attacker_to_move: true,
                    ..*p
                };
                let eager = !p.attacker_to_move
                    && kpk::rule_of_square(p).is_none()
                    && kpk::rule_of_square(&as_if_to_move).is_some();
                eager.then_some(Interval::point(Wdl::Win))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kpk(fen: &str) -> Kpk {
        Kpk::of(&fen.parse().unwrap()).unwrap()
    }

    #[test]
    fn each_mutant_speaks_where_it_says() {
        // The defender on e6 in front of e5: a draw, says the mutant, wherever White's king is.
        let front = kpk("8/8/4k3/4P3/4K3/8/8/8 b - - 0 1");
        assert_eq!(
            Mutant::FrontDraws.decide(&front),
            Some(Interval::point(Wdl::Draw))
        );
        assert_eq!(
            Mutant::FrontDraws.decide(&kpk("8/8/3k1K2/4P3/8/8/8/8 b - - 0 1")),
            None
        );
        // Pawn a5 (3 moves), defender on e7 to move: 4 from a8 — one outside the square as if
        // White were to move, inside with its own move. The real rule is silent; the mutant wins.
        let p = kpk("8/4k3/8/P7/8/8/8/K7 b - - 0 1");
        assert_eq!(engine::kpk::rule_of_square(&p), None);
        assert_eq!(
            Mutant::EagerSquare.decide(&p),
            Some(Interval::point(Wdl::Win))
        );
        assert_eq!(
            Mutant::EagerSquare.decide(&kpk("8/4k3/8/P7/8/8/8/K7 w - - 0 1")),
            None
        );
    }
}
