//! A DXP engine in a match: its process, the TCP connection on the loopback (Kroon
//! connecting to the engine, or the engine to Kroon), and the runner's half of a DXP
//! game. Kroon is the initiator: it proposes each game (GAMEREQ), relays the
//! opponent's moves as they are played, reads the engine's, and ends the game
//! (GAMEEND). Every wait has a deadline, and a misbehaving engine is killed by the
//! runner, so a broken engine costs a game, never the match.

use super::engine_spec::{EngineSpec, Listener, Protocol};
use super::fault::Fault;
use crate::board::{Bitboard, Move, Position, Side, Square};
use crate::dxp::message::{self, AcceptCode, BackCode, DecodeError, EndReason, Message, Minutes};
use crate::dxp::transport::{Frame, FrameReader, FrameWriter};
use crate::game::Game;
use std::io::ErrorKind;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to start and be connected.
pub const START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long an engine may take to accept a game: programs clear their tables first.
pub const ACCEPT_TIMEOUT: Duration = Duration::from_secs(20);

/// How long to wait for the engine's GAMEEND after ours. A program that never
/// answers is out of step with us, and is restarted before its next game.
pub const END_ACK_TIMEOUT: Duration = Duration::from_secs(5);

/// Tries at starting an engine on a port Kroon picked: another program may take the
/// port between Kroon finding it free and the engine binding it.
const PORT_ATTEMPTS: usize = 3;

/// What the reader thread saw, and when: the time a move arrived, not the time
/// the runner got round to it, is what the engine's clock is charged.
struct Event {
    at: Instant,
    what: What,
}

enum What {
    Message(Result<Message, DecodeError>),
    Closed(String),
}

/// What the runner tells a DXP engine when a game starts.
#[derive(Clone, Debug)]
pub struct Proposal<'a> {
    pub start: Position,
    /// The engine's colour.
    pub side: Side,
    /// GAMEREQ's thinking time and number of moves (0: the whole game).
    pub minutes: Minutes,
    pub moves: u16,
    /// Sent as the initiator's name, so the engine's own records name its opponent.
    pub opponent: &'a str,
}

/// A running DXP engine, connected.
pub struct DxpEngine {
    child: Child,
    /// Held open and never written: Moby Dam reads console commands on stdin and
    /// spins at the end of its input.
    _stdin: ChildStdin,
    stream: TcpStream,
    writer: FrameWriter<TcpStream>,
    events: Receiver<Event>,
    /// Plies of the game under way that the engine knows (played or relayed).
    known: usize,
    /// When the engine's clock started for the move it owes.
    turn_started: Instant,
    /// The connection is known to be closed.
    closed: bool,
}

/// Why one attempt at starting failed, and whether another port may help.
struct StartError {
    fault: Fault,
    retry: bool,
}

impl From<Fault> for StartError {
    fn from(fault: Fault) -> StartError {
        StartError {
            fault,
            retry: false,
        }
    }
}

/// A port on the loopback that was free a moment ago.
fn free_port() -> Result<u16, Fault> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| Fault::Start(format!("no free port on 127.0.0.1: {e}")))
}

impl DxpEngine {
    /// Starts the engine and connects to it (or lets it connect).
    pub fn start(spec: &EngineSpec) -> Result<DxpEngine, Fault> {
        let Protocol::Dxp { listener, port } = spec.protocol else {
            return Err(Fault::Start("not a DXP engine".into()));
        };
        let attempts = if port.is_none() && listener == Listener::Engine {
            PORT_ATTEMPTS
        } else {
            1
        };
        let mut last = Fault::Start("never tried".into());
        for _ in 0..attempts {
            match DxpEngine::start_once(spec, listener, port) {
                Ok(engine) => return Ok(engine),
                Err(StartError { fault, retry }) => {
                    last = fault;
                    if !retry {
                        break;
                    }
                }
            }
        }
        Err(last)
    }

    /// Starts the engine's process and ends it at once, before any connection:
    /// whether its program can run at all (it exists, may be executed, and its
    /// folder is there). A program that runs but does not speak DXP passes; it
    /// forfeits its games with the reason, as a crash does.
    pub fn check_program(spec: &EngineSpec) -> Result<(), Fault> {
        let (child, _stdin) = spawn(spec, free_port()?)?;
        end(child);
        Ok(())
    }

