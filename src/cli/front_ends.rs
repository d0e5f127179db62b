//! The options of the front ends that play another program or a person: `kroon
//! dxp` and `kroon gui` (`kroon hub` and `kroon play` take the engine options alone).

use super::engine_options::{openings_or_initial, EngineArgs};
use std::path::PathBuf;

/// `kroon gui`: see [`crate::gui`].
#[derive(clap::Args, Debug)]
pub struct GuiArgs {
    /// Listen on 127.0.0.1:PORT (default: a free port, shown on stderr).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// A Hub engine to play and analyse instead of Kroon: its command line
    /// ("scan hub"), or a match runner spec (name=Scan cmd='./scan hub' dir=...).
    #[arg(long, value_name = "CMD ARGS")]
    pub engine: Option<String>,
    /// Do not open the page in the system's browser.
    #[arg(long)]
    pub no_browser: bool,
    #[command(flatten)]
    pub kroon: EngineArgs,
}

impl GuiArgs {
    pub fn config(&self) -> Result<crate::gui::Config, String> {
        let engine = self
            .engine
            .as_deref()
            .map(crate::client::engine_spec::EngineSpec::from_command_line)
            .transpose()
            .map_err(|e| format!("--engine: {e}"))?;
        Ok(crate::gui::Config {
            port: self.port,
            setup: crate::gui::Setup {
                kroon: self.kroon.setup()?,
                engine,
            },
            open_browser: !self.no_browser,
        })
    }
}

/// `kroon dxp`: play another program over DXP.
#[derive(clap::Args, Debug, Clone)]
pub struct DxpArgs {
    /// Wait for the peer on `[ADDR:]PORT` (the default, on 127.0.0.1:27531); port 0
    /// takes one the system finds free. The address taken is shown on stderr.
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a peer listening on HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Propose the games (GAMEREQ); without it Kroon follows the peer's proposals.
    #[arg(long)]
    pub initiator: bool,
    /// Initiator: games in the series.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Initiator: thinking time per player, in minutes.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub time: u16,
    /// Initiator: moves per time period (0: the time is for the whole game).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub moves: u16,
    /// Initiator: start positions, one FEN a line (`#` comments); each is played
    /// with both colours in turn.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Append every game to this file as PDN.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Search every move to this fixed depth instead of by the clock (for tests).
    #[arg(long)]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl DxpArgs {
    pub fn config(&self) -> Result<crate::dxp::Config, String> {
        use crate::dxp::{listen_address, Endpoint, Series, DEFAULT_PORT};
        let endpoint = match (&self.listen, &self.connect) {
            (_, Some(addr)) => Endpoint::Connect(addr.clone()),
            (Some(addr), None) => Endpoint::Listen(listen_address(addr)),
            (None, None) => Endpoint::Listen(format!("127.0.0.1:{DEFAULT_PORT}")),
        };
        let series = if self.initiator {
            if self.time == 0 {
                // Moby Dam never answers a GAMEREQ without a clock.
                log::warn!("--time 0 proposes games without a clock; some programs refuse them");
            }
            Some(Series {
                games: self.games,
                minutes: crate::dxp::message::Minutes::whole(self.time),
                moves: self.moves,
                openings: openings_or_initial(self.openings.as_deref())?,
            })
        } else {
            None
        };
        Ok(crate::dxp::Config {
            endpoint,
            series,
            engine: self.engine.setup()?,
            depth: self.depth,
            pdn: self.pdn.clone(),
            name: format!("Kroon {}", env!("CARGO_PKG_VERSION")),
        })
    }
}
