"""The Calendar app (Simple Calendar Pro's counterpart) driven through phone actions: the
event list and the month view, choosing days and months, the editor with its date and time
pickers and repeats, search, deleting with a confirmation, and what the pure helpers say."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from driving import Driver, long_press, open_app, press, shown, tap, type_text
from driving import fill as drive_fill

from phone_gym.mockapps.calendar.app import (
    CalendarApp,
    events_on,
    occurs_on,
    rrule_for,
    span_text,
)
from phone_gym.tasks.aw import AW_START
from phone_gym.world import Device
from phone_gym.world.system import Event

OCT = "2023-10-"


def events(device: Device) -> list[Event]:
    return list(device.system.events)


def titled(device: Device, title: str) -> Event:
    found = [e for e in device.system.events if e.title == title]
    assert len(found) == 1, (title, found)
    return found[0]


def value(device: Device, which: str) -> str:
    found = Driver(device).find(id=f"{which}_value")
    assert found is not None, which
    return found.node.text


@pytest.fixture
def device() -> Device:
    """A phone on AndroidWorld's date (Sun Oct 15 2023 15:34) with three events, the
    calendar open on its event list."""
    dev = Device([CalendarApp], AW_START)
    new = dev.system.events.new
    new(title="Dentist", start=f"{OCT}15T17:00:00", end=f"{OCT}15T17:30:00",
        location="Room 204")
    new(title="Standup", start=f"{OCT}15T09:00:00", end=f"{OCT}15T09:15:00")
    new(title="Piano", start=f"{OCT}20T18:00:00", end=f"{OCT}20T19:00:00")
    new(title="Old trip", start="2023-09-02T10:00:00", end="2023-09-02T12:00:00")
    open_app(dev, "Calendar")
    return dev


# --- pure helpers --------------------------------------------------------------------------------
def test_repeats_and_spans() -> None:
    weekly = Event(1, "Yoga", "2023-10-17T08:00:00", "2023-10-17T09:00:00",
                   rrule=rrule_for("Weekly", date(2023, 10, 17)))
    daily = Event(2, "Walk", "2023-10-16T07:00:00", rrule=rrule_for("Daily", date(2023, 10, 16)))
    assert weekly.rrule == "FREQ=WEEKLY;BYDAY=TU" and daily.rrule == "FREQ=DAILY"
    assert occurs_on(weekly, date(2023, 10, 24)) and not occurs_on(weekly, date(2023, 10, 25))
    assert not occurs_on(weekly, date(2023, 10, 10))  # before it starts
    assert occurs_on(daily, date(2023, 12, 1)) and not occurs_on(daily, date(2023, 10, 15))
    assert span_text(weekly) == "08:00 – 09:00" and span_text(daily) == "07:00"
    assert [e.title for e in events_on([weekly, daily], date(2023, 10, 31))] == ["Walk", "Yoga"]


# --- screens --------------------------------------------------------------------------------------
def test_the_list_shows_upcoming_events_and_the_month_view_a_day_in_time_order(
        device: Device) -> None:
    assert shown(device, "Dentist") and shown(device, "Piano")
    assert not shown(device, "Old trip")  # the list starts today
    tap(device, id="tab_month")
    assert Driver(device).find(id="month_title").node.text == "October 2023"
    assert Driver(device).find(id="day_title").node.text == "Sunday, October 15, 2023"
    first, second = (Driver(device).find(t, kind="list_item") for t in ("Standup", "Dentist"))
    assert first is not None and second is not None
    assert first.rect[1] < second.rect[1]  # time order
    assert shown(device, "Dentist", kind="event_chip")  # the month's cells hold chips too
    tap(device, id=f"day_{OCT}20")
    assert shown(device, "Piano", kind="list_item")
    assert not shown(device, "Dentist", kind="list_item")
    tap(device, id="previous_month")
    tap(device, id="day_2023-09-02")
    assert shown(device, "Old trip", kind="list_item")
    tap(device, id="go_today")
    assert Driver(device).find(id="month_title").node.text == "October 2023"


def test_search_finds_past_events_with_their_day(device: Device) -> None:
    tap(device, id="search")
    tap(device, id="search", kind="text_field")
    type_text(device, "trip")
    assert shown(device, "Old trip") and not shown(device, "Piano")
    assert shown(device, "Sep 2, 2023 10:00 – 12:00")
    tap(device, "Old trip", kind="list_item")
    assert Driver(device).find(id="title", kind="text_field").node.text == "Old trip"


def test_a_new_event_on_the_chosen_day_with_pickers_and_a_repeat(device: Device) -> None:
    tap(device, id="tab_month")
    tap(device, id=f"day_{OCT}18")
    tap(device, id="new_event")
    assert value(device, "start_date") == "Oct 18, 2023"
    assert (value(device, "start_time"), value(device, "end_time")) == ("16:00", "17:00")
    tap(device, id="title", kind="text_field")
    type_text(device, "Haircut")
    press(device, "back")  # the keyboard
    tap(device, id="start_time")  # a new start moves the end along
    tap(device, desc="17 hours")  # on the clock face
    tap(device, id="material_timepicker_ok_button")
    assert (value(device, "start_time"), value(device, "end_time")) == ("17:00", "18:00")
    tap(device, id="end_time")
    tap(device, desc="17 hours")
    tap(device, desc="45 minutes")
    tap(device, id="material_timepicker_ok_button")
    tap(device, id="repeat")
    tap(device, id="option_weekly")
    tap(device, id="save")
    e = titled(device, "Haircut")
    assert (e.start, e.end, e.rrule) == (f"{OCT}18T17:00:00", f"{OCT}18T17:45:00",
                                         "FREQ=WEEKLY;BYDAY=WE")
    tap(device, id=f"day_{OCT}25")  # a weekly repeat shows a week later
    assert shown(device, "Haircut")


def test_save_refuses_an_empty_title_or_an_end_before_the_start(device: Device) -> None:
    before = len(events(device))
    tap(device, id="new_event")
    tap(device, id="save")
    assert len(events(device)) == before and shown(device, id="title")
    drive_fill(device, "title", "Backwards")
    tap(device, id="end_time")
    tap(device, desc="9 hours")
    tap(device, id="material_timepicker_ok_button")
    tap(device, id="save")
    assert len(events(device)) == before
    press(device, "back")  # discards the draft
    press(device, "back")
    assert len(events(device)) == before


def test_editing_duplicating_and_deleting_with_a_confirmation(device: Device) -> None:
    tap(device, "Piano", kind="list_item")
    drive_fill(device, "location", "Music school")
    tap(device, id="save")
    assert titled(device, "Piano").location == "Music school"
    tap(device, "Piano", kind="list_item")
    tap(device, id="duplicate")
    tap(device, id="save")
    assert len([e for e in events(device) if e.title == "Piano"]) == 2
    tap(device, "Dentist", kind="list_item")
    tap(device, id="delete")
    tap(device, id="button_cancel")
    assert any(e.title == "Dentist" for e in events(device))
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert not any(e.title == "Dentist" for e in events(device))
    long_press(device, "Standup", kind="list_item")  # the list's menu
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert not any(e.title == "Standup" for e in events(device))


def test_a_force_stop_keeps_events_and_forgets_the_draft(device: Device) -> None:
    tap(device, id="new_event")
    drive_fill(device, "title", "Unsaved")
    device.apps["Calendar"].stop()
    open_app(device, "Calendar")
    assert shown(device, id="event_list") and not any(e.title == "Unsaved"
                                                       for e in events(device))
    assert datetime.fromisoformat(titled(device, "Piano").start).day == 20


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Calendar", 300)
