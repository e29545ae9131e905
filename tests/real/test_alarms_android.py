"""Alarms as Android really keeps them, on the virtual device configured to behave so:

- ``dumpsys alarm`` holds what AOSP DeskClock schedules (``alarms.AlarmStateManager``): per
  enabled alarm one entry for its next state change (2 h before it rings, else 30 min
  before, else the ring), plus ``setAlarmClock`` for the next alarm overall; so the alarm
  manager cannot list alarms and ``alarm_source="dumpsys"`` refuses to;
- ``am force-stop`` of the clock cancels all its alarms until it runs again
  (``ActivityManagerService.forceStopPackage`` -> ``ACTION_PACKAGE_RESTARTED`` ->
  ``AlarmManagerService`` removes them), so a reset must never force-stop it;
- ClockCreateAlarm and ClockDeleteAlarm pass a perfect agent and fail one that does nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES, RealHost, RealPhoneEnv
from phone_gym.mockapps import Episode
from phone_gym.mockapps.clock.app import add_alarm
from phone_gym.real.state import AdbState
from phone_gym.verifiers.state import AlarmRow, Unsupported
from phone_gym.virtual import LocalBackend, VirtualPhone
from phone_gym.world.app import App

CLOCK = "com.google.android.deskclock"


def clock_app(phone: VirtualPhone) -> App:
    app = phone.device.app("Clock")
    assert app is not None
    return app


def phone_at(when: datetime, *alarms: tuple[int, int]) -> VirtualPhone:
    """A fresh virtual phone whose clock reads ``when``, with these alarms (on)."""
    phone = VirtualPhone()
    phone.device.system.now = when
    for hour, minute in alarms:
        add_alarm(phone.device.system.alarms, hour, minute)
    return phone


def dumpsys(phone: VirtualPhone) -> AdbState:
    return AdbState(LocalBackend(phone), clock_package=CLOCK, alarm_source="dumpsys")


def hhmm(rows: list[AlarmRow]) -> list[str]:
    return [f"{a.hour:02d}:{a.minute:02d}" for a in rows]


# --- dumpsys alarm as DeskClock fills it ------------------------------------------------------
@pytest.mark.parametrize(("now", "entries"), [
    ((4, 0), ["05:00", "07:00", "07:15"]),  # both more than 2 h away: their low notifications
    ((6, 0), ["06:30", "07:00", "07:15"]),  # 07:00 within 2 h: its high notification
    ((6, 50), ["07:00", "07:00", "07:15"]),  # 07:00 within 30 min: it fires next
])
def test_dumpsys_alarm_holds_deskclocks_state_changes(now: tuple[int, int],
                                                      entries: list[str]) -> None:
    phone = phone_at(datetime(2026, 10, 16, *now), (7, 0), (9, 15))
    state = dumpsys(phone)
    assert hhmm(state.scheduled_alarms()) == entries
    assert state.next_alarm() == AlarmRow(7, 0)  # the setAlarmClock entry: the next alarm
    out = phone.shell("dumpsys alarm")[1].decode()
    assert out.count("tag=*walarm*:change_state") == 2 and out.count("Alarm clock:") == 1
    assert "Next alarm clock information" in out and "= 2026-10-16 07:00:00 =" in out


def test_switched_off_alarms_have_no_entry_and_no_alarm_means_no_next_alarm() -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (7, 0), (9, 15))
    alarms = phone.device.system.alarms
    alarms.update(alarms.values()[0].id, enabled=False)
    assert hhmm(dumpsys(phone).scheduled_alarms()) == ["07:15", "09:15"]
    assert dumpsys(phone).next_alarm() == AlarmRow(9, 15)
    alarms.update(alarms.values()[1].id, enabled=False)
    assert dumpsys(phone).scheduled_alarms() == [] and dumpsys(phone).next_alarm() is None


# --- force-stop cancels them; resets must not ---------------------------------------------------
def test_force_stop_cancels_the_clocks_alarms_until_it_runs_again() -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (7, 0), (9, 15))
    assert phone.shell(f"am force-stop {CLOCK}")[0] == 0
    assert dumpsys(phone).scheduled_alarms() == [] and dumpsys(phone).next_alarm() is None
    phone.reboot()  # a stopped app gets no BOOT_COMPLETED: still nothing scheduled
    assert dumpsys(phone).next_alarm() is None
    clock = AdbState(LocalBackend(phone), clock_package=CLOCK, settle=0.0)
    assert hhmm(clock.alarms()) == ["07:00", "09:15"]  # the clock's records stay ...
    assert dumpsys(phone).next_alarm() == AlarmRow(7, 0)  # ... and it ran: scheduled again


def test_am_kill_keeps_the_alarms() -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (7, 0))
    assert phone.shell(f"am kill {CLOCK}")[0] == 0
    assert dumpsys(phone).next_alarm() == AlarmRow(7, 0)


def test_no_reset_cancels_the_owners_alarms_and_apps_start_on_their_start_screen() -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (6, 10))  # the owner's alarm
    env = RealPhoneEnv(backend=LocalBackend(phone), screenshot=False, ui_tree=False)
    host = RealHost(AdbState(LocalBackend(phone), clock_package=CLOCK, settle=0.0), env)
    for task in REAL_TEMPLATES.values():
        phone.shell(f"monkey -p {CLOCK} 1")
        clock_app(phone).ui.tab = "Timer"  # where an earlier episode left it
        phone.shell("input keyevent 3")
        host.begin(task)  # what every reset does before the task's setup
        assert dumpsys(phone).next_alarm() == AlarmRow(6, 10), task.id
        assert AlarmRow(4, 10) in dumpsys(phone).scheduled_alarms(), task.id  # 2 h before
        assert phone.device.current_app is None, task.id  # home
        if CLOCK in host.packages(task):
            assert clock_app(phone).ui.tab == "Alarm", task.id  # its start screen
    assert not [argv for argv in phone.shell_log if argv[:2] == ["am", "force-stop"]]
    env.reset(seed=0, options={"task": "ClockDeleteAlarm"})  # a whole reset, setup included
    assert AlarmRow(4, 10) in dumpsys(phone).scheduled_alarms()
    env.close()


def test_wipe_app_data_still_clears_the_clock() -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (6, 10))
    env = RealPhoneEnv(backend=LocalBackend(phone), screenshot=False, ui_tree=False,
                       task="ClockCreateAlarm", wipe_app_data=True)
    env.reset(seed=0)
    assert ["pm", "clear", CLOCK] in list(phone.shell_log)
    assert (6, 10) not in [(a.hour, a.minute) for a in phone.device.system.alarms]
    env.close()


# --- verdicts -------------------------------------------------------------------------------------
def run(env: RealPhoneEnv, *, oracle: bool) -> dict[str, Any]:
    """One episode: the oracle's actions, or a do-nothing agent's finish."""
    assert env.episode is not None
    info: dict[str, Any] = {}
    for _ in range(env.episode.template.max_steps):
        action = env.oracle_action() if oracle else 'finish(status="success")'
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return info


@pytest.mark.parametrize("task", ["ClockCreateAlarm", "ClockDeleteAlarm"])
@pytest.mark.parametrize("seed", [0, 3])
def test_clock_tasks_pass_a_perfect_agent_and_fail_a_lazy_one(task: str, seed: int) -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (6, 10))
    env = RealPhoneEnv(backend=LocalBackend(phone), screenshot=False, task=task, settle=0.0)
    env.reset(seed=seed)
    assert not run(env, oracle=False)["success"]
    env.reset(seed=seed)
    info = run(env, oracle=True)
    assert info["success"], info["verdict"]
    assert dumpsys(phone).next_alarm() is not None  # the owner's alarm still rings
    env.close()


@pytest.mark.parametrize("task", ["ClockCreateAlarm", "ClockDeleteAlarm"])
def test_the_dumpsys_source_refuses_alarm_tasks(task: str) -> None:
    phone = phone_at(datetime(2026, 10, 16, 4, 0), (6, 10))
    env = RealPhoneEnv(backend=LocalBackend(phone), screenshot=False, ui_tree=False, task=task)
    host = RealHost(dumpsys(phone), env)
    with pytest.raises(Unsupported, match="alarm_source='clock'"):
        Episode(REAL_TEMPLATES[task], host, np.random.default_rng(0))