    fn start_once(
        spec: &EngineSpec,
        listener: Listener,
        port: Option<u16>,
    ) -> Result<DxpEngine, StartError> {
        let deadline = Instant::now() + START_TIMEOUT;
        let (stream, child, stdin) = match listener {
            Listener::Kroon => {
                let wanted = port.unwrap_or(0);
                let bound = TcpListener::bind(("127.0.0.1", wanted)).map_err(|e| {
                    Fault::Start(format!("cannot listen on 127.0.0.1:{wanted}: {e}"))
                })?;
                let port = bound
                    .local_addr()
                    .map_err(|e| Fault::Start(e.to_string()))?
                    .port();
                let (mut child, stdin) = spawn(spec, port)?;
                match accept(&bound, &mut child, deadline) {
                    Ok(stream) => (stream, child, stdin),
                    Err(e) => return Err(kill_with(child, e)),
                }
            }
            Listener::Engine => {
                let port = match port {
                    Some(p) => p,
                    None => free_port()?,
                };
                let (mut child, stdin) = spawn(spec, port)?;
                match connect(port, &mut child, deadline) {
                    Ok(stream) => (stream, child, stdin),
                    Err(e) => return Err(kill_with(child, e)),
                }
            }
        };
        DxpEngine::connected(stream, child, stdin)
    }

    fn connected(
        stream: TcpStream,
        child: Child,
        stdin: ChildStdin,
    ) -> Result<DxpEngine, StartError> {
        match link(&stream) {
            Ok((writer, events)) => Ok(DxpEngine {
                child,
                _stdin: stdin,
                stream,
                writer,
                events,
                known: 0,
                turn_started: Instant::now(),
                closed: false,
            }),
            Err(fault) => Err(kill_with(child, fault.into())),
        }
    }
}

/// The writing half of the connection, and its reading half as a thread sending
/// events.
fn link(stream: &TcpStream) -> Result<(FrameWriter<TcpStream>, Receiver<Event>), Fault> {
    let _ = stream.set_nodelay(true);
    let clone = || {
        stream
            .try_clone()
            .map_err(|e| Fault::Start(format!("the connection: {e}")))
    };
    let (read_half, write_half) = (clone()?, clone()?);
    let (tx, events) = mpsc::channel();
    std::thread::Builder::new()
        .name("kroon-match-dxp".into())
        .spawn(move || read_frames(read_half, &tx))
        .map_err(|e| Fault::Start(format!("cannot start a reader thread: {e}")))?;
    Ok((FrameWriter::new(write_half), events))
}

/// Starts the process with `port` in its command, its output discarded (engines
/// like Scan draw every board on stdout, and an unread pipe would stall them).
fn spawn(spec: &EngineSpec, port: u16) -> Result<(Child, ChildStdin), Fault> {
    let mut command = spec.process(Some(port));
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = command
        .spawn()
        .map_err(|e| Fault::Start(spec.start_failure(&command, &e)))?;
    match child.stdin.take() {
        Some(stdin) => Ok((child, stdin)),
        None => Err(kill_with(child, Fault::Start("no pipe to the process".into()).into()).fault),
    }
}

