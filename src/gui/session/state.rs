//! The state a session shows its page, as JSON: the position and its legal moves
//! (with their captured squares and paths), the record, the players, the level
//! and clocks, the draw counters, the result, the search's progress, which endgame
//! tables Kroon uses, and what the book and the tables know of the position.

use super::{Controller, Search, Session};
use crate::board::notation::{capture_path, hub_move, parse_move, pdn_move};
use crate::board::{Move, Position, Side};
use crate::time_control::TimeControl;
use serde_json::{json, Map, Value};

impl Session {
    /// The state the page draws, as JSON.
    pub(super) fn state(&self) -> Value {
        let position = *self.game.position();
        let side = position.side_to_move();
        let legal: Vec<Value> = if self.outcome().is_some() {
            Vec::new()
        } else {
            self.game
                .legal_moves()
                .into_iter()
                .map(|mv| move_json(&position, mv))
                .collect()
        };
        // The line through the record: played moves, then those that can be redone.
        let mut line = self.game.clone();
        while line.redo().is_some() {}
        let record: Vec<Value> = line
            .moves()
            .iter()
            .zip(line.positions())
            .map(|(&mv, pos)| json!({ "pdn": pdn_move(pos, mv), "hub": hub_move(mv) }))
            .collect();
        let last = self.game.moves().last().map(|&mv| {
            let before = self.game.positions()[self.game.positions().len() - 2];
            move_json(&before, mv)
        });
        let mut state = Map::new();
        state.insert("position".into(), json!(position.to_hub()));
        state.insert("fen".into(), json!(position.to_fen()));
        state.insert("side".into(), json!(side_word(side)));
        state.insert(
            "start_side".into(),
            json!(side_word(self.game.start().side_to_move())),
        );
        state.insert("legal".into(), Value::Array(legal));
        state.insert("last".into(), last.unwrap_or(Value::Null));
        state.insert("record".into(), Value::Array(record));
        state.insert("ply".into(), json!(self.game.moves().len()));
        state.insert(
            "players".into(),
            json!({
                "white": controller_word(self.controllers[0]),
                "black": controller_word(self.controllers[1]),
            }),
        );
        state.insert("engine".into(), json!(self.engine_name));
        state.insert("tables".into(), json!(self.tables_in_use()));
        state.insert("level".into(), level_json(&self.level));
        state.insert("clock".into(), self.clock_json());
        state.insert("counters".into(), self.counters_json());
        state.insert(
            "result".into(),
            self.outcome().map_or(Value::Null, |o| {
                json!({ "pdn": o.pdn(), "text": o.why(|s| self.side_name(s)), "summary": o.to_string() })
            }),
        );
        state.insert("paused".into(), json!(self.paused));
        state.insert(
            "thinking".into(),
            json!(matches!(self.search, Search::Playing { .. })),
        );
        state.insert("analysing".into(), json!(self.analysing));
        state.insert("search".into(), self.report_json(&position));
        state.insert("scores".into(), json!(self.scores));
        state.insert("engine_error".into(), json!(self.engine_error));
        state.insert("notice".into(), json!(self.notice));
        let knowledge = self.knowledge(&position);
        if let Some(book) = knowledge.book {
            state.insert("book".into(), json!(book));
        }
        if let Some(value) = knowledge.database {
            state.insert("database".into(), json!(value));
        }
        Value::Object(state)
    }

    /// What Kroon's knowledge files say of `position`: its book moves with their
    /// scores (for the side to move, the best first), and the endgame tables' value
    /// for the side to move, when the position is in them.
    fn knowledge(&self, position: &Position) -> Knowledge {
        let book = self
            .setup
            .kroon
            .book
            .book
            .as_ref()
            .and_then(|book| book.moves(position))
            .map(|moves| {
                let shown: Vec<String> = moves
                    .iter()
                    .take(5)
                    .map(|m| format!("{} ({})", pdn_move(position, m.mv), m.score))
                    .collect();
                shown.join(", ")
            });
        let database = self
            .setup
            .kroon
            .endgame
            .in_use()
            .and_then(|tables| tables.probe(position))
            .map(|wdl| format!("{} to move: {wdl}", position.side_to_move()));
        Knowledge { book, database }
    }

