//! The command line: one subcommand per job, each mapping its errors to a message
//! and a non-zero exit.

use crate::board::{perft, Position};
use clap::{Parser, Subcommand};
use std::time::Instant;

/// Kroon, an international draughts engine (10x10, FMJD rules).
#[derive(Parser, Debug)]
#[command(name = "kroon", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (checks and times the move generator).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth on one thread; prints the node signature.
    Bench(BenchArgs),
    /// Speak the Hub protocol on stdin/stdout (for the Hub GUI, pydraughts, py-draughts).
    Hub(EngineArgs),
    /// Play another program over DXP (TCP), as server or client, initiator or follower.
    Dxp(crate::dxp::DxpArgs),
    /// Play Kroon at the terminal (text mode; reads moves and commands from stdin).
    Play(EngineArgs),
    /// Enumerate the start positions a few plies deep, optionally only balanced ones.
    Openings(crate::openings::OpeningsArgs),
    /// Play a match or round robin between Hub and DXP engines.
    Match(crate::matches::MatchArgs),
    /// Play Kroon against itself and write quiet positions as training data.
    Selfplay(SelfplayArgs),
    /// Fit the learned evaluation's weights to self-play positions.
    Train(TrainArgs),
}

/// `kroon train`: see [`crate::training::trainer`].
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training files written by `kroon selfplay` (concatenated shards work too).
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<std::path::PathBuf>,
    /// The weights file to write (after every epoch).
    #[arg(long)]
    pub out: std::path::PathBuf,
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Weight of the game's result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Share of the games held out to measure the loss on.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adam's step size, in hundredths of a man.
    #[arg(long, default_value_t = 0.5)]
    pub learning_rate: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// L2 penalty on the pattern weights (on 1.5 M positions even 1e-7 raised the
    /// validation loss; more data is the better cure for rare patterns).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f32,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start from these weights (default: material only).
    #[arg(long)]
    pub init: Option<std::path::PathBuf>,
    /// The logistic scale K in sigmoid(score / K) (default: fitted to the data).
    #[arg(long)]
    pub scale: Option<f32>,
}

fn run_train(args: &TrainArgs) -> Result<(), String> {
    if args.batch == 0 || !(0.0..=1.0).contains(&args.lambda) {
        return Err("--batch must be at least 1 and --lambda between 0 and 1".into());
    }
    let config = crate::training::trainer::TrainConfig {
        data: args.data.clone(),
        out: args.out.clone(),
        epochs: args.epochs,
        lambda: args.lambda,
        validation: args.validation,
        seed: args.seed,
        learning_rate: args.learning_rate,
        batch: args.batch,
        l2: args.l2,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        init: args
            .init
            .as_deref()
            .map(crate::eval::weights::Weights::load)
            .transpose()?,
        scale: args.scale,
    };
    crate::training::trainer::run(&config)
}

/// `kroon selfplay`: see [`crate::training::selfplay`].
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The training file; appended to, and a run of the same seed, shard and nodes
    /// resumes where it stopped.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Games of this shard.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes per move (each move draws its budget between 0.75x and 1.25x of it).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..))]
    pub nodes: u32,
    /// Start positions (`FEN [; moves]` lines); default the three-move openings
    /// compiled into Kroon (openings/3-move.fen).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Random moves played after the opening, for variety.
    #[arg(long, default_value_t = 2)]
    pub random_plies: u32,
    /// Seed of the run: games, openings and random moves follow from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This machine's part of the run, `I/N` (games I, I+N, I+2N, ...).
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Games played at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evaluation that plays: `hand`, `learned` (the weights built in), or a
    /// weights file.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// `I/N` with I < N.
fn parse_shard(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("bad --shard '{text}': write I/N with 0 <= I < N, e.g. 3/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<u16>().map_err(|_| bad())?,
        n.trim().parse::<u16>().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn run_selfplay(args: &SelfplayArgs) -> Result<(), String> {
    let (shard, shards) = parse_shard(&args.shard)?;
    let openings = match &args.openings {
        Some(path) => crate::openings::read_positions(path)?,
        None => crate::openings::parse_file(crate::openings::THREE_MOVE)?
            .into_iter()
            .map(|o| o.position)
            .collect(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = crate::training::selfplay::SelfplayConfig {
        out: args.out.clone(),
        games: args.games,
        nodes: args.nodes,
        openings,
        random_plies: args.random_plies,
        seed: args.seed,
        shard,
        shards,
        threads: threads.max(1),
        evaluator: crate::eval::Evaluator::from_name(&args.eval)?,
        progress: !args.quiet,
    };
    crate::training::selfplay::run(&config)
}

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
    /// The evaluation: `learned` (built in), `hand`, or a weights file.
    #[arg(long, default_value = "learned")]
    pub eval: String,
}

/// The engine's options, shared by every command that plays.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

impl EngineArgs {
    #[must_use]
    pub fn options(&self) -> crate::engine::EngineOptions {
        crate::engine::EngineOptions {
            threads: usize::from(self.threads),
            hash_mb: self.hash as usize,
        }
    }
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

/// Runs a parsed command line; the error is the message to print before exiting.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(args) => run_perft(&args),
        Command::Bench(args) => run_bench(&args),
        Command::Hub(args) => {
            let input = std::io::BufReader::new(std::io::stdin());
            crate::hub::run(input, std::io::stdout(), args.options());
            Ok(())
        }
        Command::Dxp(args) => crate::dxp::run_args(&args),
        Command::Play(args) => {
            let input = std::io::BufReader::new(std::io::stdin());
            crate::text::run(input, std::io::stdout(), args.options());
            Ok(())
        }
        Command::Openings(args) => crate::openings::run(&args),
        Command::Match(args) => crate::matches::run(&args),
        Command::Selfplay(args) => run_selfplay(&args),
        Command::Train(args) => run_train(&args),
    }
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| format!("bad --fen: {e}"))?,
        None => Position::initial(),
    };
    let pool = thread_pool(args.threads)?;
    pool.install(|| {
        let mut start = Instant::now();
        let mut total = 0;
        if args.divide {
            for (mv, n) in perft::divide(&pos, args.depth) {
                println!("{} {n}", crate::board::notation::pdn_move(&pos, mv));
                total += n;
            }
        } else {
            // Depth 0 counts the position itself: one leaf.
            for depth in args.depth.min(1)..=args.depth {
                start = Instant::now();
                total = if pool.current_num_threads() > 1 {
                    perft::perft_parallel(&pos, depth)
                } else {
                    perft::perft(&pos, depth)
                };
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
    });
    Ok(())
}

fn run_bench(args: &BenchArgs) -> Result<(), String> {
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
