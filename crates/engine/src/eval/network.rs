//! The network evaluation: a small neural network in integer arithmetic, in the
//! manner of the efficiently updatable networks (NNUE) of chess engines.
//!
//! # Inputs
//! The board as the side to move sees it: if Black is to move, the board is turned
//! half a turn (square n becomes 51 - n) and the colours swapped, so the side to
//! move always plays up the board as White does. Then one input per piece: its kind
//! (own man, own king, their man, their king) and its square, feature
//! `50 * kind + square - 1` of [`FEATURES`]. Men never stand on their own crowning
//! row, so ten of those inputs are never set; keeping them makes the index plain.
//! A position and its colour-flipped mirror have the same inputs by construction.
//!
//! A network of [`BUCKETS`] buckets has a set of input weights for each kind of
//! position, its bucket as the view sees it ([`bucket`]): whether the view's side
//! has a king, whether the other side has one, and whether 20 or fewer pieces are
//! on the board. A piece's input is then `FEATURES * bucket + 50 * kind + square
//! - 1`: the same piece weighs differently once kings are about and in the
//! endgame. A move that changes a view's bucket needs every row of the new one:
//! the search's stack then starts from the bucket's last sums ([`accumulator`]).
//!
//! A network with pair inputs ([`pairs`]) also sums, into the same first layer,
//! an input for each diagonal step of the board that holds a piece, naming what
//! stands on both its squares: the board's local formations, which piece inputs
//! alone leave to the hidden units. Their rows follow the buckets' in
//! [`Network::input`], one set for every bucket.
//!
//! # Layers
//! 1. `hidden` sums (the accumulator) of the input weights of the pieces on the
//!    board plus a bias, in `i16`, clipped to `0..=`[`ACTIVATION`] (a clipped ReLU
//!    on `0..=1` in the float model, times [`ACTIVATION`]). With two views the same
//!    weights are also summed over the board as the other side sees it (its pieces
//!    its own, the board turned), as chess's networks do: twice the units for the
//!    second layer from one set of input weights, and the search keeps both
//!    views' sums along its path anyway.
//!    A network with `squared` activations squares each clipped unit (`0..=1`
//!    squared in the float model; `c * c / 128`, rounded, in the integer one,
//!    which the trainer's quantisation makes up for): the second layer then
//!    reads products of the units with themselves, which bend where plain
//!    clipped units can only kink, for one multiplication a unit.
//! 2. [`SECOND`] dot products of those (the side to move's view first, then the
//!    other's) with `i16` weights (the float weights times [`DENSE_SCALE`]) plus an
//!    `i32` bias, divided by [`DENSE_SCALE`] and clipped the same way.
//! 3. One dot product with `i16` weights (times [`OUTPUT_SCALE`]) plus a bias: the
//!    score in men times `ACTIVATION * OUTPUT_SCALE`, turned into hundredths.
//!
//! [`Network::evaluate`] sums the first layer afresh from the pieces (a full
//! refresh), for a position met alone. The search keeps the sums along its path
//! instead ([`accumulator`]), for both sides' views, and updates them by the few
//! rows a move changes: the refresh cost most of the node (see `docs/learning.md`
//! for both measurements). The bounds that [`Network::check`] enforces make every
//! sum fit its integer type, so both ways give the same sums, and the same score.

pub mod accumulator;
#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod file;
pub mod pairs;
pub mod pieces;

pub use pieces::Pieces;

use kroon_rules::board::{Position, Side};
use pairs::{pair_inputs, PAIRS, PAIR_FEATURES};

