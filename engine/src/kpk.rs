//! Knowledge rules for king and pawn against king, after the 1989 text (seed 004): each rule is a
//! small function that may decide a position (a known win or a known draw) or stay silent. They
//! are switches in [`KpkRules`]; the harness's `kpk` command checks each against the exact values
//! of every position and lists the positions where a rule is wrong.

use cozy_chess::{Board, Color, File, Piece, Rank, Square};
use serde::{Deserialize, Serialize};

use crate::eval::Score;

/// Which KPK rules the evaluation applies. All off in both presets, so they change nothing
/// unless switched on (`--set kpk.square=true`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KpkRules {
    /// The rule of the square: a pawn whose square the defending king cannot enter promotes.
    pub square: bool,
    /// Key squares: the attacking king on a key square of a non-rook pawn wins.
    pub key_squares: bool,
    /// Rook pawn: the defending king in front of the pawn or at the promotion corner draws.
    pub rook_pawn: bool,
}

/// What a rule says about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The side with the pawn wins.
    Win,
    /// A draw.
    Draw,
}

/// The score of a known win for the side with the pawn: above any pawn-up evaluation, below a
/// queen, and larger the further the pawn has come (so the search still pushes it).
pub const KNOWN_WIN: Score = 600;

/// A KPK position seen from the side with the pawn, as if it were White moving up the board.
#[derive(Debug, Clone, Copy)]
pub struct Kpk {
    /// The pawn.
    pub pawn: Square,
    /// The attacking king.
    pub attacker: Square,
    /// The defending king.
    pub defender: Square,
    /// The side with the pawn is to move.
    pub attacker_to_move: bool,
    /// The colour of the side with the pawn.
    pub strong: Color,
}

impl Kpk {
    /// The position if the material is exactly king and pawn against king.
    pub fn of(board: &Board) -> Option<Self> {
        let pawns = board.pieces(Piece::Pawn);
        if board.occupied().len() != 3 || pawns.len() != 1 {
            return None;
        }
        let pawn = pawns.next_square()?;
        let strong = board.color_on(pawn)?;
        let relative = |sq: Square| {
            if strong == Color::White {
                sq
            } else {
                sq.flip_rank()
            }
        };
        Some(Self {
            pawn: relative(pawn),
            attacker: relative(board.king(strong)),
            defender: relative(board.king(!strong)),
            attacker_to_move: board.side_to_move() == strong,
            strong,
        })
    }

    fn promotion(&self) -> Square {
        Square::new(self.pawn.file(), Rank::Eighth)
    }

    fn is_rook_pawn(&self) -> bool {
        matches!(self.pawn.file(), File::A | File::H)
    }
}

/// King distance (moves a king needs on an empty board).
fn distance(a: Square, b: Square) -> u32 {
    let d = |x: usize, y: usize| x.abs_diff(y) as u32;
    d(a.file() as usize, b.file() as usize).max(d(a.rank() as usize, b.rank() as usize))
}

/// The rule of the square: the pawn outruns the defending king.
pub fn rule_of_square(p: &Kpk) -> Option<Verdict> {
    let rank = p.pawn.rank() as u32;
    let pawn_moves = 7 - rank - u32::from(rank == 1);
    let king_moves =
        distance(p.defender, p.promotion()).saturating_sub(u32::from(!p.attacker_to_move));
    (king_moves > pawn_moves).then_some(Verdict::Win)
}

/// Key squares of a non-rook pawn: two ranks ahead of it on ranks 2–4, one and two ranks ahead
/// on ranks 5–6, each on the pawn's file and its neighbours.
pub fn key_squares(p: &Kpk) -> Option<Verdict> {
    let (file, rank) = (p.pawn.file() as i32, p.pawn.rank() as i32);
    if p.is_rook_pawn() || !(1..=5).contains(&rank) {
        return None;
    }
    let ahead: &[i32] = if rank <= 3 { &[2] } else { &[1, 2] };
    let on_key = ahead.iter().any(|d| {
        let r = rank + d;
        let f = p.attacker.file() as i32;
        r <= 7 && p.attacker.rank() as i32 == r && (f - file).abs() <= 1
    });
    // The defender to move takes an undefended pawn next to it: no longer KPK, so no verdict.
    let takes = !p.attacker_to_move
        && distance(p.defender, p.pawn) == 1
        && distance(p.attacker, p.pawn) > 1;
    (on_key && !takes).then_some(Verdict::Win)
}

