//! `kroon train`: fits the learned evaluation's weights to self-play positions.
//!
//! The model is the evaluation itself, in floating point: pattern weights for the
//! 28 windows and the dense terms, each a middle-game and an endgame value blended
//! by the men left, Black's patterns scored as White's mirrors, the king-ending
//! divisor of the hand evaluation, and a side-to-move term. The target and the loss
//! are in [`super::fitting`]. `K` is fitted first, so that the search's scores
//! predict the results best: the learned evaluation then keeps the scale of the
//! scores the search's margins were tuned for (hundredths of a man).
//!
//! Adam over minibatches, the gradient of each batch shared among threads; the
//! positions of a share of the games (chosen by the game's number) are held out to
//! measure the loss on games the weights never saw. The same seed and data give the
//! same weights for the same number of threads.

use super::fitting::{
    batch_gradient, cross_entropy, load_scaled, shuffle, sigmoid, step_size, Adam, Example, Model,
    TrainConfig,
};
use crate::board::Side;
use crate::eval::hand::king_ending_divisor;
use crate::eval::pattern::{
    dense, phase, rotated_window, window_indices, DENSE, DENSE_NAMES, MIRROR, PATTERNS, PHASE_MEN,
    WINDOWS,
};
use crate::eval::weights::{Weights, SCALE};
use std::time::Instant;

/// One training position, reduced to what the model reads.
#[derive(Clone, Copy)]
struct Sample {
    windows: [u16; WINDOWS],
    dense: [i16; DENSE],
    /// Men left, at most 40.
    phase: u8,
    white_to_move: bool,
    /// The king-ending divisor when White is ahead and when Black is.
    divisor: [u8; 2],
    /// The game's result for the side to move: 0, 0.5 or 1.
    result: f32,
    /// The search's score for the side to move.
    score: f32,
}

impl Sample {
    fn new(example: &Example) -> Sample {
        let pos = &example.position;
        let kings = pos.king_bits();
        let d = dense(pos);
        Sample {
            windows: window_indices(
                pos.side_bits(Side::White) & !kings,
                pos.side_bits(Side::Black) & !kings,
            ),
            dense: d.map(|x| x as i16),
            phase: phase(pos) as u8,
            white_to_move: pos.side_to_move() == Side::White,
            divisor: [
                king_ending_divisor(pos, true) as u8,
                king_ending_divisor(pos, false) as u8,
            ],
            result: example.result,
            score: example.score,
        }
    }
}

/// Model parameters in hundredths of a man: pattern pairs, then dense pairs.
struct Params(Vec<f32>);

const PATTERN_PARAMS: usize = WINDOWS * PATTERNS * 2;
const PARAMS: usize = PATTERN_PARAMS + DENSE * 2;

impl Params {
    fn from_weights(w: &Weights) -> Params {
        let scale = SCALE as f32;
        let mut p = Vec::with_capacity(PARAMS);
        for pair in w.patterns.iter().chain(w.dense.iter()) {
            p.push(f32::from(pair[0]) / scale);
            p.push(f32::from(pair[1]) / scale);
        }
        Params(p)
    }

    fn material() -> Params {
        let mut w = Weights::zero();
        w.dense[0] = [(100 * SCALE) as i16, (100 * SCALE) as i16];
        w.dense[1] = [(300 * SCALE) as i16, (300 * SCALE) as i16];
        Params::from_weights(&w)
    }

