//! The DXP front end (DamExchange Protocol): plays games against another program
//! over TCP, as server or client, initiator or follower. It only translates between
//! the peer and the [`Engine`]: moves are checked by the rules core, the search is
//! the engine's, the game record is [`Game`]'s.
//!
//! Each connection runs one loop over events: frames from a reader thread, the
//! peer closing, and the engine saying that its search ended. So a peer that speaks
//! while we think, or vanishes, is noticed at once instead of after the search, and
//! our move goes out as soon as it is found. GAMEREQ's time becomes a
//! [`crate::play::Clock`]; a game's result is a [`crate::play::Outcome`].

pub mod message;
pub mod transport;

use crate::board::notation::hub_move;
use crate::board::{Bitboard, Position, Side};
use crate::engine::{Engine, EngineSetup, GoMode, Limit};
use crate::game::Game;
use crate::pdn;
use crate::play::outcome::UNFINISHED;
use crate::play::{Clock, Outcome, Tally};
use message::{AcceptCode, BackCode, DecodeError, EndReason, Message, Minutes};
use std::collections::VecDeque;
use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use transport::{Frame, FrameReader, FrameWriter};

/// The port DXP programs use by default (and the one pydraughts always connects to).
pub const DEFAULT_PORT: u16 = 27531;

/// With no clock agreed (time `000`), this much per move.
const NO_CLOCK_MOVE_TIME: Duration = Duration::from_secs(1);

/// How long an initiator waits for GAMEACC before giving up on the peer.
const ACCEPT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long we wait for the peer to acknowledge our GAMEEND: some programs never
/// do, and the next game (or connection) must not hang on it.
const END_ACK_TIMEOUT: Duration = Duration::from_secs(5);

/// How long `--connect` keeps retrying while the other program starts up.
const CONNECT_RETRY: Duration = Duration::from_secs(10);

/// Shortest clock handed to the search, so an overstepped clock still gives a move.
const MIN_CLOCK: Duration = Duration::from_millis(50);

/// What an initiator proposes.
#[derive(Clone, Debug)]
pub struct Series {
    pub games: u32,
    pub minutes: Minutes,
    pub moves: u16,
    /// Start positions; each is played twice, Kroon White first.
    pub openings: Vec<Position>,
}

/// Where the peer is.
#[derive(Clone, Debug)]
pub enum Endpoint {
    Listen(String),
    Connect(String),
}

/// Everything a DXP run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub endpoint: Endpoint,
    /// `Some`: Kroon initiates this series; `None`: Kroon follows.
    pub series: Option<Series>,
    pub engine: EngineSetup,
    pub depth: Option<u32>,
    pub pdn: Option<PathBuf>,
    /// Our name in GAMEREQ / GAMEACC.
    pub name: String,
}

/// `[ADDR:]PORT` -> `ADDR:PORT`, the address defaulting to the loopback.
#[must_use]
pub fn listen_address(text: &str) -> String {
    if text.parse::<u16>().is_ok() {
        format!("127.0.0.1:{text}")
    } else {
        text.to_string()
    }
}

/// Plays over DXP as configured. A listening follower serves connection after
/// connection and only returns on an error binding its address.
pub fn run(config: &Config) -> Result<(), String> {
    let mut engine = config.engine.engine();
    let mut score = Score::default();
    match &config.endpoint {
        Endpoint::Connect(addr) => {
            let stream = connect(addr)?;
            Session::new(stream, &mut engine, config, &mut score)?.run();
            Ok(())
        }
        Endpoint::Listen(addr) => {
            let listener =
                TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
            // The address bound, which names the port the system chose for port 0:
            // the peer, or whatever starts it, needs to know where to connect.
            let addr = listener
                .local_addr()
                .map_or_else(|_| addr.clone(), |a| a.to_string());
            eprintln!("listening on {addr}");
            for stream in listener.incoming() {
                let stream = match stream {
                    Ok(s) => s,
                    Err(e) => {
                        log::warn!("accepting a connection failed: {e}");
                        continue;
                    }
                };
                match Session::new(stream, &mut engine, config, &mut score) {
                    Ok(session) => session.run(),
                    Err(e) => log::warn!("{e}"),
                }
                // An initiator's series is over once its peer is gone; a follower
                // waits for the next peer.
                if config.series.is_some() {
                    break;
                }
                log::info!("listening on {addr} again");
            }
            Ok(())
        }
    }
}

