//! An engine as `--engine` describes it: the program, its folder, and how the match
//! runner speaks to it (Hub on its stdin and stdout, or DXP over the loopback, the
//! engine listening or connecting).
//!
//! ```
//! use kroon::client::engine_spec::{EngineSpec, Listener, Protocol};
//!
//! let spec: EngineSpec = "name=moby proto=dxp cmd='./mobydam -p {port}' dir=/opt/moby"
//!     .parse()
//!     .unwrap();
//! assert_eq!(spec.protocol, Protocol::Dxp { listener: Listener::Engine, port: None });
//! assert_eq!(spec.command_with_port(4000), ["./mobydam", "-p", "4000"]);
//! ```

use crate::hub::MAX_NODE_RATE;
use crate::time_control::TimeControl;
use std::path::PathBuf;
use std::process::Command;

/// Where `cmd=` takes the port Kroon chose.
pub const PORT_MARK: &str = "{port}";

/// Where `dir=` and `cmd=` take the number of the match worker (1, 2, ...) that
/// starts the process: games played side by side (`--concurrency`) then run their
/// engines in folders of their own, for programs that write fixed file names
/// (Moby Dam's `engine.log`, `dxp.log` and `result.pdn`).
pub const WORKER_MARK: &str = "{worker}";

/// Which side of a DXP connection listens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    /// The engine listens and Kroon connects (Scan's `dxp-server = true`, Moby
    /// Dam's `-p PORT`, `kroon dxp --listen PORT`).
    Engine,
    /// Kroon listens and the engine connects (Moby Dam's `-c HOST`, `kroon dxp
    /// --connect`).
    Kroon,
}

/// How the runner speaks to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Hub on the engine's stdin and stdout.
    Hub,
    /// DXP over TCP on 127.0.0.1, Kroon the initiator.
    Dxp {
        listener: Listener,
        /// A fixed port, for a program that reads its port from its own files;
        /// `None`: a free port Kroon chooses for each start.
        port: Option<u16>,
    },
}

