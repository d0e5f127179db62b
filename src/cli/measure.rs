//! `kroon perft` and `kroon bench`: the move generator's and the search's measures.

use crate::board::{perft, Position};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Nominal search depth for every position.
    #[arg(long, short, default_value_t = crate::bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Search only this position (FEN or Hub string) instead of the bench set.
    #[arg(long, conflicts_with = "positions")]
    pub fen: Option<String>,
    /// Search the positions of this file instead of the bench set: one FEN per line,
    /// as in the openings files (`FEN [; moves]`, `#` comments).
    #[arg(long)]
    pub positions: Option<std::path::PathBuf>,
    /// Threads (the node signature is only reproducible with 1).
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB, emptied for each position. The signature is
    /// that of the default; a long search with two threads fills it.
    #[arg(long, default_value_t = crate::bench::HASH_MB, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Measure the threads' speed-up instead: search the positions on one thread and on
    /// --threads in turn, this many rounds; the last line gives the median round's
    /// time-to-depth ratio (`speedup=`), the threads' extra nodes (`nodes-ratio=`) and
    /// their nodes per second against one thread's (`nps-ratio=`).
    #[arg(long, value_name = "ROUNDS", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub speedup: Option<u32>,
    /// The evaluation: `network` (built in, the default), `learned` (the pattern
    /// weights built in), `hand`, or a weights or network file.
    #[arg(long, default_value = kroon_engine::eval::DEFAULT_NAME)]
    pub eval: String,
}

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// How many plies deep to count.
    #[arg(long, short)]
    pub depth: u32,
    /// The position, as FEN (`W:W31-50:B1-20`) or a Hub string; default the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count under each legal move of the position.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the work over (default: every core).
    #[arg(long, short)]
    pub threads: Option<usize>,
}

pub(super) fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| format!("bad --fen: {e}"))?,
        None => Position::initial(),
    };
    let threads = match args.threads {
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => n,
        None => kroon_engine::cores::available_cores(),
    };
    let mut start = Instant::now();
    let mut total = 0;
    if args.divide {
        for (mv, n) in perft::divide(&pos, args.depth, threads) {
            println!("{} {n}", crate::board::notation::pdn_move(&pos, mv));
            total += n;
        }
    } else {
        // Depth 0 counts the position itself: one leaf.
        for depth in args.depth.min(1)..=args.depth {
            start = Instant::now();
            total = perft::perft_parallel(&pos, depth, threads);
            println!(
                "perft({depth}) = {total}  ({:.3} s)",
                start.elapsed().as_secs_f64()
            );
        }
    }
    // The figures of the deepest count alone, the one a perft timing quotes.
    let time = start.elapsed().as_secs_f64();
    println!(
        "nodes={total} time={time:.3} nps={:.0}",
        total as f64 / time.max(1e-9)
    );
    Ok(())
}

pub(super) fn run_bench(args: &BenchArgs) -> Result<(), String> {
    let mut custom: Vec<String> = args.fen.iter().cloned().collect();
    if let Some(path) = &args.positions {
        let positions = crate::openings::read_positions(path)?;
        custom.extend(positions.iter().map(Position::to_fen));
    }
    let custom: Vec<&str> = custom.iter().map(String::as_str).collect();
    let positions: &[&str] = if custom.is_empty() {
        &crate::bench::POSITIONS
    } else {
        &custom
    };
    if let Some(rounds) = args.speedup {
        return run_speedup(positions, args, rounds as usize);
    }
    let (nodes, time) = crate::bench::run_positions(
        positions,
        args.depth,
        args.threads,
        args.hash as usize,
        &crate::eval::Evaluator::from_name(&args.eval)?,
        |line| {
            println!(
                "{:<90} {:>8} {:>7} nodes={} time={:.3}",
                line.fen,
                line.best_move,
                line.score.to_string(),
                line.nodes,
                line.time.as_secs_f64()
            );
        },
    )?;
    let secs = time.as_secs_f64();
    println!(
        "nodes={nodes} time={secs:.3} nps={:.0}",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_speedup(positions: &[&str], args: &BenchArgs, rounds: usize) -> Result<(), String> {
    if args.threads < 2 {
        return Err(
            "--speedup compares one thread with --threads: give --threads 2 or more".into(),
        );
    }
    let hash = args.hash as usize;
    let results = crate::bench::speedup(
        positions,
        args.depth,
        args.threads,
        hash,
        rounds,
        |round, r| {
            println!(
                "round={round} time1={:.3} time{}={:.3} speedup={:.3} nodes-ratio={:.3} nps-ratio={:.3}",
                r.one.1.as_secs_f64(),
                args.threads,
                r.many.1.as_secs_f64(),
                r.speedup(),
                r.nodes_ratio(),
                r.nps_ratio()
            );
        },
    )?;
    let median = |f: fn(&crate::bench::SpeedupRound) -> f64| {
        crate::bench::median(results.iter().map(f).collect())
    };
    println!(
        "threads={} rounds={rounds} speedup={:.3} nodes-ratio={:.3} nps-ratio={:.3}",
        args.threads,
        median(crate::bench::SpeedupRound::speedup),
        median(crate::bench::SpeedupRound::nodes_ratio),
        median(crate::bench::SpeedupRound::nps_ratio)
    );
    Ok(())
}
