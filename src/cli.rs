//! The command line: one subcommand per job, each mapping its errors to a message
//! and a non-zero exit. The clap argument types live here and nowhere else: each
//! maps to the plain configuration its module runs from (`dxp::Config`,
//! `matches::MatchConfig`, `openings::Config`, `engine::EngineSetup`), so no module
//! below depends on the command line.

use crate::board::{perft, Position};
use crate::engine::{EngineOptions, EngineSetup};
use crate::play::time_control::seconds;
use crate::play::TimeControl;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

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
    Dxp(DxpArgs),
    /// Play Kroon at the terminal (text mode; reads moves and commands from stdin).
    Play(EngineArgs),
    /// Enumerate the start positions a few plies deep, optionally only balanced ones.
    Openings(OpeningsArgs),
    /// Play a match or round robin between Hub and DXP engines.
    Match(MatchArgs),
    /// Play Kroon against itself and write quiet positions as training data.
    Selfplay(SelfplayArgs),
    /// Fit the learned evaluation's weights to self-play positions.
    Train(TrainArgs),
    /// Build or inspect the opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Endgame tables: build them, or probe positions.
    Egdb(EgdbArgs),
    /// A draughts board in the browser: play and analyse with Kroon or a Hub engine.
    Gui(GuiArgs),
}

/// `kroon egdb`: see [`crate::egdb`].
#[derive(clap::Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub action: EgdbAction,
}

#[derive(Subcommand, Debug)]
pub enum EgdbAction {
    /// Build every slice of up to N pieces by retrograde analysis, smaller slices
    /// first, on every core. Finished slices in the folder are kept (their checksums
    /// checked); an interrupted one is built again.
    Build {
        /// Pieces (men and kings of both sides), 2 to 7.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress lines.
        #[arg(long)]
        quiet: bool,
        /// Only the slices play from this material can reach, as four digits: white
        /// men, white kings, black men, black kings (e.g. 0301).
        #[arg(long)]
        material: Option<String>,
    },
    /// Read positions (FEN or Hub), one a line, on stdin; print each line followed by
    /// `win`, `draw`, `loss` (for the side to move) or `unknown`.
    Probe {
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Use slices of up to this many pieces.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
    },
}

/// The tables' folder: the one given, or the default.
fn egdb_dir(dir: Option<&std::path::Path>) -> Result<PathBuf, String> {
    dir.map(std::path::Path::to_path_buf)
        .or_else(crate::egdb::default_dir)
        .ok_or_else(|| "no home folder to keep the tables in: give --dir".into())
}

