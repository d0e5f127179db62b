//! A Hub engine as a child process: how it is described on the command line, the
//! handshake, one search at a time with a deadline, and killing it when it
//! misbehaves. Every wait has a time-out, so a hung engine costs a game, never
//! the match.

use crate::hub::command::tokenize;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// An engine as `--engine` describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// `set-param` name and value pairs, in the order given.
    pub options: Vec<(String, String)>,
}

/// Splits text into words the way a POSIX shell does for the simple cases: blanks
/// separate, `'...'` is literal, `"..."` allows `\"` and `\\`, a backslash outside
/// quotes escapes the next character.
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in {text}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in {text}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in {text}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// `name=Kroon cmd='target/release/kroon hub' dir=/some/where option.threads=1`.
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut dir = None;
        let mut options = Vec::new();
        for word in shell_words(text)? {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' in --engine is not key=value"))?;
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    let words = shell_words(value)?;
                    if words.is_empty() {
                        return Err("cmd= is empty".into());
                    }
                    command = Some(words);
                }
                "dir" => dir = Some(PathBuf::from(value)),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "unknown key '{key}' in --engine (name, cmd, dir, option.NAME)"
                        ))
                    }
                },
            }
        }
        let command = command.ok_or("--engine needs cmd=...")?;
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&command[0])
                .file_name()
                .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            command,
            dir,
            options,
        })
    }
}

/// Why an engine lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// It did not start, or failed the handshake.
    Start(String),
    /// The process ended (crash or exit).
    Exited,
    /// No answer in time (a hang or a time overrun).
    Timeout(String),
    /// It could not be written to.
    Io(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Start(why) => write!(f, "failed to start: {why}"),
            Fault::Exited => write!(f, "the engine process exited"),
            Fault::Timeout(why) => write!(f, "{why}"),
            Fault::Io(why) => write!(f, "cannot write to the engine: {why}"),
        }
    }
}

/// What one search returned.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The `move=` of `done` (None if it had none).
    pub best: Option<String>,
    /// The last `info score=`, in hundredths of a man from the engine's view.
    pub score: Option<i32>,
    /// From `go` to `done`.
    pub elapsed: Duration,
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
        let mut program = PathBuf::from(&spec.command[0]);
        // A relative path with a directory part is meant from `dir`, like a shell in
        // that directory would read it.
        if let Some(dir) = &spec.dir {
            if program.is_relative() && program.components().count() > 1 {
                program = dir.join(program);
            }
        }
        let mut command = Command::new(&program);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // Diagnostics would garble the progress line; engines talk on stdout.
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Start(format!("{}: {e}", program.display())))?;
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
        self.wait_for("wait", deadline).map_err(start_fault)?;
        for (name, value) in &spec.options {
            self.send(&format!(
                "set-param name={} value={}",
                crate::hub::command::quote(name),
                crate::hub::command::quote(value)
            ))
            .map_err(start_fault)?;
        }
        self.send("init").map_err(start_fault)?;
        self.wait_for("ready", deadline).map_err(start_fault)
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Fault::Io(e.to_string()))
    }

    fn next_line(&self, deadline: Instant) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Exited),
        }
    }

    fn wait_for(&self, word: &str, deadline: Instant) -> Result<(), Fault> {
        loop {
            let line = self.next_line(deadline).map_err(|f| match f {
                Fault::Timeout(_) => Fault::Timeout(format!("no '{word}' in time")),
                other => other,
            })?;
            if tokenize(&line).is_ok_and(|(w, _)| w == word) {
                return Ok(());
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
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_quote_like_a_shell() {
        assert_eq!(
            shell_words(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(shell_words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(shell_words("''").unwrap(), [""]);
        assert!(shell_words("'open").is_err());
    }

    #[test]
    fn parses_engine_specs() {
        let spec: EngineSpec =
            "name=Kroon cmd='target/release/kroon hub' option.threads=1 dir=/tmp"
                .parse()
                .unwrap();
        assert_eq!(spec.name, "Kroon");
        assert_eq!(spec.command, ["target/release/kroon", "hub"]);
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(spec.options, [("threads".to_string(), "1".to_string())]);
        let spec: EngineSpec = "cmd=\"python3 'my engine.py'\"".parse().unwrap();
        assert_eq!(spec.command, ["python3", "my engine.py"]);
        assert_eq!(spec.name, "python3");
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x colour=red".parse::<EngineSpec>().is_err());
        assert!("cmd=x junk".parse::<EngineSpec>().is_err());
    }
}
