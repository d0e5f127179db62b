"""The Gymnasium environment `kroon/InternationalDraughts-v0`, registered on import.

>>> import gymnasium as gym
>>> import kroon.gym
>>> env = gym.make("kroon/InternationalDraughts-v0")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((4, 10, 10), 9)

The agent plays White against an opponent that moves at random (`opponent=` chooses
another, or `None` for self-play: the agent plays both sides). One step is one move
of the agent (and the opponent's reply).

- Observation: `float32` planes `(4, 10, 10)`, the men and kings of the side to move,
  then the opponent's, seen from the side to move (its pieces at the bottom: Black's
  view is the board turned half a turn). `Board.planes()` gives the same bytes.
- Action: `Discrete(kroon.ACTION_COUNT)`, the encoding of `kroon.encode_action`:
  `path_index * 2500 + (from - 1) * 50 + (to - 1)`, squares 1-50 as the board numbers
  them (not turned with the observation), `path_index` telling apart captures with the
  same two squares that take different pieces. Every legal move has its own action.
- `info["action_mask"]`: `int8` array, 1 for each legal action, after `reset` and every
  `step`; `info["legal_moves"]` the moves in Hub notation.
- Reward: at the game's end only, +1 a win, -1 a loss, 0 a draw, for the agent (in
  self-play, for the side that made the step's move). An illegal action ends the
  episode as a loss (reward -1, `info["illegal_action"]` True).
- Every draw rule of the FMJD applies (threefold repetition, the 25-, 16- and 5-move
  rules), so every episode ends.

Many games at once: `gymnasium.make_vec(ENV_ID, num_envs=16)` (the masks come stacked in
`info["action_mask"]`, shape `(16, kroon.ACTION_COUNT)`; a finished game's mask is empty
and its next step resets it, Gymnasium's next-step autoreset).
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium
import numpy as np
from gymnasium import spaces

import kroon

ENV_ID = "kroon/InternationalDraughts-v0"

Opponent = Union[str, Callable[[kroon.Board], kroon.Move], None]


def observation(board: kroon.Board, side: str | None = None) -> np.ndarray:
    """The observation planes of `board` from `side`'s view (the side to move by default)."""
    planes = np.frombuffer(board.planes(side), dtype=np.uint8)
    return planes.reshape(4, 10, 10).astype(np.float32)


def action_mask(board: kroon.Board) -> np.ndarray:
    """The legal-action mask of `board`, `int8`, `kroon.ACTION_COUNT` long."""
    return np.frombuffer(board.action_mask(), dtype=np.int8).copy()


def render(board: kroon.Board, mode: str | None) -> str | None:
    """The board as text: printed for `"human"`, returned for `"ansi"`."""
    text = board.diagram()
    if mode == "human":
        print(text)
        return None
    return text


class InternationalDraughtsEnv(gymnasium.Env):
    """International draughts as a single-agent Gymnasium environment.

    `opponent`: `"random"` (default), `"engine"` (Kroon at `engine_nodes` nodes a
    move), a function from a `kroon.Board` to one of its legal moves, or `None` for
    self-play. `agent_side`: `"white"` or `"black"` (the opponent then moves first).
    `fen`: the start position.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 2}

    def __init__(
        self,
        opponent: Opponent = "random",
        agent_side: str = "white",
        fen: str | None = None,
        engine_nodes: int = 2000,
        render_mode: str | None = None,
    ) -> None:
        if agent_side not in ("white", "black"):
            raise ValueError(f"agent_side is 'white' or 'black', not {agent_side!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        if isinstance(opponent, str) and opponent not in ("random", "engine"):
            raise ValueError(f"opponent is 'random', 'engine', a function or None: {opponent!r}")
        self.opponent = opponent
        self.agent_side = agent_side
        self.fen = fen
        self.engine_nodes = engine_nodes
        self.render_mode = render_mode
        self._engine = None
        self.observation_space = spaces.Box(0.0, 1.0, shape=(4, 10, 10), dtype=np.float32)
        self.action_space = spaces.Discrete(kroon.ACTION_COUNT)
        self.board = kroon.Board(fen)

    def _opponent_move(self) -> None:
        if self.opponent == "random":
            moves = self.board.legal_moves
            move = moves[int(self.np_random.integers(len(moves)))]
        elif self.opponent == "engine":
            if self._engine is None:
                self._engine = kroon.Engine(threads=1, hash_mb=16)
            move = self._engine.search(self.board, nodes=self.engine_nodes).move
        else:
            move = self.opponent(self.board)
        self.board.push(move)

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {
            "action_mask": action_mask(self.board),
            "legal_moves": [m.hub() for m in self.board.legal_moves],
        }
        info.update(extra)
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.board = kroon.Board((options or {}).get("fen", self.fen))
        if (
            self.opponent is not None
            and self.board.turn != self.agent_side
            and not self.board.is_game_over()
        ):
            self._opponent_move()
        return observation(self.board), self._info()

    def _reward(self, side: str) -> float:
        outcome = self.board.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        mover = self.board.turn
        try:
            self.board.push_action(int(action))
        except (kroon.IllegalMoveError, kroon.GameOverError):
            return observation(self.board), -1.0, True, False, self._info(illegal_action=True)
        if self.opponent is not None and not self.board.is_game_over():
            self._opponent_move()
        terminated = self.board.is_game_over()
        reward = self._reward(mover) if terminated else 0.0
        info = self._info()
        if terminated:
            info["outcome"] = self.board.outcome().reason
        if self.render_mode == "human":
            self.render()
        return observation(self.board), reward, terminated, False, info

    def render(self) -> str | None:
        return render(self.board, self.render_mode)

    def close(self) -> None:
        self._engine = None


gymnasium.register(id=ENV_ID, entry_point="kroon.gym:InternationalDraughtsEnv")
