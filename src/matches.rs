//! Engine matches and round robins between Hub and DXP engines (`kroon match`): the
//! command line, the schedule, the PDN file, the live progress line and the final
//! table. One game at a time is played in [`table`], with the runner as referee and
//! clock.
//!
//! The rules core referees every game: an engine's move is legal or the engine
//! loses, and the game ends when the rules say so (no legal move, repetition, the
//! 25-, 16- and 5-move rules). An engine that crashes, hangs, overruns its time or
//! breaks its protocol loses that game; it is killed and restarted for the next.

pub mod clock;
pub mod dxp_engine;
pub mod elo;
pub mod engine_process;
pub mod engine_spec;
pub mod fault;
pub mod player;
mod table;

use crate::board::{Position, Side};
use crate::dxp::message::Minutes;
use crate::game::Game;
use crate::pdn;
use elo::{Sprt, SprtVerdict, Wdl};
use engine_spec::EngineSpec;
use player::Player;
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
pub use table::play_game;

/// `kroon match` options.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: `name=NAME cmd='PROGRAM ARGS' [dir=DIR] [option.PARAM=VALUE ...]`
    /// for a Hub engine (shell-like quoting; options are sent with set-param), or
    /// `name=NAME proto=dxp cmd='PROGRAM ... {port} ...' [dir=DIR] [listen=engine|kroon]
    /// [port=N]` for a DXP engine: it listens and Kroon connects (listen=engine, the
    /// default) or the reverse, on 127.0.0.1 and a free port Kroon puts where {port}
    /// is (port=N: a fixed one). Two engines play a match, more a round robin.
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
    /// Seconds an engine may overrun its time before it forfeits.
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

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    Depth(u32),
    Nodes(u64),
    MoveTime(f64),
    /// Seconds for the game (or for each period of `moves` moves) and increment
    /// per move.
    Clock {
        time: f64,
        inc: f64,
        /// Moves per period; 0: the time is for the whole game.
        moves: u32,
    },
}

impl TimeControl {
    /// Parses `[MOVES/]SECONDS[+INCREMENT]`: `60+0.5`, `300`, or `40/120` (40
    /// moves in 120 seconds, then 120 seconds for the next 40, as DXP has it).
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("bad --tc '{text}': write [moves/]seconds[+increment], e.g. 60+0.5 or 40/120")
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                m.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(bad)?,
                rest,
            ),
            None => (0, text),
        };
        let (time, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(bad)
        };
        let (time, inc) = (secs(time)?, secs(inc)?);
        if time + inc <= 0.0 {
            return Err("--tc needs some time".into());
        }
        Ok(TimeControl::Clock { time, inc, moves })
    }
}

impl TimeControl {
    /// GAMEREQ's thinking time and moves: DXP has a clock of minutes for the game,
    /// or for each so many moves, and nothing else.
    pub fn dxp(&self) -> Result<(Minutes, u16), String> {
        let TimeControl::Clock { time, inc, moves } = *self else {
            return Err(
                "DXP engines play on a clock: give --tc SECONDS or --tc MOVES/SECONDS".into(),
            );
        };
        if inc > 0.0 {
            return Err("DXP has no increment: give --tc SECONDS or --tc MOVES/SECONDS".into());
        }
        let moves = u16::try_from(moves)
            .ok()
            .filter(|&m| m <= 999)
            .ok_or("DXP counts at most 999 moves per period")?;
        let minutes = Minutes::at_most(time);
        if minutes.is_zero() {
            return Err("DXP's clock needs at least 0.6 seconds (0.01 minutes)".into());
        }
        if minutes.seconds() < time - 1e-6 {
            log::warn!(
                "DXP engines are told {minutes} minutes, as near as GAMEREQ can say {time} s",
            );
        }
        if !minutes.is_whole() {
            log::warn!(
                "GAMEREQ's time of {minutes} minutes is a fraction, which Moby Dam reads but \
                 programs that read whole minutes only (Scan 2.0) take as 0"
            );
        }
        Ok((minutes, moves))
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes"),
            TimeControl::MoveTime(t) => write!(f, "{t} s/move"),
            TimeControl::Clock { time, inc, moves } => {
                if *moves > 0 {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{time}+{inc}")
            }
        }
    }
}

