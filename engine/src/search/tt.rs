//! Transposition table: one entry per slot, exact/lower/upper bounds, mate scores stored relative
//! to the node (not the root) so they stay right at any ply. A store always replaces its slot, or,
//! as configured, only a shallower entry (depth-preferred), or slots go in pairs of a
//! depth-preferred and an always-replaced one (two-tier).

use cozy_chess::{Move, Piece, Square};

use crate::config::Replacement;
use crate::eval::Score;
use crate::search::score::{from_tt, to_tt};
use crate::search::selective::Budget;

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

impl Bound {
    /// The bound a node's `score` is for the window (`alpha`, `beta`) it was entered with: a lower
    /// bound at or above beta, an upper bound at or below alpha, else exact.
    pub fn of(score: Score, alpha: Score, beta: Score) -> Self {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
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
    /// Selective-deepening budget the node was searched with (each part saturates at 255).
    pub budget: Budget,
}

impl Entry {
    /// Whether the stored score answers a node with window (`alpha`, `beta`), its depth aside.
    pub fn fits(&self, alpha: Score, beta: Score) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// A slot: the key's upper 48 bits with the budget in the lower 16 (dynamic levels left (8) |
/// trivial levels left (8)), and the entry packed into one word as move (16 bits) | score (16) |
/// level (8) | generation (16) | bound (2; 0 = empty) | age (6). The slot index comes from the
/// key's upper bits, so 48 bits still tell positions apart.
type Slot = [u64; 2];

/// A fixed-size table owned by one searcher (no locking: one search = one thread).
///
/// Clearing is O(1): every entry carries the generation it was stored in, and an entry of another
/// generation reads as empty. A harness worker reuses one table for thousands of short searches
/// without zeroing 16 MiB each time, and a cleared table behaves exactly like a new one.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Slot>,
    size_mb: usize,
    generation: u16,
    replacement: Replacement,
    /// Whether entries of an earlier search yield to any store (`tt.aging`).
    aging: bool,
    /// The search the table is in since its last clear, modulo [`AGES`] (0 without aging).
    age: u64,
}

/// Ages an entry can carry (its 6 bits).
const AGES: u64 = 64;

impl TranspositionTable {
    /// A table of about `size_mb` MiB (at least one slot).
    pub fn new(size_mb: usize) -> Self {
        let n = (size_mb << 20) / std::mem::size_of::<Slot>();
        // Written, not `vec![..]`: a zeroed allocation maps its pages lazily, and the search
        // would then pay the page faults (about a tenth of a short search's time), as Stockfish
        // avoids by clearing its table before it searches.
        // An even count of at least two, so that two-tier pairs fill the table.
        let n = (n & !1).max(2);
        let mut slots = Vec::with_capacity(n);
        slots.resize(n, [0; 2]);
        Self {
            slots,
            size_mb,
            generation: 1,
            replacement: Replacement::Always,
            aging: false,
            age: 0,
        }
    }

    /// Sets the replacement policy (a table starts with `always`); entries already stored stay.
    pub fn set_replacement(&mut self, replacement: Replacement) {
        self.replacement = replacement;
    }

    /// Sets whether entries of an earlier search yield to any store (a table starts without).
    pub fn set_aging(&mut self, aging: bool) {
        self.aging = aging;
    }

    /// Tells the table a new search begins: with aging, the entries stored so far become an
    /// earlier search's.
    pub fn new_search(&mut self) {
        if self.aging {
            self.age = (self.age + 1) % AGES;
        }
    }

    /// Whether a table of `size_mb` can be had from the allocator, asked without touching its
    /// memory: a harness checks this before its first search instead of aborting in the middle.
    pub fn check_allocation(size_mb: usize) -> Result<(), String> {
        let n = (size_mb << 20) / std::mem::size_of::<Slot>();
        let mut probe: Vec<Slot> = Vec::new();
        probe
            .try_reserve_exact(n.max(1))
            .map_err(|e| format!("cannot allocate a {size_mb} MiB transposition table: {e}"))
    }

    /// The size asked for, in MiB.
    pub fn size_mb(&self) -> usize {
        self.size_mb
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.age = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 65535 clears old stamps could come round again: really wipe once.
            self.slots.iter_mut().for_each(|s| *s = [0; 2]);
            self.generation = 1;
        }
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a modulo bias towards low slots.
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slots a key may be stored in: its own, or its pair under two-tier replacement.
    fn candidates(&self, key: u64) -> std::ops::Range<usize> {
        let i = self.index(key);
        match self.replacement {
            Replacement::TwoTier => (i & !1)..(i & !1) + 2,
            _ => i..i + 1,
        }
    }

