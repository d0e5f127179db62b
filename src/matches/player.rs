//! An engine at the table, whatever it speaks. The runner starts it, opens each
//! game, asks it for moves and closes each game the same way for a Hub engine (a
//! search per move, the position sent each time) and a DXP engine (the game
//! proposed once, the opponent's moves relayed), so the two can meet.

use crate::board::notation::{hub_move, parse_move};
use crate::board::{Move, Side};
use crate::client::dxp_engine::{DxpEngine, Proposal};
use crate::client::engine_process::EngineProcess;
use crate::client::engine_spec::EngineSpec;
use crate::client::fault::Fault;
use crate::game::Game;
use crate::hub::command::level_args;
use crate::play::Outcome;
use crate::time_control::TimeControl;
use std::time::Duration;

/// A running engine.
pub enum Player {
    Hub(EngineProcess),
    Dxp(DxpEngine),
}

/// One move asked of an engine.
pub struct Turn<'a> {
    pub game: &'a Game,
    /// The time each move of the game took (DXP sends it with the move).
    pub spent: &'a [Duration],
    /// The time control of this move, a clock as it stands now.
    pub level: TimeControl,
    /// How long the engine may take, the margin included.
    pub allowed: Duration,
    /// The mover's clock counts nodes, this many a second (its `node-rate=` or
    /// `kroon match --node-rate`): the move is charged its nodes, not the time it
    /// took.
    pub node_rate: Option<u64>,
}

/// An engine's move.
#[derive(Clone, Copy, Debug)]
pub struct Reply {
    pub mv: Move,
    /// Its last score, hundredths of a man from its own view (Hub engines only).
    pub score: Option<i32>,
    /// The depth of that score (Hub engines that say it).
    pub depth: Option<u32>,
    /// The time it took by the runner's clock.
    pub elapsed: Duration,
}

impl Player {
    /// Starts the engine `spec` describes and connects to it.
    pub fn start(spec: &EngineSpec) -> Result<Player, Fault> {
        if spec.is_dxp() {
            DxpEngine::start(spec).map(Player::Dxp)
        } else {
            EngineProcess::start(spec).map(Player::Hub)
        }
    }

    /// Whether the engine `spec` describes can start, before a match: a Hub engine
    /// is started through its handshake (its options set) and quit; a DXP engine's
    /// process is only started and ended, as its handshake is a game offer.
    pub fn check(spec: &EngineSpec) -> Result<(), Fault> {
        if spec.is_dxp() {
            DxpEngine::check_program(spec)
        } else {
            EngineProcess::start(spec).map(EngineProcess::quit)
        }
    }

    /// Whether it can play a game.
    pub fn is_alive(&mut self) -> bool {
        match self {
            Player::Hub(p) => p.is_alive(),
            Player::Dxp(d) => d.is_alive(),
        }
    }

    /// Opens a game: `new-game` for a Hub engine, a GAMEREQ it must accept for a
    /// DXP engine.
    pub fn new_game(&mut self, proposal: &Proposal) -> Result<(), Fault> {
        match self {
            Player::Hub(p) => p.new_game(),
            Player::Dxp(d) => d.new_game(proposal),
        }
    }

    /// The engine's move in `turn.game`, checked against the rules.
    pub fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        match self {
            Player::Hub(p) => {
                let moves: Vec<String> = turn.game.moves().iter().map(|&m| hub_move(m)).collect();
                let start = turn.game.start().to_hub();
                let level = level_args(&turn.level);
                let answer = p.think(&start, &moves, &level, turn.allowed)?;
                let text = answer
                    .best
                    .ok_or_else(|| Fault::Illegal("'done' without a move".into()))?;
                let mv = parse_move(turn.game.position(), &text)
                    .map_err(|e| Fault::Illegal(format!("illegal move '{text}': {e}")))?;
                let elapsed = match turn.node_rate {
                    None => answer.elapsed,
                    Some(rate) => {
                        let nodes = answer.nodes.ok_or_else(|| {
                            Fault::Protocol(
                                "no 'info nodes=' before 'done': the node clock cannot charge the move"
                                    .into(),
                            )
                        })?;
                        crate::engine::nodes_as_time(nodes, rate)
                    }
                };
                Ok(Reply {
                    mv,
                    score: answer.score,
                    depth: answer.depth,
                    elapsed,
                })
            }
            Player::Dxp(d) => {
                let reply = d.think(turn.game, turn.spent, turn.allowed)?;
                Ok(Reply {
                    mv: reply.mv,
                    score: None,
                    depth: None,
                    elapsed: reply.elapsed,
                })
            }
        }
    }

    /// Closes a finished game for an engine playing `side`. A Hub engine needs
    /// nothing; a DXP engine gets the last move and a GAMEEND, unless it ended the
    /// game itself.
    pub fn end_game(
        &mut self,
        game: &Game,
        spent: &[Duration],
        side: Side,
        outcome: &Outcome,
        ended_by_engine: bool,
    ) -> Result<(), Fault> {
        let Player::Dxp(d) = self else {
            return Ok(());
        };
        // GAMEEND's reason is the sender's view, and Kroon speaks for the opponent.
        let reason = outcome.end_reason(side.opponent());
        d.end_game(game, spent, reason, ended_by_engine)
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        match self {
            Player::Hub(p) => p.kill(),
            Player::Dxp(d) => d.kill(),
        }
    }

    /// Ends the engine politely, then firmly.
    pub fn quit(self) {
        match self {
            Player::Hub(p) => p.quit(),
            Player::Dxp(d) => d.quit(),
        }
    }
}
