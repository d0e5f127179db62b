//! How a DXP game ends: GAMEEND both ways (ours when the board says the game is
//! over or it cannot go on, the peer's answered with ours), a game abandoned when
//! the peer goes, and the record of each finished game: the result line, the
//! score and the PDN.

use super::{Flow, Session};
use crate::board::Side;
use crate::dxp::message::{EndReason, Message};
use crate::game::Game;
use crate::pdn;
use crate::play::outcome::UNFINISHED;
use crate::play::Outcome;
use std::io::Write;
use std::time::Instant;

impl Session<'_> {
    /// The peer's GAMEEND: answered with ours unless it answers ours, and the game
    /// recorded; with the stop code, the session ends.
    pub(super) fn game_end(&mut self, reason: EndReason, stop: bool) -> Flow {
        match &mut self.play {
            Some(play) => {
                play.peer_end = Some(reason);
                if play.end_sent.is_none() {
                    let reason = play.our_reason();
                    if play.game.result().is_none() {
                        play.note = Some("the peer ended the game".into());
                    }
                    self.send_end(reason);
                }
                self.finish();
            }
            None => log::debug!("GAMEEND with no game under way (a late acknowledgement)"),
        }
        if stop {
            log::info!("{} wants no further game", self.peer_addr);
            self.series_over = true;
            return Flow::Close;
        }
        Flow::Continue
    }

    /// Ends the game under way because it cannot go on.
    pub(super) fn stop_game(&mut self, why: String) {
        if let Some(play) = &mut self.play {
            play.note = Some(why);
            self.send_end(EndReason::Unknown);
        }
    }

    /// Sends our GAMEEND once the board says the game is over.
    pub(super) fn check_over(&mut self) {
        if let Some(play) = &self.play {
            if play.end_sent.is_none() && play.game.result().is_some() {
                let reason = play.our_reason();
                self.send_end(reason);
            }
        }
    }

    fn send_end(&mut self, reason: EndReason) {
        let last = self
            .config
            .series
            .as_ref()
            .is_some_and(|s| self.proposals >= s.games);
        if let Some(play) = &mut self.play {
            play.end_sent = Some(Instant::now());
        }
        self.send(&Message::GameEnd { reason, stop: last });
        if self.play.as_ref().is_some_and(|p| p.peer_end.is_some()) {
            self.finish();
        }
    }

    /// A game under way ends without a proper end: keep what was played.
    pub(super) fn abandon(&mut self, why: &str) {
        if self.proposed.take().is_some() {
            log::info!("the proposed game did not start: {why}");
        }
        if let Some(play) = &mut self.play {
            if play.note.is_none() && play.game.result().is_none() && play.peer_end.is_none() {
                play.note = Some(why.to_string());
            }
            self.finish();
        }
    }

    /// Records the game that just ended: PDN, result line, score.
    pub(super) fn finish(&mut self) {
        let Some(play) = self.play.take() else { return };
        let outcome = play.outcome();
        let result = outcome.as_ref().map_or(UNFINISHED, Outcome::pdn);
        let (white, black) = match play.ours {
            Side::White => (self.config.name.as_str(), play.peer.as_str()),
            Side::Black => (play.peer.as_str(), self.config.name.as_str()),
        };
        match &outcome {
            Some(o) => self.score.tally.add(o.wdl(play.ours)),
            None => self.score.unfinished += 1,
        }
        // The board's verdict, else why the game stopped, else the peer's word.
        let why = match (play.game.result(), &play.note, &outcome) {
            (Some(result), _, _) => Outcome::from(result).to_string(),
            (None, Some(note), _) => note.clone(),
            (None, None, Some(declared)) => declared.to_string(),
            (None, None, None) => "ended without a result".into(),
        };
        let s = &self.score;
        println!(
            "game {}: {white} - {black} {result} ({why}); score {} {}{}",
            s.games(),
            self.config.name,
            s.tally,
            if s.unfinished > 0 {
                format!(" ({} unfinished)", s.unfinished)
            } else {
                String::new()
            }
        );
        let _ = std::io::stdout().flush();
        if let Some(path) = &self.config.pdn {
            let text = game_pdn(&play.game, white, black, result);
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            if let Err(e) = written {
                log::error!("cannot append the game to {}: {e}", path.display());
            }
        }
    }
}

/// One game as PDN, with a blank line after it.
fn game_pdn(game: &Game, white: &str, black: &str, result: &str) -> String {
    let tags: pdn::Tags = vec![
        ("Event".into(), "Kroon DXP".into()),
        ("Date".into(), pdn::today()),
        ("White".into(), white.into()),
        ("Black".into(), black.into()),
        ("Result".into(), result.into()),
    ];
    let mut text = pdn::write_game(&tags, game, result, pdn::Layout::OneLine);
    text.push('\n');
    text
}