fn run_egdb(args: &EgdbArgs) -> Result<(), String> {
    match &args.action {
        EgdbAction::Build {
            pieces,
            dir,
            threads,
            quiet,
            material,
        } => {
            let config = crate::egdb::build::BuildConfig {
                dir: egdb_dir(dir.as_deref())?,
                pieces: *pieces,
                progress: !quiet,
                only: material.as_deref().map(str::parse).transpose()?,
            };
            let start = Instant::now();
            let tables = thread_pool(*threads)?.install(|| crate::egdb::build::build(&config))?;
            eprintln!(
                "{}; {:.1} s",
                tables.describe(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        EgdbAction::Probe { dir, pieces } => {
            let dir = egdb_dir(dir.as_deref())?;
            let tables = crate::egdb::Tables::open(&dir, *pieces)?;
            eprintln!("{}", tables.describe());
            let input = std::io::BufReader::new(std::io::stdin());
            crate::egdb::probe::run(&tables, input, std::io::stdout().lock())
                .map_err(|e| format!("probe: {e}"))
        }
    }
}

/// `kroon gui`: see [`crate::gui`].
#[derive(clap::Args, Debug)]
pub struct GuiArgs {
    /// Listen on 127.0.0.1:PORT (default: a free port, shown on stderr).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// A Hub engine to play and analyse instead of Kroon: its command line
    /// ("scan hub"), or a match runner spec (name=Scan cmd='./scan hub' dir=...).
    #[arg(long, value_name = "CMD ARGS")]
    pub engine: Option<String>,
    /// Do not open the page in the system's browser.
    #[arg(long)]
    pub no_browser: bool,
    #[command(flatten)]
    pub kroon: EngineArgs,
}

impl GuiArgs {
    fn config(&self) -> Result<crate::gui::Config, String> {
        let engine = self
            .engine
            .as_deref()
            .map(crate::matches::engine_spec::EngineSpec::from_command_line)
            .transpose()
            .map_err(|e| format!("--engine: {e}"))?;
        Ok(crate::gui::Config {
            port: self.port,
            setup: crate::gui::Setup {
                kroon: self.kroon.setup()?,
                engine,
            },
            open_browser: !self.no_browser,
        })
    }
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
    /// Hold that share out of the last --data file only (the newest round) and train on
    /// the earlier files whole: the loss then measures the positions today's engine plays.
    #[arg(long)]
    pub validate_newest: bool,
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
        validate_newest: args.validate_newest,
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
    /// Endgame tables (a folder, as `kroon egdb build` writes it): the players probe
    /// them, and a game ends as soon as it has no more pieces than they hold
    /// complete, with their value as its result. The piece count is part of the
    /// run: the same seed with and without tables are two runs.
    #[arg(long)]
    pub tables: Option<std::path::PathBuf>,
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
        tables: match &args.tables {
            Some(dir) => Some(std::sync::Arc::new(selfplay_tables(dir)?)),
            None => None,
        },
        progress: !args.quiet,
    };
    crate::training::selfplay::run(&config)
}

/// The tables a self-play run ends its games by: complete to some piece count.
fn selfplay_tables(dir: &std::path::Path) -> Result<crate::egdb::Tables, String> {
    let tables = crate::egdb::Tables::open(dir, crate::egdb::index::MAX_PIECES)?;
    if tables.complete_pieces() < 2 {
        return Err(format!(
            "--tables {}: no complete piece count of endgame tables there (build them with `kroon egdb build --pieces 4 --dir {}`)",
            dir.display(),
            dir.display()
        ));
    }
    eprintln!(
        "kroon: games end by the tables of up to {} pieces: {}",
        tables.complete_pieces(),
        tables.describe()
    );
    Ok(tables)
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
    /// The evaluation: `learned` (the weights built in), `hand`, or a weights file.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// The opening book: `on` (the built-in one), `off`, or a book file. A book that
    /// cannot be read is reported and Kroon plays without one.
    #[arg(long, default_value = "on")]
    pub book: String,
    /// Play book moves in the first this many plies of a game.
    #[arg(long, default_value_t = crate::book::DEFAULT_PLY)]
    pub book_ply: u32,
    /// Play any book move within this many hundredths of a man of the best one.
    #[arg(long, default_value_t = crate::book::DEFAULT_MARGIN, value_parser = clap::value_parser!(i32).range(0..))]
    pub book_margin: i32,
    /// Seed of the choice among book moves (default: from the clock, so that each
    /// session plays its own lines).
    #[arg(long)]
    pub book_seed: Option<u64>,
    /// Probe the endgame tables for positions of up to this many pieces (0: none).
    #[arg(long, default_value_t = crate::engine::DEFAULT_TABLE_PIECES, value_parser = clap::value_parser!(u32).range(0..=7))]
    pub bb_size: u32,
    /// The endgame tables' folder (default: the per-user data folder, see README).
    #[arg(long)]
    pub bb_path: Option<PathBuf>,
}

impl EngineArgs {
    /// The engine these options set up; a weights file that cannot be used is an
    /// error.
    pub fn setup(&self) -> Result<EngineSetup, String> {
        let options = EngineOptions {
            threads: usize::from(self.threads),
            hash_mb: self.hash as usize,
        };
        let mut setup =
            EngineSetup::new(options, &self.eval).map_err(|e| format!("--eval: {e}"))?;
        let (book, error) = crate::book::BookUse::named(&self.book);
        if let Some(error) = error {
            eprintln!("--book: {error}; playing without a book");
        }
        setup.book = crate::book::BookUse {
            max_ply: self.book_ply,
            margin: self.book_margin,
            seed: self.book_seed.unwrap_or(book.seed),
            ..book
        };
        setup.endgame = crate::engine::Endgame::load(self.bb_path.clone(), self.bb_size);
        Ok(setup)
    }
}

/// `kroon dxp`: play another program over DXP.
#[derive(clap::Args, Debug, Clone)]
pub struct DxpArgs {
    /// Wait for the peer on [ADDR:]PORT (the default, on 127.0.0.1:27531); port 0
    /// takes one the system finds free. The address taken is shown on stderr.
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a peer listening on HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Propose the games (GAMEREQ); without it Kroon follows the peer's proposals.
    #[arg(long)]
    pub initiator: bool,
    /// Initiator: games in the series.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Initiator: thinking time per player, in minutes.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub time: u16,
    /// Initiator: moves per time period (0: the time is for the whole game).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub moves: u16,
    /// Initiator: start positions, one FEN a line (`#` comments); each is played
    /// with both colours in turn.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Append every game to this file as PDN.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Search every move to this fixed depth instead of by the clock (for tests).
    #[arg(long)]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl DxpArgs {
    fn config(&self) -> Result<crate::dxp::Config, String> {
        use crate::dxp::{listen_address, Endpoint, Series, DEFAULT_PORT};
        let endpoint = match (&self.listen, &self.connect) {
            (_, Some(addr)) => Endpoint::Connect(addr.clone()),
            (Some(addr), None) => Endpoint::Listen(listen_address(addr)),
            (None, None) => Endpoint::Listen(format!("127.0.0.1:{DEFAULT_PORT}")),
        };
        let series = if self.initiator {
            if self.time == 0 {
                // Moby Dam never answers a GAMEREQ without a clock.
                log::warn!("--time 0 proposes games without a clock; some programs refuse them");
            }
            Some(Series {
                games: self.games,
                minutes: crate::dxp::message::Minutes::whole(self.time),
                moves: self.moves,
                openings: openings_or_initial(self.openings.as_deref())?,
            })
        } else {
            None
        };
        Ok(crate::dxp::Config {
            endpoint,
            series,
            engine: self.engine.setup()?,
            depth: self.depth,
            pdn: self.pdn.clone(),
            name: format!("Kroon {}", env!("CARGO_PKG_VERSION")),
        })
    }
}

/// The positions of an openings file, or the initial position alone.
fn openings_or_initial(path: Option<&std::path::Path>) -> Result<Vec<Position>, String> {
    match path {
        Some(path) => crate::openings::read_positions(path),
        None => Ok(vec![Position::initial()]),
    }
}

/// `kroon match` options.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: `name=NAME cmd='PROGRAM ARGS' [dir=DIR] [option.PARAM=VALUE ...]`
    /// for a Hub engine (shell-like quoting; options are sent with set-param), or
    /// `name=NAME proto=dxp cmd='PROGRAM ... {port} ...' [dir=DIR] [listen=engine|kroon]
    /// [port=N]` for a DXP engine: it listens and Kroon connects (listen=engine, the
    /// default) or the reverse, on 127.0.0.1 and a free port Kroon puts where {port}
    /// is (port=N: a fixed one). `{worker}` in dir= or cmd= is the number of the
    /// match worker (1 to --concurrency) that starts the engine, its folder made if
    /// missing: for programs that write fixed file names. Two engines play a match,
    /// more a round robin.
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// Start positions, one `FEN [; moves]` per line; each is played twice with
    /// colours reversed. Default: the initial position.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Take the openings in a random order (default: file order).
    #[arg(long)]
    pub random: bool,
    /// Seed of the random opening order (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games per pair of engines (default: every opening twice per round).
    #[arg(long)]
    pub games: Option<u32>,
    /// Rounds: each plays every opening twice per pair of engines.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Time control: seconds per game plus increment per move (`60+0.5`, `300`),
    /// or moves in seconds (`40/120`: the time is credited again after each 40).
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    pub move_time: Option<f64>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// With --tc or --move-time: the Hub engines' clocks count this many nodes as a
    /// second (Kroon's `node-rate` param, sent to each), and each move is charged
    /// the nodes the engine reports before `done`. The same games then come out
    /// however busy the machine is: time management can be tested beside other
    /// work. Hub engines only (DXP clocks are real); one thread each for games that
    /// repeat exactly.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub node_rate: Option<u64>,
    /// Seconds an engine may overrun its clock, summed over the game, before it
    /// forfeits (the delay of measuring a move, not extra time for each move).
    #[arg(long, default_value_t = 0.5)]
    pub time_margin: f64,
    /// Seconds to wait for a move under --depth or --nodes before the engine is
    /// taken to hang.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Adjudicate a win when both engines' scores agree the same side is ahead by
    /// at least this many hundredths of a man ...
    #[arg(long, requires = "adjudicate_moves")]
    pub adjudicate_score: Option<i32>,
    /// ... for this many moves in a row each.
    #[arg(long, requires = "adjudicate_score")]
    pub adjudicate_moves: Option<u32>,
    /// Adjudicate a draw after this many moves each (from the opening position).
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Adjudicate a game by the endgame tables in this folder (default: the per-user
    /// data folder) as soon as its position is in them.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub adjudicate_tables: Option<PathBuf>,
    /// Games at once (each engine process plays one game at a time).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write every game as PDN to this file.
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// PDN Event tag.
    #[arg(long, default_value = "Kroon match")]
    pub event: String,
    /// Stop when a sequential test decides (two engines only, for the first):
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long)]
    pub sprt: Option<String>,
}

