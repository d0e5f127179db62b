//! One game at the table: the runner seats two engines, asks them for moves in
//! turn, keeps the clock and referees. The rules core ends the game (no legal move,
//! repetition, the 25-, 16- and 5-move rules), or an adjudication does, or a fault:
//! an engine that crashes, hangs, overruns its time, plays an illegal move or
//! breaks its protocol loses the game and is killed, to be restarted for the next.

use super::player::{Player, Reply, Turn};
use super::schedule::{Job, MatchConfig};
use super::standings::GameRecord;
use crate::board::Side;
use crate::client::dxp_engine::Proposal;
use crate::client::fault::Fault;
use crate::dxp::message::EndReason;
use crate::game::Game;
use crate::play::{Clock, Outcome, Reason};
use crate::time_control::TimeControl;
use std::time::Duration;

/// How a game ended, and who ended it.
struct Ending {
    outcome: Outcome,
    /// The side whose DXP engine ended the game itself (its GAMEEND needs ours in
    /// answer, not the other way round).
    ended_by: Option<Side>,
}

impl Ending {
    fn new(outcome: Outcome) -> Ending {
        Ending {
            outcome,
            ended_by: None,
        }
    }

    /// The side that forfeited, whose engine is killed.
    fn forfeited(&self) -> Option<Side> {
        match self.outcome.reason {
            Reason::Forfeit(_) => self.outcome.winner.map(Side::opponent),
            _ => None,
        }
    }
}

/// A game under way.
struct Table<'a> {
    config: &'a MatchConfig,
    job: Job,
    game: Game,
    /// The time each move took.
    spent: Vec<Duration>,
    /// Each move's score from White's view, when the engine gave one.
    scores: Vec<Option<i32>>,
    /// Each move's comment for the PDN: the engine's score and depth, the time.
    comments: Vec<String>,
    clock: Option<Clock>,
}

/// Plays one game. `players` holds this worker's engines (None: to be started);
/// one that misbehaved is killed and left None.
pub fn play_game(config: &MatchConfig, job: Job, players: &mut [Option<Player>]) -> GameRecord {
    // Each side's clock is its engine's (time odds, when an engine has its own).
    let clock = Clock::each(&config.tc_of(job.white), &config.tc_of(job.black));
    let mut table = Table {
        config,
        job,
        game: Game::from_position(config.openings[job.opening]),
        spent: Vec::new(),
        scores: Vec::new(),
        comments: Vec::new(),
        clock,
    };
    let ending = match table.seat(players) {
        Err(ending) => ending,
        Ok(()) => loop {
            if let Some(ending) = table.verdict() {
                break ending;
            }
            if let Err(ending) = table.turn(players) {
                break ending;
            }
        },
    };
    table.close(players, ending)
}

impl Table<'_> {
    fn engine_of(&self, side: Side) -> usize {
        match side {
            Side::White => self.job.white,
            Side::Black => self.job.black,
        }
    }

    fn name_of(&self, side: Side) -> &str {
        &self.config.engines[self.engine_of(side)].name
    }

    fn forfeit(&self, side: Side, why: &str) -> Ending {
        Ending::new(Outcome::win(
            side.opponent(),
            Reason::Forfeit(why.to_string()),
        ))
    }

    /// Starts both engines as needed, then opens the game with each. An engine
    /// that ended between games (Scan 2.0 does when its connection closes) is
    /// restarted, not blamed: it lost nothing yet.
    fn seat(&self, players: &mut [Option<Player>]) -> Result<(), Ending> {
        for side in [Side::White, Side::Black] {
            let e = self.engine_of(side);
            if players[e].as_mut().is_some_and(|p| !p.is_alive()) {
                players[e] = None;
            }
            if players[e].is_none() {
                let player = Player::start(&self.config.engines[e])
                    .map_err(|f| self.forfeit(side, &f.to_string()))?;
                players[e] = Some(player);
            }
        }
        // DXP engines last, and the first to move last of all: a DXP engine's
        // clock runs from the moment it accepts.
        let mut order = [Side::Black, Side::White];
        if self.game.side_to_move() == Side::Black {
            order.reverse();
        }
        order.sort_by_key(|&s| self.config.engines[self.engine_of(s)].is_dxp());
        for side in order {
            self.open(players, side)?;
        }
        Ok(())
    }

    /// Opens the game with one engine, restarting it once if it turns out gone.
    fn open(&self, players: &mut [Option<Player>], side: Side) -> Result<(), Ending> {
        let e = self.engine_of(side);
        let (minutes, moves) = self.config.dxp_time[e];
        let proposal = Proposal {
            start: self.game.start(),
            side,
            minutes,
            moves,
            opponent: self.name_of(side.opponent()),
        };
        for attempt in 0..2 {
            let Some(player) = players[e].as_mut() else {
                break;
            };
            match player.new_game(&proposal) {
                Ok(()) => return Ok(()),
                Err(f) if attempt == 0 && f.is_gone() => {
                    player.kill();
                    let fresh = Player::start(&self.config.engines[e])
                        .map_err(|f| self.forfeit(side, &f.to_string()))?;
                    players[e] = Some(fresh);
                }
                Err(f) => return Err(self.forfeit(side, &f.to_string())),
            }
        }
        Err(self.forfeit(side, "the engine is not running"))
    }
}

