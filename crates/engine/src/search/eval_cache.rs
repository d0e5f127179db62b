//! A thread's cache of static scores by position key.
//!
//! Draughts transposes a great deal (men's moves commute, and the horizon's
//! exchanges and captures come back to the same positions by several orders), and
//! the quiescence leaves where most evaluations happen are not kept in the
//! transposition table. A position met again within a few thousand nodes takes its
//! score from here instead of from the evaluation: the patterns' windows or the
//! network's layers (whose first layer is then not brought up to date either).
//! The evaluation is a function of the position alone, so a hit returns exactly
//! what the evaluation would: the search's nodes do not change.

use kroon_rules::board::zobrist::Key;

/// Entries: 16 K of 8 bytes, 128 KiB, within a core's second-level cache beside the
/// worker's small table of the shallow nodes.
const ENTRIES: usize = 1 << 14;

/// The static scores of recently evaluated positions, one per slot (a newer
/// position takes the slot).
pub struct EvalCache {
    /// The key's upper 48 bits and the score's 16 (scores are within ±5000): a
    /// single word, so an entry is written and read whole.
    slots: Vec<u64>,
}

impl EvalCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; ENTRIES],
        }
    }

    /// The score kept for `key`, if its slot holds it.
    #[inline(always)]
    pub fn get(&self, key: Key) -> Option<i32> {
        let slot = self.slots[Self::index(key)];
        // An empty slot is 0, which would match a key whose upper bits are all zero.
        (slot & !0xFFFF == Self::check(key) && slot != 0).then_some(i32::from(slot as u16 as i16))
    }

    /// Keeps `score` (within the `i16` range) for `key`.
    #[inline(always)]
    pub fn put(&mut self, key: Key, score: i32) {
        debug_assert!(i16::try_from(score).is_ok());
        self.slots[Self::index(key)] = Self::check(key) | u64::from(score as i16 as u16);
    }

    #[inline(always)]
    fn index(key: Key) -> usize {
        (key as usize) & (ENTRIES - 1)
    }

    #[inline(always)]
    fn check(key: Key) -> u64 {
        key & !0xFFFF
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_score_comes_back_and_a_different_key_misses() {
        let mut cache = EvalCache::new();
        let key: Key = 0x1234_5678_9abc_0042;
        assert_eq!(cache.get(key), None);
        for score in [0, 1, -1, 4999, -5000, 37] {
            cache.put(key, score);
            assert_eq!(cache.get(key), Some(score));
        }
        // The same slot, another position: a miss, then it takes the slot.
        let other = key ^ 0x0001_0000_0000_0000;
        assert_eq!(cache.get(other), None);
        cache.put(other, -12);
        assert_eq!(cache.get(other), Some(-12));
        assert_eq!(cache.get(key), None);
    }
}
