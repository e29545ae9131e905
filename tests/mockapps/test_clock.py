"""The Clock app driven through phone actions: the alarm list, the editor, switches,
long-press menus, dialogs, scrolling, tabs, the timer, the stopwatch, and what survives a
force-stop."""

from __future__ import annotations

from datetime import datetime

import pytest
from driving import Driver, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.clock.app import (
    Alarm,
    ClockApp,
    add_alarm,
    days_summary,
    next_alarm,
    next_ring,
    parse_time,
)
from phone_gym.verifiers.answers import answer_matcher
from phone_gym.world import Device
from phone_gym.world.system import SystemState


@pytest.fixture
def device() -> Device:
    return Device([ClockApp])


def clock(device: Device) -> ClockApp:
    app = device.apps["Clock"]
    assert isinstance(app, ClockApp)
    return app


def open_clock(device: Device) -> None:
    open_app(device, "Clock")


def alarms(device: Device) -> list[Alarm]:
    """The alarms (the system store the clock owns), in the order they were added."""
    return clock(device).alarms.values()


def alarm(device: Device, alarm_id: int) -> Alarm:
    """The alarm ``alarm_id`` as stored now (records are frozen: a change makes a new one)."""
    found = clock(device).alarms.get(alarm_id)
    assert found is not None, alarm_id
    return found


def seed(device: Device) -> tuple[Alarm, Alarm]:
    table = clock(device).alarms
    return (add_alarm(table, 7, 30, "Wake up", days=("Mon", "Tue", "Wed", "Thu", "Fri")),
            add_alarm(table, 6, 5, "Gym", enabled=False))


def test_empty_list_and_package(device: Device) -> None:
    open_clock(device)
    assert shown(device, "No alarms", id="empty")
    fab = Driver(device).find(id="add_alarm", desc="Add alarm")
    assert fab is not None and fab.package == "com.google.android.deskclock"
    assert shown(device, "Alarm", kind="tab")


def test_list_shows_alarms_sorted_by_time(device: Device) -> None:
    wake, gym = seed(device)
    open_clock(device)
    ui = Driver(device)
    rows = [p for p in device.frame().items if p.node.id.startswith("alarm_")
            and p.node.kind == "list_item"]
    assert [p.node.text for p in rows] == ["06:05", "07:30"]
    assert ui.find(id=f"alarm_{wake.id}").node.hint == "Wake up · Weekdays"
    assert ui.find(id=f"alarm_{gym.id}").node.hint == "Gym · Once"
    assert ui.find(id=f"alarm_switch_{wake.id}").node.checked is True
    assert ui.find(id=f"alarm_switch_{gym.id}").node.checked is False


def pick_time(device: Device, hour: int, minute: int) -> None:
    """On the open time picker (24-hour face): the hour, the minute, OK."""
    tap(device, desc=f"{hour} hours")
    tap(device, desc=f"{minute} minutes")
    tap(device, id="material_timepicker_ok_button")


def test_add_alarm_through_the_editor(device: Device) -> None:
    seed(device)
    open_clock(device)
    tap(device, id="add_alarm")
    assert shown(device, "New alarm", kind="top_bar")
    assert shown(device, id="material_clock_face")  # "+" asks for the time first
    assert not shown(device, id="delete")
    pick_time(device, 21, 45)
    assert shown(device, "21:45", id="time")
    fill(device, "label", "Read")
    tap(device, id="day_sat")
    tap(device, id="day_mon")
    tap(device, id="day_sat")  # unchecked again
    tap(device, id="save")
    assert device.toast_text == "Alarm set for 21:45"
    assert clock(device).route.name == "main"
    new = alarms(device)[-1]
    assert (new.hour, new.minute, new.label, new.enabled, new.days) == (21, 45, "Read", True,
                                                                         ("Mon",))
    assert device.snapshot()["alarms"][str(new.id)]["days"] == ["Mon"]


@pytest.mark.parametrize(("hour", "minute"), [("24", "00"), ("", "10"), ("7", "60"),
                                              ("7", "3a")])
def test_bad_typed_times_are_refused(device: Device, hour: str, minute: str) -> None:
    seed(device)
    open_clock(device)
    tap(device, id="add_alarm")
    tap(device, id="material_timepicker_mode_button")  # the keyboard: typed fields
    fill(device, "material_hour_text_input", hour)
    fill(device, "material_minute_text_input", minute)
    tap(device, id="material_timepicker_ok_button")
    assert shown(device, "Enter an hour from 0 to 23 and a minute from 0 to 59",
                 id="material_timepicker_error")
    assert shown(device, id="material_hour_text_input")  # the picker stays open
    assert len(alarms(device)) == 2


