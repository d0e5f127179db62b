//! The engine behind the board: Kroon's own [`Engine`] or a Hub engine run as a
//! child process, driven the same way. A search is started with a generation
//! number; its progress and its end come back as [`EngineEvent`]s carrying that
//! number, so a session can drop the reports of a search it has cancelled.
//!
//! The Hub side reuses the match runner's [`EngineProcess`] (handshake, time-outs,
//! killing on drop); a thread of its own owns the process, so that a `stop` can be
//! sent while the engine is thinking and a slow start never blocks the board.

use crate::board::notation::hub_move;
use crate::client::engine_process::EngineProcess;
use crate::client::engine_spec::EngineSpec;
use crate::client::fault::Fault;
use crate::engine::{Engine, EngineSetup, GoMode, Info};
use crate::game::Game;
use crate::hub::command::{level_args, tokenize};
use crate::time_control::TimeControl;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A search's progress, whichever engine made it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub depth: u32,
    /// Men, from the side to move's view.
    pub score: Option<f64>,
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<f64>,
    /// Hub move text, the best move first.
    pub pv: Vec<String>,
}

/// What an engine says about the search of generation `generation`.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    Info {
        generation: u64,
        report: Report,
    },
    /// The search ended; a Hub engine names its move here (Kroon's is collected
    /// by [`EngineDriver::collect`]).
    Done {
        generation: u64,
        best: Option<String>,
    },
    /// The engine failed (did not start, exited): it is gone for this session.
    Failed(String),
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move to play, under a time control.
    Play(TimeControl),
    /// Infinite analysis.
    Analyse,
}

/// Kroon or a Hub engine, ready to search.
pub enum EngineDriver {
    Kroon(Box<Engine>),
    Hub(HubLink),
}

impl EngineDriver {
    /// Kroon set up so.
    #[must_use]
    pub fn kroon(setup: &EngineSetup) -> EngineDriver {
        EngineDriver::Kroon(Box::new(setup.engine()))
    }

    /// The Hub engine `spec` names, started in the background; a failure to start
    /// comes back as [`EngineEvent::Failed`].
    pub fn hub(spec: &EngineSpec, events: impl Fn(EngineEvent) + Send + 'static) -> EngineDriver {
        EngineDriver::Hub(HubLink::start(spec.clone(), events))
    }

    /// Starts searching `game`'s position; a search under way is cancelled first.
    pub fn start(
        &mut self,
        game: &Game,
        purpose: Purpose,
        generation: u64,
        events: impl Fn(EngineEvent) + Send + Sync + Clone + 'static,
    ) {
        match self {
            EngineDriver::Kroon(engine) => {
                let (limit, mode) = match purpose {
                    Purpose::Play(control) => (control, GoMode::Think),
                    Purpose::Analyse => (TimeControl::Infinite, GoMode::Analyze),
                };
                let on_info = events.clone();
                engine.go(
                    game,
                    limit,
                    mode,
                    move |info: &Info| {
                        on_info(EngineEvent::Info {
                            generation,
                            report: kroon_report(info),
                        });
                    },
                    move |_| {
                        events(EngineEvent::Done {
                            generation,
                            best: None,
                        })
                    },
                );
            }
            EngineDriver::Hub(link) => link.send(LinkCommand::Search {
                generation,
                position: game.start().to_hub(),
                moves: game.moves().iter().map(|&m| hub_move(m)).collect(),
                purpose,
            }),
        }
    }

    /// Stops the search under way, if any, and forgets it: its `Done` may still
    /// come, and is to be ignored.
    pub fn cancel(&mut self) {
        match self {
            EngineDriver::Kroon(engine) => {
                engine.stop();
                let _ = engine.wait();
            }
            EngineDriver::Hub(link) => link.send(LinkCommand::Stop),
        }
    }

    /// The move of a search that has said `Done` with `best`.
    pub fn collect(&mut self, best: Option<String>) -> Option<String> {
        match self {
            EngineDriver::Kroon(engine) => engine.wait().best_move.map(hub_move),
            EngineDriver::Hub(_) => best,
        }
    }

    /// The next game is unrelated to the last.
    pub fn new_game(&mut self) {
        match self {
            EngineDriver::Kroon(engine) => engine.new_game(),
            EngineDriver::Hub(link) => link.send(LinkCommand::NewGame),
        }
    }
}

fn kroon_report(info: &Info) -> Report {
    Report {
        depth: info.depth,
        score: Some(info.score.men()),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        pv: info.pv.iter().map(|&m| hub_move(m)).collect(),
    }
}

enum LinkCommand {
    Search {
        generation: u64,
        position: String,
        moves: Vec<String>,
        purpose: Purpose,
    },
    Stop,
    NewGame,
}

/// A Hub engine process and the thread that speaks to it. Dropping the link
/// ends the thread, which quits (or kills) the process.
pub struct HubLink {
    commands: Option<Sender<LinkCommand>>,
    thread: Option<JoinHandle<()>>,
}

/// How often the link looks for a `stop` while the engine thinks.
const POLL: Duration = Duration::from_millis(20);

/// How long a search may go on after `stop` before the engine counts as hung.
const STOP_GRACE: Duration = Duration::from_secs(5);

