"""Persistent bookings (``crossapp/persistent_bookings.py``): the calendar event must match
the record made in the other app (its times and its meeting ID, read from the final state),
and only the booking's own event may go."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.persistent_bookings import (
    TEMPLATES,
    CrossHotelCancelWithEvent,
    CrossMailFlightChangeToCalendar,
    CrossMapsCafeToCalendar,
    CrossMeetScheduleToCalendar,
    CrossRideScheduleEventAlarm,
    CrossTravelChangeTrainUpdateEvent,
    CrossTravelFlightAlarm,
    meeting_event,
)
from phone_gym.mockapps import APPS
from phone_gym.tasks.driver import Driver
from phone_gym.tasks.task import Episode
from phone_gym.world import Device

MEETING = {"title": "Data review", "date": "2026-10-20", "time": "14:30", "minutes": 45,
           "number": "812 3456 7890"}
EVENT = {"title": "Data review", "start": "2026-10-20T14:30:00", "end": "2026-10-20T15:15:00",
         "description": "Zoom meeting ID: 812 3456 7890", "location": "", "all_day": False,
         "rrule": ""}


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


def screen_only(episode: Episode) -> Episode:
    """``episode`` whose oracle sees only the screen (reading the phone's state raises)."""
    episode.driver = lambda: Driver(episode.host.elements)  # type: ignore[method-assign]
    return episode


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
    check = meeting_event("Data review")
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
    ep = screen_only(Episode(CrossHotelCancelWithEvent(), device, np.random.default_rng(1)))
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


def test_a_repeating_alarm_for_todays_ride_fails(device: Device) -> None:
    """The ride is today only: an alarm that repeats every day is more than was asked."""
    ep = Episode(CrossRideScheduleEventAlarm(), device, np.random.default_rng(4))
    ep.solve()
    assert ep.verify(None, "success").success
    alarms = ep.device.system.alarms
    mine = next(a for a in alarms if a.label == ep.params["label"]
                and (a.hour, a.minute) == (ep.params["hour"], ep.params["minute"]))
    alarms.put(replace(mine, days=("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")))
    assert not ep.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 5])
def test_the_flights_departure_is_read_off_the_booking(device: Device, seed: int) -> None:
    episode = screen_only(Episode(CrossTravelFlightAlarm(), device,
                                  np.random.default_rng(seed)))
    episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 3])
def test_the_new_flight_times_are_read_off_the_mail(device: Device, seed: int) -> None:
    episode = screen_only(Episode(CrossMailFlightChangeToCalendar(), device,
                                  np.random.default_rng(seed)))
    episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 1])
def test_the_best_cafe_is_read_off_the_sorted_results(device: Device, seed: int) -> None:
    episode = screen_only(Episode(CrossMapsCafeToCalendar(), device,
                                  np.random.default_rng(seed)))
    episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("task_id", ["CrossMeetFollowCalendarMove", "CrossCalendarEventToMeet"])
def test_the_meetings_time_is_read_off_the_calendar(device: Device, task_id: str) -> None:
    """The oracle gets no date, time or length: it reads them on the calendar's event."""
    task = next(t for t in TEMPLATES if t.id == task_id)
    episode = Episode(task, device, np.random.default_rng(6))
    told = {k: v for k, v in episode.params.items() if k not in ("date", "time", "minutes")}
    for action in task.oracle(Driver(episode.host.elements), told):
        if action.type != "finish":
            assert episode.device.step(action) is None, action
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 2])
def test_the_hotel_to_cancel_is_found_on_the_bookings_list(device: Device, seed: int) -> None:
    task = next(t for t in TEMPLATES if t.id == "CrossTravelCancelHotelWithEvent")
    episode = screen_only(Episode(task, device, np.random.default_rng(seed)))
    episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 4])
def test_the_next_train_is_read_off_the_later_trains(device: Device, seed: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle picks the next train and its times on the "Later trains" list, not from
    the params."""
    task = CrossTravelChangeTrainUpdateEvent()
    episode = Episode(task, device, np.random.default_rng(seed))
    with monkeypatch.context() as patch:
        patch.setattr(task, "next_train", lambda p: pytest.fail("read the params"))
        episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 3])
def test_the_paid_stay_in_the_city_is_found_on_screen(device: Device, seed: int) -> None:
    """Two paid orders on the same dates: the one in the city is told by the city's search
    results (the orders show no city), and its hotel and dates are read off the list."""
    task = next(t for t in TEMPLATES if t.id == "CrossHotelOrderToCalendar")
    episode = screen_only(Episode(task, device, np.random.default_rng(seed)))
    episode.solve()
    assert episode.verify(None, "success").success


@pytest.mark.parametrize("seed", [0, 7])
def test_the_flight_is_chosen_and_timed_off_the_results(device: Device, seed: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle picks the shortest flight under the cap, and its times, on the sorted
    results, not from the params."""
    task = next(t for t in TEMPLATES if t.id == "CrossTravelFlightToCalendar")
    episode = Episode(task, device, np.random.default_rng(seed))
    with monkeypatch.context() as patch:
        patch.setattr(task, "target_flight", lambda p: pytest.fail("read the params"))
        episode.solve()
    assert episode.verify(None, "success").success
