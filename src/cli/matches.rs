//! `kroon match`: its options, turned into the match runner's configuration.

use super::engine_options::{egdb_dir, openings_or_initial};
use crate::time_control::seconds;
use crate::time_control::TimeControl;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// `kroon match` options.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: `name=NAME cmd='PROGRAM ARGS' [dir=DIR] [node-rate=N] [tc=CLOCK]
    /// [option.PARAM=VALUE ...]` for a Hub engine (shell-like quoting; options are
    /// sent with set-param; node-rate: its own, see --node-rate), or
    /// `name=NAME proto=dxp cmd='PROGRAM ... {port} ...' [dir=DIR] [listen=engine|kroon]
    /// [port=N] [tc=CLOCK]` for a DXP engine: it listens and Kroon connects
    /// (listen=engine, the default) or the reverse, on 127.0.0.1 and a free port Kroon
    /// puts where {port} is (port=N: a fixed one). `tc=`: the engine's own clock, as
    /// --tc writes it, in place of --tc's (time odds: `tc=120` against `--tc 60`).
    /// `{worker}` in dir= or cmd= is the number of the match worker (1 to
    /// --concurrency) that starts the engine, its folder made if missing: for
    /// programs that write fixed file names. Two engines play a match, more a round
    /// robin.
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// Start positions, one `FEN [; moves]` per line; each is played twice with
    /// colours reversed. Default: the initial position.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Take the openings in a random order (default: file order).
    #[arg(long)]
    pub random: bool,
    /// Seed of the random opening order (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games per pair of engines (default: every opening twice per round).
    #[arg(long)]
    pub games: Option<u32>,
    /// Rounds: each plays every opening twice per pair of engines.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Time control: seconds per game plus increment per move (`60+0.5`, `300`),
    /// or moves in seconds (`40/120`: the time is credited again after each 40).
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    pub move_time: Option<f64>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// With --tc or --move-time: the clocks count nodes, this many as a second for
    /// each engine without a `node-rate=N` of its own in --engine. Each engine is
    /// sent its rate (Kroon's `node-rate` param) and each move is charged the nodes
    /// the engine reports before `done`, at the mover's rate. The same games then
    /// come out however busy the machine is: time management can be tested beside
    /// other work. Rates of their own let engines whose nodes cost differently (a
    /// slower evaluation) meet at their real speeds. Once any engine has a rate,
    /// every engine needs one; Hub engines only (DXP clocks are real); one thread
    /// each for games that repeat exactly.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub node_rate: Option<u64>,
    /// Seconds an engine may overrun its clock, summed over the game, before it
    /// forfeits (the delay of measuring a move, not extra time for each move).
    #[arg(long, default_value_t = 0.5)]
    pub time_margin: f64,
    /// Seconds to wait for a move under --depth or --nodes before the engine is
    /// taken to hang.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Adjudicate a win when both engines' scores agree the same side is ahead by
    /// at least this many hundredths of a man ...
    #[arg(long, requires = "adjudicate_moves")]
    pub adjudicate_score: Option<i32>,
    /// ... for this many moves in a row each.
    #[arg(long, requires = "adjudicate_score")]
    pub adjudicate_moves: Option<u32>,
    /// Adjudicate a draw after this many moves each (from the opening position).
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Adjudicate a game by the endgame tables in this folder (default: the per-user
    /// data folder) as soon as its position is in them.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub adjudicate_tables: Option<PathBuf>,
    /// Games at once (each engine process plays one game at a time).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write every game as PDN to this file.
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Take up a stopped match again: the games the --pdn file holds from an earlier
    /// run of the same match (the same engines, openings, --seed and order) count in
    /// the table and the SPRT and are not played again; the rest are played and
    /// added to the file. Without the file the match starts from its first game. A
    /// larger --games extends a finished match. The time lines count this run's games.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// PDN Event tag.
    #[arg(long, default_value = "Kroon match")]
    pub event: String,
    /// Stop when a sequential test decides (two engines only, for the first):
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long)]
    pub sprt: Option<String>,
}

