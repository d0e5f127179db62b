"""The environments for AI: the action encoding, the Gymnasium and PettingZoo
environments (with their own API checkers), and `CheckersGame`."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import random_positions

import kroon
from kroon import CheckersGame

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")


def test_action_encoding_both_ways():
    assert kroon.encode_action(32, 28) == 1577
    assert kroon.decode_action(1577) == (32, 28, 0)
    for action in [0, 2499, 2500, kroon.ACTION_COUNT - 1]:
        assert kroon.encode_action(*kroon.decode_action(action)) == action


def test_captures_with_the_same_ends_get_their_own_actions():
    # The king on 1 has three ways to 25 taking different pieces (found by random
    # play: the most with the same ends in 9 million positions).
    board = kroon.Board("W:WK1,11,37,44:B7,8,13,19,20")
    moves = board.legal_moves
    twins = [m for m in moves if (m.from_square, m.to_square) == (1, 25)]
    assert sorted(m.path_index for m in twins) == [0, 1, 2]
    assert len({str(m) for m in moves}) == len(moves)  # PDN names them apart by their paths
    actions = board.legal_actions()
    assert len(set(actions)) == len(moves)
    for move, action in zip(moves, actions):
        assert move.action == action
        assert board.action_to_move(action) == move
        assert kroon.decode_action(action) == (move.from_square, move.to_square, move.path_index)


def test_the_mask_is_the_legal_moves():
    for board in random_positions(400, seed=3):
        mask = np.frombuffer(board.action_mask(), dtype=np.int8)
        legal = sorted(m.action for m in board.legal_moves)
        assert np.flatnonzero(mask).tolist() == legal == sorted(board.legal_actions())
        for action in legal[:3]:
            assert board.action_to_move(action).action == action


def test_planes_from_the_movers_view():
    board = kroon.Board("B:W50,K45:B1,K6")
    white = np.frombuffer(board.planes("white"), np.uint8).reshape(4, 10, 10)
    black = np.frombuffer(board.planes(), np.uint8).reshape(4, 10, 10)
    assert white[0, 9, 8] == 1 and white[1, 8, 9] == 1 and white[2, 0, 1] and white[3, 1, 0]
    # Black to move: its pieces first and at the bottom (square s seen as 51 - s).
    assert black[0, 9, 8] == 1 and black[1, 8, 9] == 1 and black[2, 0, 1] and black[3, 1, 0]
    assert white.sum() == black.sum() == 4


def test_gymnasium_checker_and_registration():
    from gymnasium.utils.env_checker import check_env

    import kroon.gym  # noqa: F401 - registers the environment

    env = gymnasium.make("kroon/InternationalDraughts-v0")
    check_env(env.unwrapped)
    for opponent in ["random", None]:
        check_env(kroon.gym.InternationalDraughtsEnv(opponent=opponent, agent_side="black"))


def play_masked_episode(env, rng: random.Random):
    observation, info = env.reset(seed=rng.randrange(1000))
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(observation)
        legal = np.flatnonzero(info["action_mask"])
        assert sorted(legal.tolist()) == sorted(env.unwrapped.board.legal_actions())
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("opponent", ["random", None, "engine"])
def test_gymnasium_episodes(opponent):
    import kroon.gym  # noqa: F401

    rng = random.Random(1)
    env = gymnasium.make("kroon/InternationalDraughts-v0", opponent=opponent, engine_nodes=300)
    for _ in range(3 if opponent == "engine" else 20):
        total, steps, info = play_masked_episode(env, rng)
        assert total in (-1.0, 0.0, 1.0) and steps > 0 and "outcome" in info
    env.close()


def test_gymnasium_illegal_action_loses():
    import kroon.gym  # noqa: F401

    env = gymnasium.make("kroon/InternationalDraughts-v0")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from kroon.pettingzoo import env

    api_test(env(), num_cycles=300)


def test_pettingzoo_games():
    from kroon.pettingzoo import env

    rng = random.Random(2)
    game = env()
    for seed in range(10):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, reward, termination, truncation, info = game.last()
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"]
                assert mask.dtype == np.int8
                assert np.flatnonzero(mask).size == len(game.unwrapped.board.legal_moves)
                action = int(rng.choice(np.flatnonzero(mask)))
            game.step(action)
        rewards = game.unwrapped._cumulative_rewards
        assert sum(rewards.values()) == 0 and set(rewards.values()) <= {-1.0, 0.0, 1.0}


def test_checkers_game_full_games():
    rng = random.Random(5)
    winners = set()
    for _ in range(30):
        game = CheckersGame()
        state = game.reset()
        assert state["current_player"] == 1 and len(state["board"]) == 10
        assert sum(v in (1, 2) for row in state["board"] for v in row) == 40
        while not game.is_game_over():
            assert game.get_winner() is None
            moves = game.get_valid_moves()
            start, end, index = rng.choice(moves)
            assert game.make_move(start, end, index)
        assert game.get_valid_moves() == []
        winners.add(game.get_winner())
        assert game.get_state()["game_over"]
    assert winners <= {0, 1, 2} and winners


def test_checkers_game_coordinates_and_refusals():
    game = CheckersGame()
    assert not game.make_move(32, 27 + 1, 1)  # no second path
    assert not game.make_move(19, 23)  # not White's move
    assert game.make_move((6, 3), (5, 4))  # 32-28 by coordinates
    assert game.get_state()["current_player"] == 2 and game.board.ply == 1
    with pytest.raises(ValueError):
        game.make_move((0, 0), (1, 1))
    assert game.undo() and not CheckersGame().undo()


def test_many_games_at_once():
    import kroon.gym  # noqa: F401

    envs = gymnasium.make_vec("kroon/InternationalDraughts-v0", num_envs=4)
    observations, infos = envs.reset(seed=3)
    assert observations.shape == (4, 4, 10, 10) and infos["action_mask"].shape == (4, 40000)
    rng = np.random.default_rng(3)
    for _ in range(200):
        # A finished game's mask is empty; the next step resets it (Gymnasium's
        # next-step autoreset) and ignores its action.
        actions = [
            rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in infos["action_mask"]
        ]
        observations, rewards, terminated, truncated, infos = envs.step(np.array(actions))
        assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
    envs.close()