/// Squares on the board, and inputs per kind of piece.
pub const SQUARES: usize = 50;
/// Inputs: own men, own kings, their men, their kings, on each square.
pub const FEATURES: usize = 4 * SQUARES;
/// Width of the second layer: 16, where it was 32 until the networks of round 13
/// (as good at equal nodes, and 1.15x the node rate: `docs/learning.md`).
pub const SECOND: usize = 16;
/// The widest first layer a network may have.
pub const MAX_HIDDEN: usize = 512;
/// The input weight sets of a bucketed network: see [`bucket`].
pub const BUCKETS: usize = 8;
/// A bucketed network's endgame buckets hold positions of this many pieces or fewer.
pub const ENDGAME_PIECES: u32 = 20;
/// The most views a network may sum: the side to move's, and the other side's.
pub const MAX_VIEWS: usize = 2;
/// The first layer's width must be a multiple of this (whole vector registers).
pub const HIDDEN_STEP: usize = 16;
/// The integer that stands for 1.0 in an activation (and in the first layer's
/// weights and biases).
pub const ACTIVATION: i32 = 127;
/// The second layer's weights are stored times this (a power of two: a shift).
pub const DENSE_SCALE: i32 = 1 << DENSE_SHIFT;
const DENSE_SHIFT: u32 = 9;
/// The output layer's weights are stored times this.
pub const OUTPUT_SCALE: i32 = 512;
/// The most pieces a position holds: the accumulator's bound is set by it.
const MAX_PIECES: i32 = 40;
/// The largest first-layer weight or bias: 41 of them still fit an `i16`.
pub const INPUT_BOUND: i32 = i16::MAX as i32 / (MAX_PIECES + 1);
/// With pair inputs a position sums up to 40 piece rows, a bias and 81 pair
/// rows: the piece weights and biases stay within this, the pairs' within
/// [`PAIR_BOUND`], so that the sum fits an `i16`.
pub const PAIRED_INPUT_BOUND: i32 = 500;
/// The largest pair input weight (see [`PAIRED_INPUT_BOUND`]).
pub const PAIR_BOUND: i32 = 127;
const _: () =
    assert!(PAIRED_INPUT_BOUND * (MAX_PIECES + 1) + PAIR_BOUND * PAIRS as i32 <= i16::MAX as i32);
/// The largest second-layer or output bias: with the largest products they still
/// fit an `i32`.
pub const BIAS_BOUND: i32 = 1 << 24;
/// Scores are kept within this many hundredths of a man, well inside the search's
/// band of won scores.
pub const SCORE_BOUND: i32 = 5000;

/// The quantised network, as its file holds it and the evaluation uses it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Width of the first layer: a multiple of [`HIDDEN_STEP`] up to [`MAX_HIDDEN`].
    pub hidden: usize,
    /// The views whose sums the second layer reads: 1 (the side to move's) or 2
    /// (then the other side's too, from the same input weights).
    pub views: usize,
    /// The input weight sets: 1, or [`BUCKETS`] (one for each [`bucket`]).
    pub buckets: usize,
    /// The first layer's clipped units are squared (see the module's documentation).
    pub squared: bool,
    /// The first layer sums pair inputs too ([`pairs`]).
    pub pairs: bool,
    /// Feature `f`'s weights at `f * hidden ..` (in bucket `b`, feature
    /// `FEATURES * b + f`'s; pair input `i`'s, with pairs, at input
    /// [`Network::first_pair`] + `i`), times [`ACTIVATION`].
    pub input: Vec<i16>,
    /// Times [`ACTIVATION`].
    pub input_bias: Vec<i16>,
    /// Second-layer unit `o`'s weights at `o * views * hidden ..` (the side to
    /// move's view first), times [`DENSE_SCALE`].
    pub dense: Vec<i16>,
    /// Times `ACTIVATION * DENSE_SCALE`.
    pub dense_bias: [i32; SECOND],
    /// Times [`OUTPUT_SCALE`].
    pub output: [i16; SECOND],
    /// Times `ACTIVATION * OUTPUT_SCALE`.
    pub output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network {{ hidden: {}, views: {}, buckets: {}, squared: {}, pairs: {}, .. }}",
            self.hidden, self.views, self.buckets, self.squared, self.pairs
        )
    }
}

/// The bucket of `pieces` as `view` sees it (as if it were to move), 0 to
/// [`BUCKETS`] - 1: 1 if its side has a king, plus 2 if the other side has one,
/// plus 4 with [`ENDGAME_PIECES`] or fewer on the board. Kings change the game
/// (the losses to Scan 2.0 were long games with kings), and so does the endgame:
/// the pieces get weights of their own in each.
#[must_use]
#[inline(always)]
pub fn bucket(pieces: Pieces, view: Side) -> usize {
    let (own, theirs) = match view {
        Side::White => (pieces.white, pieces.black),
        Side::Black => (pieces.black, pieces.white),
    };
    usize::from(own & pieces.kings != 0)
        + 2 * usize::from(theirs & pieces.kings != 0)
        + 4 * usize::from((pieces.white | pieces.black).count_ones() <= ENDGAME_PIECES)
}

