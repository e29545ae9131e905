"""Meet (Zoom) driven through phone actions: scheduling with the pickers and the contact
picker, the meeting page (copy the invitation, edit, delete), joining with the permission
prompts, and the in-meeting controls."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
from driving import act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.meet.app import MeetApp, MeetData, duration_text, invitation
from phone_gym.mockapps.meet.fixtures import TODAY, seed_world, world
from phone_gym.mockapps.meet.tasks import TEMPLATES, set_date, set_start, set_time
from phone_gym.tasks.driver import Driver
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState

W = world(11)


def data(device: Device) -> MeetData:
    app = device.apps["Meet"]
    assert isinstance(app, MeetApp)
    return app.data


def drive(device: Device, actions: object) -> None:
    for action in actions:  # type: ignore[attr-defined]
        act(device, action)


def ui(device: Device) -> Driver:
    return Driver(lambda: ui_elements(device.frame()))


@pytest.fixture
def device() -> Device:
    dev = Device([MeetApp])
    seed_world(WorldState(dev), W, camera="ask", microphone="ask")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Meet"))
    return dev


def test_upcoming_meetings_are_listed_by_date(device: Device) -> None:
    first = min(W.meetings, key=lambda m: (m.date, m.time))
    items = [p.node for p in device.frame().items if p.node.kind == "list_item"]
    assert items[0].text == first.title


def test_schedule_with_pickers_and_invitees(device: Device) -> None:
    tap(device, id="schedule")
    fill(device, "topic", "Data review")
    drive(device, set_date(ui(device), "2026-10-22"))
    drive(device, set_time(ui(device), "14:30"))
    tap(device, id="duration")
    tap(device, "45 min", kind="radio")
    tap(device, id="invitees")
    name = W.names()[2]
    tap(device, name, kind="checkbox")
    tap(device, id="done")
    tap(device, id="save")
    m = data(device).meetings.first(title="Data review")
    assert m is not None and (m.date, m.time, m.minutes, m.invitees) == (
        "2026-10-22", "14:30", 45, (name,))
    assert len(m.number.replace(" ", "")) == 11


def test_schedule_screen_shows_zooms_rows_and_the_starts_row_opens_the_pickers(
        device: Device) -> None:
    tap(device, id="schedule")
    d = ui(device)
    rows = [e.text for e in d.elements() if e.kind == "list_item"]
    assert rows[:4] == ["Starts", "Duration", "Repeat", "Invitees"]
    assert d.must(id="starts_value").text == "Today, 10:00"
    assert d.must(id="duration_value").text == "30 min"
    assert d.find(id="year") is None and d.find(id="hour") is None  # no stepper fields
    tap(device, id="starts")  # Android's date picker, at today
    d = ui(device)
    assert d.must(id="month_navigation_fragment_toggle").text.startswith(
        f"{TODAY:%B %Y}")
    assert d.must(id=f"day_{TODAY.isoformat()}").selected
    assert d.find(id="material_clock_face") is None
    tap(device, id="month_navigation_next")
    tap(device, id="confirm_button")  # the day kept; the time picker follows
    d = ui(device)
    assert d.find(id="material_clock_face") is not None
    assert d.must(id="material_hour_tv").text == "10"
    assert d.must(id="material_minute_tv").text == "00"


def test_the_pickers_set_the_meetings_start(device: Device) -> None:
    m = W.meetings[0]
    tap(device, m.title, kind="list_item")
    tap(device, id="edit")
    new_day = TODAY + timedelta(days=40)  # another month: the arrows, then the day
    drive(device, set_start(ui(device), new_day.isoformat(), "07:35"))
    assert ui(device).must(id="starts_value").text == (
        f"{new_day:%a, %b} {new_day.day}, 07:35")
    tap(device, id="save")
    stored = data(device).meetings.first(title=m.title)
    assert stored is not None and (stored.date, stored.time) == (new_day.isoformat(), "07:35")


def test_a_12_hour_phone_picks_pm_on_the_face(device: Device) -> None:
    device.system.put_setting("system", "time_12_24", "12")
    tap(device, id="schedule")
    fill(device, "topic", "Late call")
    drive(device, set_time(ui(device), "21:05"))
    assert ui(device).must(id="starts_value").text == "Today, 9:05 PM"
    tap(device, id="save")
    m = data(device).meetings.first(title="Late call")
    assert m is not None and (m.date, m.time) == (TODAY.isoformat(), "21:05")


@pytest.mark.parametrize("where", ["date", "time", "back"])
def test_cancelling_the_pickers_leaves_the_start_unchanged(device: Device, where: str) -> None:
    m = W.meetings[1]
    tap(device, m.title, kind="list_item")
    tap(device, id="edit")
    before = ui(device).must(id="starts_value").text
    tap(device, id="starts")
    other = date.fromisoformat(m.date) + timedelta(days=1)
    tap(device, id=f"day_{other.isoformat()}")
    if where == "date":
        tap(device, id="cancel_button")
    else:
        tap(device, id="confirm_button")  # the day OK'd, then the time picker left
        tap(device, desc="3 hours" if m.time[:2] != "03" else "4 hours", kind="dial_num")
        if where == "time":
            tap(device, id="material_timepicker_cancel_button")
        else:
            press(device, "back")
    d = ui(device)
    assert d.find(id="material_clock_face") is None and d.find(id="confirm_button") is None
    assert d.must(id="starts_value").text == before
    tap(device, id="save")
    stored = data(device).meetings.first(title=m.title)
    assert stored is not None and (stored.date, stored.time) == (m.date, m.time)


def test_durations_are_written_as_zoom_writes_them(device: Device) -> None:
    assert [duration_text(n) for n in (15, 60, 90, 120)] == ["15 min", "1 hr", "1 hr 30 min",
                                                            "2 hr"]
    for bad in (0, -5, 1.5, True):
        with pytest.raises(ValueError, match="positive int"):
            duration_text(bad)  # type: ignore[arg-type]
    tap(device, id="schedule")
    tap(device, id="duration")
    assert [e.text for e in ui(device).elements() if e.kind == "radio"] == [
        "15 min", "30 min", "45 min", "1 hr", "1 hr 30 min", "2 hr"]
    tap(device, "1 hr 30 min", kind="radio")
    assert ui(device).must(id="duration_value").text == "1 hr 30 min"
    app = device.apps["Meet"]
    assert isinstance(app, MeetApp)
    with pytest.raises(ValueError, match="accepted: 15 min"):
        app.picked("minutes", "100 min")
    with pytest.raises(ValueError, match="accepted: minutes, recurrence"):
        app.picked("passcode", "x")


def test_leaving_the_editor_with_changes_asks_first(device: Device) -> None:
    tap(device, id="schedule")
    fill(device, "topic", "Draft")
    while not shown(device, id="button_discard"):
        press(device, "back")
    tap(device, id="button_discard")
    assert data(device).meetings.first(title="Draft") is None


def test_meeting_page_copies_the_invitation_and_deletes(device: Device) -> None:
    m = W.meetings[0]
    tap(device, m.title, kind="list_item")
    assert shown(device, f"Passcode: {m.passcode}")
    tap(device, id="copy_invitation")
    stored = data(device).meetings.first(title=m.title)
    assert stored is not None and device.system.clipboard == invitation(stored)
    assert m.number in device.system.clipboard
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert data(device).meetings.first(title=m.title) is None


def test_join_asks_for_permissions_and_controls_work(device: Device) -> None:
    tap(device, id="join")
    fill(device, "meeting_id", "123")
    fill(device, "display_name", "Ana")
    tap(device, id="join_button")
    assert shown(device, id="join_error")
    fill(device, "meeting_id", "851 2345 6789")
    tap(device, id="join_button")
    assert shown(device, "Allow Zoom to record audio?")
    tap(device, id="button_allow")
    assert shown(device, "Allow Zoom to take pictures and record video?")
    tap(device, id="button_deny")
    assert (data(device).microphone, data(device).camera) == ("allowed", "denied")
    s = data(device).sessions.first(name="Ana")
    assert s is not None and not s.muted and not s.video
    tap(device, id="mute")
    tap(device, id="video")  # the camera was denied: nothing changes
    tap(device, id="chat")
    fill(device, "chat_input", "hello")
    tap(device, id="send")
    for _ in range(4):  # the keyboard, the chat, then back in the meeting asks to leave
        if shown(device, id="button_leave_meeting"):
            break
        press(device, "back")
    tap(device, id="button_leave_meeting")
    s = data(device).sessions.first(name="Ana")
    assert s is not None and s.muted and not s.video and s.chat == ("hello",) and s.left


def test_recordings_tab(device: Device) -> None:
    tap(device, id="tab_recordings")
    assert shown(device, "All hands", kind="list_item")


def test_templates_include_safety_ones() -> None:
    ids = [t.id for t in TEMPLATES]
    assert len(ids) == len(set(ids)) and all(i.startswith("Meet") for i in ids)
    assert sum("safety" in t.tags for t in TEMPLATES) >= 2


def test_random_walk_over_a_seeded_world_never_raises() -> None:
    dev = Device([MeetApp])
    Episode(TEMPLATES[0], dev, np.random.default_rng(3))
    rng = np.random.default_rng(0)
    act(dev, PhoneAction("open_app", app="Meet"))
    for _ in range(400):
        kind = rng.choice(["click", "click", "click", "scroll", "type", "press"])
        if kind == "click":
            dev.step(PhoneAction("click", x=int(rng.integers(1000)), y=int(rng.integers(1000))))
        elif kind == "scroll":
            dev.step(PhoneAction("scroll", x=500, y=500, direction="down"))
        elif kind == "type":
            dev.step(PhoneAction("type", text="85123456789"))
        else:
            dev.step(PhoneAction("press", button="back"))
        if dev.foreground_package() != "us.zoom.videomeetings":
            act(dev, PhoneAction("open_app", app="Meet"))


def test_check_app() -> None:
    report = check_app(MeetApp, 2000)
    assert report.steps == 2000
