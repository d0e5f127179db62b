//! Engine matches and round robins between Hub and DXP engines (`kroon match`): the
//! match's configuration (the command line's is mapped to it in `cli`), the
//! schedule, the workers that play games side by side, the PDN file, the live
//! progress line and the final table. Each game is played in `table`, with the
//! runner as referee and clock keeper (a [`crate::play::Clock`]); it ends with a
//! [`crate::play::Outcome`].
//!
//! The rules core referees every game: an engine's move is legal or the engine
//! loses, and the game ends when the rules say so (no legal move, repetition, the
//! 25-, 16- and 5-move rules). An engine that crashes, hangs, overruns its time or
//! breaks its protocol loses that game; it is killed and restarted for the next.

pub mod elo;
pub mod player;
mod resume;
mod schedule;
mod standings;
mod table;

use crate::pdn;
use elo::SprtVerdict;
use player::Player;
pub use schedule::{
    check_fixed_ports, dxp_time, node_clock, own_clocks, repeats_warning, schedule, Job,
    MatchConfig,
};
use standings::{clock_text, pairs_line, sprt_line};
pub use standings::{record_pdn, GameRecord, MatchSummary, SprtState, Standings, TimeUse};
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
pub use table::play_game;

/// Where a match writes its games: the PDN file, and whether the games an earlier
/// run of the same match wrote to it count and are not played again (`--resume`).
#[derive(Clone, Copy, Debug)]
pub struct PdnOutput<'a> {
    pub path: &'a std::path::Path,
    pub resume: bool,
}

/// `kroon match`: runs the match and prints the table.
pub fn run(config: &MatchConfig, pdn_file: Option<PdnOutput>) -> Result<(), String> {
    if let Some(warning) = repeats_warning(config) {
        eprintln!("{warning}");
    }
    let summary = run_match(config, pdn_file)?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let clocks = if config.has_time_odds() {
        // Time odds: each engine's clock by its name.
        (0..config.engines.len())
            .map(|e| format!("{} {}", config.engines[e].name, config.tc_of(e)))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        config.tc.to_string()
    };
    println!(
        "{} games, {clocks}, {} openings",
        summary.games,
        config.openings.len()
    );
    if let Some(seed) = config.random_seed {
        // So a random order can be played again with --seed.
        println!("openings in random order, --seed {seed}");
    }
    if summary.resumed > 0 {
        println!(
            "{} of the games from an earlier run (--resume), {} played now; \
             the time lines count these only",
            summary.resumed,
            summary.games - summary.resumed
        );
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

/// Runs the match, printing progress on stderr and writing PDN as games finish.
pub fn run_match(
    config: &MatchConfig,
    pdn_file: Option<PdnOutput>,
) -> Result<MatchSummary, String> {
    let mut jobs = schedule(config);
    let total = jobs.len();
    let earlier = match pdn_file {
        Some(out) if out.resume && out.path.exists() => resume::read(out.path, config, &jobs)?,
        _ => resume::Earlier::default(),
    };
    // Before the PDN file, so that a match refused here leaves no empty file.
    make_worker_dirs(config, total)?;
    if earlier.games.len() < total {
        check_engines(config)?;
    }
    let mut pdn_out = match pdn_file {
        Some(out) => Some(open_pdn(out, &earlier)?),
        None => None,
    };
    let mut summary = MatchSummary::new(config.engines.len());
    let mut decided = false;
    for game in &earlier.games {
        summary.count_earlier(game);
        // As the earlier run tested after each game: a test it had decided stays so.
        if let Some(sprt) = &config.sprt {
            decided = summary.test(sprt) != SprtVerdict::Continue;
        }
    }
    // The games left to play: none once the test has decided.
    let mut played = vec![decided; total];
    for game in &earlier.games {
        played[game.job.number - 1] = true;
    }
    jobs.retain(|job| !played[job.number - 1]);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, records) = mpsc::channel::<GameRecord>();
    let workers = start_workers(config, jobs, &stop, tx);
    let progress = Progress::new(config, total, summary.games);
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
        if let Some(sprt) = &config.sprt {
            if summary.test(sprt) != SprtVerdict::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
        progress.show(&summary);
    }
    if progress.terminal {
        eprintln!();
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(summary)
}

/// Starts each engine once before the first game and stops the match if one
/// cannot: a mistyped program would otherwise forfeit every game. A Hub engine
/// also goes through its handshake, so that one that refuses an option stops the
/// match too: a mistyped `option.hash=abc` would go unnoticed while the engine
/// plays every game on its default, and the match measured the defaults. A DXP
/// engine's process is only started and ended: its handshake is a game offer, and
/// Scan 2.0 ends after each connection anyway, so a program that runs but does not
/// speak DXP is left to forfeit its games one by one with the reason in the PDN.
fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for spec in &config.engines {
        Player::check(&spec.for_worker(1)).map_err(|fault| format!("{}: {fault}", spec.name))?;
    }
    Ok(())
}

/// Opens the PDN file: a new one, or under `--resume` the earlier run's, its
/// half-written last game (if the run was stopped while writing it) cut off.
fn open_pdn(out: PdnOutput, earlier: &resume::Earlier) -> Result<std::fs::File, String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", out.path.display());
    if !out.resume {
        return std::fs::File::create(out.path).map_err(cannot);
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out.path)
        .map_err(cannot)?;
    if let Some(length) = earlier.cut_at {
        eprintln!(
            "{}: its last game was not written to the end; it is cut off and played again",
            out.path.display()
        );
        file.set_len(length).map_err(cannot)?;
    }
    if !earlier.games.is_empty() {
        eprintln!(
            "{}: {} games of an earlier run count and are not played again",
            out.path.display(),
            earlier.games.len()
        );
    }
    Ok(file)
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
    /// The games an earlier run played (`--resume`): no part of the time elapsed.
    resumed: usize,
    started: Instant,
    terminal: bool,
}

