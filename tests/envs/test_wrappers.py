"""Wrappers for RL libraries: discrete taps, pixel-only observations, success in info."""

from __future__ import annotations

import re
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from phone_gym.actions import PhoneAction
from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.wrappers import (
    DiscreteActions,
    PixelsOnly,
    SuccessInfo,
    grid_centers,
)

SIZE = (135, 300)  # small screenshots: fast


def phone(**kwargs: object) -> PhoneWorldEnv:
    kwargs.setdefault("obs_size", SIZE)
    return PhoneWorldEnv(**kwargs)  # type: ignore[arg-type]


def test_grid_centers_cover_the_coordinate_space_in_reading_order() -> None:
    assert grid_centers(2, 2) == [(250, 250), (750, 250), (250, 750), (750, 750)]
    assert grid_centers(1, 1) == [(500, 500)]
    centers = grid_centers(4, 12)
    assert len(centers) == 48 and centers[0] == (125, 42) and centers[-1] == (875, 958)
    assert all(0 <= v <= 1000 for point in grid_centers(100, 100) for v in point)


def test_discrete_space_and_meanings() -> None:
    env = DiscreteActions(phone(), grid=(2, 3), buttons=("back", "home"),
                          extra=('open_app(app="Clock")', PhoneAction("press", button="enter")))
    assert env.action_space == spaces.Discrete(2 * 3 + 2 + 2)
    assert env.action_meanings() == [
        "click(x=250, y=167)", "click(x=750, y=167)",
        "click(x=250, y=500)", "click(x=750, y=500)",
        "click(x=250, y=833)", "click(x=750, y=833)",
        'press(button="back")', 'press(button="home")',
        'open_app(app="Clock")', 'press(button="enter")',
    ]
    assert env.action(np.int64(3)) == PhoneAction("click", x=750, y=500)
    assert env.action(np.array([6])) == PhoneAction("press", button="back")
    assert len(env.actions) == env.action_space.n


def test_discrete_actions_act_on_the_phone() -> None:
    env = DiscreteActions(phone(task="ClockDisableAlarm"), grid=(4, 8),
                          extra=('open_app(app="Clock")',))
    env.reset(seed=0)
    _, _, _, _, info = env.step(env.action_space.n - 1)  # the extra action
    assert info["action"] == 'open_app(app="Clock")' and info["action_error"] is None
    assert env.unwrapped.device.foreground == "Clock"
    _, _, _, _, info = env.step(env.actions.index(PhoneAction("press", button="home")))
    assert env.unwrapped.device.foreground is None
    # a click lands where its cell's center is: the launcher's Clock icon
    clock = next(e for e in info["ui_elements"] if e["text"] == "Clock")
    x0, y0, x1, y1 = clock["bounds_norm"]
    index = next(i for i, (x, y) in enumerate(grid_centers(4, 8)) if x0 <= x < x1 and y0 <= y < y1)
    _, _, _, _, info = env.step(index)
    assert info["action"].startswith("click(") and env.unwrapped.device.foreground == "Clock"


def test_discrete_actions_pass_other_actions_on_and_bad_indices_are_no_ops() -> None:
    env = DiscreteActions(phone(task="NotesPinNote"), grid=(2, 2))
    env.reset(seed=1)
    *_, info = env.step('open_app(app="Notes")')
    assert info["action"] == 'open_app(app="Notes")'
    *_, info = env.step(PhoneAction("press", button="home"))
    assert info["action"] == 'press(button="home")'
    for bad in (env.action_space.n, -1, np.int64(99)):
        *_, info = env.step(bad)
        assert info["action"] is None
        assert info["action_error"] == (
            f"discrete action {int(bad)} is out of range: accepted 0..{env.action_space.n - 1}")
    *_, info = env.step(2.5)  # not an index: the env's own error
    assert info["action"] is None and "expected" in info["action_error"]
    assert info["step"] == 6


@pytest.mark.parametrize(("size", "grayscale", "shape"), [
    (None, False, (300, 135, 3)),
    ((54, 120), False, (120, 54, 3)),
    ((84, 84), True, (84, 84, 1)),
    (None, True, (300, 135, 1)),
])
def test_pixels_only_space_and_observation(size: tuple[int, int] | None, grayscale: bool,
                                           shape: tuple[int, ...]) -> None:
    env = PixelsOnly(phone(ui_in_obs=True), size=size, grayscale=grayscale)
    assert env.observation_space == spaces.Box(0, 255, shape, np.uint8)
    obs, info = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and obs.shape == shape and obs.dtype == np.uint8
    assert obs.flags.writeable
    assert "instruction" in info  # the text moved nowhere: info is untouched
    obs2, *_ = env.step('open_app(app="Clock")')
    assert env.observation_space.contains(obs2) and not np.array_equal(obs, obs2)


