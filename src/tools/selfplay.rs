//! `kroon selfplay`: Kroon plays itself and keeps the quiet positions of its games,
//! each with the game's result and the search's score, as training data
//! (see [`super::training_data`] for the file).
//!
//! Games are numbered; game `g` belongs to shard `g % N` of `--shard I/N`, and its
//! opening, random early moves and node budgets all come from `(seed, g)`. A game
//! is played on one thread with a fresh table, so it is the same game whenever and
//! wherever it is played: a stopped run resumes by skipping the games the file
//! already holds, and shards of one seed never overlap.
//!
//! With `--versus`, the run's evaluation plays another one instead of itself
//! (White in even games, Black in odd ones), and both sides' positions are kept,
//! each scored by the search that played it: data of the positions Kroon reaches
//! against a player other than itself.

use super::progress::format_duration;
use super::training_data::{Record, RunHeader, BLOCK, SCORE_LIMIT};
use crate::board::movegen::has_capture;
use crate::board::{Position, Side};
use crate::egdb::Tables;
use crate::engine::{Engine, EngineOptions, Score, TimeControl};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::random::Rng;
use crate::wdl::Wdl;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// A game still going after this many plies is scored a draw (the draw rules end
/// nearly every game long before).
const MAX_PLIES: usize = 400;
/// Each move's node budget is drawn between these fractions of `--nodes`, so that
/// games from one opening differ.
const NODE_JITTER: (f64, f64) = (0.75, 1.25);
/// Table per game: a few thousand nodes a move fill little of it.
const HASH_MB: usize = 2;

/// What a self-play run is.
/// `openings/3-move.fen`, built in: the default start positions of self-play.
pub const THREE_MOVE: &str = include_str!("../../openings/3-move.fen");

#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub out: PathBuf,
    pub games: u64,
    pub nodes: u32,
    pub openings: Vec<Position>,
    pub random_plies: u32,
    pub seed: u64,
    pub shard: u16,
    pub shards: u16,
    pub threads: usize,
    pub evaluator: Evaluator,
    /// The other player's evaluation, when it is not `evaluator` (`--versus`).
    pub versus: Option<Evaluator>,
    /// Endgame tables complete to some piece count: the players' searches probe
    /// them, and a game ends as soon as it reaches them, with their value as its
    /// result (the true result of the ending, not the one a few thousand nodes a
    /// move would reach, and no time spent playing it out). None: no tables.
    pub tables: Option<Arc<Tables>>,
    /// Also keep positions where only the other side can capture (`--threats`).
    pub threats: bool,
    pub progress: bool,
}

impl SelfplayConfig {
    /// Positions of up to this many pieces end a game by the tables (0: none).
    /// Only complete piece counts, all read when the tables were opened, so a game
    /// is the same game whichever slices a folder holds beyond them.
    fn table_pieces(&self) -> u32 {
        self.tables.as_ref().map_or(0, |t| t.complete_pieces())
    }
}

/// The result the tables give a game that has reached them: the winner, or None
/// for a draw.
fn table_result(tables: &Tables, pieces: u32, game: &Game) -> Option<Option<Side>> {
    let pos = game.position();
    if pos.occupied().count() > pieces {
        return None;
    }
    Some(tables.probe(pos)?.winner(pos.side_to_move()))
}

/// Neither side has a capture: the positions self-play keeps by default.
fn is_quiet(pos: &Position) -> bool {
    !has_capture(pos) && !has_capture(&pos.with_side_to_move(pos.side_to_move().opponent()))
}

/// Whether self-play keeps `pos` for training: the side to move cannot capture
/// (a position with a capture pending is never judged statically), and without
/// `threats` neither can the other side. The search does judge positions where
/// only the other side can capture statically (its stand-pat with kings on the
/// board or below the horizon's first ply, its futility tests at any depth: some
/// 6-7% of the evaluations of `kroon bench`), so `--threats` trains on those too.
fn to_keep(pos: &Position, threats: bool) -> bool {
    if threats {
        !has_capture(pos)
    } else {
        is_quiet(pos)
    }
}

/// A search's score as a training file stores it (decisive scores at the limit).
pub(super) fn stored_score(score: Score) -> i16 {
    let s = match score.decisive_plies() {
        Some(p) if p >= 0 => SCORE_LIMIT,
        Some(_) => -SCORE_LIMIT,
        None => score.0.clamp(-SCORE_LIMIT, SCORE_LIMIT),
    };
    s as i16
}

/// An engine of one thread for the training tools' searches: `evaluator`, a table
/// of `hash_mb`, and the complete piece counts of `tables` probed.
pub(super) fn one_thread_engine(
    evaluator: &Evaluator,
    tables: Option<&Arc<Tables>>,
    hash_mb: usize,
) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb,
    });
    engine.set_evaluator(evaluator.clone());
    engine.set_endgame(crate::engine::Endgame {
        dir: None,
        pieces: tables.map_or(0, |t| t.complete_pieces()),
        tables: tables.cloned(),
    });
    engine
}

