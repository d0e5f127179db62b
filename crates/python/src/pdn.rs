//! PDN files from Python: games read into boards, boards written with their tags.

use crate::errors::value_error;
use kroon_rules::game::Game;
use kroon_rules::pdn::{self, Layout, ParsedGame, Tags};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The game a parsed PDN game records: its FEN tag's position (or the initial
/// one) and its moves, each checked; an error names the move that fails.
pub fn replay(parsed: &ParsedGame) -> PyResult<Game> {
    let mut game = match parsed.tag("FEN") {
        Some(fen) => {
            Game::from_fen(fen).map_err(|e| value_error(format!("bad FEN tag '{fen}': {e}")))?
        }
        None => Game::new(),
    };
    for (i, text) in parsed.moves.iter().enumerate() {
        game.play_text(text)
            .map_err(|e| value_error(format!("move {} ('{text}'): {e}", i + 1)))?;
    }
    Ok(game)
}

/// Tags from Python: a dict, or pairs of strings.
pub fn tags_from(value: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let items = match value.downcast::<PyDict>() {
        Ok(dict) => dict.items().into_any(),
        Err(_) => value.clone(),
    };
    items
        .try_iter()?
        .map(|item| {
            let (name, value): (String, Bound<'_, PyAny>) = item?.extract()?;
            Ok((name, value.str()?.to_string()))
        })
        .collect()
}

/// The PDN text of a game: the tags in the order given (a `FEN` tag is added
/// for a game that does not start from the initial position), the moves, and
/// `result` (by default the rules' result, `*` while the game goes on).
pub fn write(game: &Game, tags: Vec<(String, String)>, result: &str) -> String {
    let tags: Tags = tags;
    pdn::write_game(&tags, game, result, Layout::Wrapped)
}

/// Every game of a PDN text with its tags, each replayed and checked; an error
/// names the game and the tag line or the move that cannot be read.
pub fn read_games(text: &str) -> PyResult<Vec<(Tags, Game)>> {
    let games = pdn::parse_games(text).map_err(|e| value_error(format!("PDN: {e}")))?;
    if games.is_empty() {
        return Err(value_error("PDN: there is no game in it"));
    }
    games
        .into_iter()
        .enumerate()
        .map(|(n, parsed)| {
            let game =
                replay(&parsed).map_err(|e| value_error(format!("PDN game {}: {e}", n + 1)))?;
            Ok((parsed.tags, game))
        })
        .collect()
}