def test_pixels_only_resizes_the_screenshot() -> None:
    env = phone()
    raw, _ = env.reset(seed=0)
    small = PixelsOnly(phone(), size=(27, 60)).reset(seed=0)[0]
    gray = PixelsOnly(phone(), grayscale=True).reset(seed=0)[0]
    # box filter: each output pixel is the mean of a 5 x 5 block
    block = raw["screenshot"][:5, :5].reshape(-1, 3).mean(0)
    assert np.abs(small[0, 0].astype(float) - block).max() <= 1
    assert abs(float(gray.mean()) - float(raw["screenshot"].mean())) < 10


def test_success_info() -> None:
    env = SuccessInfo(phone(task="ClockDisableAlarm", end_on_success=True))
    _, info = env.reset(seed=2)
    assert info["is_success"] is False
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
        done = terminated or truncated
    assert info["is_success"] is True and reward == 1.0


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version:UserWarning")
@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes:UserWarning")
def test_check_env_on_the_wrapped_env() -> None:
    env = PixelsOnly(DiscreteActions(SuccessInfo(phone(task="ClockDisableAlarm",
                                                       max_steps=5)), grid=(2, 12)),
                     size=(54, 120))
    check_env(env, skip_render_check=True)
    env = PixelsOnly(DiscreteActions(phone(render_mode="rgb_array")), grayscale=True)
    check_env(env)


def test_wrappers_work_in_gymnasium_vector_envs() -> None:
    def make() -> gym.Env:
        return PixelsOnly(DiscreteActions(SuccessInfo(phone(task="NotesPinNote"))), size=(36, 80))

    envs = gym.vector.SyncVectorEnv([make, make])
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 80, 36, 3)
    obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
    assert obs.shape == (2, 80, 36, 3) and info["is_success"].shape == (2,)


def test_wrappers_import_no_rl_library() -> None:
    code = ("import sys, phone_gym.envs.wrappers; "
            "print(sorted({'torch', 'stable_baselines3'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"grid": (0, 4)}, "accepted: (cols, rows), ints in 1..100"),
    ({"grid": (2, 3, 4)}, "accepted: (cols, rows)"),
    ({"grid": 8}, "accepted: (cols, rows)"),
    ({"grid": (2.5, 4)}, "accepted: (cols, rows)"),
    ({"grid": (101, 1)}, "ints in 1..100"),
    ({"buttons": ("back", "menu")}, "accepted: distinct names among back, home, enter, recents"),
    ({"buttons": ("back", "back")}, "distinct names"),
    ({"buttons": "back"}, "accepted: a sequence of back, home, enter, recents"),
    ({"buttons": None}, "accepted: a sequence of back, home, enter, recents"),
    ({"buttons": (["back"],)}, "distinct names among"),
    ({"extra": ("click(x=2000, y=5)",)}, "is not valid: x=2000 is out of range"),
    ({"extra": ("dance()",)}, "is not valid"),
    ({"extra": (42,)}, "accepted: a PhoneAction or action text"),
    ({"extra": 'press(button="back")'}, "accepted: a sequence of PhoneActions or texts"),
    ({"extra": None}, "accepted: a sequence of PhoneActions or texts"),
])
def test_discrete_actions_bad_args(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        DiscreteActions(phone(), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("env_kwargs", "kwargs", "message"), [
    ({}, {"size": (4, 4)}, "accepted: None or (width, height), ints in 8..4096"),
    ({}, {"size": (64,)}, "accepted: None or (width, height)"),
    ({}, {"size": (64.0, 64)}, "accepted: None or (width, height)"),
    ({}, {"grayscale": "yes"}, "accepted: True or False"),
    ({"screenshot": False}, {}, "accepted: PhoneWorldEnv with screenshot=True"),
])
def test_pixels_only_bad_args(env_kwargs: dict[str, object], kwargs: dict[str, object],
                              message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        PixelsOnly(phone(**env_kwargs), **kwargs)  # type: ignore[arg-type]
