//! Match games as PDN: written one after another into one file, and read back
//! (tags and moves) so tests and tools can replay them through the rules core.

use crate::game::Game;
use std::fmt::Write as _;

/// A game's PDN tags in the order they are written.
pub type Tags = Vec<(String, String)>;

/// The PDN text of one game: the tags, the movetext wrapped at about 80 columns,
/// and the result (the result may differ from the rules' verdict when a game
/// ends by forfeit or adjudication, so it is given).
#[must_use]
pub fn write_game(tags: &Tags, game: &Game, result: &str) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    }
    out.push('\n');
    let movetext = game.pdn_movetext();
    let mut column = 0;
    for word in movetext.split_whitespace().chain(std::iter::once(result)) {
        if column > 0 && column + 1 + word.len() > 80 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
    }
    out.push_str("\n\n");
    out
}

/// One game read back: its tags and its moves as text (numbers, comments and the
/// result left out).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ParsedGame {
    pub tags: Tags,
    pub moves: Vec<String>,
    /// The result token at the end of the movetext.
    pub result: Option<String>,
}

impl ParsedGame {
    /// The value of a tag.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn is_result(word: &str) -> bool {
    matches!(word, "2-0" | "0-2" | "1-1" | "0-0" | "*" | "1-0" | "0-1")
}

/// Reads the games of a PDN file (the subset this module writes, plus `{...}`
/// comments). A new game starts at a tag after movetext.
#[must_use]
pub fn parse_games(text: &str) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    let mut current = ParsedGame::default();
    let mut in_moves = false;
    let mut in_comment = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if !in_comment && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut current));
                in_moves = false;
            }
            let inner = trimmed.trim_start_matches('[').trim_end_matches(']');
            if let Some((name, value)) = inner.split_once(' ') {
                // One quote at each end: an escaped quote may end the value.
                let value = value.trim();
                let value = value.strip_prefix('"').unwrap_or(value);
                let value = value.strip_suffix('"').unwrap_or(value);
                let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
                current.tags.push((name.to_string(), value));
            }
            continue;
        }
        for word in trimmed.split_whitespace() {
            if in_comment {
                in_comment = !word.ends_with('}');
                continue;
            }
            if word.starts_with('{') {
                in_comment = !word.ends_with('}');
                continue;
            }
            in_moves = true;
            if is_result(word) {
                current.result = Some(word.to_string());
                continue;
            }
            // Move numbers: `12.` or `12...`, alone or glued to the move.
            let word = match word.rfind('.') {
                Some(dot) => &word[dot + 1..],
                None => word,
            };
            if word.is_empty() {
                continue;
            }
            current.moves.push(word.to_string());
        }
    }
    if in_moves || !current.tags.is_empty() {
        games.push(current);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        let mut game = Game::new();
        for m in ["32-28", "19-23", "28x19", "14x23"] {
            game.play_text(m).unwrap();
        }
        let tags: Tags = vec![
            ("Event".into(), "test \"quoted\"".into()),
            ("Result".into(), "1-1".into()),
        ];
        let text = write_game(&tags, &game, "1-1") + &write_game(&tags, &game, "2-0");
        let games = parse_games(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("test \"quoted\""));
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[1].result.as_deref(), Some("2-0"));
    }
}
