//! What the two trainers share ([`super::trainer`] for the pattern weights,
//! [`super::network_trainer`] for the network): the run's settings, the training
//! files read into samples with the games held out for validation, the logistic
//! scale, the loss and its target, Adam, and the seeded order of each epoch.
//!
//! Both fit the same target on the same positions: a model's score `s` predicts the
//! game's result through `sigmoid(s / K)`; the target blends the result with the
//! search's score, `lambda * result + (1 - lambda) * sigmoid(score / K)`, and the
//! loss is their cross-entropy. With the same data, validation share and seed the
//! two hold out the same positions and fit the same `K`, so their validation losses
//! compare.

pub mod examples;

use super::training_data::{read_file, Block};
use crate::eval::weights::Weights;
use examples::merge_repeats;
pub use examples::Example;
use std::path::PathBuf;

/// Which model a run fits.
#[derive(Clone, Debug)]
pub enum Model {
    /// The learned pattern evaluation, from these weights or from material alone.
    Patterns { init: Option<Weights> },
    /// A network with a first layer of this width, summed over this many views,
    /// from random weights or from a network's.
    Network {
        hidden: usize,
        views: usize,
        /// Input weight sets: 1 or [`crate::eval::network::BUCKETS`].
        buckets: usize,
        /// Squared activations ([`crate::eval::network::Network::squared`]).
        squared: bool,
        /// Pair inputs ([`crate::eval::network::Network::pairs`]).
        pairs: bool,
        init: Option<crate::eval::network::Network>,
    },
}

/// What a training run is.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub model: Model,
    pub epochs: u32,
    /// Weight of the game's result in the target (the rest is the search's score).
    pub lambda: f32,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// Hold the share out of the last data file only (the newest round), training on
    /// the earlier files whole.
    pub validate_newest: bool,
    pub seed: u64,
    /// Adam's step size: in hundredths of a man for the patterns, in the float
    /// network's own units for the network.
    pub learning_rate: f32,
    pub batch: usize,
    /// L2 penalty on the pattern weights, per position.
    pub l2: f32,
    pub threads: usize,
    /// The logistic scale; fitted to the data when None.
    pub scale: Option<f32>,
    /// Fit a position as often as the games reached it, rather than once with
    /// their mean result and score.
    pub keep_repeats: bool,
}

#[must_use]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a prediction against a target in [0, 1].
#[must_use]
pub fn cross_entropy(p: f32, t: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The target of a position whose game ended in `result` (0, 0.5, 1) and whose
/// search said `score`, both for the side to move.
#[must_use]
pub fn target(result: f32, score: f32, lambda: f32, k: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(score / k)
}

#[must_use]
pub fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Reads the files into (training, validation) samples, each made by `make`
/// from an [`Example`]. Repeated positions are merged ([`examples`]) in each set
/// unless `keep_repeats` says otherwise.
pub fn load<S>(
    config: &TrainConfig,
    mut make: impl FnMut(&Example) -> S,
) -> Result<(Vec<S>, Vec<S>), String> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let share = (config.validation.clamp(0.0, 1.0) * 1_000_000.0) as u64;
    let last = config.data.len().saturating_sub(1);
    for (i, path) in config.data.iter().enumerate() {
        // Earlier rounds were played by older weights and the weights refitted from
        // already fit them; the newest round's games are the positions today's engine
        // reaches, and a refit's gain on them is not diluted by the rounds before.
        let cut = if config.validate_newest && i < last {
            0
        } else {
            share
        };
        let mut run = 0u64;
        let summary = read_file(path, |block| match block {
            Block::Header(h) => run = h.seed ^ u64::from(h.shard) << 48,
            Block::Record(r) => {
                let example = Example::new(r);
                if splitmix(run ^ splitmix(u64::from(r.game))) % 1_000_000 < cut {
                    valid.push(example);
                } else {
                    train.push(example);
                }
            }
        })?;
        eprintln!("{}: {} positions", path.display(), summary.records);
    }
    let read = (train.len(), valid.len());
    if config.keep_repeats {
        eprintln!("repeated positions kept");
    } else {
        (train, valid) = (merge_repeats(train), merge_repeats(valid));
        eprintln!(
            "distinct positions: {} of {} for training, {} of {} for validation",
            train.len(),
            read.0,
            valid.len(),
            read.1
        );
    }
    if train.is_empty() {
        return Err("no training positions in the data".into());
    }
    if train.len() > u32::MAX as usize {
        return Err("more than 4 billion positions: train on a part".into());
    }
    let train = train.iter().map(&mut make).collect();
    let valid = valid.iter().map(&mut make).collect();
    Ok((train, valid))
}

