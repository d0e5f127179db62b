//! What a match is: its configuration, checked, and the games it plays in order
//! (the schedule), each opening twice with colours reversed.

use super::elo::Sprt;
use crate::board::Position;
use crate::client::engine_spec::EngineSpec;
use crate::dxp::message::{gamereq_time, Minutes};
use crate::time_control::TimeControl;
use std::sync::Arc;
use std::time::Duration;

/// A match, checked and ready to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub openings: Vec<Position>,
    pub random_seed: Option<u64>,
    pub games_per_pair: u32,
    /// The limit of every move, or the clock of every engine without its own `tc=`.
    pub tc: TimeControl,
    /// What each engine, if it speaks DXP, is told in GAMEREQ: minutes and moves
    /// (0: the whole game), by engine.
    pub dxp_time: Vec<(Minutes, u16)>,
    /// What an engine may overrun its clock by, summed over a game.
    pub time_margin: Duration,
    pub move_timeout: Duration,
    /// Hundredths of a man and moves each.
    pub adjudicate: Option<(i32, u32)>,
    pub max_moves: Option<u32>,
    /// Adjudicate a game by these endgame tables as soon as its position is in them.
    pub tables: Option<Arc<crate::egdb::Tables>>,
    pub concurrency: usize,
    pub event: String,
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// The clock or limit engine `e` plays under: its own `tc=`, else `--tc`'s.
    #[must_use]
    pub fn tc_of(&self, e: usize) -> TimeControl {
        self.engines[e].tc.unwrap_or(self.tc)
    }

    /// Whether some engine has a clock of its own, unlike another's.
    #[must_use]
    pub fn has_time_odds(&self) -> bool {
        (1..self.engines.len()).any(|e| self.tc_of(e) != self.tc_of(0))
    }
}

/// What each of `engines` is told in GAMEREQ if it speaks DXP, for its own clock
/// or `tc` (minutes, and moves per period; nothing for a Hub engine), an error
/// naming one when its clock is not one DXP can state.
pub fn dxp_time(engines: &[EngineSpec], tc: &TimeControl) -> Result<Vec<(Minutes, u16)>, String> {
    engines
        .iter()
        .map(|e| {
            if e.is_dxp() {
                // Name the clock that needs mending: the engine's own or the match's.
                let whose = if e.tc.is_some() { "its tc=" } else { "--tc" };
                gamereq_time(&e.tc.unwrap_or(*tc))
                    .map_err(|m| format!("{} speaks DXP: {m} (in {whose})", e.name))
            } else {
                Ok((Minutes::ZERO, 0))
            }
        })
        .collect()
}

/// An engine's own clock (`tc=`, time odds) stands in for `--tc`, so the match must
/// be played on a clock: a move limit (`--depth`, `--nodes`, `--move-time`) gives
/// every engine the same moves to search.
pub fn own_clocks(engines: &[EngineSpec], tc: &TimeControl) -> Result<(), String> {
    match engines.iter().find(|e| e.tc.is_some()) {
        Some(e) if !matches!(tc, TimeControl::Clock { .. }) => Err(format!(
            "{}'s tc= gives it a clock of its own: play the match on a clock, --tc, for the others",
            e.name
        )),
        _ => Ok(()),
    }
}

