//! PDN, the game file format: one writer for the match runner, DXP and text mode,
//! one lenient reader for the games people and other programs write, and the
//! `Date` tag's calendar.

use crate::board::Position;
use crate::game::Game;
use std::fmt;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// A game's PDN tags in the order they are written.
pub type Tags = Vec<(String, String)>;

/// How the movetext is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Wrapped at about 80 columns, for files of many games that people read.
    Wrapped,
    /// On one line.
    OneLine,
}

/// The PDN text of one game: the tags, a blank line, the movetext and the result,
/// ending with a newline (a file of games puts a blank line between them).
///
/// The tags come in the order given. A `FEN` tag is added after them when the
/// game does not start from the initial position and the caller gave none. The
/// result is given because it may differ from the rules' verdict when a game ends
/// by forfeit or adjudication.
#[must_use]
pub fn write_game(tags: &Tags, game: &Game, result: &str, layout: Layout) -> String {
    write_annotated(tags, game, &[], result, layout)
}

/// [`write_game`] with a comment after each move: `comments[i]` follows the
/// i-th move in braces (an empty or missing one writes nothing). A comment is
/// never split over two lines.
#[must_use]
pub fn write_annotated(
    tags: &Tags,
    game: &Game,
    comments: &[String],
    result: &str,
    layout: Layout,
) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        write_tag(&mut out, name, value);
    }
    if game.start() != Position::initial() && !tags.iter().any(|(name, _)| name == "FEN") {
        write_tag(&mut out, "FEN", &game.start().to_fen());
    }
    out.push('\n');
    let width = match layout {
        Layout::Wrapped => 80,
        Layout::OneLine => usize::MAX,
    };
    let mut words = Vec::new();
    for (i, text) in game.pdn_move_words().iter().enumerate() {
        words.extend(text.split_whitespace().map(String::from));
        if let Some(comment) = comments.get(i).filter(|c| !c.is_empty()) {
            // A brace would end the comment early; what it says never needs one.
            words.push(format!("{{{}}}", comment.replace(['{', '}'], "")));
        }
    }
    words.push(result.to_string());
    let mut column = 0;
    for word in &words {
        if column > 0 && column + 1 + word.len() > width {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
    }
    out.push('\n');
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// One game read back: its tags and its moves as text (numbers, comments,
/// variations, NAGs and `!?` marks left out). The moves are checked later,
/// against the position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParsedGame {
    pub tags: Tags,
    pub moves: Vec<String>,
    /// The result token at the end of the movetext.
    pub result: Option<String>,
}

impl ParsedGame {
    /// The value of a tag (the first, if it is given twice).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// A tag line that is not `[Name "value"]`.
    Tag { line: usize, text: String },
    /// A `GameType` tag of another game than international draughts.
    GameType(String),
    /// No tags and no moves.
    NoGame,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::Tag { line, text } => write!(
                f,
                "line {line}: a tag must look like [Name \"value\"], not {text}"
            ),
            PdnError::GameType(value) => write!(
                f,
                "GameType {value} is not international draughts (GameType 20)"
            ),
            PdnError::NoGame => write!(f, "there is no game in it (no tags and no moves)"),
        }
    }
}

impl std::error::Error for PdnError {}

/// Reads every game of a PDN text leniently (see [`parse_first_game`]). A new
/// game starts at a tag after movetext.
pub fn parse_games(text: &str) -> Result<Vec<ParsedGame>, PdnError> {
    read(text, usize::MAX)
}

/// Reads the first game of a PDN text leniently: comments `{..}` and `;..`,
/// variations `(..)`, move numbers (alone or stuck to their move), NAGs and `!?`
/// marks are left out; movetext after the result is ignored. The games after the
/// first are not read, so they cannot make it fail.
pub fn parse_first_game(text: &str) -> Result<ParsedGame, PdnError> {
    read(text, 1)?.pop().ok_or(PdnError::NoGame)
}

fn is_result(token: &str) -> bool {
    matches!(token, "2-0" | "0-2" | "1-1" | "0-0" | "*" | "1-0" | "0-1")
}