    fn to_weights(&self) -> Weights {
        let q = |v: f32| (v * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut w = Weights::zero();
        for (k, pair) in w.patterns.iter_mut().enumerate() {
            *pair = [q(self.0[2 * k]), q(self.0[2 * k + 1])];
        }
        for (k, pair) in w.dense.iter_mut().enumerate() {
            let at = PATTERN_PARAMS + 2 * k;
            *pair = [q(self.0[at]), q(self.0[at + 1])];
        }
        w
    }

    /// The model's score for the side to move, and d(score)/d(White's raw score).
    fn score(&self, s: &Sample) -> (f32, f32) {
        let p = &self.0;
        let phi = f32::from(s.phase) / PHASE_MEN as f32;
        let (mut mg, mut eg) = (0.0f32, 0.0f32);
        for (w, &i) in s.windows.iter().enumerate() {
            let own = 2 * (w * PATTERNS + usize::from(i));
            let theirs = 2 * (rotated_window(w) * PATTERNS + usize::from(MIRROR[usize::from(i)]));
            mg += p[own] - p[theirs];
            eg += p[own + 1] - p[theirs + 1];
        }
        for k in 0..DENSE - 1 {
            let x = f32::from(s.dense[k]);
            mg += x * p[PATTERN_PARAMS + 2 * k];
            eg += x * p[PATTERN_PARAMS + 2 * k + 1];
        }
        let raw = phi * mg + (1.0 - phi) * eg;
        let divisor = s.divisor[usize::from(raw <= 0.0)];
        let factor = if divisor == 0 {
            0.0
        } else {
            1.0 / f32::from(divisor)
        };
        let sign = if s.white_to_move { 1.0 } else { -1.0 };
        let stm = PATTERN_PARAMS + 2 * (DENSE - 1);
        let tempo = phi * p[stm] + (1.0 - phi) * p[stm + 1];
        (sign * raw * factor + tempo, sign * factor)
    }

    /// Adds the gradient of one sample's loss (`g` = dLoss/dScore) to `grad`.
    fn add_gradient(s: &Sample, g: f32, d_raw: f32, grad: &mut [f32]) {
        let phi = f32::from(s.phase) / PHASE_MEN as f32;
        let gr = g * d_raw;
        let (gm, ge) = (gr * phi, gr * (1.0 - phi));
        if gr != 0.0 {
            for (w, &i) in s.windows.iter().enumerate() {
                let own = 2 * (w * PATTERNS + usize::from(i));
                let theirs =
                    2 * (rotated_window(w) * PATTERNS + usize::from(MIRROR[usize::from(i)]));
                grad[own] += gm;
                grad[own + 1] += ge;
                grad[theirs] -= gm;
                grad[theirs + 1] -= ge;
            }
            for k in 0..DENSE - 1 {
                let x = f32::from(s.dense[k]);
                grad[PATTERN_PARAMS + 2 * k] += gm * x;
                grad[PATTERN_PARAMS + 2 * k + 1] += ge * x;
            }
        }
        let stm = PATTERN_PARAMS + 2 * (DENSE - 1);
        grad[stm] += g * phi;
        grad[stm + 1] += g * (1.0 - phi);
    }
}

fn target(s: &Sample, lambda: f32, k: f32) -> f32 {
    super::fitting::target(s.result, s.score, lambda, k)
}

/// Mean loss over samples, using every thread.
fn mean_loss(params: &Params, samples: &[Sample], lambda: f32, k: f32, threads: usize) -> f32 {
    super::fitting::parallel_mean(
        samples,
        threads,
        || (),
        |(), s| {
            let p = sigmoid(params.score(s).0 / k);
            f64::from(cross_entropy(p, target(s, lambda, k)))
        },
    )
}

/// One pass over the training samples in a seeded order; returns the mean loss.
fn epoch(
    config: &TrainConfig,
    params: &mut Params,
    adam: &mut Adam,
    grads: &mut [Vec<f32>],
    samples: &[Sample],
    order: &[u32],
    (k, lr): (f32, f32),
) -> f32 {
    let mut total = 0.0f64;
    let lambda = config.lambda;
    for batch in order.chunks(config.batch) {
        let shared = &*params;
        let (first, loss) = batch_gradient(grads, batch, |part, grad| {
            let mut loss = 0.0f64;
            for &i in part {
                let s = &samples[i as usize];
                let (score, d_raw) = shared.score(s);
                let p = sigmoid(score / k);
                let t = target(s, lambda, k);
                loss += f64::from(cross_entropy(p, t));
                Params::add_gradient(s, (p - t) / k, d_raw, grad);
            }
            loss
        });
        total += loss;
        // The L2 penalty on the patterns, after the batch's mean.
        for (g, &p) in first.iter_mut().zip(&params.0).take(PATTERN_PARAMS) {
            *g += config.l2 * p;
        }
        adam.step(&mut params.0, first, lr);
    }
    (total / order.len() as f64) as f32
}

/// Runs the training and writes the weights.
pub fn run(config: &TrainConfig) -> Result<(), String> {
    let start = Instant::now();
    let Model::Patterns { init } = &config.model else {
        return Err("the pattern trainer fits pattern weights only".into());
    };
    let (train, valid, k) = load_scaled(config, Sample::new, |s| (s.score, s.result))?;
    let mut params = init
        .as_ref()
        .map_or_else(Params::material, Params::from_weights);
    let threads = config.threads.max(1);
    let mut adam = Adam::new(PARAMS);
    let mut grads = vec![vec![0.0f32; PARAMS]; threads];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = config.seed;
    println!(
        "epoch 0: validation loss {:.5}",
        mean_loss(&params, &valid, config.lambda, k, threads)
    );
    for e in 1..=config.epochs {
        shuffle(&mut order, &mut rng);
        let lr = step_size(config.learning_rate, e, config.epochs);
        let train_loss = epoch(
            config,
            &mut params,
            &mut adam,
            &mut grads,
            &train,
            &order,
            (k, lr),
        );
        let valid_loss = mean_loss(&params, &valid, config.lambda, k, threads);
        println!(
            "epoch {e}: training loss {train_loss:.5} validation loss {valid_loss:.5} step {lr:.3} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
        params.to_weights().save(&config.out)?;
    }
    let weights = params.to_weights();
    weights.save(&config.out)?;
    let terms: Vec<String> = (0..DENSE)
        .map(|k| {
            let [mg, eg] = weights.dense[k];
            format!(
                "{} {}/{}",
                DENSE_NAMES[k],
                i32::from(mg) / SCALE,
                i32::from(eg) / SCALE
            )
        })
        .collect();
    println!("dense terms (middle game/endgame): {}", terms.join(", "));
    println!("weights written to {}", config.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learned::Learned;
    use crate::tools::training_data::Record;
    use crate::wdl::Wdl;

    #[test]
    fn the_model_is_the_evaluation_in_play() {
        let w = crate::eval::testing::busy_weights();
        let params = Params::from_weights(&w);
        assert!(params.to_weights() == w);
        let learned = Learned::new(w);
        for p in crate::eval::testing::random_positions(9, 20, 150) {
            let record = Record {
                position: p,
                outcome: Wdl::Draw,
                ply: 0,
                score: 0,
                game: 0,
            };
            let model = params.score(&Sample::new(&Example::new(&record))).0;
            let play = learned.evaluate(&p) as f32;
            // The engine divides in whole numbers, three times at most.
            assert!(
                (model - play).abs() <= 3.0,
                "{}: {model} vs {play}",
                p.to_fen()
            );
        }
    }
}
