"""PhoneWorldEnv: the Gymnasium contract, rewards, bad input, pickling."""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import phone_gym
from phone_gym.actions import PhoneAction
from phone_gym.envs import ENVS, PhoneWorldEnv
from phone_gym.envs.contract import END_KEYS, PRIVILEGED_KEYS, STEP_KEYS
from phone_gym.envs.registration import REAL_PHONE
from phone_gym.virtual import VirtualAdbServer, VirtualPhone

ALL_IDS = [env_id for env_id, _, _ in ENVS]
REAL_IDS = [env_id for env_id, entry, _ in ENVS if entry == REAL_PHONE]


@pytest.fixture(scope="module")
def virtual_device() -> Iterator[VirtualAdbServer]:
    os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as server:
        yield server


@pytest.mark.parametrize("render_mode", [None, "rgb_array"])
@pytest.mark.parametrize("env_id", ALL_IDS)
def test_check_env_every_registered_id(env_id: str, render_mode: str | None,
                                       request: pytest.FixtureRequest) -> None:
    kwargs: dict[str, object] = {}
    if env_id in REAL_IDS:  # a phone over adb: the virtual adb device stands in for it
        server = request.getfixturevalue("virtual_device")
        # a phone keeps what each reset wrote, so a task whose records would clash with the
        # last reset's gets other params: a settings task repeats exactly, as check_env asks
        kwargs = {"port": server.port, "settle": 0.0, "task": "SettingsWifiOn"}
    env = gym.make(env_id, render_mode=render_mode, **kwargs)
    check_env(env.unwrapped, skip_render_check=render_mode is None)
    env.close()


def test_registration_list_and_prefix() -> None:
    assert "PhoneWorld-v0" in ALL_IDS and REAL_IDS == ["RealPhone-v0"]
    assert len(ALL_IDS) == 2 + len(phone_gym.envs.select_templates())
    env = gym.make("phone_gym:PhoneWorld-v0")
    obs, info = env.reset(seed=0)
    assert obs["screenshot"].shape == (1200, 540, 3)
    assert obs["instruction"] == info["instruction"]


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_every_env_pickles_and_resumes_identically() -> None:
    for env_id in (i for i in ALL_IDS if i not in REAL_IDS):  # a real phone cannot be copied
        env = gym.make(env_id, privileged_info=True).unwrapped
        env.reset(seed=3)
        for _ in range(3):
            action = env.oracle_action()
            if action.type in ("answer", "finish"):
                break
            env.step(action)
        clone = pickle.loads(pickle.dumps(env))
        actions = [env.oracle_action() for _ in range(1)] + [
            PhoneAction("press", button="back"),
            PhoneAction("scroll", x=500, y=500, direction="down"),
        ]
        for action in actions:
            a = env.step(action)
            b = clone.step(action)
            assert np.array_equal(a[0]["screenshot"], b[0]["screenshot"]), env_id
            assert a[1:4] == b[1:4]
            assert a[4]["verdict"] == b[4]["verdict"]
            if env.ended:
                break


def test_info_contract() -> None:
    env = PhoneWorldEnv(task="NotesCreateNote")
    _, info = env.reset(seed=0)
    assert tuple(info) == STEP_KEYS  # nothing that gives the task away
    assert info["step"] == 0 and info["action_error"] is None
    _, _, terminated, _, end = env.step('finish(status="success")')
    assert terminated and set(end) == {*STEP_KEYS, *END_KEYS}
    assert end["task_id"] == "NotesCreateNote" and end["success"] is False
    _, info = PhoneWorldEnv(task="NotesCreateNote", privileged_info=True).reset(seed=0)
    assert set(info) == {*STEP_KEYS, *END_KEYS, *PRIVILEGED_KEYS}
    assert info["task_id"] == "NotesCreateNote" and info["params"]["title"]
    labels = {e["text"] for e in info["ui_elements"]}
    assert "Notes" in labels and "Contacts" in labels
    element = info["ui_elements"][0]
    assert {"bounds", "bounds_norm", "clickable", "resource_id", "class_name"} <= set(element)


def test_oracle_reward_one_and_finish_at_once_zero() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    env.reset(seed=5)
    obs, reward, terminated, truncated, info = env.step("finish(status=\"success\")")
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    env.reset(seed=5)
    total, done, steps = 0.0, False, 0
    while not done:
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        total += reward
        steps += 1
        done = terminated or truncated
        if not done:
            assert reward == 0.0
    assert terminated and total == 1.0 and info["success"]
    assert steps == info["step"]


def test_infeasible_fails_and_budget_truncates() -> None:
    env = PhoneWorldEnv(task="NotesPinNote", max_steps=3)
    env.reset(seed=0)
    *_, info = env.step(PhoneAction("finish", status="infeasible"))
    assert not info["success"] and "infeasible" in info["verdict"]
    env.reset(seed=0)
    results = [env.step(PhoneAction("wait", seconds=1)) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert [r[2] for r in results] == [False, False, False]
    assert results[-1][1] == 0.0


def test_end_on_success_terminates_early() -> None:
    env = PhoneWorldEnv(task="NotesPinNote", end_on_success=True)
    env.reset(seed=2)
    for _ in range(30):
        action = env.oracle_action()
        assert action.type != "finish", "oracle reached finish: end_on_success did not fire"
        _, reward, terminated, _, info = env.step(action)
        if terminated:
            assert reward == 1.0 and info["success"]
            return
    pytest.fail("episode never ended")


def test_ui_in_obs_and_no_screenshot_mode() -> None:
    env = PhoneWorldEnv(ui_in_obs=True, screenshot=False)
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"instruction", "ui"}
    assert "Contacts" in obs["ui"] and env.observation_space.contains(obs)