    /// Asks the processor to start loading `key`'s slot into its cache, so that a probe of it a
    /// little later does not wait on memory: that wait was nearly all of a probe's cost (95 % of
    /// its samples on the load; the probe 14 % of `fitted`'s search time and 20 % of `fischerle`'s
    /// in the default experiment). A hint only: no result depends on it.
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.index(key)]);
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        self.candidates(key)
            .find_map(|i| self.read(self.slots[i], key, ply))
    }

    /// The entry in `slot` if it holds `key`, stored since the last clear (of any age).
    fn read(&self, [stored_key, data]: Slot, key: u64, ply: usize) -> Option<Entry> {
        if (data >> 40) as u16 != self.generation {
            return None;
        }
        let bound = match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        if stored_key & KEY_MASK != key & KEY_MASK {
            return None;
        }
        Some(Entry {
            mv: unpack(data as u16),
            score: from_tt(Score::from((data >> 16) as u16 as i16), ply),
            level: i32::from((data >> 32) as u8 as i8),
            bound,
            budget: Budget {
                dyn_left: u32::from((stored_key >> 8) as u8),
                triv_left: u32::from(stored_key as u8),
            },
        })
    }

    /// Whether a store of `key` at `level` may overwrite `slot` under the depth-preferred rule:
    /// the slot is empty or cleared, holds the same position, is not deeper, or (with aging) is
    /// an earlier search's.
    fn yields(&self, [stored_key, data]: Slot, key: u64, level: i32) -> bool {
        let live = (data >> 40) as u16 == self.generation && data >> 56 & 3 != 0;
        let stale = self.aging && data >> 58 != self.age;
        let stored_level = i32::from((data >> 32) as u8 as i8);
        !live || stale || stored_key & KEY_MASK == key & KEY_MASK || level >= stored_level
    }

    /// Stores a result where the replacement policy puts it (depth-preferred may keep a deeper
    /// entry of another position instead).
    pub fn store(&mut self, key: u64, ply: usize, entry: Entry) {
        let first = self.candidates(key).start;
        let i = match self.replacement {
            Replacement::Always => first,
            Replacement::DepthPreferred if self.yields(self.slots[first], key, entry.level) => {
                first
            }
            Replacement::DepthPreferred => return,
            Replacement::TwoTier if self.yields(self.slots[first], key, entry.level) => first,
            Replacement::TwoTier => first + 1,
        };
        let bound: u64 = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = to_tt(entry.score, ply) as i16 as u16;
        let level = entry.level.clamp(i8::MIN.into(), i8::MAX.into()) as i8 as u8;
        let mv = entry.mv.map_or(0, pack);
        let generation = u64::from(self.generation);
        let saturate = |levels: u32| u64::from(levels.min(255));
        let budget = saturate(entry.budget.dyn_left) << 8 | saturate(entry.budget.triv_left);
        self.slots[i] = [
            key & KEY_MASK | budget,
            u64::from(mv)
                | u64::from(score) << 16
                | u64::from(level) << 32
                | generation << 40
                | bound << 56
                | self.age << 58,
        ];
    }
}

/// The one use of `unsafe` in the workspace (whose lint denies it elsewhere): `std::arch`'s
/// prefetch takes a raw pointer, and a safe prefetch (`std::hint::prefetch_read`) is not stable
/// yet. A plain read instead (`black_box`) was measured no faster: a load holds up the core until
/// it arrives, a prefetch does not.
#[allow(unsafe_code)]
#[inline(always)]
fn prefetch(slot: &Slot) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a cache hint: it reads nothing the program sees, cannot fault, and
    // `slot` is a live element of the table. SSE, which has the instruction, is in every x86_64.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr().cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// The key bits a slot keeps.