/// Calls `each` with the input of every piece on the board, seen from the side to
/// move (see the module's documentation), bucket aside: feature `f` of a bucketed
/// network's bucket `b` is `FEATURES * b + f`.
#[inline]
pub fn features(pos: &Position, each: impl FnMut(usize)) {
    features_seen_by(pos, pos.side_to_move(), each);
}

/// Calls `each` with the input of every piece on the board as `view` sees it (as
/// if it were to move): the side to move's are [`features`], the other side's
/// are what a network of two views reads second.
#[inline]
pub fn features_seen_by(pos: &Position, view: Side, each: impl FnMut(usize)) {
    inputs(Pieces::of(pos).kinds(), view, each);
}

/// Calls `each` with the input, as `view` sees it, of every piece of `kinds` (as
/// [`Pieces::kinds`] gives them). Black sees the board turned half a turn
/// (square n as 51 - n) and its own pieces as the first two kinds: each piece is
/// mapped by itself, where turning four whole boards (`reverse_bits`, about 20
/// instructions each without a single instruction for it) cost more than the
/// two to five pieces a move changes.
#[inline(always)]
pub fn inputs(kinds: [u64; 4], view: Side, mut each: impl FnMut(usize)) {
    let black = view == Side::Black;
    pieces(kinds, |kind, square| each(input(kind, square, black)));
}

/// Calls `each` with the input of every piece of `kinds` as White sees it and as
/// Black does: [`inputs`] for both views in one walk over the pieces.
#[inline(always)]
pub fn inputs_both(kinds: [u64; 4], mut each: impl FnMut(usize, usize)) {
    pieces(kinds, |kind, square| {
        each(input(kind, square, false), input(kind, square, true));
    });
}

/// Calls `each` with the kind and the square (0-49, White's numbering less one)
/// of every piece of `kinds`.
#[inline(always)]
fn pieces(kinds: [u64; 4], mut each: impl FnMut(usize, usize)) {
    for (kind, mut bits) in kinds.into_iter().enumerate() {
        while bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // One ghost bit after every ten squares.
            each(kind, bit - bit / 11);
        }
    }
}

/// The input of a piece of `kind` on `square` (as [`pieces`] gives them), seen by
/// Black if `black`, else by White: Black's own and their kinds trade places
/// (0 <-> 2, 1 <-> 3) and its board is turned half a turn.
#[inline(always)]
fn input(kind: usize, square: usize, black: bool) -> usize {
    if black {
        (kind ^ 2) * SQUARES + SQUARES - 1 - square
    } else {
        kind * SQUARES + square
    }
}

