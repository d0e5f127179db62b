//! The states of a position while its unit is built, one byte each.

use kroon_engine::egdb::Wdl;

/// Below [`DECIDED`]: not decided yet, its count of undecided successors in the
/// low 7 bits and [`DRAW_MARK`] when a decided successor is a draw.
pub const DECIDED: u8 = 0xF0;
pub const DRAW_MARK: u8 = 0x80;
pub const MAX_COUNT: u8 = 0x6F;
pub const WIN_DONE: u8 = 0xF0;
pub const LOSS_DONE: u8 = 0xF1;
/// Decided in a round of this parity, to be passed back in the next.
pub const WIN_NEW: [u8; 2] = [0xF2, 0xF4];
pub const LOSS_NEW: [u8; 2] = [0xF3, 0xF5];
pub const DRAW: u8 = 0xF6;
/// An index that names no position.
pub const INVALID: u8 = 0xF7;

/// The final value a state stands for (None for an invalid index).
#[must_use]
pub fn final_value(state: u8) -> Option<Wdl> {
    match state {
        WIN_DONE | 0xF2 | 0xF4 => Some(Wdl::Win),
        LOSS_DONE | 0xF3 | 0xF5 => Some(Wdl::Loss),
        INVALID => None,
        _ => Some(Wdl::Draw),
    }
}