def test_reset_option_picks_task_and_seed_is_deterministic() -> None:
    env = PhoneWorldEnv(privileged_info=True)
    _, info = env.reset(seed=1, options={"task": "ClockAddAlarm"})
    assert info["task_id"] == "ClockAddAlarm"
    a = [PhoneWorldEnv(privileged_info=True).reset(seed=s)[1]["params"] for s in range(5)]
    b = [PhoneWorldEnv(privileged_info=True).reset(seed=s)[1]["params"] for s in range(5)]
    assert a == b and len({str(p) for p in a}) > 1


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"task": "NoSuchTask"}, "phone-gym tasks"),
        ({"task": "NotesCreateNot"}, "did you mean 'NotesCreateNote'"),
        ({"apps": ["Calculator"]}, "Contacts"),
        ({"apps": ["Contact"]}, "did you mean 'Contacts'"),
        ({"render_mode": "human"}, "rgb_array"),
        ({"obs_size": (0, 10)}, "width, height"),
        ({"max_steps": 0}, "positive"),
    ],
)
def test_bad_constructor_arguments(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        PhoneWorldEnv(**kwargs)  # type: ignore[arg-type]


def test_step_before_reset_says_what_to_do() -> None:
    with pytest.raises(gym.error.ResetNeeded, match="reset"):
        PhoneWorldEnv().step("wait(seconds=1)")


def test_new_episode_never_shows_the_previous_screen() -> None:
    env = PhoneWorldEnv()
    env.reset(seed=0)
    env.step('open_app(app="Clock")')
    env.step('finish(status="success")')
    obs, _ = env.reset(seed=0)
    fresh, _ = PhoneWorldEnv().reset(seed=0)
    assert np.array_equal(obs["screenshot"], fresh["screenshot"])  # the home screen again


def test_quiet_steps_keep_frame_and_verdict_but_not_stale_ones() -> None:
    env = PhoneWorldEnv(task="NotesCreateNote")
    env.reset(seed=0)
    env.step('open_app(app="Notes")')
    version = env.device.version
    obs, *_ = env.step("click(x=500, y=700)")  # empty space below the notes: nothing happens
    assert env.device.version == version
    env.step("click(x=880, y=890)")  # the "+" button: the editor opens
    assert env.device.version != version
    assert env.device.current_app.route.name == "edit"


def test_the_oracle_labels_any_step_of_an_agents_episode() -> None:
    """DAgger-style: an agent acts, the oracle is asked at every step and still solves the
    task from wherever the agent left the phone; after damage it says so."""
    from phone_gym.mockapps import Unrecoverable

    env = PhoneWorldEnv(task="NotesRenameNote", screenshot=False)
    env.reset(seed=4)
    agent = ['open_app(app="Notes")', "click(x=500, y=400)", 'type(text="zz")',
             'press(button="back")', 'open_app(app="Clock")']
    for action in agent:
        assert isinstance(env.oracle_action(), PhoneAction)  # a label for this state
        env.step(action)
    for _ in range(30):
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"], info["verdict"]
    env.reset(seed=5)
    notes = env.unwrapped.device.app("Notes").data.notes
    notes.remove(notes.keys()[0])  # the agent deleted a note the task did not ask about
    env.step('open_app(app="Notes")')
    with pytest.raises(Unrecoverable, match="cannot succeed from here"):
        env.oracle_action()


def oracle_length(task_id: str, seed: int) -> int:
    env = PhoneWorldEnv(task=task_id, screenshot=False)
    env.reset(seed=seed)
    n = 0
    while (action := env.oracle_action()).type not in ("answer", "finish"):
        env.step(action)
        n += 1
    return n


@pytest.mark.parametrize("task_id", ["NotesPinNote", "ContactsLookupPhone", "SettingsWifiOff"])
def test_a_time_limit_from_gym_make_scores_the_final_state(task_id: str) -> None:
    """``gym.make(id, max_episode_steps=N)`` truncates with the verifier's score: a task
    solved within N steps (but not finished) earns 1, one left undone 0; N is below the
    task's own budget, so the ``TimeLimit`` is what ends the episode."""
    n = oracle_length(task_id, 2)
    for limit, solved in ((n + 1, task_id != "ContactsLookupPhone"), (n - 1, False)):
        env = gym.make(f"PhoneWorld-{task_id}-v0", screenshot=False, max_episode_steps=limit)
        assert limit < env.unwrapped.templates[0].max_steps
        env.reset(seed=2)
        for step in range(limit):
            action = env.unwrapped.oracle_action()
            if action.type in ("answer", "finish") or step >= n:
                action = PhoneAction("press", button="home")  # solved: only wait
            _, reward, terminated, truncated, info = env.step(action)
            assert not terminated and truncated == (step == limit - 1)
        assert reward == float(solved) and info["success"] is solved, info["verdict"]
        with pytest.raises(gym.error.ResetNeeded):
            env.step('answer(text="x")')


def test_a_second_end_cannot_change_the_reward() -> None:
    env = PhoneWorldEnv(task="ContactsLookupPhone", screenshot=False)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step('answer(text="nothing")')
    assert terminated and reward == 0.0 and info["success"] is False
    for late in ('answer(text="+1 415-555-0100")', 'finish(status="success")', "wait()"):
        with pytest.raises(gym.error.ResetNeeded):
            env.step(late)
    assert env.privileged_info()["success"] is False
