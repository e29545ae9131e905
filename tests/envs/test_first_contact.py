"""A new user's first mistakes get errors that say what to do (issue 10): a landscape
``obs_size``, a bool where a number goes, a PhoneWorld-only task id on a phone (the real
id that does the same job is named, with ``phone-gym tasks --real``), an unknown id in
PhoneWorld (ids suggested, with ``phone-gym tasks``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401 - registers the ids
from phone_gym.cli import main
from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.contract import check_args
from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv, select_real_templates
from phone_gym.mockapps import TEMPLATES
from phone_gym.tasks.registry import job, same_job, setting_values

ENVS = [PhoneWorldEnv, RealPhoneEnv]  # RealPhoneEnv checks its arguments before connecting


# --- arguments ---------------------------------------------------------------------------------
@pytest.mark.parametrize("env_class", ENVS)
def test_a_landscape_obs_size_names_the_portrait_one(env_class: type) -> None:
    with pytest.raises(ValueError) as err:
        env_class(obs_size=(1200, 540))
    assert "obs_size is (width, height) of a portrait phone: did you mean (540, 1200)?" in str(
        err.value)
    with pytest.raises(ValueError, match=r"did you mean \(300, 301\)"):
        env_class(obs_size=(301, 300))


@pytest.mark.parametrize("env_id", ["PhoneWorld-v0", "RealPhone-v0"])
def test_gym_make_refuses_a_landscape_size_too(env_id: str) -> None:
    with pytest.raises(ValueError, match="portrait phone"):
        gym.make(env_id, obs_size=(1200, 540))


def test_portrait_and_square_sizes_and_numpy_ints_are_accepted() -> None:
    assert check_args(None, (540, 1200), None) == (540, 1200)
    assert check_args(None, (64, 64), 5) == (64, 64)
    assert check_args(None, [np.int64(135), np.int32(300)], np.int64(3)) == (135, 300)
    assert all(type(v) is int for v in check_args(None, (np.int64(135), 300), None))
    env = PhoneWorldEnv(obs_size=(108, 240), task="SettingsWifiOff")
    obs, _ = env.reset(seed=0)
    assert obs["screenshot"].shape == (240, 108, 3)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"max_steps": True}, "max_steps=True"),  # a bool is not a step budget (it was 1 step)
    ({"max_steps": 2.5}, "positive int"),
    ({"obs_size": (True, 1200)}, "ints in 16..4096"),
    ({"obs_size": (540.0, 1200.0)}, "ints in 16..4096"),
    ({"obs_size": 540}, "(width, height)"),
])
@pytest.mark.parametrize("env_class", ENVS)
def test_misused_arguments_raise(env_class: type, kwargs: dict[str, object],
                                 fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        env_class(**kwargs)


# --- task ids ----------------------------------------------------------------------------------
@pytest.mark.parametrize("world_id, real_id", [
    ("SettingsTurnOffWifi", "SettingsWifiOff"),
    ("SettingsSetDarkTheme", "SettingsDarkThemeOn"),
    ("ContactsAddContact", "ContactsCreate"),
    ("ContactsDeleteContact", "ContactsDelete"),
    ("ClockAddAlarm", "ClockCreateAlarm"),
])
def test_a_phoneworld_only_id_on_a_phone_names_the_real_one(world_id: str, real_id: str) -> None:
    with pytest.raises(ValueError) as err:
        gym.make("RealPhone-v0", task=world_id)
    message = str(err.value)
    assert f"task {world_id!r} runs in PhoneWorld only" in message
    assert f"did you mean {real_id!r}?" in message
    assert "phone-gym tasks --real" in message
    with pytest.raises(ValueError, match=f"did you mean {real_id!r}"):
        select_real_templates(["SettingsWifiOn", world_id])


def test_no_suggestion_where_no_real_task_does_the_job() -> None:
    with pytest.raises(ValueError) as err:
        RealPhoneEnv(task="NotesPinNote")
    assert "runs in PhoneWorld only (its setup, checks or oracle need more" in str(err.value)
    assert "did you mean" not in str(err.value) and "phone-gym tasks --real" in str(err.value)


def test_a_setting_task_is_matched_by_the_value_it_sets() -> None:
    """Turning Wi-Fi off is not the job of ``SettingsWifiOn`` (same setting, other value);
    "turn {state} the dark theme" (on or off) shares a value with ``SettingsDarkThemeOn``."""
    real = REAL_TEMPLATES.values()
    assert [t.id for t in same_job(TEMPLATES["SettingsTurnOffWifi"], real)] == ["SettingsWifiOff"]
    assert [t.id for t in same_job(TEMPLATES["SettingsSetDarkTheme"], real)] == [
        "SettingsDarkThemeOn"]
    # off, or off while airplane mode is on
    assert setting_values(TEMPLATES["SettingsTurnOffWifi"]) == {"0", "3"}
    assert setting_values(TEMPLATES["SettingsSetBrightness"]) is None  # a range: any level
    assert setting_values(TEMPLATES["NotesPinNote"]) is None  # no setting


@pytest.mark.parametrize("task", [5, ["SettingsWifiOff", None], [["SettingsWifiOff"]]])
def test_a_task_that_is_not_an_id_raises_value_error(task: object) -> None:
    with pytest.raises(ValueError, match="accepted: a task id, a list of ids or None"):
        select_real_templates(task)  # type: ignore[arg-type]


def test_every_suggested_real_id_does_the_same_job() -> None:
    for task in TEMPLATES.values():
        if task.real:
            continue
        for twin in same_job(task, REAL_TEMPLATES.values()):
            assert twin.real and twin.apps == task.apps and job(twin) == job(task), task.id
            mine, theirs = setting_values(task), setting_values(twin)
            assert mine is None or theirs is None or mine & theirs, (task.id, twin.id)


def test_an_unknown_id_on_a_phone_suggests_real_ids_and_both_listings() -> None:
    with pytest.raises(ValueError) as err:
        RealPhoneEnv(task="SettingsWifiOf")
    message = str(err.value)
    assert "unknown task 'SettingsWifiOf' (did you mean 'SettingsWifiOff'" in message
    assert "phone-gym tasks --real" in message and "`phone-gym tasks`" in message


def test_an_unknown_id_in_phoneworld_suggests_ids_and_the_listing() -> None:
    with pytest.raises(ValueError) as err:
        gym.make("PhoneWorld-v0", task="SettingsTurnOffWify")
    message = str(err.value)
    assert "did you mean 'SettingsTurnOffWifi'" in message and "phone-gym tasks" in message


def test_the_cli_says_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--real", "--task", "SettingsTurnOffWifi"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'SettingsWifiOff'?" in err and "phone-gym tasks --real" in err
