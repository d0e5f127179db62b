//! Material slices and the numbering of the positions in each.
//!
//! Tables hold White to move only: a position with Black to move is looked up as its
//! [`Position::flipped`] image, which has the same value for the side to move.
//!
//! A slice's index is a mixed-radix number of four combination ranks, most
//! significant first: the white men's squares among 6-50 (where a white man can
//! stand), the black men's among 1-45, the white kings' among the squares no man
//! holds, and the black kings' among the squares still free. Men of both colours
//! may rank onto the same square: those indices name no position and are skipped
//! (a few per cent of a slice with men on both sides, in whole runs that compress
//! to nothing). Kings are ranked among the free squares, so they waste nothing.

use kroon_rules::board::bitboard::{BitIter, ALL};
use kroon_rules::board::{Position, Side};
use std::fmt;

/// The most pieces a slice may hold (the binomial table's width).
pub const MAX_PIECES: u32 = 8;

/// `BINOMIAL[n][k]` = n choose k, for n <= 50 and k <= [`MAX_PIECES`].
const BINOMIAL: [[u64; MAX_PIECES as usize + 1]; 51] = {
    let mut table = [[0u64; MAX_PIECES as usize + 1]; 51];
    let mut n = 0;
    while n <= 50 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

#[inline]
fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The pieces of a slice, White (the side to move) first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

impl Material {
    /// The material of a position, seen from White (whoever is to move).
    #[must_use]
    pub fn of(pos: &Position) -> Material {
        let count = |b: kroon_rules::board::Bitboard| b.count() as u8;
        Material {
            white_men: count(pos.men(Side::White)),
            white_kings: count(pos.kings(Side::White)),
            black_men: count(pos.men(Side::Black)),
            black_kings: count(pos.kings(Side::Black)),
        }
    }

    /// Every slice of exactly `pieces` pieces in which both sides have a piece.
    #[must_use]
    pub fn all_with(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for wm in 0..=pieces {
            for wk in 0..=pieces - wm {
                for bm in 0..=pieces - wm - wk {
                    let bk = pieces - wm - wk - bm;
                    let m = Material {
                        white_men: wm as u8,
                        white_kings: wk as u8,
                        black_men: bm as u8,
                        black_kings: bk as u8,
                    };
                    if wm + wk > 0 && bm + bk > 0 {
                        all.push(m);
                    }
                }
            }
        }
        all
    }

    /// A number below [`Material::SLOTS`] for each material: for tables indexed by it.
    #[must_use]
    #[inline]
    pub const fn slot(self) -> usize {
        (self.white_men as usize) << 9
            | (self.white_kings as usize) << 6
            | (self.black_men as usize) << 3
            | self.black_kings as usize
    }

    /// See [`Material::slot`].
    pub const SLOTS: usize = 1 << 12;

    /// Whether play from a position of this material (either side to move) can
    /// reach one of material `x`: pieces are only ever taken off or crowned.
    #[must_use]
    pub fn reaches(self, x: Material) -> bool {
        let below = |a: Material, x: Material| {
            x.white_men <= a.white_men
                && x.white_men + x.white_kings <= a.white_men + a.white_kings
                && x.black_men <= a.black_men
                && x.black_men + x.black_kings <= a.black_men + a.black_kings
        };
        below(self, x) || below(self, x.swapped())
    }

    /// Pieces on the board.
    #[must_use]
    pub const fn pieces(self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// Men on the board.
    #[must_use]
    pub const fn men(self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// The slice with the colours exchanged: where the positions after White's quiet
    /// moves are, once flipped.
    #[must_use]
    pub const fn swapped(self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// The four radices, most significant first.
    #[inline]
    fn radices(self) -> [u64; 4] {
        let men = u32::from(self.white_men + self.black_men);
        [
            binomial(45, self.white_men.into()),
            binomial(45, self.black_men.into()),
            binomial(50 - men, self.white_kings.into()),
            binomial(
                50 - men - u32::from(self.white_kings),
                self.black_kings.into(),
            ),
        ]
    }

    /// Indices in the slice (some name no position: see the module's notes).
    #[must_use]
    pub fn size(self) -> u64 {
        self.radices().iter().product()
    }

    /// The file name of the slice: `wdl-` and the four counts, e.g. `wdl-1201.egdb`
    /// (White 1 man 2 kings, Black 0 men 1 king, White to move).
    #[must_use]
    pub fn file_name(self) -> String {
        format!("wdl-{self}.egdb")
    }

    /// The index of a position with White to move and this material.
    #[must_use]
    #[inline]
    pub fn index(self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.side_to_move(), Side::White);
        debug_assert_eq!(Material::of(pos), self);
        index_with(self.radices(), pos)
    }

    /// The position (White to move) at an index, or None where the men of both
    /// colours would share a square.
    #[must_use]
    #[inline]
    pub fn position(self, index: u64) -> Option<Position> {
        Cursor::new(self).position(index)
    }
}

/// Turns indices of one slice into positions, faster when they come in order: the
/// parts of the index that did not change since the last one are not decoded again.
/// It also turns positions into indices, without working out the radices each time.
pub struct Cursor {
    material: Material,
    radices: [u64; 4],
    /// The ranks decoded last (men together, white kings), `u64::MAX` for none.
    men_rank: u64,
    white_kings_rank: u64,
    /// The white kings' squares among the free ones (0 for none decoded).
    white_kings_free: u64,
    /// The black kings' rank decoded last and their squares among the free ones
    /// (`u64::MAX` for none): the next rank is the next set of as many bits.
    black_kings_rank: u64,
    black_kings_free: u64,
    /// Their squares, dense; `men_valid` false when the men share a square.
    white_men: u64,
    black_men: u64,
    men_valid: bool,
    white_kings: u64,
}

impl Cursor {
    #[must_use]
    pub fn new(material: Material) -> Cursor {
        Cursor {
            material,
            radices: material.radices(),
            men_rank: u64::MAX,
            white_kings_rank: u64::MAX,
            black_kings_rank: u64::MAX,
            black_kings_free: 0,
            white_kings_free: 0,
            white_men: 0,
            black_men: 0,
            men_valid: false,
            white_kings: 0,
        }
    }

    /// The index of a position: see [`Material::index`].
    #[must_use]
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.side_to_move(), Side::White);
        debug_assert_eq!(Material::of(pos), self.material);
        index_with(self.radices, pos)
    }

    /// The position at an index: see [`Material::position`].
    #[inline]
    pub fn position(&mut self, index: u64) -> Option<Position> {
        let m = self.material;
        let [_, r1, r2, r3] = self.radices;
        let bk = index % r3;
        let rest = index / r3;
        let wk = rest % r2;
        let men = rest / r2;
        if men != self.men_rank {
            self.men_rank = men;
            self.white_kings_rank = u64::MAX;
            self.white_kings_free = 0;
            self.white_men =
                unrank_near(men / r1, m.white_men.into(), 45, self.white_men >> 5) << 5;
            self.black_men = unrank_near(men % r1, m.black_men.into(), 45, self.black_men);
            self.men_valid = self.white_men & self.black_men == 0;
        }
        if !self.men_valid {
            return None;
        }
        let men = self.white_men | self.black_men;
        if wk != self.white_kings_rank {
            // Without black kings the white kings' rank is the one that counts up.
            let last = self.white_kings_free;
            self.white_kings_free = if wk == self.white_kings_rank.wrapping_add(1) && last != 0 {
                next_set(last)
            } else {
                unrank_near(wk, m.white_kings.into(), 50, last)
            };
            self.white_kings_rank = wk;
            self.white_kings = expand(self.white_kings_free, men);
        }
        let white_kings = self.white_kings;
        let last = self.black_kings_free;
        self.black_kings_free = if bk == self.black_kings_rank.wrapping_add(1) && last != 0 {
            next_set(last)
        } else {
            unrank_near(bk, m.black_kings.into(), 50, last)
        };
        self.black_kings_rank = bk;
        let black_kings = expand(self.black_kings_free, men | white_kings);
        let white = padded(self.white_men | white_kings);
        let black = padded(self.black_men | black_kings);
        let kings = padded(white_kings | black_kings);
        Some(Position::from_bits_unkeyed(
            white,
            black,
            kings,
            Side::White,
        ))
    }
}

/// The set of as many bits that follows `last` in colex order: in that order the
/// sets of k squares follow their numbers as bit sets, so the next comes by a few
/// bit operations (Gosper's), not a search.
#[inline]
fn next_set(last: u64) -> u64 {
    let lowest = last & last.wrapping_neg();
    let carried = last + lowest;
    carried | ((carried ^ last) >> 2 >> lowest.trailing_zeros())
}

/// The indices of the positions one king's move away from a given one, cheaper than
/// [`Cursor::index`] for each: a king's move leaves the men's ranks alone, and a
/// black king's also the white kings'. The builder indexes every position's
/// successors and predecessors, most of them king moves in the slices with kings.
pub struct KingMoves {
    radices: [u64; 4],
    men: u64,
    white_kings: u64,
    black_kings: u64,
    /// The men's part of the index, and the white kings' part with it.
    men_part: u64,
    white_kings_part: u64,
}

impl Cursor {
    /// The positions a king's move away from `pos`, whatever the side to move (the
    /// index is that of the position with White to move).
    #[must_use]
    #[inline]
    pub fn king_moves(&self, pos: &Position) -> KingMoves {
        debug_assert_eq!(Material::of(pos), self.material);
        let white = dense(pos.pieces(Side::White).0);
        let black = dense(pos.pieces(Side::Black).0);
        let kings = dense(pos.king_bits());
        let (white_men, white_kings) = (white & !kings, white & kings);
        let men = white_men | (black & !kings);
        let [_, r1, r2, r3] = self.radices;
        let men_part = rank(white_men >> 5) * r1 + rank(black & !kings);
        let white_kings_part = (men_part * r2 + rank(compress(white_kings, men))) * r3;
        KingMoves {
            radices: self.radices,
            men,
            white_kings,
            black_kings: black & kings,
            men_part,
            white_kings_part,
        }
    }
}

impl KingMoves {
    /// The index once the black king on `from` has moved to `to` (bits of the padded
    /// layout).
    #[must_use]
    #[inline]
    pub fn black_king_moved(&self, from: u64, to: u64) -> u64 {
        let black_kings = (self.black_kings & !dense_bit(from)) | dense_bit(to);
        self.white_kings_part + rank(compress(black_kings, self.men | self.white_kings))
    }

    /// The index once the white king on `from` has moved to `to`.
    #[must_use]
    #[inline]
    pub fn white_king_moved(&self, from: u64, to: u64) -> u64 {
        let white_kings = (self.white_kings & !dense_bit(from)) | dense_bit(to);
        let [_, _, r2, r3] = self.radices;
        let wk = rank(compress(white_kings, self.men));
        let bk = rank(compress(self.black_kings, self.men | white_kings));
        (self.men_part * r2 + wk) * r3 + bk
    }
}

/// The indices of the positions where one king of a [`KingMoves`] position has
/// moved from a given square, to any square: what does not depend on where it
/// goes is summed once (the builder indexes a king's whole ray this way, several
/// moves a king, where [`KingMoves::black_king_moved`] ranks all the kings of its
/// colour again for each).
pub struct KingSlide {
    /// The part of the index the move leaves alone, and the moved kings' radix
    /// place.
    part: u64,
    scale: u64,
    /// The squares the kings are numbered around (dense layout), and the other
    /// kings of the colour, so numbered.
    taken: u64,
    others: u64,
    /// The others' share of the colex rank when `j` of them lie below the moved
    /// king: the ones above move up a place in the order.
    base: [u64; MAX_PIECES as usize + 1],
    /// For a white king: the squares the black kings are numbered around but for
    /// the moved king's, the black kings so numbered, and their rank when `j` of
    /// them lie below the moved king (the ones above move down a square, which
    /// it now takes). Empty for a black king.
    black_taken: u64,
    black: u64,
    black_base: [u64; MAX_PIECES as usize + 1],
}

impl KingSlide {
    #[inline]
    fn new(part: u64, scale: u64, (taken, others): (u64, u64), black_taken: u64) -> KingSlide {
        let mut slide = KingSlide {
            part,
            scale,
            taken,
            others,
            base: [0; MAX_PIECES as usize + 1],
            black_taken,
            black: 0,
            black_base: [0; MAX_PIECES as usize + 1],
        };
        // base[j]: the others below the moved king keep their place in the order
        // (C(t, i + 1)), those above move up one (C(t, i + 2)); a prefix and a
        // suffix sum give every j from one pass over the others.
        shares(others, &mut slide.base, |t, i| {
            (binomial(t, i + 1), binomial(t, i + 2))
        });
        slide
    }

    /// With the black kings (dense squares) renumbered after a white king's move.
    #[inline]
    fn with_black(mut self, black_kings: u64) -> KingSlide {
        self.black = compress(black_kings, self.black_taken);
        // (A king numbered 0 is never above the moved one: the j where it would
        // be is unused.)
        shares(self.black, &mut self.black_base, |b, i| {
            (binomial(b, i + 1), binomial(b.saturating_sub(1), i + 1))
        });
        self
    }

    /// The index once the king has moved to `to` (a bit of the padded layout).
    #[must_use]
    #[inline]
    pub fn to(&self, to: u64) -> u64 {
        let d = dense_bit(to);
        let at = d.trailing_zeros() - (self.taken & (d - 1)).count_ones();
        let below = (self.others & ((1u64 << at) - 1)).count_ones();
        let rank = self.base[below as usize] + binomial(at, below + 1);
        let black_at = d.trailing_zeros() - (self.black_taken & (d - 1)).count_ones();
        let black_below = (self.black & ((1u64 << black_at) - 1)).count_ones();
        self.part + self.scale * rank + self.black_base[black_below as usize]
    }
}

impl KingMoves {
    /// The black king on `from` (a bit of the padded layout) about to move.
    #[must_use]
    #[inline]
    pub fn black_king_from(&self, from: u64) -> KingSlide {
        let taken = self.men | self.white_kings;
        let others = compress(self.black_kings & !dense_bit(from), taken);
        KingSlide::new(self.white_kings_part, 1, (taken, others), 0)
    }

    /// The white king on `from` about to move.
    #[must_use]
    #[inline]
    pub fn white_king_from(&self, from: u64) -> KingSlide {
        let [_, _, r2, r3] = self.radices;
        let white_kings = self.white_kings & !dense_bit(from);
        let others = compress(white_kings, self.men);
        let part = self.men_part * r2 * r3;
        KingSlide::new(part, r3, (self.men, others), self.men | white_kings)
            .with_black(self.black_kings)
    }
}

/// `out[j]` for each `j` up to the number of bits of `set`: the sum over its i-th
/// bit `b` of `share(b, i).0` when `i < j` (below the moved king) and `.1` when
/// `i >= j` (above it), from one prefix and one suffix sum (rather than a sum for
/// each `j`, a few hundred table reads a king in a round).
#[inline]
fn shares(
    set: u64,
    out: &mut [u64; MAX_PIECES as usize + 1],
    share: impl Fn(u32, u32) -> (u64, u64),
) {
    let n = set.count_ones() as usize;
    let mut parts = [(0u64, 0u64); MAX_PIECES as usize];
    for (i, b) in BitIter(set).enumerate() {
        parts[i] = share(b, i as u32);
    }
    let mut above = 0;
    out[n] = 0;
    for i in (0..n).rev() {
        above += parts[i].1;
        out[i] = above;
    }
    let mut below = 0;
    for j in 0..=n {
        out[j] += below;
        if j < n {
            below += parts[j].0;
        }
    }
}

/// [`dense`] for a single square: bit n of the padded layout is square
/// n - n / 11 + 1 (a ghost bit ends each pair of rows).
#[inline]
fn dense_bit(bit: u64) -> u64 {
    let n = bit.trailing_zeros();
    1 << (n - n / 11)
}

/// [`Material::index`] given the material's radices.
#[inline]
fn index_with(radices: [u64; 4], pos: &Position) -> u64 {
    let white = dense(pos.pieces(Side::White).0);
    let black = dense(pos.pieces(Side::Black).0);
    let kings = dense(pos.king_bits());
    let (white_men, white_kings) = (white & !kings, white & kings);
    let (black_men, black_kings) = (black & !kings, black & kings);
    let men = white_men | black_men;
    let [_, r1, r2, r3] = radices;
    let wm = rank(white_men >> 5);
    let bm = rank(black_men);
    let wk = rank(compress(white_kings, men));
    let bk = rank(compress(black_kings, men | white_kings));
    ((wm * r1 + bm) * r2 + wk) * r3 + bk
}

impl std::str::FromStr for Material {
    type Err = String;

    /// Four digits, `wm wk bm bk`, e.g. `1201`.
    fn from_str(text: &str) -> Result<Material, String> {
        let digits: Vec<u8> = text.trim().bytes().map(|b| b.wrapping_sub(b'0')).collect();
        match digits[..] {
            [wm, wk, bm, bk] if digits.iter().all(|&d| d <= 9) => {
                let m = Material {
                    white_men: wm,
                    white_kings: wk,
                    black_men: bm,
                    black_kings: bk,
                };
                if m.pieces() > MAX_PIECES || wm + wk == 0 || bm + bk == 0 {
                    Err(format!("material '{text}': each side needs a piece, {MAX_PIECES} at most in all"))
                } else {
                    Ok(m)
                }
            }
            _ => Err(format!(
                "material '{text}' must be four digits: white men, white kings, black men, black kings"
            )),
        }
    }
}

/// `wm wk bm bk` as four digits (each count is below 10).
impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

/// The bits of the padded layout that are squares (each pair of rows ends in a
/// ghost bit).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const DENSE_MASK: u64 = 0x3F_F7FE_FFDF_FBFF;

/// The squares of a padded bitboard as bits 0-49 (square n on bit n - 1).
#[inline]
fn dense(bits: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    if super::pext::fast() {
        return super::pext::gather(bits, DENSE_MASK);
    }
    dense_by_rows(bits)
}

/// [`dense`] a pair of rows at a time.
#[inline]
fn dense_by_rows(bits: u64) -> u64 {
    let mut out = 0;
    for row_pair in 0..5 {
        out |= ((bits >> (11 * row_pair)) & 0x3FF) << (10 * row_pair);
    }
    out
}

/// The inverse of [`dense`].
#[inline]
fn padded(bits: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    if super::pext::fast() {
        return super::pext::scatter(bits, DENSE_MASK) & ALL;
    }
    padded_by_rows(bits)
}

/// [`padded`] a pair of rows at a time.
#[inline]
fn padded_by_rows(bits: u64) -> u64 {
    let mut out = 0;
    for row_pair in 0..5 {
        out |= ((bits >> (10 * row_pair)) & 0x3FF) << (11 * row_pair);
    }
    out & ALL
}

/// The colex rank of a set of bits: the sum of C(position, i) over its i-th bit.
#[inline]
fn rank(bits: u64) -> u64 {
    BitIter(bits)
        .enumerate()
        .map(|(i, bit)| binomial(bit, i as u32 + 1))
        .sum()
}

/// The set of `k` bits below `n` with colex rank `r`.
#[inline]
fn unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut bits = 0;
    let mut top = n;
    if k == 1 {
        return 1 << r;
    }
    for i in (1..=k).rev() {
        // The largest x below `top` with C(x, i) <= r: C(x, i) grows with x, so a
        // binary search (a linear one took a quarter of the build's time).
        let column = |x: u32| binomial(x, i);
        let (mut low, mut high) = (i - 1, top - 1);
        while low < high {
            let mid = (low + high).div_ceil(2);
            if column(mid) <= r {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        let x = low;
        r -= binomial(x, i);
        bits |= 1 << x;
        top = x;
    }
    bits
}

/// [`unrank`] given the set decoded last (`last`, 0 for none): the builder visits
/// the positions decided in a round, sparse but in order, so the highest bits
/// mostly stay where they were, and each is kept after two look-ups where it is
/// still the right one, without the search.
#[inline]
fn unrank_near(mut r: u64, k: u32, n: u32, mut last: u64) -> u64 {
    if k <= 1 || last.count_ones() != k {
        return unrank(r, k, n);
    }
    let mut bits = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let was = 63 - last.leading_zeros();
        last ^= 1 << was;
        // `was` is the answer if it is the largest x below `top` with C(x, i) <= r.
        let x =
            if was < top && binomial(was, i) <= r && (was + 1 == top || binomial(was + 1, i) > r) {
                was
            } else {
                let (mut low, mut high) = (i - 1, top - 1);
                while low < high {
                    let mid = (low + high).div_ceil(2);
                    if binomial(mid, i) <= r {
                        low = mid;
                    } else {
                        high = mid - 1;
                    }
                }
                low
            };
        r -= binomial(x, i);
        bits |= 1 << x;
        top = x;
    }
    bits
}

/// `bits` (none of them in `taken`) renumbered among the squares not in `taken`.
#[inline]
fn compress(bits: u64, taken: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    if super::pext::fast() {
        return super::pext::gather(bits, !taken);
    }
    compress_by_bits(bits, taken)
}

/// [`compress`] a bit at a time: each moves down by the taken squares below it.
#[inline]
fn compress_by_bits(bits: u64, taken: u64) -> u64 {
    BitIter(bits).fold(0, |out, bit| {
        out | 1 << (bit - (taken & ((1u64 << bit) - 1)).count_ones())
    })
}

/// The inverse of [`compress`].
#[inline]
fn expand(bits: u64, taken: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    if super::pext::fast() {
        return super::pext::scatter(bits, !taken);
    }
    expand_by_bits(bits, taken)
}

/// [`expand`] a bit at a time: each bit i moves up past the taken squares at or
/// below where it lands (a loop over the few taken squares, not the 50 free ones).
#[inline]
fn expand_by_bits(bits: u64, taken: u64) -> u64 {
    BitIter(bits).fold(0, |out, bit| {
        let mut at = bit;
        for t in BitIter(taken) {
            if t > at {
                break;
            }
            at += 1;
        }
        out | 1 << at
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::movegen::legal_moves;

    /// Whichever way this processor changes layouts, the loops give the same:
    /// every build is tested on both where it has BMI2.
    #[test]
    fn the_layout_changes_agree_with_their_loops() {
        let mut rng = crate::random::Rng::new(47, 0);
        let mut random = || rng.next_u64();
        for _ in 0..100_000 {
            let board = random() & ALL;
            assert_eq!(dense(board), dense_by_rows(board));
            assert_eq!(padded(dense(board)), board);
            assert_eq!(padded(dense(board)), padded_by_rows(dense_by_rows(board)));
            let taken = random() & random() & ((1 << 50) - 1);
            let bits = random() & random() & random() & !taken & ((1 << 50) - 1);
            let compressed = compress(bits, taken);
            assert_eq!(compressed, compress_by_bits(bits, taken));
            assert_eq!(expand(compressed, taken), bits);
            assert_eq!(expand_by_bits(compressed, taken), bits);
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(50, 2), 1225);
        assert_eq!(binomial(45, 3), 14190);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn every_index_round_trips() {
        for m in Material::all_with(2)
            .into_iter()
            .chain(Material::all_with(3))
        {
            let mut valid = 0;
            for index in 0..m.size() {
                if let Some(pos) = m.position(index) {
                    valid += 1;
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(m.index(&pos), index, "{m} {}", pos.to_fen());
                    let checked = Position::new(
                        pos.pieces(Side::White),
                        pos.pieces(Side::Black),
                        pos.kings(Side::White) | pos.kings(Side::Black),
                        Side::White,
                    );
                    assert!(checked.is_ok());
                }
            }
            assert!(valid > 0);
        }
    }

    #[test]
    fn a_cursor_gives_the_positions_of_fresh_decoding_in_any_order() {
        for m in Material::all_with(4) {
            let mut cursor = Cursor::new(m);
            let steps = [1, 1, 1, 7, 1, 1, 1000, 1, 1, 13];
            let mut index = 0;
            for step in steps.iter().cycle() {
                if index >= m.size() {
                    break;
                }
                assert_eq!(cursor.position(index), m.position(index), "{m} {index}");
                index += step;
            }
        }
    }

    #[test]
    fn unranking_near_the_last_set_gives_the_fresh_set() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for k in 2..=5 {
            let size = binomial(50, k);
            let mut last = 0;
            for _ in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly small steps from the last rank, now and then a jump.
                let r = if seed.is_multiple_of(8) {
                    seed % size
                } else {
                    (rank(last) + seed % 5000) % size
                };
                let fresh = unrank(r, k, 50);
                assert_eq!(unrank_near(r, k, 50, last), fresh, "{r} {k}");
                last = fresh;
            }
        }
    }

    #[test]
    fn a_king_move_indexes_as_the_position_it_leads_to() {
        use kroon_rules::board::movegen::generate;
        let mut moves = Vec::new();
        for fen in [
            "W:W6,28,K50:B1,23,K12",
            "W:WK46,K1:BK5,K23,K30",
            "W:W33,K3,K4:B18,K44",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            generate(&pos, &mut moves);
            for &mv in &moves {
                let (from, to) = (1u64 << mv.from_bit(), 1u64 << mv.to_bit());
                if mv.is_capture() || pos.king_bits() & from == 0 {
                    continue;
                }
                let after = pos.play_unkeyed(mv);
                // The white king moved; seen from White (the move's side).
                let m = Material::of(&pos);
                let white_view = Position::from_bits_unkeyed(
                    after.pieces(Side::White).0,
                    after.pieces(Side::Black).0,
                    after.king_bits(),
                    Side::White,
                );
                let cursor = Cursor::new(m);
                let moved = cursor.king_moves(&pos).white_king_moved(from, to);
                assert_eq!(moved, m.index(&white_view), "{fen} {mv:?}");
                // And seen from Black, once flipped: a black king moved.
                let flipped = after.flipped_unkeyed();
                let swapped = Cursor::new(m.swapped());
                let flip = |bit: u64| 1u64 << (53 - bit.trailing_zeros());
                let before = pos.flipped_unkeyed();
                let moved = swapped
                    .king_moves(&before)
                    .black_king_moved(flip(from), flip(to));
                assert_eq!(moved, m.swapped().index(&flipped), "{fen} {mv:?}");
            }
        }
    }

    #[test]
    fn shares_sum_as_for_each_place_of_the_moved_king() {
        let mut rng = crate::random::Rng::new(0x2545_F491_4F6C_DD1D, 0);
        for _ in 0..2000 {
            let seed = rng.next_u64();
            // Up to 7 other kings among 50 squares.
            let set = BitIter(seed & ((1 << 50) - 1)).take((seed >> 60) as usize % 8);
            let set = set.fold(0u64, |s, b| s | 1 << b);
            let share = |b: u32, i: u32| (binomial(b, i + 1), binomial(b, i + 2) + 7);
            let mut out = [0; MAX_PIECES as usize + 1];
            shares(set, &mut out, share);
            for (j, &summed) in out.iter().enumerate().take(set.count_ones() as usize + 1) {
                let direct: u64 = BitIter(set)
                    .enumerate()
                    .map(|(i, b)| {
                        let (below, above) = share(b, i as u32);
                        if i < j {
                            below
                        } else {
                            above
                        }
                    })
                    .sum();
                assert_eq!(summed, direct, "{set:b} {j}");
            }
        }
    }

    #[test]
    fn a_king_slide_indexes_as_a_king_move() {
        use kroon_rules::board::movegen::generate;
        let mut moves = Vec::new();
        for fen in [
            "W:W6,28,K50:B1,23,K12",
            "W:WK46,K1,K20:BK5,K23,K30",
            "W:W33,K3,K4:B18",
            "W:WK3,K4,K48,K35,K40:BK44",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let m = Material::of(&pos);
            let cursor = Cursor::new(m);
            let k = cursor.king_moves(&pos);
            generate(&pos, &mut moves);
            for &mv in &moves {
                let (from, to) = (1u64 << mv.from_bit(), 1u64 << mv.to_bit());
                if mv.is_capture() || pos.king_bits() & from == 0 {
                    continue;
                }
                let slide = k.white_king_from(from);
                assert_eq!(slide.to(to), k.white_king_moved(from, to), "{fen}");
            }
            // Black's kings, as if Black moved them.
            let black = pos.king_bits() & pos.pieces(Side::Black).0;
            for from in BitIter(black) {
                let slide = k.black_king_from(1 << from);
                for to in BitIter(pos.empty().0) {
                    let (from, to) = (1u64 << from, 1u64 << to);
                    assert_eq!(slide.to(to), k.black_king_moved(from, to), "{fen}");
                }
            }
        }
    }

    #[test]
    fn positions_from_play_index_back() {
        let pos = Position::from_fen("W:W6,28,K50:B1,23,K12").unwrap();
        let m = Material::of(&pos);
        assert_eq!(m.to_string(), "2121");
        let i = m.index(&pos);
        assert_eq!(m.position(i).unwrap().to_fen(), pos.to_fen());
        for mv in legal_moves(&pos) {
            let child = pos.play(mv).flipped();
            let cm = Material::of(&child);
            let back = cm.position(cm.index(&child)).unwrap();
            assert_eq!(back.to_fen(), child.to_fen());
        }
    }
}
