"""OpenTracks driven through phone actions: the list newest first with its totals, the
category filter, an activity's page, deleting with a confirmation, and the authoring
checks."""

from __future__ import annotations

import pytest
from driving import Driver, act, long_press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.opentracks import APP
from phone_gym.mockapps.opentracks.app import OpenTracksApp, add_activity, say_duration
from phone_gym.testing import check_app
from phone_gym.world import Device


def app_of(device: Device) -> OpenTracksApp:
    app = device.apps["OpenTracks"]
    assert isinstance(app, OpenTracksApp)
    return app


@pytest.fixture
def device() -> Device:
    dev = Device([OpenTracksApp])
    data = app_of(dev).data
    add_activity(data, "Morning run", "Running", "2023-10-12T07:00", 45, 7230, 40)
    add_activity(data, "Commute", "Cycling", "2023-10-13T08:10", 30, 9100, 20, "Windy")
    add_activity(data, "Lake loop", "Running", "2023-10-14T09:00", 95, 12_340, 80)
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="OpenTracks"))
    return dev


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


def test_list_is_newest_first_with_totals(device: Device) -> None:
    assert rows(device) == ["Lake loop", "Commute", "Morning run"]
    totals = Driver(device).find(id="totals")
    assert totals is not None and totals.node.text == "3 activities · 28.67 km · 2:50 h"


def test_the_category_filter_narrows_the_list_and_the_totals(device: Device) -> None:
    tap(device, id="chip_running")
    assert rows(device) == ["Lake loop", "Morning run"]
    totals = Driver(device).find(id="totals")
    assert totals is not None and totals.node.text == "2 activities · 19.57 km · 2:20 h"
    tap(device, id="chip_running")  # tapping the chosen chip shows everything again
    assert len(rows(device)) == 3


def test_an_activity_page_shows_its_figures(device: Device) -> None:
    tap(device, id="activity_2")
    for text in ("Cycling", "Fri, Oct 13, 2023 08:10", "30 min", "9.10 km", "20 m", "Windy"):
        assert shown(device, text), text
    assert say_duration(95) == "1:35 h"


def test_deleting_asks_first(device: Device) -> None:
    long_press(device, "Commute", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_cancel")
    assert len(app_of(device).data.activities) == 3
    tap(device, id="activity_1")
    tap(device, id="delete")
    tap(device, id="button_delete")
    assert [a.name for a in app_of(device).data.activities] == ["Commute", "Lake loop"]
    assert rows(device) == ["Lake loop", "Commute"]


def test_check_app() -> None:
    check_app(APP, 2000)


def test_category_lists_and_totals_follow_writes(device: Device) -> None:
    """Each category's list (an index kept on write) and the totals line equal the filter
    and the sums over every activity."""
    from phone_gym.mockapps.opentracks.app import ALL, CATEGORIES, newest_first
    from phone_gym.world.data import total
    app = app_of(device)
    for i in range(30):
        add_activity(app.data, f"Walk {i}", CATEGORIES[i % 3], f"2023-10-{1 + i % 20:02d}T08:00",
                     20 + i, 1000 * i)
    app.data.activities.update(3, category=CATEGORIES[4], distance_m=5)
    app.data.activities.remove(4)
    every = sorted(app.data.activities, key=newest_first)
    for category in (ALL, *CATEGORIES[:5]):
        want = [a for a in every if category in (ALL, a.category)]
        shown = app.shown(category)
        assert [a.id for a in shown] == [a.id for a in want]
        assert total(shown, "distance_m") == sum(a.distance_m for a in want)
        assert total(shown, "duration_min") == sum(a.duration_min for a in want)