/// Reads up to `limit` games.
fn read(text: &str, limit: usize) -> Result<Vec<ParsedGame>, PdnError> {
    let mut games = Vec::new();
    let mut current = ParsedGame::default();
    // Whether the current game has movetext (a tag after it starts the next
    // game), and whether its result has been read.
    let (mut in_moves, mut ended) = (false, false);
    let mut comment = false; // inside a {comment}, which may span lines
    let mut depth = 0usize; // inside this many (variations
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        // A `[` inside a comment is comment text, not a tag.
        if !comment && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut current));
                if games.len() == limit {
                    return Ok(games);
                }
                (in_moves, ended) = (false, false);
            }
            // Tags end an unclosed variation: it must not swallow the next game.
            depth = 0;
            let (name, value) = parse_tag(trimmed).ok_or_else(|| PdnError::Tag {
                line: n + 1,
                text: trimmed.to_string(),
            })?;
            if name == "GameType" && value != "20" && !value.starts_with("20,") {
                return Err(PdnError::GameType(value));
            }
            current.tags.push((name.to_string(), value));
            continue;
        }
        let mut cleaned = String::new();
        for c in line.chars() {
            match c {
                '{' if !comment => comment = true,
                '}' if comment => comment = false,
                _ if comment => {}
                // A comment to the end of the line.
                ';' => break,
                '(' => depth += 1,
                ')' if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                _ => cleaned.push(c),
            }
        }
        for token in cleaned.split_whitespace() {
            in_moves = true;
            if ended {
                continue;
            }
            if is_result(token) {
                current.result = Some(token.to_string());
                ended = true;
                continue;
            }
            if token.starts_with('$') {
                continue;
            }
            // A move number, alone (`12.`, `12...`) or stuck to its move (`12.32-28`).
            let token = match token.find('.') {
                Some(i) if token[..i].bytes().all(|b| b.is_ascii_digit()) => {
                    token[i..].trim_start_matches('.')
                }
                _ => token,
            };
            let token = token.trim_end_matches(['!', '?', '+', '#']);
            if !token.is_empty() {
                current.moves.push(token.to_string());
            }
        }
    }
    if in_moves || !current.tags.is_empty() {
        games.push(current);
    }
    Ok(games)
}

/// The name and value of a tag line `[Name "value"]`. The quotes are optional;
/// `\"` and `\\` in the value stand for `"` and `\`.
fn parse_tag(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?;
    let inner = inner.strip_suffix(']').unwrap_or(inner);
    let (name, value) = inner.split_once(char::is_whitespace)?;
    // One quote at each end: an escaped quote may end the value.
    let value = value.trim();
    let value = value.strip_prefix('"').unwrap_or(value);
    let value = value.strip_suffix('"').unwrap_or(value);
    let mut unescaped = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => unescaped.extend(chars.next()),
            c => unescaped.push(c),
        }
    }
    Some((name, unescaped))
}

/// Today's date (UTC) as the PDN `Date` tag writes it, `YYYY.MM.DD`, or
/// `????.??.??` (PDN's unknown date) when the clock is before 1970.
#[must_use]
pub fn today() -> String {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => {
            let (year, month, day) = civil_date((d.as_secs() / 86_400) as i64);
            format!("{year:04}.{month:02}.{day:02}")
        }
        Err(_) => "????.??.??".into(),
    }
}

