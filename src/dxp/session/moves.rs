//! The moves of a DXP game: the peer's (checked against the legal moves), take-back
//! requests, and ours, searched while the peer is still heard.

use super::{Event, Session};
use crate::board::notation::hub_move;
use crate::board::{Bitboard, Side};
use crate::dxp::message::{BackCode, Message};
use crate::engine::{GoMode, SearchId};
use std::time::Instant;

impl Session<'_> {
    pub(super) fn peer_move(
        &mut self,
        seconds: u16,
        from: crate::board::Square,
        to: crate::board::Square,
        captured: &[crate::board::Square],
    ) {
        let Some(play) = &mut self.play else {
            log::warn!("MOVE with no game under way");
            self.chat("there is no game under way: move ignored".into());
            return;
        };
        if play.end_sent.is_some() {
            log::debug!("MOVE after our GAMEEND, ignored");
            return;
        }
        let text = format!(
            "{from}{}{to}{}",
            if captured.is_empty() { '-' } else { 'x' },
            captured.iter().map(|s| format!("x{s}")).collect::<String>()
        );
        let problem = if play.our_turn() {
            Some(format!("move {text} arrived, but it is Kroon's turn"))
        } else {
            let wanted = Bitboard::from_squares(captured.iter().copied());
            let found = play.game.legal_moves().into_iter().find(|m| {
                m.from() == from
                    && m.to() == to
                    && m.captured() == wanted
                    && wanted.count() as usize == captured.len()
            });
            match found {
                Some(mv) => {
                    play.charge_move();
                    log::debug!("peer plays {} ({seconds} s by its count)", hub_move(mv));
                    if let Err(e) = play.game.play(mv) {
                        Some(format!("move {text}: {e}"))
                    } else {
                        None
                    }
                }
                None => {
                    let legal: Vec<String> = play
                        .game
                        .legal_moves()
                        .iter()
                        .map(|&m| hub_move(m))
                        .collect();
                    Some(format!(
                        "illegal move {text} in {}: legal moves are {}",
                        play.game.position().to_fen(),
                        legal.join(" ")
                    ))
                }
            }
        };
        match problem {
            Some(why) => {
                log::warn!("{}: {why}", self.peer_addr);
                self.chat(why.clone());
                self.stop_game(why);
            }
            None => self.check_over(),
        }
    }

    pub(super) fn back_request(&mut self, move_number: u16, side: Side) {
        let target = self.play.as_ref().and_then(|play| {
            if play.end_sent.is_some() {
                return None;
            }
            // Moves are numbered from 1 at the start position, whoever moves first.
            let start_ply = usize::from(play.game.start().side_to_move() == Side::Black);
            let ply = (usize::from(move_number).checked_sub(1)? * 2
                + usize::from(side == Side::Black))
            .checked_sub(start_ply)?;
            (ply <= play.game.moves().len()).then_some(ply)
        });
        match (target, &mut self.play) {
            (Some(ply), Some(play)) => {
                while play.game.moves().len() > ply {
                    play.game.undo();
                }
                play.turn_started = Instant::now();
                log::info!("took back to move {move_number} {side}");
                self.send(&Message::BackAcc {
                    code: BackCode::Accepted,
                });
            }
            _ => {
                log::warn!("cannot take back to move {move_number} {side}");
                self.chat(format!(
                    "cannot take back to move {move_number} with {side} to move"
                ));
                self.send(&Message::BackAcc {
                    code: BackCode::NotSupported,
                });
            }
        }
    }

    /// Thinks and plays while it is our turn in a game going on.
    pub(super) fn move_if_our_turn(&mut self) {
        loop {
            let Some(play) = &self.play else { return };
            if !play.our_turn() || play.end_sent.is_some() || play.game.result().is_some() {
                return;
            }
            let limit = play.limit(self.config.depth);
            let notify = self.notify.clone();
            let id = self.engine.go(
                &play.game,
                limit,
                GoMode::Think,
                |_| {},
                move |id| {
                    let _ = notify.send(Event::SearchDone(id));
                },
            );
            let interrupted = self.listen_while_thinking(id);
            let result = self.engine.wait();
            if interrupted {
                return;
            }
            let Some(play) = &mut self.play else { return };
            let Some(mv) = result.best_move else {
                // Cannot happen with a legal move on the board; end rather than hang.
                self.stop_game("the search found no move".into());
                return;
            };
            let spent = play.charge_move();
            if let Err(e) = play.game.play(mv) {
                let why = format!("the engine's move {} was refused: {e}", hub_move(mv));
                log::error!("{why}");
                self.stop_game(why);
                return;
            }
            let mut captured: Vec<_> = mv.captured().squares().collect();
            captured.sort_by_key(|s| s.number());
            self.send(&Message::Move {
                seconds: u16::try_from(spent.as_secs_f64().round() as u64).unwrap_or(9999),
                from: mv.from(),
                to: mv.to(),
                captured,
            });
            self.check_over();
        }
    }

    /// Listens to the peer until search `id` ends. Anything but chat may change the
    /// game, so it stops the search and waits in `pending`, to be handled after it;
    /// returns whether that happened (the search's move is then not played).
    fn listen_while_thinking(&mut self, id: SearchId) -> bool {
        let mut interrupted = false;
        loop {
            match self.events.recv() {
                Ok(Event::SearchDone(done)) if done == id => return interrupted,
                Ok(Event::SearchDone(_)) => {}
                Ok(Event::Message(Ok(Message::Chat(text)))) => {
                    self.writer.heard();
                    log::info!("{} says: {text}", self.peer_addr);
                }
                Ok(event) => {
                    self.pending.push_back(event);
                    interrupted = true;
                    self.engine.stop();
                }
                // Cannot happen while the session holds a sender; stop and collect.
                Err(_) => {
                    self.pending
                        .push_back(Event::Closed("the reader stopped".into()));
                    self.engine.stop();
                    return true;
                }
            }
        }
    }
}
