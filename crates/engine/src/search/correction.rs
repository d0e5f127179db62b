//! The correction of the static score by the men's structure: how far the searches
//! of this game found the evaluation off in positions where one side's men stand as
//! they stand here. Shared by a search's threads and kept across a game's moves, as
//! the transposition table is: the formations a search meets deep in its tree are
//! those the game reaches some moves later.
//!
//! The evaluation misjudges some structures the same way wherever they occur: the
//! slow slides of docs/learning.md, where the score falls by a tenth of a man a
//! move over a dozen moves, are a network scoring a formation better than the
//! search finds it. Each side's men move only on that side's turn, so all the
//! lines of the other side below a node share its men's formation: what a search
//! found there is a fair guess for the static score of the next position with the
//! same formation. Chess engines keep such a table by pawn structure; here it is
//! two, one by each side's men, and the correction is their mean, scaled by the
//! `correction` setting (0: off, no table read or written).

use kroon_rules::board::{Position, Side};
use std::sync::atomic::{AtomicI32, Ordering};

/// Entries per side to move and colour of men: 16 K of 4 bytes, 256 KiB for the
/// four tables.
const ENTRIES: usize = 1 << 14;
/// An entry holds hundredths of a man times this, for a running mean that moves
/// by less than a hundredth at a time.
const GRAIN: i32 = 256;
/// The weight of one search's finding out of [`WEIGHT_SCALE`], by its depth: a
/// deeper search is surer, up to this many.
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;
/// A search that differs from the static score by more than this (three men) found
/// a tactic, not a misjudged formation: it counts as this much.
const MAX_DIFFERENCE: i32 = 300;

/// The four tables: by side to move, then by the colour of the men that key them.
/// Threads read and write the entries without a lock: an update lost to another
/// thread's is one sample fewer in a running mean.
pub struct Corrections {
    entries: Vec<AtomicI32>,
}

impl Default for Corrections {
    fn default() -> Corrections {
        Corrections::new()
    }
}

impl Corrections {
    /// Tables that correct nothing yet.
    #[must_use]
    pub fn new() -> Corrections {
        Corrections {
            entries: (0..4 * ENTRIES).map(|_| AtomicI32::new(0)).collect(),
        }
    }

    /// Forgets everything learned: the next search is unrelated to the last.
    pub fn clear(&self) {
        for entry in &self.entries {
            entry.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn entry(&self, slot: usize) -> i32 {
        self.entries[slot].load(Ordering::Relaxed)
    }

    /// The entries of `pos`: one by White's men, one by Black's, for its side to move.
    #[inline(always)]
    fn slots(pos: &Position) -> [usize; 2] {
        let side = usize::from(pos.side_to_move() == Side::Black);
        [Side::White, Side::Black].map(|colour| {
            let men = pos.men(colour).0;
            // Multiplying spreads every square's bit into the top bits, which index.
            let hash = men.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let index = (hash >> (64 - ENTRIES.trailing_zeros())) as usize;
            (2 * side + colour as usize) * ENTRIES + index
        })
    }

    /// What to add to the static score of `pos`, in hundredths of a man, at
    /// `percent` of the tables' mean.
    #[inline(always)]
    #[must_use]
    pub fn of(&self, pos: &Position, percent: i32) -> i32 {
        let [a, b] = Self::slots(pos);
        let mean = (self.entry(a) + self.entry(b)) / 2;
        mean * percent / (100 * GRAIN)
    }

    /// A search of `depth` plies scored `pos` `difference` hundredths above its
    /// static score: each entry moves towards that by a share that grows with the depth.
    #[inline(always)]
    pub fn learn(&self, pos: &Position, difference: i32, depth: i32) {
        let target = difference.clamp(-MAX_DIFFERENCE, MAX_DIFFERENCE) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        for slot in Self::slots(pos) {
            let entry = self.entry(slot);
            let moved = (entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            self.entries[slot].store(moved, Ordering::Relaxed);
        }
    }

    /// How many entries hold something (for tests: what a search taught).
    #[cfg(test)]
    #[must_use]
    pub fn learned(&self) -> usize {
        let held = |e: &&AtomicI32| e.load(Ordering::Relaxed) != 0;
        self.entries.iter().filter(held).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POS: &str = "W:W26,27,32,35,37,38,39,40,41,42,43,45,46,47,48,49,50:B1,2,3,5,6,7,8,9,10,11,12,15,16,17,18,20,29";

    #[test]
    fn a_formation_learns_what_its_searches_found_and_others_keep_nothing() {
        let pos = Position::from_fen(POS).unwrap();
        let tables = Corrections::new();
        assert_eq!(tables.of(&pos, 100), 0);
        for _ in 0..200 {
            tables.learn(&pos, 80, 10);
        }
        // The running mean nears what the searches found, and the setting scales it.
        let learned = tables.of(&pos, 100);
        assert!((75..=80).contains(&learned), "{learned}");
        assert_eq!(tables.of(&pos, 0), 0);
        assert!((tables.of(&pos, 50) - learned / 2).abs() <= 1);
        // A tactic counts as three men at most.
        let tactic = Corrections::new();
        for _ in 0..500 {
            tactic.learn(&pos, 2000, 20);
        }
        assert!(tactic.of(&pos, 100) <= MAX_DIFFERENCE);
        // The same men with the other side to move, and other men, are other entries.
        let other_side = pos.with_side_to_move(Side::Black);
        assert_eq!(tables.of(&other_side, 100), 0);
        let start = Position::initial();
        assert_eq!(tables.of(&start, 100), 0);
        // A new game forgets it.
        tables.clear();
        assert_eq!(tables.of(&pos, 100), 0);
    }

    #[test]
    fn a_deeper_search_moves_the_entry_further() {
        let pos = Position::from_fen(POS).unwrap();
        let (shallow, deep) = (Corrections::new(), Corrections::new());
        shallow.learn(&pos, -200, 1);
        deep.learn(&pos, -200, 12);
        // Exactly: entries start at 0, and a share of depth + 1 in 256 moves each.
        let slot = Corrections::slots(&pos)[0];
        assert_eq!(shallow.entry(slot), -200 * GRAIN * 2 / 256);
        assert_eq!(deep.entry(slot), -200 * GRAIN * 13 / 256);
        assert!(deep.of(&pos, 100) < shallow.of(&pos, 100));
    }
}
