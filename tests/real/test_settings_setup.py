"""Settings setups that act and are confirmed, and brightness as Android keeps it, on the
virtual device configured to behave as a phone does (``tests/virtual/test_services.py``
checks those behaviours against AOSP): a ``settings put`` of ``wifi_on``, ``bluetooth_on`` or
``ui_night_mode`` switches nothing and a ``zen_mode`` write is reverted, so each setup must
use the service's own command and read the state back; adaptive brightness rewrites
``screen_brightness``; Settings shows brightness on a gamma curve; ``wifi_on`` 2 and 3 are
Wi-Fi on and off in airplane mode."""

from __future__ import annotations

from typing import Any

import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv
from phone_gym.mockapps import REGISTRY
from phone_gym.mockapps.settings.app import (
    AIRPLANE,
    BLUETOOTH,
    DARK_THEME,
    DO_NOT_DISTURB,
    WIFI,
    Switch,
    is_on,
    level_of_percent,
)
from phone_gym.real.base import ShellResult
from phone_gym.real.state import AdbState
from phone_gym.real.watch import task_watch
from phone_gym.verifiers.state import DeviceError
from phone_gym.virtual import LocalBackend, VirtualPhone

SWITCH_TASKS: dict[str, tuple[Switch, bool]] = {
    "SettingsWifiOff": (WIFI, False), "SettingsWifiOn": (WIFI, True),
    "SettingsBluetoothOn": (BLUETOOTH, True), "SettingsBluetoothOff": (BLUETOOTH, False),
    "SettingsAirplaneModeOn": (AIRPLANE, True), "SettingsDarkThemeOn": (DARK_THEME, True),
    "SettingsDoNotDisturbOn": (DO_NOT_DISTURB, True)}
#: The command each switch's setup must run on a phone.
SERVICE = {WIFI: "wifi", BLUETOOTH: "bluetooth_manager", AIRPLANE: "connectivity",
           DARK_THEME: "uimode", DO_NOT_DISTURB: "notification"}


def env_on(phone: VirtualPhone, task: str | None = None, **kwargs: Any) -> RealPhoneEnv:
    return RealPhoneEnv(backend=LocalBackend(phone), task=task, settle=0.0, screenshot=False,
                        **kwargs)


def play(env: RealPhoneEnv, *, oracle: bool) -> dict[str, Any]:
    """The rest of the episode: the scripted policy, or an agent that says it is done."""
    assert env.episode is not None
    for _ in range(env.episode.template.max_steps):
        action = env.oracle_action() if oracle else 'finish(status="success")'
        _, _, terminated, truncated, info = env.step(action)
        assert info["device_error"] is None, info["device_error"]
        if terminated or truncated:
            return info
    raise AssertionError("the episode did not end")


def put_world(phone: VirtualPhone, switch: Switch, on: bool) -> None:
    """The phone really in that state (as its owner left it), not only its table."""
    phone.device.system.put_setting(switch.namespace, switch.key,
                                    switch.on if on else switch.off)


@pytest.mark.parametrize("task", sorted(SWITCH_TASKS))
def test_a_switch_setup_switches_the_phone_even_when_the_task_is_already_done(task: str) -> None:
    switch, target = SWITCH_TASKS[task]
    phone = VirtualPhone()
    put_world(phone, switch, target)  # the owner left it as the task asks
    env = env_on(phone, task)
    env.reset(seed=0)
    assert is_on(phone.device.system, switch) is (not target), "the setup switched nothing"
    assert any(argv[:2] == ["cmd", SERVICE[switch]] for argv in phone.shell_log)
    assert not play(env, oracle=False)["success"]  # not solved before the agent acts
    env.reset(seed=0)
    info = play(env, oracle=True)
    assert info["success"], info["verdict"]
    assert is_on(phone.device.system, switch) is target
    env.close()


class Deaf(LocalBackend):
    """A phone that accepts the services' commands and switches nothing (a radio missing, a
    policy lock)."""

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        if command.startswith(("cmd wifi ", "svc wifi ")):
            return ShellResult(0, "")
        return super().shell(command, timeout)


class OldAndroid(LocalBackend):
    """An Android 10 phone: no ``cmd wifi`` service, ``svc wifi`` instead (cmd.cpp's
    answer for a missing service)."""

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        if command.startswith("cmd wifi "):
            return ShellResult(20, "cmd: Can't find service: wifi\n")
        return super().shell(command, timeout)


class Refusing(LocalBackend):
    """A phone with neither ``cmd wifi`` nor ``svc wifi``."""

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        if command.startswith(("cmd wifi ", "svc wifi ")):
            return ShellResult(20, "cmd: Can't find service: wifi\n")
        return super().shell(command, timeout)


