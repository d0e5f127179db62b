//! A position's successors within its unit, looked up by index: the check reads
//! them to recompute every value, and a round reads them to find the positions a
//! lost successor makes won when that is cheaper than passing the losses back
//! (see [`rounds`](super::rounds)).

use super::quiet::{self, Staying};
use super::states::final_value;
use kroon_engine::egdb::index::{Cursor, KingMoves};
use kroon_engine::egdb::Wdl;
use kroon_rules::board::bitboard::BitIter;
use kroon_rules::board::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Whether one of a position's moves within the unit leads to a position lost
/// for the opponent, stopping at the first: a won value needs only that one,
/// while a drawn or lost one needs every successor (see [`best_inside`]).
/// Each step's successors (a king's whole ray) are indexed before their states
/// are loaded, so that the processor fetches those together.
pub fn wins_inside(
    pos: &Position,
    (after, lost): (&Cursor, impl Fn(usize) -> bool),
    inside: &mut Vec<usize>,
) -> bool {
    let king_moves = (pos.king_bits() != 0).then(|| after.king_moves(&pos.flipped_unkeyed()));
    let mut found = false;
    quiet::for_each_staying(pos, |step| {
        if found {
            return;
        }
        inside.clear();
        successors_of(pos, step, (after, king_moves.as_ref()), inside);
        found = inside.iter().any(|&at| lost(at));
    });
    found
}

/// The better of `floor` (a draw or a loss: the best of the moves out of the
/// unit) and the best a position's moves within the unit give it, from their
/// final values: they are in `after`'s slice, with those states and [`Lost`]
/// bits (a position with no such move gets [`Wdl::Loss`], the value of having
/// none). With `floor` a draw only the bits need be read.
pub fn best_inside(
    pos: &Position,
    (after, states, lost): (&Cursor, &[AtomicU8], &Lost),
    floor: Wdl,
    inside: &mut Vec<usize>,
) -> Wdl {
    inside.clear();
    let king_moves = (pos.king_bits() != 0).then(|| after.king_moves(&pos.flipped_unkeyed()));
    quiet::for_each_staying(pos, |step| {
        successors_of(pos, step, (after, king_moves.as_ref()), inside);
    });
    // The bits of every successor are read one after another without waiting,
    // so the processor fetches them together.
    if inside.iter().any(|&at| lost.has(at)) {
        Wdl::Win
    } else if floor == Wdl::Draw
        || inside
            .iter()
            .any(|&at| final_value(states[at].load(Relaxed)) != Some(Wdl::Win))
    {
        // (An index that names no position counts as a draw, as it never does.)
        Wdl::Draw
    } else {
        Wdl::Loss
    }
}

/// A bit a position of one slice, set where its final value is a loss: most of
/// the check's reads of a successor only ask that (a draw must have none, a win
/// one), and at an eighth of the states' size the bits stay in the processor's
/// caches where a 5-piece unit's states do not.
pub struct Lost(Vec<u64>);

impl Lost {
    /// The bits of a slice's final states.
    #[must_use]
    pub fn of(states: &[AtomicU8]) -> Lost {
        Lost(
            states
                .par_chunks(64)
                .map(|cells| {
                    cells.iter().enumerate().fold(0, |bits, (k, cell)| {
                        let lost = final_value(cell.load(Relaxed)) == Some(Wdl::Loss);
                        bits | u64::from(lost) << k
                    })
                })
                .collect(),
        )
    }

    #[inline]
    #[must_use]
    pub fn has(&self, at: usize) -> bool {
        self.0[at / 64] >> (at % 64) & 1 != 0
    }
}

/// Appends the indices, in `after`'s slice, of the successors one step of `pos`
/// within the unit reaches: a man's step, or a king's whole ray. A king's move,
/// seen from the side to move after it, moved a black king: `king_moves` indexes
/// those without re-ranking the men (present when `pos` has kings).
#[inline]
fn successors_of(
    pos: &Position,
    step: Staying,
    (after, king_moves): (&Cursor, Option<&KingMoves>),
    inside: &mut Vec<usize>,
) {
    // The flip turns bit n into bit 53 - n.
    let flip = |bits: u64| bits.reverse_bits() >> 10;
    match (step, king_moves) {
        (Staying::King(from, to), Some(k)) => {
            let slide = k.black_king_from(flip(1 << from));
            inside.extend(BitIter(flip(to)).map(|to| slide.to(1 << to) as usize));
        }
        (Staying::Man(mv), _) => {
            inside.push(after.index(&pos.play_unkeyed(mv).flipped_unkeyed()) as usize);
        }
        (Staying::King(..), None) => unreachable!("a king moved"),
    }
}
