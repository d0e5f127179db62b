//! The transposition table, shared by every search thread without locks.
//!
//! An entry is two `AtomicU64`s: `check = key ^ data` and `data`. Threads read and
//! write the two words separately, so a reader can see one word from one store and
//! the other from another; such a torn pair fails `check ^ data == key` and is
//! treated as a miss. Moves are stored as their index in the generator's move list,
//! which is the same every time for a given position.

use super::presence::Presence;
use crate::search::score::Score;
use kroon_rules::board::Key;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// One probe result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Score relative to the storing node (see [`Score::stored_at`]).
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the move list, if one is known.
    pub move_index: Option<u8>,
}

const ENTRIES_PER_BUCKET: usize = 4;
const NO_MOVE: u64 = 0xFF;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// One cache line, so that a probe costs at most one miss.
#[repr(align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

/// The shared table. Its size is set when it is made; [`TranspositionTable::clear`]
/// forgets everything (a new game), and each new search advances the age so that
/// old entries give way first.
pub struct TranspositionTable {
    /// The buckets are `table[start..start + buckets]`: the allocation has room to
    /// spare so that they can begin on a huge-page boundary.
    table: Vec<Bucket>,
    start: usize,
    buckets: usize,
    age: AtomicU8,
    /// Which keys may be here (see [`Presence`]); None for a table the cache holds.
    presence: Option<Presence>,
}

/// The huge-page size of x86_64 Linux. A probe lands on a random bucket, so with
/// 4 KiB pages a probe of a large table misses the TLB as well as the cache. On huge
/// pages a depth-18 search from the start took 6-9% less time (12 alternating runs);
/// short searches, which touch little of the table, gained about 1%.
const HUGE_PAGE: usize = 2 << 20;
const BUCKETS_PER_HUGE_PAGE: usize = HUGE_PAGE / std::mem::size_of::<Bucket>();

