//! How a game ended: the winner (or a draw) and why, whoever decided it (the rules,
//! a clock, a player who resigned, a program that failed, an adjudication), with the
//! result's PDN text and DXP's GAMEEND code. Hub has no message for a result: a Hub
//! engine learns that a game is over from the next `new-game`.

use crate::board::draw::DrawReason;
use crate::board::Side;
use crate::game::GameResult;
use std::fmt;

/// The PDN result of a game that did not finish.
pub const UNFINISHED: &str = "*";

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// None: a draw.
    pub winner: Option<Side>,
    pub reason: Reason,
}

/// Why a game ended. "The loser" is the winner's opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The loser had no legal move on its turn.
    NoLegalMove,
    /// A draw rule of the FMJD.
    DrawRule(DrawReason),
    /// The loser's time ran out.
    Time,
    /// The loser resigned (DXP's GAMEEND "I lose").
    Resigned,
    /// A player declared this result and the rules have none to set against it
    /// (DXP's GAMEEND "draw" or "I win" from a peer Kroon does not referee).
    Declared,
    /// The loser's program failed: it crashed, hung, overran its time, played an
    /// illegal move or broke its protocol, as these words say.
    Forfeit(String),
    /// The match runner decided, as these words say.
    Adjudication(String),
}

impl Outcome {
    /// A win for `winner`.
    #[must_use]
    pub fn win(winner: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    #[must_use]
    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The PDN result, from White's view: `2-0`, `1-1` or `0-2`.
    #[must_use]
    pub fn pdn(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "2-0",
            Some(Side::Black) => "0-2",
            None => "1-1",
        }
    }

    /// The result for `side`.
    #[must_use]
    pub fn wdl(&self, side: Side) -> crate::wdl::Wdl {
        crate::wdl::Wdl::for_side(self.winner, side)
    }

    /// The points `side` scored: 2 for a win, 1 for a draw, as draughts counts them.
    #[must_use]
    pub fn points(&self, side: Side) -> u32 {
        match self.winner {
            Some(w) if w == side => 2,
            Some(_) => 0,
            None => 1,
        }
    }

    /// The reason GAMEEND gives when `sender` sends it, from its view.
    #[must_use]
    pub fn end_reason(&self, sender: Side) -> EndReason {
        match self.winner {
            Some(w) if w == sender => EndReason::IWin,
            Some(_) => EndReason::ILose,
            None => EndReason::Draw,
        }
    }

    /// What a GAMEEND from `sender` with `reason` declares (None: it says nothing).
    #[must_use]
    pub fn declared(reason: EndReason, sender: Side) -> Option<Outcome> {
        match reason {
            EndReason::Unknown => None,
            EndReason::ILose => Some(Outcome::win(sender.opponent(), Reason::Resigned)),
            EndReason::Draw => Some(Outcome::draw(Reason::Declared)),
            EndReason::IWin => Some(Outcome::win(sender, Reason::Declared)),
        }
    }

    /// Why the game ended, in words that call each side by `name` (the PDN
    /// Termination tag names the programs): `Black has no legal move`, `draw by
    /// 25-move rule`, `Scan (White) forfeits: illegal move ...`.
    #[must_use]
    pub fn why(&self, name: impl Fn(Side) -> String) -> String {
        let loser = || self.winner.map_or_else(String::new, |w| name(w.opponent()));
        match (&self.reason, self.winner) {
            (Reason::DrawRule(rule), _) => format!("draw by {rule}"),
            (Reason::NoLegalMove, _) => format!("{} has no legal move", loser()),
            (Reason::Time, _) => format!("{}'s clock ran out", loser()),
            (Reason::Resigned, _) => format!("{} resigns", loser()),
            (Reason::Declared, Some(w)) => format!("{} declared the win", name(w)),
            (Reason::Declared, None) => "the players declared a draw".into(),
            (Reason::Forfeit(why), _) => format!("{} forfeits: {why}", loser()),
            (Reason::Adjudication(why), _) => format!("adjudication: {why}"),
        }
    }
}

impl From<GameResult> for Outcome {
    fn from(result: GameResult) -> Outcome {
        match result {
            GameResult::Win(side) => Outcome::win(side, Reason::NoLegalMove),
            GameResult::Draw(rule) => Outcome::draw(Reason::DrawRule(rule)),
        }
    }
}

/// The result and why, for a person: `White wins (Black has no legal move)`, `draw
/// by threefold repetition`, `Black wins on time (White's clock ran out)`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = self.why(|side| side.to_string());
        match (self.winner, &self.reason) {
            (None, Reason::DrawRule(_)) => f.write_str(&why),
            (None, _) => write!(f, "draw ({why})"),
            (Some(w), Reason::Time) => write!(f, "{w} wins on time ({why})"),
            (Some(w), _) => write!(f, "{w} wins ({why})"),
        }
    }
}

/// A game's end from one player's view, as DXP's GAMEEND states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Unknown,
    ILose,
    Draw,
    IWin,
}

impl EndReason {
    /// GAMEEND's digit for it.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            EndReason::Unknown => 0,
            EndReason::ILose => 1,
            EndReason::Draw => 2,
            EndReason::IWin => 3,
        }
    }

    /// The reason of GAMEEND's digit; one the protocol does not define says nothing.
    #[must_use]
    pub fn from_code(code: u8) -> EndReason {
        match code {
            1 => EndReason::ILose,
            2 => EndReason::Draw,
            3 => EndReason::IWin,
            _ => EndReason::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_pdn_and_words() {
        let won = Outcome::from(GameResult::Win(Side::White));
        assert_eq!(won.pdn(), "2-0");
        assert_eq!(won.to_string(), "White wins (Black has no legal move)");
        let drawn = Outcome::from(GameResult::Draw(DrawReason::Repetition));
        assert_eq!(drawn.pdn(), "1-1");
        assert_eq!(drawn.to_string(), "draw by threefold repetition");
        let flagged = Outcome::win(Side::Black, Reason::Time);
        assert_eq!(flagged.pdn(), "0-2");
        assert_eq!(
            flagged.to_string(),
            "Black wins on time (White's clock ran out)"
        );
        let forfeit = Outcome::win(Side::Black, Reason::Forfeit("illegal move".into()));
        assert_eq!(
            forfeit.why(|s| format!("Scan ({s})")),
            "Scan (White) forfeits: illegal move"
        );
        assert_eq!(
            (forfeit.points(Side::Black), forfeit.points(Side::White)),
            (2, 0)
        );
        assert_eq!(drawn.points(Side::White), 1);
    }

    #[test]
    fn gameend_reasons_round_trip() {
        for reason in [
            EndReason::Unknown,
            EndReason::ILose,
            EndReason::Draw,
            EndReason::IWin,
        ] {
            assert_eq!(EndReason::from_code(reason.code()), reason);
            if let Some(outcome) = Outcome::declared(reason, Side::Black) {
                assert_eq!(outcome.end_reason(Side::Black), reason);
                // The other side says the same end from its view.
                let other = outcome.end_reason(Side::White);
                assert_eq!(
                    Outcome::declared(other, Side::White).map(|o| o.winner),
                    Some(outcome.winner)
                );
            }
        }
        assert_eq!(EndReason::from_code(7), EndReason::Unknown);
        let resigned = Outcome::declared(EndReason::ILose, Side::White).unwrap();
        assert_eq!(resigned, Outcome::win(Side::Black, Reason::Resigned));
    }
}
