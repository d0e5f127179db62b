//! The network in floating point, as the trainer fits it: the same layers as
//! [`crate::eval::network`] with activations clipped to `0..=1` and the output in
//! men, its gradient by hand, and its quantisation to the integer network.
//!
//! A position's inputs come as one list per view (the side to move's, then, for
//! a network of two views, the other side's): the same input weights sum each.
//!
//! A bucketed network (see [`crate::eval::network::bucket`]) is fitted factorised,
//! as chess's trainers fit their king buckets: a piece's input weights are the
//! sum of weights shared by every bucket and its bucket's own. The shared ones
//! learn from every position, so a bucket seen less often (kings on both sides in
//! the endgame) starts from what all positions teach and learns only how it
//! differs; the integer network holds each bucket's sum.
//!
//! A network with pair inputs ([`crate::eval::network::pairs`]) has their
//! weights after the pieces' (one set for all buckets), and the pairs of each view
//! in its lists after its pieces.

use crate::eval::network::pairs::PAIR_FEATURES;
use crate::eval::network::{
    Network, ACTIVATION, BIAS_BOUND, DENSE_SCALE, FEATURES, INPUT_BOUND, OUTPUT_SCALE,
    PAIRED_INPUT_BOUND, PAIR_BOUND, SECOND, SQUARE_SHIFT,
};

/// The largest first-layer weight or bias in float, so that it quantises within
/// the integer network's bound.
pub const INPUT_LIMIT: f32 = INPUT_BOUND as f32 / ACTIVATION as f32;
/// The same for the pieces' weights and the biases of a network with pairs.
const PAIRED_INPUT_LIMIT: f32 = PAIRED_INPUT_BOUND as f32 / ACTIVATION as f32;
/// The same for the pairs' weights.
const PAIR_LIMIT: f32 = PAIR_BOUND as f32 / ACTIVATION as f32;

/// The parameters, one flat vector (for Adam), laid out as the integer network's
/// file: input weights (for a bucketed network the shared ones, then each
/// bucket's own), input biases, second-layer weights, their biases, output
/// weights, output bias.
pub struct FloatNetwork {
    pub hidden: usize,
    /// 1 or 2, as [`Network::views`].
    pub views: usize,
    /// 1 or [`crate::eval::network::BUCKETS`], as [`Network::buckets`].
    pub buckets: usize,
    /// The clipped first-layer units are squared, as [`Network::squared`].
    pub squared: bool,
    /// Pair inputs, as [`Network::pairs`].
    pub pairs: bool,
    pub params: Vec<f32>,
}

/// What the second layer's integer weights are stored larger by, beyond
/// [`DENSE_SCALE`]: a squared unit of the integer network is worth 127/128 of the
/// float one's (see [`SQUARE_SHIFT`]), a clipped unit the same.
fn dense_unit(squared: bool) -> f32 {
    if squared {
        (1 << SQUARE_SHIFT) as f32 / ACTIVATION as f32
    } else {
        1.0
    }
}

/// The float network's piece inputs: the features, and for a bucketed network
/// each bucket's copy of them after (bucket `b`'s feature `f` is `FEATURES * (1 +
/// b) + f`). The pair inputs, if any, follow: pair input `i` is `float_inputs(buckets)
/// + i`.
pub const fn float_inputs(buckets: usize) -> usize {
    if buckets == 1 {
        FEATURES
    } else {
        FEATURES * (1 + buckets)
    }
}

/// All the float network's inputs, the pairs' too.
const fn all_inputs(buckets: usize, pairs: bool) -> usize {
    float_inputs(buckets) + if pairs { PAIR_FEATURES } else { 0 }
}

/// Where each layer starts in the flat vector.
#[derive(Clone, Copy)]
struct Offsets {
    input_bias: usize,
    dense: usize,
    dense_bias: usize,
    output: usize,
    output_bias: usize,
    end: usize,
}

