"""Persistent bookings (``crossapp/persistent_bookings.py``): the calendar event must match
the record made in the other app (its times and its meeting ID, read from the final state),
and only the booking's own event may go."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps import APPS
from phone_gym.mockapps.crossapp.persistent_bookings import (
    TEMPLATES,
    CrossHotelCancelWithEvent,
    CrossMeetScheduleToCalendar,
    CrossTravelChangeTrainUpdateEvent,
    EventMatchesMeeting,
)
from phone_gym.mockapps.task import Episode
from phone_gym.world import Device

MEETING = {"title": "Data review", "date": "2026-10-20", "time": "14:30", "minutes": 45,
           "number": "812 3456 7890"}
EVENT = {"title": "Data review", "start": "2026-10-20T14:30:00", "end": "2026-10-20T15:15:00",
         "description": "Zoom meeting ID: 812 3456 7890", "location": "", "all_day": False,
         "rrule": ""}


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


def state(*events: dict[str, Any]) -> dict[str, Any]:
    return {"apps": {"Meet": {"meetings": {"1": MEETING}}},
            "events": {str(i + 1): e for i, e in enumerate(events)}}


def test_every_template_is_persistent_across_two_apps_or_more() -> None:
    assert len(TEMPLATES) >= 12 and len({t.id for t in TEMPLATES}) == len(TEMPLATES)
    for t in TEMPLATES:
        assert "persistent" in t.tags and len(set(t.apps)) >= 2, t.id
        assert t.id == type(t).__name__
    assert sum("long_horizon" in t.tags for t in TEMPLATES) >= 4


def test_the_event_must_match_the_meeting_as_saved() -> None:
    check = EventMatchesMeeting("Data review")
    assert check.check(state(EVENT), None)[0]
    assert check.check(state({**EVENT, "description": "ID 81234567890"}), None)[0]
    assert not check.check(state({**EVENT, "start": "2026-10-20T15:30:00"}), None)[0]
    assert not check.check(state({**EVENT, "end": "2026-10-20T15:00:00"}), None)[0]
    assert not check.check(state({**EVENT, "description": ""}), None)[0]
    dump = "812 3456 7890, 845 1111 2222"  # every meeting's ID: refused
    assert not check.check(state({**EVENT, "description": dump}), None)[0]
    assert not check.check(state(EVENT, EVENT), None)[0]  # a second event
    assert not check.check(state(), None)[0]


def test_scheduling_then_editing_the_event_an_hour_off_fails(device: Device) -> None:
    ep = Episode(CrossMeetScheduleToCalendar(), device, np.random.default_rng(3))
    ep.solve()
    assert ep.verify(None, "success").success
    events = ep.device.system.events
    mine = next(e for e in events if e.title == ep.params["title"])
    start = mine.start.replace(f"T{mine.start[11:13]}", f"T{int(mine.start[11:13]) + 1:02d}")
    events.put(replace(mine, start=start))
    assert not ep.verify(None, "success").success


def test_cancelling_deletes_only_that_stays_event(device: Device) -> None:
    ep = Episode(CrossHotelCancelWithEvent(), device, np.random.default_rng(1))
    ep.solve()
    assert ep.verify(None, "success").success
    stays = [e for e in ep.device.system.events if e.title.startswith("Stay at")]
    assert len(stays) == 2  # the other hotel's stay and the same hotel's other stay remain
    ep.device.system.events.remove(stays[0].id)
    assert not ep.verify(None, "success").success


def test_the_train_events_new_times_come_from_the_new_train(device: Device) -> None:
    task = CrossTravelChangeTrainUpdateEvent()
    ep = Episode(task, device, np.random.default_rng(2))
    ep.solve()
    assert ep.verify(None, "success").success
    new = task.next_train(ep.params)
    event = next(e for e in ep.device.system.events
                 if e.title == ep.params["event"] and e.start.startswith(ep.params["day"]))
    assert event.start[11:16] == new["depart"]
