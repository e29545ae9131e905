"""Meet (Zoom) driven through phone actions: scheduling with the pickers and the contact
picker, the meeting page (copy the invitation, edit, delete), joining with the permission
prompts, and the in-meeting controls."""

from __future__ import annotations

import numpy as np
import pytest
from driving import act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.meet.app import MeetApp, MeetData, invitation
from phone_gym.mockapps.meet.fixtures import seed_world, world
from phone_gym.mockapps.meet.tasks import TEMPLATES, set_date, set_time
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
