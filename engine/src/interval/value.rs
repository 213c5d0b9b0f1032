//! Interval scores after the 1989 text (seed 004, §1–2): a position's value is known to lie in an
//! interval of game results, together with how deep a search the statement rests on.

use std::ops::Neg;

use cozy_chess::Move;

/// A game result from the side to move's point of view (no mate distances: the text's
/// "Gewinn / Remis / Verlust").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The side to move loses.
    Loss = -1,
    /// A draw.
    Draw = 0,
    /// The side to move wins.
    Win = 1,
}

impl Neg for Wdl {
    type Output = Wdl;
    fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl Wdl {
    /// Lowercase name, as the validation CSV writes it.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

/// The value lies in `[lo, hi]` (the text's `/a, b/`), side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    /// The lower bound `a`: the side to move gets at least this.
    pub lo: Wdl,
    /// The upper bound `b`: the side to move gets at most this.
    pub hi: Wdl,
}

impl Interval {
    /// Nothing known: `[loss, win]` (the text's `/minbew, maxbew/`).
    pub const UNKNOWN: Interval = Interval {
        lo: Wdl::Loss,
        hi: Wdl::Win,
    };

    /// `[lo, hi]`; `lo ≤ hi` is the caller's promise.
    pub const fn new(lo: Wdl, hi: Wdl) -> Self {
        Self { lo, hi }
    }

    /// The point interval `[w, w]`: the value is known.
    pub const fn point(w: Wdl) -> Self {
        Self { lo: w, hi: w }
    }

    /// The value, when the interval is a point (§2.3.7).
    pub fn exact(self) -> Option<Wdl> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// The same statement from the other side: `[−b, −a]`.
    pub fn flip(self) -> Self {
        Self {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// Both statements at once (§2.3.5's "Schnitt"); `None` when they contradict each other.
    pub fn intersect(self, other: Interval) -> Option<Interval> {
        let (lo, hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        (lo <= hi).then_some(Interval { lo, hi })
    }

    /// Whether `w` lies in the interval.
    pub fn contains(self, w: Wdl) -> bool {
        self.lo <= w && w <= self.hi
    }
}

impl std::fmt::Display for Interval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.lo.name(), self.hi.name())
    }
}

/// How exact a statement is: the plies of search below it. A point interval holds at any depth
/// ([`Depth::EXACT`], the text's `maxm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Depth(pub u16);

impl Depth {
    /// The depth of a point interval: no deeper search changes it.
    pub const EXACT: Depth = Depth(u16::MAX);

    /// One ply more than the shallowest child (§2.3.3's `mmin`, plus the move itself).
    pub fn above(self) -> Depth {
        Depth(self.0.saturating_add(1))
    }
}

/// A node's result: interval, depth, and the move that reached the lower bound (`zbest`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Valued {
    /// Where the value lies.
    pub interval: Interval,
    /// How exact the statement is.
    pub depth: Depth,
    /// The best move found, if any (none: the text's `nullzug`).
    pub best: Option<Move>,
}

impl Valued {
    /// A statement with its depth; a point interval is always [`Depth::EXACT`].
    pub fn new(interval: Interval, depth: Depth, best: Option<Move>) -> Self {
        let depth = if interval.exact().is_some() {
            Depth::EXACT
        } else {
            depth
        };
        Self {
            interval,
            depth,
            best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Wdl::*;

    #[test]
    fn flipping_and_intersecting() {
        assert_eq!(Interval::new(Draw, Win).flip(), Interval::new(Loss, Draw));
        assert_eq!(Interval::UNKNOWN.flip(), Interval::UNKNOWN);
        assert_eq!(
            Interval::new(Draw, Win).intersect(Interval::new(Loss, Draw)),
            Some(Interval::point(Draw))
        );
        assert_eq!(Interval::point(Win).intersect(Interval::point(Draw)), None);
        assert_eq!(
            Valued::new(Interval::point(Loss), Depth(3), None).depth,
            Depth::EXACT
        );
    }
}