impl Offsets {
    const fn new(h: usize, views: usize, buckets: usize, pairs: bool) -> Offsets {
        let input_bias = all_inputs(buckets, pairs) * h;
        let dense = input_bias + h;
        let dense_bias = dense + SECOND * views * h;
        let output = dense_bias + SECOND;
        let output_bias = output + SECOND;
        Offsets {
            input_bias,
            dense,
            dense_bias,
            output,
            output_bias,
            end: output_bias + 1,
        }
    }
}

/// One thread's activations, kept between the forward and the backward pass.
pub struct Scratch {
    /// The first layer of each view, one after the other.
    first: Vec<f32>,
    second: [f32; SECOND],
    /// The first layer's gradient, laid out as `first`.
    back: Vec<f32>,
}

impl Scratch {
    #[must_use]
    pub fn new(hidden: usize, views: usize) -> Scratch {
        Scratch {
            first: vec![0.0; views * hidden],
            second: [0.0; SECOND],
            back: vec![0.0; views * hidden],
        }
    }
}

/// Sets `rows` (the pair inputs' rows of a float network of `wide` units) to
/// `net`'s pair weights: its units first, the new ones at zero. Nothing when `net`
/// has no pairs.
fn copy_pair_rows(net: &Network, rows: &mut [f32], wide: usize) {
    let h = net.hidden;
    for (i, row) in rows.chunks_exact_mut(wide).enumerate() {
        let old = &net.input[(net.first_pair() + i) * h..][..h];
        for (p, &w) in row.iter_mut().zip(old) {
            *p = w as f32 / ACTIVATION as f32;
        }
    }
}

