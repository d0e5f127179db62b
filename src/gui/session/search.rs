//! The engine's searches for a session: starting one (to play or to analyse),
//! cancelling it, its reports as they come, and the move it ends with.

use super::{Event, Search, Session};
use crate::board::notation::{parse_move, pdn_move};
use crate::board::Side;
use crate::gui::engine_driver::{EngineDriver, EngineEvent, Purpose};
use crate::play::{Outcome, Reason};
use std::time::{Duration, Instant};

impl Session {
    pub(super) fn start_search(&mut self, purpose: Purpose) {
        self.generation += 1;
        let generation = self.generation;
        let events = self.events.clone();
        let send = move |event: EngineEvent| {
            let _ = events.send(Event::Engine(event));
        };
        if self.engine.is_none() {
            self.engine = Some(match &self.setup.engine {
                Some(spec) => EngineDriver::hub(spec, send.clone()),
                None => EngineDriver::kroon(&self.setup.kroon),
            });
        }
        let engine = self.engine.as_mut().expect("made above");
        engine.start(&self.game, purpose, generation, send);
        self.report = None;
        self.search = match purpose {
            Purpose::Analyse => Search::Analysing { generation },
            Purpose::Play(_) => Search::Playing {
                generation,
                started: Instant::now(),
            },
        };
    }

    pub(super) fn cancel_search(&mut self) {
        if self.search != Search::Idle {
            if let Some(engine) = &mut self.engine {
                engine.cancel();
            }
            self.search = Search::Idle;
        }
    }

    fn current_generation(&self) -> Option<u64> {
        match self.search {
            Search::Idle => None,
            Search::Playing { generation, .. } | Search::Analysing { generation } => {
                Some(generation)
            }
        }
    }

    /// Handles the engine's report; true when the state changed.
    pub(super) fn engine_event(&mut self, event: EngineEvent) -> bool {
        match event {
            EngineEvent::Failed(message) => {
                self.search = Search::Idle;
                self.engine = None;
                self.analysing = false;
                self.engine_error = Some(message);
                true
            }
            EngineEvent::Info { generation, report } => {
                if self.current_generation() != Some(generation) {
                    return false;
                }
                if let Some(score) = report.score {
                    let white = match self.game.side_to_move() {
                        Side::White => score,
                        Side::Black => -score,
                    };
                    let ply = self.game.moves().len();
                    self.scores.resize(self.scores.len().max(ply + 1), None);
                    self.scores[ply] = Some(white);
                }
                self.report = Some(report);
                true
            }
            EngineEvent::Done { generation, best } => {
                if self.current_generation() != Some(generation) {
                    return false;
                }
                let Search::Playing { started, .. } = self.search else {
                    // An analysis that ended by itself (a won position): it stays
                    // shown, and is not restarted.
                    let best = self.engine.as_mut().and_then(|e| e.collect(best));
                    self.search = Search::Idle;
                    self.analysing = false;
                    self.notice = best.map(|b| format!("analysis ended: best move {b}"));
                    return true;
                };
                let best = self.engine.as_mut().and_then(|e| e.collect(best));
                self.search = Search::Idle;
                self.engine_move(best, started.elapsed());
                true
            }
        }
    }

    /// Plays the engine's move, or ends the game when it has none that is legal.
    fn engine_move(&mut self, best: Option<String>, spent: Duration) {
        let side = self.game.side_to_move();
        let Some(text) = best else {
            self.outcome = Some(Outcome::win(
                side.opponent(),
                Reason::Forfeit("the engine gave no move".into()),
            ));
            return;
        };
        match parse_move(self.game.position(), &text) {
            Ok(mv) => {
                // What the engine thought of its move, said once its search is gone
                // from the board.
                let text = pdn_move(self.game.position(), mv);
                self.notice = Some(
                    match self
                        .report
                        .as_ref()
                        .and_then(|r| r.score.map(|s| (r.depth, s)))
                    {
                        Some((depth, score)) => {
                            let white = if side == Side::White { score } else { -score };
                            format!(
                            "{} played {text} (depth {depth}, score {white:+.2} from White's view)",
                            self.engine_name
                        )
                        }
                        None => format!("{} played {text}", self.engine_name),
                    },
                );
                // The clock of a move measured from the page's start of the turn.
                let spent = spent.max(self.turn_started.elapsed());
                self.play(mv, spent);
            }
            Err(e) => {
                self.outcome = Some(Outcome::win(
                    side.opponent(),
                    Reason::Forfeit(format!("illegal move '{text}': {e}")),
                ));
            }
        }
    }
}