/// Against another player, the run's evaluation has White in even games and Black
/// in odd ones: each colour in half the games.
fn run_has_white(number: u64) -> bool {
    number.is_multiple_of(2)
}

/// Whether `record`, of a run with `header`, is a position the other player of a
/// `--versus` run moved in (its score that player's search's).
pub fn moved_by_other_player(header: &RunHeader, record: &Record) -> bool {
    header.versus && other_player_moves(record.position.side_to_move(), u64::from(record.game))
}

/// Whether the other player of a `--versus` run moves for `side` in game `number`.
fn other_player_moves(side: Side, number: u64) -> bool {
    (side == Side::White) != run_has_white(number)
}

/// The engines of one player thread: the run's evaluation, and the other player's
/// when the run plays against another (`--versus`).
struct Players {
    run: Engine,
    versus: Option<Engine>,
}

impl Players {
    fn new(config: &SelfplayConfig) -> Players {
        let engine =
            |evaluator: &Evaluator| one_thread_engine(evaluator, config.tables.as_ref(), HASH_MB);
        Players {
            run: engine(&config.evaluator),
            versus: config.versus.as_ref().map(engine),
        }
    }

    fn new_game(&mut self) {
        self.run.new_game();
        if let Some(versus) = &mut self.versus {
            versus.new_game();
        }
    }

    /// The engine that moves for `side` in game `number`.
    fn mover(&mut self, side: Side, number: u64) -> &mut Engine {
        match &mut self.versus {
            Some(versus) if other_player_moves(side, number) => versus,
            _ => &mut self.run,
        }
    }
}

/// Plays game `number` and returns its records (possibly none).
fn play_game(config: &SelfplayConfig, players: &mut Players, number: u64) -> Vec<Record> {
    let mut rng = Rng::new(config.seed, number);
    let opening = config.openings[rng.below(config.openings.len())];
    let mut game = Game::from_position(opening);
    for _ in 0..config.random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        game.play(mv).expect("a generated move is legal");
    }
    players.new_game();
    let mut kept: Vec<(Position, i16, usize)> = Vec::new();
    let pieces = config.table_pieces();
    // The winner, None for a draw.
    let winner = loop {
        if game.is_over() {
            break game.winner();
        }
        if let Some(result) = config
            .tables
            .as_deref()
            .and_then(|t| table_result(t, pieces, &game))
        {
            break result;
        }
        if game.moves().len() >= MAX_PLIES {
            break None;
        }
        let jitter = NODE_JITTER.0 + (NODE_JITTER.1 - NODE_JITTER.0) * rng.unit();
        let nodes = (f64::from(config.nodes) * jitter).max(1.0) as u64;
        let found = players
            .mover(game.side_to_move(), number)
            .search_blocking(&game, TimeControl::Nodes(nodes));
        let Some(mv) = found.best_move else {
            break if game.is_over() {
                game.winner()
            } else {
                Some(game.side_to_move().opponent())
            };
        };
        let pos = *game.position();
        // A forced move is played without a search (depth 0): no score to keep.
        if found.depth > 0 && to_keep(&pos, config.threats) {
            kept.push((pos, stored_score(found.score), game.moves().len()));
        }
        game.play(mv).expect("the search plays legal moves");
    };
    kept.into_iter()
        .map(|(position, score, ply)| Record {
            position,
            outcome: Wdl::for_side(winner, position.side_to_move()),
            ply: ply.min(255) as u8,
            score,
            game: number as u32,
        })
        .collect()
}

/// The games of this run the file already holds (those after a header of the same
/// run), and whether it ends in a partial block to cut off.
fn finished_games(
    config: &SelfplayConfig,
    header: RunHeader,
) -> Result<(HashSet<u32>, u64), String> {
    let mut done = HashSet::new();
    if !config.out.exists() {
        return Ok((done, 0));
    }
    let mut ours = false;
    let summary = super::training_data::read_file(&config.out, |block| match block {
        super::training_data::Block::Header(h) => ours = *h == header,
        super::training_data::Block::Record(r) => {
            if ours {
                done.insert(r.game);
            }
        }
    })?;
    if summary.truncated > 0 {
        eprintln!(
            "{}: cutting off a partial block of {} bytes (a run stopped while writing)",
            config.out.display(),
            summary.truncated
        );
    }
    Ok((done, summary.blocks * BLOCK as u64))
}