impl Network {
    /// Whether the sizes agree and every weight is within the bounds that keep the
    /// integer sums exact; the error says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let h = self.hidden;
        if h == 0 || h > MAX_HIDDEN || !h.is_multiple_of(HIDDEN_STEP) {
            return Err(format!(
                "a first layer of {h}; this Kroon takes a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
            ));
        }
        if !(1..=MAX_VIEWS).contains(&self.views) {
            return Err(format!(
                "{} views; this Kroon takes 1 or {MAX_VIEWS}",
                self.views
            ));
        }
        if self.buckets != 1 && self.buckets != BUCKETS {
            return Err(format!(
                "{} buckets; this Kroon takes 1 or {BUCKETS}",
                self.buckets
            ));
        }
        if self.input.len() != self.inputs() * h
            || self.input_bias.len() != h
            || self.dense.len() != SECOND * self.views * h
        {
            return Err("layer sizes disagree with the first layer's width".into());
        }
        let (pieces, pairs) = self.input.split_at(FEATURES * self.buckets * h);
        let bound = if self.pairs {
            PAIRED_INPUT_BOUND
        } else {
            INPUT_BOUND
        };
        let first = pieces.iter().chain(&self.input_bias);
        if first.map(|&w| i32::from(w).abs()).max() > Some(bound) {
            return Err(format!(
                "a first-layer weight beyond {bound}: the sums could overflow"
            ));
        }
        if pairs.iter().map(|&w| i32::from(w).abs()).max() > Some(PAIR_BOUND) {
            return Err(format!(
                "a pair input weight beyond {PAIR_BOUND}: the sums could overflow"
            ));
        }
        let biases = self.dense_bias.iter().chain([&self.output_bias]);
        if biases.map(|&b| b.abs()).max() > Some(BIAS_BOUND) {
            return Err(format!("a bias beyond {BIAS_BOUND}"));
        }
        Ok(())
    }

    /// The score of a quiet position from the side to move's view, in hundredths
    /// of a man, its first layer summed afresh (a full refresh).
    #[must_use]
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let h = self.hidden;
        let (mut own, mut theirs) = ([0i16; MAX_HIDDEN], [0i16; MAX_HIDDEN]);
        let view = pos.side_to_move();
        self.refresh(Pieces::of(pos), view, &mut own[..h]);
        if self.views == 2 {
            self.refresh(Pieces::of(pos), view.opponent(), &mut theirs[..h]);
        }
        self.output(&own[..h], &theirs[..h])
    }

    /// Sets `sums` (the first layer's width) to the first layer's sums of `pieces`
    /// seen by `view`: the bias plus the rows of every piece (in their bucket).
    #[inline(always)]
    pub fn refresh(&self, pieces: Pieces, view: Side, sums: &mut [i16]) {
        sums.copy_from_slice(&self.input_bias);
        let first = self.first_input(pieces, view);
        inputs(pieces.kinds(), view, |f| add_row(sums, self.row(first + f)));
        if self.pairs {
            let first = self.first_pair();
            pair_inputs(pieces, view, |f| add_row(sums, self.row(first + f)));
        }
    }

    /// The inputs whose weights [`Network::input`] holds: the pieces' in each
    /// bucket, then the pairs'.
    #[must_use]
    pub const fn inputs(&self) -> usize {
        FEATURES * self.buckets + if self.pairs { PAIR_FEATURES } else { 0 }
    }

    /// The input of pair input 0 (see [`pairs`]).
    #[inline(always)]
    #[must_use]
    pub const fn first_pair(&self) -> usize {
        FEATURES * self.buckets
    }

    /// The input of feature 0 in the bucket of `pieces` seen by `view`: 0 unless
    /// the network is bucketed.
    #[inline(always)]
    pub fn first_input(&self, pieces: Pieces, view: Side) -> usize {
        if self.buckets == 1 {
            0
        } else {
            FEATURES * bucket(pieces, view)
        }
    }

    /// Input `f`'s weights: what its piece adds to the first layer's sums.
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.input[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The score, in hundredths of a man, of the position whose first layer's sums
    /// seen by the side to move are `own` and by the other side `theirs` (read
    /// only by a network of two views): the layers after the first.
    #[must_use]
    #[inline]
    pub fn output(&self, own: &[i16], theirs: &[i16]) -> i32 {
        self.score(self.second_layer(own, theirs))
    }

    /// The second layer's units, each clipped to `0..=ACTIVATION`: the
    /// [`SECOND`] dot products of the clipped first layer (of each view), in AVX2
    /// where the processor has it (`avx2.rs`: the same sums, wider).
    #[inline]
    fn second_layer(&self, own: &[i16], theirs: &[i16]) -> [i32; SECOND] {
        // The clipped units live on the stack, which Rust zeroes first: a buffer
        // for the widest network allowed (2 KiB) cost 3.6% of a bench's time in
        // `memset` alone, so the networks in use (up to 256 units over both
        // views, or up to 512 for the wider ones) get one of their own size.
        let h = self.views * self.hidden;
        if h <= SMALL_LAYER {
            self.second_layer_in::<SMALL_LAYER>(own, theirs)
        } else if h <= MIDDLE_LAYER {
            self.second_layer_in::<MIDDLE_LAYER>(own, theirs)
        } else {
            self.second_layer_in::<{ MAX_VIEWS * MAX_HIDDEN }>(own, theirs)
        }
    }

    /// [`Self::second_layer`] with a scratch buffer of `N` units (at least the
    /// views times the first layer's width).
    #[inline(always)]
    fn second_layer_in<const N: usize>(&self, own: &[i16], theirs: &[i16]) -> [i32; SECOND] {
        let h = self.views * self.hidden;
        let mut clipped = [0i16; N];
        let clipped = &mut clipped[..h];
        for (part, sums) in clipped.chunks_exact_mut(self.hidden).zip([own, theirs]) {
            // Block by block, as the rows are added: the compiler keeps each block
            // in a vector register.
            for (c, s) in part.chunks_exact_mut(LANES).zip(sums.chunks_exact(LANES)) {
                let (c, s) = (lanes_mut(c), lanes(s));
                for j in 0..LANES {
                    // max and min, not `clamp`: from b792aec on (a change to
                    // the trainer alone; under fat LTO the choice is the whole
                    // program's) the compiler made `clamp` a compare and move a
                    // unit, a fifth of a node; these are one vector instruction
                    // each whatever the code around them.
                    c[j] = s[j].max(0).min(ACTIVATION as i16);
                }
            }
        }
        if self.squared {
            // 127 * 127 + 64 fits an i16: no widening.
            for c in clipped.iter_mut() {
                *c = (*c * *c + SQUARE_ROUNDING) >> SQUARE_SHIFT;
            }
        }
        let mut dots = [0i32; SECOND];
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            avx2::dot_rows(clipped, &self.dense, &mut dots);
            return std::array::from_fn(|o| self.unit(o, dots[o]));
        }
        for (o, d) in dots.iter_mut().enumerate() {
            *d = dot(clipped, &self.dense[o * h..(o + 1) * h]);
        }
        std::array::from_fn(|o| self.unit(o, dots[o]))
    }

    /// Second-layer unit `o` from its dot product: bias, scale and clip.
    #[inline(always)]
    fn unit(&self, o: usize, dot: i32) -> i32 {
        // Rounded to the nearest: a plain shift would lower every unit by half a step.
        let z = dot + self.dense_bias[o] + (DENSE_SCALE >> 1);
        (z >> DENSE_SHIFT).clamp(0, ACTIVATION)
    }

    /// The output layer: the score of the second layer's units, in hundredths.
    #[inline]
    fn score(&self, second: [i32; SECOND]) -> i32 {
        let out: i32 = second
            .iter()
            .zip(&self.output)
            .map(|(&a, &w)| a * i32::from(w))
            .sum::<i32>()
            + self.output_bias;
        let hundredths = i64::from(out) * 100 / i64::from(ACTIVATION * OUTPUT_SCALE);
        hundredths.clamp(-i64::from(SCORE_BOUND), i64::from(SCORE_BOUND)) as i32
    }
}

