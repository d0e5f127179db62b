"""A PettingZoo AEC environment for international draughts, two agents.

>>> from kroon.pettingzoo import env
>>> game = env()
>>> game.reset(seed=1)
>>> observation, reward, termination, truncation, info = game.last()
>>> game.agent_selection, observation["observation"].shape, int(observation["action_mask"].sum())
('player_0', (4, 10, 10), 9)

`player_0` plays White (moves first), `player_1` Black. As in PettingZoo's board
games, an agent's observation is a dict: `"observation"`, `float32` planes `(4, 10,
10)` (its men and kings, then the opponent's, seen from its side: its pieces at the
bottom), and `"action_mask"`, `int8`, 1 for each legal action of the agent to move
(all 0 for the other). Actions are those of `kroon.encode_action` (see `kroon.gym`).
Rewards come at the game's end: +1 the winner, -1 the loser, 0 both for a draw (every
FMJD draw rule applies). `env()` wraps the raw environment as PettingZoo's classic
games are: an illegal action ends the game as a loss for the agent that played it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import kroon
from kroon.gym import action_mask, observation, render

SIDES = {"player_0": "white", "player_1": "black"}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for classic games."""
    game = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """International draughts for two agents, `player_0` (White) and `player_1` (Black)."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "kroon_international_draughts_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, fen: str | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.fen = fen
        self.render_mode = render_mode
        self.board = kroon.Board(fen)
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        planes = spaces.Box(0.0, 1.0, shape=(4, 10, 10), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(kroon.ACTION_COUNT,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": planes, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(kroon.ACTION_COUNT) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _agent_to_move(self) -> str:
        return "player_0" if self.board.turn == "white" else "player_1"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent == self._agent_to_move() and not self.board.is_game_over():
            mask = action_mask(self.board)
        else:
            mask = np.zeros(kroon.ACTION_COUNT, dtype=np.int8)
        return {"observation": observation(self.board, SIDES[agent]), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.board = kroon.Board((options or {}).get("fen", self.fen))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.board.push_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        outcome = self.board.outcome()
        if outcome is not None:
            for a, side in SIDES.items():
                if outcome.winner is None:
                    self.rewards[a] = 0.0
                else:
                    self.rewards[a] = 1.0 if outcome.winner == side else -1.0
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome.reason}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.board, self.render_mode)

    def close(self) -> None:
        pass
