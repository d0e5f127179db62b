//! Pass 2 of a unit's build, one round at a time: the positions decided in the last
//! round pass their values to their predecessors in the unit (un-making quiet
//! moves). A lost position makes each predecessor won; a won one lowers each
//! predecessor's count, and the predecessor whose count reaches zero is lost (drawn
//! if marked).
//!
//! The predecessors of positions near each other in a slice are scattered all over
//! its twin, so updating them as they are found waits on memory at nearly every
//! update, with a locked instruction each since two threads may meet on a cell.
//! Instead a round first writes the updates down, sorted into buckets of targets a
//! few megabytes wide, and then applies them bucket by bucket: each bucket's cells
//! stay in the cache while its updates land, and one thread owns a bucket, so the
//! updates need no lock. A round's outcome does not depend on the order of its
//! updates (a predecessor with a lost successor is won whatever its count says;
//! its count cannot reach zero in the same round, since that successor was still
//! counted), so the tables are the same as when they were applied at once.
//!
//! Most rounds decide few positions, scattered, yet each round read every state of
//! the unit to find them: in a profile of the rounds that scan took more time than
//! passing the values back. So a round also marks, a bit a parity for each block of
//! [`FRESH_BLOCK`] positions, where it decided something (`fresh`), and the next
//! round of that parity reads only the blocks marked.
//!
//! Where one side is much stronger, most of the updates a loss passes back find
//! their predecessor won already (by a capture in pass 1, or by another lost
//! successor): in a 5-piece unit of four kings against one, 96% of them. So each
//! round weighs, slice by slice, what passing the losses back would cost (their
//! updates: the losses times the predecessors a position has, sampled per slice
//! in [`Tally`]) against looking forward from each position still undecided in
//! their twin, which stops at the first lost successor ([`pull_wins`]). The wins
//! found are the same either way.

use super::states::{
    final_value, DECIDED, DRAW, DRAW_MARK, LOSS_DONE, LOSS_NEW, WIN_DONE, WIN_NEW,
};
use super::successors::wins_inside;
use kroon_engine::egdb::index::{Cursor, Material};
use kroon_engine::egdb::Wdl;
use kroon_rules::board::bitboard::{BitIter, ALL};
use kroon_rules::board::movegen::look;
use kroon_rules::board::{Position, Side};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Positions a byte of `fresh` marks: bit `parity` is set when one of them may
/// have been decided in a round of that parity (or by pass 1, parity 0) and not yet
/// passed back.
pub const FRESH_BLOCK: usize = 64;

/// The marks of `positions` positions, all set: every block read once in the first
/// round of each parity (after pass 1, or a checkpoint whose marks are not kept).
#[must_use]
pub fn all_fresh(positions: usize) -> Vec<AtomicU8> {
    (0..positions.div_ceil(FRESH_BLOCK))
        .map(|_| AtomicU8::new(0b11))
        .collect()
}

/// What looking forward from one undecided position costs, in updates passed
/// back: measured on this project's 2-core machine, about 0.14 us against 9 ns an
/// update in the first round of 1014+1410 (35 predecessors a loss, 87% of the
/// undecided won), 0.23 us against 13 ns in a round of 0113+1301 (28, 49%). The
/// README's endgame tables section has the units timed with it.
pub const LOOK_COST: u64 = 16;
/// Passing a loss back costs about as much as reading this many states in order
/// (some 20 updates of about 29 ns each, against under a nanosecond a state):
/// a round passes fewer losses back rather than read a whole slice for them.
const SCAN_PER_LOSS: u64 = 1024;

/// What a round weighs to choose how a slice's losses reach their predecessors:
/// per slice, the positions not yet decided, the losses decided and not yet
/// passed back, by parity, and how many predecessors a position has.
pub struct Tally {
    undecided: AtomicU64,
    losses: [AtomicU64; 2],
    /// The mean number of predecessors of the slice's positions, times
    /// [`PREDECESSORS_SCALE`], from an even sample of them.
    predecessors: u64,
    /// Positions made won by looking forward, for the progress line.
    pub pulled: AtomicU64,
}