/// Totals for the progress line and the final report.
#[derive(Default)]
struct RunTotals {
    games: u64,
    positions: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    /// Against another player (`--versus`): the games the run's evaluation won and lost.
    run_wins: u64,
    run_losses: u64,
}

fn progress_line(t: &RunTotals, total: u64, start: Instant, versus: bool) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let rate = t.games as f64 / secs;
    let eta = if t.games > 0 && total > t.games {
        format_duration(Duration::from_secs_f64((total - t.games) as f64 / rate))
    } else {
        "-".into()
    };
    let score = if versus {
        // The run's evaluation's score, more telling than the colours'.
        format!("run +{} ={} -{}", t.run_wins, t.draws, t.run_losses)
    } else {
        format!("+{} ={} -{}", t.white_wins, t.draws, t.black_wins)
    };
    format!(
        "games {}/{} ({score}) positions {} ({:.0}/s) elapsed {} eta {}",
        t.games,
        total,
        t.positions,
        t.positions as f64 / secs,
        format_duration(start.elapsed()),
        eta
    )
}

/// The games of this shard the file still lacks, and the file opened to append them
/// after a new header (a partial block left by a stopped run cut off first).
fn open_output(config: &SelfplayConfig) -> Result<(Vec<u64>, std::fs::File), String> {
    let header = RunHeader {
        seed: config.seed,
        shard: config.shard,
        shards: config.shards,
        nodes: config.nodes,
        tables: config.table_pieces() as u8,
        versus: config.versus.is_some(),
        threats: config.threats,
    };
    let (done, keep_bytes) = finished_games(config, header)?;
    let todo: Vec<u64> = (0..config.games)
        .map(|i| i * u64::from(config.shards) + u64::from(config.shard))
        .filter(|g| !done.contains(&(*g as u32)))
        .collect();
    if !done.is_empty() {
        eprintln!(
            "{}: resuming, {} games of this run already there",
            config.out.display(),
            done.len()
        );
    }
    let failed = |e: std::io::Error| format!("{}: {e}", config.out.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .map_err(failed)?;
    file.set_len(keep_bytes).map_err(failed)?;
    file.write_all(&header.encode()).map_err(failed)?;
    Ok((todo, file))
}

/// Starts `config.threads` players that take the games of `todo` in turn and send
/// each game's records.
fn start_players(
    config: &SelfplayConfig,
    todo: Vec<u64>,
) -> (
    Vec<std::thread::JoinHandle<()>>,
    mpsc::Receiver<Vec<Record>>,
) {
    let todo = Arc::new(todo);
    let next = Arc::new(AtomicU64::new(0));
    let (send, receive) = mpsc::channel();
    let players = (0..config.threads.max(1))
        .map(|_| {
            let (config, todo, next, send) = (
                config.clone(),
                Arc::clone(&todo),
                Arc::clone(&next),
                send.clone(),
            );
            std::thread::spawn(move || {
                let mut players = Players::new(&config);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&number) = todo.get(i) else { break };
                    if send.send(play_game(&config, &mut players, number)).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    (players, receive)
}

impl RunTotals {
    fn add(&mut self, records: &[Record]) {
        self.games += 1;
        self.positions += records.len() as u64;
        let Some(r) = records.first() else { return };
        let Some(winner) = r.outcome.winner(r.position.side_to_move()) else {
            self.draws += 1;
            return;
        };
        if winner == Side::White {
            self.white_wins += 1;
        } else {
            self.black_wins += 1;
        }
        // Only shown against another player.
        if (winner == Side::White) == run_has_white(u64::from(r.game)) {
            self.run_wins += 1;
        } else {
            self.run_losses += 1;
        }
    }
}

/// Runs self-play to the end (or until every game of the shard is in the file).
pub fn run(config: &SelfplayConfig) -> Result<(), String> {
    if config.openings.is_empty() {
        return Err("no opening positions".into());
    }
    let (todo, mut out) = open_output(config)?;
    let total = todo.len() as u64;
    let (players, games) = start_players(config, todo);
    let start = Instant::now();
    let mut tally = RunTotals::default();
    let mut last_report = Instant::now();
    for records in games {
        let blocks: Vec<[u8; BLOCK]> = records.iter().map(Record::encode).collect();
        // One write per game: a run killed between games keeps whole games only.
        out.write_all(&blocks.concat())
            .map_err(|e| format!("{}: {e}", config.out.display()))?;
        tally.add(&records);
        if config.progress && last_report.elapsed() >= Duration::from_secs(1) {
            eprint!(
                "\r{}",
                progress_line(&tally, total, start, config.versus.is_some())
            );
            last_report = Instant::now();
        }
    }
    for player in players {
        let _ = player.join();
    }
    if config.progress {
        eprintln!(
            "\r{}",
            progress_line(&tally, total, start, config.versus.is_some())
        );
    }
    println!(
        "{} games, {} positions written to {} in {}",
        tally.games,
        tally.positions,
        config.out.display(),
        format_duration(start.elapsed())
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_run(versus: Option<&str>) -> SelfplayConfig {
        SelfplayConfig {
            out: PathBuf::new(),
            games: 2,
            nodes: 300,
            openings: vec![Position::initial()],
            random_plies: 2,
            seed: 5,
            shard: 0,
            shards: 1,
            threads: 1,
            evaluator: Evaluator::from_name("hand").unwrap(),
            versus: versus.map(|name| Evaluator::from_name(name).unwrap()),
            tables: None,
            threats: false,
            progress: false,
        }
    }

    #[test]
    fn against_another_player_the_run_takes_each_colour_in_turn() {
        let config = small_run(Some("learned"));
        let mut players = Players::new(&config);
        let run: *const Engine = &players.run;
        let mut is_run = |side, number| std::ptr::eq(players.mover(side, number), run);
        assert!(is_run(Side::White, 0) && !is_run(Side::Black, 0));
        assert!(!is_run(Side::White, 1) && is_run(Side::Black, 1));
        let config = small_run(None);
        let mut alone = Players::new(&config);
        let run: *const Engine = &alone.run;
        assert!(std::ptr::eq(alone.mover(Side::Black, 0), run));
    }

    #[test]
    fn a_game_against_another_player_is_not_self_play() {
        let game = |versus: Option<&str>, number| {
            let config = small_run(versus);
            play_game(&config, &mut Players::new(&config), number)
        };
        for number in [0, 1] {
            let alone = game(None, number);
            assert!(!alone.is_empty());
            // The same evaluation as the other player plays self-play's game.
            assert_eq!(game(Some("hand"), number), alone);
            // Another one plays another game, and both sides' positions are kept.
            let versus = game(Some("learned"), number);
            assert_ne!(versus, alone);
            for side in [Side::White, Side::Black] {
                assert!(versus.iter().any(|r| r.position.side_to_move() == side));
            }
        }
    }

    #[test]
    fn quiet_means_no_capture_for_either_side() {
        assert!(is_quiet(&Position::initial()));
        // White to move, but Black's man on 23 could take 28.
        let p: Position = "W:W28,40:B23,5".parse().unwrap();
        assert!(has_capture(&p));
        let q: Position = "W:W39,40:B23,5".parse().unwrap();
        assert!(is_quiet(&q));
        // White cannot take 23 (19 is taken), but Black could take 28.
        let r: Position = "W:W28,40:B23,19,5".parse().unwrap();
        assert!(!has_capture(&r));
        assert!(!is_quiet(&r));
        // With --threats the last is kept as well; a capture pending never is.
        assert!(!to_keep(&r, false) && to_keep(&r, true));
        assert!(!to_keep(&p, false) && !to_keep(&p, true));
        assert!(to_keep(&q, false) && to_keep(&q, true));
    }

    #[test]
    fn threats_keep_more_positions_of_the_same_games() {
        let threats = SelfplayConfig {
            threats: true,
            ..small_run(Some("learned"))
        };
        let plain = small_run(Some("learned"));
        let mut threatened = 0;
        for number in 0..4 {
            let with = play_game(&threats, &mut Players::new(&threats), number);
            let without = play_game(&plain, &mut Players::new(&plain), number);
            // The same game: the quiet records are those of the plain run.
            let quiet: Vec<Record> = with
                .iter()
                .filter(|r| is_quiet(&r.position))
                .copied()
                .collect();
            assert_eq!(quiet, without);
            threatened += with.len() - without.len();
        }
        assert!(threatened > 0);
    }

    #[test]
    fn the_tables_name_the_winner_whoever_is_to_move() {
        let dir =
            std::env::temp_dir().join(format!("kroon-selfplay-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        crate::tools::egdb_builder::build(&crate::tools::egdb_builder::BuildConfig {
            dir: dir.clone(),
            pieces: 3,
            progress: false,
            only: None,
        })
        .unwrap();
        let tables = Tables::open(&dir, 3).unwrap();
        let result = |fen: &str| table_result(&tables, 3, &Game::from_fen(fen).unwrap());
        // Two kings against a man: White wins, with either side to move.
        assert_eq!(result("W:WK46,K50:B5"), Some(Some(Side::White)));
        assert_eq!(result("B:WK46,K50:B5"), Some(Some(Side::White)));
        // And the colours swapped.
        assert_eq!(result("W:W46:BK5,K1"), Some(Some(Side::Black)));
        // A king against two men on the edge: a draw.
        assert_eq!(result("W:WK47:B44,45"), Some(None));
        // More pieces than the tables hold: the game goes on.
        assert_eq!(result("W:WK47,K1:B44,45"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
