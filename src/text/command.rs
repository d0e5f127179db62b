//! One line of text-mode input, parsed into a [`Command`] (syntax only: a move's
//! text is resolved against the position later), and the help that lists the
//! commands.

use super::level::parse_level;
use crate::time_control::TimeControl;

/// One line of input, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Move text, resolved against the position later.
    Move(String),
    /// A bare number: the choice among the captures an ambiguous move listed.
    Choose(usize),
    Go,
    New,
    Undo,
    Redo,
    Swap,
    /// `level` with no words shows the level.
    Level(Option<TimeControl>),
    /// `fen` with no text shows the position's FEN.
    Fen(Option<String>),
    Moves,
    Hint,
    Board,
    Save(String),
    Load(String),
    Help,
    Quit,
    /// An empty line.
    Nothing,
}

impl Command {
    /// Parses a line. The error is a message for the player.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let Some(first) = line.chars().next() else {
            return Ok(Command::Nothing);
        };
        if first.is_ascii_digit() {
            if line.bytes().all(|b| b.is_ascii_digit()) {
                return line
                    .parse()
                    .map(Command::Choose)
                    .map_err(|_| format!("'{line}' is too large a number"));
            }
            return Ok(Command::Move(line.to_string()));
        }
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        let word = word.to_ascii_lowercase();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let no_argument = |command: Command| {
            if rest.is_empty() {
                Ok(command)
            } else {
                Err(format!("'{word}' takes nothing after it, not '{rest}'"))
            }
        };
        let file = |make: fn(String) -> Command| {
            if rest.is_empty() {
                Err(format!("'{word}' needs a file name: {word} FILE"))
            } else {
                Ok(make(rest.to_string()))
            }
        };
        match word.as_str() {
            "go" => no_argument(Command::Go),
            "new" => no_argument(Command::New),
            "undo" | "back" => no_argument(Command::Undo),
            "redo" | "forward" => no_argument(Command::Redo),
            "swap" => no_argument(Command::Swap),
            "moves" => no_argument(Command::Moves),
            "hint" => no_argument(Command::Hint),
            "board" | "show" => no_argument(Command::Board),
            "help" | "?" => Ok(Command::Help),
            "quit" | "exit" | "q" => no_argument(Command::Quit),
            "level" if words.is_empty() => Ok(Command::Level(None)),
            "level" => {
                let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
                let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
                parse_level(&lower).map(|l| Command::Level(Some(l)))
            }
            "time" if words.is_empty() => Ok(Command::Level(None)),
            "time" => {
                let mut all = vec!["time"];
                all.extend(&words);
                parse_level(&all).map(|l| Command::Level(Some(l)))
            }
            "fen" if rest.is_empty() => Ok(Command::Fen(None)),
            "fen" => Ok(Command::Fen(Some(rest.to_string()))),
            "save" => file(Command::Save),
            "load" => file(Command::Load),
            _ => Err(format!(
                "unknown command '{word}': type a move like 32-28, or help for the commands"
            )),
        }
    }
}

pub(super) const HELP: &str = "\
Type a move in any usual form: 32-28, 28x19, 28x19x23 (PDN path or Hub's captured squares).
When a short capture fits several moves they are listed numbered; type the number.
Commands:
  go              Kroon takes the side to move and plays now
  new             a new game from the start position
  undo            take back one move (Kroon does not answer by itself after undo or redo)
  redo            play again the move taken back
  swap            Kroon takes the other side (and moves if it is now its turn)
  level depth N   search N plies per move
  level movetime S    S seconds per move
  level time T+I  (or: time T+I) a game clock: T seconds each (5m for minutes), I added per move
  level           show the level
  fen [FEN]       show the position as FEN, or set it (W:W31-50:B1-20; K before a king)
  moves           list the legal moves
  hint            ask Kroon for a move without playing it
  board           draw the board again
  save FILE       write the game as PDN
  load FILE       read a game from PDN (as save writes it: FEN tag and moves)
  help            this text
  quit            leave (the end of input also leaves)
Kroon replies by itself after your move when it is its turn; scores are from White's view.";

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn commands_parse() {
        assert_eq!(
            Command::parse("  32-28 "),
            Ok(Command::Move("32-28".into()))
        );
        assert_eq!(Command::parse("2"), Ok(Command::Choose(2)));
        assert_eq!(Command::parse("GO"), Ok(Command::Go));
        assert_eq!(Command::parse(""), Ok(Command::Nothing));
        assert_eq!(
            Command::parse("level depth 3"),
            Ok(Command::Level(Some(TimeControl::Depth(3))))
        );
        assert_eq!(
            Command::parse("time 5m+3"),
            Ok(Command::Level(Some(TimeControl::Clock {
                time: Duration::from_secs(300),
                increment: Duration::from_secs(3),
                moves: None
            })))
        );
        assert_eq!(
            Command::parse("level time 300 3"),
            Command::parse("time 5m+3")
        );
        assert_eq!(
            Command::parse("level movetime 0.5"),
            Ok(Command::Level(Some(TimeControl::MoveTime(
                Duration::from_millis(500)
            ))))
        );
        assert_eq!(
            Command::parse("fen W:W31-50:B1-20"),
            Ok(Command::Fen(Some("W:W31-50:B1-20".into())))
        );
        assert_eq!(
            Command::parse("save a b.pdn"),
            Ok(Command::Save("a b.pdn".into()))
        );
    }

    #[test]
    fn bad_commands_say_why() {
        for bad in [
            "frobnicate",
            "level depth 0",
            "level depth x",
            "level time -1",
            "level time 5+x",
            "level time 40/120",
            "level time 9999999",
            "level movetime nan",
            "level movetime inf",
            "level speed 3",
            "save",
            "undo now",
            "99999999999999999999999",
        ] {
            let err = Command::parse(bad).expect_err(bad);
            assert!(!err.is_empty());
        }
    }
}