impl Progress {
    fn new(config: &MatchConfig, total: usize, resumed: usize) -> Progress {
        Progress {
            names: config.engines.iter().map(|e| e.name.clone()).collect(),
            total,
            resumed,
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, summary: &MatchSummary) {
        let line = self.line(summary, self.started.elapsed());
        if self.terminal {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    /// The line after `elapsed`: with a sequential test, its LLR so far, so that a
    /// log shows where a long test stands without a script over its PDN.
    fn line(&self, summary: &MatchSummary, elapsed: Duration) -> String {
        let (done, total) = (summary.games, self.total);
        let played = done.saturating_sub(self.resumed);
        let remaining = if played > 0 && done < total {
            clock_text(elapsed.mul_f64((total - done) as f64 / played as f64))
        } else {
            "-".into()
        };
        let scores: Vec<String> = self
            .names
            .iter()
            .zip(&summary.standings.tally)
            .map(|(n, w)| format!("{n} {}", w.points()))
            .collect();
        let mut line = format!(
            "games {done}/{total}  {}  elapsed {}  left ~{remaining}",
            scores.join(" - "),
            clock_text(elapsed)
        );
        if let Some(sprt) = summary.sprt {
            line.push_str(&format!("  LLR {:.2}", sprt.llr));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Side};
    use crate::client::engine_spec::EngineSpec;
    use crate::dxp::message::Minutes;
    use crate::game::Game;
    use crate::play::Outcome;
    use crate::time_control::TimeControl;
    use elo::Sprt;

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
    fn the_progress_line_counts_a_resumed_matchs_time_from_its_own_games() {
        let progress = Progress {
            names: vec!["new".into(), "main".into()],
            total: 100,
            resumed: 40,
            started: Instant::now(),
            terminal: false,
        };
        let mut summary = MatchSummary::new(2);
        summary.games = 50;
        summary.resumed = 40;
        summary.standings.tally[0].wins = 26;
        summary.standings.tally[0].draws = 24;
        summary.standings.tally[1].losses = 26;
        summary.standings.tally[1].draws = 24;
        // Ten games in ten minutes: the fifty left take fifty more, not 12.5 as
        // fifty games counted in the ten minutes would say.
        let line = progress.line(&summary, Duration::from_secs(600));
        assert_eq!(
            line,
            "games 50/100  new 38 - main 12  elapsed 0:10:00  left ~0:50:00"
        );
        // With a sequential test, where it stands.
        summary.pairs.counts = [0, 2, 15, 8, 0];
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        summary.test(&sprt);
        let llr = summary.sprt.unwrap().llr;
        assert!(progress
            .line(&summary, Duration::from_secs(600))
            .ends_with(&format!("left ~0:50:00  LLR {llr:.2}")));
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
            dxp_time: vec![(Minutes::ZERO, 0); 2],
            time_margin: Duration::ZERO,
            move_timeout: Duration::ZERO,
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
        // Six games from three openings play each once a colour: nothing repeats.
        assert_eq!(repeats_warning(&config), None);
        let longer = MatchConfig {
            games_per_pair: 8,
            ..config
        };
        let warning = repeats_warning(&longer).expect("game 7 repeats opening 1's first");
        assert!(warning.contains("repeat from game 7"), "{warning}");
    }

    #[test]
    fn a_node_clock_gives_each_engine_its_own_rate_or_the_default() {
        let specs = |texts: &[&str]| {
            texts
                .iter()
                .map(|t| t.parse::<EngineSpec>().unwrap())
                .collect::<Vec<_>>()
        };
        let clock: TimeControl = "60".parse().unwrap();
        let sent = |e: &EngineSpec| {
            e.options
                .iter()
                .filter(|(name, _)| name == "node-rate")
                .map(|(_, value)| value.clone())
                .collect::<Vec<_>>()
        };
        // The network's engine at its own rate, the others at --node-rate.
        let mut engines = specs(&["name=net cmd=k node-rate=138000", "name=pat cmd=k"]);
        node_clock(&mut engines, Some(300_000), &clock).unwrap();
        assert_eq!(engines[0].node_rate, Some(138_000));
        assert_eq!(engines[1].node_rate, Some(300_000));
        assert_eq!(
            (sent(&engines[0]), sent(&engines[1])),
            (vec!["138000".to_string()], vec!["300000".to_string()])
        );
        // Without any rate the clock is the real one, and nothing is sent.
        let mut engines = specs(&["name=a cmd=k", "name=b cmd=k"]);
        node_clock(&mut engines, None, &clock).unwrap();
        assert!(engines
            .iter()
            .all(|e| e.node_rate.is_none() && e.options.is_empty()));
        // One engine's rate makes it a node clock for all: the other needs one too.
        let mut engines = specs(&["name=net cmd=k node-rate=138000", "name=pat cmd=k"]);
        let err = node_clock(&mut engines, None, &clock).unwrap_err();
        assert!(
            err.contains("net's node-rate=138000") && err.contains("pat has no rate"),
            "{err}"
        );
        let mut engines = specs(&["name=a cmd=k node-rate=1000", "name=b cmd=k node-rate=10"]);
        node_clock(&mut engines, None, &clock).unwrap();
        assert_eq!(
            engines.iter().map(|e| e.node_rate).collect::<Vec<_>>(),
            [Some(1000), Some(10)]
        );
        // Nodes count only on a clock, and never on a DXP engine's.
        let err = node_clock(&mut engines, None, &TimeControl::Depth(5)).unwrap_err();
        assert!(err.contains("needs a clock: --tc or --move-time"), "{err}");
        let mut engines = specs(&[
            "name=a cmd=k node-rate=1000",
            "name=d proto=dxp cmd='d {port}'",
        ]);
        let err = node_clock(&mut engines, Some(1000), &clock).unwrap_err();
        assert!(err.contains("d speaks DXP"), "{err}");
    }

    #[test]
    fn an_engine_with_its_own_clock_is_told_its_own_time() {
        let engines: Vec<EngineSpec> = [
            "name=k cmd=k",
            "name=scan proto=dxp cmd='s {port}' tc=120",
            "name=moby proto=dxp cmd='m {port}'",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        let minute: TimeControl = "60".parse().unwrap();
        let told = dxp_time(&engines, &minute).unwrap();
        assert_eq!(told[0], (Minutes::ZERO, 0), "a Hub engine is told nothing");
        assert_eq!(told[1].0.seconds(), 120.0);
        assert_eq!(told[2].0.seconds(), 60.0);
        // A clock of its own DXP cannot state is refused by the engine's name.
        let mut odd = engines.clone();
        odd[1].tc = Some("60+1".parse().unwrap());
        let err = dxp_time(&odd, &minute).unwrap_err();
        assert!(
            err.starts_with("scan speaks DXP")
                && err.contains("increment")
                && err.ends_with("(in its tc=)"),
            "{err}"
        );
        // The match's own clock is named when it is the one at fault.
        let err = dxp_time(&engines, &"60+1".parse().unwrap()).unwrap_err();
        assert!(err.ends_with("(in --tc)"), "{err}");
        // A clock of its own needs the match on a clock.
        assert!(own_clocks(&engines, &minute).is_ok());
        let err = own_clocks(&engines, &TimeControl::Nodes(1000)).unwrap_err();
        assert!(
            err.starts_with("scan's tc=") && err.contains("--tc"),
            "{err}"
        );
        assert!(own_clocks(&engines[..1], &TimeControl::Depth(3)).is_ok());
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
