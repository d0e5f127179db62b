//! `kroon bench`: a fixed search over fixed positions, on one thread with an empty
//! table each. The total node count is the search's signature: a change that alters
//! it changes the search.

use crate::engine::{Engine, EngineOptions, TimeControl};
use crate::eval::Evaluator;
use crate::game::Game;
use std::time::{Duration, Instant};

/// Opening, middle game and endgame positions (with and without kings).
pub const POSITIONS: [&str; 12] = [
    "W:W31-50:B1-20",
    "B:W28,31-50:B1-19",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    "B:W16,25,33,34,35,37,38,40,42,45,47,48,49,50:B3,7,9,11,12,13,14,15,17,19,22,23,24,29",
    "W:W21,25,26,31,35,36,37,38,39,40,42,43,44,45,47,48,49:B1,2,3,6,8,9,11,12,13,14,15,18,19,20,22,23,24",
    "B:W25,35,36,37,38,39,40,42,43,45,46,48,49,50:B1,2,3,4,5,9,11,12,13,14,17,19,22,27",
    "W:W24,28,29,33,36,38,40,45,48:B3,4,11,13,14,15,16,21,27",
    "W:W27,28,32,33,34,35,36,37,38,39,40,41,43,44,45,48:B4,6,7,8,9,11,12,13,14,15,16,17,18,19,21,22",
    "B:W27,29,32,33,36,37,38,39,42,43,44,48:B8,9,12,13,14,16,17,19,21,22,23,26",
    "W:W27,32,38,43:B8,13,19,24",
    "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
    "W:WK46,28,33:BK5,19,24",
];

/// Table size for the bench (emptied for each position), unless another is asked for.
pub const HASH_MB: u32 = 32;

/// The default depth of `kroon bench`.
pub const DEFAULT_DEPTH: u32 = 14;

/// One bench position's outcome.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub fen: String,
    pub best_move: String,
    pub score: crate::engine::Score,
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every position (FEN or Hub strings) to `depth` with `threads` threads,
/// from an emptied table of `hash_mb` MiB each, calling `report` after each. Returns
/// the total nodes and search time (emptying the table excluded); only one thread
/// gives a reproducible node count.
pub fn run_positions(
    positions: &[&str],
    depth: u32,
    threads: usize,
    hash_mb: usize,
    evaluator: &Evaluator,
    mut report: impl FnMut(&BenchLine),
) -> Result<(u64, Duration), String> {
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    // One engine for all, as a game uses it: its threads are made once.
    let mut engine = Engine::new(EngineOptions { threads, hash_mb });
    engine.set_evaluator(evaluator.clone());
    for &fen in positions {
        let game = parse(fen)?;
        let line = search(&mut engine, fen, &game, depth);
        total_nodes += line.nodes;
        total_time += line.time;
        report(&line);
    }
    Ok((total_nodes, total_time))
}

fn parse(fen: &str) -> Result<Game, String> {
    Game::from_fen(fen).map_err(|e| format!("bad position {fen:?}: {e}"))
}

/// Searches `game` to `depth` from an empty table (a new game), so that the signature
/// does not depend on what was searched before. The time is the search's alone, not
/// the emptying of the table.
fn search(engine: &mut Engine, fen: &str, game: &Game, depth: u32) -> BenchLine {
    engine.new_game();
    let t = Instant::now();
    // Analysis, so that a forced move is searched too and the count is the search's.
    let result = engine.analyse_blocking(game, TimeControl::Depth(depth));
    BenchLine {
        fen: fen.to_string(),
        best_move: result.best_move.map_or_else(
            || "none".into(),
            |mv| crate::board::notation::pdn_move(game.position(), mv),
        ),
        score: result.score,
        nodes: result.nodes,
        time: t.elapsed(),
    }
}

/// One round of [`speedup`]: every position searched on one thread and on several.
#[derive(Clone, Copy, Debug)]
pub struct SpeedupRound {
    /// Nodes and search time on one thread.
    pub one: (u64, Duration),
    /// Nodes and search time on the threads asked for.
    pub many: (u64, Duration),
}

impl SpeedupRound {
    /// How many times faster the threads reached the depth.
    #[must_use]
    pub fn speedup(&self) -> f64 {
        self.one.1.as_secs_f64() / self.many.1.as_secs_f64().max(1e-9)
    }

    /// The threads' nodes per one thread's node: the extra tree they searched.
    #[must_use]
    pub fn nodes_ratio(&self) -> f64 {
        self.many.0 as f64 / self.one.0.max(1) as f64
    }

    /// The threads' nodes per second per one thread's: the speed-up if their tree
    /// were no larger. It moves far less from round to round than the speed-up,
    /// whose noise is the size of the threads' tree, so a change in how fast the
    /// threads run (waiting, memory) shows here first.
    #[must_use]
    pub fn nps_ratio(&self) -> f64 {
        self.speedup() * self.nodes_ratio()
    }
}

/// Times the positions to `depth` on one thread and on `threads`, `rounds` times,
/// the two taking turns position by position, so that a change in the machine's
/// speed (virtual machines drift by up to 1.5x within minutes) falls on both alike;
/// judge by the median round. Each search starts from an empty table of `hash_mb` MiB.
pub fn speedup(
    positions: &[&str],
    depth: u32,
    threads: usize,
    hash_mb: usize,
    rounds: usize,
    mut report: impl FnMut(usize, &SpeedupRound),
) -> Result<Vec<SpeedupRound>, String> {
    let games = positions
        .iter()
        .map(|fen| parse(fen))
        .collect::<Result<Vec<_>, _>>()?;
    let mut one = Engine::new(EngineOptions {
        threads: 1,
        hash_mb,
    });
    let mut many = Engine::new(EngineOptions { threads, hash_mb });
    let mut done = Vec::with_capacity(rounds);
    for round in 1..=rounds {
        // Position by position, the two in turn (which goes first alternates too):
        // the machine's speed drifts within seconds, and a round of one thread
        // followed by a round of several measured the drift as much as the threads.
        let mut result = SpeedupRound {
            one: (0, Duration::ZERO),
            many: (0, Duration::ZERO),
        };
        for (i, (game, fen)) in games.iter().zip(positions).enumerate() {
            let turn = |engine: &mut Engine, total: &mut (u64, Duration)| {
                let line = search(engine, fen, game, depth);
                total.0 += line.nodes;
                total.1 += line.time;
            };
            if (i + round) % 2 == 0 {
                turn(&mut one, &mut result.one);
                turn(&mut many, &mut result.many);
            } else {
                turn(&mut many, &mut result.many);
                turn(&mut one, &mut result.one);
            }
        }
        report(round, &result);
        done.push(result);
    }
    Ok(done)
}

/// The median of some figures (the mean of the middle two for an even count).
#[must_use]
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_signature_is_stable() {
        let run = || run_positions(&POSITIONS, 4, 1, 8, &Evaluator::Hand, |_| {}).unwrap();
        let (a, _) = run();
        let (b, _) = run();
        assert_eq!(a, b);
        assert!(a > 0);
    }

    #[test]
    fn the_median_takes_the_middle() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }
}