impl MatchArgs {
    /// The match, checked, with its openings file read.
    fn config(&self) -> Result<crate::matches::MatchConfig, String> {
        let mut engines: Vec<crate::matches::engine_spec::EngineSpec> = self
            .engines
            .iter()
            .map(|e| e.parse().map_err(|m| format!("--engine {e}: {m}")))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        let openings = openings_or_initial(self.openings.as_deref())?;
        let tc = self.time_control()?;
        if let Some(rate) = self.node_rate {
            if !matches!(tc, TimeControl::Clock { .. } | TimeControl::MoveTime(_)) {
                return Err("--node-rate needs a clock: --tc or --move-time".into());
            }
            if let Some(e) = engines.iter().find(|e| e.is_dxp()) {
                return Err(format!(
                    "--node-rate: {} speaks DXP, whose clock is the real one",
                    e.name
                ));
            }
            for e in &mut engines {
                e.options.push(("node-rate".into(), rate.to_string()));
            }
        }
        crate::matches::check_fixed_ports(&engines, self.concurrency)?;
        let dxp_time = crate::matches::dxp_time(&engines, &tc)?;
        let secs = |v: f64, name: &str| {
            seconds(v).ok_or_else(|| format!("--{name} must be a number of seconds, at least 0"))
        };
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if self.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        let adjudicate = match (self.adjudicate_score, self.adjudicate_moves) {
            (Some(s), Some(m)) if s > 0 && m > 0 => Some((s, m)),
            (Some(_), Some(_)) => {
                return Err("--adjudicate-score and --adjudicate-moves must be positive".into())
            }
            _ => None,
        };
        let sprt = match &self.sprt {
            Some(text) if engines.len() == 2 => Some(crate::matches::elo::Sprt::parse(text)?),
            Some(_) => return Err("--sprt needs exactly two engines".into()),
            None => None,
        };
        let games_per_pair = self
            .games
            .unwrap_or_else(|| {
                2u32.saturating_mul(self.rounds)
                    .saturating_mul(u32::try_from(openings.len()).unwrap_or(u32::MAX))
            })
            .min(1_000_000);
        let random_seed = self.random.then(|| {
            self.seed.unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
        });
        Ok(crate::matches::MatchConfig {
            engines,
            openings,
            random_seed,
            games_per_pair,
            tc,
            dxp_time,
            time_margin: secs(self.time_margin, "time-margin")?,
            move_timeout: secs(self.move_timeout, "move-timeout")?,
            node_rate: self.node_rate,
            adjudicate,
            max_moves: self.max_moves.filter(|&m| m > 0),
            tables: self.adjudication_tables()?,
            concurrency: self.concurrency,
            event: self.event.clone(),
            sprt,
        })
    }