/// Kills the process and reaps it.
fn end(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn kill_with(child: Child, e: StartError) -> StartError {
    end(child);
    e
}

/// The start fault for a process that ended before it was connected: on a port
/// Kroon picked, another may do.
fn exited_early(child: &mut Child, what: &str) -> Option<StartError> {
    let status = child.try_wait().ok().flatten()?;
    Some(StartError {
        fault: Fault::Start(format!("the engine exited ({status}) before {what}")),
        retry: true,
    })
}

/// Connects to the engine once it listens on `port`.
fn connect(port: u16, child: &mut Child, deadline: Instant) -> Result<TcpStream, StartError> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    loop {
        if let Some(e) = exited_early(child, &format!("it listened on {addr}")) {
            return Err(e);
        }
        match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
            Ok(stream) => return Ok(stream),
            Err(e) if Instant::now() >= deadline => {
                return Err(Fault::Start(format!(
                    "nothing listens on {addr} after {} s: {e}",
                    START_TIMEOUT.as_secs()
                ))
                .into())
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// Waits for the engine to connect to `listener`.
fn accept(
    listener: &TcpListener,
    child: &mut Child,
    deadline: Instant,
) -> Result<TcpStream, StartError> {
    let addr = listener
        .local_addr()
        .map_or_else(|_| "?".into(), |a| a.to_string());
    listener
        .set_nonblocking(true)
        .map_err(|e| Fault::Start(e.to_string()))?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| Fault::Start(e.to_string()))?;
                return Ok(stream);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => return Err(Fault::Start(format!("accepting on {addr}: {e}")).into()),
        }
        if let Some(e) = exited_early(child, &format!("it connected to {addr}")) {
            return Err(StartError { retry: false, ..e });
        }
        if Instant::now() >= deadline {
            return Err(Fault::Start(format!(
                "the engine did not connect to {addr} in {} s",
                START_TIMEOUT.as_secs()
            ))
            .into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The reader thread: frames as events, stamped with their arrival, until the
/// connection closes or nobody listens.
fn read_frames(stream: TcpStream, tx: &mpsc::Sender<Event>) {
    let mut reader = FrameReader::new(stream);
    loop {
        let what = match reader.next_frame() {
            Ok(Some(Frame::Text(text))) => {
                log::debug!("dxp engine < {text}");
                What::Message(text.parse())
            }
            Ok(Some(Frame::Garbage(why))) => What::Message(Err(DecodeError {
                kind: None,
                detail: why,
            })),
            Ok(None) => What::Closed("the engine closed the connection".into()),
            Err(e) => What::Closed(format!("the connection failed: {e}")),
        };
        let last = matches!(what, What::Closed(_));
        let event = Event {
            at: Instant::now(),
            what,
        };
        if tx.send(event).is_err() || last {
            return;
        }
    }
}

/// The engine's move as Kroon's rules core knows it: from, to and the captured set
/// must match one legal move exactly (each captured square named once).
fn resolve(game: &Game, from: Square, to: Square, captured: &[Square]) -> Result<Move, Fault> {
    let wanted = Bitboard::from_squares(captured.iter().copied());
    let legal = game.legal_moves();
    let found = legal.iter().copied().find(|m| {
        m.from() == from
            && m.to() == to
            && m.captured() == wanted
            && wanted.count() as usize == captured.len()
    });
    found.ok_or_else(|| {
        let mut text = format!("{from}{}{to}", if captured.is_empty() { '-' } else { 'x' });
        for sq in captured {
            text.push_str(&format!("x{sq}"));
        }
        Fault::Illegal(format!(
            "illegal move '{text}' in {}",
            game.position().to_fen()
        ))
    })
}

/// What a message is, for an error that names it.
fn kind(msg: &Message) -> &'static str {
    match msg {
        Message::GameReq { .. } => "GAMEREQ",
        Message::GameAcc { .. } => "GAMEACC",
        Message::Move { .. } => "MOVE",
        Message::GameEnd { .. } => "GAMEEND",
        Message::Chat(_) => "CHAT",
        Message::BackReq { .. } => "BACKREQ",
        Message::BackAcc { .. } => "BACKACC",
    }
}

impl DxpEngine {
    fn send(&mut self, msg: &Message) -> Result<(), Fault> {
        log::debug!("dxp engine > {msg}");
        self.writer.send(msg).map_err(|e| {
            self.closed = true;
            Fault::Disconnected(format!("cannot send to the engine: {e}"))
        })
    }

    /// The next event before `deadline`; `None` when the deadline passed.
    fn next_event(&mut self, deadline: Instant) -> Result<Option<(Instant, Message)>, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = match self.events.recv_timeout(left) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => return Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(self.gone("the connection's reader stopped".into()))
            }
        };
        self.writer.heard();
        match event.what {
            What::Message(Ok(msg)) => Ok(Some((event.at, msg))),
            What::Message(Err(e)) => Err(Fault::Protocol(e.to_string())),
            What::Closed(why) => Err(self.gone(why)),
        }
    }

    /// The fault for a connection that ended: the process's end when it ended.
    fn gone(&mut self, why: String) -> Fault {
        self.closed = true;
        // A process that ends closes its connection first, a moment before it can
        // be reaped: give it that moment, to say which happened.
        let deadline = Instant::now() + Duration::from_millis(250);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return Fault::Exited;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Fault::Disconnected(why)
    }

    /// Whether the engine can play a game: its process runs and its connection
    /// is open. Messages left from the last game (a late GAMEEND, chat) are dropped.
    pub fn is_alive(&mut self) -> bool {
        while let Ok(event) = self.events.try_recv() {
            if matches!(event.what, What::Closed(_)) {
                self.closed = true;
            }
        }
        !self.closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// Proposes a game (GAMEREQ) and waits for its acceptance.
    pub fn new_game(&mut self, proposal: &Proposal) -> Result<(), Fault> {
        if !self.is_alive() {
            return Err(Fault::Disconnected("gone before the game".into()));
        }
        self.send(&Message::GameReq {
            version: message::VERSION,
            initiator: proposal.opponent.to_string(),
            follower_side: proposal.side,
            minutes: proposal.minutes,
            moves: proposal.moves,
            start: (proposal.start != Position::initial()).then_some(proposal.start),
        })?;
        let deadline = Instant::now() + ACCEPT_TIMEOUT;
        loop {
            let Some((at, msg)) = self.next_event(deadline)? else {
                return Err(Fault::Timeout(format!(
                    "no GAMEACC within {} s",
                    ACCEPT_TIMEOUT.as_secs()
                )));
            };
            match msg {
                Message::GameAcc {
                    code: AcceptCode::Accepted,
                    ..
                } => {
                    self.known = 0;
                    // An engine that moves first starts thinking as it accepts.
                    self.turn_started = at;
                    return Ok(());
                }
                Message::GameAcc { code, .. } => return Err(Fault::Refused(format!("{code:?}"))),
                // Chat, and a GAMEEND left from the last game, change nothing.
                Message::Chat(_) | Message::GameEnd { .. } => {}
                other => {
                    return Err(Fault::Protocol(format!(
                        "{} in answer to a game request",
                        kind(&other)
                    )))
                }
            }
        }
    }

    /// Sends the moves of `game` the engine has not seen (the opponent's last, or
    /// none), each with the seconds it took; the engine's clock starts as they go.
    fn relay(&mut self, game: &Game, spent: &[Duration]) -> Result<(), Fault> {
        let moves = game.moves();
        while self.known < moves.len() {
            let mv = moves[self.known];
            let mut captured: Vec<Square> = mv.captured().squares().collect();
            captured.sort_by_key(|s| s.number());
            let seconds = spent
                .get(self.known)
                .map_or(0.0, |d| d.as_secs_f64().round());
            self.send(&Message::Move {
                seconds: seconds.min(9999.0) as u16,
                from: mv.from(),
                to: mv.to(),
                captured,
            })?;
            self.known += 1;
            self.turn_started = Instant::now();
        }
        Ok(())
    }
}

/// The engine's move and the time it took by Kroon's clock.
#[derive(Clone, Copy, Debug)]
pub struct DxpMove {
    pub mv: Move,
    /// From the moment the engine could know it was to move to its move's arrival.
    pub elapsed: Duration,
}

impl DxpEngine {
    /// Relays the opponent's move and waits up to `allowed` for the engine's.
    pub fn think(
        &mut self,
        game: &Game,
        spent: &[Duration],
        allowed: Duration,
    ) -> Result<DxpMove, Fault> {
        self.relay(game, spent)?;
        let deadline = self.turn_started + allowed;
        loop {
            let Some((at, msg)) = self.next_event(deadline)? else {
                return Err(Fault::Timeout(format!(
                    "no move within {:.2} s",
                    allowed.as_secs_f64()
                )));
            };
            match msg {
                Message::Move {
                    from, to, captured, ..
                } => {
                    let mv = resolve(game, from, to, &captured)?;
                    self.known += 1;
                    let elapsed = at.saturating_duration_since(self.turn_started);
                    return Ok(DxpMove { mv, elapsed });
                }
                Message::Chat(text) => log::info!("a DXP engine says: {text}"),
                Message::GameEnd { reason, .. } => return Err(Fault::Ended(reason)),
                // Take-backs are for people at a board; the game goes on.
                Message::BackReq { .. } => self.send(&Message::BackAcc {
                    code: BackCode::NotSupported,
                })?,
                other => return Err(Fault::Protocol(format!("{} during the game", kind(&other)))),
            }
        }
    }

    /// Ends the game: relays the last move, so the engine sees the final position,
    /// and sends GAMEEND with `reason` from the sender's view (Kroon speaks for the
    /// engine's opponent). Unless the engine ended the game itself (`ended_by_engine`:
    /// ours is then the acknowledgement), waits for its GAMEEND; an engine that
    /// does not answer is out of step and the runner restarts it.
    pub fn end_game(
        &mut self,
        game: &Game,
        spent: &[Duration],
        reason: EndReason,
        ended_by_engine: bool,
    ) -> Result<(), Fault> {
        if !ended_by_engine {
            self.relay(game, spent)?;
        }
        self.send(&Message::GameEnd {
            reason,
            stop: false,
        })?;
        if ended_by_engine {
            return Ok(());
        }
        let deadline = Instant::now() + END_ACK_TIMEOUT;
        loop {
            match self.next_event(deadline)? {
                Some((_, Message::GameEnd { .. })) => return Ok(()),
                // A move may cross our GAMEEND; it no longer counts.
                Some(_) => {}
                None => {
                    return Err(Fault::Timeout(format!(
                        "no GAMEEND in answer within {} s",
                        END_ACK_TIMEOUT.as_secs()
                    )))
                }
            }
        }
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks for no more games (GAMEEND with stop code 1, on which Scan and Moby Dam
    /// exit), closes the connection, and kills the process if it has not ended after
    /// a moment.
    pub fn quit(mut self) {
        let _ = self.send(&Message::GameEnd {
            reason: EndReason::Unknown,
            stop: true,
        });
        let _ = self.stream.shutdown(Shutdown::Write);
        if !super::engine_process::exits_within(&mut self.child, super::engine_process::QUIT_GRACE)
        {
            self.kill();
        }
    }
}

impl Drop for DxpEngine {
    fn drop(&mut self) {
        // Never leave an engine behind, whatever path dropped it.
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
        }
    }
}