def test_typed_single_digits_are_accepted(device: Device) -> None:
    open_clock(device)
    tap(device, id="add_alarm")
    tap(device, id="material_timepicker_mode_button")
    fill(device, "material_hour_text_input", "7")
    fill(device, "material_minute_text_input", "5")
    tap(device, id="material_timepicker_ok_button")
    tap(device, id="save")
    new = alarms(device)[0]
    assert (new.hour, new.minute) == (7, 5)
    assert shown(device, "07:05", kind="list_item")


def test_cancelling_a_new_alarms_time_makes_no_alarm(device: Device) -> None:
    seed(device)
    open_clock(device)
    tap(device, id="add_alarm")
    tap(device, desc="9 hours")
    tap(device, id="material_timepicker_cancel_button")
    assert clock(device).route.name == "main"
    assert len(alarms(device)) == 2


def test_edit_alarm_prefills_and_saves(device: Device) -> None:
    wake, gym = seed(device)
    open_clock(device)
    tap(device, id=f"alarm_{wake.id}")
    ui = Driver(device)
    assert ui.find(id="time").node.text == "07:30"
    assert ui.find(id="label").node.text == "Wake up"
    assert ui.find(id="day_fri").node.checked and not ui.find(id="day_sat").node.checked
    fill(device, "label", "Get up")
    tap(device, id="day_fri")
    tap(device, id="save")
    wake = alarm(device, wake.id)
    assert (wake.label, wake.days, wake.hour, wake.minute) == (
        "Get up", ("Mon", "Tue", "Wed", "Thu"), 7, 30)
    assert alarm(device, gym.id) == gym  # the other alarm is untouched


def test_new_time_switches_a_disabled_alarm_on(device: Device) -> None:
    _, gym = seed(device)
    open_clock(device)
    tap(device, id=f"alarm_{gym.id}")
    fill(device, "label", "Swim")
    tap(device, id="save")
    assert alarm(device, gym.id).enabled is False  # only the label changed
    tap(device, id=f"alarm_{gym.id}")
    tap(device, id="time")
    assert shown(device, id="dial_hour_6", kind="dial_num")  # the face opens on the hour
    tap(device, id="material_minute_tv")
    tap(device, desc="15 minutes")
    tap(device, id="material_timepicker_ok_button")
    tap(device, id="save")
    gym = alarm(device, gym.id)
    assert (gym.label, gym.minute, gym.enabled) == ("Swim", 15, True)


@pytest.mark.parametrize("leave", ["cancel", "navigate_up", "back"])
def test_leaving_the_editor_discards_the_draft(device: Device, leave: str) -> None:
    wake, _ = seed(device)
    open_clock(device)
    before = device.snapshot()
    tap(device, id=f"alarm_{wake.id}")
    tap(device, id="time")
    pick_time(device, 9, 0)
    if leave == "back":
        press(device, "back")
    else:
        tap(device, id=leave)
    assert clock(device).route.name == "main"
    after = device.snapshot()
    assert {k: v for k, v in after.items() if k != "now"} == {
        k: v for k, v in before.items() if k != "now"}  # the alarms and all else unchanged


def test_delete_from_editor_asks_first(device: Device) -> None:
    wake, gym = seed(device)
    open_clock(device)
    tap(device, id=f"alarm_{wake.id}")
    tap(device, id="delete")
    assert shown(device, "Delete alarm?", id="alertTitle")
    assert shown(device, "The 07:30 alarm will be deleted.")
    tap(device, "Cancel", kind="button")
    assert not shown(device, id="dialog")
    tap(device, id="delete")
    press(device, "back")  # back dismisses the dialog, not the editor
    assert not shown(device, id="dialog") and clock(device).route.name == "edit"
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert clock(device).alarms == [gym]
    assert clock(device).route.name == "main"
    assert device.toast_text == "Alarm deleted"