/// Adds a row of input weights to the first layer's sums.
#[inline(always)]
fn add_row(sums: &mut [i16], row: &[i16]) {
    for (s, w) in sums.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
        let (s, w) = (lanes_mut(s), lanes(w));
        for j in 0..LANES {
            // Wrapping is the plain add the vector units do; check() bounds the
            // weights so that it never wraps.
            s[j] = s[j].wrapping_add(w[j]);
        }
    }
}

/// A squared unit `c * c` (up to `ACTIVATION` squared) is brought back to the
/// activations' range by this shift, rounded: a shift, where a division by
/// `ACTIVATION` would cost a multiplication more, so the integer unit is 127/128
/// of the float one (the trainer's quantisation scales the second layer up by
/// as much).
pub const SQUARE_SHIFT: u32 = 7;
const SQUARE_ROUNDING: i16 = 1 << (SQUARE_SHIFT - 1);

/// Values a loop handles at once: fixed-size blocks the compiler keeps in vector
/// registers (the dot product alone, as a plain loop over the slices, was widened
/// four values at a time and ran four times slower: see `docs/learning.md`).
const LANES: usize = HIDDEN_STEP;
/// The widest second-layer input (views times units) of the small scratch buffer.
const SMALL_LAYER: usize = 256;
/// The same for the middle one: two views of up to 256 units.
const MIDDLE_LAYER: usize = 512;

fn lanes(block: &[i16]) -> &[i16; LANES] {
    block.try_into().expect("a whole block")
}

fn lanes_mut(block: &mut [i16]) -> &mut [i16; LANES] {
    block.try_into().expect("a whole block")
}

/// The dot product of activations and weights, with one running sum per lane so
/// that the compiler uses the vector multiply-add of pairs (`pmaddwd`).
#[inline]
fn dot(a: &[i16], w: &[i16]) -> i32 {
    let mut sums = [0i32; LANES];
    for (a, w) in a.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        let (a, w) = (lanes(a), lanes(w));
        for j in 0..LANES {
            sums[j] += i32::from(a[j]) * i32::from(w[j]);
        }
    }
    sums.iter().sum()
}