/// A rook pawn draws when the defending king stands in front of it on its file or next to the
/// promotion square (the corner the attacking king cannot drive it from).
pub fn rook_pawn(p: &Kpk) -> Option<Verdict> {
    if !p.is_rook_pawn() {
        return None;
    }
    let q = p.promotion();
    let in_front = p.defender.file() == p.pawn.file() && p.defender.rank() > p.pawn.rank();
    (in_front || distance(p.defender, q) <= 1).then_some(Verdict::Draw)
}

/// One rule: its switch's name, whether it is switched on, and what it decides.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The `kpk.NAME` switch.
    pub name: &'static str,
    /// Reads the rule's switch.
    pub on: fn(&KpkRules) -> bool,
    /// A verdict, or nothing when the rule does not apply.
    pub decide: fn(&Kpk) -> Option<Verdict>,
}

/// The rules in the order the evaluation asks them: draws first, then wins.
pub const RULES: [Rule; 3] = [
    Rule {
        name: "rook_pawn",
        on: |r| r.rook_pawn,
        decide: rook_pawn,
    },
    Rule {
        name: "square",
        on: |r| r.square,
        decide: rule_of_square,
    },
    Rule {
        name: "key_squares",
        on: |r| r.key_squares,
        decide: key_squares,
    },
];

impl KpkRules {
    /// Whether any rule is on. Asked at every evaluation, so plain field reads rather than a
    /// walk over [`RULES`].
    pub fn any(&self) -> bool {
        self.square || self.key_squares || self.rook_pawn
    }

    /// The verdict of the first switched-on rule that decides `board`, if it is a KPK position.
    pub fn decide(&self, board: &Board) -> Option<(Kpk, Verdict)> {
        if !self.any() {
            return None;
        }
        let p = Kpk::of(board)?;
        RULES
            .iter()
            .filter(|rule| (rule.on)(self))
            .find_map(|rule| (rule.decide)(&p))
            .map(|v| (p, v))
    }

    /// The score from the side to move's point of view when a rule decides the position.
    pub fn score(&self, board: &Board) -> Option<Score> {
        let (p, verdict) = self.decide(board)?;
        let strong = match verdict {
            Verdict::Draw => return Some(0),
            Verdict::Win => KNOWN_WIN + 20 * p.pawn.rank() as Score,
        };
        Some(if p.attacker_to_move { strong } else { -strong })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kpk(fen: &str) -> Kpk {
        Kpk::of(&fen.parse().unwrap()).unwrap()
    }

    #[test]
    fn rules_on_textbook_positions() {
        // Pawn a5, defender on g6 to move: g6→a8 takes 6 moves, the pawn needs 3.
        assert_eq!(
            rule_of_square(&kpk("8/8/6k1/P7/8/8/8/K7 b - - 0 1")),
            Some(Verdict::Win)
        );
        // Defender inside the square: no verdict.
        assert_eq!(rule_of_square(&kpk("8/8/2k5/P7/8/8/8/K7 b - - 0 1")), None);
        // King on e6 in front of e5 (key squares d6–f7): a win whoever moves.
        assert_eq!(
            key_squares(&kpk("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1")),
            Some(Verdict::Win)
        );
        assert_eq!(key_squares(&kpk("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1")), None);
        // The defender in the corner in front of a rook pawn.
        assert_eq!(
            rook_pawn(&kpk("k7/8/8/8/8/8/P7/7K w - - 0 1")),
            Some(Verdict::Draw)
        );
    }

    #[test]
    fn a_black_pawn_is_seen_from_black() {
        // The mirror of the square example, with Black's pawn on a4 and White's king on g3.
        let p = kpk("k7/8/8/8/p7/6K1/8/8 w - - 0 1");
        assert_eq!(
            (p.strong, p.pawn, p.attacker_to_move),
            (Color::Black, Square::A5, false)
        );
        assert_eq!(rule_of_square(&p), Some(Verdict::Win));
        let rules = KpkRules {
            square: true,
            ..KpkRules::default()
        };
        assert_eq!(
            rules.score(&"k7/8/8/8/p7/6K1/8/8 w - - 0 1".parse().unwrap()),
            Some(-(KNOWN_WIN + 80))
        );
    }
}