impl Table<'_> {
    /// The end the rules or an adjudication give the game now, if any.
    fn verdict(&self) -> Option<Ending> {
        if let Some(result) = self.game.result() {
            return Some(Ending::new(result.into()));
        }
        if let Some(max) = self.config.max_moves {
            if self.game.moves().len() >= 2 * max as usize {
                return Some(Ending::new(Outcome::draw(Reason::Adjudication(format!(
                    "draw after {max} moves each"
                )))));
            }
        }
        if let Some(ending) = self
            .config
            .tables
            .as_deref()
            .and_then(|t| by_tables(t, &self.game))
        {
            return Some(ending);
        }
        let (threshold, n) = self.config.adjudicate?;
        let side = adjudicated(&self.scores, threshold, n)?;
        Some(Ending::new(Outcome::win(
            side,
            Reason::Adjudication(format!(
                "both engines scored {side} ahead by at least {:.2} for {n} moves",
                f64::from(threshold) / 100.0
            )),
        )))
    }

    /// Asks the side to move for its move and plays it, or says how the game ended.
    fn turn(&mut self, players: &mut [Option<Player>]) -> Result<(), Ending> {
        let side = self.game.side_to_move();
        // The rate of the engine that moves, whichever colour it has: engines whose
        // nodes cost differently are each charged at their own.
        let node_rate = self.config.engines[self.engine_of(side)].node_rate;
        let (level, allowed) = level(self.config, self.clock.as_ref(), side, node_rate);
        let Some(player) = players[self.engine_of(side)].as_mut() else {
            return Err(self.forfeit(side, "the engine is not running"));
        };
        let turn = Turn {
            game: &self.game,
            spent: &self.spent,
            level,
            allowed,
            node_rate,
        };
        let reply = player.think(&turn).map_err(|f| self.fault(side, f))?;
        if let Some(clock) = &mut self.clock {
            if let Err(over) = clock.charge(side, reply.elapsed, self.config.time_margin) {
                let over = over.as_secs_f64();
                return Err(self.forfeit(side, &format!("lost on time ({over:.3} s over)")));
            }
        }
        if let Err(e) = self.game.play(reply.mv) {
            return Err(self.forfeit(side, &format!("illegal move: {e}")));
        }
        self.spent.push(reply.elapsed);
        let white_view = |s: i32| if side == Side::White { s } else { -s };
        self.scores.push(reply.score.map(white_view));
        self.comments.push(move_comment(&reply));
        Ok(())
    }

    /// How a fault of `side`'s engine ends the game.
    fn fault(&self, side: Side, fault: Fault) -> Ending {
        match fault {
            Fault::Timeout(why) if self.clock.is_some() => {
                self.forfeit(side, &format!("lost on time ({why})"))
            }
            // Resigning is a DXP engine's right: a loss, not a fault.
            Fault::Ended(EndReason::ILose) => Ending {
                ended_by: Some(side),
                ..Ending::new(Outcome::win(side.opponent(), Reason::Resigned))
            },
            fault => Ending {
                ended_by: matches!(fault, Fault::Ended(_)).then_some(side),
                ..self.forfeit(side, &fault.to_string())
            },
        }
    }

    /// Tells the engines the game is over and records it. The engine that forfeited
    /// is killed; one that does not close the game properly is too (it is restarted
    /// for its next game, and the result stands).
    fn close(self, players: &mut [Option<Player>], ending: Ending) -> GameRecord {
        for side in [Side::White, Side::Black] {
            let e = self.engine_of(side);
            let Some(player) = players[e].as_mut() else {
                continue;
            };
            let closed = ending.forfeited() != Some(side)
                && player
                    .end_game(
                        &self.game,
                        &self.spent,
                        side,
                        &ending.outcome,
                        ending.ended_by == Some(side),
                    )
                    .inspect_err(|f| {
                        log::warn!("{}: closing the game: {f}", self.name_of(side));
                    })
                    .is_ok();
            if !closed {
                player.kill();
                players[e] = None;
            }
        }
        let termination = ending
            .outcome
            .why(|side| format!("{} ({side})", self.name_of(side)));
        let mut time_used = [Duration::ZERO; 2];
        let mut mover = self.game.start().side_to_move();
        for &spent in &self.spent {
            time_used[mover.index()] += spent;
            mover = mover.opponent();
        }
        let clock_left = self
            .clock
            .as_ref()
            .map(|c| [Side::White, Side::Black].map(|side| c.left(side)));
        GameRecord {
            job: self.job,
            game: self.game,
            outcome: ending.outcome,
            termination,
            time_used,
            clock_left,
            comments: self.comments,
        }
    }
}

