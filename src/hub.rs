//! The Hub protocol front end (version 2, as Scan and the Hub GUI speak it): reads
//! commands from the GUI, drives the [`Engine`], prints replies. It only translates:
//! positions and moves are checked by the rules core, searching is the engine's, and
//! `level` is a [`TimeControl`]. One loop serves the GUI's lines and the engine's
//! word that a search ended, which it answers with `done` at once.

pub mod command;

use crate::board::movegen::legal_moves;
use crate::board::notation::{hub_move, parse_move};
use crate::board::Position;
use crate::engine::{Engine, EngineSetup, GoMode, Info, SearchId};
use crate::game::Game;
use crate::time_control::TimeControl;
use command::{Command, ParamKind, Reply};
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where replies go: shared by the command loop and the search thread's reports,
/// one whole line at a time, flushed at once (clients read with time-outs).
#[derive(Clone)]
pub struct Output {
    /// The stream, and when its last line was written since the client last
    /// showed that it had read what came before (see [`Output::heard`]).
    stream: Arc<Mutex<Stream>>,
    /// See [`CLOSING_LINE_PAUSE`].
    pause: Duration,
}

/// The stream and when its last unread line was written.
type Stream = (Box<dyn Write + Send>, Option<Instant>);

/// The pause before a line that ends an exchange (`wait`, `ready`, `pong`, `done`).
/// py-draughts polls the pipe with `select` and then reads through a buffer: a
/// closing line that reaches it in the same read as the lines before it sits unseen
/// in that buffer, and the client waits for it forever. Sent a moment apart, it
/// arrives in a read of its own. Only lines of the same exchange need the pause:
/// those before the client's last command were read (see [`Output::heard`]).
const CLOSING_LINE_PAUSE: Duration = Duration::from_millis(15);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output::with_pause(w, CLOSING_LINE_PAUSE)
    }

    fn with_pause(w: impl Write + Send + 'static, pause: Duration) -> Output {
        Output {
            stream: Arc::new(Mutex::new((Box::new(w), None))),
            pause,
        }
    }

    /// The client sent a command while no search was under way: it had read the
    /// lines before, so the next closing line need not keep apart from them.
    /// (Every move used to pay the pause after its previous `done`: 15 ms a move,
    /// and at a minute a game Kroon lost a 187-move ending on time, its last 40
    /// moves at 16 ms each while Scan 2.0 took 2.)
    pub fn heard(&self) {
        self.stream
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .1 = None;
    }

    fn send(&self, reply: &Reply) {
        let lock = || {
            self.stream
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        let mut guard = lock();
        if matches!(
            reply,
            Reply::Wait | Reply::Ready | Reply::Pong | Reply::Done { .. }
        ) {
            // The pause is taken without the lock: the search thread reports through
            // this output, and a `pong` during a search must not hold up the search.
            // A line written meanwhile restarts the pause.
            loop {
                let wait = guard.1.map_or(Duration::ZERO, |last| {
                    self.pause.saturating_sub(last.elapsed())
                });
                if wait.is_zero() {
                    break;
                }
                drop(guard);
                std::thread::sleep(wait);
                guard = lock();
            }
        }
        let (w, last) = &mut *guard;
        // A GUI that closed its end will be noticed on stdin; nothing to do here.
        let _ = writeln!(w, "{reply}");
        let _ = w.flush();
        *last = Some(Instant::now());
    }
}

fn info_reply(info: &Info) -> Reply {
    let pv: Vec<String> = info.pv.iter().map(|&m| hub_move(m)).collect();
    let mut fields = vec![
        ("depth".into(), info.depth.to_string()),
        ("mean-depth".into(), format!("{:.1}", info.mean_depth)),
        ("score".into(), format!("{:.2}", info.score.men())),
        ("nodes".into(), info.nodes.to_string()),
        ("time".into(), format!("{:.3}", info.time.as_secs_f64())),
        // Scan reports nodes per second in millions.
        ("nps".into(), format!("{:.1}", info.nps() / 1e6)),
        ("pv".into(), pv.join(" ")),
    ];
    if info.from_book {
        fields.push(("book".into(), "yes".into()));
    }
    Reply::Info(fields)
}

/// The largest `node-rate` param: a billion nodes a second, beyond any machine's.
pub const MAX_NODE_RATE: u64 = 1_000_000_000;

/// The Hub session: engine, position and level, fed one command at a time.
pub struct Session {
    engine: Engine,
    /// The position to search; None after a refused `pos`, so that a `go` cannot
    /// answer with a move for a position the client no longer has.
    game: Option<Game>,
    /// The last `level`: Hub states the clock afresh before every search.
    level: TimeControl,
    out: Output,
    /// The search under way, by its number, whose `done` is still to print: the
    /// end of one the session already collected (after a `stop`) is not taken for
    /// the next's.
    searching: Option<SearchId>,
    /// Where the engine says that a search ended.
    events: Sender<Event>,
    /// The `eval` param as last set: `network`, `learned`, `hand` or a file.
    eval: String,
}