impl MatchArgs {
    /// The match, checked, with its openings file read.
    pub fn config(&self) -> Result<crate::matches::MatchConfig, String> {
        let mut engines: Vec<crate::client::engine_spec::EngineSpec> = self
            .engines
            .iter()
            .map(|e| e.parse().map_err(|m| format!("--engine {e}: {m}")))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        let openings = openings_or_initial(self.openings.as_deref())?;
        let tc = self.time_control()?;
        crate::matches::own_clocks(&engines, &tc)?;
        crate::matches::node_clock(&mut engines, self.node_rate, &tc)?;
        crate::matches::check_fixed_ports(&engines, self.concurrency)?;
        let dxp_time = crate::matches::dxp_time(&engines, &tc)?;
        let secs = |v: f64, name: &str| {
            seconds(v).ok_or_else(|| format!("--{name} must be a number of seconds, at least 0"))
        };
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if self.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        let adjudicate = match (self.adjudicate_score, self.adjudicate_moves) {
            (Some(s), Some(m)) if s > 0 && m > 0 => Some((s, m)),
            (Some(_), Some(_)) => {
                return Err("--adjudicate-score and --adjudicate-moves must be positive".into())
            }
            _ => None,
        };
        let sprt = match &self.sprt {
            Some(text) if engines.len() == 2 => Some(crate::matches::elo::Sprt::parse(text)?),
            Some(_) => return Err("--sprt needs exactly two engines".into()),
            None => None,
        };
        let games_per_pair = self
            .games
            .unwrap_or_else(|| {
                2u32.saturating_mul(self.rounds)
                    .saturating_mul(u32::try_from(openings.len()).unwrap_or(u32::MAX))
            })
            .min(1_000_000);
        let random_seed = self.random.then(|| {
            self.seed.unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
        });
        Ok(crate::matches::MatchConfig {
            engines,
            openings,
            random_seed,
            games_per_pair,
            tc,
            dxp_time,
            time_margin: secs(self.time_margin, "time-margin")?,
            move_timeout: secs(self.move_timeout, "move-timeout")?,
            adjudicate,
            max_moves: self.max_moves.filter(|&m| m > 0),
            tables: self.adjudication_tables()?,
            concurrency: self.concurrency,
            event: self.event.clone(),
            sprt,
        })
    }

    /// Where the games are written, and whether an earlier run's count.
    #[must_use]
    pub fn pdn_output(&self) -> Option<crate::matches::PdnOutput<'_>> {
        self.pdn.as_deref().map(|path| crate::matches::PdnOutput {
            path,
            resume: self.resume,
        })
    }

    /// The tables `--adjudicate-tables` names, read (an empty folder is an error).
    fn adjudication_tables(&self) -> Result<Option<std::sync::Arc<crate::egdb::Tables>>, String> {
        let Some(dir) = &self.adjudicate_tables else {
            return Ok(None);
        };
        let dir = egdb_dir(
            Some(dir)
                .filter(|d| !d.as_os_str().is_empty())
                .map(PathBuf::as_path),
        )?;
        let tables = crate::egdb::Tables::open(&dir, crate::egdb::index::MAX_PIECES)?;
        if tables.is_empty() {
            return Err(format!(
                "--adjudicate-tables: no endgame tables in {}",
                dir.display()
            ));
        }
        eprintln!("{}", tables.describe());
        Ok(Some(std::sync::Arc::new(tables)))
    }

    /// The one limit the command line gives each move.
    fn time_control(&self) -> Result<TimeControl, String> {
        let limits = [
            self.tc.is_some(),
            self.move_time.is_some(),
            self.depth.is_some(),
            self.nodes.is_some(),
        ];
        if limits.iter().filter(|&&x| x).count() != 1 {
            return Err("give exactly one of --tc, --move-time, --depth, --nodes".into());
        }
        let tc = if let Some(tc) = &self.tc {
            tc.parse().map_err(|e| format!("bad --tc: {e}"))?
        } else if let Some(t) = self.move_time {
            let t = seconds(t)
                .filter(|t| !t.is_zero())
                .ok_or("--move-time must be a positive number of seconds")?;
            TimeControl::MoveTime(t)
        } else if let Some(d) = self.depth {
            TimeControl::Depth(d.max(1))
        } else {
            TimeControl::Nodes(self.nodes.unwrap_or(1).max(1))
        };
        Ok(tc)
    }
}