/// Year, month and day of a day counted from 1970-01-01 (the civil calendar
/// algorithm of H. Hinnant), so the PDN Date tag needs no date library.
#[must_use]
pub fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag_list(pairs: &[(&str, &str)]) -> Tags {
        pairs
            .iter()
            .map(|&(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn writes_and_reads_back() {
        let mut game = Game::new();
        for m in ["32-28", "19-23", "28x19", "14x23"] {
            game.play_text(m).unwrap();
        }
        let tags = tag_list(&[("Event", "test \"quoted\""), ("Result", "1-1")]);
        let text = write_game(&tags, &game, "1-1", Layout::Wrapped)
            + "\n"
            + &write_game(&tags, &game, "2-0", Layout::Wrapped);
        let games = parse_games(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("test \"quoted\""));
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[1].result.as_deref(), Some("2-0"));
    }

    #[test]
    fn fen_tag_only_off_the_initial_position() {
        let mut game = Game::from_fen("B:W28,33:B19,18").unwrap();
        game.play_text("19-23").unwrap();
        let names = tag_list(&[("White", "A"), ("Black", "B \"x\"")]);
        let text = write_game(&names, &game, "*", Layout::OneLine);
        assert!(text.contains("[FEN \"B:W28,33:B18,19\"]") || text.contains("[FEN \""));
        assert!(text.contains("[Black \"B \\\"x\\\"\"]"), "{text}");
        assert!(text.contains("1... 19-23 *"), "{text}");
        let start = write_game(&names, &Game::new(), "1-1", Layout::OneLine);
        assert!(!start.contains("FEN"));
        // A FEN tag the caller gives is written where it is given, and once.
        let given = tag_list(&[("FEN", "W:W31-50:B1-20"), ("Result", "*")]);
        let text = write_game(&given, &game, "*", Layout::OneLine);
        assert!(
            text.starts_with("[FEN \"W:W31-50:B1-20\"]\n[Result"),
            "{text}"
        );
        assert_eq!(text.matches("FEN").count(), 1, "{text}");
    }

    #[test]
    fn comments_follow_their_moves_and_read_back_as_nothing() {
        let mut game = Game::from_fen("B:W28,33:B18,19").unwrap();
        for m in ["19-23", "28x19", "18-22"] {
            game.play_text(m).unwrap();
        }
        let notes = ["+0.12/14 1.234s".to_string(), String::new(), "a {b}".into()];
        let text = write_annotated(&Tags::new(), &game, &notes, "*", Layout::OneLine);
        assert!(
            text.ends_with("1... 19-23 {+0.12/14 1.234s} 2. 28x19 18-22 {a b} *\n"),
            "{text}"
        );
        assert_eq!(
            parse_first_game(&text).unwrap().moves,
            ["19-23", "28x19", "18-22"]
        );
        // Wrapping never splits a comment, and fewer comments than moves is fine.
        let mut long = Game::new();
        for _ in 0..30 {
            long.play(long.legal_moves()[0]).unwrap();
        }
        let notes = vec!["-10.00/30 100.000s".to_string(); 20];
        let wrapped = write_annotated(&Tags::new(), &long, &notes, "*", Layout::Wrapped);
        for line in wrapped.lines() {
            assert!(line.len() <= 80, "{wrapped}");
            assert_eq!(
                line.matches('{').count(),
                line.matches('}').count(),
                "{line}"
            );
        }
        assert_eq!(wrapped.matches('{').count(), 20);
        assert_eq!(parse_first_game(&wrapped).unwrap().moves.len(), 30);
    }

    #[test]
    fn layouts_wrap_or_not() {
        let mut game = Game::new();
        for _ in 0..30 {
            game.play(game.legal_moves()[0]).unwrap();
        }
        let one = write_game(&Tags::new(), &game, "*", Layout::OneLine);
        assert_eq!(one, format!("\n{} *\n", game.pdn_movetext()));
        let wrapped = write_game(&Tags::new(), &game, "*", Layout::Wrapped);
        assert!(wrapped.lines().all(|l| l.len() <= 80), "{wrapped}");
        assert!(wrapped.lines().count() > 2, "{wrapped}");
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            one.split_whitespace().collect::<Vec<_>>()
        );
        let empty = write_game(&Tags::new(), &Game::new(), "1-1", Layout::Wrapped);
        assert_eq!(empty, "\n1-1\n");
    }

    #[test]
    fn pdn_is_read_leniently() {
        let game = parse_first_game(
            "[Event \"x\"]\n[FEN \"W:W31-50:B1-20\"]\n\n1. 32-28 {a comment} 19-23 (2. 28x19) 2.28x19! 14x23 $1 ; rest\n3... 40-35 2-0\n[Event \"next\"]\n1. 31-26",
        )
        .unwrap();
        assert_eq!(game.tag("FEN"), Some("W:W31-50:B1-20"));
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23", "40-35"]);
        assert!(parse_first_game("").is_err());
        assert!(parse_first_game("[GameType \"21\"]").is_err());
        assert!(parse_first_game("[FEN]").is_err());
    }

    #[test]
    fn reads_every_game_and_says_what_is_wrong() {
        let text = "{a file}\n[Event \"a\"]\n1. 32-28 {spans\n[not a tag]\nlines} 19-23 1-1\n\n\
                    [Event \"b\"]\n[Round \"2\"]\n1. 31-26 ; (\n2-0\n[Event \"c\"]\n[GameType \"20,W,10,10\"]\n*\n";
        let games = parse_games(text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves, ["32-28", "19-23"]);
        assert_eq!(games[0].result.as_deref(), Some("1-1"));
        assert_eq!(games[1].tag("Round"), Some("2"));
        assert_eq!(games[1].moves, ["31-26"]);
        assert_eq!(games[1].result.as_deref(), Some("2-0"));
        assert_eq!(games[2].result.as_deref(), Some("*"));
        assert_eq!(parse_games("").unwrap(), []);

        let later_bad = "1. 32-28 *\n[Event]\n";
        assert!(parse_first_game(later_bad).is_ok());
        assert_eq!(
            parse_games(later_bad).unwrap_err().to_string(),
            "line 2: a tag must look like [Name \"value\"], not [Event]"
        );
        assert_eq!(
            parse_first_game("[GameType \"21\"]")
                .unwrap_err()
                .to_string(),
            "GameType 21 is not international draughts (GameType 20)"
        );
        assert_eq!(
            parse_first_game("{only a comment}")
                .unwrap_err()
                .to_string(),
            "there is no game in it (no tags and no moves)"
        );
    }

    #[test]
    fn tag_values_unescape() {
        let games = parse_games("[White \"a \\\"b\\\" \\\\\"]\n[Black c]\n*").unwrap();
        assert_eq!(games[0].tag("White"), Some("a \"b\" \\"));
        assert_eq!(games[0].tag("Black"), Some("c"));
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(19_782), (2024, 2, 29));
    }

    #[test]
    fn pdn_dates_look_right() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
