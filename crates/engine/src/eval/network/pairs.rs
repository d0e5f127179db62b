//! The pair inputs: what stands on the two squares of each diagonal step of the
//! board, as one input.
//!
//! A piece's input says what stands where; the first layer sums them, so two
//! pieces together mean something only where a hidden unit's clipping makes it
//! so. Formations are two pieces together: a man backed by another cannot be
//! taken from the front, two men side by side hold each other, a man facing an
//! enemy man blocks it. A pair input names the contents of two diagonal
//! neighbours at once (each empty, own man, own king, their man or their king,
//! as the view sees them), so the first layer's sums hold the board's local
//! formations directly, as pattern evaluations (Kroon's `learned`, Scan's)
//! read them.
//!
//! The board has 81 such steps. A view numbers them on its own board (square 0-49,
//! its numbering less one, playing up the board as White does): for each square
//! from 0 up, the step forward to the left, then the one to the right, where the
//! board has them. Pair `p` with the lower square holding `a` and the upper one
//! `b` (0 empty, 1 own man, 2 own king, 3 their man, 4 their king) is input
//! `CONTENTS * p + 5 * a + b`; an empty pair has none.

use super::pieces::Pieces;
use kroon_rules::board::Side;

/// Diagonal steps on the board.
pub const PAIRS: usize = 81;
/// What a pair of squares can hold (five each).
pub const CONTENTS: usize = 25;
/// The pair inputs.
pub const PAIR_FEATURES: usize = PAIRS * CONTENTS;
/// A move that changes more squares than this (a capture of seven pieces or more)
/// has its pairs' rows made afresh: the update's lists hold the rows of this many
/// squares' pairs (four each at most) and pieces.
pub const MAX_CHANGED_SQUARES: u32 = 8;

/// The squares of each pair as a view numbers them: the lower, then the upper.
pub const SQUARES_OF: [(u8, u8); PAIRS] = squares_of();

/// The pairs (a bit each) that hold square `s` as a view numbers it.
const TOUCHING: [u128; 50] = touching();

/// The same two squares as Black numbers its pairs: White's pair `p` is Black's
/// `MIRROR[p]`, its lower square Black's upper one.
const MIRROR: [u8; PAIRS] = mirror();

/// What Black sees on a square where White sees content `c`.
const SWAPPED: [usize; 5] = [0, 3, 4, 1, 2];

/// Row and column (both from 0, row 0 the far side) of square `s`.
const fn row_col(s: usize) -> (i32, i32) {
    let row = (s / 5) as i32;
    (row, 2 * (s % 5) as i32 + if row % 2 == 0 { 1 } else { 0 })
}

/// The square at a row and column, if it is a dark square on the board.
const fn square_at(row: i32, col: i32) -> Option<usize> {
    if row < 0 || row > 9 || col < 0 || col > 9 || (row + col) % 2 == 0 {
        None
    } else {
        Some((row * 5 + col / 2) as usize)
    }
}

const fn squares_of() -> [(u8, u8); PAIRS] {
    let mut out = [(0u8, 0u8); PAIRS];
    let (mut s, mut n) = (0, 0);
    while s < 50 {
        let (row, col) = row_col(s);
        let mut side = 0;
        while side < 2 {
            if let Some(t) = square_at(row - 1, col - 1 + 2 * side) {
                out[n] = (s as u8, t as u8);
                n += 1;
            }
            side += 1;
        }
        s += 1;
    }
    assert!(n == PAIRS);
    out
}

const fn mirror() -> [u8; PAIRS] {
    let mut out = [0u8; PAIRS];
    let mut p = 0;
    while p < PAIRS {
        let (s, t) = SQUARES_OF[p];
        let mut q = 0;
        while SQUARES_OF[q].0 != 49 - t || SQUARES_OF[q].1 != 49 - s {
            q += 1;
        }
        out[p] = q as u8;
        p += 1;
    }
    out
}

const fn touching() -> [u128; 50] {
    let mut out = [0u128; 50];
    let mut p = 0;
    while p < PAIRS {
        let (s, t) = SQUARES_OF[p];
        out[s as usize] |= 1 << p;
        out[t as usize] |= 1 << p;
        p += 1;
    }
    out
}