    /// The one limit the command line gives each move.
    /// The tables `--adjudicate-tables` names, read (an empty folder is an error).
    fn adjudication_tables(&self) -> Result<Option<std::sync::Arc<crate::egdb::Tables>>, String> {
        let Some(dir) = &self.adjudicate_tables else {
            return Ok(None);
        };
        let dir = egdb_dir(
            Some(dir)
                .filter(|d| !d.as_os_str().is_empty())
                .map(PathBuf::as_path),
        )?;
        let tables = crate::egdb::Tables::open(&dir, crate::egdb::index::MAX_PIECES)?;
        if tables.is_empty() {
            return Err(format!(
                "--adjudicate-tables: no endgame tables in {}",
                dir.display()
            ));
        }
        eprintln!("{}", tables.describe());
        Ok(Some(std::sync::Arc::new(tables)))
    }

    fn time_control(&self) -> Result<TimeControl, String> {
        let limits = [
            self.tc.is_some(),
            self.move_time.is_some(),
            self.depth.is_some(),
            self.nodes.is_some(),
        ];
        if limits.iter().filter(|&&x| x).count() != 1 {
            return Err("give exactly one of --tc, --move-time, --depth, --nodes".into());
        }
        let tc = if let Some(tc) = &self.tc {
            tc.parse().map_err(|e| format!("bad --tc: {e}"))?
        } else if let Some(t) = self.move_time {
            let t = seconds(t)
                .filter(|t| !t.is_zero())
                .ok_or("--move-time must be a positive number of seconds")?;
            TimeControl::MoveTime(t)
        } else if let Some(d) = self.depth {
            TimeControl::Depth(d.max(1))
        } else {
            TimeControl::Nodes(self.nodes.unwrap_or(1).max(1))
        };
        Ok(tc)
    }
}