/// Makes the match's clocks count nodes when any rate is given (`--node-rate`, the
/// default, or an engine's own `node-rate=`): each engine is then charged its
/// reported nodes at its own rate and is sent that rate as its Hub `node-rate`
/// param, so its time management plans in the same nodes. Every engine needs a
/// rate: a clock in seconds against one in nodes would be no fair match, and a
/// DXP engine's clock is always the real one. `tc` must be a clock to count.
pub fn node_clock(
    engines: &mut [EngineSpec],
    default_rate: Option<u64>,
    tc: &TimeControl,
) -> Result<(), String> {
    // What made this a node-clock match, for the messages.
    let why = match (
        default_rate,
        engines.iter().find_map(|e| Some((&e.name, e.node_rate?))),
    ) {
        (Some(_), _) => "--node-rate".to_string(),
        (None, Some((name, rate))) => format!("{name}'s node-rate={rate}"),
        (None, None) => return Ok(()),
    };
    if !matches!(tc, TimeControl::Clock { .. } | TimeControl::MoveTime(_)) {
        return Err(format!("{why} needs a clock: --tc or --move-time"));
    }
    if let Some(e) = engines.iter().find(|e| e.is_dxp()) {
        return Err(format!(
            "{why}: {} speaks DXP, whose clock is the real one",
            e.name
        ));
    }
    for e in engines {
        // Only without --node-rate can an engine lack a rate.
        let Some(rate) = e.node_rate.or(default_rate) else {
            return Err(format!(
                "{why} makes the clocks count nodes, and {} has no rate: give it node-rate=N, \
                 or give --node-rate N for the engines without their own",
                e.name
            ));
        };
        e.node_rate = Some(rate);
        e.options.push(("node-rate".into(), rate.to_string()));
    }
    Ok(())
}

/// A fixed port (`port=N`) serves one engine process at a time: two engines, or
/// two games at once, on one port would meet the wrong peer.
pub fn check_fixed_ports(engines: &[EngineSpec], concurrency: usize) -> Result<(), String> {
    let mut seen: Vec<(u16, &str)> = Vec::new();
    for e in engines {
        let crate::client::engine_spec::Protocol::Dxp {
            port: Some(port), ..
        } = e.protocol
        else {
            continue;
        };
        if let Some((_, other)) = seen.iter().find(|(p, _)| *p == port) {
            return Err(format!("{other} and {} both want port {port}", e.name));
        }
        if concurrency > 1 {
            return Err(format!(
                "{} has a fixed port ({port}), so it can play one game at a time: \
                 --concurrency 1, or put {{port}} in its cmd=",
                e.name
            ));
        }
        seen.push((port, &e.name));
    }
    Ok(())
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 1-based, in schedule order: the PDN Round tag.
    pub number: usize,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// A warning when the match plays an opening more than twice against the same
/// engine: engines that search alike each time (a clock in nodes, a node or depth
/// limit, one thread) then play the very games they played before, and the score
/// and the SPRT count each again as if it were new evidence. Session 73 found it
/// so: 2000-game SPRTs on the 81 openings of `openings/2-move.fen` had played 162
/// distinct games, then repeated them.
#[must_use]
pub fn repeats_warning(config: &MatchConfig) -> Option<String> {
    let distinct = 2 * config.openings.len();
    (config.games_per_pair as usize > distinct).then(|| {
        format!(
            "kroon match: {} games a pair of engines from {} openings: the openings repeat \
             from game {}, and engines that search alike each time (a clock in nodes, a \
             node or depth limit, one thread) replay the same games, which the score and \
             the SPRT count again; take a larger openings file (openings/4-move.fen has \
             1,330, openings/6-move.fen 15,348)",
            config.games_per_pair,
            config.openings.len(),
            distinct + 1
        )
    })
}

/// SplitMix64: enough randomness to shuffle openings, reproducible from a seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The games in the order they are played: each pair of engines plays each
/// opening twice in a row, colours reversed, and the pairs take turns so that a
/// round robin's standings stay comparable while it runs.
#[must_use]
pub fn schedule(config: &MatchConfig) -> Vec<Job> {
    let mut order: Vec<usize> = (0..config.openings.len()).collect();
    if let Some(seed) = config.random_seed {
        let mut state = seed;
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    let n = config.engines.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let mut jobs = Vec::new();
    for k in 0..config.games_per_pair as usize {
        // Two games per opening: k and k+1 share it.
        let opening = order[(k / 2) % order.len()];
        for &(a, b) in &pairs {
            let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                number: 0,
                white,
                black,
                opening,
            });
        }
    }
    for (i, job) in jobs.iter_mut().enumerate() {
        job.number = i + 1;
    }
    jobs
}