/// What stands on square `s` (White's numbering less one) as `view` sees it: 0
/// empty, 1 own man, 2 own king, 3 their man, 4 their king.
#[inline(always)]
fn content(pieces: Pieces, s: usize, view: Side) -> usize {
    let bit = s + s / 10;
    let king = (pieces.kings >> bit) as usize & 1;
    let (own, theirs) = match view {
        Side::White => (pieces.white, pieces.black),
        Side::Black => (pieces.black, pieces.white),
    };
    if own >> bit & 1 != 0 {
        1 + king
    } else if theirs >> bit & 1 != 0 {
        3 + king
    } else {
        0
    }
}

/// White's square (numbering less one) of `view`'s square `s`: Black sees the
/// board turned half a turn.
#[inline(always)]
const fn white_square(s: usize, view: Side) -> usize {
    match view {
        Side::White => s,
        Side::Black => 49 - s,
    }
}

/// The input of pair `p` as `view` sees `pieces`, if the pair holds a piece.
#[inline(always)]
pub fn pair_input(pieces: Pieces, view: Side, p: usize) -> Option<usize> {
    let (s, t) = SQUARES_OF[p];
    let lower = content(pieces, white_square(usize::from(s), view), view);
    let upper = content(pieces, white_square(usize::from(t), view), view);
    let c = 5 * lower + upper;
    (c != 0).then_some(CONTENTS * p + c)
}

/// Calls `each` with the input of every pair that holds a piece, as `view` sees
/// `pieces`.
#[inline(always)]
pub fn pair_inputs(pieces: Pieces, view: Side, mut each: impl FnMut(usize)) {
    for p in 0..PAIRS {
        if let Some(f) = pair_input(pieces, view, p) {
            each(f);
        }
    }
}

/// Calls `each(view, before, after)` with the input of every pair that holds one
/// of the `changed` squares (see [`changed_squares`]) before and after the
/// change from `from` to `to`, as White sees them and as Black does, where they
/// differ. One walk for both views: each pair's squares are read once, and
/// Black's input follows from White's by [`MIRROR`] and [`SWAPPED`].
#[inline(always)]
pub fn pair_changes_both(
    from: Pieces,
    to: Pieces,
    changed: u64,
    mut each: impl FnMut(Side, Option<usize>, Option<usize>),
) {
    let mut touched = touched_pairs(changed, Side::White);
    let input = |p: usize, lower: usize, upper: usize| {
        let c = 5 * lower + upper;
        (c != 0).then_some(CONTENTS * p + c)
    };
    while touched != 0 {
        let p = touched.trailing_zeros() as usize;
        touched &= touched - 1;
        let (s, t) = SQUARES_OF[p];
        let (s, t) = (usize::from(s), usize::from(t));
        let before = [s, t].map(|q| content(from, q, Side::White));
        let after = [s, t].map(|q| content(to, q, Side::White));
        if before == after {
            continue;
        }
        each(
            Side::White,
            input(p, before[0], before[1]),
            input(p, after[0], after[1]),
        );
        let q = usize::from(MIRROR[p]);
        let [b, a] = [before, after].map(|c| [SWAPPED[c[1]], SWAPPED[c[0]]]);
        each(Side::Black, input(q, b[0], b[1]), input(q, a[0], a[1]));
    }
}

/// The squares (bits of White's padded layout, as [`Pieces`] holds them) whose
/// contents differ between `from` and `to`.
#[inline(always)]
pub fn changed_squares(from: Pieces, to: Pieces) -> u64 {
    (from.white ^ to.white) | (from.black ^ to.black) | (from.kings ^ to.kings)
}

