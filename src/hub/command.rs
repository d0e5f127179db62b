//! The Hub protocol's lines as values: commands from the GUI parsed, replies to it
//! printed. No I/O here, so both directions round-trip in unit tests.

use crate::engine::GoMode;
use crate::time_control::seconds as duration;
use crate::time_control::TimeControl;
use std::fmt;

/// A line's arguments: `name=value` pairs and bare flags, in order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Args(pub Vec<(String, Option<String>)>);

impl Args {
    /// The value of the first argument with this name (a bare flag has none).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether an argument with this name is present, with or without a value.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }
}

/// Splits a line into its command word and arguments. Values may be quoted
/// (`pv="32-28 17-22"`); an unterminated quote is an error.
pub fn tokenize(line: &str) -> Result<(String, Args), String> {
    let mut chars = line.trim().chars().peekable();
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let value = if chars.peek() == Some(&'=') {
            chars.next();
            let mut value = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    value.push(c);
                }
                if !closed {
                    return Err(format!("unterminated quote in the value of '{name}'"));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
            Some(value)
        } else {
            None
        };
        words.push((name, value));
    }
    if words.is_empty() {
        return Ok((String::new(), Args::default()));
    }
    let (command, _) = words.remove(0);
    Ok((command, Args(words)))
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hub,
    Init,
    SetParam {
        name: String,
        value: String,
    },
    Pos {
        pos: String,
        moves: Vec<String>,
    },
    /// `level`: how long the next searches may take, the clock as it stands now.
    Level(TimeControl),
    Go(GoMode),
    PonderHit,
    Stop,
    Ping,
    NewGame,
    Quit,
    /// Blank lines and commands the protocol may add later: ignored.
    Ignored(String),
}

fn number<T: std::str::FromStr>(args: &Args, name: &str) -> Result<Option<T>, String> {
    match args.get(name) {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| format!("'{v}' is not a valid value for {name}")),
    }
}

fn seconds_param(args: &Args, name: &str) -> Result<Option<std::time::Duration>, String> {
    match number::<f64>(args, name)? {
        None => Ok(None),
        Some(s) => duration(s)
            .map(Some)
            .ok_or_else(|| format!("{name} must be a number of seconds, at least 0")),
    }
}

impl Command {
    /// Parses one line from the GUI. The error is the text of an `error` reply.
    pub fn parse(line: &str) -> Result<Command, String> {
        let (word, args) = tokenize(line)?;
        Ok(match word.as_str() {
            "hub" => Command::Hub,
            "init" => Command::Init,
            "set-param" => {
                let name = args
                    .get("name")
                    .ok_or("set-param needs name=...")?
                    .to_string();
                let value = args
                    .get("value")
                    .ok_or("set-param needs value=...")?
                    .to_string();
                Command::SetParam { name, value }
            }
            "pos" => {
                let pos = match args.get("pos") {
                    Some(p) => p.to_string(),
                    None if args.has("start") || args.0.is_empty() => {
                        crate::board::Position::initial().to_hub()
                    }
                    None => return Err("pos needs pos=<51 characters>".into()),
                };
                let moves = args
                    .get("moves")
                    .unwrap_or("")
                    .split_whitespace()
                    .map(String::from)
                    .collect();
                Command::Pos { pos, moves }
            }
            "level" => Command::Level(Self::parse_level(&args)?),
            "go" => {
                if args.has("ponder") {
                    Command::Go(GoMode::Ponder)
                } else if args.has("analyze") {
                    Command::Go(GoMode::Analyze)
                } else {
                    Command::Go(GoMode::Think)
                }
            }
            "ponder-hit" => Command::PonderHit,
            "stop" => Command::Stop,
            "ping" => Command::Ping,
            "new-game" => Command::NewGame,
            "quit" => Command::Quit,
            _ => Command::Ignored(word),
        })
    }

