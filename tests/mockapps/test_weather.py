"""The Weather app driven through phone actions: the city list, a city's hourly and 10-day
forecast, adding, removing and reordering cities, and units."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest
from driving import Driver, fill, long_press, open_app, shown, tap

from phone_gym.mockapps.weather import WeatherApp
from phone_gym.mockapps.weather.app import (
    RAIN,
    degrees,
    forecast,
    hourly,
    ordered,
)
from phone_gym.world import Device


def element(device: Device, **query: str) -> Any:
    """The matching widget on screen (it must be there)."""
    found = Driver(device).find(**query)
    assert found is not None, query
    return found.node


def app_of(device: Device) -> WeatherApp:
    app = device.apps["Weather"]
    assert isinstance(app, WeatherApp)
    return app


@pytest.fixture
def device() -> Device:
    d = Device([WeatherApp])
    data = app_of(d).data
    for pos, name in enumerate(("London", "Oslo", "Tokyo")):
        data.cities.new(name=name, pos=pos)
    data.seed = 42
    open_app(d, "Weather")
    return d


def names(device: Device) -> list[str]:
    return [c.name for c in ordered(app_of(device).data.cities)]


def test_the_forecast_is_a_pure_function_of_seed_city_and_date() -> None:
    days = forecast(7, "Paris", date(2026, 10, 15))
    assert days == forecast(7, "Paris", date(2026, 10, 15)) and len(days) == 10
    assert all(d.low < d.high and 0 <= d.rain <= 100 for d in days)
    assert days[0].condition == ("Rain" if days[0].rain >= RAIN else days[0].condition)
    hours = hourly(7, "Paris", datetime(2026, 10, 15, 9, 30))
    assert [h.hour for h in hours] == list(range(9, 24))
    assert len({h.rain for h in hours}) == len(hours)  # one rainiest hour
    assert degrees(20, "F") == "68°" and degrees(20, "C") == "20°"


def test_city_page_tabs(device: Device) -> None:
    tap(device, "Tokyo", kind="list_item")
    assert shown(device, id="hour_0")
    tap(device, "10 days")
    day = forecast(42, "Tokyo", app_of(device).system.now.date())[1]
    row = element(device, id="day_1")
    assert row.hint.startswith(f"{day.high}° / {day.low}°")


def test_add_remove_and_reorder(device: Device) -> None:
    tap(device, desc="Add city")
    fill(device, "city_search", "Par")
    tap(device, "Paris", kind="list_item")
    assert names(device) == ["London", "Oslo", "Tokyo", "Paris"]
    tap(device, desc="Manage cities")
    long_press(device, "Paris", kind="list_item")
    tap(device, "Move up", kind="menu_item")
    assert names(device) == ["London", "Oslo", "Paris", "Tokyo"]
    long_press(device, "Oslo", kind="list_item")
    tap(device, "Remove", kind="menu_item")
    tap(device, id="button_remove")
    assert names(device) == ["London", "Paris", "Tokyo"]


def test_units(device: Device) -> None:
    tap(device, desc="Units")
    tap(device, "Fahrenheit (°F)")
    assert app_of(device).data.units == "F"
    tap(device, "London", kind="list_item")
    assert "°" in element(device, id="current").text


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Weather", 300)