/// An engine as `--engine` describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// Program and arguments; a DXP engine's may hold [`PORT_MARK`].
    pub command: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// `set-param` name and value pairs, in the order given (Hub engines only).
    pub options: Vec<(String, String)>,
    pub protocol: Protocol,
    /// `node-rate=N`: this engine's clock counts N nodes as a second (Hub engines
    /// only). An engine whose evaluation costs more searches fewer nodes a second,
    /// so two evaluations compared at a node clock each need their own rate.
    pub node_rate: Option<u64>,
    /// `tc=CLOCK`: this engine's own clock in a match (time odds: Scan given two
    /// minutes a game where Kroon has one); `None`: the match's `--tc`.
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// The command with every [`PORT_MARK`] replaced by `port`.
    #[must_use]
    pub fn command_with_port(&self, port: u16) -> Vec<String> {
        self.command
            .iter()
            .map(|w| w.replace(PORT_MARK, &port.to_string()))
            .collect()
    }

    /// This engine as match worker `worker` starts it: [`WORKER_MARK`] in `dir=`
    /// and `cmd=` replaced by the worker's number.
    #[must_use]
    pub fn for_worker(&self, worker: usize) -> EngineSpec {
        let fill = |w: &str| w.replace(WORKER_MARK, &worker.to_string());
        EngineSpec {
            command: self.command.iter().map(|w| fill(w)).collect(),
            dir: self
                .dir
                .as_ref()
                .map(|d| PathBuf::from(fill(&d.to_string_lossy()))),
            ..self.clone()
        }
    }

    /// Whether `dir=` holds [`WORKER_MARK`]: each worker's folder is then made
    /// when the match starts.
    #[must_use]
    pub fn dir_per_worker(&self) -> bool {
        self.dir
            .as_ref()
            .is_some_and(|d| d.to_string_lossy().contains(WORKER_MARK))
    }

    /// The process to start, in `dir`; `port` fills [`PORT_MARK`]. A relative
    /// program path with a folder part (`./scan`) is taken from `dir`, as a shell in
    /// that folder would read it.
    #[must_use]
    pub fn process(&self, port: Option<u16>) -> Command {
        let words = match port {
            Some(port) => self.command_with_port(port),
            None => self.command.clone(),
        };
        let mut program = PathBuf::from(&words[0]);
        if let Some(dir) = &self.dir {
            if program.is_relative() && program.components().count() > 1 {
                program = dir.join(program);
            }
        }
        let mut command = Command::new(program);
        command.args(&words[1..]);
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
    }

    /// Why `command` (made by [`EngineSpec::process`]) did not start: the system's
    /// error names the program even when what is missing is the `dir=` folder.
    #[must_use]
    pub fn start_failure(&self, command: &Command, e: &std::io::Error) -> String {
        match &self.dir {
            Some(dir) if !dir.is_dir() => format!("no folder {} to run it in", dir.display()),
            _ => format!("{}: {e}", PathBuf::from(command.get_program()).display()),
        }
    }

    /// Whether `cmd=` says where the port goes.
    #[must_use]
    pub fn takes_port(&self) -> bool {
        self.command.iter().any(|w| w.contains(PORT_MARK))
    }

    #[must_use]
    pub fn is_dxp(&self) -> bool {
        matches!(self.protocol, Protocol::Dxp { .. })
    }

    /// A Hub engine from its plain command line (`scan hub`), or from a spec as
    /// `--engine` of `kroon match` reads it when the text has `cmd=`.
    pub fn from_command_line(text: &str) -> Result<EngineSpec, String> {
        if text.contains("cmd=") {
            let spec: EngineSpec = text.parse()?;
            if spec.is_dxp() {
                return Err("only a Hub engine can be driven from here".into());
            }
            if spec.node_rate.is_some() {
                return Err("node-rate= is for the node clocks of kroon match".into());
            }
            if spec.tc.is_some() {
                return Err("tc= is for the clocks of kroon match".into());
            }
            return Ok(spec);
        }
        let words = shell_words(text)?;
        let Some(program) = words.first() else {
            return Err("give the engine's command line".into());
        };
        Ok(EngineSpec {
            name: std::path::Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned()),
            command: words,
            dir: None,
            options: Vec::new(),
            protocol: Protocol::Hub,
            node_rate: None,
            tc: None,
        })
    }
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

/// The keys of one `--engine`, before they are checked together.
#[derive(Default)]
struct Keys {
    name: Option<String>,
    command: Option<Vec<String>>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    proto: Option<String>,
    listen: Option<String>,
    port: Option<u16>,
    node_rate: Option<u64>,
    tc: Option<TimeControl>,
}