fn connect(addr: &str) -> Result<TcpStream, String> {
    let started = Instant::now();
    loop {
        let attempt = addr
            .to_socket_addrs()
            .map_err(|e| format!("bad address {addr}: {e}"))?
            .find_map(|a| TcpStream::connect(a).ok());
        match attempt {
            Some(stream) => return Ok(stream),
            None if started.elapsed() < CONNECT_RETRY => {
                std::thread::sleep(Duration::from_millis(100));
            }
            None => return Err(format!("cannot connect to {addr}")),
        }
    }
}

/// The running score of the series, from Kroon's view, and the games that ended
/// without a result.
#[derive(Default, Debug)]
struct Score {
    tally: Tally,
    unfinished: u32,
}

impl Score {
    fn games(&self) -> u32 {
        self.tally.games() + self.unfinished
    }
}

/// What a connection's loop waits for: the reader thread's frames, or the peer
/// closing, or the end of our search.
enum Event {
    Message(Result<Message, DecodeError>),
    Closed(String),
    /// The search with this number ended.
    SearchDone(u64),
}

/// A game under way (or ending).
struct Play {
    game: Game,
    ours: Side,
    peer: String,
    /// Both sides' time, as GAMEREQ agreed (None: no clock, see [`NO_CLOCK_MOVE_TIME`]).
    clock: Option<Clock>,
    /// When the side to move started thinking.
    turn_started: Instant,
    /// When we sent our GAMEEND.
    end_sent: Option<Instant>,
    /// The peer's GAMEEND reason, from its view.
    peer_end: Option<EndReason>,
    /// Why the game stopped short of a result, for the log and the PDN.
    note: Option<String>,
}

impl Play {
    /// A game from `start`, Kroon playing `ours`, on GAMEREQ's clock.
    fn new(start: Position, ours: Side, peer: String, minutes: Minutes, moves: u16) -> Play {
        Play {
            game: Game::from_position(start),
            ours,
            peer,
            clock: message::time_control(minutes, moves).and_then(|tc| Clock::new(&tc)),
            turn_started: Instant::now(),
            end_sent: None,
            peer_end: None,
            note: None,
        }
    }

    fn our_turn(&self) -> bool {
        self.game.side_to_move() == self.ours
    }

    /// Charges the side to move for its move. Kroon does not referee the clock in
    /// DXP (the peer's count is its own), so a move over the time is only logged.
    fn charge_move(&mut self) -> Duration {
        let spent = self.turn_started.elapsed();
        let side = self.game.side_to_move();
        if let Some(clock) = &mut self.clock {
            if let Err(over) = clock.charge(side, spent, Duration::ZERO) {
                log::warn!("{side} overstepped the time by {:.1} s", over.as_secs_f64());
            }
        }
        self.turn_started = Instant::now();
        spent
    }

    fn limit(&self, depth: Option<u32>) -> Limit {
        if let Some(d) = depth {
            return Limit::Depth(d);
        }
        let Some(clock) = &self.clock else {
            return Limit::MoveTime(NO_CLOCK_MOVE_TIME);
        };
        let mut limit = clock.limit(self.ours, self.turn_started.elapsed());
        if let Limit::Clock { remaining, .. } = &mut limit {
            *remaining = (*remaining).max(MIN_CLOCK);
        }
        limit
    }

    /// How the game ended: on the board when the rules say so, else as the peer
    /// declared in its GAMEEND (None: unfinished).
    fn outcome(&self) -> Option<Outcome> {
        if let Some(result) = self.game.result() {
            return Some(result.into());
        }
        Outcome::declared(self.peer_end?, self.ours.opponent())
    }