/// `kroon openings` options.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Plies from the initial position (2: every two-move opening).
    #[arg(long)]
    pub plies: u32,
    /// Keep only openings Kroon's search at this depth scores near equality.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// With --depth: the largest score kept, in hundredths of a man either way.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i32).range(0..))]
    pub margin: i32,
    /// Write here instead of stdout.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

impl OpeningsArgs {
    fn config(&self) -> crate::openings::Config {
        crate::openings::Config {
            plies: self.plies,
            balance: self.depth.map(|d| (d, self.margin)),
            out: self.out.clone(),
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

/// `kroon book ...`: see [`crate::book`].
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grow the book from the start position by Kroon's search (resumes, extends).
    Build(BookBuildArgs),
    /// Show what a book holds and how it was built.
    Stats(BookFileArgs),
    /// The book moves of a position, with their scores.
    Show(BookShowArgs),
}

/// `kroon book build`: see [`crate::tools::book_builder`].
#[derive(clap::Args, Debug)]
pub struct BookBuildArgs {
    /// The book file: an existing one is resumed or extended.
    #[arg(long, default_value = "openings/book.bin")]
    pub out: PathBuf,
    /// Stop when the book holds this many positions.
    #[arg(long, default_value_t = 21_000)]
    pub positions: usize,
    /// Nodes of each leaf's search.
    #[arg(long, default_value_t = 150_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Every position fewer than this many plies from the start is expanded.
    #[arg(long, default_value_t = 3)]
    pub full_plies: u16,
    /// Past those plies, follow only moves this many hundredths of a man or less
    /// worse than the best.
    #[arg(long, default_value_t = 12)]
    pub margin: u16,
    /// What a ply deeper costs in the expansion order, in hundredths of a man of
    /// drop-out.
    #[arg(long, default_value_t = 1)]
    pub ply_cost: u16,
    /// Leaf searches at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evaluation of the searches: `learned` (built in), `hand`, or a weights file.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// A book to read.
#[derive(clap::Args, Debug)]
pub struct BookFileArgs {
    /// A book file (default: the built-in book).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// `kroon book show`.
#[derive(clap::Args, Debug)]
pub struct BookShowArgs {
    /// The position (FEN or Hub string; default the start position).
    #[arg(long)]
    pub fen: Option<String>,
    #[command(flatten)]
    pub file: BookFileArgs,
    /// Mark the moves within this many hundredths of a man of the best.
    #[arg(long, default_value_t = crate::book::DEFAULT_MARGIN)]
    pub margin: i32,
}

impl BookFileArgs {
    fn open(&self) -> Result<std::sync::Arc<crate::book::Book>, String> {
        match &self.book {
            Some(path) => crate::book::Book::load(path).map(std::sync::Arc::new),
            None => crate::book::Book::builtin(),
        }
    }
}

fn run_book(command: BookCommand) -> Result<(), String> {
    match command {
        BookCommand::Build(args) => {
            let settings = crate::book::format::BuildSettings {
                leaf_nodes: args.nodes,
                full_plies: args.full_plies,
                margin: args.margin,
                ply_cost: args.ply_cost.max(1),
            };
            crate::tools::book_builder::run(&crate::tools::book_builder::BuildConfig {
                out: args.out,
                positions: args.positions,
                settings,
                threads: args
                    .threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                evaluator: crate::eval::Evaluator::from_name(&args.eval)?,
                progress: !args.quiet,
            })
        }
        BookCommand::Stats(args) => {
            print!("{}", crate::book::stats_text(&*args.open()?));
            Ok(())
        }
        BookCommand::Show(args) => {
            let position = match &args.fen {
                Some(text) => text
                    .parse::<Position>()
                    .map_err(|e| format!("--fen: {e}"))?,
                None => Position::initial(),
            };
            print!(
                "{}",
                crate::book::show_text(&*args.file.open()?, &position, args.margin)
            );
            Ok(())
        }
    }
}

/// Runs a parsed command line; the error is the message to print before exiting.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(args) => run_perft(&args),
        Command::Bench(args) => run_bench(&args),
        Command::Hub(args) => {
            let setup = args.setup()?;
            let input = std::io::BufReader::new(std::io::stdin());
            crate::hub::run(input, std::io::stdout(), &setup);
            Ok(())
        }
        Command::Dxp(args) => crate::dxp::run(&args.config()?),
        Command::Play(args) => {
            let setup = args.setup()?;
            let input = std::io::BufReader::new(std::io::stdin());
            crate::text::run(input, std::io::stdout(), &setup);
            Ok(())
        }
        Command::Openings(args) => crate::openings::run(&args.config()),
        Command::Match(args) => crate::matches::run(&args.config()?, args.pdn.as_deref()),
        Command::Selfplay(args) => run_selfplay(&args),
        Command::Train(args) => run_train(&args),
        Command::Book(command) => run_book(command),
        Command::Egdb(args) => run_egdb(&args),
        Command::Gui(args) => crate::gui::run(&args.config()?),
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
    let threads = match args.threads {
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
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