def test_a_setting_that_does_not_switch_fails_the_reset_clearly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AdbState, "confirm_timeout", 0.3)
    phone = VirtualPhone()
    env = RealPhoneEnv(backend=Deaf(phone), task="SettingsWifiOn", settle=0.0, screenshot=False)
    with pytest.raises(DeviceError, match=r"global\.wifi_on .* still reads '1', not '0', 0\.3 s "
                                          r"after `cmd wifi set-wifi-enabled disabled`"):
        env.reset(seed=0)


def test_wifi_falls_back_to_svc_and_values_are_checked() -> None:
    phone = VirtualPhone()
    state = AdbState(OldAndroid(phone))
    state.put_setting("global", "wifi_on", "0")
    assert phone.device.system.get_setting("global", "wifi_on") == "0"
    assert ["svc", "wifi", "disable"] in list(phone.shell_log)
    with pytest.raises(ValueError, match=r"global\.wifi_on='7'; accepted: '1', '0'"):
        state.put_setting("global", "wifi_on", "7")
    with pytest.raises(DeviceError, match="refused every command that switches global.wifi_on"):
        AdbState(Refusing(phone)).put_setting("global", "wifi_on", "1")


# --- wifi_on 2 and 3 ------------------------------------------------------------------------
def test_wifi_states_of_airplane_mode_read_as_on_and_off() -> None:
    on = REAL_TEMPLATES["SettingsWifiOn"].value({})  # type: ignore[attr-defined]
    off = REAL_TEMPLATES["SettingsWifiOff"].value({})  # type: ignore[attr-defined]
    assert on("1") and on("2") and not on("0") and not on("3")
    assert off("0") and off("3") and not off("1") and not off("2")


def test_wifi_on_in_airplane_mode_passes() -> None:
    phone = VirtualPhone()
    phone.shell("cmd connectivity airplane-mode enable")  # the owner flies
    assert phone.device.system.get_setting("global", "wifi_on") == "3"
    env = env_on(phone, "SettingsWifiOn")
    env.reset(seed=0)
    info = play(env, oracle=True)
    assert phone.device.system.get_setting("global", "wifi_on") == "2"  # on, in airplane mode
    assert info["success"], info["verdict"]
    env.reset(seed=0, options={"task": "SettingsWifiOff"})  # from 2 (on) to off
    info = play(env, oracle=True)
    assert info["success"], info["verdict"]
    env.close()


# --- brightness ---------------------------------------------------------------------------------
def adaptive_phone() -> VirtualPhone:
    """A phone with adaptive brightness on (the default on Pixels)."""
    phone = VirtualPhone()
    phone.shell("settings put system screen_brightness_mode 1")
    return phone


def test_adaptive_brightness_does_not_fail_a_wifi_task() -> None:
    phone = adaptive_phone()
    env = env_on(phone, "SettingsWifiOff")
    env.reset(seed=0)
    start = phone.device.system.get_setting("system", "screen_brightness")
    info = play(env, oracle=True)
    assert phone.device.system.get_setting("system", "screen_brightness") != start  # it moved
    assert info["success"], info["verdict"]
    watched = task_watch(REAL_TEMPLATES["SettingsWifiOff"], REGISTRY.manifests).settings
    assert ("system", "screen_brightness") not in watched
    assert ("system", "screen_brightness") in task_watch(
        REAL_TEMPLATES["SettingsSetBrightness"], REGISTRY.manifests).settings
    env.close()


@pytest.mark.parametrize("target", [25, 75, 90])
def test_brightness_targets_pass_in_manual_mode_restored_afterwards(
        monkeypatch: pytest.MonkeyPatch, target: int) -> None:
    template = REAL_TEMPLATES["SettingsSetBrightness"]
    start = 50 if target > 50 else 70
    monkeypatch.setattr(template, "sample_params",
                        lambda rng: {"percent": target, "start": level_of_percent(start)})
    phone = adaptive_phone()
    env = env_on(phone, "SettingsSetBrightness")
    env.reset(seed=0)
    system = phone.device.system
    assert system.get_setting("system", "screen_brightness_mode") == "0"  # manual
    assert system.get_setting("system", "screen_brightness") == str(level_of_percent(start))
    assert not play(env, oracle=False)["success"]
    env.reset(seed=0)
    info = play(env, oracle=True)
    assert info["success"], info["verdict"]
    assert system.get_setting("system", "screen_brightness_mode") == "0"
    env.reset(seed=0, options={"task": "SettingsWifiOff"})  # the next reset restores it
    assert system.get_setting("system", "screen_brightness_mode") == "1"
    env.reset(seed=0, options={"task": "SettingsSetBrightness"})
    assert system.get_setting("system", "screen_brightness_mode") == "0"
    env.close()  # and so does close
    assert system.get_setting("system", "screen_brightness_mode") == "1"