impl Keys {
    fn read(text: &str) -> Result<Keys, String> {
        let mut keys = Keys::default();
        for word in shell_words(text)? {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' in --engine is not key=value"))?;
            match key {
                "name" => keys.name = Some(value.to_string()),
                "cmd" => {
                    let words = shell_words(value)?;
                    if words.is_empty() {
                        return Err("cmd= is empty".into());
                    }
                    keys.command = Some(words);
                }
                "dir" => keys.dir = Some(PathBuf::from(value)),
                "proto" => keys.proto = Some(value.to_string()),
                "listen" => keys.listen = Some(value.to_string()),
                "port" => {
                    let port = value.parse::<u16>().ok().filter(|&p| p > 0);
                    keys.port =
                        Some(port.ok_or_else(|| format!("port={value} is not a port 1-65535"))?);
                }
                "node-rate" => {
                    let rate = value
                        .parse::<u64>()
                        .ok()
                        .filter(|r| (1..=MAX_NODE_RATE).contains(r));
                    keys.node_rate = Some(rate.ok_or_else(|| {
                        format!(
                            "node-rate={value} is not a whole number of nodes a second, \
                             1 to {MAX_NODE_RATE}"
                        )
                    })?);
                }
                "tc" => {
                    let tc = value
                        .parse::<TimeControl>()
                        .map_err(|e| format!("tc={value}: {e}"))?;
                    keys.tc = Some(tc);
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        keys.options.push((option.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "unknown key '{key}' in --engine (name, cmd, dir, proto, listen, port, node-rate, tc, option.NAME)"
                        ))
                    }
                },
            }
        }
        Ok(keys)
    }

    /// The protocol, checked against the keys that only one protocol has.
    fn protocol(&self, command: &[String]) -> Result<Protocol, String> {
        let takes_port = command.iter().any(|w| w.contains(PORT_MARK));
        match self.proto.as_deref().unwrap_or("hub") {
            "hub" => {
                if self.listen.is_some() || self.port.is_some() {
                    return Err("listen= and port= are for DXP engines: add proto=dxp".into());
                }
                if takes_port {
                    return Err(format!(
                        "cmd= has {PORT_MARK}, which only a DXP engine is given: add proto=dxp"
                    ));
                }
                Ok(Protocol::Hub)
            }
            "dxp" => {
                if !self.options.is_empty() {
                    return Err(
                        "option.NAME is sent to Hub engines only; a DXP engine takes \
                                its options on its command line or in its own files"
                            .into(),
                    );
                }
                if self.node_rate.is_some() {
                    return Err(
                        "node-rate= is for Hub engines: a DXP engine plays on the real clock"
                            .into(),
                    );
                }
                let listener = match self.listen.as_deref().unwrap_or("engine") {
                    "engine" => Listener::Engine,
                    "kroon" => Listener::Kroon,
                    other => {
                        return Err(format!(
                            "listen={other}: say who listens, listen=engine or listen=kroon"
                        ))
                    }
                };
                if !takes_port && self.port.is_none() {
                    return Err(format!(
                        "a DXP engine needs {PORT_MARK} in cmd= where the program takes its port \
                         (Kroon picks a free one), or port=N for a program that reads its port \
                         from its own files"
                    ));
                }
                Ok(Protocol::Dxp {
                    listener,
                    port: self.port,
                })
            }
            other => Err(format!("proto={other}: the protocols are hub and dxp")),
        }
    }
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// `name=Kroon cmd='target/release/kroon hub' dir=/some/where option.threads=1`,
    /// or `name=Moby proto=dxp cmd='./mobydam -p {port}' listen=engine`.
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let keys = Keys::read(text)?;
        let command = keys.command.clone().ok_or("--engine needs cmd=...")?;
        let protocol = keys.protocol(&command)?;
        let name = keys.name.unwrap_or_else(|| {
            std::path::Path::new(&command[0])
                .file_name()
                .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            command,
            dir: keys.dir,
            options: keys.options,
            protocol,
            node_rate: keys.node_rate,
            tc: keys.tc,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_mark_fills_dir_and_cmd() {
        let spec: EngineSpec =
            "name=m proto=dxp cmd='./m -p {port} -l log{worker}' dir=/tmp/m-{worker}"
                .parse()
                .unwrap();
        assert!(spec.dir_per_worker());
        let two = spec.for_worker(2);
        assert_eq!(two.dir, Some(PathBuf::from("/tmp/m-2")));
        assert_eq!(two.command_with_port(9), ["./m", "-p", "9", "-l", "log2"]);
        assert!(!two.dir_per_worker());
    }

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
    fn parses_hub_engine_specs() {
        let spec: EngineSpec =
            "name=Kroon cmd='target/release/kroon hub' option.threads=1 dir=/tmp"
                .parse()
                .unwrap();
        assert_eq!(spec.name, "Kroon");
        assert_eq!(spec.command, ["target/release/kroon", "hub"]);
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(spec.options, [("threads".to_string(), "1".to_string())]);
        assert_eq!(spec.protocol, Protocol::Hub);
        let spec: EngineSpec = "cmd=\"python3 'my engine.py'\"".parse().unwrap();
        assert_eq!(spec.command, ["python3", "my engine.py"]);
        assert_eq!(spec.name, "python3");
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x colour=red".parse::<EngineSpec>().is_err());
        assert!("cmd=x junk".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn reads_an_engines_own_clock() {
        let spec: EngineSpec = "name=Scan proto=dxp cmd='scan {port}' tc=120"
            .parse()
            .unwrap();
        assert_eq!(spec.tc, Some("120".parse().unwrap()));
        let spec: EngineSpec = "cmd=k tc=5m+3".parse().unwrap();
        assert_eq!(spec.tc, Some("300+3".parse().unwrap()));
        assert_eq!("cmd=k".parse::<EngineSpec>().unwrap().tc, None);
        for bad in ["", "fast", "0", "-60", "40/"] {
            let text = format!("cmd=k tc={bad}");
            let err = text.parse::<EngineSpec>().expect_err(&text);
            assert!(err.starts_with(&format!("tc={bad}: ")), "{text}: {err}");
        }
        let err = EngineSpec::from_command_line("cmd=k tc=60").unwrap_err();
        assert!(err.contains("tc= is for"), "{err}");
    }

    #[test]
    fn reads_an_engines_own_node_rate() {
        let spec: EngineSpec = "name=net cmd=k node-rate=138000".parse().unwrap();
        assert_eq!(spec.node_rate, Some(138_000));
        assert!(
            spec.options.is_empty(),
            "sent by the match, once it is checked"
        );
        let spec: EngineSpec = "cmd=k node-rate=1000000000".parse().unwrap();
        assert_eq!(spec.node_rate, Some(1_000_000_000));
        assert_eq!("cmd=k".parse::<EngineSpec>().unwrap().node_rate, None);
        for bad in ["0", "-5", "1.5", "3e5", "", "fast", "1000000001"] {
            let text = format!("cmd=k node-rate={bad}");
            let err = text.parse::<EngineSpec>().expect_err(&text);
            assert!(
                err.contains(&format!("node-rate={bad} is not a whole number")),
                "{text}: {err}"
            );
        }
        let err = "proto=dxp cmd='m {port}' node-rate=1000"
            .parse::<EngineSpec>()
            .unwrap_err();
        assert!(err.contains("real clock"), "{err}");
        let err = EngineSpec::from_command_line("cmd=k node-rate=1000").unwrap_err();
        assert!(err.contains("kroon match"), "{err}");
    }

    #[test]
    fn parses_dxp_engine_specs() {
        let spec: EngineSpec =
            "name=moby proto=dxp listen=kroon cmd='mobydam -c 127.0.0.1 -p {port}'"
                .parse()
                .unwrap();
        assert_eq!(
            spec.protocol,
            Protocol::Dxp {
                listener: Listener::Kroon,
                port: None
            }
        );
        assert!(spec.takes_port() && spec.is_dxp());
        assert_eq!(spec.command_with_port(9)[4], "9");
        let spec: EngineSpec = "proto=dxp cmd='./scan dxp' port=27531 dir=/x"
            .parse()
            .unwrap();
        assert_eq!(
            spec.protocol,
            Protocol::Dxp {
                listener: Listener::Engine,
                port: Some(27531)
            }
        );
        assert_eq!(spec.command_with_port(27531), ["./scan", "dxp"]);
    }

    #[test]
    fn refuses_dxp_specs_that_cannot_work() {
        let bad = [
            ("proto=dxp cmd='./scan dxp'", "{port}"),
            ("proto=dxp cmd='m -p {port}' listen=both", "listen=engine"),
            (
                "proto=dxp cmd='m -p {port}' option.hash=8",
                "Hub engines only",
            ),
            ("proto=dxp cmd='m' port=0", "port 1-65535"),
            ("proto=dxp cmd='m' port=99999", "port 1-65535"),
            ("proto=uci cmd='m'", "hub and dxp"),
            ("cmd='m' listen=engine", "proto=dxp"),
            ("cmd='m -p {port}'", "proto=dxp"),
        ];
        for (text, why) in bad {
            let err = text.parse::<EngineSpec>().expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