impl Tally {
    /// Counted from a slice's states (after pass 1, or a checkpoint).
    #[must_use]
    pub fn count(m: Material, states: &[AtomicU8]) -> Tally {
        let (undecided, even, odd) = states
            .par_chunks(TASK)
            .map(|cells| {
                cells.iter().fold((0, 0, 0), |(u, e, o), c| {
                    let c = c.load(Relaxed);
                    let is = |x: u8| u64::from(c == x);
                    (
                        u + u64::from(c < DECIDED),
                        e + is(LOSS_NEW[0]),
                        o + is(LOSS_NEW[1]),
                    )
                })
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
        Tally {
            undecided: AtomicU64::new(undecided),
            losses: [AtomicU64::new(even), AtomicU64::new(odd)],
            predecessors: mean_predecessors(m),
            pulled: AtomicU64::new(0),
        }
    }

    /// The updates passing `losses` back would write.
    fn updates(&self, losses: u64) -> u64 {
        losses.saturating_mul(self.predecessors) / PREDECESSORS_SCALE
    }
}

/// Positions [`mean_predecessors`] samples, and the fixed point of its mean.
const PREDECESSOR_SAMPLE: u64 = 4096;
const PREDECESSORS_SCALE: u64 = 16;

/// The mean number of predecessors (updates a decided position passes back) of a
/// slice's positions, times [`PREDECESSORS_SCALE`]: from four kings' 35 to a
/// lone man's 2, which is what makes passing a loss back dear or cheap.
fn mean_predecessors(m: Material) -> u64 {
    let mut cursor = Cursor::new(m);
    let step = (m.size() / PREDECESSOR_SAMPLE).max(1);
    let (mut positions, mut predecessors) = (0, 0);
    for index in (0..m.size()).step_by(step as usize) {
        let Some(pos) = cursor.position(index) else {
            continue;
        };
        let after = pos.flipped_unkeyed();
        positions += 1;
        for_each_man_predecessor(&after, |_| predecessors += 1);
        for_each_king_predecessor(&after, |_, froms| {
            predecessors += u64::from(froms.count_ones());
        });
    }
    predecessors * PREDECESSORS_SCALE / positions.max(1)
}

/// Targets per bucket, as a power of two: 4 MiB of states, which the processor's
/// last-level cache holds beside the buffers being read.
const BUCKET_BITS: u32 = 22;
/// Source positions one task scans.
const TASK: usize = 1 << 18;
/// Updates written down before they are applied (4 bytes each), and tasks whose
/// buckets are kept: bounds on the memory a round takes beside the states.
const MAX_UPDATES: usize = 1 << 26;
const MAX_TASKS: usize = 512;

/// One update, for the cell at `offset` within its bucket: the successor was won
/// (for the side to move there) or lost.
#[inline]
fn update(offset: u64, successor_won: bool) -> u32 {
    (offset as u32) << 1 | u32::from(successor_won)
}

/// A task's updates, by bucket, and how many positions it passed back.
struct Gathered {
    buckets: Vec<Vec<u32>>,
    passed: u64,
}

/// One round over a unit: passes the values decided in the last round (of this
/// parity) back to their predecessors, or looks forward for the wins its losses
/// make when that costs less, a look counted as `look_cost` updates (0: always;
/// `u64::MAX`: only when nothing is undecided). Returns how many it passed.
pub fn round(
    materials: &[Material],
    (states, fresh): (&[Vec<AtomicU8>], &[Vec<AtomicU8>]),
    tallies: &[Tally],
    (parity, look_cost): (usize, u64),
) -> u64 {
    let mut passed = 0;
    for (slot, &m) in materials.iter().enumerate() {
        // A quiet move keeps the material, which the flip swaps.
        let before = materials
            .iter()
            .position(|&x| x == m.swapped())
            .expect("a unit holds each slice's twin");
        let losses = tallies[slot].losses[parity].swap(0, Relaxed);
        let undecided = tallies[before].undecided.load(Relaxed);
        // Looking forward reads every state of the twin to find the undecided:
        // worth it only for enough losses (and for none when nothing is undecided).
        let scan = states[before].len() as u64 / SCAN_PER_LOSS;
        let looks = undecided.saturating_mul(look_cost);
        let pull = losses > scan && looks <= tallies[slot].updates(losses);
        let sources = (&states[slot][..], &fresh[slot][..]);
        let targets = (&states[before][..], &fresh[before][..]);
        passed += round_over(m, sources, (targets, &tallies[before]), (parity, pull));
        if pull && undecided > 0 {
            let won = pull_wins(m.swapped(), targets, sources.0, 1 - parity);
            tallies[before].undecided.fetch_sub(won, Relaxed);
            tallies[before].pulled.fetch_add(won, Relaxed);
        }
    }
    passed
}

/// The undecided positions of a slice (`m`, with `targets`' states and marks)
/// that a move within the unit takes to a lost position (in `sources`), made won
/// in a round of parity `next`: what the losses in `sources` would have passed
/// back, looked for from the other end. Returns how many it made won.
fn pull_wins(
    m: Material,
    (targets, fresh): (&[AtomicU8], &[AtomicU8]),
    sources: &[AtomicU8],
    next: usize,
) -> u64 {
    let bit = 1 << next;
    targets
        .par_chunks(TASK)
        .zip(fresh.par_chunks(TASK / FRESH_BLOCK))
        .enumerate()
        .map(|(task, (cells, marks))| {
            let mut cursor = Cursor::new(m);
            let after = Cursor::new(m.swapped());
            let (mut inside, mut won) = (Vec::new(), 0);
            for (at, cell) in cells.iter().enumerate() {
                if cell.load(Relaxed) >= DECIDED {
                    continue;
                }
                let pos = cursor
                    .position((task * TASK + at) as u64)
                    .expect("undecided positions are valid");
                let lost = |at: usize| final_value(sources[at].load(Relaxed)) == Some(Wdl::Loss);
                if wins_inside(&pos, (&after, lost), &mut inside) {
                    cell.store(WIN_NEW[next], Relaxed);
                    // Only this task reads or writes these marks now.
                    let mark = &marks[at / FRESH_BLOCK];
                    mark.store(mark.load(Relaxed) | bit, Relaxed);
                    won += 1;
                }
            }
            won
        })
        .sum()
}

/// [`round`] for the positions of one slice (`m`), whose predecessors are in
/// `targets`: each their states and marks, and the targets' tally. With `pull`
/// the losses are only marked passed: their predecessors are found by
/// [`pull_wins`].
fn round_over(
    m: Material,
    sources: (&[AtomicU8], &[AtomicU8]),
    (targets, tally): ((&[AtomicU8], &[AtomicU8]), &Tally),
    (parity, pull): (usize, bool),
) -> u64 {
    let buckets = targets.0.len().div_ceil(1 << BUCKET_BITS);
    let tasks = sources.0.len().div_ceil(TASK);
    let next = AtomicUsize::new(0);
    let passed = AtomicU64::new(0);
    while next.load(Relaxed) < tasks {
        // Each thread takes the next task as soon as it is free, until the updates
        // written down reach the bound: threads wait for each other only before
        // the updates are applied, not after every few tasks (groups of eight
        // left a core idle for a tenth of the rounds' time on two cores).
        let written = AtomicUsize::new(0);
        let pending = Mutex::new(Vec::new());
        rayon::broadcast(|_| loop {
            if written.load(Relaxed) >= MAX_UPDATES
                || pending.lock().expect("no task panics").len() >= MAX_TASKS
            {
                break;
            }
            let task = next.fetch_add(1, Relaxed);
            if task >= tasks {
                break;
            }
            let range = task * TASK..((task + 1) * TASK).min(sources.0.len());
            let gathered = gather(m, sources, range, (parity, pull), buckets);
            passed.fetch_add(gathered.passed, Relaxed);
            let updates = gathered.buckets.iter().map(Vec::len).sum::<usize>();
            written.fetch_add(updates, Relaxed);
            pending
                .lock()
                .expect("no task panics")
                .push(gathered.buckets);
        });
        let pending = pending.into_inner().expect("no task panics");
        apply(&pending, targets, tally, 1 - parity);
    }
    passed.into_inner()
}

/// Marks the positions of `range` decided in the last round as done, and writes
/// down the update each gives each predecessor (a loss's none with `pull`).
/// `range` starts on a block of [`FRESH_BLOCK`].
fn gather(
    m: Material,
    (sources, fresh): (&[AtomicU8], &[AtomicU8]),
    range: Range<usize>,
    (parity, pull): (usize, bool),
    buckets: usize,
) -> Gathered {
    let mut out = Gathered {
        buckets: vec![Vec::new(); buckets],
        passed: 0,
    };
    let mut cursor = Cursor::new(m);
    let before_index = Cursor::new(m.swapped());
    let mask = (1u64 << BUCKET_BITS) - 1;
    let bit = 1 << parity;
    let blocks = range.start / FRESH_BLOCK..range.end.div_ceil(FRESH_BLOCK);
    let marked = blocks.filter(|&block| {
        // Only this task reads or writes these marks during the gathering.
        let marks = fresh[block].load(Relaxed);
        fresh[block].store(marks & !bit, Relaxed);
        marks & bit != 0
    });
    let indices =
        marked.flat_map(|block| block * FRESH_BLOCK..((block + 1) * FRESH_BLOCK).min(range.end));
    for index in indices {
        let state = sources[index].load(Relaxed);
        let won = state == WIN_NEW[parity];
        if !won && state != LOSS_NEW[parity] {
            continue;
        }
        sources[index].store(if won { WIN_DONE } else { LOSS_DONE }, Relaxed);
        out.passed += 1;
        if pull && !won {
            continue;
        }
        let pos = cursor
            .position(index as u64)
            .expect("decided positions are valid");
        let after = pos.flipped_unkeyed();
        let mut push =
            |at: u64| out.buckets[(at >> BUCKET_BITS) as usize].push(update(at & mask, won));
        for_each_man_predecessor(&after, |before| push(before_index.index(&before)));
        if after.pieces(Side::White).0 & after.king_bits() != 0 {
            // One slide indexes a king's every predecessor.
            let king_moves = before_index.king_moves(&after);
            for_each_king_predecessor(&after, |at, froms| {
                let slide = king_moves.white_king_from(at);
                BitIter(froms).for_each(|from| push(slide.to(1 << from)));
            });
        }
    }
    out
}

/// Applies the updates written down, each bucket by one thread (with the marks of
/// its blocks: a bucket holds whole blocks), and counts what they decided in the
/// targets' tally.
fn apply(
    pending: &[Vec<Vec<u32>>],
    (targets, fresh): (&[AtomicU8], &[AtomicU8]),
    tally: &Tally,
    next: usize,
) {
    if pending.is_empty() {
        return;
    }
    let bit = 1 << next;
    let (decided, losses) = targets
        .par_chunks(1 << BUCKET_BITS)
        .zip(fresh.par_chunks((1 << BUCKET_BITS) / FRESH_BLOCK))
        .enumerate()
        .map(|(bucket, (cells, marks))| {
            let (mut decided, mut losses) = (0, 0);
            for task in pending {
                for &u in &task[bucket] {
                    let cell = &cells[(u >> 1) as usize];
                    let c = cell.load(Relaxed);
                    // Decided already (among them the predecessors that had a
                    // capture pending, decided in pass 1 by their captures).
                    if c >= DECIDED {
                        continue;
                    }
                    let new = if u & 1 == 0 {
                        WIN_NEW[next]
                    } else if c & !DRAW_MARK == 0 {
                        continue;
                    } else if c & !DRAW_MARK == 1 {
                        if c & DRAW_MARK != 0 {
                            DRAW
                        } else {
                            LOSS_NEW[next]
                        }
                    } else {
                        c - 1
                    };
                    cell.store(new, Relaxed);
                    if new >= DECIDED {
                        decided += 1;
                    }
                    if new == WIN_NEW[next] || new == LOSS_NEW[next] {
                        losses += u64::from(new == LOSS_NEW[next]);
                        let mark = &marks[(u >> 1) as usize / FRESH_BLOCK];
                        mark.store(mark.load(Relaxed) | bit, Relaxed);
                    }
                }
            }
            (decided, losses)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    tally.undecided.fetch_sub(decided, Relaxed);
    tally.losses[next].fetch_add(losses, Relaxed);
}

/// Calls `f` with each position (White to move) from which a quiet White move that
/// neither captures nor promotes leads to `after` (Black to move), and for a king's
/// move the squares it went to and came from (bits of the padded layout). The round
/// takes the same from [`for_each_man_predecessor`] and
/// [`for_each_king_predecessor`], without making the king moves' positions.
#[cfg(test)]
fn for_each_predecessor(after: &Position, mut f: impl FnMut(Position, Option<(u64, u64)>)) {
    for_each_man_predecessor(after, |before| f(before, None));
    let (white, black, kings) = (
        after.pieces(Side::White).0,
        after.pieces(Side::Black).0,
        after.king_bits(),
    );
    for_each_king_predecessor(after, |to, froms| {
        for from in BitIter(froms).map(|b| 1u64 << b) {
            let moved = |bits: u64| (bits & !to) | from;
            let before =
                Position::from_bits_unkeyed(moved(white), black, moved(kings), Side::White);
            f(before, Some((to, from)));
        }
    });
}

/// Calls `f` with each position (White to move) from which a white man's step that
/// does not crown leads to `after` (Black to move). Some had a capture pending,
/// which made the move illegal: those were decided in pass 1 by their captures, so
/// the round skips them by their state rather than testing each for a capture here.
#[inline]
fn for_each_man_predecessor(after: &Position, mut f: impl FnMut(Position)) {
    debug_assert_eq!(after.side_to_move(), Side::Black);
    let white = after.pieces(Side::White).0;
    let black = after.pieces(Side::Black).0;
    let kings = after.king_bits();
    let empty = after.empty().0;
    // A white man steps towards lower numbers: it came from a higher one.
    for to in BitIter(white & !kings) {
        let at = 1u64 << to;
        for from in [at << 5, at << 6] {
            if from & ALL & empty != 0 {
                f(Position::from_bits_unkeyed(
                    (white & !at) | from,
                    black,
                    kings,
                    Side::White,
                ));
            }
        }
    }
}

/// Calls `f` with each white king of `after` and the squares it can have come from
/// by a quiet move (bits of the padded layout, for [`KingSlide`]s), with the same
/// caveat as [`for_each_man_predecessor`].
///
/// [`KingSlide`]: kroon_engine::egdb::index::KingSlide
#[inline]
fn for_each_king_predecessor(after: &Position, mut f: impl FnMut(u64, u64)) {
    let empty = after.empty().0;
    for to in BitIter(after.pieces(Side::White).0 & after.king_bits()) {
        let at = 1u64 << to;
        f(
            at,
            (0..4).fold(0, |froms, dir| froms | look(at, dir, empty).0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::movegen::{has_capture, legal_moves};

    #[allow(non_snake_case)]
    fn ALL_SQUARES() -> impl Iterator<Item = u64> {
        BitIter(ALL).map(|b| 1u64 << b)
    }

    #[test]
    fn a_round_weighs_four_kings_predecessors_far_above_a_lone_mans() {
        // Seen from the side that moved last: a black man has come from at most
        // two squares, each of four black kings from a whole ray.
        let man = mean_predecessors("0110".parse().unwrap());
        let kings = mean_predecessors("0104".parse().unwrap());
        assert!(man > 0 && man <= 2 * PREDECESSORS_SCALE, "{man}");
        assert!(kings > 8 * man, "{kings} against {man}");
        let tally = Tally {
            undecided: AtomicU64::new(0),
            losses: [AtomicU64::new(0), AtomicU64::new(0)],
            predecessors: kings,
            pulled: AtomicU64::new(0),
        };
        assert_eq!(tally.updates(1000), 1000 * kings / PREDECESSORS_SCALE);
    }

    #[test]
    fn predecessors_are_the_positions_whose_moves_lead_here() {
        for fen in ["B:W28,K46:B5,K23", "B:W33,38,K1:BK44", "B:WK27,K32:B11"] {
            let after = Position::from_fen(fen).unwrap();
            let mut found = Vec::new();
            for_each_predecessor(&after, |p, king| {
                assert_eq!(
                    king.is_some(),
                    p.king_bits() & p.pieces(Side::White).0
                        != after.king_bits() & after.pieces(Side::White).0
                );
                if !has_capture(&p) {
                    found.push(p);
                }
            });
            assert!(!found.is_empty());
            for before in &found {
                assert!(legal_moves(before)
                    .into_iter()
                    .any(|mv| before.play_unkeyed(mv).to_fen() == after.to_fen()));
            }
            // And each quiet non-promoting move into `after` is found: try every
            // position that differs by one white piece.
            let mut expected = 0;
            for from in ALL_SQUARES() {
                for to in ALL_SQUARES() {
                    let (w, b, k) = (
                        after.pieces(Side::White).0,
                        after.pieces(Side::Black).0,
                        after.king_bits(),
                    );
                    if w & to == 0 || (w | b) & from != 0 {
                        continue;
                    }
                    let nk = if k & to != 0 { (k & !to) | from } else { k };
                    let nw = (w & !to) | from;
                    let Ok(before) = Position::new(
                        kroon_rules::board::Bitboard(nw),
                        kroon_rules::board::Bitboard(b),
                        kroon_rules::board::Bitboard(nk),
                        Side::White,
                    ) else {
                        continue;
                    };
                    if legal_moves(&before).into_iter().any(|mv| {
                        let c = before.play(mv);
                        !mv.is_capture()
                            && c.king_bits().count_ones() == before.king_bits().count_ones()
                            && c.to_fen() == after.to_fen()
                    }) {
                        expected += 1;
                    }
                }
            }
            assert_eq!(found.len(), expected, "{fen}");
        }
    }
}
