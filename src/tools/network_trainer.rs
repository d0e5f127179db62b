//! `kroon train --model network`: fits the network evaluation
//! ([`crate::eval::network`]) to self-play positions.
//!
//! The same data, held-out games, logistic scale and target as the pattern trainer
//! ([`super::fitting`]), so the two validation losses compare. The network is
//! fitted in floating point ([`model`]) with Adam over minibatches, the gradient of
//! each batch shared among threads, and quantised to the integer network after
//! every epoch; the last line gives the validation loss of the integer network the
//! engine plays with; before the first epoch, those of the built-in pattern
//! evaluation and network on the same positions.

pub mod model;

use super::fitting::{
    batch_gradient, cross_entropy, load_scaled, shuffle, sigmoid, step_size, target, Adam, Example,
    Model, TrainConfig,
};
use crate::board::Position;
use crate::eval::network::pairs::{pair_inputs, PAIRS};
use crate::eval::network::{bucket, features_seen_by, Network, Pieces, FEATURES};
use crate::eval::Evaluator;
use model::{float_inputs, FloatNetwork, Scratch};
use std::time::Instant;

/// One training position.
#[derive(Clone, Copy)]
struct Sample {
    position: Position,
    /// The game's result for the side to move: 0, 0.5 or 1.
    result: f32,
    /// The search's score for the side to move.
    score: f32,
}

impl Sample {
    fn new(example: &Example) -> Sample {
        Sample {
            position: example.position,
            result: example.result,
            score: example.score,
        }
    }

    fn target(&self, lambda: f32, k: f32) -> f32 {
        target(self.result, self.score, lambda, k)
    }
}

/// A position's inputs as each side sees it (the side to move's first), as the
/// float network takes them: each piece's shared input, and for a bucketed
/// network its input in the view's bucket too (see [`model`]); then, with pairs,
/// each pair's that holds a piece. At most 40 pieces and 81 pairs.
struct Inputs {
    lists: [[u16; 2 * 40 + PAIRS]; 2],
    lens: [usize; 2],
}

impl Inputs {
    /// The inputs of `pos` for a network of `buckets` input weight sets, with
    /// `pairs` inputs or not.
    fn of(pos: &Position, buckets: usize, pairs: bool) -> Inputs {
        let mut lists = [[0u16; 2 * 40 + PAIRS]; 2];
        let mut lens = [0; 2];
        let side = pos.side_to_move();
        let pieces = Pieces::of(pos);
        for ((list, len), view) in lists.iter_mut().zip(&mut lens).zip([side, side.opponent()]) {
            let own = FEATURES * (1 + bucket(pieces, view));
            let mut push = |f: usize| {
                list[*len] = f as u16;
                *len += 1;
            };
            features_seen_by(pos, view, |f| {
                push(f);
                if buckets > 1 {
                    push(own + f);
                }
            });
            if pairs {
                let first = float_inputs(buckets);
                pair_inputs(pieces, view, |f| push(first + f));
            }
        }
        Inputs { lists, lens }
    }

    fn views(&self) -> [&[u16]; 2] {
        [
            &self.lists[0][..self.lens[0]],
            &self.lists[1][..self.lens[1]],
        ]
    }
}

/// The float network's score in hundredths of a man.
fn hundredths(net: &FloatNetwork, pos: &Position, s: &mut Scratch) -> f32 {
    100.0 * net.forward(Inputs::of(pos, net.buckets, net.pairs).views(), s)
}

/// Mean loss of `score` over samples, using every thread; each thread's scoring
/// keeps a state of its own, made by `state`.
fn mean_loss<S>(
    samples: &[Sample],
    (lambda, k): (f32, f32),
    threads: usize,
    state: impl Fn() -> S + Sync,
    score: impl Fn(&mut S, &Position) -> f32 + Sync,
) -> f32 {
    super::fitting::parallel_mean(samples, threads, state, |own, s| {
        let p = sigmoid(score(own, &s.position) / k);
        f64::from(cross_entropy(p, s.target(lambda, k)))
    })
}

/// Mean loss of an integer network, as the engine plays it.
fn integer_loss(net: &Network, samples: &[Sample], lk: (f32, f32), threads: usize) -> f32 {
    mean_loss(samples, lk, threads, || (), |(), p| net.evaluate(p) as f32)
}