/// A match, checked and ready to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub openings: Vec<Position>,
    pub random_seed: Option<u64>,
    pub games_per_pair: u32,
    pub tc: TimeControl,
    /// What a DXP engine is told in GAMEREQ: minutes and moves (0: the whole game).
    pub dxp_time: (Minutes, u16),
    pub time_margin: Duration,
    pub move_timeout: Duration,
    /// Hundredths of a man and moves each.
    pub adjudicate: Option<(i32, u32)>,
    pub max_moves: Option<u32>,
    pub concurrency: usize,
    pub event: String,
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// Checks the command line and reads the openings file.
    pub fn from_args(args: &MatchArgs) -> Result<MatchConfig, String> {
        let engines = args
            .engines
            .iter()
            .map(|e| {
                e.parse::<EngineSpec>()
                    .map_err(|m| format!("--engine {e}: {m}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        let openings = match &args.openings {
            Some(path) => crate::openings::read_positions(path)?,
            None => vec![Position::initial()],
        };
        let tc = time_control(args)?;
        check_fixed_ports(&engines, args.concurrency)?;
        let dxp_time = match engines.iter().find(|e| e.is_dxp()) {
            Some(e) => tc
                .dxp()
                .map_err(|m| format!("{} speaks DXP: {m}", e.name))?,
            None => (Minutes::ZERO, 0),
        };
        let secs = |v: f64, name: &str| {
            if v.is_finite() && v >= 0.0 {
                Ok(Duration::from_secs_f64(v.min(1e6)))
            } else {
                Err(format!("--{name} must be a number of seconds, at least 0"))
            }
        };
        if args.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if args.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        let adjudicate = match (args.adjudicate_score, args.adjudicate_moves) {
            (Some(s), Some(m)) if s > 0 && m > 0 => Some((s, m)),
            (Some(_), Some(_)) => {
                return Err("--adjudicate-score and --adjudicate-moves must be positive".into())
            }
            _ => None,
        };
        let sprt = match &args.sprt {
            Some(text) if engines.len() == 2 => Some(Sprt::parse(text)?),
            Some(_) => return Err("--sprt needs exactly two engines".into()),
            None => None,
        };
        let games_per_pair = args
            .games
            .unwrap_or_else(|| {
                2u32.saturating_mul(args.rounds)
                    .saturating_mul(u32::try_from(openings.len()).unwrap_or(u32::MAX))
            })
            .min(1_000_000);
        let random_seed = args.random.then(|| {
            args.seed.unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
        });
        Ok(MatchConfig {
            engines,
            openings,
            random_seed,
            games_per_pair,
            tc,
            dxp_time,
            time_margin: secs(args.time_margin, "time-margin")?,
            move_timeout: secs(args.move_timeout, "move-timeout")?,
            adjudicate,
            max_moves: args.max_moves.filter(|&m| m > 0),
            concurrency: args.concurrency,
            event: args.event.clone(),
            sprt,
        })
    }
}

/// The one limit the command line gives each move.
fn time_control(args: &MatchArgs) -> Result<TimeControl, String> {
    let limits = [
        args.tc.is_some(),
        args.move_time.is_some(),
        args.depth.is_some(),
        args.nodes.is_some(),
    ];
    if limits.iter().filter(|&&x| x).count() != 1 {
        return Err("give exactly one of --tc, --move-time, --depth, --nodes".into());
    }
    let tc = if let Some(tc) = &args.tc {
        TimeControl::parse_tc(tc)?
    } else if let Some(t) = args.move_time {
        if !(t.is_finite() && t > 0.0) {
            return Err("--move-time must be a positive number of seconds".into());
        }
        TimeControl::MoveTime(t)
    } else if let Some(d) = args.depth {
        TimeControl::Depth(d.max(1))
    } else {
        TimeControl::Nodes(args.nodes.unwrap_or(1).max(1))
    };
    Ok(tc)
}

/// A fixed port (`port=N`) serves one engine process at a time: two engines, or
/// two games at once, on one port would meet the wrong peer.
fn check_fixed_ports(engines: &[EngineSpec], concurrency: usize) -> Result<(), String> {
    let mut seen: Vec<(u16, &str)> = Vec::new();
    for e in engines {
        let engine_spec::Protocol::Dxp {
            port: Some(port), ..
        } = e.protocol
        else {
            continue;
        };
        if let Some((_, other)) = seen.iter().find(|(p, _)| *p == port) {
            return Err(format!("{other} and {} both want port {port}", e.name));
        }
        if concurrency > 1 {
            return Err(format!(
                "{} has a fixed port ({port}), so it can play one game at a time: \
                 --concurrency 1, or put {{port}} in its cmd=",
                e.name
            ));
        }
        seen.push((port, &e.name));
    }
    Ok(())
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 1-based, in schedule order: the PDN Round tag.
    pub number: usize,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// SplitMix64: enough randomness to shuffle openings, reproducible from a seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The games in the order they are played: each pair of engines plays each
/// opening twice in a row, colours reversed, and the pairs take turns so that a
/// round robin's standings stay comparable while it runs.
#[must_use]
pub fn schedule(config: &MatchConfig) -> Vec<Job> {
    let mut order: Vec<usize> = (0..config.openings.len()).collect();
    if let Some(seed) = config.random_seed {
        let mut state = seed;
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    let n = config.engines.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let mut jobs = Vec::new();
    for k in 0..config.games_per_pair as usize {
        // Two games per opening: k and k+1 share it.
        let opening = order[(k / 2) % order.len()];
        for &(a, b) in &pairs {
            let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                number: 0,
                white,
                black,
                opening,
            });
        }
    }
    for (i, job) in jobs.iter_mut().enumerate() {
        job.number = i + 1;
    }
    jobs
}

/// How a game ended, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    #[must_use]
    pub fn pdn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "2-0",
            Outcome::Draw => "1-1",
            Outcome::BlackWins => "0-2",
        }
    }

    fn win_for(side: Side) -> Outcome {
        match side {
            Side::White => Outcome::WhiteWins,
            Side::Black => Outcome::BlackWins,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub job: Job,
    pub game: Game,
    pub outcome: Outcome,
    /// Why it ended, in words (the PDN Termination tag).
    pub termination: String,
    /// Whether an engine lost by forfeit (crash, hang, illegal move, time).
    pub forfeit: bool,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Per-engine results.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    pub wdl: Vec<Wdl>,
}

impl Standings {
    fn new(engines: usize) -> Standings {
        Standings {
            wdl: vec![Wdl::default(); engines],
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, job: Job, outcome: Outcome) {
        let (w, b) = (job.white, job.black);
        match outcome {
            Outcome::WhiteWins => {
                self.wdl[w].wins += 1;
                self.wdl[b].losses += 1;
            }
            Outcome::BlackWins => {
                self.wdl[b].wins += 1;
                self.wdl[w].losses += 1;
            }
            Outcome::Draw => {
                self.wdl[w].draws += 1;
                self.wdl[b].draws += 1;
            }
        }
    }

    /// The final table, one line per engine.
    #[must_use]
    pub fn table(&self, names: &[String]) -> String {
        let width = names.iter().map(String::len).max().unwrap_or(6).max(6);
        let mut out = format!(
            "{:<width$} {:>5} {:>5} {:>5} {:>5} {:>7} {:>8} {:>17} {:>6}\n",
            "engine", "games", "wins", "draws", "losses", "score", "elo", "95% interval", "LOS"
        );
        for (name, wdl) in names.iter().zip(&self.wdl) {
            let pct = wdl
                .score()
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
            // Adding 0.0 turns -0.0 (an even score seen from the loser's side) into 0.0.
            let elo = wdl.elo().map_or("-".into(), |e| format!("{:+.1}", e + 0.0));
            let interval = wdl.elo_interval().map_or("-".into(), |(lo, hi)| {
                format!("[{:+.0}, {:+.0}]", lo + 0.0, hi + 0.0)
            });
            let los = wdl
                .los()
                .map_or("-".into(), |l| format!("{:.1}%", 100.0 * l));
            out.push_str(&format!(
                "{name:<width$} {:>5} {:>5} {:>5} {:>5} {pct:>7} {elo:>8} {interval:>17} {los:>6}\n",
                wdl.games(),
                wdl.wins,
                wdl.draws,
                wdl.losses
            ));
        }
        out
    }
}

/// The PDN text of a finished game, with the blank line that separates it from
/// the next game in the file.
#[must_use]
pub fn record_pdn(config: &MatchConfig, record: &GameRecord, date: &str) -> String {
    let job = record.job;
    let tags: pdn::Tags = vec![
        ("Event".into(), config.event.clone()),
        ("Date".into(), date.into()),
        ("Round".into(), job.number.to_string()),
        ("White".into(), config.engines[job.white].name.clone()),
        ("Black".into(), config.engines[job.black].name.clone()),
        ("Result".into(), record.outcome.pdn().into()),
        ("FEN".into(), config.openings[job.opening].to_fen()),
        ("TimeControl".into(), config.tc.to_string()),
        ("Termination".into(), record.termination.clone()),
    ];
    let result = record.outcome.pdn();
    let mut text = pdn::write_game(&tags, &record.game, result, pdn::Layout::Wrapped);
    text.push('\n');
    text
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub standings: Standings,
    pub games: usize,
    pub forfeits: Vec<String>,
    pub sprt: Option<(f64, SprtVerdict)>,
}

/// Runs the match, printing progress on stderr and writing PDN as games finish.
pub fn run_match(
    config: &MatchConfig,
    pdn_file: Option<&std::path::Path>,
) -> Result<MatchSummary, String> {
    let jobs = schedule(config);
    let total = jobs.len();
    let mut pdn_out = match pdn_file {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let shared = Arc::new(config.clone());
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.min(total.max(1)) {
        let (queue, stop, tx, config) = (
            Arc::clone(&queue),
            Arc::clone(&stop),
            tx.clone(),
            Arc::clone(&shared),
        );
        workers.push(std::thread::spawn(move || {
            let mut processes: Vec<Option<Player>> =
                (0..config.engines.len()).map(|_| None).collect();
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let job = {
                    let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
                    q.pop_front()
                };
                let Some(job) = job else { break };
                let record = play_game(&config, job, &mut processes);
                if tx.send(record).is_err() {
                    break;
                }
            }
            for p in processes.into_iter().flatten() {
                p.quit();
            }
        }));
    }
    drop(tx);

    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::new(names.len());
    let mut forfeits = Vec::new();
    let mut done = 0usize;
    let mut sprt_state = None;
    let started = Instant::now();
    let date = pdn::today();
    let terminal = std::io::stderr().is_terminal();
    let progress = |done: usize, standings: &Standings, final_line: bool| {
        let elapsed = started.elapsed();
        let remaining = if done > 0 && done < total {
            clock_text(elapsed.mul_f64((total - done) as f64 / done as f64))
        } else {
            "-".into()
        };
        let scores: Vec<String> = names
            .iter()
            .zip(&standings.wdl)
            .map(|(n, w)| format!("{n} {}", w.points()))
            .collect();
        let line = format!(
            "games {done}/{total}  {}  elapsed {}  left ~{remaining}",
            scores.join(" - "),
            clock_text(elapsed)
        );
        if terminal {
            eprint!("\r{line}\x1b[K");
            if final_line {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
    };
    progress(0, &standings, false);
    loop {
        let record = match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(r) => r,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if terminal {
                    progress(done, &standings, false);
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        done += 1;
        standings.add(record.job, record.outcome);
        if record.forfeit {
            forfeits.push(format!(
                "game {}: {}",
                record.job.number, record.termination
            ));
        }
        if let Some(out) = pdn_out.as_mut() {
            out.write_all(record_pdn(config, &record, &date).as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the PDN file: {e}"))?;
        }
        progress(done, &standings, false);
        if let Some(sprt) = &config.sprt {
            let wdl = &standings.wdl[0];
            if let Some(llr) = sprt.llr(wdl) {
                let verdict = sprt.verdict(wdl);
                sprt_state = Some((llr, verdict));
                if verdict != SprtVerdict::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }
    if terminal {
        eprintln!();
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(MatchSummary {
        standings,
        games: done,
        forfeits,
        sprt: sprt_state,
    })
}

/// `kroon match`: runs the match and prints the table.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let config = MatchConfig::from_args(args)?;
    let summary = run_match(&config, args.pdn.as_deref())?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    println!(
        "{} games, {}, {} openings",
        summary.games,
        config.tc,
        config.openings.len()
    );
    if let Some(seed) = config.random_seed {
        // So a random order can be played again with --seed.
        println!("openings in random order, --seed {seed}");
    }
    print!("{}", summary.standings.table(&names));
    for f in &summary.forfeits {
        println!("forfeit: {f}");
    }
    if let (Some(sprt), Some((llr, verdict))) = (config.sprt, summary.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match verdict {
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::Continue => "undecided",
        };
        println!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            TimeControl::parse_tc("60+0.5").unwrap(),
            TimeControl::Clock {
                time: 60.0,
                inc: 0.5,
                moves: 0
            }
        );
        assert_eq!(
            TimeControl::parse_tc("300").unwrap(),
            TimeControl::Clock {
                time: 300.0,
                inc: 0.0,
                moves: 0
            }
        );
        let tc = TimeControl::parse_tc("40/120").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                time: 120.0,
                inc: 0.0,
                moves: 40
            }
        );
        assert_eq!(tc.to_string(), "40/120+0");
        assert!(TimeControl::parse_tc("0/120").is_err());
        assert!(TimeControl::parse_tc("x/120").is_err());
        assert!(TimeControl::parse_tc("x+1").is_err());
        assert!(TimeControl::parse_tc("-1+1").is_err());
        assert!(TimeControl::parse_tc("0").is_err());
    }

    #[test]
    fn a_fixed_port_serves_one_engine_at_a_time() {
        let specs = |texts: &[&str]| {
            texts
                .iter()
                .map(|t| t.parse::<EngineSpec>().unwrap())
                .collect::<Vec<_>>()
        };
        let two = specs(&[
            "name=a proto=dxp cmd=a port=9000",
            "name=b proto=dxp cmd='b {port}'",
        ]);
        assert!(check_fixed_ports(&two, 1).is_ok());
        assert!(check_fixed_ports(&two, 2)
            .unwrap_err()
            .contains("--concurrency 1"));
        let clash = specs(&[
            "name=a proto=dxp cmd=a port=9000",
            "name=b proto=dxp cmd=b port=9000",
        ]);
        assert!(check_fixed_ports(&clash, 1)
            .unwrap_err()
            .contains("both want port 9000"));
    }

    #[test]
    fn dxp_clocks_are_minutes_without_increment() {
        let dxp = |text: &str| TimeControl::parse_tc(text).unwrap().dxp();
        assert_eq!(dxp("60").unwrap(), (Minutes::whole(1), 0));
        assert_eq!(dxp("75/300").unwrap(), (Minutes::whole(5), 75));
        assert_eq!(dxp("30").unwrap(), (Minutes::at_most(30.0), 0));
        assert!(dxp("60+1").unwrap_err().contains("increment"));
        assert!(dxp("1000/60").unwrap_err().contains("999"));
        assert!(dxp("0.5").unwrap_err().contains("0.6"));
        assert!(TimeControl::Depth(3).dxp().unwrap_err().contains("--tc"));
    }
}
