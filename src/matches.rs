//! Engine matches and round robins between Hub and DXP engines (`kroon match`): the
//! match's configuration (the command line's is mapped to it in `cli`), the
//! schedule, the workers that play games side by side, the PDN file, the live
//! progress line and the final table. Each game is played in [`table`], with the
//! runner as referee and clock keeper (a [`crate::play::Clock`]); it ends with a
//! [`crate::play::Outcome`].
//!
//! The rules core referees every game: an engine's move is legal or the engine
//! loses, and the game ends when the rules say so (no legal move, repetition, the
//! 25-, 16- and 5-move rules). An engine that crashes, hangs, overruns its time or
//! breaks its protocol loses that game; it is killed and restarted for the next.

pub mod dxp_engine;
pub mod elo;
pub mod engine_process;
pub mod engine_spec;
pub mod fault;
pub mod player;
mod table;

use crate::board::{Position, Side};
use crate::dxp::message::{gamereq_time, Minutes};
use crate::game::Game;
use crate::pdn;
use crate::play::{Outcome, TimeControl};
use elo::{Pairs, Sprt, SprtVerdict, Wdl};
use engine_spec::EngineSpec;
use player::Player;
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
pub use table::play_game;

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
    /// What an engine may overrun its clock by, summed over a game.
    pub time_margin: Duration,
    pub move_timeout: Duration,
    /// Hub engines' clocks count this many nodes a second, and each move is charged
    /// its nodes (`--node-rate`).
    pub node_rate: Option<u64>,
    /// Hundredths of a man and moves each.
    pub adjudicate: Option<(i32, u32)>,
    pub max_moves: Option<u32>,
    /// Adjudicate a game by these endgame tables as soon as its position is in them.
    pub tables: Option<Arc<crate::egdb::Tables>>,
    pub concurrency: usize,
    pub event: String,
    pub sprt: Option<Sprt>,
}

/// What DXP engines are told in GAMEREQ for `tc` (minutes, and moves per period):
/// nothing when none of `engines` speaks DXP, an error naming one when `tc` is not
/// a clock DXP can state.
pub fn dxp_time(engines: &[EngineSpec], tc: &TimeControl) -> Result<(Minutes, u16), String> {
    match engines.iter().find(|e| e.is_dxp()) {
        Some(e) => gamereq_time(tc).map_err(|m| format!("{} speaks DXP: {m}", e.name)),
        None => Ok((Minutes::ZERO, 0)),
    }
}

/// A fixed port (`port=N`) serves one engine process at a time: two engines, or
/// two games at once, on one port would meet the wrong peer.
pub fn check_fixed_ports(engines: &[EngineSpec], concurrency: usize) -> Result<(), String> {
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

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub job: Job,
    pub game: Game,
    pub outcome: Outcome,
    /// Why it ended, in words that name the engines (the PDN Termination tag).
    pub termination: String,
    /// The time each side spent on its moves, by `Side::index`.
    pub time_used: [Duration; 2],
    /// Each side's clock at the end, by `Side::index` (None: no game clock).
    pub clock_left: Option<[Duration; 2]>,
    /// Each move's PDN comment (the mover's score and depth, its time).
    pub comments: Vec<String>,
}

impl GameRecord {
    /// Whether an engine lost by forfeit (crash, hang, illegal move, time).
    #[must_use]
    pub fn is_forfeit(&self) -> bool {
        matches!(self.outcome.reason, crate::play::Reason::Forfeit(_))
    }
}

/// Per-engine results.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    pub wdl: Vec<Wdl>,
    /// Per engine: how it used its clock.
    pub time: Vec<TimeUse>,
}

/// How an engine used its time over the games of a match: whether it leaves
/// time unused on the clock that a stronger move could have had.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeUse {
    pub games: u32,
    pub used: Duration,
    /// Over the games played with a clock.
    pub clocked_games: u32,
    pub left: Duration,
    /// The least time it had left at the end of a game.
    pub least_left: Option<Duration>,
}

