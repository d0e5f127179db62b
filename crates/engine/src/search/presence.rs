//! Which keys the shared transposition table may hold: one bit per key hash, set when
//! a key is stored. A clear bit proves the table lacks the key, so a search thread can
//! skip the probe, which for a table far bigger than the cache is a trip to memory.
//!
//! Near the leaves most probes miss (two in three at depth 1 of a middle-game search),
//! and one thread keeps those nodes in a table of its own that its core's cache holds.
//! Threads that share their nodes cannot (see `Worker::new`): for them this filter,
//! small enough for the cache, answers most of those misses instead.

use kroon_rules::board::Key;
use std::sync::atomic::{AtomicU64, Ordering};

/// 2^23 bits: 1 MiB, a core's L2 cache.
const BITS_LOG2: u32 = 23;
const WORDS: usize = (1 << BITS_LOG2) / 64;
/// Words read to judge how full the filter is, spread over it.
const SAMPLE: usize = 16;

pub struct Presence {
    words: Box<[AtomicU64]>,
}

impl Default for Presence {
    fn default() -> Presence {
        Presence {
            words: (0..WORDS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Presence {
    /// The word and bit of a key. The table picks its bucket from the key's high bits,
    /// so the low bits used here are independent of it.
    #[inline]
    fn bit(key: Key) -> (usize, u64) {
        let i = key as usize & ((1 << BITS_LOG2) - 1);
        (i / 64, 1 << (i % 64))
    }

    /// False only if the key was not stored since the filter was last emptied.
    #[inline]
    #[must_use]
    pub fn may_hold(&self, key: Key) -> bool {
        let (word, bit) = Presence::bit(key);
        self.words[word].load(Ordering::Relaxed) & bit != 0
    }

    /// Notes that the key is stored. Two threads marking the same word at once may lose
    /// one mark: that key's probes are skipped, which costs a hit, never a wrong result.
    #[inline]
    pub fn mark(&self, key: Key) {
        let (word, bit) = Presence::bit(key);
        let word = &self.words[word];
        let old = word.load(Ordering::Relaxed);
        // Writing only when the bit is new keeps the line shared between the cores.
        if old & bit == 0 {
            word.store(old | bit, Ordering::Relaxed);
        }
    }

    pub fn clear(&self) {
        for word in &*self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// Empties the filter once half its bits are set: a full filter proves nothing,
    /// and bits of keys the table has since replaced stay set. Cheap enough to call
    /// every thousand nodes. The keys still in the table are marked again when they
    /// are stored again.
    pub fn refresh(&self) {
        let set: u32 = (0..SAMPLE)
            .map(|k| {
                self.words[k * (WORDS / SAMPLE) + k]
                    .load(Ordering::Relaxed)
                    .count_ones()
            })
            .sum();
        if set as usize > SAMPLE * 64 / 2 {
            self.clear();
        }
    }

    /// The share of bits set.
    #[cfg(test)]
    fn fill(&self) -> f64 {
        let set: u64 = self
            .words
            .iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum();
        set as f64 / (WORDS * 64) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_key_may_be_held_and_an_unstored_one_is_not() {
        let filter = Presence::default();
        let keys: Vec<Key> = (1..1000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        assert!(keys.iter().all(|&k| !filter.may_hold(k)));
        for &k in &keys[..500] {
            filter.mark(k);
        }
        assert!(keys[..500].iter().all(|&k| filter.may_hold(k)));
        // Keys never stored may share a bit with one that was, but hardly any do.
        let false_positives = keys[500..].iter().filter(|&&k| filter.may_hold(k)).count();
        assert!(false_positives < 5, "{false_positives}");
        filter.clear();
        assert!(keys.iter().all(|&k| !filter.may_hold(k)));
    }

    #[test]
    fn refresh_empties_the_filter_only_when_half_full() {
        let filter = Presence::default();
        let mut key: Key = 1;
        let mut next = || {
            key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            key
        };
        for _ in 0..(1 << BITS_LOG2) / 4 {
            filter.mark(next());
        }
        filter.refresh();
        let fill = filter.fill();
        assert!(fill > 0.15 && fill < 0.3, "{fill}");
        for _ in 0..(1 << BITS_LOG2) {
            filter.mark(next());
        }
        assert!(filter.fill() > 0.5);
        filter.refresh();
        assert_eq!(filter.fill(), 0.0);
    }
}
