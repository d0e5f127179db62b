//! The smaller slices a unit's moves lead into, unpacked whole for pass 1.
//!
//! Pass 1 looks up every capture and promotion of a unit in slices already built,
//! billions of times for a 6-piece unit. Through the reader each look-up takes a
//! slice's lock-free cell, a block's and the block cache's count, and each capture
//! pending below allocates its list of moves; profiled, that was most of pass 1.
//! Here the slices the unit reaches are decompressed once into plain arrays of two
//! bits a position (all of 2-5 pieces take 400 MB), and a capture pending is played
//! out with a list of moves per depth kept from probe to probe.
//!
//! A file stores nothing for a position with a capture pending (the probe plays
//! the capture out), so each probe of one had to test for captures and play them
//! out again, below every capture of the unit: after a capture the opponent often
//! must capture back. The slices with fewer pieces than the unit (every capture
//! leads into them) are therefore *resolved* once a build: their captures played
//! out a single time and each such position's value written into its two bits
//! ([`Resolved`]), so that a probe of them is one look-up without a capture test.
//! Only the slices a crowning reaches, of the unit's own size, are probed as the
//! file has them.

use kroon_engine::egdb::file;
use kroon_engine::egdb::index::{Cursor, Material};
use kroon_engine::egdb::{ProbeStart, Tables, Wdl};
use kroon_rules::board::movegen::{generate_captures, has_capture};
use kroon_rules::board::{Move, Position};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A slice's values, two bits a position, four a byte.
enum Packed {
    /// As the file has them: a position with a capture pending has no value.
    AsStored(Vec<u8>),
    /// Every position's value, captures pending played out.
    Resolved(Arc<Vec<u8>>),
}

/// The packed values of the slices a unit reaches, by [`Material::slot`].
pub struct Smaller {
    slices: Vec<Option<Packed>>,
}

/// The slices resolved so far in a build, kept from unit to unit (each is resolved
/// once, then shared): by [`Material::slot`]. A slice built in the same process is
/// taken from its unit's final states, which hold every value already.
pub struct Resolved {
    slices: Vec<Option<Arc<Vec<u8>>>>,
    /// Slices of fewer pieces than this are kept when their unit is built (the
    /// build's larger units capture into them).
    keep_below: u32,
    /// How many slices were resolved so far, and the wall time it took.
    work: (usize, Duration),
}

impl Smaller {
    /// Unpacks the slices of `reached` that `tables` holds for a unit of `pieces`
    /// pieces: those with fewer pieces resolved (through `resolved`, which keeps
    /// them for the next units), the others as stored.
    pub fn unpack(
        tables: &Tables,
        reached: &[Material],
        pieces: u32,
        resolved: &mut Resolved,
    ) -> Smaller {
        let mut slices: Vec<Option<Packed>> = (0..Material::SLOTS).map(|_| None).collect();
        let mut fewer: Vec<Material> = reached
            .iter()
            .copied()
            .filter(|m| m.pieces() < pieces)
            .collect();
        // A slice's captures lead into slices of fewer pieces still: those first.
        fewer.sort_by_key(|m| m.pieces());
        for m in fewer {
            slices[m.slot()] = match resolved.get_or_resolve(tables, m) {
                Some(values) => Some(Packed::Resolved(values)),
                // A slice below it is missing: probed as stored, where the
                // probe that needs the missing slice finds it missing.
                None => tables
                    .slice(m)
                    .map(|slice| Packed::AsStored(slice.unpack())),
            };
        }
        for &m in reached.iter().filter(|m| m.pieces() >= pieces) {
            if let Some(slice) = tables.slice(m) {
                slices[m.slot()] = Some(Packed::AsStored(slice.unpack()));
            }
        }
        Smaller { slices }
    }

    /// The value of a position for the side to move, as [`Tables::probe`] gives it
    /// (a capture pending played out), or None when a slice is missing. `moves`
    /// holds a list of moves for each depth of captures.
    pub fn probe(&self, pos: &Position, moves: &mut Vec<Vec<Move>>, depth: usize) -> Option<Wdl> {
        let turned = match ProbeStart::turned(pos) {
            Ok(turned) => turned,
            Err(over) => return Some(over),
        };
        let m = Material::of(&turned);
        match self.slices.get(m.slot())?.as_ref()? {
            Packed::Resolved(values) => Some(value_at(values, m.index(&turned))),
            Packed::AsStored(_) if has_capture(pos) => self.probe_captures(pos, moves, depth),
            Packed::AsStored(values) => Some(value_at(values, m.index(&turned))),
        }
    }

    /// The best value over the captures of a position that must capture.
    fn probe_captures(
        &self,
        pos: &Position,
        moves: &mut Vec<Vec<Move>>,
        depth: usize,
    ) -> Option<Wdl> {
        if moves.len() <= depth {
            moves.resize_with(depth + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut moves[depth]);
        let best = best_capture(pos, &mut list, |child| self.probe(child, moves, depth + 1));
        moves[depth] = list;
        best
    }
}

impl Default for Resolved {
    /// None resolved, none kept.
    fn default() -> Resolved {
        Resolved::for_build(0)
    }
}

impl Resolved {
    /// For a build of up to `pieces` pieces.
    pub fn for_build(pieces: u32) -> Resolved {
        Resolved {
            slices: (0..Material::SLOTS).map(|_| None).collect(),
            keep_below: pieces,
            work: (0, Duration::ZERO),
        }
    }

    /// Whether slice `m`, just built, should be kept (see [`Resolved::keep`]).
    pub fn wants(&self, m: Material) -> bool {
        m.pieces() < self.keep_below
    }

    /// Keeps the values of slice `m` (every position's, four a byte as in a
    /// file's blocks), built in this process.
    pub fn keep(&mut self, m: Material, values: Vec<u8>) {
        self.slices[m.slot()] = Some(Arc::new(values));
    }

