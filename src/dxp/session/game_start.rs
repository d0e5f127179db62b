//! How a DXP game starts: the initiator proposes the series' games one by one
//! (GAMEREQ) and waits for the answer (GAMEACC); the follower accepts a request
//! it can play and refuses one it cannot, saying why.

use super::Session;
use crate::board::{Position, Side};
use crate::dxp::message::{self, AcceptCode, Message, Minutes};
use crate::dxp::play::Play;
use std::time::Instant;

impl Session<'_> {
    /// Initiator: proposes the next game of the series; false when it is complete.
    pub(super) fn propose_next(&mut self) -> bool {
        let Some(series) = &self.config.series else {
            return false;
        };
        if self.proposals >= series.games {
            return false;
        }
        let i = self.proposals;
        let start = series.openings[(i / 2) as usize % series.openings.len()];
        let ours = if i.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        let (minutes, moves) = (series.minutes, series.moves);
        self.proposals += 1;
        let msg = Message::GameReq {
            version: message::VERSION,
            initiator: self.config.name.clone(),
            follower_side: ours.opponent(),
            minutes,
            moves,
            start: (start != Position::initial()).then_some(start),
        };
        self.send(&msg);
        let play = Play::new(start, ours, String::new(), minutes, moves);
        self.proposed = Some((play, Instant::now()));
        true
    }

    /// Follower: a GAMEREQ, accepted when Kroon can play it.
    pub(super) fn game_request(
        &mut self,
        version: u8,
        initiator: String,
        follower_side: Side,
        minutes: Minutes,
        moves: u16,
        start: Option<Position>,
    ) {
        if self.config.series.is_some() {
            log::warn!("{initiator} proposes a game but Kroon is the initiator here");
            self.chat("I am the initiator in this session: I propose the games".into());
            self.accept(AcceptCode::NoGames);
            return;
        }
        if self.play.is_some() {
            self.abandon("a new game request arrived before it ended");
        }
        if version != message::VERSION {
            log::warn!("{initiator} asks for DXP version {version}; only 1 exists");
            self.chat(format!("DXP version {version} is not supported, only 01"));
            self.accept(AcceptCode::BadVersion);
            return;
        }
        let start = start.unwrap_or_else(Position::initial);
        log::info!(
            "game request from {initiator}: Kroon plays {follower_side}, {minutes} min / {moves} moves, from {}",
            start.to_fen()
        );
        self.engine.new_game();
        self.play = Some(Play::new(start, follower_side, initiator, minutes, moves));
        self.accept(AcceptCode::Accepted);
        // Our clock starts once the peer can know the game is on.
        if let Some(p) = &mut self.play {
            p.turn_started = Instant::now();
        }
        self.check_over();
    }

    /// Initiator: the answer to the game proposed.
    pub(super) fn game_accepted(&mut self, follower: String, code: AcceptCode) {
        match self.proposed.take() {
            Some((mut play, _)) if code == AcceptCode::Accepted => {
                log::info!("{follower} accepted the game");
                play.peer = follower;
                play.turn_started = Instant::now();
                self.engine.new_game();
                self.play = Some(play);
                self.check_over();
            }
            Some(_) => {
                log::warn!("{follower} refused the game ({code:?})");
                // Another game may be accepted only after "not this game".
                if code != AcceptCode::NotThisGame {
                    self.series_over = true;
                }
            }
            None => log::warn!("unexpected GAMEACC from {follower}: no game was proposed"),
        }
    }

    pub(super) fn accept(&mut self, code: AcceptCode) {
        self.send(&Message::GameAcc {
            follower: self.config.name.clone(),
            code,
        });
    }
}
