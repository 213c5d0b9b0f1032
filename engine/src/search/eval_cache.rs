//! A cache of static evaluations by position (Fischerle's later versions, spec §5). Direct-mapped
//! by the position's hash; an entry keeps the whole hash, so another position on the same slot is
//! evaluated afresh, never mistaken for it (short of a 64-bit hash collision). It never changes a
//! value, only the time.

use crate::eval::Score;

/// The cache of one searcher.
#[derive(Debug)]
pub struct EvalCache {
    slots: Vec<(u64, Score)>,
    size_kb: usize,
}

impl EvalCache {
    /// A cache of about `size_kb` KiB (at least one slot), its memory written at once.
    pub fn new(size_kb: usize) -> Self {
        let n = ((size_kb << 10) / std::mem::size_of::<(u64, Score)>()).max(1);
        let mut slots = Vec::with_capacity(n);
        slots.resize(n, (0, 0));
        Self { slots, size_kb }
    }

    /// The size asked for, in KiB.
    pub fn size_kb(&self) -> usize {
        self.size_kb
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The stored evaluation of the position with hash `key`. The hash 0 is never stored (it
    /// marks an empty slot).
    pub fn probe(&self, key: u64) -> Option<Score> {
        let (stored, score) = self.slots[self.index(key)];
        (stored == key && key != 0).then_some(score)
    }

    /// Stores the evaluation of the position with hash `key`.
    pub fn store(&mut self, key: u64, score: Score) {
        let i = self.index(key);
        self.slots[i] = (key, score);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_score_is_found_and_a_colliding_key_is_not_mistaken() {
        let mut cache = EvalCache::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.probe(key), None);
        cache.store(key, 42);
        assert_eq!(cache.probe(key), Some(42));
        // Another key on the same slot: the slot keeps the whole hash.
        let other = (1..u64::MAX)
            .map(|k| key.wrapping_add(k))
            .find(|&k| cache.index(k) == cache.index(key))
            .unwrap();
        assert_eq!(cache.probe(other), None);
        assert_eq!(cache.probe(0), None, "hash 0 marks an empty slot");
    }
}
