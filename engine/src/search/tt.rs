//! Transposition table: one entry per slot, always replaced, exact/lower/upper bounds, mate scores
//! stored relative to the node (not the root) so they stay right at any ply.

use cozy_chess::{Move, Piece, Square};

use crate::eval::Score;
use crate::search::score::{from_tt, to_tt};

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// What a probe returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Best or cutoff move, if any.
    pub mv: Option<Move>,
    /// Score, already converted to the probing node's ply.
    pub score: Score,
    /// Level the score was searched to.
    pub level: i32,
    /// Kind of score.
    pub bound: Bound,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    level: i8,
    /// 0 = empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
}

/// A fixed-size table owned by one searcher (no locking: one search = one thread).
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Slot>,
}

impl TranspositionTable {
    /// A table of about `size_mb` MiB (at least one slot).
    pub fn new(size_mb: usize) -> Self {
        let n = (size_mb << 20) / std::mem::size_of::<Slot>();
        Self {
            slots: vec![Slot::default(); n.max(1)],
        }
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a modulo bias towards low slots.
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let slot = self.slots[self.index(key)];
        if slot.bound == 0 || slot.key != key {
            return None;
        }
        let bound = match slot.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            mv: unpack(slot.mv),
            score: from_tt(Score::from(slot.score), ply),
            level: i32::from(slot.level),
            bound,
        })
    }

    /// Stores a result, replacing whatever the slot held.
    pub fn store(&mut self, key: u64, ply: usize, entry: Entry) {
        let i = self.index(key);
        self.slots[i] = Slot {
            key,
            mv: entry.mv.map_or(0, pack),
            score: to_tt(entry.score, ply) as i16,
            level: entry.level.clamp(i8::MIN.into(), i8::MAX.into()) as i8,
            bound: match entry.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
        };
    }
}

/// from (6 bits) | to (6 bits) | promotion + 1 (3 bits); 0 never occurs for a real move.
fn pack(mv: Move) -> u16 {
    let promo = mv.promotion.map_or(0, |p| p as u16 + 1);
    mv.from as u16 | (mv.to as u16) << 6 | promo << 12
}

fn unpack(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let promo = (bits >> 12) as usize;
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion: (promo > 0).then(|| Piece::index(promo - 1)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn moves_pack_and_unpack() {
        for text in ["e2e4", "a7a8q", "h2h1n", "e1h1"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(unpack(pack(mv)), Some(mv));
        }
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        let entry = Entry {
            mv: None,
            score: MATE - 7,
            level: 3,
            bound: Bound::Exact,
        };
        tt.store(42, 5, entry);
        // Mate in 2 plies from the node: seen from ply 1 it is mate at ply 3.
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 3);
        assert_eq!(tt.probe(43, 1), None);
    }
}
