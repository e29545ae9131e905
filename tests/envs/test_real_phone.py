"""RealPhone-v0 end to end: adbutils, the adb protocol and the virtual device serving a
PhoneWorld phone. No adb binary runs: ``ADBUTILS_ADB_PATH`` points at a script that only
leaves a mark, and the last test checks that no mark was left."""

from __future__ import annotations

import copy
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from phone_gym.actions import PhoneAction
from phone_gym.envs.contract import END_KEYS, STEP_KEYS
from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv
from phone_gym.real.backend import BootIdentity
from phone_gym.real.guard import SafetyGuard
from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.virtual.phone import BOOT_ID_PATH
from phone_gym.world.a11y import ui_elements

SERIAL = "emulator-5554"
MARK = Path(os.environ.get("TMPDIR", "/tmp")) / f"phone-gym-adb-spawned-{os.getpid()}"


@pytest.fixture(scope="module", autouse=True)
def fake_adb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    script = tmp_path_factory.mktemp("adb") / "adb"
    script.write_text(f"#!/bin/sh\ntouch {MARK}\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    old = os.environ.get("ADBUTILS_ADB_PATH")
    os.environ["ADBUTILS_ADB_PATH"] = str(script)
    MARK.unlink(missing_ok=True)
    yield
    if old is None:
        os.environ.pop("ADBUTILS_ADB_PATH", None)
    else:
        os.environ["ADBUTILS_ADB_PATH"] = old


@pytest.fixture(scope="module")
def phone() -> VirtualPhone:
    return VirtualPhone(SERIAL)


@pytest.fixture(scope="module")
def server(phone: VirtualPhone) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer([phone, VirtualPhone("emulator-5556")]) as srv:
        yield srv


@pytest.fixture(autouse=True)
def no_faults(server: VirtualAdbServer) -> Iterator[None]:
    server.faults.clear()
    yield
    server.faults.clear()


def make(server: VirtualAdbServer, **kwargs: Any) -> RealPhoneEnv:
    kwargs.setdefault("timeout", 3.0)
    kwargs.setdefault("privileged_info", True)  # tests read params; the policy: test_info_*
    return RealPhoneEnv(serial=SERIAL, port=server.port, settle=0.0, **kwargs)


def center(info: dict[str, Any], text: str) -> dict[str, int]:
    found = [e for e in info["ui_elements"] if e["text"] == text or e["content_desc"] == text]
    assert found, f"{text!r} not on screen: {[e['text'] for e in info['ui_elements']]}"
    x, y = found[-1]["center_norm"]
    return {"x": x, "y": y}


def texts(info: dict[str, Any]) -> list[str]:
    return [e["text"] for e in info["ui_elements"]]


# --- observation --------------------------------------------------------------------------
def test_screenshot_and_ui_tree_are_the_phones(server: VirtualAdbServer,
                                               phone: VirtualPhone) -> None:
    env = make(server, task="SettingsWifiOff", ui_in_obs=True)
    obs, info = env.reset(seed=0)
    obs, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["action_error"] is None and info["package"] == "com.android.settings"
    shot = obs["screenshot"]
    assert shot.shape == (1200, 540, 3) and shot.dtype == np.uint8 and shot.std() > 5
    from phone_gym.world.render import Renderer

    expected = Renderer(540, 1200).render(phone.device.frame()).astype(int)
    assert np.abs(shot.astype(int) - expected).mean() < 3  # PNG round trip and resize
    local = [e.text for e in ui_elements(phone.device.frame())]
    assert texts(info) == local and "Network & internet" in local
    assert "Network & internet" in obs["ui"]
    assert env.observation_space.contains(obs)


# --- every action type ------------------------------------------------------------------
def test_every_action_type_reaches_the_phone(server: VirtualAdbServer,
                                             phone: VirtualPhone) -> None:
    env = make(server, task="ContactsCreate", max_steps=40,  # Settings besides the task's app
               guard=SafetyGuard(extra_packages={"com.android.settings"}))
    _, info = env.reset(seed=1)
    device = phone.device
    steps: list[Any] = []

    def step(action: Any) -> dict[str, Any]:
        _, _, terminated, truncated, info = env.step(action)
        steps.append(action)
        assert info["action_error"] is None, (action, info["action_error"])
        assert not truncated
        return info

    info = step('open_app(app="Contacts")')
    assert device.foreground == "Contacts"
    info = step({"action": "scroll", "x": 500, "y": 600, "direction": "down"})
    info = step({"action": "scroll", "x": 500, "y": 600, "direction": "up"})
    name = next(p["name"] for p in info["params"]["people"] if p["name"] != info["params"]["name"])
    info = step({"action": "long_press", **center(info, name)})
    assert "Delete" in texts(info)  # the long-press menu
    info = step('press(button="back")')
    assert "Delete" not in texts(info)
    info = step({"action": "click", **center(info, "Create contact")})
    info = step({"action": "click", **center(info, "Name")})
    info = step('type(text="Ada")')
    info = step('press(button="enter")')
    assert any(t.startswith("Ada") for t in texts(info))
    info = step({"action": "double_click", **center(info, "Ada")})
    info = step('press(button="home")')
    assert device.foreground is None
    info = step('press(button="recents")')
    assert device.show_recents
    info = step('press(button="home")')
    info = step('open_app(app="Settings")')
    info = step({"action": "click", **center(info, "Display")})
    bar = next(e for e in info["ui_elements"] if e["class_name"].endswith("SeekBar"))
    x0, _, x1, _ = bar["bounds_norm"]
    y = bar["center_norm"][1]
    before = device.system.get_setting("system", "screen_brightness")
    info = step({"action": "drag", "x": bar["center_norm"][0], "y": y, "x2": x1 - 5, "y2": y})
    assert int(device.system.get_setting("system", "screen_brightness") or 0) > int(before or 0)
    now = device.system.now
    info = step('wait(seconds=3)')
    assert (device.system.now - now).total_seconds() >= 3
    info = step('close_app(app="Settings")')
    assert device.foreground is None and "Settings" not in device.recents
    _, reward, terminated, _, info = env.step('answer(text="done")')
    assert terminated and info["answer"] == "done" and reward == 0.0
    assert [r["step"] for r in env.trajectory] == list(range(1, len(steps) + 2))


def test_bad_actions_are_no_op_steps(server: VirtualAdbServer, phone: VirtualPhone) -> None:
    env = make(server, task="SettingsWifiOff")
    env.reset(seed=0)
    log = len(phone.shell_log)
    for action, message in [("click(x=2000, y=5)", "out of range"), ("rm -rf /", ""),
                            ('open_app(app="NoSuchApp")', "unknown app"),
                            ('type(text="héllo")', "ASCII")]:
        _, reward, terminated, truncated, info = env.step(action)
        assert info["action_error"] and message in info["action_error"]
        assert (reward, terminated, truncated) == (0.0, False, False)
    assert not any(cmd[0] == "input" for cmd in list(phone.shell_log)[log:])


# --- quoting and the guard -------------------------------------------------------------------
@pytest.mark.parametrize("text", ["'; rm -rf / #", "$(reboot)", "`reboot` && reboot"])
def test_typed_text_arrives_literally(server: VirtualAdbServer, phone: VirtualPhone,
                                      text: str) -> None:
    env = make(server, task="ContactsCreate")
    env.reset(seed=0)
    _, _, _, _, info = env.step('open_app(app="Contacts")')
    _, _, _, _, info = env.step({"action": "click", **center(info, "Create contact")})
    _, _, _, _, info = env.step({"action": "click", **center(info, "Name")})
    log = len(phone.shell_log)
    _, _, _, _, info = env.step({"action": "type", "text": text})
    assert info["action_error"] is None
    assert text in texts(info)
    ran = [cmd[0] for cmd in list(phone.shell_log)[log:]  # but the UI dumps' own removals
           if not (len(cmd) == 3 and cmd[:2] == ["rm", "-f"]
                   and cmd[2].startswith("/data/local/tmp/phone_gym_"))]
    assert "rm" not in ran and "reboot" not in ran, ran
    assert set(ran) <= {"input", "uiautomator", "cat", "dumpsys", "screencap"}, ran


def test_guard_blocks_a_forbidden_package_and_key(server: VirtualAdbServer,
                                                  phone: VirtualPhone) -> None:
    env = make(server, task="SettingsWifiOff",
               guard=SafetyGuard(allowed_keys=("back", "home")),
               packages={"Play Store": "com.android.vending"})
    env.reset(seed=0)
    log = len(phone.shell_log)
    _, _, _, _, info = env.step('open_app(app="Play Store")')
    assert "safety guard" in info["action_error"] and "com.android.vending" in info[
        "action_error"]
    _, _, _, _, info = env.step('press(button="recents")')
    assert "safety guard" in info["action_error"] and "recents" in info["action_error"]
    assert not any(cmd[0] in ("monkey", "input") for cmd in list(phone.shell_log)[log:])
    assert not phone.device.show_recents


def test_guard_leaves_an_app_reached_another_way(server: VirtualAdbServer,
                                                 phone: VirtualPhone) -> None:
    env = make(server, task="SettingsWifiOff")  # the default guard: the task's apps only
    env.reset(seed=0)
    phone.shell("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    _, _, _, _, info = env.step("wait(seconds=1)")
    assert info["guard"]["verdict"] == "sent home"
    assert info["guard"]["package"] == "com.google.android.deskclock"
    assert phone.device.foreground is None


# --- tasks ----------------------------------------------------------------------------------
def solve(env: RealPhoneEnv, seed: int) -> tuple[float, dict[str, Any]]:
    env.reset(seed=seed)
    for _ in range(env.episode.template.max_steps if env.episode else 0):
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        assert info["action_error"] is None, info["action_error"]
        if terminated or truncated:
            return reward, info
    raise AssertionError("the scripted policy did not finish")


@pytest.fixture(scope="module")
def profiled() -> Iterator[VirtualAdbServer]:
    """Phones named after their profile (``VirtualPhone(profile=...)``): a Pixel's package
    names and an AOSP build's."""
    with VirtualAdbServer([VirtualPhone("pixel", profile="pixel"),
                           VirtualPhone("aosp", profile="aosp")]) as srv:
        yield srv


@pytest.mark.parametrize("profile", ["pixel", "aosp"])
@pytest.mark.parametrize("task", sorted(REAL_TEMPLATES))
def test_template_solved_over_adb_and_fails_on_no_op(profiled: VirtualAdbServer,
                                                     task: str, profile: str) -> None:
    """The whole matrix on a Pixel; the oracle on seed 0 and the no-op on an AOSP build
    (``tests/real/test_profiles.py`` runs its whole matrix in process)."""
    env = RealPhoneEnv(serial=profile, port=profiled.port, settle=0.0, timeout=3.0,
                       privileged_info=True, task=task,  # the SMS tasks need the opt-in
                       guard=SafetyGuard(allow_sensitive={"messaging"}))
    for seed in (0, 1) if profile == "pixel" else (0,):
        reward, info = solve(env, seed)
        assert reward == 1.0 and info["success"], info["verdict"]
        assert env.episode is not None
        template, episode = env.episode.template, env.episode
        final = episode.host.snapshot(template)
        answer = info["answer"]
        misses = template.near_misses(episode.initial, final, episode.params, answer)
        assert misses
        for miss in misses:
            assert not template.judge(episode.initial, miss.state, episode.params,
                                      miss.answer, miss.status).success, miss.why
        damaged = copy.deepcopy(final)
        damaged["settings"]["global"]["zen_mode"] = (
            "0" if damaged["settings"]["global"]["zen_mode"] == "1" else "1")
        if task != "SettingsDoNotDisturbOn":
            status = "infeasible" if template.infeasible else "success"
            verdict = template.judge(episode.initial, damaged, episode.params, answer, status)
            assert not verdict.success and "unexpected change" in verdict.reason
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step('finish(status="success")')
    done = REAL_TEMPLATES[task].done_at_start  # a "...Verify" task: nothing to do
    assert terminated and reward == float(done) and info["success"] == done
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step('finish(status="infeasible")')
    assert terminated and reward == float(REAL_TEMPLATES[task].infeasible)


# --- faults -------------------------------------------------------------------------------
def start_episode(server: VirtualAdbServer) -> RealPhoneEnv:
    env = make(server, task="SettingsWifiOff", timeout=1.0)
    env.reset(seed=0)
    env.step('open_app(app="Settings")')
    return env


@pytest.mark.parametrize("fault", ["drop", "delay", "garbage", "offline"])
def test_a_failing_phone_ends_the_episode_with_an_error_not_a_hang(
        server: VirtualAdbServer, fault: str) -> None:
    env = start_episode(server)
    if fault == "delay":
        server.faults.delay = 2.5
    elif fault == "offline":
        server.set_offline(SERIAL, True)
    else:
        setattr(server.faults, fault, True)
    start = time.monotonic()
    obs, reward, terminated, truncated, info = env.step({"action": "click", "x": 500,
                                                         "y": 500})
    elapsed = time.monotonic() - start
    assert elapsed < 8, elapsed  # two tries of at most a few 1 s reads, never a hang
    assert info["device_error"] and SERIAL in info["device_error"]
    assert info["action_error"] == info["device_error"]
    assert truncated and not terminated and reward == 0.0 and not info["success"]
    assert obs["screenshot"].shape == (1200, 540, 3)  # the last screen the agent saw
    assert [r["step"] for r in env.trajectory] == [1, 2]
    assert env.trajectory[0]["action"] == 'open_app(app="Settings")'
    assert env.trajectory[1]["device_error"] == info["device_error"]
    # the server itself keeps serving: host requests answer during the fault, and so does
    # the other phone when only this one is offline
    assert server.client(socket_timeout=3).server_version() == 41
    if fault == "offline":
        other = RealPhoneEnv(serial="emulator-5556", port=server.port, settle=0.0,
                             task="SettingsWifiOn", timeout=3.0)
        other.reset(seed=0)
        server.set_offline(SERIAL, False)
    server.faults.clear()
    env.reset(seed=1)  # the phone is back: a new episode starts
    _, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["device_error"] is None


# --- a phone that restarts -------------------------------------------------------------------
def test_a_phone_that_restarts_ends_the_episode(server: VirtualAdbServer,
                                                phone: VirtualPhone) -> None:
    env = make(server, task="SettingsWifiOff")
    env.reset(seed=0)
    log = len(phone.shell_log)
    _, _, _, truncated, info = env.step('press(button="home")')
    assert not truncated and info["device_error"] is None
    reads = [cmd for cmd in list(phone.shell_log)[log:] if BOOT_ID_PATH in cmd]
    assert reads == [["cat", BOOT_ID_PATH, "/proc/uptime"]]  # one read a step, one command
    first = phone.boot_id
    phone.reboot()  # as if it restarted by itself (a crash, a battery pull, an update)
    _, reward, terminated, truncated, info = env.step('press(button="home")')
    assert truncated and not terminated and reward == 0.0 and not info["success"]
    assert info["device_error"] == (
        f"the phone restarted during the episode (boot {first} is now {phone.boot_id}): its "
        "apps and screen are not where the actions left them; reset() starts a new episode")
    assert env.trajectory[-1]["device_error"] == info["device_error"]
    with pytest.raises(gym.error.ResetNeeded):
        env.step('press(button="home")')
    env.reset(seed=0)  # a new episode on the restarted phone
    _, _, _, truncated, info = env.step('press(button="home")')
    assert not truncated and info["device_error"] is None
    server.client().device(SERIAL).reboot()  # adbutils, from elsewhere: `shell reboot`
    _, _, _, truncated, info = env.step('press(button="home")')
    assert truncated and "the phone restarted during the episode" in info["device_error"]


def test_boot_identity_compares_boot_ids_else_uptimes() -> None:
    a, b = "0f0e0d0c-0b0a-4908-8706-050403020100", "1f0e0d0c-0b0a-4908-8706-050403020100"
    assert BootIdentity(b, 5.0).restarted_since(BootIdentity(a, 900.0))
    assert not BootIdentity(a, 5.0).restarted_since(BootIdentity(a, 900.0))  # same boot id
    assert BootIdentity(None, 5.0).restarted_since(BootIdentity(None, 900.0))
    assert not BootIdentity(None, 901.0).restarted_since(BootIdentity(None, 900.0))
    assert not BootIdentity(None, None).restarted_since(BootIdentity(a, 900.0))
    assert str(BootIdentity(a, 1.0)) == a and str(BootIdentity(None, 1.5)) == "uptime 1.5s"


def test_no_server_is_a_clear_error(tmp_path: Path) -> None:
    env = RealPhoneEnv(port=1, settle=0.0, timeout=1.0)
    with pytest.raises(Exception, match="adb server 127.0.0.1:1"):
        env.reset(seed=0)


def test_bad_arguments_name_the_accepted_values() -> None:
    with pytest.raises(ValueError, match="accepted: 'adb', 'u2'"):
        RealPhoneEnv(backend="usb")
    with pytest.raises(ValueError, match="phone-gym tasks --real"):
        RealPhoneEnv(task="Nope")
    with pytest.raises(ValueError, match="timeout"):
        RealPhoneEnv(timeout=0)


# --- gymnasium ------------------------------------------------------------------------------
def test_check_env_and_gym_make(server: VirtualAdbServer) -> None:
    env = gym.make("RealPhone-v0", serial=SERIAL, port=server.port, settle=0.0,
                   task="SettingsWifiOn")
    check_env(env.unwrapped, skip_render_check=True)
    env = gym.make("phone_gym:RealPhone-v0", serial=SERIAL, port=server.port, settle=0.0,
                   privileged_info=True)
    obs, info = env.reset(seed=3)
    assert info["task_id"] in REAL_TEMPLATES and obs["instruction"]


def test_zz_no_adb_binary_was_started() -> None:
    assert not MARK.exists()


# --- the uiautomator2 backend -----------------------------------------------------------
def test_u2_backend_solves_a_task_through_uiautomator2() -> None:
    from phone_gym.virtual.u2 import attach_u2

    phone = attach_u2(VirtualPhone("u2-phone"))
    with VirtualAdbServer([phone]) as server:
        env = RealPhoneEnv(serial="u2-phone", port=server.port, backend="u2", settle=0.0,
                           task="SettingsBluetoothOn", timeout=5.0)
        reward, info = solve(env, 0)
        assert reward == 1.0 and info["success"], info["verdict"]
        assert phone.u2.running(9008)  # screenshots and UI dumps went through u2's RPC
        assert not any(cmd[0] in ("screencap", "uiautomator") for cmd in phone.shell_log)


def test_wipe_app_data_clears_only_where_the_task_keeps_its_data(
        server: VirtualAdbServer, phone: VirtualPhone) -> None:
    phone.device.system.add_contact("Stale Person", "555-000-0000")
    wifi = phone.device.system.get_setting("global", "wifi_on")
    make(server, task="ClockCreateAlarm", wipe_app_data=True).reset(seed=0)
    assert phone.device.system.find_contact("Stale Person") is not None  # clock: not wiped
    assert phone.device.system.get_setting("global", "wifi_on") == wifi
    env = make(server, task="ContactsDelete", wipe_app_data=True)
    _, info = env.reset(seed=0)
    names = sorted(c.name for c in phone.device.system.contacts)
    expected = sorted(p["name"] for p in info["params"]["people"])
    assert names == expected  # the provider was wiped, then the task's setup ran


# --- the info policy --------------------------------------------------------------------------
REAL_KEYS = ("device_error", "package", "serial", "guard", "frame")


def test_info_gives_nothing_away_before_the_end(server: VirtualAdbServer) -> None:
    """Every key of every step of an oracle episode: no params, verdict or live success
    before the end (even with ``verify_every_step``); the verdict once it has ended; and
    nothing after it."""
    env = make(server, task="ContactsLookupPhone", privileged_info=False,
               verify_every_step=True)
    _, info = env.reset(seed=1)
    assert env.episode is not None
    secrets = [env.episode.params["phone"], env.episode.params["name"]]
    infos = [info]
    while True:
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            break
        infos.append(info)
    for step in infos:
        assert set(step) == {*STEP_KEYS, *REAL_KEYS}, sorted(step)
        hidden = {k: v for k, v in step.items() if k not in ("ui_elements", "instruction")}
        assert not any(s in str(hidden) for s in secrets[:1])
    assert reward == 1.0 and set(END_KEYS) <= set(info) and "params" not in info
    with pytest.raises(gym.error.ResetNeeded):
        env.step('answer(text="x")')


def test_a_time_limit_scores_the_final_state_on_a_phone(server: VirtualAdbServer) -> None:
    env = gym.make("RealPhone-v0", serial=SERIAL, port=server.port, settle=0.0, timeout=3.0,
                   task="SettingsWifiOff", max_episode_steps=6)
    env.reset(seed=0)
    for step in range(6):
        action = env.unwrapped.oracle_action()
        if action.type == "finish":
            action = PhoneAction("press", button="home")
        _, reward, terminated, truncated, info = env.step(action)
        assert not terminated and truncated == (step == 5)
    assert reward == 1.0 and info["success"], info["verdict"]


# --- phones that already hold data ------------------------------------------------------------
@pytest.mark.parametrize("task", ["ContactsDelete", "ContactsLookupPhoneInfeasible",
                                  "FilesRenameFile"])
def test_setup_picks_other_params_when_the_phone_holds_the_target(
        server: VirtualAdbServer, phone: VirtualPhone, task: str) -> None:
    """The first reset leaves its records on the phone (a real phone keeps them); the
    same seed again would write a second contact of the target's name (or find the
    contact an infeasible task says is missing, or rename onto the owner's file): the
    episode samples other params instead."""
    env = make(server, task=task)
    _, first = env.reset(seed=3)
    p = first["params"]
    if "Infeasible" in task:  # its reset leaves the target out: put it there
        phone.device.system.add_contact(p["name"], p["phone"])
    elif task == "FilesRenameFile":  # the owner has a file of the new name there
        phone.device.system.write_file(f"{p['dir']}/{p['new_name']}", "mine")
    _, again = env.reset(seed=3)
    assert again["params"] != first["params"]
    target = again["params"]
    if task.startswith("Contacts"):
        names = [c.name for c in phone.device.system.contacts]
        assert names.count(target["name"]) == (0 if "Infeasible" in task else 1)
    else:
        files = phone.device.system.files
        assert f"{target['dir']}/{target['new_name']}" not in files
        assert target["path"] in files


def test_setup_gives_up_with_a_clear_error(server: VirtualAdbServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from phone_gym.mockapps import SetupError

    template = REAL_TEMPLATES["ContactsDelete"]
    monkeypatch.setattr(type(template), "conflicts", lambda self, p, e: "a clash")
    env = make(server, task="ContactsDelete")
    with pytest.raises(SetupError, match="cannot be set up on this phone: a clash"):
        env.reset(seed=0)


def test_an_action_that_raises_while_read_uses_no_step(server: VirtualAdbServer) -> None:
    """Issue 24: the step counter moved before the action was read."""
    class Exploding(dict):  # type: ignore[type-arg]
        def __contains__(self, key: object) -> bool:
            raise LookupError("the caller's own mapping failed")

    env = make(server, task="ContactsCreate")
    env.reset(seed=0)
    with pytest.raises(LookupError):
        env.step(Exploding(action="wait"))
    assert env.steps == 0
    _, _, _, _, info = env.step({"action": "wait"})
    assert info["step"] == 1 and env.steps == 1
