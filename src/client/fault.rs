//! Why an engine lost a game without the rules deciding it, whatever protocol it
//! speaks: the runner turns each into a forfeit with these words in the PDN's
//! Termination tag.

use crate::dxp::message::EndReason;

#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// It did not start, or failed the handshake.
    Start(String),
    /// It refused the options it was given: a param it did not declare, or a
    /// `set-param` answered with `error`. Playing on would test its defaults, not
    /// what was asked.
    Options(String),
    /// The process ended (crash or exit).
    Exited,
    /// No answer in time (a hang or a time overrun).
    Timeout(String),
    /// It could not be written to.
    Io(String),
    /// It played an illegal move, or none.
    Illegal(String),
    /// It broke the protocol: a message it must not send, or one that is not DXP.
    Protocol(String),
    /// It refused the game it was offered (DXP GAMEACC).
    Refused(String),
    /// It closed the connection (DXP).
    Disconnected(String),
    /// It ended the game itself (DXP GAMEEND), giving this reason from its view.
    Ended(EndReason),
}

impl Fault {
    /// Whether the engine is simply gone (a process or connection that ended), which
    /// between games is a restart, not a loss: some programs (Scan 2.0 when the
    /// connection closes) end on their own.
    #[must_use]
    pub fn is_gone(&self) -> bool {
        matches!(self, Fault::Exited | Fault::Io(_) | Fault::Disconnected(_))
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Start(why) => write!(f, "failed to start: {why}"),
            Fault::Options(why) => write!(f, "refused its options: {why}"),
            Fault::Exited => write!(f, "the engine process exited"),
            Fault::Timeout(why) | Fault::Illegal(why) => write!(f, "{why}"),
            Fault::Io(why) => write!(f, "cannot write to the engine: {why}"),
            Fault::Protocol(why) => write!(f, "broke the protocol: {why}"),
            Fault::Refused(why) => write!(f, "refused the game: {why}"),
            Fault::Disconnected(why) => write!(f, "disconnected: {why}"),
            Fault::Ended(reason) => {
                let claim = match reason {
                    EndReason::Unknown => "giving no reason",
                    EndReason::ILose => "resigning",
                    EndReason::Draw => "claiming a draw",
                    EndReason::IWin => "claiming a win",
                };
                write!(f, "ended the game {claim}, which the rules do not support")
            }
        }
    }
}
