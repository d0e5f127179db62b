//! A Hub engine as a child process: the handshake, one search at a time with a deadline, and killing it when it
//! misbehaves. Every wait has a time-out, so a hung engine costs a game, never
//! the match.

use super::engine_spec::EngineSpec;
use super::fault::Fault;
use crate::hub::command::{tokenize, Args};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What one search returned.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The `move=` of `done` (None if it had none).
    pub best: Option<String>,
    /// The last `info score=`, in hundredths of a man from the engine's view.
    pub score: Option<i32>,
    /// From `go` to `done`.
    pub elapsed: Duration,
    /// The last `info nodes=`.
    pub nodes: Option<u64>,
    /// The last `info depth=`.
    pub depth: Option<u32>,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long an engine may take for `hub` and `init`.
pub const START_TIMEOUT: Duration = Duration::from_secs(20);

impl EngineProcess {
    /// Starts the engine and completes the handshake: `hub` .. `wait`, the
    /// `set-param`s, `init` .. `ready`.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, Fault> {
        let mut command = spec.process(None);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // Diagnostics would garble the progress line; engines talk on stdout.
            .stderr(Stdio::null());
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Start(spec.start_failure(&command, &e)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Start("no pipes to the process".into()));
        };
        let (tx, lines) = mpsc::channel();
        // A reader thread turns the blocking pipe into a channel we can wait on
        // with a time-out; it ends when the process closes its stdout.
        // Bytes that are not UTF-8 stay a line (garbage the game is judged on), not
        // an end of output.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes);
                if tx
                    .send(line.trim_end_matches(['\n', '\r']).to_string())
                    .is_err()
                {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
        };
        engine.handshake(spec).inspect_err(|_| engine.kill())?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), Fault> {
        let deadline = Instant::now() + START_TIMEOUT;
        let start_fault = |f: Fault| Fault::Start(f.to_string());
        self.send("hub").map_err(start_fault)?;
        let mut declared = Vec::new();
        self.read_until("wait", deadline, |word, args, _| {
            if word == "param" {
                declared.extend(args.get("name").map(String::from));
            }
        })
        .map_err(start_fault)?;
        // An engine that declares its params has no others: a name it did not declare
        // is a typo that it would ignore quietly (Kroon does, for the clients that send
        // params it may not know), and the match would test its default. One that
        // declares none cannot be checked.
        let unknown: Vec<&str> = spec
            .options
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| !declared.iter().any(|d| d == name))
            .collect();
        if !declared.is_empty() && !unknown.is_empty() {
            return Err(Fault::Options(format!(
                "it has no param {} (its params: {})",
                unknown.join(", "),
                declared.join(", ")
            )));
        }
        for (name, value) in &spec.options {
            self.send(&format!(
                "set-param name={} value={}",
                crate::hub::command::quote(name),
                crate::hub::command::quote(value)
            ))
            .map_err(start_fault)?;
        }
        self.send("init").map_err(start_fault)?;
        // The answers to the `set-param`s come before `ready`: Kroon says `error` for a
        // value it cannot use and plays on with its default, and Scan 2.0 says nothing.
        let mut refusals = Vec::new();
        self.read_until("ready", deadline, |word, args, line| {
            if word == "error" {
                refusals.push(
                    args.get("message")
                        .map_or_else(|| line.to_string(), String::from),
                );
            }
        })
        .map_err(start_fault)?;
        if refusals.is_empty() {
            Ok(())
        } else {
            Err(Fault::Options(refusals.join("; ")))
        }
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Fault::Io(e.to_string()))
    }

    /// The engine's next line, waiting until `deadline` at most.
    pub fn next_line(&self, deadline: Instant) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Exited),
        }
    }

    /// Reads the engine's lines up to the first whose word is `end`, handing each
    /// before it (its word, its `name=value` pairs, the line) to `each`.
    fn read_until(
        &self,
        end: &str,
        deadline: Instant,
        mut each: impl FnMut(&str, &Args, &str),
    ) -> Result<(), Fault> {
        loop {
            let line = self.next_line(deadline).map_err(|f| match f {
                Fault::Timeout(_) => Fault::Timeout(format!("no '{end}' in time")),
                other => other,
            })?;
            match tokenize(&line) {
                Ok((word, _)) if word == end => return Ok(()),
                Ok((word, args)) => each(&word, &args, &line),
                Err(_) => {}
            }
        }
    }

    /// Searches: `pos`, `level`, `go think`, then reads until `done` or the
    /// deadline (measured from `go`).
    pub fn think(
        &mut self,
        pos: &str,
        moves: &[String],
        level: &str,
        allowed: Duration,
    ) -> Result<Answer, Fault> {
        let mut pos_line = format!("pos pos={pos}");
        if !moves.is_empty() {
            pos_line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        self.send(&pos_line)?;
        self.send(&format!("level {level}"))?;
        self.send("go think")?;
        let start = Instant::now();
        let deadline = start + allowed;
        let mut score = None;
        let mut nodes = None;
        let mut depth = None;
        loop {
            let line = self.next_line(deadline).map_err(|f| match f {
                Fault::Timeout(_) => {
                    Fault::Timeout(format!("no 'done' within {:.2} s", allowed.as_secs_f64()))
                }
                other => other,
            })?;
            // Lines that do not parse, and commands we do not know, are skipped:
            // the protocol lets both sides add to it.
            let Ok((word, args)) = tokenize(&line) else {
                continue;
            };
            match word.as_str() {
                "info" => {
                    if let Some(n) = args.get("nodes").and_then(|n| n.parse::<u64>().ok()) {
                        nodes = Some(n);
                    }
                    if let Some(d) = args.get("depth").and_then(|d| d.parse::<u32>().ok()) {
                        depth = Some(d);
                    }
                    if let Some(s) = args.get("score").and_then(|s| s.parse::<f64>().ok()) {
                        if s.is_finite() {
                            score = Some((s * 100.0).round().clamp(-1e6, 1e6) as i32);
                        }
                    }
                }
                "done" => {
                    return Ok(Answer {
                        best: args.get("move").map(String::from),
                        score,
                        elapsed: start.elapsed(),
                        nodes,
                        depth,
                    })
                }
                _ => {}
            }
        }
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Tells the engine a new game starts (engines that do not know it ignore it).
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.send("new-game")
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the engine to quit, and kills it if it has not after a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        if !exits_within(&mut self.child, QUIT_GRACE) {
            self.kill();
        }
    }
}

/// How long an engine asked to quit may take before it is killed.
pub(super) const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Whether the child process ends within `wait` (checked every 10 ms).
pub(super) fn exits_within(child: &mut std::process::Child, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    loop {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Never leave an engine behind, whatever path dropped it.
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
        }
    }
}
