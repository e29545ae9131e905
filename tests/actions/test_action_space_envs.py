"""The action space in envs: ``sample()`` always steps without an action error, vector envs
take a list of model strings, making the envs warns about nothing, and Gymnasium's image
wrappers (OpenCV) work on the screenshot."""

from __future__ import annotations

import collections
import copy
import pickle
import stat
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import phone_gym
from phone_gym.actions import (
    ACTION_TYPES,
    TEXT_CHARSET,
    BatchedPhoneActionSpace,
    PhoneAction,
    PhoneActionSpace,
    batch_actions,
    make_action_space,
    to_action,
)
from phone_gym.envs import PhoneWorldEnv
from phone_gym.world.glyphs import typing_error

ROOT = Path(__file__).resolve().parents[2]
APPS = ["Contacts", "Clock", "Notes"]


# ------------------------------------------------------------------- samples are valid


def test_samples_step_without_an_action_error() -> None:
    env = gym.make("PhoneWorld-v0", screenshot=False)
    env.reset(seed=0)
    env.action_space.seed(0)
    kinds: collections.Counter[str] = collections.Counter()
    for _ in range(1000):
        *_, terminated, truncated, info = env.step(env.action_space.sample())
        assert info["action_error"] is None, info["action"]
        kinds[info["action"].split("(")[0]] += 1
        if terminated or truncated:
            env.reset()
    assert set(kinds) >= set(ACTION_TYPES) - {"type"}


def test_samples_type_while_a_text_field_has_focus() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact", screenshot=False)
    env.reset(seed=0)
    *_, info = env.step('open_app(app="Contacts")')
    x, y = next(e for e in info["ui_elements"] if e["editable"])["center_norm"]
    env.step(f"click(x={x}, y={y})")
    assert env.device.keyboard_shown
    env.action_space.seed(1)
    typed = 0
    for _ in range(200):
        sample = env.action_space.sample()
        if int(sample["action_type"]) == ACTION_TYPES.index("type"):
            *_, info = env.step(sample)
            assert info["action_error"] is None and info["action"].startswith("type(")
            typed += 1
            if not env.device.keyboard_shown:
                break
    assert typed


@pytest.mark.parametrize("can_type", [True, False])
def test_can_type_decides_whether_type_is_drawn(can_type: bool) -> None:
    space = make_action_space(APPS, can_type=lambda: can_type)
    space.seed(3)
    kinds = collections.Counter(to_action(space.sample(), APPS).type for _ in range(1200))
    assert set(kinds) == set(ACTION_TYPES) - ({"type"} if not can_type else set())
    assert all(space.contains(space.sample()) for _ in range(50))


def test_sample_text_is_drawable() -> None:
    assert typing_error(TEXT_CHARSET) is None


def test_the_hook_stays_with_its_env() -> None:
    env = PhoneWorldEnv(task="ClockDisableAlarm", screenshot=False)
    env.reset(seed=0)
    assert isinstance(env.action_space, PhoneActionSpace)
    assert env.action_space.can_type is not None
    assert copy.deepcopy(env.action_space).can_type is None
    assert pickle.loads(pickle.dumps(env.action_space)).can_type is None
    twin = pickle.loads(pickle.dumps(env))
    assert isinstance(twin.action_space, PhoneActionSpace)
    assert twin.action_space.can_type == twin._can_type  # bound to the twin, not to env


# --------------------------------------------------------------- vector envs and lists


def _vector(which: str) -> Any:
    """Two ClockDisableAlarm envs (no screenshot) in the vector env ``which``."""
    kwargs: dict[str, Any] = {"task": "ClockDisableAlarm", "screenshot": False}
    if which == "make_vec sync":
        return phone_gym.make_vec(2, vectorization_mode="sync", **kwargs)
    if which == "SyncVectorEnv":
        return gym.vector.SyncVectorEnv([lambda: gym.make("PhoneWorld-v0", **kwargs)] * 2)
    return phone_gym.make_vec(2, **kwargs)