/// What the PDN says after a move, as other match runners write it: the score
/// from the mover's view in men and the depth it was searched to, when the
/// engine said them (a DXP engine never does), then the time the move was
/// charged: `{+0.12/14 1.234s}`, `{0.870s}`.
fn move_comment(reply: &Reply) -> String {
    let time = format!("{:.3}s", reply.elapsed.as_secs_f64());
    let men = |score: i32| format!("{:+.2}", f64::from(score) / 100.0);
    match (reply.score, reply.depth) {
        (Some(score), Some(depth)) => format!("{}/{depth} {time}", men(score)),
        (Some(score), None) => format!("{} {time}", men(score)),
        _ => time,
    }
}

/// The time control `side` moves under now (a clock as it stands) and how long to
/// wait for the move; `node_rate`: the mover's clock counts nodes, this many a second.
fn level(
    config: &MatchConfig,
    clock: Option<&Clock>,
    side: Side,
    node_rate: Option<u64>,
) -> (TimeControl, Duration) {
    // The time a move may take by the wall clock when the engine's clock allows
    // `t` and `grace` of the margin is left. When that clock counts nodes, a busy
    // machine may take longer than it says, which costs nothing: only an engine
    // that hangs is stopped.
    let wall = |t: Duration, grace: Duration| match node_rate {
        Some(_) => t * 20 + config.move_timeout,
        None => t + grace,
    };
    match (clock, config.tc) {
        (Some(clock), _) => (
            clock.control_now(side, Duration::ZERO),
            wall(
                clock.allowed(side),
                clock.grace_left(side, config.time_margin),
            ),
        ),
        (None, TimeControl::MoveTime(t)) => (config.tc, wall(t, config.time_margin)),
        (None, tc) => (tc, config.move_timeout),
    }
}

/// The result the endgame tables give the game's position, if it is in them (its
/// value with best play, the 25-, 16- and 5-move rules left aside as the tables do).
fn by_tables(tables: &crate::egdb::Tables, game: &crate::game::Game) -> Option<Ending> {
    let side = game.side_to_move();
    let value = tables.probe(game.position())?;
    let why = Reason::Adjudication(format!("the endgame tables: {side} to move {}s", value));
    Some(Ending::new(match value.winner(side) {
        Some(winner) => Outcome::win(winner, why),
        None => Outcome::draw(why),
    }))
}

/// The adjudicated winner, if both engines' recent scores agree: the last `moves`
/// moves of each, from White's view, all at least `threshold` one way.
fn adjudicated(scores: &[Option<i32>], threshold: i32, moves: u32) -> Option<Side> {
    let n = 2 * moves as usize;
    if scores.len() < n {
        return None;
    }
    let recent = &scores[scores.len() - n..];
    if recent.iter().all(|s| s.is_some_and(|s| s >= threshold)) {
        Some(Side::White)
    } else if recent.iter().all(|s| s.is_some_and(|s| s <= -threshold)) {
        Some(Side::Black)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudicates_only_when_both_agree() {
        let s = |v: &[i32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(
            adjudicated(&s(&[600, 700, 800, 900]), 500, 2),
            Some(Side::White)
        );
        assert_eq!(adjudicated(&s(&[-600, -700]), 500, 1), Some(Side::Black));
        assert_eq!(adjudicated(&s(&[600, 400, 800, 900]), 500, 2), None);
        assert_eq!(adjudicated(&s(&[600]), 500, 1), None);
        assert_eq!(adjudicated(&[Some(600), None], 500, 1), None);
    }
}
