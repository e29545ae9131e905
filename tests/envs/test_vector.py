"""Vector envs return the right screenshots and instructions (gymnasium's own defaults, and
``phone_gym.make_vec``): text observations must not be corrupted by shared memory."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import phone_gym
from phone_gym.actions import batch_actions
from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.spaces import SharedText

SEEDS = [11, 12, 13]
APP_NAMES = PhoneWorldEnv().app_names
ACTIONS = ["open_app(app=\"Notes\")", "click(x=878, y=890)", "press(button=\"home\")",
           "open_app(app=\"Contacts\")", "scroll(x=500, y=500, direction=\"down\")",
           "not an action", "type(text=\"abc\")"]


def reference() -> list[list[tuple[str, bytes]]]:
    """Per env, the (instruction, screenshot bytes) after reset and after each action."""
    out = []
    for seed in SEEDS:
        env = PhoneWorldEnv()
        obs, _ = env.reset(seed=seed)
        seq = [(obs["instruction"], obs["screenshot"].tobytes())]
        for action in ACTIONS:
            obs, *_ = env.step(action)
            seq.append((obs["instruction"], obs["screenshot"].tobytes()))
        out.append(seq)
    return out


def run_vector(vec: gym.vector.VectorEnv) -> list[list[tuple[str, bytes]]]:
    obs, _ = vec.reset(seed=SEEDS)
    steps = [obs]
    for action in ACTIONS:
        obs, *_ = vec.step(batch_actions([action] * len(SEEDS), APP_NAMES))
        steps.append(obs)
    vec.close()
    return [[(str(o["instruction"][i]), np.asarray(o["screenshot"][i]).tobytes()) for o in steps]
            for i in range(len(SEEDS))]


def factories() -> list:
    return [lambda: gym.make("PhoneWorld-v0") for _ in SEEDS]


@pytest.mark.parametrize("kind", ["sync", "async_default", "async_no_shm", "make_vec_async",
                                  "make_vec_sync"])
def test_vector_matches_single_envs(kind: str) -> None:
    if kind == "sync":
        vec = gym.vector.SyncVectorEnv(factories())
    elif kind == "async_default":
        vec = gym.vector.AsyncVectorEnv(factories())
    elif kind == "async_no_shm":
        vec = gym.vector.AsyncVectorEnv(factories(), shared_memory=False)
    else:
        vec = phone_gym.make_vec(len(SEEDS), vectorization_mode=kind.rsplit("_", 1)[1])
    got = run_vector(vec)
    want = reference()
    for env_index, (g, w) in enumerate(zip(got, want, strict=True)):
        for step, ((gi, gs), (wi, ws)) in enumerate(zip(g, w, strict=True)):
            assert gi == wi, f"{kind}: env {env_index} step {step}: instruction {gi[:40]!r}"
            assert gs == ws, f"{kind}: env {env_index} step {step}: screenshot differs"


def test_plain_text_space_is_corrupted_by_gymnasium_shared_memory() -> None:
    """Why SharedText exists: with a plain Text space the async instructions never update."""

    class PlainText(PhoneWorldEnv):
        def __init__(self) -> None:
            super().__init__()
            space = self.observation_space["instruction"]
            self.observation_space["instruction"] = gym.spaces.Text(
                space.max_length, charset=space.character_set)

    vec = gym.vector.AsyncVectorEnv([PlainText, PlainText])
    obs, _ = vec.reset(seed=[1, 2])
    vec.close()
    expected = [PhoneWorldEnv().reset(seed=s)[0]["instruction"] for s in (1, 2)]
    assert list(obs["instruction"]) != expected
    assert isinstance(PhoneWorldEnv().observation_space["instruction"], SharedText)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_random_episodes_out_of_step_keep_infos_consistent(mode: str) -> None:
    """Envs ending at different times (different tasks, autoreset) mix info values of
    every kind; Gymnasium must be able to stack them."""
    vec = phone_gym.make_vec(3, vectorization_mode=mode)
    vec.action_space.seed(0)
    vec.reset(seed=0)
    ended = 0
    for _ in range(60):
        _, _, terminated, truncated, infos = vec.step(vec.action_space.sample())
        ended += int((terminated | truncated).sum())
        assert len(infos["step"]) == 3
    vec.close()
    assert ended > 0