    /// The finished game's reason from our view, for our GAMEEND.
    fn our_reason(&self) -> EndReason {
        self.game.result().map_or(EndReason::Unknown, |r| {
            Outcome::from(r).end_reason(self.ours)
        })
    }
}

/// What the event loop does next.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Close,
}

/// One connection to a peer.
struct Session<'a> {
    writer: FrameWriter<TcpStream>,
    stream: TcpStream,
    events: Receiver<Event>,
    /// The sending end of `events`, for the engine to say that a search ended.
    notify: Sender<Event>,
    /// Searches started, each by its number.
    searches: u64,
    /// Events that arrived while we were thinking, handled after our move.
    pending: VecDeque<Event>,
    engine: &'a mut Engine,
    config: &'a Config,
    score: &'a mut Score,
    play: Option<Play>,
    /// Initiator: the game proposed and not yet accepted.
    proposed: Option<(Play, Instant)>,
    /// Initiator: games proposed so far in this session.
    proposals: u32,
    /// Initiator: the peer asked for no more games, or refused them.
    series_over: bool,
    peer_addr: String,
}

impl<'a> Session<'a> {
    fn new(
        stream: TcpStream,
        engine: &'a mut Engine,
        config: &'a Config,
        score: &'a mut Score,
    ) -> Result<Session<'a>, String> {
        let peer_addr = stream
            .peer_addr()
            .map_or_else(|_| "?".to_string(), |a| a.to_string());
        let _ = stream.set_nodelay(true);
        let read_half = stream
            .try_clone()
            .map_err(|e| format!("connection from {peer_addr}: {e}"))?;
        let write_half = stream
            .try_clone()
            .map_err(|e| format!("connection from {peer_addr}: {e}"))?;
        let (tx, rx) = mpsc::channel();
        let notify = tx.clone();
        std::thread::Builder::new()
            .name("kroon-dxp-reader".into())
            .spawn(move || {
                let mut reader = FrameReader::new(read_half);
                loop {
                    let event = match reader.next_frame() {
                        Ok(Some(Frame::Text(text))) => {
                            log::debug!("dxp < {text}");
                            Event::Message(text.parse())
                        }
                        Ok(Some(Frame::Garbage(why))) => Event::Message(Err(DecodeError {
                            kind: None,
                            detail: why,
                        })),
                        Ok(None) => Event::Closed("the peer closed the connection".into()),
                        Err(e) => Event::Closed(format!("the connection failed: {e}")),
                    };
                    let last = matches!(event, Event::Closed(_));
                    if tx.send(event).is_err() || last {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        log::info!("connected to {peer_addr}");
        Ok(Session {
            writer: FrameWriter::new(write_half),
            stream,
            events: rx,
            notify,
            searches: 0,
            pending: VecDeque::new(),
            engine,
            config,
            score,
            play: None,
            proposed: None,
            proposals: 0,
            series_over: false,
            peer_addr,
        })
    }

    fn send(&mut self, msg: &Message) {
        log::debug!("dxp > {msg}");
        // A failed write means the peer is gone; the reader thread reports that.
        if let Err(e) = self.writer.send(msg) {
            log::warn!("cannot send to {}: {e}", self.peer_addr);
        }
    }

    fn chat(&mut self, text: String) {
        self.send(&Message::Chat(text));
    }

    fn next_event(&mut self, timeout: Option<Duration>) -> Option<Event> {
        if let Some(e) = self.pending.pop_front() {
            return Some(e);
        }
        let event = match timeout {
            None => self.events.recv().ok(),
            Some(t) => match self.events.recv_timeout(t) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        Some(event.unwrap_or_else(|| Event::Closed("the reader stopped".into())))
    }

    /// Serves the connection until it ends, then closes it.
    fn run(mut self) {
        loop {
            if self.config.series.is_some()
                && self.play.is_none()
                && self.proposed.is_none()
                && (self.series_over || !self.propose_next())
            {
                break;
            }
            self.move_if_our_turn();
            let timeout = self
                .deadline()
                .map(|d| d.saturating_duration_since(Instant::now()));
            let flow = match self.next_event(timeout) {
                None => {
                    self.timed_out();
                    Flow::Continue
                }
                Some(Event::Closed(why)) => {
                    log::info!("{}: {why}", self.peer_addr);
                    self.abandon(&format!("the peer vanished ({why})"));
                    Flow::Close
                }
                Some(Event::Message(msg)) => {
                    self.writer.heard();
                    self.handle(msg)
                }
                // Every search is waited for where it starts; none ends here.
                Some(Event::SearchDone(_)) => Flow::Continue,
            };
            if flow == Flow::Close {
                break;
            }
        }
        self.abandon("the connection was closed");
        let _ = self.stream.shutdown(Shutdown::Both);
        log::info!("disconnected from {}", self.peer_addr);
    }

    /// When waiting must end even if the peer stays silent.
    fn deadline(&self) -> Option<Instant> {
        if let Some((_, since)) = &self.proposed {
            return Some(*since + ACCEPT_TIMEOUT);
        }
        self.play
            .as_ref()
            .and_then(|p| p.end_sent)
            .map(|t| t + END_ACK_TIMEOUT)
    }

    fn timed_out(&mut self) {
        if self.proposed.take().is_some() {
            log::warn!("{} did not answer the game request", self.peer_addr);
            self.series_over = true;
        } else if self.play.as_ref().is_some_and(|p| p.end_sent.is_some()) {
            log::info!("{} did not acknowledge the game end", self.peer_addr);
            self.finish();
        }
    }

    /// Initiator: proposes the next game of the series; false when it is complete.
    fn propose_next(&mut self) -> bool {
        let Some(series) = &self.config.series else {
            return false;
        };
        if self.proposals >= series.games {
            return false;
        }
        let i = self.proposals;
        let start = series.openings[(i / 2) as usize % series.openings.len()];
        let ours = if i.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        let (minutes, moves) = (series.minutes, series.moves);
        self.proposals += 1;
        let msg = Message::GameReq {
            version: message::VERSION,
            initiator: self.config.name.clone(),
            follower_side: ours.opponent(),
            minutes,
            moves,
            start: (start != Position::initial()).then_some(start),
        };
        self.send(&msg);
        let play = Play::new(start, ours, String::new(), minutes, moves);
        self.proposed = Some((play, Instant::now()));
        true
    }

    fn handle(&mut self, msg: Result<Message, DecodeError>) -> Flow {
        let msg = match msg {
            Ok(m) => m,
            Err(e) => return self.malformed(&e),
        };
        match msg {
            Message::GameReq {
                version,
                initiator,
                follower_side,
                minutes,
                moves,
                start,
            } => self.game_request(version, initiator, follower_side, minutes, moves, start),
            Message::GameAcc { follower, code } => self.game_accepted(follower, code),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => self.peer_move(seconds, from, to, &captured),
            Message::GameEnd { reason, stop } => return self.game_end(reason, stop),
            Message::Chat(text) => log::info!("{} says: {text}", self.peer_addr),
            Message::BackReq { move_number, side } => self.back_request(move_number, side),
            Message::BackAcc { code } => log::info!("BACKACC {code:?} (Kroon never asks)"),
        }
        Flow::Continue
    }

    /// Follower: a GAMEREQ, accepted when Kroon can play it.
    fn game_request(
        &mut self,
        version: u8,
        initiator: String,
        follower_side: Side,
        minutes: Minutes,
        moves: u16,
        start: Option<Position>,
    ) {
        if self.config.series.is_some() {
            log::warn!("{initiator} proposes a game but Kroon is the initiator here");
            self.chat("I am the initiator in this session: I propose the games".into());
            self.accept(AcceptCode::NoGames);
            return;
        }
        if self.play.is_some() {
            self.abandon("a new game request arrived before it ended");
        }
        if version != message::VERSION {
            log::warn!("{initiator} asks for DXP version {version}; only 1 exists");
            self.chat(format!("DXP version {version} is not supported, only 01"));
            self.accept(AcceptCode::BadVersion);
            return;
        }
        let start = start.unwrap_or_else(Position::initial);
        log::info!(
            "game request from {initiator}: Kroon plays {follower_side}, {minutes} min / {moves} moves, from {}",
            start.to_fen()
        );
        self.engine.new_game();
        self.play = Some(Play::new(start, follower_side, initiator, minutes, moves));
        self.accept(AcceptCode::Accepted);
        // Our clock starts once the peer can know the game is on.
        if let Some(p) = &mut self.play {
            p.turn_started = Instant::now();
        }
        self.check_over();
    }

    /// Initiator: the answer to the game proposed.
    fn game_accepted(&mut self, follower: String, code: AcceptCode) {
        match self.proposed.take() {
            Some((mut play, _)) if code == AcceptCode::Accepted => {
                log::info!("{follower} accepted the game");
                play.peer = follower;
                play.turn_started = Instant::now();
                self.engine.new_game();
                self.play = Some(play);
                self.check_over();
            }
            Some(_) => {
                log::warn!("{follower} refused the game ({code:?})");
                // Another game may be accepted only after "not this game".
                if code != AcceptCode::NotThisGame {
                    self.series_over = true;
                }
            }
            None => log::warn!("unexpected GAMEACC from {follower}: no game was proposed"),
        }
    }

    /// The peer's GAMEEND: answered with ours unless it answers ours, and the game
    /// recorded; with the stop code, the session ends.
    fn game_end(&mut self, reason: EndReason, stop: bool) -> Flow {
        match &mut self.play {
            Some(play) => {
                play.peer_end = Some(reason);
                if play.end_sent.is_none() {
                    let reason = play.our_reason();
                    if play.game.result().is_none() {
                        play.note = Some("the peer ended the game".into());
                    }
                    self.send_end(reason);
                }
                self.finish();
            }
            None => log::debug!("GAMEEND with no game under way (a late acknowledgement)"),
        }
        if stop {
            log::info!("{} wants no further game", self.peer_addr);
            self.series_over = true;
            return Flow::Close;
        }
        Flow::Continue
    }

    fn accept(&mut self, code: AcceptCode) {
        self.send(&Message::GameAcc {
            follower: self.config.name.clone(),
            code,
        });
    }

    fn malformed(&mut self, e: &DecodeError) -> Flow {
        log::warn!("{}: {e}", self.peer_addr);
        self.chat(e.to_string());
        match e.kind {
            Some('R') if self.config.series.is_none() => {
                if self.play.is_some() {
                    self.abandon("a new game request arrived before it ended");
                }
                self.accept(AcceptCode::NotThisGame);
            }
            // Without the move the game cannot go on.
            Some('M') if self.play.as_ref().is_some_and(|p| p.end_sent.is_none()) => {
                self.stop_game(format!("unreadable move from the peer: {}", e.detail));
            }
            _ => {}
        }
        Flow::Continue
    }

    /// Ends the game under way because it cannot go on.
    fn stop_game(&mut self, why: String) {
        if let Some(play) = &mut self.play {
            play.note = Some(why);
            self.send_end(EndReason::Unknown);
        }
    }

    fn peer_move(
        &mut self,
        seconds: u16,
        from: crate::board::Square,
        to: crate::board::Square,
        captured: &[crate::board::Square],
    ) {
        let Some(play) = &mut self.play else {
            log::warn!("MOVE with no game under way");
            self.chat("there is no game under way: move ignored".into());
            return;
        };
        if play.end_sent.is_some() {
            log::debug!("MOVE after our GAMEEND, ignored");
            return;
        }
        let text = format!(
            "{from}{}{to}{}",
            if captured.is_empty() { '-' } else { 'x' },
            captured.iter().map(|s| format!("x{s}")).collect::<String>()
        );
        let problem = if play.our_turn() {
            Some(format!("move {text} arrived, but it is Kroon's turn"))
        } else {
            let wanted = Bitboard::from_squares(captured.iter().copied());
            let found = play.game.legal_moves().into_iter().find(|m| {
                m.from() == from
                    && m.to() == to
                    && m.captured() == wanted
                    && wanted.count() as usize == captured.len()
            });
            match found {
                Some(mv) => {
                    play.charge_move();
                    log::debug!("peer plays {} ({seconds} s by its count)", hub_move(mv));
                    if let Err(e) = play.game.play(mv) {
                        Some(format!("move {text}: {e}"))
                    } else {
                        None
                    }
                }
                None => {
                    let legal: Vec<String> = play
                        .game
                        .legal_moves()
                        .iter()
                        .map(|&m| hub_move(m))
                        .collect();
                    Some(format!(
                        "illegal move {text} in {}: legal moves are {}",
                        play.game.position().to_fen(),
                        legal.join(" ")
                    ))
                }
            }
        };
        match problem {
            Some(why) => {
                log::warn!("{}: {why}", self.peer_addr);
                self.chat(why.clone());
                self.stop_game(why);
            }
            None => self.check_over(),
        }
    }

    fn back_request(&mut self, move_number: u16, side: Side) {
        let target = self.play.as_ref().and_then(|play| {
            if play.end_sent.is_some() {
                return None;
            }
            // Moves are numbered from 1 at the start position, whoever moves first.
            let start_ply = usize::from(play.game.start().side_to_move() == Side::Black);
            let ply = (usize::from(move_number).checked_sub(1)? * 2
                + usize::from(side == Side::Black))
            .checked_sub(start_ply)?;
            (ply <= play.game.moves().len()).then_some(ply)
        });
        match (target, &mut self.play) {
            (Some(ply), Some(play)) => {
                while play.game.moves().len() > ply {
                    play.game.undo();
                }
                play.turn_started = Instant::now();
                log::info!("took back to move {move_number} {side}");
                self.send(&Message::BackAcc {
                    code: BackCode::Accepted,
                });
            }
            _ => {
                log::warn!("cannot take back to move {move_number} {side}");
                self.chat(format!(
                    "cannot take back to move {move_number} with {side} to move"
                ));
                self.send(&Message::BackAcc {
                    code: BackCode::NotSupported,
                });
            }
        }
    }

    /// Sends our GAMEEND once the board says the game is over.
    fn check_over(&mut self) {
        if let Some(play) = &self.play {
            if play.end_sent.is_none() && play.game.result().is_some() {
                let reason = play.our_reason();
                self.send_end(reason);
            }
        }
    }

    fn send_end(&mut self, reason: EndReason) {
        let last = self
            .config
            .series
            .as_ref()
            .is_some_and(|s| self.proposals >= s.games);
        if let Some(play) = &mut self.play {
            play.end_sent = Some(Instant::now());
        }
        self.send(&Message::GameEnd { reason, stop: last });
        if self.play.as_ref().is_some_and(|p| p.peer_end.is_some()) {
            self.finish();
        }
    }

    /// Thinks and plays while it is our turn in a game going on.
    fn move_if_our_turn(&mut self) {
        loop {
            let Some(play) = &self.play else { return };
            if !play.our_turn() || play.end_sent.is_some() || play.game.result().is_some() {
                return;
            }
            let limit = play.limit(self.config.depth);
            self.searches += 1;
            let (id, notify) = (self.searches, self.notify.clone());
            self.engine.go(
                &play.game,
                limit,
                GoMode::Think,
                |_| {},
                move || {
                    let _ = notify.send(Event::SearchDone(id));
                },
            );
            let interrupted = self.listen_while_thinking(id);
            let result = self.engine.wait();
            if interrupted {
                return;
            }
            let Some(play) = &mut self.play else { return };
            let Some(mv) = result.best_move else {
                // Cannot happen with a legal move on the board; end rather than hang.
                self.stop_game("the search found no move".into());
                return;
            };
            let spent = play.charge_move();
            if let Err(e) = play.game.play(mv) {
                let why = format!("the engine's move {} was refused: {e}", hub_move(mv));
                log::error!("{why}");
                self.stop_game(why);
                return;
            }
            let mut captured: Vec<_> = mv.captured().squares().collect();
            captured.sort_by_key(|s| s.number());
            self.send(&Message::Move {
                seconds: u16::try_from(spent.as_secs_f64().round() as u64).unwrap_or(9999),
                from: mv.from(),
                to: mv.to(),
                captured,
            });
            self.check_over();
        }
    }

    /// Listens to the peer until search `id` ends. Anything but chat may change the
    /// game, so it stops the search and waits in `pending`, to be handled after it;
    /// returns whether that happened (the search's move is then not played).
    fn listen_while_thinking(&mut self, id: u64) -> bool {
        let mut interrupted = false;
        loop {
            match self.events.recv() {
                Ok(Event::SearchDone(done)) if done == id => return interrupted,
                Ok(Event::SearchDone(_)) => {}
                Ok(Event::Message(Ok(Message::Chat(text)))) => {
                    self.writer.heard();
                    log::info!("{} says: {text}", self.peer_addr);
                }
                Ok(event) => {
                    self.pending.push_back(event);
                    interrupted = true;
                    self.engine.stop();
                }
                // Cannot happen while the session holds a sender; stop and collect.
                Err(_) => {
                    self.pending
                        .push_back(Event::Closed("the reader stopped".into()));
                    self.engine.stop();
                    return true;
                }
            }
        }
    }

    /// A game under way ends without a proper end: keep what was played.
    fn abandon(&mut self, why: &str) {
        if self.proposed.take().is_some() {
            log::info!("the proposed game did not start: {why}");
        }
        if let Some(play) = &mut self.play {
            if play.note.is_none() && play.game.result().is_none() && play.peer_end.is_none() {
                play.note = Some(why.to_string());
            }
            self.finish();
        }
    }

    /// Records the game that just ended: PDN, result line, score.
    fn finish(&mut self) {
        let Some(play) = self.play.take() else { return };
        let outcome = play.outcome();
        let result = outcome.as_ref().map_or(UNFINISHED, Outcome::pdn);
        let (white, black) = match play.ours {
            Side::White => (self.config.name.as_str(), play.peer.as_str()),
            Side::Black => (play.peer.as_str(), self.config.name.as_str()),
        };
        match &outcome {
            Some(o) => self.score.tally.add(o.wdl(play.ours)),
            None => self.score.unfinished += 1,
        }
        // The board's verdict, else why the game stopped, else the peer's word.
        let why = match (play.game.result(), &play.note, &outcome) {
            (Some(result), _, _) => Outcome::from(result).to_string(),
            (None, Some(note), _) => note.clone(),
            (None, None, Some(declared)) => declared.to_string(),
            (None, None, None) => "ended without a result".into(),
        };
        let s = &self.score;
        println!(
            "game {}: {white} - {black} {result} ({why}); score {} {}{}",
            s.games(),
            self.config.name,
            s.tally,
            if s.unfinished > 0 {
                format!(" ({} unfinished)", s.unfinished)
            } else {
                String::new()
            }
        );
        let _ = std::io::stdout().flush();
        if let Some(path) = &self.config.pdn {
            let text = game_pdn(&play.game, white, black, result);
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            if let Err(e) = written {
                log::error!("cannot append the game to {}: {e}", path.display());
            }
        }
    }
}

/// One game as PDN, with a blank line after it.
fn game_pdn(game: &Game, white: &str, black: &str, result: &str) -> String {
    let tags: pdn::Tags = vec![
        ("Event".into(), "Kroon DXP".into()),
        ("Date".into(), pdn::today()),
        ("White".into(), white.into()),
        ("Black".into(), black.into()),
        ("Result".into(), result.into()),
    ];
    let mut text = pdn::write_game(&tags, game, result, pdn::Layout::OneLine);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(listen_address("27531"), "127.0.0.1:27531");
        assert_eq!(listen_address("0.0.0.0:9000"), "0.0.0.0:9000");
    }
}
