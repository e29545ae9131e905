"""Alarms over adb, end to end: ``AdbState`` reads the clock's alarm list (on and off, with
labels) from a virtual phone through adbutils and the adb protocol, and real-device tasks
verified from those snapshots catch what the alarm manager alone would miss. No adb binary
runs: ``ADBUTILS_ADB_PATH`` points at a script that only leaves a mark (checked last)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from phone_gym.envs.real_phone import RealPhoneEnv
from phone_gym.mockapps.clock.app import add_alarm
from phone_gym.real.backend import AdbBackend
from phone_gym.real.state import SHOW_ALARMS, AdbState
from phone_gym.verifiers import Watch, diff, observe
from phone_gym.verifiers.state import AlarmRow, Unsupported
from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.world.a11y import parse_xml
from phone_gym.world.app import App
from phone_gym.world.state import WorldState

SERIAL = "emulator-5560"
CLOCK = "com.google.android.deskclock"
MARK = Path(os.environ.get("TMPDIR", "/tmp")) / f"phone-gym-adb-alarms-{os.getpid()}"
ALARMS = Watch.for_stores(["alarms"])


def clock_app(phone: VirtualPhone) -> App:
    app = phone.device.app("Clock")
    assert app is not None
    return app


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
    with VirtualAdbServer([phone]) as srv:
        yield srv


@pytest.fixture
def state(server: VirtualAdbServer, phone: VirtualPhone) -> AdbState:
    phone.reset()
    return AdbState(AdbBackend(SERIAL, port=server.port, timeout=3.0), clock_package=CLOCK,
                    settle=0.0)


def tap_switch(state: AdbState, time: str) -> None:
    """Switch the ``time`` alarm on or off the way an agent would: the clock's list, a tap."""
    state.run_checked("am", "start", "-a", SHOW_ALARMS)
    found = [e for e in parse_xml(state.backend.dump_ui()) if e.content_desc == f"{time} alarm"]
    assert found, f"no switch for the {time} alarm"
    x0, y0, x1, y1 = found[0].bounds
    state.run_checked("input", "tap", str((x0 + x1) // 2), str((y0 + y1) // 2))


def test_an_alarm_switched_off_reads_as_off_not_as_gone(state: AdbState,
                                                        phone: VirtualPhone) -> None:
    state.add_alarm(7, 30, "Gym")
    state.add_alarm(22, 5)
    before = observe(state, ALARMS)
    assert state.alarms() == [AlarmRow(7, 30, True, "Gym"), AlarmRow(22, 5, True, "")]
    tap_switch(state, "07:30")
    assert [a.enabled for a in phone.device.system.alarms] == [False, True]
    after = observe(state, ALARMS)
    assert state.alarms() == [AlarmRow(7, 30, False, "Gym"), AlarmRow(22, 5, True, "")]
    changes = diff(before, after)
    assert [(c.path, c.kind, c.before, c.after) for c in changes] == [
        ("alarms.07:30|Gym.enabled", "modified", True, False)]
    assert phone.device.current_app is None  # reading the list ends on the home screen


def test_a_new_label_and_a_deleted_alarm_are_seen(state: AdbState,
                                                  phone: VirtualPhone) -> None:
    state.add_alarm(6, 45, "Run")
    state.add_alarm(8, 0)
    state.add_alarm(8, 0, "Standup")
    before = observe(state, ALARMS)
    alarms = phone.device.system.alarms
    first, second, third = sorted(alarms, key=lambda a: a.id)
    alarms.update(first.id, label="Swim")
    alarms.remove(third.id)
    after = observe(state, ALARMS)
    assert state.alarms() == [AlarmRow(6, 45, True, "Swim"), AlarmRow(8, 0, True, "")]
    assert {(c.path, c.kind) for c in diff(before, after)} == {
        ("alarms.06:45|Run", "removed"), ("alarms.06:45|Swim", "added"),
        ("alarms.08:00|Standup", "removed")}
    assert second.id in alarms.keys()


def test_a_long_list_is_read_whole_from_any_scroll_position(state: AdbState,
                                                             phone: VirtualPhone) -> None:
    alarms = phone.device.system.alarms
    for i in range(30):
        add_alarm(alarms, i % 24, (i * 7) % 60, ["", "Gym", "Work"][i % 3],
                  enabled=i % 4 != 1, days=("Mon", "Fri") if i % 5 == 0 else ())
    add_alarm(alarms, 23, 0, "Late")
    add_alarm(alarms, 23, 0, "Late")  # twins
    expected = WorldState(phone.device).alarms()
    assert state.alarms() == expected
    state.run_checked("am", "start", "-a", SHOW_ALARMS)
    state.run_checked("input", "swipe", "300", "1700", "300", "600", "400")  # an agent scrolled
    state.run_checked("input", "tap", "675", "2180")  # ... and went to the Timer tab
    assert clock_app(phone).ui.tab == "Timer"
    assert state.alarms() == expected
    swipes = [argv for argv in phone.shell_log if argv[:2] == ["input", "swipe"]]
    assert len(swipes) > 3  # it scrolled up to the top, then down page by page
    assert not any(p.startswith("/sdcard/") and p.endswith(".xml")
                   for p in phone.device.system.files.keys())  # no dump left in storage


def test_show_alarms_closes_the_editor_and_shows_the_list(state: AdbState,
                                                          phone: VirtualPhone) -> None:
    state.add_alarm(9, 15, "Dentist")
    state.run_checked("am", "start", "-a", SHOW_ALARMS)
    state.run_checked("input", "tap", "300", "376")  # the row: its editor opens
    clock = clock_app(phone)
    assert clock.route.name == "edit"
    assert state.alarms() == [AlarmRow(9, 15, True, "Dentist")]
    assert clock.route.name == "main" and clock.ui.tab == "Alarm"


def test_the_dumpsys_source_knows_only_the_next_alarm(state: AdbState,
                                                      phone: VirtualPhone) -> None:
    """Over the adb protocol: ``dumpsys alarm`` gives the next alarm (DeskClock's
    ``setAlarmClock``), never the list; ``alarms()`` refuses rather than guess."""
    state.add_alarm(7, 30, "Gym")
    state.add_alarm(22, 5)
    phone.device.system.alarms.update(phone.device.system.alarms.values()[0].id, enabled=False)
    scheduled = AdbState(state.backend, clock_package=CLOCK, alarm_source="dumpsys")
    assert scheduled.next_alarm() == AlarmRow(22, 5)  # 07:30 is off
    with pytest.raises(Unsupported, match="alarm_source='clock'"):
        scheduled.alarms()
    with pytest.raises(ValueError, match="alarm_source"):
        AdbState(state.backend, alarm_source="ui")


# --- tasks verified from those snapshots ---------------------------------------------------
def make(server: VirtualAdbServer, task: str) -> RealPhoneEnv:
    return RealPhoneEnv(serial=SERIAL, port=server.port, settle=0.0, timeout=3.0, task=task)


def click(info: dict[str, Any], desc: str) -> str:
    found = [e for e in info["ui_elements"] if e["content_desc"] == desc or e["text"] == desc]
    assert found, f"{desc!r} not on screen"
    x, y = found[-1]["center_norm"]
    return f"click(x={x}, y={y})"


def test_clock_delete_alarm_fails_when_the_alarm_is_only_switched_off(
        server: VirtualAdbServer, phone: VirtualPhone) -> None:
    phone.reset()
    env = make(server, "ClockDeleteAlarm")
    env.reset(seed=0)
    assert env.episode is not None
    time = env.episode.params["time"]
    _, _, _, _, info = env.step('open_app(app="Clock")')
    _, _, _, _, info = env.step(click(info, f"{time} alarm"))  # its switch
    assert info["action_error"] is None
    assert not [a for a in phone.device.system.alarms if f"{a.hour:02d}:{a.minute:02d}" == time
                and a.enabled]
    _, reward, terminated, _, info = env.step('finish(status="success")')
    assert terminated and reward == 0.0 and not info["success"]
    assert "still has a record" in info["verdict"], info["verdict"]
    key = f"{time}|{env.episode.params['label']}"
    final = env.episode.host.snapshot(env.episode.template)
    assert final["alarms"][key]["enabled"] is False  # seen as switched off, not as deleted
    damage = [str(c) for c in env.episode.verify().damage]
    assert damage == [f"alarms.{key}.enabled changed from True to False"], damage

    phone.reset()
    env.reset(seed=0)
    for _ in range(env.episode.template.max_steps):
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"], info["verdict"]  # deleted: it passes
    env.close()


def test_a_contacts_task_fails_when_another_contacts_email_changes(
        server: VirtualAdbServer, phone: VirtualPhone) -> None:
    phone.reset()
    env = make(server, "ContactsDelete")
    env.reset(seed=0)
    assert env.episode is not None
    target = env.episode.params["name"]
    for _ in range(env.episode.template.max_steps):
        action = env.oracle_action()
        if action.type == "finish":
            contacts = phone.device.system.contacts
            other = next(c for c in contacts if c.name != target)
            contacts.update(other.id, email="attacker@example.com")
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert reward == 0.0 and not info["success"]
    assert "unexpected change" in info["verdict"] and "email" in info["verdict"], \
        info["verdict"]
    env.close()


def test_zz_no_adb_binary_was_started() -> None:
    assert not MARK.exists()