@pytest.mark.parametrize("which", ["make_vec sync", "SyncVectorEnv", "make_vec async"])
def test_vector_envs_step_with_a_list_of_model_strings(which: str) -> None:
    vec = _vector(which)
    try:
        assert isinstance(vec.action_space, BatchedPhoneActionSpace)
        vec.reset(seed=0)
        *_, infos = vec.step(['open_app(app="Clock")', "wait(seconds=1)"])
        assert list(infos["action"]) == ['open_app(app="Clock")', "wait(seconds=1)"]
        *_, infos = vec.step([{"action": "press", "button": "back"},
                              PhoneAction("scroll", direction="down")])
        assert list(infos["action"]) == ['press(button="back")',
                                         'scroll(x=500, y=500, direction="down")']
        *_, infos = vec.step(("not an action", "wait(seconds=1)"))
        assert "could not parse" in infos["action_error"][0] and infos["action_error"][1] is None
        for bad, says in ((["wait(seconds=1)"], "1 actions for 2 envs"),
                          ("wait(seconds=1)", "a list of 2 actions"),
                          ({"text": ("a", "b")}, "missing")):
            with pytest.raises(ValueError, match=says) as raised:
                vec.step(bad)
            assert "batch_actions(texts, app_names)" in str(raised.value)
        app_names = vec.get_attr("app_names")[0]
        *_, infos = vec.step(batch_actions(["wait(seconds=1)", "wait(seconds=2)"], app_names))
        assert list(infos["action"]) == ["wait(seconds=1.0)", "wait(seconds=2.0)"]
        vec.action_space.seed(0)
        *_, infos = vec.step(vec.action_space.sample())  # batched samples still work
        assert len(infos["action"]) == 2
    finally:
        vec.close()


# -------------------------------------------------------------------------- no warnings


def test_making_and_stepping_phone_world_warns_about_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for kwargs in ({}, {"disable_env_checker": False}, {"max_episode_steps": 3}):
            env = gym.make("PhoneWorld-v0", **kwargs)
            env.reset(seed=0)
            env.step("click(x=500, y=500)")
            env.action_space.seed(0)
            env.step(env.action_space.sample())
            env.close()
        vec = phone_gym.make_vec(2, vectorization_mode="sync")
        vec.reset(seed=0)
        vec.step(vec.action_space.sample())
        vec.close()


def test_a_fresh_process_prints_no_warning() -> None:
    script = ("import gymnasium as gym, phone_gym\n"
              "env = gym.make('PhoneWorld-v0')\n"
              "env.reset(seed=0)\n"
              "env.step('click(x=500, y=500)')\n"
              "env.step('finish()')\n")
    done = subprocess.run([sys.executable, "-W", "error", "-c", script], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.fixture
def adb_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A virtual adb device's server port; the adb binary is a script that must not run."""
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone

    mark = tmp_path / "adb-was-started"
    script = tmp_path / "adb"
    script.write_text(f"#!/bin/sh\ntouch {mark}\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(script))
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as server:
        yield server.port
    assert not mark.exists()


def test_making_and_stepping_real_phone_warns_about_nothing(adb_server: int) -> None:
    pytest.importorskip("adbutils", reason="RealPhone-v0 needs the [real] extra")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make("RealPhone-v0", serial="emulator-5554", port=adb_server, settle=0.0,
                       timeout=5.0)
        env.reset(seed=0)
        env.step("wait(seconds=0)")
        env.close()


# ----------------------------------------------------------------- OpenCV image wrappers


def test_the_examples_extra_installs_opencv() -> None:
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(dep.startswith("opencv-python-headless") for dep in extras["examples"])
    assert any("examples" in dep for dep in extras["test"])


def test_gymnasium_image_wrappers_on_the_screenshot() -> None:
    cv2 = pytest.importorskip("cv2", reason="pip install -e '.[examples]' (OpenCV) to run it")
    from gymnasium.wrappers import GrayscaleObservation, ResizeObservation

    from phone_gym.envs.wrappers import PixelsOnly

    env = PixelsOnly(gym.make("PhoneWorld-v0", task="ClockDisableAlarm"))
    small = GrayscaleObservation(ResizeObservation(env, (120, 54)), keep_dim=True)
    obs, _ = small.reset(seed=0)
    assert obs.shape == (120, 54, 1) and obs.dtype == np.uint8 and obs in small.observation_space
    shot, _ = env.reset(seed=0)
    resized = cv2.resize(shot, (54, 120), interpolation=cv2.INTER_AREA)
    gray = np.sum(resized * np.array([0.2125, 0.7154, 0.0721]), axis=-1).astype(np.uint8)
    assert np.array_equal(obs[:, :, 0], gray)  # what Gymnasium's wrappers compute
    assert obs.std() > 0  # the home screen, not a blank image
    obs, *_ = small.step("click(x=500, y=500)")
    assert obs.shape == (120, 54, 1)