/// Asks the kernel to back `len` bytes from `start` with huge pages. Only advice: the
/// table works the same, only slower, where it is not taken.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *const Bucket, len: usize) {
    // SAFETY: madvise neither reads nor writes memory through the pointer, and with
    // MADV_HUGEPAGE it changes neither the contents nor the validity of the range: it
    // only marks the pages as candidates for huge pages. The caller passes a range
    // inside its own live allocation. A failure (an old kernel, huge pages switched
    // off, a range the kernel refuses) leaves the default pages, so the result is
    // ignored.
    unsafe {
        libc::madvise(start.cast_mut().cast(), len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const Bucket, _len: usize) {}

// data layout: score (16 bits, two's complement) | depth (8, biased by 128) |
// bound (2) | move index (8) | age (6)
fn pack(score: Score, depth: i32, bound: Bound, move_index: Option<u8>, age: u8) -> u64 {
    let score = u64::from(score.0 as i16 as u16);
    let depth = (depth.clamp(-128, 127) + 128) as u64;
    let mv = move_index.map_or(NO_MOVE, u64::from);
    score | depth << 16 | (bound as u64) << 24 | mv << 26 | u64::from(age & 63) << 34
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (data >> 26) & 0xFF;
    Some(Entry {
        score: Score(i32::from(data as u16 as i16)),
        depth: ((data >> 16) & 0xFF) as i32 - 128,
        bound,
        move_index: if mv == NO_MOVE { None } else { Some(mv as u8) },
    })
}

fn data_depth(data: u64) -> i32 {
    ((data >> 16) & 0xFF) as i32 - 128
}

fn data_age(data: u64) -> u8 {
    ((data >> 34) & 63) as u8
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket), with a filter that tells the
    /// keys surely absent (see [`TranspositionTable::may_hold`]).
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable {
            presence: Some(Presence::default()),
            ..TranspositionTable::with_bytes(mb.max(1).saturating_mul(1 << 20))
        }
    }

    /// A table of about `mb` MiB that the core's cache holds, where the filter would
    /// only cost time: [`TranspositionTable::may_hold`] is always true.
    #[must_use]
    pub fn in_cache(mb: usize) -> TranspositionTable {
        TranspositionTable::with_bytes(mb.max(1).saturating_mul(1 << 20))
    }

    /// A table of about `bytes` bytes (at least one bucket of 64), without a filter.
    #[must_use]
    fn with_bytes(bytes: usize) -> TranspositionTable {
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // A table of at least one huge page starts on a huge-page boundary, and its
        // whole huge pages are advised before the first write, so that the kernel
        // backs them with huge pages from the start. The capacity covers them from any
        // start below one huge page. A smaller table (a thread's near-leaf table, made
        // for every search) gets neither: the TLB covers it, and the slack before the
        // boundary would cost a zeroed huge page per search.
        let huge = buckets >= BUCKETS_PER_HUGE_PAGE;
        let advised = buckets.div_ceil(BUCKETS_PER_HUGE_PAGE) * BUCKETS_PER_HUGE_PAGE;
        let capacity = if huge {
            advised + BUCKETS_PER_HUGE_PAGE
        } else {
            buckets
        };
        let mut table: Vec<Bucket> = Vec::with_capacity(capacity);
        let mut start = 0;
        if huge {
            let misalignment = table.as_ptr() as usize % HUGE_PAGE;
            start = (HUGE_PAGE - misalignment) % HUGE_PAGE / std::mem::size_of::<Bucket>();
            advise_huge_pages(
                table.as_ptr().wrapping_add(start),
                advised * std::mem::size_of::<Bucket>(),
            );
        }
        table.extend((0..start + buckets).map(|_| {
            Bucket(std::array::from_fn(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            }))
        }));
        TranspositionTable {
            table,
            start,
            buckets,
            age: AtomicU8::new(0),
            presence: None,
        }
    }

    /// The size in MiB it was made with (rounded down).
    #[cfg(test)]
    #[must_use]
    pub fn size_mb(&self) -> usize {
        (self.buckets * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets every entry. Must not run while a search uses the table (it would only
    /// lose entries, never corrupt them, but the search would be weaker).
    pub fn clear(&self) {
        for slot in self.buckets().iter().flat_map(|b| &b.0) {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
        if let Some(presence) = &self.presence {
            presence.clear();
        }
    }

    /// Marks the start of a new search: entries from earlier searches are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn buckets(&self) -> &[Bucket] {
        &self.table[self.start..]
    }

    #[inline]
    fn bucket_index(&self, key: Key) -> usize {
        self.start + ((u128::from(key) * self.buckets as u128) >> 64) as usize
    }

    #[inline]
    fn bucket(&self, key: Key) -> &[Slot; ENTRIES_PER_BUCKET] {
        &self.table[self.bucket_index(key)].0
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe a little
    /// later does not wait for memory. A hint only: it changes no result.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = &self.table[self.bucket_index(key)];
            // SAFETY: SSE is part of the x86_64 baseline, so the instruction exists on
            // every x86_64 CPU; a prefetch only hints the cache, never reads the
            // memory for the program nor faults, and the address is that of a live
            // bucket borrowed from `self.table`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// False when the table surely lacks the key, so that a probe would miss: it costs
    /// a read of a filter the cache holds, where the probe would go to memory. True
    /// when the key may be there, or the table has no filter.
    #[inline]
    #[must_use]
    pub fn may_hold(&self, key: Key) -> bool {
        self.presence.as_ref().is_none_or(|p| p.may_hold(key))
    }

    /// Keeps the filter useful: see [`Presence::refresh`]. For a search thread to call
    /// now and then.
    pub fn refresh_filter(&self) {
        if let Some(presence) = &self.presence {
            presence.refresh();
        }
    }

    /// The entry stored for this key, if any (torn entries read as absent).
    #[inline]
    #[must_use]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result. Within the bucket it replaces the entry for the same
    /// position, else the shallowest entry, counting entries from older searches as
    /// shallower; an entry for the same position keeps its move when the new result
    /// has none.
    #[inline]
    pub fn store(&self, key: Key, score: Score, depth: i32, bound: Bound, move_index: Option<u8>) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        if let Some(presence) = &self.presence {
            presence.mark(key);
        }
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                // A shallower bound must not overwrite a deeper result of this search,
                // except an exact score, which is worth more than a bound.
                if bound != Bound::Exact && data_age(data) == age && data_depth(data) > depth + 2 {
                    return;
                }
                let kept_move = move_index.or_else(|| unpack(data).and_then(|e| e.move_index));
                let new = pack(score, depth, bound, kept_move, age);
                slot.data.store(new, Ordering::Relaxed);
                slot.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let worth = if data == 0 {
                i32::MIN
            } else {
                let stale = (age.wrapping_sub(data_age(data)) & 63) as i32;
                data_depth(data) - 8 * stale
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(score, depth, bound, move_index, age);
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(key ^ new, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(12345), None);
        tt.store(12345, Score(-77), 9, Bound::Lower, Some(3));
        let e = tt.probe(12345).unwrap();
        assert_eq!(
            e,
            Entry {
                score: Score(-77),
                depth: 9,
                bound: Bound::Lower,
                move_index: Some(3)
            }
        );
        tt.store(999, Score::win_in(5), -1, Bound::Exact, None);
        let e = tt.probe(999).unwrap();
        assert_eq!(
            (e.score, e.depth, e.move_index),
            (Score::win_in(5), -1, None)
        );
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    #[test]
    fn large_tables_start_on_a_huge_page() {
        for mb in [1, 2, 3, 32] {
            let tt = TranspositionTable::new(mb);
            if mb >= 2 {
                assert_eq!(tt.buckets().as_ptr() as usize % HUGE_PAGE, 0);
            } else {
                assert_eq!((tt.start, tt.table.len()), (0, tt.buckets));
            }
            assert_eq!(tt.buckets().len(), tt.buckets);
            assert_eq!(tt.size_mb(), mb);
            // Every key maps into the table's own buckets.
            for key in [0, 1, u64::MAX / 3, u64::MAX] {
                let i = tt.bucket_index(key);
                assert!(i >= tt.start && i < tt.start + tt.buckets);
            }
        }
    }

    #[test]
    fn keeps_the_move_and_deep_entries() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Score(10), 12, Bound::Exact, Some(7));
        tt.store(42, Score(11), 3, Bound::Upper, None);
        assert_eq!(
            tt.probe(42).unwrap().depth,
            12,
            "a shallow bound must not replace a deep entry"
        );
        tt.store(42, Score(12), 3, Bound::Exact, None);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.depth, e.move_index), (3, Some(7)));
        // Fill one bucket: keys that share a bucket index.
        let tt = TranspositionTable::new(1);
        let buckets = tt.buckets as u128;
        let same_bucket: Vec<u64> = (1..u64::MAX / 2)
            .step_by(7919)
            .filter(|&k| (u128::from(k) * buckets) >> 64 == 0)
            .take(5)
            .collect();
        for (i, &k) in same_bucket.iter().enumerate().take(4) {
            tt.store(k, Score(0), [20, 1, 15, 18][i], Bound::Exact, None);
        }
        tt.store(same_bucket[4], Score(0), 5, Bound::Exact, None);
        assert!(
            tt.probe(same_bucket[1]).is_none(),
            "the shallowest entry goes"
        );
        assert!(tt.probe(same_bucket[0]).is_some());
        assert!(tt.probe(same_bucket[4]).is_some());
    }

    #[test]
    fn the_filter_tells_keys_surely_absent() {
        let tt = TranspositionTable::new(1);
        let keys: Vec<Key> = (1..200u64).map(|i| i << 40 | i).collect();
        assert!(keys.iter().all(|&k| !tt.may_hold(k)));
        for &k in &keys {
            tt.store(k, Score(1), 2, Bound::Exact, None);
        }
        // Stored keys may be held whether or not they are still there.
        assert!(keys.iter().all(|&k| tt.may_hold(k)));
        tt.clear();
        assert!(keys.iter().all(|&k| !tt.may_hold(k)));
        // A table that the cache holds has no filter: any key may be there.
        let near = TranspositionTable::in_cache(1);
        assert!(keys.iter().all(|&k| near.may_hold(k)));
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        tt.store(1000, Score(5), 4, Bound::Exact, Some(1));
        // Simulate a torn write: another store's data word with this entry's check.
        let slot = tt
            .bucket(1000)
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        slot.data.store(
            pack(Score(-300), 30, Bound::Exact, Some(9), 0),
            Ordering::Relaxed,
        );
        assert_eq!(tt.probe(1000), None);
    }

    #[test]
    fn concurrent_stores_never_yield_torn_entries() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i % 64) | 1 << 40;
                        // Each key's score encodes the key, whoever writes it.
                        tt.store(
                            key,
                            Score((key % 64) as i32),
                            (t + i % 3) as i32,
                            Bound::Exact,
                            None,
                        );
                        if let Some(e) = tt.probe(key ^ 1) {
                            assert_eq!(e.score.0 as u64, (key ^ 1) % 64);
                        }
                    }
                });
            }
        });
    }
}
