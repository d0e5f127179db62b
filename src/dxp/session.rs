//! One connection to a DXP peer: the reader thread that turns frames into events,
//! and the loop that takes those events one at a time (the peer's messages, the
//! peer closing, our search ending) and answers them. What each message does to a
//! game is in the children: [`game_start`] (GAMEREQ, GAMEACC), [`moves`] (MOVE,
//! BACKREQ, our own moves) and [`game_end`] (GAMEEND, and recording the game).

mod game_end;
mod game_start;
mod moves;

use super::config::Config;
use super::message::{AcceptCode, DecodeError, Message};
use super::play::Play;
use super::series_score::SeriesScore;
use super::transport::{Frame, FrameReader, FrameWriter};
use crate::engine::{Engine, SearchId};
use std::collections::VecDeque;
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long an initiator waits for GAMEACC before giving up on the peer.
const ACCEPT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long we wait for the peer to acknowledge our GAMEEND: some programs never
/// do, and the next game (or connection) must not hang on it.
const END_ACK_TIMEOUT: Duration = Duration::from_secs(5);

/// What a connection's loop waits for: the reader thread's frames, or the peer
/// closing, or the end of our search.
enum Event {
    Message(Result<Message, DecodeError>),
    Closed(String),
    /// The search with this number ended.
    SearchDone(SearchId),
}

/// What the event loop does next.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Close,
}

/// One connection to a peer.
pub(super) struct Session<'a> {
    writer: FrameWriter<TcpStream>,
    stream: TcpStream,
    events: Receiver<Event>,
    /// The sending end of `events`, for the engine to say that a search ended.
    notify: Sender<Event>,
    /// Events that arrived while we were thinking, handled after our move.
    pending: VecDeque<Event>,
    engine: &'a mut Engine,
    config: &'a Config,
    score: &'a mut SeriesScore,
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
    pub(super) fn new(
        stream: TcpStream,
        engine: &'a mut Engine,
        config: &'a Config,
        score: &'a mut SeriesScore,
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
    pub(super) fn run(mut self) {
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
}