def test_long_press_menu_deletes_and_duplicates(device: Device) -> None:
    wake, gym = seed(device)
    open_clock(device)
    long_press(device, id=f"alarm_{wake.id}")
    assert [label for label, _ in device.menu or []] == ["Delete", "Duplicate"]
    tap(device, "Duplicate", kind="menu_item")
    copy = alarms(device)[-1]
    assert copy.id not in (wake.id, gym.id)
    assert (copy.hour, copy.minute, copy.label, copy.days) == (7, 30, "Wake up", wake.days)
    long_press(device, id=f"alarm_{gym.id}")
    press(device, "back")  # closes the menu only
    assert device.menu is None and len(alarms(device)) == 3
    long_press(device, id=f"alarm_{gym.id}")
    tap(device, "Delete", kind="menu_item")
    assert [a.id for a in alarms(device)] == [wake.id, copy.id]


def test_switch_toggles_only_its_alarm(device: Device) -> None:
    wake, gym = seed(device)
    open_clock(device)
    tap(device, id=f"alarm_switch_{gym.id}")
    assert alarm(device, gym.id).enabled and alarm(device, wake.id).enabled
    assert clock(device).route.name == "main"  # the switch does not open the editor
    tap(device, id=f"alarm_switch_{wake.id}")
    assert not alarm(device, wake.id).enabled and alarm(device, gym.id).enabled


def test_long_list_scrolls(device: Device) -> None:
    table = clock(device).alarms
    added = [add_alarm(table, 5 + i, 0, f"Alarm {i}") for i in range(15)]
    open_clock(device)
    last = added[-1]
    assert not shown(device, id=f"alarm_{last.id}")
    for _ in range(3):  # to the end, where the last row clears the floating button
        assert device.step(PhoneAction("scroll", x=500, y=500, direction="down")) is None
    assert device.scroll
    tap(device, id=f"alarm_switch_{last.id}")
    assert alarm(device, last.id).enabled is False
    assert all(alarm(device, a.id).enabled for a in added[:-1])


def test_alarms_persist_and_drafts_do_not(device: Device) -> None:
    seed(device)
    open_clock(device)
    tap(device, id="add_alarm")
    pick_time(device, 10, 0)
    tap(device, id="save")
    tap(device, id="add_alarm")
    pick_time(device, 11, 0)
    assert device.step(PhoneAction("close_app", app="Clock")) is None
    open_clock(device)
    assert clock(device).route.name == "main"
    assert [(a.hour, a.minute) for a in alarms(device)][-1] == (10, 0)
    assert shown(device, "10:00", kind="list_item")
    tap(device, id="add_alarm")
    tap(device, id="material_timepicker_cancel_button")
    assert clock(device).route.name == "main"


def test_tabs_and_clock_face(device: Device) -> None:
    seed(device)
    open_clock(device)
    tap(device, id="tab_clock")
    now = device.system.now
    assert Driver(device).find(id="digital_clock").node.text == now.strftime("%H:%M")
    assert shown(device, "Thursday, October 15", id="date")
    # 09:30 on Thursday: the weekday 07:30 alarm rings next on Friday (Gym is off)
    assert shown(device, "Next alarm: Fri 07:30", id="next_alarm")
    assert not shown(device, id="add_alarm")
    # the tab is transient: a force-stop returns to the alarms
    assert device.step(PhoneAction("close_app", app="Clock")) is None
    open_clock(device)
    assert clock(device).ui.tab == "Alarm" and shown(device, id="add_alarm")


def test_timer_counts_down_with_the_clock(device: Device) -> None:
    open_clock(device)
    tap(device, id="tab_timer")
    tap(device, id="timer_start")
    assert device.toast_text == "Enter a duration"
    fill(device, "timer_input", "130")  # DeskClock's keypad: digits fill HHMMSS from the right
    assert Driver(device).find(id="timer_setup").node.text == "00h 01m 30s"
    press(device, "back")  # hide the keyboard (and show the tab bar again)
    tap(device, id="timer_start")
    ui = Driver(device)
    assert ui.find(id="timer_remaining").node.text == "01:29"  # one step has passed
    assert device.step(PhoneAction("wait", seconds=40)) is None
    assert ui.find(id="timer_remaining").node.text == "00:48"
    for _ in range(2):
        assert device.step(PhoneAction("wait", seconds=60)) is None
    assert ui.find(id="timer_status").node.text == "Time's up"
    assert ui.find(id="timer_remaining").node.text == "00:00"
    tap(device, "Stop", id="timer_cancel")
    assert shown(device, id="timer_start")


