//! What the learned evaluation looks at: the contents of 28 overlapping windows of
//! the board, and a few whole-board counts. The runtime evaluation and the trainer
//! both read a position through this module, so they cannot disagree.
//!
//! # Windows
//! A window is 4 rows by 4 columns of the board: 8 playable squares, two in each
//! row, each empty, a White man or a Black man (kings count as empty here; the
//! dense terms see them): 3^8 = 6561 patterns. A window starts on any row 0-6 and
//! on column 0, 2, 4 or 6, so every square lies in up to eight windows and every
//! pair of neighbouring squares shares one. Window `w = 4 * row + column / 2`.
//!
//! In row `R` (squares `5R+1` to `5R+5`) the window of column `2h` holds the
//! squares `5R+h+1` and `5R+h+2`. Its pattern index is the base-3 number whose
//! digit `2a + b` is square `b` of its row `a`: 0 empty, 1 White man, 2 Black man.
//!
//! Turning the board half a turn (square n to 51 - n) maps window `(r, h)` to
//! `(6 - r, 3 - h)` and reverses the digit order; with the colours swapped too, a
//! White pattern becomes the Black pattern it mirrors. The evaluation is built so
//! that the two always score opposite: see [`super::weights`].

use kroon_rules::board::{Position, Side};

/// Windows on the board.
pub const WINDOWS: usize = 28;
/// Patterns of one window: 3^8.
pub const PATTERNS: usize = 6561;
/// The whole-board terms: see [`Dense`].
pub const DENSE: usize = 10;

/// The whole-board terms, by their place in [`dense`]'s result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dense {
    /// Men, White's minus Black's.
    Men = 0,
    Kings = 1,
    /// Rows the men have advanced from their own back row, summed.
    Tempo = 2,
    /// Forward moves the men have.
    ManMobility = 3,
    /// Men no enemy man can stop from promoting.
    Runaways = 4,
    /// Squares the kings reach in one move.
    KingMobility = 5,
    /// A king on the long diagonal (46-5).
    MainDiagonal = 6,
    /// How far a side's men lean to one wing, as a cost: the absolute sum over its
    /// men of their column's distance from the middle of the board (columns 0-9 as
    /// White sees them, counted as `2 * column - 9`), Black's minus White's. Men
    /// spread over both wings defend each other and keep their tempo options;
    /// the trainer finds what that is worth.
    Balance = 7,
    /// Having a king at all: the first king changes a game more than the next
    /// ones, which the count of kings cannot say.
    FirstKing = 8,
    /// 1: the side to move (the only term that is not White's minus Black's).
    /// Always the last term: terms added later go before it, so that a weights file
    /// from before them still reads (see [`super::weights`]).
    SideToMove = 9,
}

/// Names of the dense terms, for the trainer's report.
pub const DENSE_NAMES: [&str; DENSE] = [
    "men",
    "kings",
    "tempo",
    "man-mobility",
    "runaways",
    "king-mobility",
    "main-diagonal",
    "balance",
    "first-king",
    "side-to-move",
];

/// Men at the start: the phase is the men left, 40 (middle game) to 0 (endgame).
pub const PHASE_MEN: i32 = 40;

/// The first bit of row `r` in the padded layout (bit = index + index / 10).
const fn row_bit(r: usize) -> u32 {
    (5 * r + r / 2) as u32
}

/// For a row's White and Black men (5 bits each, `32 * white + black`): the pair
/// of squares `h` and `h + 1` of each window column `h` (0-3) as a base-3 number
/// (0-8), in the 16-bit lane `h` of a word. A window's index is then four rows'
/// lanes in base 9, computed for the four columns at once.
const ROW_LANES: [u64; 1024] = {
    let mut t = [0u64; 1024];
    let mut x = 0;
    while x < 1024 {
        let (white, black) = (x >> 5, x & 31);
        let mut lanes = 0u64;
        let mut h = 0;
        while h < 4 {
            let low = (white >> h & 1) + 2 * (black >> h & 1);
            let high = (white >> (h + 1) & 1) + 2 * (black >> (h + 1) & 1);
            lanes |= ((low + 3 * high) as u64) << (16 * h);
            h += 1;
        }
        t[x] = lanes;
        x += 1;
    }
    t
};

/// The window a window becomes when the board turns half a turn.
#[must_use]
pub const fn rotated_window(w: usize) -> usize {
    let (r, h) = (w / 4, w % 4);
    4 * (6 - r) + (3 - h)
}