/// What the session's loop waits for: a line from the GUI, or the end of a search.
pub enum Event {
    Line(String),
    /// The GUI closed its end of the input.
    InputClosed,
    /// The search with this number ended.
    SearchDone(SearchId),
}

/// What the loop should do after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// A session that prints to `out` and hears of its searches' ends on `events`
    /// (the sender of the channel [`Session::run`] reads).
    pub fn new(setup: &EngineSetup, out: Output, events: Sender<Event>) -> Session {
        Session {
            engine: setup.engine(),
            game: Some(Game::new()),
            level: TimeControl::MoveTime(Duration::from_secs(1)),
            out,
            searching: None,
            events,
            eval: setup.eval_name.clone(),
        }
    }

    fn params(&self) -> Vec<Reply> {
        let options = self.engine.options();
        vec![
            Reply::Param {
                name: "variant".into(),
                value: "normal".into(),
                kind: ParamKind::Enum(vec!["normal".into()]),
            },
            Reply::Param {
                name: "threads".into(),
                value: options.threads.to_string(),
                kind: ParamKind::Int { min: 1, max: 64 },
            },
            Reply::Param {
                name: "hash".into(),
                value: options.hash_mb.to_string(),
                kind: ParamKind::Int { min: 1, max: 65536 },
            },
            Reply::Param {
                name: "eval".into(),
                value: self.eval.clone(),
                kind: ParamKind::Str,
            },
            Reply::Param {
                name: "bb-size".into(),
                value: self.engine.endgame().pieces.to_string(),
                kind: ParamKind::Int { min: 0, max: 7 },
            },
            Reply::Param {
                name: "bb-path".into(),
                value: self
                    .engine
                    .endgame()
                    .dir
                    .as_ref()
                    .map_or(String::new(), |d| d.display().to_string()),
                kind: ParamKind::Str,
            },
            Reply::Param {
                name: "book".into(),
                value: self.engine.book().name.clone(),
                kind: ParamKind::Str,
            },
            Reply::Param {
                name: "book-ply".into(),
                value: self.engine.book().max_ply.to_string(),
                kind: ParamKind::Int { min: 0, max: 1000 },
            },
            Reply::Param {
                name: "book-margin".into(),
                value: self.engine.book().margin.to_string(),
                kind: ParamKind::Int { min: 0, max: 10000 },
            },
            Reply::Param {
                name: "pruning".into(),
                value: self.engine.pruning().to_string(),
                kind: ParamKind::Str,
            },
            Reply::Param {
                name: "node-rate".into(),
                value: self.engine.node_rate().unwrap_or(0).to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: MAX_NODE_RATE as i64,
                },
            },
        ]
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        let int = |lo: u64, hi: u64| whole_number(name, value, lo, hi);
        match name {
            "variant" if value == "normal" => Ok(()),
            "variant" => Err(format!("variant '{value}' is not supported (only normal)")),
            "threads" => {
                self.engine.set_threads(int(1, 64)? as usize);
                Ok(())
            }
            "hash" => {
                self.engine.set_hash_mb(int(1, 65536)? as usize);
                Ok(())
            }
            // `network` or `learned` (built in), `hand`, or a file; a bad file keeps the
            // evaluation in use.
            "eval" => {
                let evaluator = crate::eval::Evaluator::from_name(value.trim())?;
                self.engine.set_evaluator(evaluator);
                self.eval = value.trim().to_string();
                Ok(())
            }
            // The search's margins, for tuning by games: `name:value` pairs change
            // those named (`default` puts all back); a bad pair changes none.
            "pruning" => {
                let pruning = match value.trim() {
                    "default" => crate::engine::Pruning::DEFAULT,
                    changes => self.engine.pruning().with_changes(changes)?,
                };
                self.engine.set_pruning(pruning);
                Ok(())
            }
            // A clock in nodes (0: the real clock), for matches that must give the
            // same games on a busy machine; `done` is then preceded by the search's
            // node count, by which `kroon match --node-rate` charges the move.
            "node-rate" => {
                self.engine.set_node_rate(Some(int(0, MAX_NODE_RATE)?));
                Ok(())
            }
            // Endgame tables, as Scan names the size; a damaged file keeps the
            // tables in use.
            "bb-size" | "bb-path" => self.set_tables(name, value),
            // `on` (built in), `off`, or a book file; a book that cannot be read is
            // reported and the engine plays on without one.
            "book" | "book-ply" | "book-margin" => self.set_book(name, value),
            // Scan's size: log2 of the number of entries (16 bytes each).
            "tt-size" => {
                let log2 = int(10, 32)?;
                self.engine
                    .set_hash_mb((((1u64 << log2) * 16) >> 20).max(1) as usize);
                Ok(())
            }
            _ => {
                log::debug!("ignoring unknown parameter {name}={value}");
                Ok(())
            }
        }
    }

    /// `bb-size` or `bb-path`: the endgame tables reopened with the one changed.
    fn set_tables(&mut self, name: &str, value: &str) -> Result<(), String> {
        let current = self.engine.endgame();
        let (mut dir, mut pieces) = (current.dir.clone(), current.pieces);
        if name == "bb-size" {
            pieces = whole_number(name, value, 0, 7)? as u32;
        } else {
            dir = Some(value.trim().into())
                .filter(|d: &std::path::PathBuf| !d.as_os_str().is_empty());
        }
        let endgame = crate::engine::Endgame::open(dir, pieces)?;
        self.engine.set_endgame(endgame);
        Ok(())
    }

    /// `book` (which book), `book-ply` or `book-margin` (how it is played).
    fn set_book(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut book = self.engine.book().clone();
        match name {
            "book-ply" => book.max_ply = whole_number(name, value, 0, 1000)? as u32,
            "book-margin" => book.margin = whole_number(name, value, 0, 10000)? as i32,
            _ => {
                let (chosen, error) = crate::book::BookUse::named(value);
                self.engine.set_book(crate::book::BookUse {
                    max_ply: book.max_ply,
                    margin: book.margin,
                    ..chosen
                });
                return error.map_or(Ok(()), |e| Err(format!("{e}; playing without a book")));
            }
        }
        self.engine.set_book(book);
        Ok(())
    }

    fn set_position(&mut self, pos: &str, moves: &[String]) -> Result<(), String> {
        let start = Position::from_hub(pos).map_err(|e| format!("bad position: {e}"))?;
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(game.position(), text)
                .map_err(|e| format!("move {} of moves: {e}", i + 1))?;
            // The client referees: moves past an FMJD draw are replayed all the same.
            game.play_on(mv)
                .map_err(|e| format!("move {} of moves: {e}", i + 1))?;
        }
        self.game = Some(game);
        Ok(())
    }

    fn go(&mut self, mode: GoMode) {
        // Only a side without a legal move has nothing to play. A position that the
        // FMJD draw rules end is still searched: clients with other draw rules (the
        // lidraughts bot through pydraughts) keep playing it and need a move.
        let Some(game) = &self.game else {
            self.out.send(&Reply::Error(
                "no position to search: the last pos command was refused".into(),
            ));
            self.out.send(&Reply::Done {
                best: None,
                ponder: None,
            });
            return;
        };
        if legal_moves(game.position()).is_empty() {
            self.out.send(&Reply::Error(
                "the game is over: the side to move has no legal move".into(),
            ));
            self.out.send(&Reply::Done {
                best: None,
                ponder: None,
            });
            return;
        }
        let out = self.out.clone();
        let events = self.events.clone();
        // Under a game clock, iterations completed in a search's first moments are
        // not reported: their `info` would make the `done` right after them wait
        // [`CLOSING_LINE_PAUSE`], longer than such a move's whole search. (The
        // book's answer is reported: it comes once a game, in the opening. A clock
        // in nodes reports every iteration: its `done` follows the node count's
        // line anyway, and its time is not the wall's.)
        let reported_from = match self.level {
            TimeControl::Clock { .. } if self.engine.node_rate().is_none() => CLOSING_LINE_PAUSE,
            _ => Duration::ZERO,
        };
        let id = self.engine.go(
            game,
            self.level,
            mode,
            move |info| {
                if info.from_book || info.time >= reported_from {
                    out.send(&info_reply(info));
                }
            },
            move |id| {
                let _ = events.send(Event::SearchDone(id));
            },
        );
        self.searching = Some(id);
    }

    /// Collects the finished search and prints its one `done`.
    fn finish_search(&mut self) {
        if self.searching.take().is_none() {
            return;
        }
        let result = self.engine.wait();
        if self.engine.node_rate().is_some() {
            self.out.send(&Reply::Info(vec![(
                "nodes".into(),
                result.nodes.to_string(),
            )]));
        }
        self.out.send(&Reply::Done {
            best: result.best_move.map(hub_move),
            ponder: result.ponder_move.map(hub_move),
        });
    }

    fn handle(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(message) => {
                self.out.send(&Reply::Error(message));
                return Flow::Continue;
            }
        };
        if self.searching.is_some() {
            match command {
                Command::Ping => {
                    self.out.send(&Reply::Pong);
                    return Flow::Continue;
                }
                Command::PonderHit => {
                    self.engine.ponder_hit();
                    return Flow::Continue;
                }
                Command::Ignored(_) => return Flow::Continue,
                // Anything else ends the search first: its `done` comes before the reply.
                _ => {
                    self.engine.stop();
                    self.finish_search();
                }
            }
        }
        match command {
            Command::Hub => {
                self.out.send(&Reply::Id {
                    name: "Kroon".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    author: "The Kroon team".into(),
                    country: "Netherlands".into(),
                });
                for param in self.params() {
                    self.out.send(&param);
                }
                self.out.send(&Reply::Wait);
            }
            Command::Init => {
                // After the GUI's params: a `bb-size 0` wants no tables, nor a hint.
                self.engine.endgame().say_if_missing();
                self.out.send(&Reply::Ready)
            }
            Command::SetParam { name, value } => {
                if let Err(message) = self.set_param(&name, &value) {
                    self.out.send(&Reply::Error(message));
                }
            }
            Command::Pos { pos, moves } => {
                if let Err(message) = self.set_position(&pos, &moves) {
                    self.game = None;
                    self.out.send(&Reply::Error(message));
                }
            }
            Command::Level(level) => self.level = level,
            Command::Go(mode) => self.go(mode),
            Command::Ping => self.out.send(&Reply::Pong),
            Command::NewGame => self.engine.new_game(),
            Command::Quit => return Flow::Quit,
            Command::PonderHit | Command::Stop | Command::Ignored(_) => {}
        }
        Flow::Continue
    }

    /// Serves commands until `quit` or the end of input.
    pub fn run(mut self, events: Receiver<Event>) {
        // The session holds a sender itself, so the channel never closes under it.
        while let Ok(event) = events.recv() {
            match event {
                Event::Line(line) => {
                    log::debug!("hub << {line}");
                    if self.searching.is_none() {
                        self.out.heard();
                    }
                    if self.handle(&line) == Flow::Quit {
                        break;
                    }
                }
                Event::InputClosed => break,
                // A search the session stopped and collected itself ends late.
                Event::SearchDone(id) if self.searching != Some(id) => {}
                Event::SearchDone(_) => self.finish_search(),
            }
        }
        // The GUI is gone or said quit: leave at once.
        self.engine.stop();
    }
}