/// What tests of the network share (the trainer's too): a network with every
/// weight set to something.
pub mod testing {
    use super::{Network, BUCKETS, FEATURES, INPUT_BOUND, PAIRED_INPUT_BOUND, PAIR_BOUND, SECOND};
    use crate::eval::network::pairs::PAIR_FEATURES;

    /// A network of `hidden` units whose weights come from a seeded generator.
    #[must_use]
    pub fn busy_network(seed: u64, hidden: usize) -> Network {
        busy_network_of_views(seed, hidden, 1)
    }

    /// [`busy_network`] of `views` views.
    #[must_use]
    pub fn busy_network_of_views(seed: u64, hidden: usize, views: usize) -> Network {
        busy_bucketed_network(seed, hidden, views, 1)
    }

    /// [`busy_bucketed_network`] with squared activations.
    #[must_use]
    pub fn busy_squared_network(seed: u64, hidden: usize, views: usize, buckets: usize) -> Network {
        Network {
            squared: true,
            ..busy_bucketed_network(seed, hidden, views, buckets)
        }
    }

    /// [`busy_bucketed_network`] with pair inputs: every weight within the
    /// bounds of a network with pairs, the pairs' large enough to move scores.
    #[must_use]
    pub fn busy_paired_network(seed: u64, hidden: usize, views: usize, buckets: usize) -> Network {
        let mut net = busy_bucketed_network(seed, hidden, views, buckets);
        let scale = |w: &mut i16, bound: i32| {
            *w = (i32::from(*w) * bound / INPUT_BOUND) as i16;
        };
        for w in net.input.iter_mut().chain(&mut net.input_bias) {
            scale(w, PAIRED_INPUT_BOUND);
        }
        // The busy weights span a quarter of the bound (the biases up to a half):
        // pairs the same way within theirs.
        let pairs = busy_bucketed_network(seed ^ 0x9a1f, hidden, 1, 1);
        let mut rows = pairs.input.iter().cycle().step_by(7);
        net.input.extend((0..PAIR_FEATURES * hidden).map(|_| {
            let mut w = *rows.next().expect("cycled");
            scale(&mut w, PAIR_BOUND);
            w
        }));
        net.pairs = true;
        net
    }