/// The pattern a pattern becomes with the board turned and the colours swapped
/// (digits reversed, 1 and 2 exchanged): its mirror for the other side.
pub static MIRROR: [u16; PATTERNS] = {
    let mut t = [0u16; PATTERNS];
    let mut i = 0;
    while i < PATTERNS {
        let (mut d, mut k, mut m) = (i, 0, 0usize);
        let p = [1usize, 3, 9, 27, 81, 243, 729, 2187];
        while k < 8 {
            let digit = d % 3;
            let swapped = if digit == 0 { 0 } else { 3 - digit };
            m += swapped * p[7 - k];
            d /= 3;
            k += 1;
        }
        t[i] = m as u16;
        i += 1;
    }
    t
};

/// The pattern index of every window, from White's and Black's men in the padded
/// layout.
#[must_use]
#[inline]
pub fn window_indices(white_men: u64, black_men: u64) -> [u16; WINDOWS] {
    let mut rows = [0u64; 10];
    for (r, lanes) in rows.iter_mut().enumerate() {
        let w = (white_men >> row_bit(r)) as usize & 31;
        let b = (black_men >> row_bit(r)) as usize & 31;
        *lanes = ROW_LANES[w << 5 | b];
    }
    let mut out = [0u16; WINDOWS];
    for r in 0..7 {
        // No lane can carry into the next: a window's index is below 6561.
        let lanes = rows[r] + 9 * (rows[r + 1] + 9 * (rows[r + 2] + 9 * rows[r + 3]));
        for h in 0..4 {
            out[4 * r + h] = (lanes >> (16 * h)) as u16;
        }
    }
    out
}

/// `ROW_BITS[b]`: the squares of the rows whose number has bit `b` set.
const ROW_BITS: [u64; 4] = {
    let mut masks = [0u64; 4];
    let mut r = 0;
    while r < 10 {
        let mut b = 0;
        while b < 4 {
            if r >> b & 1 == 1 {
                masks[b] |= 0b11111 << row_bit(r);
            }
            b += 1;
        }
        r += 1;
    }
    masks
};

/// `COLUMN_BITS[b]`: the squares whose column (0-9, left to right as White sees
/// the board: square 46 is in column 0, square 1 in column 1) has bit `b` set.
const COLUMN_BITS: [u64; 4] = {
    let mut masks = [0u64; 4];
    let mut i = 0;
    while i < 50 {
        let (row, k) = (i / 5, i % 5);
        let column = 2 * k + if row % 2 == 0 { 1 } else { 0 };
        let mut b = 0;
        while b < 4 {
            if column >> b & 1 == 1 {
                masks[b] |= 1u64 << (i + i / 10);
            }
            b += 1;
        }
        i += 1;
    }
    masks
};

/// Twice the sum of the men's distances from the middle column, signed:
/// `2 * column - 9` summed, in four popcounts.
#[inline]
fn skew(men: u64) -> i32 {
    let columns: i32 = COLUMN_BITS
        .iter()
        .enumerate()
        .map(|(b, &mask)| ((men & mask).count_ones() as i32) << b)
        .sum();
    2 * columns - 9 * men.count_ones() as i32
}

/// The sum of the row numbers (0-9) of the pieces, in four popcounts.
#[inline]
fn row_sum(pieces: u64) -> i32 {
    ROW_BITS
        .iter()
        .enumerate()
        .map(|(b, &mask)| ((pieces & mask).count_ones() as i32) << b)
        .sum()
}

/// The game phase: men on the board, at most [`PHASE_MEN`].
#[must_use]
#[inline]
pub fn phase(pos: &Position) -> i32 {
    ((pos.side_bits(Side::White) | pos.side_bits(Side::Black)) & !pos.king_bits())
        .count_ones()
        .min(PHASE_MEN as u32) as i32
}