impl TimeUse {
    fn add(&mut self, used: Duration, left: Option<Duration>) {
        self.games += 1;
        self.used += used;
        if let Some(left) = left {
            self.clocked_games += 1;
            self.left += left;
            self.least_left = Some(self.least_left.map_or(left, |l| l.min(left)));
        }
    }

    /// `used 31.2 s a game, left 20.4 s (least 3.1 s)`, or None before a game.
    #[must_use]
    pub fn summary(&self) -> Option<String> {
        if self.games == 0 {
            return None;
        }
        let mut text = format!(
            "used {:.1} s a game",
            self.used.as_secs_f64() / f64::from(self.games)
        );
        if let (Some(least), n) = (self.least_left, self.clocked_games) {
            text.push_str(&format!(
                ", clock left at the end {:.1} s a game (least {:.1} s)",
                self.left.as_secs_f64() / f64::from(n),
                least.as_secs_f64()
            ));
        }
        Some(text)
    }
}

impl Standings {
    fn new(engines: usize) -> Standings {
        Standings {
            wdl: vec![Wdl::default(); engines],
            time: vec![TimeUse::default(); engines],
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        let job = record.job;
        for (side, engine) in [(Side::White, job.white), (Side::Black, job.black)] {
            let wdl = &mut self.wdl[engine];
            match record.outcome.points(side) {
                2 => wdl.wins += 1,
                1 => wdl.draws += 1,
                _ => wdl.losses += 1,
            }
            let left = record.clock_left.map(|l| l[side.index()]);
            self.time[engine].add(record.time_used[side.index()], left);
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
            let elo = wdl.elo().map_or("-".into(), elo_text);
            let interval = wdl.elo_interval().map_or("-".into(), interval_text);
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
    let mut tags: pdn::Tags = vec![
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
    // Each side's clock when the game ended: how much time an engine leaves unused.
    if let Some(left) = record.clock_left {
        for side in [Side::White, Side::Black] {
            let name = format!("{side}Clock");
            tags.push((name, format!("{:.1}", left[side.index()].as_secs_f64())));
        }
    }
    let result = record.outcome.pdn();
    let mut text = pdn::write_annotated(
        &tags,
        &record.game,
        &record.comments,
        result,
        pdn::Layout::Wrapped,
    );
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
    /// The sequential test's LLR and verdict, and the games it was taken on: once
    /// decided, it stays as decided (see [`MatchSummary::test`]).
    pub sprt: Option<SprtState>,
    /// The first engine's finished game pairs (an opening's two games), which the
    /// test is taken on, and the first engine's points in each game whose pair
    /// is not finished yet, by pair.
    pub pairs: Pairs,
    unpaired: std::collections::HashMap<usize, f64>,
}

/// Where the sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub verdict: SprtVerdict,
    /// The games counted when the LLR was taken.
    pub games: usize,
    /// Of those, the ones in finished pairs: the test's own.
    pub paired: usize,
}

impl MatchSummary {
    /// Nothing played yet between `engines` engines.
    fn new(engines: usize) -> MatchSummary {
        MatchSummary {
            standings: Standings::new(engines),
            games: 0,
            forfeits: Vec::new(),
            sprt: None,
            pairs: Pairs::default(),
            unpaired: std::collections::HashMap::new(),
        }
    }

    /// Counts a finished game.
    fn count(&mut self, record: &GameRecord) {
        self.games += 1;
        self.standings.add(record);
        self.pair(record);
        if record.is_forfeit() {
            self.forfeits.push(format!(
                "game {}: {}",
                record.job.number, record.termination
            ));
        }
    }

    /// Files a game of a two-engine match under its pair: games 1 and 2 are the
    /// first opening's with colours reversed, 3 and 4 the second's, and so on
    /// (see [`schedule`]).
    fn pair(&mut self, record: &GameRecord) {
        if self.standings.wdl.len() != 2 {
            return;
        }
        let job = record.job;
        let first_side = if job.white == 0 {
            Side::White
        } else {
            Side::Black
        };
        let points = f64::from(record.outcome.points(first_side)) / 2.0;
        let pair = (job.number - 1) / 2;
        match self.unpaired.remove(&pair) {
            Some(other) => self.pairs.add(other, points),
            None => {
                self.unpaired.insert(pair, points);
            }
        }
    }

    /// The sequential test's verdict on the first engine's results so far (it
    /// goes on until the results say something). A verdict, once reached, is the
    /// test's answer: the games still in play when it came (up to one a worker)
    /// finish and are counted in the table, but they do not reopen the test. A
    /// sequential test stops at its first crossing; letting them move the LLR back
    /// inside the bounds would print "undecided" for a test that decided.
    fn test(&mut self, sprt: &Sprt) -> SprtVerdict {
        if let Some(state) = self.sprt.filter(|s| s.verdict != SprtVerdict::Continue) {
            return state.verdict;
        }
        let Some(llr) = sprt.llr_pairs(&self.pairs) else {
            return SprtVerdict::Continue;
        };
        let verdict = sprt.verdict(Some(llr));
        self.sprt = Some(SprtState {
            llr,
            verdict,
            games: self.games,
            paired: 2 * self.pairs.pairs() as usize,
        });
        verdict
    }
}

/// `kroon match`: runs the match and prints the table.
pub fn run(config: &MatchConfig, pdn_file: Option<&std::path::Path>) -> Result<(), String> {
    let summary = run_match(config, pdn_file)?;
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
    if let Some(line) = pairs_line(&names[0], &summary.pairs) {
        println!("{line}");
    }
    for f in &summary.forfeits {
        println!("forfeit: {f}");
    }
    if let (Some(sprt), Some(state)) = (&config.sprt, summary.sprt) {
        println!("{}", sprt_line(sprt, &state, summary.games));
    }
    for (name, time) in names.iter().zip(&summary.standings.time) {
        if let Some(text) = time.summary() {
            println!("time: {name} {text}");
        }
    }
    Ok(())
}

/// The first engine's result taken on opening pairs, as the SPRT takes it: the
/// table's interval counts the games as independent, which a match of opening
/// pairs is not (see [`elo`]). None before the first pair (and in a match of more
/// than two engines, which has no pairs).
fn pairs_line(first: &str, pairs: &Pairs) -> Option<String> {
    let interval = interval_text(pairs.elo_interval()?);
    let elo = elo_text(elo::elo_of_score(pairs.score()?));
    let [p0, p1, p2, p3, p4] = pairs.counts;
    Some(format!(
        "by opening pairs: {first} {elo} Elo, 95% {interval}; {} pairs scoring \
         0, 1, 2, 3, 4 of 4 points: {p0}, {p1}, {p2}, {p3}, {p4}",
        pairs.pairs()
    ))
}

// Adding 0.0 turns -0.0 (an even score seen from the loser's side) into 0.0.
fn elo_text(elo: f64) -> String {
    format!("{:+.1}", elo + 0.0)
}

fn interval_text((lo, hi): (f64, f64)) -> String {
    format!("[{:+.0}, {:+.0}]", lo + 0.0, hi + 0.0)
}

/// The test's last line: its LLR and verdict, and when it decided before the
/// last game, after how many games.
fn sprt_line(sprt: &Sprt, state: &SprtState, games: usize) -> String {
    let (lo, hi) = sprt.bounds();
    let verdict = match state.verdict {
        SprtVerdict::H1 => "H1 accepted",
        SprtVerdict::H0 => "H0 accepted",
        SprtVerdict::Continue => "undecided",
    };
    let when = if state.games < games {
        format!(" after {} games", state.games)
    } else {
        String::new()
    };
    // The test counts finished pairs only: the games still in play when it
    // decided, and a game whose twin was, are in the table but not in the test.
    let outside = games - state.paired;
    let pairs = state.paired / 2;
    let note = if outside > 0 {
        format!(
            " ({pairs} opening pairs; the {outside} other games are in the table, not in the test)"
        )
    } else {
        format!(" ({pairs} opening pairs)")
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{lo:.2}, {hi:.2}] {verdict}{when}{note}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, state.llr
    )
}

/// Runs the match, printing progress on stderr and writing PDN as games finish.
pub fn run_match(
    config: &MatchConfig,
    pdn_file: Option<&std::path::Path>,
) -> Result<MatchSummary, String> {
    let jobs = schedule(config);
    let total = jobs.len();
    // Before the PDN file, so that a match refused here leaves no empty file.
    make_worker_dirs(config, total)?;
    let mut pdn_out = match pdn_file {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, records) = mpsc::channel::<GameRecord>();
    let workers = start_workers(config, jobs, &stop, tx);
    let mut summary = MatchSummary::new(config.engines.len());
    let progress = Progress::new(config, total);
    let date = pdn::today();
    progress.show(&summary);
    loop {
        let record = match records.recv_timeout(Duration::from_secs(1)) {
            Ok(r) => r,
            // The elapsed time on a terminal's line moves on between games.
            Err(mpsc::RecvTimeoutError::Timeout) if progress.terminal => {
                progress.show(&summary);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        summary.count(&record);
        if let Some(out) = pdn_out.as_mut() {
            out.write_all(record_pdn(config, &record, &date).as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the PDN file: {e}"))?;
        }
        progress.show(&summary);
        if let Some(sprt) = &config.sprt {
            if summary.test(sprt) != SprtVerdict::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
    if progress.terminal {
        eprintln!();
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(summary)
}

/// How many workers play `jobs` games side by side.
fn worker_count(config: &MatchConfig, jobs: usize) -> usize {
    config.concurrency.min(jobs.max(1))
}

/// Makes the folder of each worker for engines whose `dir=` holds `{worker}`, so
/// that a wrong parent folder stops the match before its first game.
fn make_worker_dirs(config: &MatchConfig, jobs: usize) -> Result<(), String> {
    for spec in config.engines.iter().filter(|e| e.dir_per_worker()) {
        for worker in 1..=worker_count(config, jobs) {
            if let Some(dir) = spec.for_worker(worker).dir {
                std::fs::create_dir_all(&dir).map_err(|e| {
                    format!(
                        "{}: cannot make its folder {}: {e}",
                        spec.name,
                        dir.display()
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// Starts `config.concurrency` threads that play the `jobs` in turn and send each
/// finished game on `records`, until none is left or `stop` is set.
fn start_workers(
    config: &MatchConfig,
    jobs: Vec<Job>,
    stop: &Arc<AtomicBool>,
    records: mpsc::Sender<GameRecord>,
) -> Vec<std::thread::JoinHandle<()>> {
    let threads = worker_count(config, jobs.len());
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    (1..=threads)
        .map(|worker| {
            let (queue, stop, records) = (Arc::clone(&queue), Arc::clone(stop), records.clone());
            // Each worker starts its engines with its own `{worker}` folders.
            let mut config = config.clone();
            for spec in &mut config.engines {
                *spec = spec.for_worker(worker);
            }
            std::thread::spawn(move || play_jobs(&config, &queue, &stop, &records))
        })
        .collect()
}

/// One worker's life: it keeps its own engine processes (each plays one game at a
/// time) and plays job after job with them, then quits them.
fn play_jobs(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    records: &mpsc::Sender<GameRecord>,
) {
    let mut players: Vec<Option<Player>> = (0..config.engines.len()).map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let job = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
        let Some(job) = job else { break };
        if records.send(play_game(config, job, &mut players)).is_err() {
            break;
        }
    }
    for p in players.into_iter().flatten() {
        p.quit();
    }
}

/// The live progress line on stderr: games played, each engine's points, time
/// elapsed and left. On a terminal one line is rewritten; elsewhere (a log file)
/// each game adds a line.
struct Progress {
    names: Vec<String>,
    total: usize,
    started: Instant,
    terminal: bool,
}

impl Progress {
    fn new(config: &MatchConfig, total: usize) -> Progress {
        Progress {
            names: config.engines.iter().map(|e| e.name.clone()).collect(),
            total,
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, summary: &MatchSummary) {
        let (done, total) = (summary.games, self.total);
        let elapsed = self.started.elapsed();
        let remaining = if done > 0 && done < total {
            clock_text(elapsed.mul_f64((total - done) as f64 / done as f64))
        } else {
            "-".into()
        };
        let scores: Vec<String> = self
            .names
            .iter()
            .zip(&summary.standings.wdl)
            .map(|(n, w)| format!("{n} {}", w.points()))
            .collect();
        let line = format!(
            "games {done}/{total}  {}  elapsed {}  left ~{remaining}",
            scores.join(" - "),
            clock_text(elapsed)
        );
        if self.terminal {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_test_stays_decided_when_the_games_in_play_come_in() {
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let mut summary = MatchSummary::new(2);
        // 1,400 pairs that take the LLR past its upper bound, and one game more
        // whose twin is still in play...
        summary.pairs.counts = [60, 200, 800, 260, 80];
        summary.games = 2801;
        assert_eq!(summary.test(&sprt), SprtVerdict::H1);
        let decided = summary.sprt.unwrap();
        assert!(decided.llr >= sprt.bounds().1, "{decided:?}");
        assert_eq!(decided.paired, 2800);
        // ...then the games still in play, losses that would take it back inside.
        summary.pairs.counts[0] += 20;
        summary.games += 41;
        assert!(sprt.llr_pairs(&summary.pairs).unwrap() < sprt.bounds().1);
        assert_eq!(summary.test(&sprt), SprtVerdict::H1);
        assert_eq!(summary.sprt, Some(decided));
        let line = sprt_line(&sprt, &decided, summary.games);
        assert!(
            line.contains("H1 accepted after 2801 games (1400 opening pairs; the 42 other games"),
            "{line}"
        );
    }

    #[test]
    fn games_are_paired_by_their_opening_whatever_order_they_finish_in() {
        let config = MatchConfig {
            engines: vec![
                "name=a cmd=a".parse::<EngineSpec>().unwrap(),
                "name=b cmd=b".parse::<EngineSpec>().unwrap(),
            ],
            openings: vec![Position::initial(); 3],
            random_seed: Some(7),
            games_per_pair: 6,
            tc: TimeControl::Nodes(1000),
            dxp_time: (Minutes::ZERO, 0),
            time_margin: Duration::ZERO,
            move_timeout: Duration::ZERO,
            node_rate: None,
            adjudicate: None,
            max_moves: None,
            tables: None,
            concurrency: 2,
            event: String::new(),
            sprt: None,
        };
        let jobs = schedule(&config);
        // An opening's two games are numbered 2k + 1 and 2k + 2, colours reversed.
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
            assert_eq!(pair[0].number % 2, 1);
        }
        let record = |job: Job, winner: Option<Side>| GameRecord {
            job,
            game: Game::new(),
            outcome: match winner {
                Some(side) => Outcome::win(side, crate::play::Reason::NoLegalMove),
                None => Outcome::draw(crate::play::Reason::Declared),
            },
            termination: String::new(),
            time_used: [Duration::ZERO; 2],
            clock_left: None,
            comments: Vec::new(),
        };
        let mut summary = MatchSummary::new(2);
        // Engine 0 wins both games of opening 1 (as White, then as Black), draws
        // opening 2's first; opening 3's finish out of order, one won by each.
        summary.count(&record(jobs[1], Some(Side::Black)));
        summary.count(&record(jobs[4], Some(Side::White)));
        summary.count(&record(jobs[0], Some(Side::White)));
        summary.count(&record(jobs[2], None));
        summary.count(&record(jobs[5], Some(Side::White)));
        assert_eq!((jobs[0].white, jobs[1].black), (0, 0));
        assert_eq!(summary.pairs.counts, [0, 0, 1, 0, 1]);
        assert_eq!(summary.unpaired.len(), 1, "opening 2 waits for its twin");
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
}
