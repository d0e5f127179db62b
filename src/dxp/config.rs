//! What a DXP run is told: where the peer is, and, as initiator, the series of
//! games to propose. The command line builds a [`Config`]; the session loop only
//! reads it.

use super::message::Minutes;
use crate::board::Position;
use crate::engine::EngineSetup;
use std::path::PathBuf;

/// The port DXP programs use by default (and the one pydraughts always connects to).
pub const DEFAULT_PORT: u16 = 27531;

/// What an initiator proposes.
#[derive(Clone, Debug)]
pub struct Series {
    pub games: u32,
    pub minutes: Minutes,
    pub moves: u16,
    /// Start positions; each is played twice, Kroon White first.
    pub openings: Vec<Position>,
}

/// Where the peer is.
#[derive(Clone, Debug)]
pub enum Endpoint {
    Listen(String),
    Connect(String),
}

/// Everything a DXP run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub endpoint: Endpoint,
    /// `Some`: Kroon initiates this series; `None`: Kroon follows.
    pub series: Option<Series>,
    pub engine: EngineSetup,
    pub depth: Option<u32>,
    pub pdn: Option<PathBuf>,
    /// Our name in GAMEREQ / GAMEACC.
    pub name: String,
}

/// `[ADDR:]PORT` -> `ADDR:PORT`, the address defaulting to the loopback.
#[must_use]
pub fn listen_address(text: &str) -> String {
    if text.parse::<u16>().is_ok() {
        format!("127.0.0.1:{text}")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(listen_address("27531"), "127.0.0.1:27531");
        assert_eq!(listen_address("0.0.0.0:9000"), "0.0.0.0:9000");
    }
}