/// The dense terms, White's minus Black's (but [`Dense::SideToMove`]).
#[must_use]
#[inline]
pub fn dense(pos: &Position) -> [i32; DENSE] {
    use super::hand::{king_reach, man_moves, runaways, MAIN_DIAGONAL};
    let white = pos.side_bits(Side::White);
    let black = pos.side_bits(Side::Black);
    let kings = pos.king_bits();
    let empty = pos.empty().0;
    let (wm, bm, wk, bk) = (white & !kings, black & !kings, white & kings, black & kings);
    let count = |b: u64| b.count_ones() as i32;
    let mut d = [0i32; DENSE];
    d[Dense::Men as usize] = count(wm) - count(bm);
    d[Dense::Kings as usize] = count(wk) - count(bk);
    // Rows from the own back row: White's row 9 is 0, Black's row 0 is 0.
    d[Dense::Tempo as usize] = 9 * count(wm) - row_sum(wm) - row_sum(bm);
    d[Dense::ManMobility as usize] = man_moves::<false>(wm, empty) - man_moves::<true>(bm, empty);
    let mut runners = 0;
    runaways::<false>(wm, bm, empty, |_| runners += 1);
    runaways::<true>(bm, wm, empty, |_| runners -= 1);
    d[Dense::Runaways as usize] = runners;
    d[Dense::Balance as usize] = skew(bm).abs() - skew(wm).abs();
    if kings != 0 {
        d[Dense::FirstKing as usize] = i32::from(wk != 0) - i32::from(bk != 0);
        d[Dense::KingMobility as usize] = king_reach(wk, empty) - king_reach(bk, empty);
        d[Dense::MainDiagonal as usize] =
            i32::from(wk & MAIN_DIAGONAL != 0) - i32::from(bk & MAIN_DIAGONAL != 0);
    }
    d[Dense::SideToMove as usize] = 1;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::Square;

    /// The pattern of window `w` the slow way, square by square.
    fn slow_index(pos: &Position, w: usize) -> u16 {
        let (r, h) = (w / 4, w % 4);
        let mut index = 0u16;
        for k in (0..8).rev() {
            let (a, b) = (k / 2, k % 2);
            let n = (5 * (r + a) + h + b + 1) as u8;
            let sq = Square::new(n).unwrap();
            let digit = match pos.piece_at(sq) {
                Some(kroon_rules::board::Piece::Man(Side::White)) => 1,
                Some(kroon_rules::board::Piece::Man(Side::Black)) => 2,
                _ => 0,
            };
            index = index * 3 + digit;
        }
        index
    }

    fn random_positions() -> Vec<Position> {
        crate::eval::testing::random_positions(11, 20, 100)
    }

    #[test]
    fn fast_indices_match_the_squares() {
        for p in random_positions() {
            let kings = p.king_bits();
            let fast = window_indices(
                p.side_bits(Side::White) & !kings,
                p.side_bits(Side::Black) & !kings,
            );
            for (w, &index) in fast.iter().enumerate() {
                assert_eq!(index, slow_index(&p, w), "{} window {w}", p.to_fen());
            }
        }
    }

    #[test]
    fn mirror_is_the_turned_board_with_colours_swapped() {
        for p in random_positions() {
            let flipped = super::super::flip(&p);
            for w in 0..WINDOWS {
                assert_eq!(
                    slow_index(&flipped, rotated_window(w)),
                    MIRROR[usize::from(slow_index(&p, w))],
                    "{}",
                    p.to_fen()
                );
            }
            let kings = p.king_bits();
            let slow_tempo: i32 = p
                .pieces(Side::White)
                .squares()
                .chain(p.pieces(Side::Black).squares())
                .filter(|&sq| kings & (1 << sq.bit()) == 0)
                .map(|sq| match p.piece_at(sq) {
                    Some(kroon_rules::board::Piece::Man(Side::White)) => 9 - i32::from(sq.row()),
                    _ => -i32::from(sq.row()),
                })
                .sum();
            assert_eq!(dense(&p)[Dense::Tempo as usize], slow_tempo);
            // Columns from the square numbers: in rows 0, 2, ... (squares 1-5,
            // 11-15, ...) the playable squares are columns 1, 3, ..., 9.
            let lean = |side: Side| -> i32 {
                p.pieces(side)
                    .squares()
                    .filter(|&sq| kings & (1 << sq.bit()) == 0)
                    .map(|sq| {
                        let i = i32::from(sq.number()) - 1;
                        let column = 2 * (i % 5) + i32::from((i / 5) % 2 == 0);
                        2 * column - 9
                    })
                    .sum::<i32>()
                    .abs()
            };
            assert_eq!(
                dense(&p)[Dense::Balance as usize],
                lean(Side::Black) - lean(Side::White)
            );
            let (d, e) = (dense(&p), dense(&flipped));
            for k in 0..DENSE - 1 {
                assert_eq!(d[k], -e[k], "{} term {}", p.to_fen(), DENSE_NAMES[k]);
            }
        }
        assert!((0..PATTERNS).all(|i| usize::from(MIRROR[usize::from(MIRROR[i])]) == i));
        assert!(
            (0..WINDOWS).all(|w| rotated_window(rotated_window(w)) == w && rotated_window(w) != w)
        );
    }
}
