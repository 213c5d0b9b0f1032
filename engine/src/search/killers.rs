//! Killer moves (Fischerle section 4): per slot, the last quiet moves that caused a beta cutoff,
//! tried early in sibling nodes. The slot is the `ply` by default; indexing by `level` is the variant
//! Fischerle found wrong, kept as an ablation.

use cozy_chess::Move;

pub use crate::config::MAX_KILLERS;
use crate::config::{KillerIndex, Killers};
use crate::search::MAX_PLY;

/// `killers.count` as the table uses it. Validation refuses counts above [`MAX_KILLERS`]; a
/// configuration built in code without validation is capped here rather than indexed past a slot.
fn capped(count: usize) -> usize {
    debug_assert!(
        count <= MAX_KILLERS,
        "killers.count {count} was not validated"
    );
    count.min(MAX_KILLERS)
}

/// The killer table of one search.
#[derive(Debug, Clone)]
pub struct KillerTable {
    slots: Vec<[Option<Move>; MAX_KILLERS]>,
    count: usize,
    index: KillerIndex,
}

impl KillerTable {
    /// An empty table.
    pub fn new(config: &Killers) -> Self {
        Self {
            slots: vec![[None; MAX_KILLERS]; MAX_PLY + 1],
            count: capped(config.count),
            index: config.index,
        }
    }

    /// Empties every slot and takes the configuration's count and index.
    pub fn reset(&mut self, config: &Killers) {
        self.slots.iter_mut().for_each(|s| *s = [None; MAX_KILLERS]);
        self.count = capped(config.count);
        self.index = config.index;
    }

    /// The slot a node uses.
    pub fn slot(&self, ply: usize, level: i32) -> usize {
        match self.index {
            KillerIndex::Ply => ply,
            KillerIndex::Level => level.clamp(0, MAX_PLY as i32) as usize,
        }
    }

    /// The killers of a slot, most recent first.
    pub fn get(&self, slot: usize) -> &[Option<Move>] {
        &self.slots[slot][..self.count]
    }

    /// Records a cutoff move; the oldest killer of the slot drops out.
    pub fn store(&mut self, slot: usize, mv: Move) {
        let killers = &mut self.slots[slot][..self.count];
        if killers.first() == Some(&Some(mv)) || killers.is_empty() {
            return;
        }
        let keep = killers
            .iter()
            .position(|&k| k == Some(mv))
            .unwrap_or(killers.len() - 1);
        killers.copy_within(0..keep, 1);
        killers[0] = Some(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_without_duplicates() {
        let mut t = KillerTable::new(&Killers {
            count: 2,
            index: KillerIndex::Ply,
        });
        let (a, b, c) = (
            "e2e4".parse().unwrap(),
            "d2d4".parse().unwrap(),
            "g1f3".parse().unwrap(),
        );
        t.store(3, a);
        t.store(3, b);
        t.store(3, b);
        assert_eq!(t.get(3), &[Some(b), Some(a)]);
        t.store(3, c);
        assert_eq!(t.get(3), &[Some(c), Some(b)]);
        t.store(3, b);
        assert_eq!(t.get(3), &[Some(b), Some(c)]);
        assert_eq!(t.get(4), &[None, None]);
    }

    #[test]
    fn level_indexing_uses_the_level() {
        let t = KillerTable::new(&Killers {
            count: 2,
            index: KillerIndex::Level,
        });
        assert_eq!(t.slot(7, 2), 2);
    }
}