const KEY_MASK: u64 = !0xFFFF;

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

    const NO_BUDGET: Budget = Budget {
        dyn_left: 0,
        triv_left: 0,
    };

    #[test]
    fn an_impossible_table_is_an_error_not_an_abort() {
        assert!(TranspositionTable::check_allocation(1).is_ok());
        let err = TranspositionTable::check_allocation(usize::MAX >> 20).unwrap_err();
        assert!(err.contains("cannot allocate"), "{err}");
    }

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
            budget: NO_BUDGET,
        };
        let key = 42 << 16;
        tt.store(key, 5, entry);
        // Mate in 2 plies from the node: seen from ply 1 it is mate at ply 3.
        assert_eq!(tt.probe(key, 1).unwrap().score, MATE - 3);
        assert_eq!(tt.probe(key + (1 << 16), 1), None);
    }

    #[test]
    fn clearing_hides_every_entry_even_after_the_stamps_wrap() {
        let mut tt = TranspositionTable::new(1);
        let entry = Entry {
            mv: None,
            score: 5,
            level: 2,
            bound: Bound::Exact,
            budget: NO_BUDGET,
        };
        tt.store(9, 0, entry);
        tt.clear();
        assert_eq!(tt.probe(9, 0), None);
        tt.store(9, 0, entry);
        for _ in 0..u16::MAX {
            tt.clear();
        }
        assert_eq!(tt.probe(9, 0), None);
        tt.store(9, 0, entry);
        assert_eq!(tt.probe(9, 0), Some(entry));
    }

    /// A lower bound of 1 at `level`: what the replacement tests store.
    fn lower_bound(level: i32) -> Entry {
        Entry {
            mv: None,
            score: 1,
            level,
            bound: Bound::Lower,
            budget: NO_BUDGET,
        }
    }

    /// Two positions on one two-tier pair: the deep entry of an earlier search keeps the
    /// depth-preferred slot without aging and yields it with aging, and either way stays readable
    /// until something replaces it.
    #[test]
    fn an_earlier_searchs_deep_entry_yields_only_with_aging() {
        // The index comes from the key's top bits: these three share a pair.
        let (deep, first, second) = (7 << 48, (7 << 48) + (1 << 16), (7 << 48) + (2 << 16));
        for aging in [false, true] {
            let mut tt = TranspositionTable::new(1);
            tt.set_replacement(Replacement::TwoTier);
            tt.set_aging(aging);
            tt.new_search();
            tt.store(deep, 0, lower_bound(9));
            tt.new_search();
            assert_eq!(
                tt.probe(deep, 0),
                Some(lower_bound(9)),
                "read in the next search"
            );
            tt.store(first, 0, lower_bound(2));
            tt.store(second, 0, lower_bound(1));
            // The shallower second store lands where the first did (the always-replaced slot)
            // unless the stale deep entry yielded the depth-preferred one to the first.
            assert_eq!(tt.probe(deep, 0).is_some(), !aging, "aging {aging}");
            assert_eq!(tt.probe(first, 0).is_some(), aging, "aging {aging}");
            assert_eq!(tt.probe(second, 0), Some(lower_bound(1)));
        }
    }

    #[test]
    fn within_one_search_aging_changes_no_replacement() {
        let (deep, shallow) = (7 << 48, (7 << 48) + (1 << 16));
        let mut tt = TranspositionTable::new(1);
        tt.set_replacement(Replacement::DepthPreferred);
        tt.set_aging(true);
        tt.new_search();
        tt.store(deep, 0, lower_bound(9));
        tt.store(shallow, 0, lower_bound(1));
        assert_eq!(tt.probe(deep, 0), Some(lower_bound(9)));
        assert_eq!(tt.probe(shallow, 0), None);
        // Ages wrap after 64 searches; a cleared table starts again at the first.
        for _ in 0..AGES {
            tt.new_search();
        }
        tt.store(shallow, 0, lower_bound(1));
        assert_eq!(
            tt.probe(shallow, 0),
            None,
            "64 searches later the age is the same"
        );
        tt.new_search();
        tt.store(shallow, 0, lower_bound(1));
        assert_eq!(tt.probe(shallow, 0), Some(lower_bound(1)));
    }

    #[test]
    fn negative_scores_and_levels_survive_packing() {
        let mut tt = TranspositionTable::new(1);
        let mv = Some("e7e8n".parse().unwrap());
        let entry = Entry {
            mv,
            score: -1234,
            level: -3,
            bound: Bound::Upper,
            budget: Budget {
                dyn_left: 3,
                triv_left: 1000,
            },
        };
        tt.store(7, 0, entry);
        let stored = tt.probe(7, 0).unwrap();
        assert_eq!(stored.budget.triv_left, 255, "budgets saturate");
        assert_eq!(
            stored,
            Entry {
                budget: Budget {
                    dyn_left: 3,
                    triv_left: 255
                },
                ..entry
            }
        );
        let entry = Entry {
            mv: None,
            score: 32_000 - 9,
            level: 100,
            bound: Bound::Lower,
            budget: NO_BUDGET,
        };
        tt.store(7, 0, entry);
        assert_eq!(tt.probe(7, 0), Some(entry));
    }
}