impl HubLink {
    fn start(spec: EngineSpec, events: impl Fn(EngineEvent) + Send + 'static) -> HubLink {
        let (commands, inbox) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("kroon-gui-hub".into())
            .spawn(move || match EngineProcess::start(&spec) {
                Ok(process) => {
                    if let Err(fault) = serve(process, &inbox, &events) {
                        events(EngineEvent::Failed(format!("{}: {fault}", spec.name)));
                    }
                }
                Err(fault) => events(EngineEvent::Failed(format!(
                    "{} did not start: {fault}",
                    spec.name
                ))),
            })
            .expect("the system can start a thread");
        HubLink {
            commands: Some(commands),
            thread: Some(thread),
        }
    }

    fn send(&self, command: LinkCommand) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(command);
        }
    }
}

impl Drop for HubLink {
    fn drop(&mut self) {
        // Closing the channel tells the thread to quit the engine.
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The link's loop: one search at a time; a new search or a `stop` during one
/// stops it. Returns when the session drops the link (the engine is told to quit)
/// or with the engine's fault.
fn serve(
    process: EngineProcess,
    inbox: &Receiver<LinkCommand>,
    events: &impl Fn(EngineEvent),
) -> Result<(), Fault> {
    let mut process = process;
    let mut next = None;
    loop {
        let command = match next.take() {
            Some(command) => command,
            None => match inbox.recv() {
                Ok(command) => command,
                Err(_) => break,
            },
        };
        match command {
            LinkCommand::Stop => {}
            LinkCommand::NewGame => process.new_game()?,
            LinkCommand::Search {
                generation,
                position,
                moves,
                purpose,
            } => {
                let mut pos_line = format!("pos pos={position}");
                if !moves.is_empty() {
                    pos_line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
                }
                process.send(&pos_line)?;
                let (level, go) = match purpose {
                    Purpose::Play(control) => (level_args(&control), "go think"),
                    Purpose::Analyse => ("infinite".to_string(), "go analyze"),
                };
                process.send(&format!("level {level}"))?;
                process.send(go)?;
                match search(&mut process, inbox, events, generation)? {
                    Interrupt::Finished => {}
                    Interrupt::Next(command) => next = Some(command),
                    Interrupt::Closed => break,
                }
            }
        }
    }
    process.quit();
    Ok(())
}

enum Interrupt {
    Finished,
    /// A command that came during the search, to do after it.
    Next(LinkCommand),
    /// The session is gone.
    Closed,
}

/// Reads the engine's lines until `done`, passing on its `info`s; a command from
/// the session stops the search.
fn search(
    process: &mut EngineProcess,
    inbox: &Receiver<LinkCommand>,
    events: &impl Fn(EngineEvent),
    generation: u64,
) -> Result<Interrupt, Fault> {
    let mut interrupt = Interrupt::Finished;
    let mut stopped_at: Option<Instant> = None;
    let started = Instant::now();
    loop {
        if stopped_at.is_none() {
            let stop = match inbox.try_recv() {
                Ok(LinkCommand::Stop) => true,
                Ok(command) => {
                    interrupt = Interrupt::Next(command);
                    true
                }
                Err(TryRecvError::Disconnected) => {
                    interrupt = Interrupt::Closed;
                    true
                }
                Err(TryRecvError::Empty) => false,
            };
            if stop {
                process.send("stop")?;
                stopped_at = Some(Instant::now());
            }
        } else if stopped_at.is_some_and(|t| t.elapsed() > STOP_GRACE) {
            return Err(Fault::Timeout("no 'done' after 'stop'".into()));
        }
        let line = match process.next_line(Instant::now() + POLL) {
            Ok(line) => line,
            Err(Fault::Timeout(_)) => continue,
            Err(fault) => return Err(fault),
        };
        let Ok((word, args)) = tokenize(&line) else {
            continue;
        };
        match word.as_str() {
            "info" => events(EngineEvent::Info {
                generation,
                report: hub_report(&args, started.elapsed()),
            }),
            "done" => {
                events(EngineEvent::Done {
                    generation,
                    best: args.get("move").map(String::from),
                });
                return Ok(interrupt);
            }
            _ => {}
        }
    }
}

/// An `info` line's fields; what the engine leaves out stays empty. The speed is
/// worked out from the nodes and the time (Scan's `nps` is in millions).
fn hub_report(args: &crate::hub::command::Args, elapsed: Duration) -> Report {
    let number = |name: &str| {
        args.get(name)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite())
    };
    let nodes = number("nodes").map(|n| n.max(0.0) as u64);
    let time = number("time").unwrap_or(elapsed.as_secs_f64());
    Report {
        depth: number("depth").map_or(0, |d| d.max(0.0) as u32),
        score: number("score"),
        nodes,
        nps: nodes.map(|n| n as f64 / time.max(1e-3)),
        pv: args
            .get("pv")
            .map(|pv| pv.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hub_info_line_becomes_a_report() {
        let (_, args) =
            tokenize(r#"info depth=9 score=-0.25 nodes=2000 time=0.5 pv="32-28 19-23""#).unwrap();
        let report = hub_report(&args, Duration::from_secs(9));
        assert_eq!(report.depth, 9);
        assert_eq!(report.score, Some(-0.25));
        assert_eq!(report.nodes, Some(2000));
        assert_eq!(report.nps, Some(4000.0));
        assert_eq!(report.pv, ["32-28", "19-23"]);
        let (_, args) = tokenize("info score=nan").unwrap();
        assert_eq!(hub_report(&args, Duration::ZERO), Report::default());
    }
}