/// The mean of `f` over `items`, the items split between `threads` threads; each
/// thread keeps a state of its own, made by `state` (a model's scratch space).
/// NaN when there are no items (no validation share).
pub fn parallel_mean<T: Sync, S>(
    items: &[T],
    threads: usize,
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> f64 + Sync,
) -> f32 {
    if items.is_empty() {
        return f32::NAN;
    }
    let chunk = items.len().div_ceil(threads.max(1));
    let (state, f) = (&state, &f);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut own = state();
                    part.iter().map(|x| f(&mut own, x)).sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread of the mean"))
            .sum()
    });
    (total / items.len() as f64) as f32
}

/// The gradient of one minibatch, its positions shared among the threads (one
/// gradient buffer each): `part` fills a thread's buffer, zeroed first, from its
/// share of `batch` and returns that share's loss. The buffers used are summed into
/// the first, which is returned, divided by the batch's size, with the batch's
/// total loss. A short batch (the last of an epoch) may use fewer threads: the
/// buffers it left alone still hold the last batch's sums and are not added.
pub fn batch_gradient<'g>(
    grads: &'g mut [Vec<f32>],
    batch: &[u32],
    part: impl Fn(&[u32], &mut [f32]) -> f64 + Sync,
) -> (&'g mut [f32], f64) {
    let chunk = batch.len().div_ceil(grads.len()).max(1);
    let part = &part;
    let loss: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = grads
            .iter_mut()
            .zip(batch.chunks(chunk))
            .map(|(grad, share)| {
                scope.spawn(move || {
                    grad.fill(0.0);
                    part(share, grad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gradient thread"))
            .sum()
    });
    let used = batch.chunks(chunk).count();
    let (first, rest) = grads.split_first_mut().expect("at least one thread");
    for other in &rest[..used.saturating_sub(1)] {
        for (a, b) in first.iter_mut().zip(other) {
            *a += b;
        }
    }
    let n = batch.len().max(1) as f32;
    for g in first.iter_mut() {
        *g /= n;
    }
    (first, loss)
}

/// [`load`], then the logistic scale (the one given, or fitted to the training
/// samples by [`fit_scale`] with `point`), saying what was read.
pub fn load_scaled<S>(
    config: &TrainConfig,
    make: impl FnMut(&Example) -> S,
    point: impl Fn(&S) -> (f32, f32),
) -> Result<(Vec<S>, Vec<S>, f32), String> {
    let start = std::time::Instant::now();
    let (train, valid) = load(config, make)?;
    let k = config.scale.unwrap_or_else(|| fit_scale(&train, point));
    println!(
        "{} training and {} validation positions, K = {k:.1} (loaded in {:.1} s)",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    Ok((train, valid, k))
}

/// The logistic scale under which the search's scores best predict the results;
/// `point` gives a sample's (score, result).
#[must_use]
pub fn fit_scale<S>(samples: &[S], point: impl Fn(&S) -> (f32, f32)) -> f32 {
    let loss = |k: f32| {
        samples
            .iter()
            .step_by((samples.len() / 200_000).max(1))
            .map(|s| {
                let (score, result) = point(s);
                cross_entropy(sigmoid(score / k), result)
            })
            .sum::<f32>()
    };
    // Golden-section search over a bracket wide enough for any sane score scale.
    let (mut lo, mut hi) = (10.0f32, 2000.0f32);
    let ratio = 0.618_034f32;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Shuffles `order` (Fisher-Yates) with the generator state `rng`.
pub fn shuffle(order: &mut [u32], rng: &mut u64) {
    for i in (1..order.len()).rev() {
        *rng = splitmix(*rng);
        order.swap(i, (*rng % (i as u64 + 1)) as usize);
    }
}

/// The step size of epoch `e` (from 1): cosine decay to a twentieth of `base`.
#[must_use]
pub fn step_size(base: f32, e: u32, epochs: u32) -> f32 {
    let progress = (e - 1) as f32 / epochs.max(1) as f32;
    base * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()))
}

/// Adam's state.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// For `params` parameters.
    #[must_use]
    pub fn new(params: usize) -> Adam {
        Adam {
            m: vec![0.0; params],
            v: vec![0.0; params],
            t: 0,
        }
    }

    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_fitted_to_the_scores() {
        // Scores of 100 win three games in four: K = 100 / ln 3.
        let mut points = Vec::new();
        for _ in 0..3 {
            points.push((100.0, 1.0));
            points.push((-100.0, 0.0));
        }
        points.push((100.0, 0.0));
        points.push((-100.0, 1.0));
        let k = fit_scale(&points, |&p| p);
        assert!((k - 100.0 / 3f32.ln()).abs() < 1.0, "{k}");
    }
}