    /// How many slices were resolved so far, and the wall time it took.
    pub fn work(&self) -> (usize, Duration) {
        self.work
    }

    /// Slice `m` resolved: made now from `tables` if it is not yet (with the slices
    /// of fewer pieces first, which its captures lead into), or None if `tables`
    /// lacks it or a slice its captures lead into.
    fn get_or_resolve(&mut self, tables: &Tables, m: Material) -> Option<Arc<Vec<u8>>> {
        if let Some(values) = &self.slices[m.slot()] {
            return Some(Arc::clone(values));
        }
        for below in (2..m.pieces()).flat_map(Material::all_with) {
            if tables.has(below) {
                self.get_or_resolve(tables, below);
            }
        }
        let started = Instant::now();
        let mut values = tables.slice(m)?.unpack();
        if !self.resolve(m, &mut values) {
            return None;
        }
        self.work.0 += 1;
        self.work.1 += started.elapsed();
        let values = Arc::new(values);
        self.slices[m.slot()] = Some(Arc::clone(&values));
        Some(values)
    }

    /// Writes into `values` (slice `m` as stored) the value of each position with a
    /// capture pending, from the resolved slices its captures lead into; false if
    /// one of those is missing.
    fn resolve(&self, m: Material, values: &mut [u8]) -> bool {
        /// Bytes of values one task resolves (four positions a byte).
        const TASK_BYTES: usize = 1 << 14;
        let missing = AtomicBool::new(false);
        values.par_chunks_mut(TASK_BYTES).enumerate().for_each_init(
            || (Cursor::new(m), Vec::new()),
            |(cursor, list), (task, bytes)| {
                let first = (task * TASK_BYTES * 4) as u64;
                for at in 0..(bytes.len() * 4).min((m.size() - first) as usize) {
                    let Some(pos) = cursor.position(first + at as u64) else {
                        continue;
                    };
                    if !has_capture(&pos) {
                        continue;
                    }
                    let Some(value) = best_capture(&pos, list, |child| self.value(child)) else {
                        missing.store(true, Relaxed);
                        continue;
                    };
                    let shift = 2 * (at % 4);
                    bytes[at / 4] = bytes[at / 4] & !(3 << shift) | file::encode(value) << shift;
                }
            },
        );
        !missing.into_inner()
    }

    /// The value of a position with fewer pieces than the slices being resolved,
    /// for the side to move.
    fn value(&self, pos: &Position) -> Option<Wdl> {
        let turned = match ProbeStart::turned(pos) {
            Ok(turned) => turned,
            Err(over) => return Some(over),
        };
        let m = Material::of(&turned);
        let values = self.slices.get(m.slot())?.as_ref()?;
        Some(value_at(values, m.index(&turned)))
    }
}

/// The best value over the captures of `pos` (which must capture), given each
/// successor's value for its side to move; stops at the first win. `list` is room
/// for the moves.
fn best_capture(
    pos: &Position,
    list: &mut Vec<Move>,
    mut value: impl FnMut(&Position) -> Option<Wdl>,
) -> Option<Wdl> {
    list.clear();
    generate_captures(pos, list);
    let mut best = Some(Wdl::Loss);
    for &mv in list.iter() {
        match value(&pos.play_unkeyed(mv)).map(Wdl::negated) {
            Some(Wdl::Win) => return Some(Wdl::Win),
            Some(v) => best = best.map(|b| b.max(v)),
            None => best = None,
        }
    }
    best
}

/// The value at `index` of a slice's packed values.
#[inline]
fn value_at(values: &[u8], index: u64) -> Wdl {
    let index = index as usize;
    file::decode(values[index / 4] >> (2 * (index % 4)) & 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::built;
    use crate::builder::{solve, units};

    #[test]
    fn a_resolved_slice_holds_what_the_reader_plays_out_for_a_capture_pending_and_so_does_a_kept_one(
    ) {
        let dir = built("resolved");
        let tables = Tables::open(&dir, 3).unwrap();
        let three = Material::all_with(3);
        let smaller = Smaller::unpack(&tables, &three, 4, &mut Resolved::default());
        let mut moves = Vec::new();
        let (mut captures, mut quiet) = (0, 0);
        for m in three {
            let mut cursor = Cursor::new(m);
            for index in 0..m.size() {
                let Some(pos) = cursor.position(index) else {
                    continue;
                };
                let expected = tables.probe(&pos).expect("every 3-piece slice is built");
                // From either side: the same position seen with Black to move.
                let flipped = pos.flipped_unkeyed();
                assert_eq!(smaller.probe(&pos, &mut moves, 0), Some(expected));
                assert_eq!(smaller.probe(&flipped, &mut moves, 0), Some(expected));
                if has_capture(&pos) {
                    captures += 1;
                } else {
                    quiet += 1;
                }
            }
        }
        // Both kinds were there to compare.
        assert!(captures > 1000 && quiet > 1000, "{captures} {quiet}");

        // The same slices kept from their units' final states when built in the
        // process hold the same value at every valid index.
        let mut kept = Resolved::for_build(4);
        for unit in units(3).iter().filter(|u| u[0].pieces() == 3) {
            solve(unit, &tables, &dir, &mut kept).unwrap();
        }
        for m in Material::all_with(3) {
            let from_states = kept.slices[m.slot()].clone().expect("kept");
            let from_file = Resolved::default().get_or_resolve(&tables, m).unwrap();
            let mut cursor = Cursor::new(m);
            for index in 0..m.size() {
                if cursor.position(index).is_some() {
                    assert_eq!(
                        value_at(&from_states, index),
                        value_at(&from_file, index),
                        "{m} {index}"
                    );
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