/// A uniform number in [-1, 1) from a generator state.
fn uniform(state: &mut u64) -> f32 {
    *state = super::super::fitting::splitmix(*state);
    (*state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

impl FloatNetwork {
    /// Parameters in a flat vector of this length.
    #[must_use]
    pub const fn size(hidden: usize, views: usize, buckets: usize, pairs: bool) -> usize {
        Offsets::new(hidden, views, buckets, pairs).end
    }

    fn offsets(&self) -> Offsets {
        Offsets::new(self.hidden, self.views, self.buckets, self.pairs)
    }

    /// Random weights of a scale that keeps the units of both layers inside their
    /// clipping range at the start; each bucket's own input weights start at zero
    /// (the shared ones speak for every bucket until the data says otherwise).
    #[must_use]
    pub fn random(hidden: usize, views: usize, buckets: usize, seed: u64) -> FloatNetwork {
        let at = Offsets::new(hidden, views, buckets, false);
        let mut state = seed;
        let mut params = vec![0.0; at.end];
        // About 25 pieces on the board: sums of spread about 0.5 around 0.5.
        for w in &mut params[..FEATURES * hidden] {
            *w = 0.17 * uniform(&mut state);
        }
        params[at.input_bias..at.dense].fill(0.5);
        let spread = 1.7 / ((views * hidden) as f32).sqrt();
        for w in &mut params[at.dense..at.dense_bias] {
            *w = spread * uniform(&mut state);
        }
        params[at.dense_bias..at.output].fill(0.5);
        for w in &mut params[at.output..at.output_bias] {
            *w = 0.3 * uniform(&mut state);
        }
        FloatNetwork {
            hidden,
            views,
            buckets,
            squared: false,
            pairs: false,
            params,
        }
    }

    /// The same network with pair inputs: a network without them gets their
    /// weights at zero, so it scores every position as before and the pairs learn
    /// what the pieces leave; one with them is kept.
    #[must_use]
    pub fn with_pairs(mut self) -> FloatNetwork {
        if !self.pairs {
            let at = float_inputs(self.buckets) * self.hidden;
            let zeros = std::iter::repeat_n(0.0, PAIR_FEATURES * self.hidden);
            self.params.splice(at..at, zeros);
            self.pairs = true;
        }
        self
    }

    /// The same network with squared activations or clipped ones. Its weights
    /// are kept: a clipped network squared scores otherwise, and learns on from
    /// there.
    #[must_use]
    pub fn with_squared(self, squared: bool) -> FloatNetwork {
        FloatNetwork { squared, ..self }
    }

    /// The float network an integer network stands for, to go on fitting it: each
    /// weight is its quantised value over the scale [`FloatNetwork::quantise`]
    /// multiplied by. It may widen: a network of one view widened to two starts
    /// with the other view's second-layer weights at zero, and a first layer of
    /// more units (`hidden`) keeps the old units first and gives the new ones
    /// small random input weights (from `seed`) and second-layer weights of zero.
    /// Either way it scores every position as before, and the new weights learn
    /// from there. An unbucketed network starts a bucketed one as its shared
    /// weights (each bucket's own at zero); a bucketed one splits each input's
    /// weights into their mean over the buckets (shared) and each bucket's
    /// difference from it. A network with pair inputs starts one with them.
    pub fn from_network(
        net: &Network,
        hidden: usize,
        views: usize,
        buckets: usize,
        seed: u64,
    ) -> Result<FloatNetwork, String> {
        for (what, old, new) in [
            ("buckets", net.buckets, buckets),
            ("views", net.views, views),
            ("units", net.hidden, hidden),
        ] {
            if new < old {
                return Err(format!(
                    "a network of {old} {what} cannot start one of {new}"
                ));
            }
        }
        let (h, wide) = (net.hidden, hidden);
        let mut fresh = FloatNetwork::random(wide, views, buckets, seed);
        if net.pairs {
            fresh = fresh.with_pairs();
        }
        let at = Offsets::new(wide, views, buckets, net.pairs);
        let mut params = fresh.params;
        let over = |v: i32, scale: i32| v as f32 / scale as f32;
        // The first layer, a row of units per input and then the biases: the old
        // units at the front of each row, the new ones as drawn.
        let (pieces, pairs) = params[..at.input_bias].split_at_mut(float_inputs(buckets) * wide);
        copy_pair_rows(net, pairs, wide);
        let (shared, own) = pieces.split_at_mut(FEATURES * wide);
        for (f, row) in shared.chunks_exact_mut(wide).enumerate() {
            for (u, p) in row[..h].iter_mut().enumerate() {
                // The mean over the file's buckets (one for an unbucketed file).
                let sum: i32 = (0..net.buckets)
                    .map(|b| i32::from(net.input[((b * FEATURES) + f) * h + u]))
                    .sum();
                *p = over(sum, ACTIVATION) / net.buckets as f32;
            }
        }
        for (i, row) in own.chunks_exact_mut(wide).enumerate() {
            let (b, f) = (i / FEATURES, i % FEATURES);
            for (u, p) in row.iter_mut().enumerate() {
                *p = if u < h && net.buckets > 1 {
                    let w = over(i32::from(net.input[(b * FEATURES + f) * h + u]), ACTIVATION);
                    w - shared[f * wide + u]
                } else {
                    0.0
                };
            }
        }
        for (p, &w) in params[at.input_bias..at.dense]
            .iter_mut()
            .zip(&net.input_bias)
        {
            *p = over(i32::from(w), ACTIVATION);
        }
        params[at.dense..at.dense_bias].fill(0.0);
        let unit = dense_unit(net.squared);
        for o in 0..SECOND {
            let row = &net.dense[o * net.views * h..(o + 1) * net.views * h];
            let new = &mut params[at.dense + o * views * wide..at.dense + (o + 1) * views * wide];
            for (view, old) in new.chunks_exact_mut(wide).zip(row.chunks_exact(h)) {
                for (p, &w) in view.iter_mut().zip(old) {
                    *p = over(i32::from(w), DENSE_SCALE) / unit;
                }
            }
            params[at.dense_bias + o] = over(net.dense_bias[o], ACTIVATION * DENSE_SCALE);
            params[at.output + o] = over(i32::from(net.output[o]), OUTPUT_SCALE);
        }
        params[at.output_bias] = over(net.output_bias, ACTIVATION * OUTPUT_SCALE);
        Ok(FloatNetwork {
            hidden: wide,
            views,
            buckets,
            squared: net.squared,
            pairs: net.pairs,
            params,
        })
    }

    /// The score of a position with these inputs (a list for each view, see the
    /// module's documentation), in men for the side to move.
    pub fn forward(&self, views: [&[u16]; 2], s: &mut Scratch) -> f32 {
        let h = self.hidden;
        let at = self.offsets();
        let p = &self.params;
        for (first, features) in s.first.chunks_exact_mut(h).zip(views) {
            first.copy_from_slice(&p[at.input_bias..at.dense]);
            for &f in features {
                let row = &p[usize::from(f) * h..(usize::from(f) + 1) * h];
                for (a, &w) in first.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        for a in &mut s.first {
            *a = a.clamp(0.0, 1.0);
            if self.squared {
                *a *= *a;
            }
        }
        let width = self.views * h;
        for (o, out) in s.second.iter_mut().enumerate() {
            let row = &p[at.dense + o * width..at.dense + (o + 1) * width];
            let z: f32 = s.first.iter().zip(row).map(|(&a, &w)| a * w).sum();
            // Unclipped here; backward() needs to know which side of the clip it fell.
            *out = z + p[at.dense_bias + o];
        }
        let mut y = p[at.output_bias];
        for (o, z) in s.second.iter().enumerate() {
            y += z.clamp(0.0, 1.0) * p[at.output + o];
        }
        y
    }

    /// Adds the gradient of a loss to `grad`, given `dy` = d(loss)/d(output) and the
    /// scratch of [`FloatNetwork::forward`] on the same inputs.
    pub fn backward(&self, views: [&[u16]; 2], s: &mut Scratch, dy: f32, grad: &mut [f32]) {
        let h = self.hidden;
        let at = self.offsets();
        let width = self.views * h;
        let p = &self.params;
        grad[at.output_bias] += dy;
        s.back.fill(0.0);
        for (o, &z) in s.second.iter().enumerate() {
            grad[at.output + o] += dy * z.clamp(0.0, 1.0);
            if z <= 0.0 || z >= 1.0 {
                continue;
            }
            let dz = dy * p[at.output + o];
            grad[at.dense_bias + o] += dz;
            let rows = at.dense + o * width..at.dense + (o + 1) * width;
            for ((g, &a), (b, &w)) in grad[rows.clone()]
                .iter_mut()
                .zip(&s.first)
                .zip(s.back.iter_mut().zip(&p[rows]))
            {
                *g += dz * a;
                *b += dz * w;
            }
        }
        // Clipped units pass no gradient: their activation sits at 0 or 1 (squared
        // or not). A squared unit's slope is 2a, a its clipped value.
        for (b, &a) in s.back.iter_mut().zip(&s.first) {
            if a <= 0.0 || a >= 1.0 {
                *b = 0.0;
            } else if self.squared {
                *b *= 2.0 * a.sqrt();
            }
        }
        // Each view sums the same input weights and bias: each adds its share.
        for (back, features) in s.back.chunks_exact(h).zip(views) {
            for (g, &b) in grad[at.input_bias..at.dense].iter_mut().zip(back) {
                *g += b;
            }
            for &f in features {
                let row = usize::from(f) * h..(usize::from(f) + 1) * h;
                for (g, &b) in grad[row].iter_mut().zip(back) {
                    *g += b;
                }
            }
        }
    }

    /// Keeps the first layer within what the integer network can sum.
    pub fn clip(&mut self) {
        let at = self.offsets();
        let pairs_at = float_inputs(self.buckets) * self.hidden;
        let limit = self.input_limit();
        let (inputs, biases) = self.params[..at.dense].split_at_mut(at.input_bias);
        let (pieces, pairs) = inputs.split_at_mut(pairs_at);
        for w in pieces.iter_mut().chain(biases) {
            *w = w.clamp(-limit, limit);
        }
        for w in pairs {
            *w = w.clamp(-PAIR_LIMIT, PAIR_LIMIT);
        }
    }

    /// The largest piece weight or first-layer bias (in float).
    fn input_limit(&self) -> f32 {
        if self.pairs {
            PAIRED_INPUT_LIMIT
        } else {
            INPUT_LIMIT
        }
    }

    /// The integer network the engine plays with.
    #[must_use]
    pub fn quantise(&self) -> Network {
        let h = self.hidden;
        let at = self.offsets();
        let p = &self.params;
        let q = |v: f32, scale: i32, bound: i32| {
            (v * scale as f32)
                .round()
                .clamp(-bound as f32, bound as f32) as i32
        };
        let short = |v: f32, scale: i32, bound: i32| q(v, scale, bound) as i16;
        let max = i32::from(i16::MAX);
        let both = ACTIVATION * DENSE_SCALE;
        // Each bucket's weights are the shared ones plus its own.
        let (pieces, pairs) = p[..at.input_bias].split_at(float_inputs(self.buckets) * h);
        let (shared, own) = pieces.split_at(FEATURES * h);
        let folded: Vec<f32> = if self.buckets == 1 {
            shared.to_vec()
        } else {
            own.chunks_exact(FEATURES * h)
                .flat_map(|bucket| bucket.iter().zip(shared).map(|(&b, &s)| b + s))
                .collect()
        };
        let bound = if self.pairs {
            PAIRED_INPUT_BOUND
        } else {
            INPUT_BOUND
        };
        let unit = dense_unit(self.squared);
        Network {
            hidden: h,
            views: self.views,
            buckets: self.buckets,
            squared: self.squared,
            pairs: self.pairs,
            input: folded
                .iter()
                .map(|&w| short(w, ACTIVATION, bound))
                .chain(pairs.iter().map(|&w| short(w, ACTIVATION, PAIR_BOUND)))
                .collect(),
            input_bias: p[at.input_bias..at.dense]
                .iter()
                .map(|&w| short(w, ACTIVATION, bound))
                .collect(),
            dense: p[at.dense..at.dense_bias]
                .iter()
                .map(|&w| short(w * unit, DENSE_SCALE, max))
                .collect(),
            dense_bias: std::array::from_fn(|o| q(p[at.dense_bias + o], both, BIAS_BOUND)),
            output: std::array::from_fn(|o| short(p[at.output + o], OUTPUT_SCALE, max)),
            output_bias: q(p[at.output_bias], ACTIVATION * OUTPUT_SCALE, BIAS_BOUND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Inputs;
    use super::*;
    use crate::eval::network::testing::{
        busy_bucketed_network, busy_network_of_views, busy_paired_network, busy_squared_network,
    };
    use crate::eval::network::BUCKETS;
    use crate::eval::testing::random_positions;

    #[test]
    fn the_integer_network_plays_what_the_float_one_learned() {
        let cases = [
            (1, 1, false, false),
            (2, 1, false, false),
            (1, BUCKETS, false, false),
            (2, BUCKETS, false, false),
            (2, BUCKETS, true, false),
            (1, 1, true, false),
            (2, BUCKETS, false, true),
            (1, 1, true, true),
        ];
        for (v, buckets, squared, pairs) in cases {
            let mut net = FloatNetwork::random(64, v, buckets, 17).with_squared(squared);
            if pairs {
                net = net.with_pairs();
            }
            // Larger output weights than at the start, as after training: scores
            // of a few men.
            let at = Offsets::new(64, v, buckets, pairs);
            for w in &mut net.params[at.output..at.output_bias] {
                *w *= 3.0;
            }
            // Each bucket's own weights (and the pairs') as after training: the
            // shared ones' order of size, so that the integer network must fold them.
            let mut state = 5;
            for w in &mut net.params[FEATURES * 64..at.input_bias] {
                *w = 0.1 * uniform(&mut state);
            }
            // A pair's weights are smaller: 60-80 pairs hold a piece in a
            // position, where 25-40 pieces stand.
            for w in &mut net.params[float_inputs(buckets) * 64..at.input_bias] {
                *w *= 0.3;
            }
            let quantised = net.quantise();
            quantised.check().unwrap();
            assert_eq!(
                (quantised.views, quantised.buckets, quantised.pairs),
                (v, buckets, pairs)
            );
            let mut s = Scratch::new(64, v);
            let (mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0f32);
            let positions = random_positions(21, 20, 160);
            for p in &positions {
                let float = 100.0 * net.forward(Inputs::of(p, buckets, pairs).views(), &mut s);
                let int = quantised.evaluate(p) as f32;
                worst = worst.max((float - int).abs());
                total += (float - int).abs();
                spread += float.abs();
            }
            let n = positions.len() as f32;
            assert!(spread / n > 50.0, "the test network says something");
            // Each row a unit sums is rounded by up to half a step: with pairs a
            // position sums about 120 rows where it sums 25-40 without, so the
            // rounding's spread is about twice as wide.
            let (mean, most) = if pairs { (4.0, 16.0) } else { (2.0, 8.0) };
            assert!(
                total / n < mean && worst < most,
                "{v} views, {buckets} buckets: mean error {} worst {worst} (hundredths), mean score {}",
                total / n,
                spread / n
            );
        }
    }

    #[test]
    fn a_network_goes_on_from_its_file_and_widens_to_two_views_and_more_units() {
        let positions = random_positions(22, 20, 80);
        let b = BUCKETS;
        for (from, to, wide, buckets) in [
            (1, 1, 32, (1, 1)),
            (1, 2, 32, (1, 1)),
            (2, 2, 32, (1, 1)),
            (1, 2, 48, (1, 1)),
            (2, 2, 64, (1, 1)),
            // Into buckets, and from them.
            (2, 2, 32, (1, b)),
            (2, 2, 32, (b, b)),
            (1, 2, 48, (b, b)),
        ] {
            let net = busy_bucketed_network(9, 32, from, buckets.0);
            let float = FloatNetwork::from_network(&net, wide, to, buckets.1, 3).unwrap();
            assert_eq!(
                (float.hidden, float.views, float.buckets),
                (wide, to, buckets.1)
            );
            if from == to && wide == 32 && buckets.0 == buckets.1 {
                assert!(
                    float.quantise() == net,
                    "{from} views, {buckets:?} buckets: the weights come back"
                );
            }
            let mut s = Scratch::new(wide, to);
            let mut spread = 0.0;
            for p in &positions {
                let inputs = Inputs::of(p, buckets.1, false);
                let score = 100.0 * float.forward(inputs.views(), &mut s);
                let int = net.evaluate(p) as f32;
                spread += int.abs();
                // The integer layers round (mean error about half a hundredth
                // here); one position of the bucketed network's 80 is 2.2 off.
                assert!(
                    (score - int).abs() < 3.0,
                    "{from} -> {to} views, {wide} units, {buckets:?} buckets: float {score}, integer {int}"
                );
            }
            assert!(
                spread / positions.len() as f32 > 20.0,
                "the test network says something: {spread}"
            );
        }
        // A network of squared activations comes back the same, and scores as
        // its integer network does (whose squares round to a 128th of a unit).
        for buckets in [1, b] {
            let net = busy_squared_network(9, 32, 2, buckets);
            let float = FloatNetwork::from_network(&net, 32, 2, buckets, 3).unwrap();
            assert!(float.squared && float.quantise() == net);
            let mut s = Scratch::new(32, 2);
            for p in &positions {
                let score = 100.0 * float.forward(Inputs::of(p, buckets, false).views(), &mut s);
                let int = net.evaluate(p) as f32;
                assert!(
                    (score - int).abs() < 4.0,
                    "squared, {buckets} buckets: float {score}, integer {int}"
                );
            }
        }
        // A network with pairs comes back the same and scores as its integer
        // network, widened too (the new units' pair weights at zero).
        for (buckets, wide) in [(1, 32), (b, 32), (b, 48)] {
            let net = busy_paired_network(9, 32, 2, buckets);
            let float = FloatNetwork::from_network(&net, wide, 2, buckets, 3).unwrap();
            assert!(float.pairs);
            if wide == 32 {
                assert!(float.quantise() == net);
            }
            let mut s = Scratch::new(wide, 2);
            for p in &positions {
                let score = 100.0 * float.forward(Inputs::of(p, buckets, true).views(), &mut s);
                let int = net.evaluate(p) as f32;
                assert!(
                    (score - int).abs() < 3.0,
                    "pairs, {buckets} buckets, {wide} units: float {score}, integer {int}"
                );
            }
        }
        // Pairs added to a network without them change no score.
        let plain =
            FloatNetwork::from_network(&busy_bucketed_network(9, 32, 2, b), 32, 2, b, 3).unwrap();
        let paired = FloatNetwork::from_network(&busy_bucketed_network(9, 32, 2, b), 32, 2, b, 3)
            .unwrap()
            .with_pairs();
        let mut s = Scratch::new(32, 2);
        for p in &positions {
            let before = plain.forward(Inputs::of(p, b, false).views(), &mut s);
            let after = paired.forward(Inputs::of(p, b, true).views(), &mut s);
            assert!((before - after).abs() < 1e-5);
        }
        let two = busy_network_of_views(9, 32, 2);
        assert!(FloatNetwork::from_network(&two, 32, 1, 1, 3).is_err());
        assert!(FloatNetwork::from_network(&two, 16, 2, 1, 3).is_err());
        let bucketed = busy_bucketed_network(9, 32, 2, b);
        assert!(FloatNetwork::from_network(&bucketed, 32, 2, 1, 3).is_err());
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_output() {
        let cases = [
            (1, 1, false, false),
            (2, 1, false, false),
            (2, BUCKETS, false, false),
            (2, BUCKETS, true, false),
            (2, BUCKETS, false, true),
        ];
        for (v, buckets, squared, pairs) in cases {
            let mut net = FloatNetwork::random(32, v, buckets, 5).with_squared(squared);
            if pairs {
                net = net.with_pairs();
            }
            let at = Offsets::new(32, v, buckets, pairs);
            let mut state = 8;
            for w in &mut net.params[FEATURES * 32..at.input_bias] {
                *w = 0.1 * uniform(&mut state);
            }
            let pos = random_positions(3, 1, 30)[25];
            let inputs = Inputs::of(&pos, buckets, pairs);
            let features = inputs.views();
            let mut s = Scratch::new(32, v);
            let mut grad = vec![0.0; net.params.len()];
            net.forward(features, &mut s);
            net.backward(features, &mut s, 1.0, &mut grad);
            let last = features[0].len() - 1;
            let picks = [
                usize::from(features[0][0]) * 32 + 3,
                // A piece's row as the other side sees it: read by the second view.
                usize::from(features[1][0]) * 32 + 11,
                // A bucket's own row (the shared one again when unbucketed; a
                // pair's with pairs).
                usize::from(features[0][last]) * 32 + 6,
                usize::from(features[1][last - 1]) * 32 + 30,
                at.input_bias + 7,
                at.dense + 5 * v * 32 + 9,
                at.dense + 6 * v * 32 + v * 32 - 1,
                at.dense_bias + 2,
                at.output + 4,
                at.output_bias,
            ];
            for i in picks {
                let mut moved = FloatNetwork {
                    hidden: 32,
                    views: v,
                    buckets,
                    squared: net.squared,
                    pairs,
                    params: net.params.clone(),
                };
                let eps = 1e-3;
                moved.params[i] += eps;
                let up = moved.forward(features, &mut s);
                moved.params[i] -= 2.0 * eps;
                let down = moved.forward(features, &mut s);
                let slope = (up - down) / (2.0 * eps);
                assert!(
                    (slope - grad[i]).abs() < 1e-2 * (1.0 + slope.abs()),
                    "{v} views, {buckets} buckets, squared {squared}, parameter {i}: slope {slope}, gradient {}",
                    grad[i]
                );
            }
        }
    }
}