def test_stopwatch_follows_the_clock(device: Device) -> None:
    open_clock(device)
    tap(device, id="tab_stopwatch")
    ui = Driver(device)
    assert ui.find(id="stopwatch_time").node.text == "00:00"
    assert not ui.find(id="stopwatch_reset").node.enabled
    tap(device, "Start", id="stopwatch_start")
    # every action takes a second: the tap, then the wait
    assert device.step(PhoneAction("wait", seconds=9)) is None
    assert ui.find(id="stopwatch_time").node.text == "00:11"
    tap(device, "Pause", id="stopwatch_start")
    assert device.step(PhoneAction("wait", seconds=30)) is None
    assert ui.find(id="stopwatch_time").node.text == "00:11"
    tap(device, "Reset", id="stopwatch_reset")
    assert ui.find(id="stopwatch_time").node.text == "00:00"


def test_snapshot_keys_alarms_even_when_empty(device: Device) -> None:
    snap = device.snapshot()
    assert snap["alarms"] == {}  # the (system) alarms store, keyed by id
    # the clock's own data: the timer and the stopwatch (DeskClock's preferences)
    assert snap["apps"]["Clock"] == {"timer_input": "", "timer_end": None,
                                     "stopwatch_since": None, "stopwatch_total": 0.0,
                                     "laps": 0}
    wake, _ = seed(device)
    snap = device.snapshot()["alarms"]
    assert snap[str(wake.id)] == {"id": wake.id, "hour": 7, "minute": 30, "label": "Wake up",
                                  "enabled": True,
                                  "days": ["Mon", "Tue", "Wed", "Thu", "Fri"]}


def test_helpers() -> None:
    assert parse_time(" 07 ", "5") == (7, 5)
    for bad in (("-1", "0"), ("23", "99"), ("x", "1")):
        with pytest.raises(ValueError):
            parse_time(*bad)
    assert days_summary([]) == "Once"
    assert days_summary(["Sat", "Sun"]) == "Weekends"
    assert days_summary(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) == "Every day"
    assert days_summary(["Tue", "Thu"]) == "Tue, Thu"
    thursday = datetime(2026, 10, 15, 9, 30)
    assert next_ring(Alarm(1, 9, 0), thursday) == datetime(2026, 10, 16, 9, 0)
    assert next_ring(Alarm(1, 9, 45), thursday) == datetime(2026, 10, 15, 9, 45)
    assert next_ring(Alarm(1, 9, 45, days=("Mon",)), thursday) == datetime(2026, 10, 19, 9, 45)
    assert next_ring(Alarm(1, 9, 0, days=("Thu",)), thursday) == datetime(2026, 10, 22, 9, 0)
    assert next_alarm(SystemState().alarms, thursday) is None  # a fresh phone has none


def test_time_answers_match_by_type() -> None:
    match = answer_matcher("time", "07:05", "time")
    assert match("07:05") and match("7:05") and match("It rings at 07.05.")
    assert match('{"time": "7:05 AM"}')
    assert not match("07:06") and not match("17:05") and not match("seven")
    assert not match("07:05 or 08:15") and not match("7:05 pm")


def test_stopwatch_state_is_the_clocks_data_and_survives_a_force_stop(device: Device) -> None:
    open_clock(device)
    tap(device, id="tab_stopwatch")
    tap(device, "Start", id="stopwatch_start")
    assert shown(device, "Pause", id="stopwatch_start") and shown(device, "Lap", id="stopwatch_lap")
    tap(device, id="stopwatch_lap")
    data = device.snapshot()["apps"]["Clock"]
    assert data["stopwatch_since"] is not None and data["laps"] == 1
    assert device.step(PhoneAction("close_app", app="Clock")) is None
    open_clock(device)
    tap(device, id="tab_stopwatch")
    assert shown(device, "Pause", id="stopwatch_start")  # still running
    tap(device, "Pause", id="stopwatch_start")
    tap(device, "Reset", id="stopwatch_reset")
    data = device.snapshot()["apps"]["Clock"]
    assert (data["stopwatch_since"], data["stopwatch_total"], data["laps"]) == (None, 0.0, 0)


def test_timer_entry_fills_hhmmss_from_the_right(device: Device) -> None:
    from phone_gym.mockapps.clock.app import timer_digits, timer_seconds, timer_text

    assert timer_text("") == "00h 00m 00s" and timer_text("13045") == "01h 30m 45s"
    assert timer_digits("1234567") == "234567" and timer_seconds("100") == 60
    open_clock(device)
    tap(device, id="tab_timer")
    fill(device, "timer_input", "2a0515")  # digits only
    assert device.snapshot()["apps"]["Clock"]["timer_input"] == "20515"
    assert Driver(device).find(id="timer_setup").node.text == "02h 05m 15s"


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Clock", 300)