/// The gradient of a part of a batch into `grad`; returns the part's total loss.
fn part_gradient(
    net: &FloatNetwork,
    samples: &[Sample],
    part: &[u32],
    (lambda, k): (f32, f32),
    grad: &mut [f32],
) -> f64 {
    let mut scratch = Scratch::new(net.hidden, net.views);
    let mut loss = 0.0f64;
    for &i in part {
        let s = &samples[i as usize];
        let inputs = Inputs::of(&s.position, net.buckets, net.pairs);
        let score = 100.0 * net.forward(inputs.views(), &mut scratch);
        let p = sigmoid(score / k);
        let t = s.target(lambda, k);
        loss += f64::from(cross_entropy(p, t));
        // d(loss)/d(score) = (p - t) / K, and the score is 100 times the output.
        net.backward(inputs.views(), &mut scratch, 100.0 * (p - t) / k, grad);
    }
    loss
}

/// One pass over the training samples in the given order; returns the mean loss.
fn epoch(
    config: &TrainConfig,
    net: &mut FloatNetwork,
    adam: &mut Adam,
    grads: &mut [Vec<f32>],
    (samples, order): (&[Sample], &[u32]),
    (k, lr): (f32, f32),
) -> f32 {
    let mut total = 0.0f64;
    let lk = (config.lambda, k);
    for batch in order.chunks(config.batch) {
        let shared = &*net;
        let (first, loss) = batch_gradient(grads, batch, |part, grad| {
            part_gradient(shared, samples, part, lk, grad)
        });
        total += loss;
        adam.step(&mut net.params, first, lr);
        net.clip();
    }
    (total / order.len() as f64) as f32
}

/// Runs the training and writes the network.
pub fn run(config: &TrainConfig) -> Result<(), String> {
    let start = Instant::now();
    let Model::Network {
        hidden,
        views,
        buckets,
        squared,
        pairs,
        ref init,
    } = config.model
    else {
        return Err("the network trainer fits networks only".into());
    };
    let (train, valid, k) = load_scaled(config, Sample::new, |s| (s.score, s.result))?;
    let threads = config.threads.max(1);
    let lk = (config.lambda, k);
    // The evaluations built in, on the same held-out positions: what a new
    // network has to beat.
    for (name, what) in [("learned", "pattern evaluation"), ("network", "network")] {
        let built_in = Evaluator::from_name(name)?;
        println!(
            "the built-in {what}: validation loss {:.5}",
            mean_loss(
                &valid,
                lk,
                threads,
                || (),
                |(), p| built_in.evaluate(p) as f32
            )
        );
    }
    let mut net = match init {
        Some(start) => {
            let net = FloatNetwork::from_network(start, hidden, views, buckets, config.seed)?;
            println!(
                "the starting network: validation loss {:.5}",
                integer_loss(start, &valid, lk, threads)
            );
            net
        }
        None => FloatNetwork::random(hidden, views, buckets, config.seed),
    }
    .with_squared(squared);
    if pairs {
        net = net.with_pairs();
    }
    let mut adam = Adam::new(net.params.len());
    let mut grads = vec![vec![0.0f32; net.params.len()]; threads];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = config.seed;
    for e in 1..=config.epochs {
        shuffle(&mut order, &mut rng);
        let lr = step_size(config.learning_rate, e, config.epochs);
        let data = (&train[..], &order[..]);
        let train_loss = epoch(config, &mut net, &mut adam, &mut grads, data, (k, lr));
        let valid_loss = mean_loss(
            &valid,
            lk,
            threads,
            || Scratch::new(hidden, views),
            |s, p| hundredths(&net, p, s),
        );
        println!(
            "epoch {e}: training loss {train_loss:.5} validation loss {valid_loss:.5} step {lr:.5} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
        net.quantise().save(&config.out)?;
    }
    let quantised: Network = net.quantise();
    quantised.check()?;
    println!(
        "the integer network: validation loss {:.5}",
        integer_loss(&quantised, &valid, lk, threads)
    );
    quantised.save(&config.out)?;
    println!("network written to {}", config.out.display());
    Ok(())
}