/// The pairs, as `view` numbers them, that hold one of the `changed` squares
/// (see [`changed_squares`]).
#[inline(always)]
pub fn touched_pairs(mut changed: u64, view: Side) -> u128 {
    let mut pairs = 0;
    while changed != 0 {
        let bit = changed.trailing_zeros() as usize;
        changed &= changed - 1;
        // One ghost bit after every ten squares.
        pairs |= TOUCHING[white_square(bit - bit / 11, view)];
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::Position;

    #[test]
    fn the_pairs_are_the_board_s_diagonal_steps() {
        // Squares 1-5 are on the far row: no step forward. Square 6 steps to 1
        // only, 15 to 10 only (edges), 46 to 41 only, 50 to 44 and 45.
        let named: Vec<(u8, u8)> = SQUARES_OF.iter().map(|&(s, t)| (s + 1, t + 1)).collect();
        assert_eq!(named[0], (6, 1));
        assert_eq!(named[1], (7, 1));
        let from = |s| named.iter().filter(|&&(f, _)| f == s).count();
        assert_eq!([from(6), from(15), from(10), from(46)], [1, 1, 2, 1]);
        assert!(named.contains(&(46, 41)));
        assert!(named.contains(&(50, 44)) && named.contains(&(50, 45)));
        // Each square is in as many pairs as it has diagonal neighbours, and each
        // step has two squares.
        let degree: u32 = TOUCHING.iter().map(|t| t.count_ones()).sum();
        assert_eq!(degree, 2 * PAIRS as u32);
        assert_eq!(TOUCHING[45].count_ones(), 1, "square 46 has one neighbour");
        assert_eq!(TOUCHING[22].count_ones(), 4, "square 23 has four");
    }

    #[test]
    fn a_pair_names_both_squares_as_the_view_sees_them() {
        // White men on 31 and 27 (a step apart), a black king on 22.
        let pos: Position = "W:W27,31:BK22".parse().unwrap();
        let pieces = Pieces::of(&pos);
        let p = SQUARES_OF
            .iter()
            .position(|&(s, t)| (s, t) == (30, 26))
            .unwrap();
        assert_eq!(
            pair_input(pieces, Side::White, p),
            Some(CONTENTS * p + 5 + 1)
        );
        let q = SQUARES_OF
            .iter()
            .position(|&(s, t)| (s, t) == (26, 21))
            .unwrap();
        assert_eq!(
            pair_input(pieces, Side::White, q),
            Some(CONTENTS * q + 5 + 4)
        );
        // Black sees 22 as its square 29 (51 - 22, less one 28) holding its own king,
        // below White's man on 27 (its 24, less one 23): the lower square its own king.
        let r = SQUARES_OF
            .iter()
            .position(|&(s, t)| (s, t) == (28, 23))
            .unwrap();
        assert_eq!(
            pair_input(pieces, Side::Black, r),
            Some(CONTENTS * r + 5 * 2 + 3)
        );
        let mut all = Vec::new();
        pair_inputs(pieces, Side::White, |f| all.push(f));
        // 27 and 31 each in their pairs, 22 in its four; 27-22 shared, 31-27 shared.
        assert_eq!(all.len(), 4 + 4 + 4 - 2);
    }

    #[test]
    fn the_pairs_a_move_touches_are_those_of_its_squares() {
        let from = Pieces::of(&"W:W31:B20".parse().unwrap());
        let to = Pieces::of(&"W:W27:B20".parse().unwrap());
        let changed = changed_squares(from, to);
        assert_eq!(changed.count_ones(), 2);
        for view in [Side::White, Side::Black] {
            let touched = touched_pairs(changed, view);
            for p in 0..PAIRS {
                let differs = pair_input(from, view, p) != pair_input(to, view, p);
                assert!(
                    !differs || touched >> p & 1 == 1,
                    "pair {p} changed untouched"
                );
            }
            // 31's and 27's pairs, the step between them counted once.
            assert_eq!(touched.count_ones(), 4 + 4 - 1);
        }
    }

    #[test]
    fn both_views_change_as_each_does_alone() {
        assert!((0..PAIRS).all(|p| usize::from(MIRROR[usize::from(MIRROR[p])]) == p));
        let mut positions = crate::eval::testing::random_positions(4, 30, 120);
        positions.dedup();
        for pair in positions.windows(2) {
            let (from, to) = (Pieces::of(&pair[0]), Pieces::of(&pair[1]));
            let changed = changed_squares(from, to);
            let mut seen = Vec::new();
            pair_changes_both(from, to, changed, |view, before, after| {
                seen.push((view.index(), before, after));
            });
            let mut expected = Vec::new();
            for view in [Side::White, Side::Black] {
                for p in 0..PAIRS {
                    let (before, after) = (pair_input(from, view, p), pair_input(to, view, p));
                    if before != after {
                        expected.push((view.index(), before, after));
                    }
                }
            }
            seen.sort_unstable();
            expected.sort_unstable();
            assert_eq!(
                seen,
                expected,
                "{} -> {}",
                pair[0].to_fen(),
                pair[1].to_fen()
            );
        }
    }
}
