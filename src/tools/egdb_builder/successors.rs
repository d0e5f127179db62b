//! A position's successors within its unit, looked up by index: the check reads
//! them to recompute every value, and a round reads them to find the positions a
//! lost successor makes won when that is cheaper than passing the losses back
//! (see [`rounds`](super::rounds)).

use super::quiet::{self, Staying};
use super::states::final_value;
use crate::board::bitboard::BitIter;
use crate::board::Position;
use crate::egdb::index::{Cursor, KingMoves};
use crate::egdb::Wdl;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Whether one of a position's moves within the unit leads to a position lost
/// for the opponent, stopping at the first: a won value needs only that one,
/// while a drawn or lost one needs every successor (see [`best_inside`]).
/// Each step's successors (a king's whole ray) are indexed before their states
/// are loaded, so that the processor fetches those together.
pub fn wins_inside(
    pos: &Position,
    (after, states): (&Cursor, &[AtomicU8]),
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
        found = inside
            .iter()
            .any(|&at| final_value(states[at].load(Relaxed)) == Some(Wdl::Loss));
    });
    found
}

/// The best a position's moves within the unit give it, from their final
/// values: they are in `after`'s slice, with those states (a position with no
/// such move gets [`Wdl::Loss`], the value of having none).
pub fn best_inside(
    pos: &Position,
    (after, states): (&Cursor, &[AtomicU8]),
    inside: &mut Vec<usize>,
) -> Wdl {
    inside.clear();
    let king_moves = (pos.king_bits() != 0).then(|| after.king_moves(&pos.flipped_unkeyed()));
    quiet::for_each_staying(pos, |step| {
        successors_of(pos, step, (after, king_moves.as_ref()), inside);
    });
    // Their states are loaded one after another without waiting, so the
    // processor fetches them from memory together.
    inside
        .iter()
        .map(|&at| {
            final_value(states[at].load(Relaxed))
                .unwrap_or(Wdl::Draw)
                .negated()
        })
        .max()
        .unwrap_or(Wdl::Loss)
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
