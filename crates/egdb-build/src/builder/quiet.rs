//! The quiet moves of a position with White to move and no capture pending, read
//! off its bits: the builder only needs to count the moves that stay in the unit,
//! and to visit the others or their successors' indices, and listing, playing and
//! classifying each move took most of pass 1 and the check.

use kroon_rules::board::bitboard::{BitIter, WHITE_PROMOTION};
use kroon_rules::board::movegen::look;
use kroon_rules::board::{Move, Position, Side};

/// White's men, kings and the empty squares.
#[inline]
fn parts(pos: &Position) -> (u64, u64, u64) {
    debug_assert_eq!(pos.side_to_move(), Side::White);
    let white = pos.side_bits(Side::White);
    let kings = pos.king_bits();
    (white & !kings, white & kings, pos.empty().0)
}

/// A white man steps towards lower numbers, by 5 or 6 bits: the squares it
/// reaches each way, and the shift back to where it came from.
#[inline]
fn steps(men: u64, empty: u64) -> [(u64, u32); 2] {
    [((men >> 5) & empty, 5), ((men >> 6) & empty, 6)]
}

/// How many quiet moves keep the material: every king move, and every man step
/// that does not crown.
#[inline]
pub fn count_staying(pos: &Position) -> u32 {
    let (men, kings, empty) = parts(pos);
    let stepping: u32 = steps(men, empty)
        .iter()
        .map(|&(to, _)| (to & !WHITE_PROMOTION).count_ones())
        .sum();
    let sliding: u32 = BitIter(kings)
        .map(|from| {
            (0..4)
                .map(|dir| look(1 << from, dir, empty).0.count_ones())
                .sum::<u32>()
        })
        .sum();
    stepping + sliding
}

/// Calls `f` with each man step that crowns.
#[inline]
pub fn for_each_crowning(pos: &Position, mut f: impl FnMut(Move)) {
    let (men, _, empty) = parts(pos);
    for (to, back) in steps(men, empty) {
        for at in BitIter(to & WHITE_PROMOTION) {
            f(Move::from_bits(at + back, at, 0));
        }
    }
}

/// A quiet move that keeps the material, or a king's all.
pub enum Staying {
    /// A man's step that does not crown.
    Man(Move),
    /// The king on this bit (padded layout) and the squares it can move to.
    King(u32, u64),
}

/// Calls `f` with each quiet move that keeps the material (man steps first).
#[inline]
pub fn for_each_staying(pos: &Position, mut f: impl FnMut(Staying)) {
    let (men, kings, empty) = parts(pos);
    for (to, back) in steps(men, empty) {
        for at in BitIter(to & !WHITE_PROMOTION) {
            f(Staying::Man(Move::from_bits(at + back, at, 0)));
        }
    }
    for from in BitIter(kings) {
        let to = (0..4).fold(0, |to, dir| to | look(1 << from, dir, empty).0);
        f(Staying::King(from, to));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::movegen::{generate, has_capture};

    #[test]
    fn the_bits_give_the_moves_the_generator_gives() {
        let mut moves = Vec::new();
        for fen in [
            "W:W6,7,39,K50:B1,23,K3",
            "W:WK46,K1:BK5,K24,K30",
            "W:W33,9,K3,K4:B19,K44",
            "W:W10,K28:BK5",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert!(!has_capture(&pos), "{fen}");
            generate(&pos, &mut moves);
            let kings = pos.king_bits().count_ones();
            let crowns = |mv: &Move| pos.play(*mv).king_bits().count_ones() > kings;
            let mut expected: Vec<(u32, u32, bool)> = moves
                .iter()
                .map(|mv| (mv.from_bit(), mv.to_bit(), crowns(mv)))
                .collect();
            let mut found = Vec::new();
            for_each_crowning(&pos, |mv| found.push((mv.from_bit(), mv.to_bit(), true)));
            for_each_staying(&pos, |step| match step {
                Staying::Man(mv) => found.push((mv.from_bit(), mv.to_bit(), false)),
                Staying::King(from, to) => {
                    assert!(pos.king_bits() >> from & 1 != 0);
                    found.extend(BitIter(to).map(|to| (from, to, false)));
                }
            });
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{fen}");
            let staying = expected.iter().filter(|m| !m.2).count();
            assert_eq!(count_staying(&pos) as usize, staying, "{fen}");
        }
    }
}