/// Runs the protocol on these streams until `quit` or the end of input.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    setup: &EngineSetup,
) {
    let (tx, rx) = mpsc::channel();
    let lines = tx.clone();
    // Reading on its own thread lets `ping` and `stop` reach us during a search.
    std::thread::spawn(move || {
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            // A line that is not UTF-8 is still a line: it gets an error, not a quit.
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches(['\n', '\r']).to_string();
            if lines.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = lines.send(Event::InputClosed);
    });
    Session::new(setup, Output::new(output), tx).run(rx);
}

/// A param's value as a whole number from `lo` to `hi`, or the `error` text.
fn whole_number(name: &str, value: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!(
            "{name} must be a whole number from {lo} to {hi}, not '{value}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose lines the test can read while the output still holds it.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_the_client_has_read_need_no_pause_after_them() {
        let lines = Lines::default();
        let pause = Duration::from_secs(30);
        let out = Output::with_pause(lines.clone(), pause);
        // Without the client's word, a closing line after a report would wait the
        // pause (a_closing_line_pauses_without_holding_up_other_lines). Once the
        // client has spoken, the next closing line goes at once, however recent
        // the line before it.
        let started = Instant::now();
        out.send(&Reply::Error("report".into()));
        out.heard();
        out.send(&Reply::Pong);
        out.heard();
        out.send(&Reply::Pong);
        assert!(started.elapsed() < pause / 2, "{:?}", started.elapsed());
        let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            ["error message=report", "pong", "pong"]
        );
    }

    #[test]
    fn a_closing_line_pauses_without_holding_up_other_lines() {
        let lines = Lines::default();
        let out = Output::with_pause(lines.clone(), Duration::from_millis(400));
        let info = Reply::Error("first".into());
        out.send(&info);
        let started = Instant::now();
        let pong = {
            let out = out.clone();
            std::thread::spawn(move || out.send(&Reply::Pong))
        };
        // The pong is pausing now (or has not begun): a report sent meanwhile is
        // written at once, ahead of it, and the pong still comes a pause after it.
        std::thread::sleep(Duration::from_millis(50));
        out.send(&Reply::Error("second".into()));
        let second_at = started.elapsed();
        pong.join().unwrap();
        let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            ["error message=first", "error message=second", "pong"]
        );
        assert!(started.elapsed() >= second_at + Duration::from_millis(400));
    }
}