    /// [`busy_network_of_views`] with `buckets` input weight sets (1 or
    /// [`BUCKETS`]), each drawn on its own.
    #[must_use]
    pub fn busy_bucketed_network(
        seed: u64,
        hidden: usize,
        views: usize,
        buckets: usize,
    ) -> Network {
        assert!(buckets == 1 || buckets == BUCKETS);
        let mut state = seed;
        let mut next = move |range: i32| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % (2 * range as u64 + 1)) as i32 - range
        };
        let small = INPUT_BOUND / 4;
        Network {
            hidden,
            views,
            buckets,
            squared: false,
            pairs: false,
            input: (0..FEATURES * buckets * hidden)
                .map(|_| next(small) as i16)
                .collect(),
            input_bias: (0..hidden).map(|_| (next(small) + small) as i16).collect(),
            dense: (0..SECOND * views * hidden)
                .map(|_| next(300) as i16)
                .collect(),
            dense_bias: std::array::from_fn(|_| next(20_000)),
            output: std::array::from_fn(|_| next(600) as i16),
            output_bias: next(20_000),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{flip, testing::random_positions};

    #[test]
    fn inputs_name_each_piece_once_from_the_side_to_move() {
        let pos: Position = "B:W31,K12:B20,K45".parse().unwrap();
        let mut seen = Vec::new();
        features(&pos, |f| seen.push(f));
        seen.sort_unstable();
        // Black to move: its man on 20 is on square 31 as White sees it, its king on
        // 45 on 6; White's man on 31 is on 20 and its king on 12 on 39.
        assert_eq!(
            seen,
            vec![30, SQUARES + 5, 2 * SQUARES + 19, 3 * SQUARES + 38]
        );
    }

    #[test]
    fn a_flipped_position_scores_the_same() {
        for (views, buckets) in [(1, 1), (2, 1), (1, BUCKETS), (2, BUCKETS)] {
            let clipped = testing::busy_bucketed_network(3, 64, views, buckets);
            let squared = testing::busy_squared_network(3, 64, views, buckets);
            let paired = testing::busy_paired_network(3, 64, views, buckets);
            let mut differ = 0;
            for net in [&clipped, &squared, &paired] {
                net.check().unwrap();
                let mut spread = std::collections::BTreeSet::new();
                for p in random_positions(11, 20, 160) {
                    let score = net.evaluate(&p);
                    assert_eq!(score, net.evaluate(&flip(&p)), "{}", p.to_fen());
                    spread.insert(score);
                    differ += usize::from(clipped.evaluate(&p) != squared.evaluate(&p));
                }
                assert!(spread.len() > 20, "the test network says something");
            }
            assert!(differ > 100, "squaring changes the scores");
        }
    }

    #[test]
    fn buckets_tell_kings_and_the_endgame_apart() {
        let bucket_of = |fen: &str, view| bucket(Pieces::of(&fen.parse().unwrap()), view);
        let opening = Position::initial().to_fen();
        assert_eq!(bucket_of(&opening, Side::White), 0);
        // White has a king: White's own, Black's theirs.
        let king = "W:WK3,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B11,12,13,14,15,16,17,18,19,20";
        assert_eq!(bucket_of(king, Side::White), 1);
        assert_eq!(bucket_of(king, Side::Black), 2);
        // 21 pieces, then 20: the endgame's buckets, whoever is to move.
        let late = "W:WK3,31,32,33,34,35,36,37,38,39,40:B11,12,13,14,15,16,17,18,19,20";
        assert_eq!(bucket_of(late, Side::White), 1);
        let endgame = "B:WK3,31,32,33,34,35,36,37,38,39:BK11,12,13,14,15,16,17,18,19,20";
        assert_eq!(bucket_of(endgame, Side::White), 7);
        assert_eq!(bucket_of(endgame, Side::Black), 7);
        let black = "B:W31,32:BK11,12";
        assert_eq!(bucket_of(black, Side::White), 6);
        assert_eq!(bucket_of(black, Side::Black), 5);
        // A bucketed network reads each bucket's own weights: the same pieces
        // score differently once a king stands among them.
        let net = testing::busy_bucketed_network(4, 32, 2, BUCKETS);
        net.check().unwrap();
        let mut flat = net.clone();
        flat.buckets = 1;
        flat.input.truncate(FEATURES * 32);
        let pos: Position = king.parse().unwrap();
        assert_ne!(net.evaluate(&pos), flat.evaluate(&pos));
        assert_eq!(
            net.evaluate(&Position::initial()),
            flat.evaluate(&Position::initial())
        );
    }

    #[test]
    fn the_second_view_is_the_other_side_seeing_the_board() {
        // A two-view network whose second layer reads only the other side's view
        // scores a position as a one-view network scores the same pieces with the
        // other side to move.
        let two = testing::busy_network_of_views(12, 32, 2);
        let mut one = testing::busy_network(12, 32);
        one.input.clone_from(&two.input);
        one.input_bias.clone_from(&two.input_bias);
        let mut blind = two.clone();
        for o in 0..SECOND {
            let row = &mut blind.dense[o * 64..(o + 1) * 64];
            one.dense[o * 32..(o + 1) * 32].copy_from_slice(&row[32..]);
            row[..32].fill(0);
        }
        one.dense_bias = two.dense_bias;
        one.output = two.output;
        one.output_bias = two.output_bias;
        let mut differ = 0;
        for p in random_positions(12, 20, 160) {
            let other: Position = format!(
                "{}{}",
                if p.side_to_move() == Side::White {
                    "B"
                } else {
                    "W"
                },
                &p.to_fen()[1..]
            )
            .parse()
            .unwrap();
            assert_eq!(blind.evaluate(&p), one.evaluate(&other), "{}", p.to_fen());
            differ += usize::from(two.evaluate(&p) != blind.evaluate(&p));
        }
        assert!(
            differ > 100,
            "the side to move's view counts too ({differ})"
        );
    }

    #[test]
    fn the_scratch_buffer_changes_no_unit() {
        // Networks up to SMALL_LAYER inputs to the second layer take the small
        // buffer, wider ones the widest: both give the same units, and the widest
        // network allowed is still scored (colour symmetry, as above).
        for (hidden, views) in [(128, 1), (128, 2), (256, 1)] {
            let net = testing::busy_network_of_views(5, hidden, views);
            for p in random_positions(5, 10, 80) {
                let (mut own, mut theirs) = (vec![0; hidden], vec![0; hidden]);
                net.refresh(Pieces::of(&p), p.side_to_move(), &mut own);
                net.refresh(Pieces::of(&p), p.side_to_move().opponent(), &mut theirs);
                assert_eq!(
                    net.second_layer_in::<SMALL_LAYER>(&own, &theirs),
                    net.second_layer_in::<{ MAX_VIEWS * MAX_HIDDEN }>(&own, &theirs),
                    "{hidden} units, {views} views"
                );
            }
        }
        let widest = testing::busy_network_of_views(6, MAX_HIDDEN, MAX_VIEWS);
        widest.check().unwrap();
        for p in random_positions(6, 10, 40) {
            assert_eq!(widest.evaluate(&p), widest.evaluate(&flip(&p)));
        }
    }

    /// `cargo test -p kroon-engine --release network_speed -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, not a check"]
    fn network_speed() {
        let positions = random_positions(1, 100, 120);
        let net = testing::busy_network(1, 128);
        let learned = crate::eval::Evaluator::from_name("learned").unwrap();
        for _ in 0..3 {
            let time = |f: &dyn Fn(&Position) -> i32| {
                let start = std::time::Instant::now();
                let mut sum = 0i64;
                for _ in 0..20 {
                    for p in &positions {
                        sum += i64::from(f(std::hint::black_box(p)));
                    }
                }
                let ns = start.elapsed().as_nanos() as f64 / (20 * positions.len()) as f64;
                (ns, sum)
            };
            let (network, _) = time(&|p| net.evaluate(p));
            let (patterns, _) = time(&|p| learned.evaluate(p));
            println!("network {network:.0} ns, patterns {patterns:.0} ns an evaluation");
        }
    }

    #[test]
    fn the_bounds_are_checked() {
        let mut net = testing::busy_network(4, 32);
        net.input[7] = (INPUT_BOUND + 1) as i16;
        assert!(net.check().unwrap_err().contains("first-layer"));
        let mut net = testing::busy_network(4, 32);
        net.hidden = 24;
        assert!(net.check().unwrap_err().contains("multiple"));
        let mut net = testing::busy_network(4, 32);
        net.views = 3;
        assert!(net.check().unwrap_err().contains("3 views"));
        net.views = 2;
        assert!(net.check().unwrap_err().contains("sizes disagree"));
        let mut net = testing::busy_network(4, 32);
        net.buckets = 3;
        assert!(net.check().unwrap_err().contains("3 buckets"));
        net.buckets = BUCKETS;
        assert!(net.check().unwrap_err().contains("sizes disagree"));
        // With pairs, tighter bounds: what a network without them may hold is
        // refused, and so is a pair weight past its own.
        let mut net = testing::busy_paired_network(4, 32, 2, BUCKETS);
        net.check().unwrap();
        net.input[7] = (PAIRED_INPUT_BOUND + 1) as i16;
        assert!(net.check().unwrap_err().contains("first-layer"));
        let mut net = testing::busy_paired_network(4, 32, 2, BUCKETS);
        let last = net.input.len() - 1;
        net.input[last] = (PAIR_BOUND + 1) as i16;
        assert!(net.check().unwrap_err().contains("pair input"));
        net.input.pop();
        assert!(net.check().unwrap_err().contains("sizes disagree"));
    }

    #[test]
    fn pair_inputs_add_to_what_the_pieces_say() {
        // Pair weights of zero score as no pairs at all (the busy networks'
        // piece weights are within the tighter bound already)...
        let plain = testing::busy_bucketed_network(5, 32, 2, BUCKETS);
        let mut zero = plain.clone();
        zero.pairs = true;
        zero.input.resize(zero.inputs() * 32, 0);
        zero.check().unwrap();
        for p in random_positions(7, 20, 80) {
            assert_eq!(zero.evaluate(&p), plain.evaluate(&p));
        }
        // ...and pair weights move the scores.
        let paired = testing::busy_paired_network(5, 32, 2, BUCKETS);
        let mut without = paired.clone();
        without.pairs = false;
        without.input.truncate(FEATURES * BUCKETS * 32);
        let differ = random_positions(8, 20, 80)
            .iter()
            .filter(|p| paired.evaluate(p) != without.evaluate(p))
            .count();
        assert!(differ > 15, "pairs move the score ({differ} of 20)");
    }
}