    fn parse_level(args: &Args) -> Result<TimeControl, String> {
        if let Some(depth) = number::<u32>(args, "depth")? {
            return Ok(TimeControl::Depth(depth.max(1)));
        }
        if let Some(nodes) = number::<u64>(args, "nodes")? {
            return Ok(TimeControl::Nodes(nodes.max(1)));
        }
        if let Some(t) = seconds_param(args, "move-time")? {
            return Ok(TimeControl::MoveTime(t));
        }
        if args.has("infinite") {
            return Ok(TimeControl::Infinite);
        }
        if let Some(time) = seconds_param(args, "time")? {
            let increment = seconds_param(args, "inc")?.unwrap_or_default();
            let moves = number::<u32>(args, "moves")?.filter(|&m| m > 0);
            return Ok(TimeControl::Clock {
                time,
                increment,
                moves,
            });
        }
        Err(
            "level needs one of depth=, nodes=, move-time=, infinite, or time= [moves=] [inc=]"
                .into(),
        )
    }
}

/// The arguments of the `level` line that states `control`: what the match runner
/// sends a Hub engine before each move, the clock as it stands then.
#[must_use]
pub fn level_args(control: &TimeControl) -> String {
    match control {
        TimeControl::Depth(d) => format!("depth={d}"),
        TimeControl::Nodes(n) => format!("nodes={n}"),
        TimeControl::MoveTime(t) => format!("move-time={}", t.as_secs_f64()),
        TimeControl::Infinite => "infinite".into(),
        TimeControl::Clock {
            time,
            increment,
            moves,
        } => {
            let moves = moves.map_or_else(String::new, |m| format!("moves={m} "));
            format!(
                "{moves}time={:.3} inc={}",
                time.as_secs_f64(),
                increment.as_secs_f64()
            )
        }
    }
}

/// Quotes a value when the protocol needs it (spaces, `=`, quotes, or nothing).
#[must_use]
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"', '\t']) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

/// A line from the engine, printed with `Display`.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Id {
        name: String,
        version: String,
        author: String,
        country: String,
    },
    Param {
        name: String,
        value: String,
        kind: ParamKind,
    },
    Wait,
    Ready,
    Pong,
    Info(Vec<(String, String)>),
    Done {
        best: Option<String>,
        ponder: Option<String>,
    },
    Error(String),
}