    /// Which endgame tables Kroon uses, in words, or how to build them: without
    /// tables Kroon plays its endings much worse, and a user should know.
    fn tables_in_use(&self) -> String {
        match &self.setup.kroon.endgame.in_use() {
            Some(tables) if tables.complete_pieces() >= 2 => format!(
                "endgame tables: up to {} pieces",
                tables
                    .complete_pieces()
                    .min(self.setup.kroon.endgame.pieces)
            ),
            Some(_) => "endgame tables: incomplete".into(),
            None if crate::egdb::on_demand::registered() => "no endgame tables yet (Kroon builds \
                 the 2-4 piece ones when a game comes down to 30 pieces; `kroon egdb build \
                 --pieces 5` builds 2-5 in minutes)"
                .into(),
            None => {
                "no endgame tables (`kroon egdb build --pieces 5` builds them in minutes)".into()
            }
        }
    }

    fn clock_json(&self) -> Value {
        let Some(clock) = &self.clock else {
            return Value::Null;
        };
        let running = self.clock_running().then(|| self.game.side_to_move());
        let shown = |side: Side| {
            let left = clock.left(side);
            let left = if running == Some(side) {
                clock
                    .allowed(side)
                    .saturating_sub(self.turn_started.elapsed())
            } else {
                left
            };
            left.as_millis() as u64
        };
        json!({
            "white": shown(Side::White),
            "black": shown(Side::Black),
            "running": running.map(side_word),
        })
    }

    fn counters_json(&self) -> Value {
        let clock = self.game.draw_clock();
        let mut counters = json!({
            // Moves each, as the rule counts them.
            "king_moves": clock.king_move_plies() / 2,
            "king_moves_limit": 25,
        });
        if let Some((rule, plies, limit)) = clock.ending_rule() {
            counters["ending"] = json!({
                "rule": rule.to_string(),
                "moves": plies / 2,
                "limit": limit / 2,
            });
        }
        counters
    }

    /// The current search's progress, its PV as move text along the position.
    fn report_json(&self, position: &Position) -> Value {
        let Some(report) = &self.report else {
            return Value::Null;
        };
        let mut pv = Vec::new();
        let mut pos = *position;
        for text in &report.pv {
            let Ok(mv) = parse_move(&pos, text) else {
                break;
            };
            pv.push(json!({ "pdn": pdn_move(&pos, mv), "hub": hub_move(mv) }));
            pos = pos.play(mv);
        }
        json!({
            "depth": report.depth,
            "score": report.score,
            "nodes": report.nodes,
            "nps": report.nps,
            "pv": pv,
        })
    }
}

/// A legal move as the page needs it: its ends, the pieces it takes and one path
/// through its landing squares.
fn move_json(position: &Position, mv: Move) -> Value {
    let captured: Vec<u8> = mv.captured().squares().map(|s| s.number()).collect();
    let path: Vec<u8> = capture_path(position, mv)
        .unwrap_or_else(|| vec![mv.from(), mv.to()])
        .iter()
        .map(|s| s.number())
        .collect();
    json!({
        "from": mv.from().number(),
        "to": mv.to().number(),
        "captured": captured,
        "path": path,
        "hub": hub_move(mv),
        "pdn": pdn_move(position, mv),
    })
}

fn level_json(level: &TimeControl) -> Value {
    match level {
        TimeControl::Depth(d) => json!({ "kind": "depth", "depth": d }),
        TimeControl::MoveTime(t) => json!({ "kind": "time", "seconds": t.as_secs_f64() }),
        TimeControl::Clock {
            time, increment, ..
        } => json!({
            "kind": "clock",
            "seconds": time.as_secs_f64(),
            "increment": increment.as_secs_f64(),
        }),
        other => json!({ "kind": other.to_string() }),
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn controller_word(controller: Controller) -> &'static str {
    match controller {
        Controller::Human => "human",
        Controller::Engine => "engine",
    }
}

/// What Kroon knows of a position beyond its search: the opening book's move and
/// the endgame database's value. The book (issue 27) and the databases (issue 26)
/// are being built; until they are, neither is known and the page shows neither
/// (the state leaves the fields out). Their lookups go here.
struct Knowledge {
    book: Option<String>,
    database: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::super::tests::session;
    use serde_json::json;

    #[test]
    fn the_state_shows_the_book_moves_and_no_table_value_without_tables() {
        let (mut s, _rx) = session();
        let state = s.state();
        assert_eq!(state["legal"].as_array().unwrap().len(), 9);
        // The built-in book knows the start position; no tables are loaded.
        let book = state["book"].as_str().expect("book moves");
        assert!(book.contains('('), "{book}");
        assert!(state.get("database").is_none());
        assert!(
            state["tables"].as_str().unwrap().contains("egdb build"),
            "{state}"
        );
        // Set up a position no book holds: the field goes.
        s.act(&json!({"action": "setup", "fen": "W:W28,46:B17,19,22,23"}))
            .unwrap();
        assert!(s.state().get("book").is_none());
    }
}
