"""A real phone kept usable (``real.upkeep``, ``real.first_run``, ``real.frames``), over the
virtual device: wake before each episode and after an idle gap, the screen kept on and the
owner's values put back, lock screens (with and without a credential), runtime permissions
granted on an Android 13+ profile, a first-run screen dismissed, black and FLAG_SECURE
frames reported, the foldable's display chosen, Do Not Disturb on Android 15, and templates
that cannot be set up skipped."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv
from phone_gym.mockapps import SetupError
from phone_gym.real.base import SetupRefused
from phone_gym.real.upkeep import KEEP_ON_MS, PhoneLocked
from phone_gym.virtual import LocalBackend, VirtualPhone
from phone_gym.virtual.commands.screen import FOLD_INNER

SETTINGS = "com.android.settings"
WAKE = ["input", "keyevent", "KEYCODE_WAKEUP"]


def make(phone: VirtualPhone, task: Any = "SettingsWifiOff", **kwargs: Any) -> RealPhoneEnv:
    kwargs.setdefault("screenshot", False)
    return RealPhoneEnv(backend=LocalBackend(phone), task=task, settle=0.0, **kwargs)


def setting(phone: VirtualPhone, namespace: str, key: str) -> str:
    return phone.shell(f"settings get {namespace} {key}")[1].decode().strip()


def since(phone: VirtualPhone, start: int) -> list[list[str]]:
    return list(phone.shell_log)[start:]


# --- wake, keep on, restore -------------------------------------------------------------------
def test_a_reset_wakes_the_phone_and_keeps_it_on_until_close() -> None:
    phone = VirtualPhone()
    phone.shell("settings put global stay_on_while_plugged_in 0")
    phone.shell("settings put system screen_off_timeout 30000")
    phone.shell("input keyevent KEYCODE_SLEEP")
    assert not phone.overlays.power.awake
    env = make(phone)
    env.reset(seed=0)
    assert phone.overlays.power.awake and WAKE in list(phone.shell_log)
    assert setting(phone, "global", "stay_on_while_plugged_in") == "15"  # AC|USB|wireless|dock
    assert setting(phone, "system", "screen_off_timeout") == str(KEEP_ON_MS)
    env.reset(seed=1)  # kept on once: the owner's values are still the ones saved
    env.close()
    assert setting(phone, "global", "stay_on_while_plugged_in") == "0"
    assert setting(phone, "system", "screen_off_timeout") == "30000"
    other = VirtualPhone()
    make(other, keep_awake=False).reset(seed=0)
    assert setting(other, "system", "screen_off_timeout") == "60000"


def test_kept_on_the_screen_outlasts_its_timeout() -> None:
    """With the timeout modelled (``Power.sleeps``), an hour of phone time turns a screen off
    that is not kept on, and not one that is."""
    for keep, awake in ((False, False), (True, True)):
        phone = VirtualPhone()
        phone.overlays.power.sleeps = True
        make(phone, keep_awake=keep).reset(seed=0)
        phone.device.wait(3600)
        phone.shell("true")  # time passes for the system at its next command
        assert phone.overlays.power.awake is awake


def test_after_an_idle_gap_the_phone_is_woken_before_the_action() -> None:
    phone = VirtualPhone()
    phone.overlays.power.sleeps = True
    env = make(phone, keep_awake=False, idle_gap=0.05)
    env.reset(seed=0)
    phone.device.wait(3600)  # the phone sat idle through a training update
    time.sleep(0.06)
    start = len(phone.shell_log)
    _, _, _, _, info = env.step('open_app(app="Settings")')
    ran = since(phone, start)
    assert ran.index(WAKE) < next(k for k, c in enumerate(ran) if c[0] == "monkey")
    assert info["action_error"] is None and phone.device.foreground == "Settings"


# --- lock screens -------------------------------------------------------------------------------
def test_a_lock_screen_that_needs_a_credential_stops_with_one_clear_error() -> None:
    phone = VirtualPhone()
    phone.overlays.power.set_lock("pin")
    phone.shell("input keyevent KEYCODE_POWER")
    with pytest.raises(PhoneLocked, match="emulator-5554 is locked with a PIN, pattern or "
                                          "password: unlock it"):
        make(phone).reset(seed=0)
    assert not [c for c in phone.shell_log if c[:2] in (["am", "start"], ["monkey", "-p"])]
    assert phone.overlays.power.keyguard  # nothing typed, nothing unlocked


def test_a_swipe_lock_is_dismissed() -> None:
    phone = VirtualPhone()
    phone.overlays.power.set_lock("swipe")
    phone.shell("input keyevent KEYCODE_POWER")
    env = make(phone)
    env.reset(seed=0)
    assert ["wm", "dismiss-keyguard"] in list(phone.shell_log)
    assert not phone.overlays.power.keyguard
    _, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["package"] == SETTINGS


def test_a_phone_that_locks_during_an_episode_ends_it_with_the_error() -> None:
    phone = VirtualPhone()
    env = make(phone, idle_gap=0.05)
    env.reset(seed=0)
    phone.overlays.power.set_lock("pin")
    phone.shell("input keyevent KEYCODE_POWER")  # the owner locked it meanwhile
    time.sleep(0.06)
    _, reward, terminated, truncated, info = env.step('open_app(app="Settings")')
    assert truncated and not terminated and reward == 0.0
    assert "is locked with a PIN" in info["device_error"]


# --- permissions and first-run screens ---------------------------------------------------------
def granted(phone: VirtualPhone, package: str, permission: str) -> bool:
    dump = phone.shell(f"dumpsys package {package}")[1].decode()
    return f"{permission}: granted=true" in dump


def test_permissions_are_granted_on_an_android_13_profile() -> None:
    notify = "android.permission.POST_NOTIFICATIONS"
    phone = VirtualPhone(profile="pixel-fresh")  # Android 14, apps just installed
    clock = "com.google.android.deskclock"
    assert not granted(phone, clock, notify)
    env = make(phone, task="ClockCreateAlarm")
    env.reset(seed=0)
    assert ["pm", "grant", clock, notify] in list(phone.shell_log)
    assert granted(phone, clock, notify)
    _, _, _, _, info = env.step('open_app(app="Clock")')
    assert info["package"] == clock  # no prompt over it
    # the fake prompts where nothing was granted: another app asks at launch
    phone.shell("monkey -p com.google.android.contacts 1")
    dump = phone.shell("uiautomator dump /dev/tty")[1].decode()
    assert "Allow Contacts to send you notifications?" in dump
    # Android 12L has no notification permission: nothing to grant
    old = VirtualPhone(profile="pixel-fresh")
    old.properties.update({"ro.build.version.sdk": "32", "ro.build.version.release": "12"})
    make(old, task="ClockCreateAlarm").reset(seed=0)
    assert not [c for c in old.shell_log if c[:2] == ["pm", "grant"] and notify in c]


def test_a_prompt_left_by_a_refused_grant_is_dismissed_by_the_profiles_rule() -> None:
    phone = VirtualPhone(profile="pixel-fresh")
    env = make(phone, task="ClockCreateAlarm", grant_permissions=False)
    env.reset(seed=0)
    assert not [c for c in phone.shell_log if c[:2] == ["pm", "grant"]]
    assert granted(phone, "com.google.android.deskclock", "android.permission.POST_NOTIFICATIONS")
    assert "permissioncontroller" not in phone.shell("uiautomator dump /dev/tty")[1].decode()


def test_a_first_run_screen_is_dismissed_at_reset() -> None:
    phone = VirtualPhone(profile="pixel-fresh")
    phone.shell("monkey -p net.gsantner.markor 1")
    assert "net.gsantner.markor:id/skip" in phone.shell("uiautomator dump /dev/tty")[1].decode()
    phone.shell("input keyevent KEYCODE_HOME")
    env = make(phone, task="MarkorCreateNote", privileged_info=True)
    env.reset(seed=0)
    assert "Markor" in phone.overlays.onboarded
    for _ in range(REAL_TEMPLATES["MarkorCreateNote"].max_steps):
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        assert info["action_error"] is None, info["action_error"]
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"]


# --- black frames and displays ---------------------------------------------------------------
def test_a_flag_secure_frame_is_reported_not_taken_as_the_screen() -> None:
    phone = VirtualPhone()
    phone.overlays.secure_packages.add(SETTINGS)
    env = make(phone, screenshot=True)
    _, info = env.reset(seed=0)
    assert info["frame"] is None
    obs, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["frame"] == (f"black frame: {SETTINGS} shows a FLAG_SECURE window, which "
                             "screenshots leave black (its UI tree is still read)")
    assert obs["screenshot"].max() == 0 and "Network & internet" in [
        e["text"] for e in info["ui_elements"]]
    obs, _, _, _, info = env.step('press(button="home")')
    assert info["frame"] is None and obs["screenshot"].max() > 0


def test_a_screen_that_went_off_is_woken_and_taken_again() -> None:
    phone = VirtualPhone()
    env = make(phone, screenshot=True)
    env.reset(seed=0)
    env.step('open_app(app="Settings")')
    phone.shell("input keyevent KEYCODE_POWER")  # off, between two steps
    start = len(phone.shell_log)
    obs, _, _, _, info = env.step("wait(seconds=0)")
    assert WAKE in since(phone, start) and phone.overlays.power.awake
    assert info["frame"] is None and obs["screenshot"].std() > 5


def test_a_foldable_is_captured_from_the_display_in_use() -> None:
    phone = VirtualPhone(profile="foldable")
    backend = LocalBackend(phone)
    assert np.asarray(backend.screenshot()).max() == 0  # screencap's first display: the cover
    env = RealPhoneEnv(backend=backend, task="SettingsWifiOff", settle=0.0)
    obs, info = env.reset(seed=0)
    assert env.profile is not None and env.profile.display == FOLD_INNER
    assert ["screencap", "-d", FOLD_INNER] in list(phone.shell_log)
    assert info["frame"] is None and obs["screenshot"].std() > 5
    plain = RealPhoneEnv(backend=LocalBackend(VirtualPhone()), task="SettingsWifiOff")
    assert plain.read_profile().display is None  # one display: screencap as ever


# --- Do Not Disturb on Android 15, templates that cannot be set up --------------------------
def android_15(phone: VirtualPhone) -> VirtualPhone:
    phone.properties.update({"ro.build.version.sdk": "35", "ro.build.version.release": "15"})
    phone.device.system.put_setting("global", "zen_mode", "1")  # the owner's own DND
    return phone


def test_dnd_that_the_shell_cannot_turn_off_is_reported() -> None:
    phone = android_15(VirtualPhone())
    with pytest.raises(SetupRefused, match="from Android 15 the shell turns off only the rule "
                                           "it set itself"):
        make(phone, task="SettingsDoNotDisturbOn").reset(seed=0)
    assert setting(phone, "global", "zen_mode") == "1"  # read back: still on
    on_14 = VirtualPhone()
    on_14.device.system.put_setting("global", "zen_mode", "1")
    make(on_14, task="SettingsDoNotDisturbOn").reset(seed=0)
    assert setting(on_14, "global", "zen_mode") == "0"  # up to Android 14 it turns off


def test_a_template_that_cannot_be_set_up_is_skipped_with_a_warning() -> None:
    phone = android_15(VirtualPhone())
    env = make(phone, task=["SettingsDoNotDisturbOn", "SettingsWifiOff"], privileged_info=True)
    seen = set()
    with pytest.warns(RuntimeWarning, match="skipped task 'SettingsDoNotDisturbOn', which "
                                            "cannot be set up on this phone: Do Not Disturb"):
        for seed in range(4):
            _, info = env.reset(seed=seed)
            seen.add(info["task_id"])
    assert seen == {"SettingsWifiOff"}
    with pytest.raises(SetupRefused):  # asked for by name: not replaced
        env.reset(seed=0, options={"task": "SettingsDoNotDisturbOn"})


def test_setups_that_all_fail_give_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for tid in ("ContactsDelete", "FilesRenameFile"):
        monkeypatch.setattr(type(REAL_TEMPLATES[tid]), "conflicts", lambda self, p, e: "a clash")
    env = make(VirtualPhone(), task=["ContactsDelete", "FilesRenameFile"])
    with pytest.warns(RuntimeWarning), pytest.raises(
            SetupError, match="no task could be set up on this phone \\(2 tried\\): "):
        env.reset(seed=0)