/// A parameter's type as `param` announces it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    Bool,
    Int { min: i64, max: i64 },
    Enum(Vec<String>),
    Str,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id {
                name,
                version,
                author,
                country,
            } => write!(
                f,
                "id name={} version={} author={} country={}",
                quote(name),
                quote(version),
                quote(author),
                quote(country)
            ),
            Reply::Param { name, value, kind } => {
                write!(f, "param name={} value={}", quote(name), quote(value))?;
                match kind {
                    ParamKind::Bool => write!(f, " type=bool"),
                    ParamKind::Int { min, max } => write!(f, " type=int min={min} max={max}"),
                    ParamKind::Enum(values) => {
                        write!(f, " type=enum values={}", quote(&values.join(" ")))
                    }
                    ParamKind::Str => write!(f, " type=string"),
                }
            }
            Reply::Wait => write!(f, "wait"),
            Reply::Ready => write!(f, "ready"),
            Reply::Pong => write!(f, "pong"),
            Reply::Info(pairs) => {
                write!(f, "info")?;
                for (name, value) in pairs {
                    write!(f, " {name}={}", quote(value))?;
                }
                Ok(())
            }
            // pydraughts reads the move as the first `name=value` of the line.
            Reply::Done { best, ponder } => {
                write!(f, "done move={}", quote(best.as_deref().unwrap_or("")))?;
                if let Some(p) = ponder {
                    write!(f, " ponder={}", quote(p))?;
                }
                Ok(())
            }
            Reply::Error(message) => write!(f, "error message={}", quote(message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_quotes_flags_and_pairs() {
        let (cmd, args) = tokenize(r#"pos pos=Wbbb moves="32-28 17-22" start"#).unwrap();
        assert_eq!(cmd, "pos");
        assert_eq!(args.get("pos"), Some("Wbbb"));
        assert_eq!(args.get("moves"), Some("32-28 17-22"));
        assert!(args.has("start"));
        assert_eq!(args.get("start"), None);
        assert!(tokenize(r#"pos moves="32-28"#).is_err());
    }

    #[test]
    fn parses_every_level_form() {
        let level = |l: &str| match Command::parse(l).unwrap() {
            Command::Level(tc) => tc,
            other => panic!("{l}: {other:?}"),
        };
        let secs = std::time::Duration::from_secs_f64;
        assert_eq!(level("level depth=12"), TimeControl::Depth(12));
        assert_eq!(level("level nodes=1000"), TimeControl::Nodes(1000));
        assert_eq!(
            level("level move-time=2.5"),
            TimeControl::MoveTime(secs(2.5))
        );
        assert_eq!(level("level infinite"), TimeControl::Infinite);
        assert_eq!(
            level("level time=60"),
            TimeControl::Clock {
                time: secs(60.0),
                increment: secs(0.0),
                moves: None
            }
        );
        let clock = TimeControl::Clock {
            time: secs(120.5),
            increment: secs(1.0),
            moves: Some(40),
        };
        assert_eq!(level("level moves=40 time=120.5 inc=1"), clock);
        assert!(Command::parse("level depth=x").is_err());
        assert!(Command::parse("level time=-3").is_err());
        assert!(Command::parse("level").is_err());
        // What the match runner sends reads back as the same control.
        for tc in [
            clock,
            TimeControl::Depth(3),
            TimeControl::Nodes(500),
            TimeControl::MoveTime(secs(0.25)),
            TimeControl::Infinite,
        ] {
            assert_eq!(level(&format!("level {}", level_args(&tc))), tc);
        }
    }

    #[test]
    fn parses_commands() {
        assert_eq!(
            Command::parse("go ponder").unwrap(),
            Command::Go(GoMode::Ponder)
        );
        assert_eq!(
            Command::parse("go think").unwrap(),
            Command::Go(GoMode::Think)
        );
        assert_eq!(
            Command::parse("go analyze").unwrap(),
            Command::Go(GoMode::Analyze)
        );
        assert_eq!(
            Command::parse("set-param name=tt-size value=24").unwrap(),
            Command::SetParam {
                name: "tt-size".into(),
                value: "24".into()
            }
        );
        assert_eq!(
            Command::parse("frobnicate x=1").unwrap(),
            Command::Ignored("frobnicate".into())
        );
        assert_eq!(Command::parse("").unwrap(), Command::Ignored(String::new()));
        let Command::Pos { moves, .. } =
            Command::parse(r#"pos pos=W... moves="32-28 19-23""#).unwrap()
        else {
            panic!("pos parses");
        };
        assert_eq!(moves, ["32-28", "19-23"]);
    }

    #[test]
    fn replies_round_trip_through_the_tokenizer() {
        let info = Reply::Info(vec![
            ("depth".into(), "3".into()),
            ("pv".into(), "32-28 17-22".into()),
        ]);
        let text = info.to_string();
        assert_eq!(text, r#"info depth=3 pv="32-28 17-22""#);
        let (word, args) = tokenize(&text).unwrap();
        assert_eq!(word, "info");
        assert_eq!(args.get("pv"), Some("32-28 17-22"));
        let done = Reply::Done {
            best: Some("28x19x23".into()),
            ponder: Some("14x23".into()),
        };
        assert_eq!(done.to_string(), "done move=28x19x23 ponder=14x23");
        let err = Reply::Error("bad \"x\"".into()).to_string();
        assert_eq!(tokenize(&err).unwrap().1.get("message"), Some("bad 'x'"));
        let id = Reply::Id {
            name: "Kroon".into(),
            version: "0.1".into(),
            author: "The Kroon team".into(),
            country: "NL".into(),
        };
        assert_eq!(
            tokenize(&id.to_string()).unwrap().1.get("author"),
            Some("The Kroon team")
        );
    }
}
