"""Weather: saved cities (add, remove, reorder), each with current conditions, an hourly
forecast for the rest of today and a 10-day forecast (temperature, rain chance, wind, UV),
severe weather alerts, and °C/°F units.

The forecast is a pure function of the app's ``seed`` (drawn per episode), the city and the
date (``forecast``, ``hourly``), so the snapshot holds only ``seed``, the cities (``pos``:
their order, 0 first) and ``units``; verifiers recompute a forecast from the seed.
Temperatures are stored in °C and shown in the chosen units.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache, partial

import numpy as np

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import ChoiceDialog, ConfirmDialog, Tabs
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import Place, SearchAppBar
from ...world.locale import ZH_WEEKDAYS, format_date
from ...world.widgets import (
    Icon,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: Cities the app knows: name -> typical daytime temperature in October (°C).
CITIES: dict[str, int] = {
    "London": 15, "Paris": 16, "Berlin": 13, "Madrid": 21, "Rome": 22, "Lisbon": 22,
    "Amsterdam": 14, "Vienna": 14, "Oslo": 9, "Stockholm": 10, "Dublin": 13, "Athens": 24,
    "New York": 18, "Chicago": 16, "Toronto": 13, "Seattle": 15, "Tokyo": 22, "Sydney": 22,
    "Cape Town": 20, "Mumbai": 33, "Singapore": 31, "Mexico City": 23, "Reykjavik": 6,
    "Buenos Aires": 21,
}
UNITS = {"C": "Celsius (°C)", "F": "Fahrenheit (°F)"}
DAYS = 10
RAIN = 50  # a day or hour with this chance of rain or more shows "Rain"
WIND_ALERT = 70  # km/h: a wind warning


@dataclass(frozen=True)
class City:
    id: int
    name: str
    pos: int


@dataclass(frozen=True)
class Day:
    """One day of a city's forecast (°C, %, km/h)."""

    day: date
    high: int
    low: int
    rain: int
    wind: int
    uv: int

    @property
    def condition(self) -> str:
        return "Rain" if self.rain >= RAIN else "Cloudy" if self.rain >= 30 else "Sunny"


@dataclass(frozen=True)
class Hour:
    hour: int
    temp: int
    rain: int


@dataclass
class WeatherData(Store):
    cities: Table[City] = field(default_factory=lambda: Table(kind=City))
    units: str = "C"
    seed: int = 0


@dataclass
class WeatherUi:
    query: str = ""
    tab: str = "Hourly"
    dialog: str = ""
    target: int = 0


# --- the forecast ------------------------------------------------------------------------------
def _rng(seed: int, city: str, day: date, what: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(f"{city}|{day.isoformat()}|{what}".encode())])


@lru_cache(maxsize=4096)
def _forecast(seed: int, city: str, today: date, days: int) -> tuple[Day, ...]:
    return tuple(_day(seed, city, today + timedelta(days=i)) for i in range(days))


def forecast(seed: int, city: str, today: date, days: int = DAYS) -> list[Day]:
    """The ``days``-day forecast of ``city`` from ``today`` (cached: screens ask often; each
    day drawn from its own generator, so the first days cost no more than themselves)."""
    return list(_forecast(seed, city, today, days))


@lru_cache(maxsize=16384)
def _day(seed: int, city: str, day: date) -> Day:
    r = _rng(seed, city, day, "day")
    high = CITIES.get(city, 15) + int(r.integers(-5, 6))
    return Day(day, high, high - int(r.integers(4, 11)), int(r.integers(0, 11)) * 10,
               int(r.integers(5, 90)), int(r.integers(0, 9)))


def hourly(seed: int, city: str, now: datetime) -> list[Hour]:
    """Hours from ``now``'s hour to 23:00; the rain chances are all different (steps of 5)."""
    return list(_hourly(seed, city, now.date(), now.hour))


@lru_cache(maxsize=4096)
def _hourly(seed: int, city: str, day: date, hour: int) -> tuple[Hour, ...]:
    now = datetime(day.year, day.month, day.day, hour)
    today = forecast(seed, city, now.date(), 1)[0]
    hours = list(range(now.hour, 24))
    r = _rng(seed, city, now.date(), "hours")
    chances = r.choice(21, size=len(hours), replace=False) * 5
    out = []
    for h, chance in zip(hours, chances, strict=True):
        warm = max(0.0, 1 - abs(h - 15) / 9)
        out.append(Hour(h, round(today.low + (today.high - today.low) * warm), int(chance)))
    return tuple(out)


#: The days ``alerts`` reads.
ALERT_DAYS = 3


def has_alert(seed: int, city: str, today: date) -> bool:
    """Whether ``alerts(forecast(seed, city, today))`` holds any: the days drawn one by one
    up to the first alerted (what a task that tries seeds asks of many cities)."""
    return any(_day(seed, city, today + timedelta(days=i)).wind >= WIND_ALERT
               for i in range(ALERT_DAYS))


def alerts(days: list[Day]) -> list[str]:
    """Severe weather alerts for the next three days."""
    return [f"Wind warning · {d.day.strftime('%a')} · gusts to {d.wind} km/h"
            for d in days[:ALERT_DAYS] if d.wind >= WIND_ALERT]


def degrees(celsius: int, units: str) -> str:
    return f"{round(celsius * 9 / 5 + 32)}°" if units == "F" else f"{celsius}°"


def ordered(cities: Table[City]) -> list[City]:
    return sorted(cities, key=lambda c: (c.pos, c.id))


# --- the app -------------------------------------------------------------------------------
class WeatherApp(App):
    manifest = MANIFEST

    data: WeatherData
    ui: WeatherUi

    def initial_data(self) -> WeatherData:
        return WeatherData()

    def initial_ui(self) -> WeatherUi:
        return WeatherUi()

    # --- updates --------------------------------------------------------------------------
    def add_city(self, name: str) -> None:
        if any(c.name == name for c in self.data.cities):
            self.toast(self.t("{name} is already saved", name=self.t(name)))
        else:
            last = max((c.pos for c in self.data.cities), default=-1)
            self.data.cities.new(name=name, pos=last + 1)
            self.toast(self.t("Added {name}", name=self.t(name)))
        self.back()

    def move(self, city_id: int, step: int) -> None:
        """Swap a city with its neighbour above (-1) or below (+1); positions stay 0..n-1."""
        rows = ordered(self.data.cities)
        i = next((k for k, c in enumerate(rows) if c.id == city_id), None)
        if i is None or not 0 <= i + step < len(rows):
            return
        rows[i], rows[i + step] = rows[i + step], rows[i]
        for pos, c in enumerate(rows):
            if c.pos != pos:
                self.data.cities.update(c.id, pos=pos)

    def ask(self, dialog: str, target: int = 0) -> None:
        self.ui.dialog, self.ui.target = dialog, target

    def remove(self, city_id: int) -> None:
        if self.data.cities.get(city_id) is not None:
            self.data.cities.remove(city_id)  # the others keep their positions
        self.ask("")

    def set_units(self, label: str) -> None:
        units = next(k for k, v in UNITS.items() if v == label)
        if units != self.data.units:
            self.data.units = units
        self.ask("")

    def set_query(self, text: str) -> None:
        self.ui.query = text

    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

    def open_city(self, name: str) -> None:
        self.ui.tab = "Hourly"
        self.go("city", name)

    # --- views ----------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen_for(route)
        return in_locale(self, screen)

    def screen_for(self, route: Route) -> Screen:
        if route.name == "city":
            return self.city_screen(route.arg)
        if route.name == "add":
            return self.add_screen()
        if route.name == "manage":
            return self.manage_screen()
        return self.main_screen()

    def main_screen(self) -> Screen:
        rows = ordered(self.data.cities)
        now = self.system.now
        units = self.data.units

        def row(i: int) -> Node:
            c = rows[i]
            days = forecast(self.data.seed, c.name, now.date(), ALERT_DAYS)
            today = days[0]
            temp = hourly(self.data.seed, c.name, now)[0].temp
            warn = " · " + self.t("⚠ Alert") if alerts(days) else ""
            return ListItem(self.t(c.name), f"{degrees(temp, units)} · "
                            f"{self.t(today.condition)}{warn}",
                            id=f"city_{c.id}", glyph="☀",
                            on_click=partial(self.open_city, c.name),
                            menu=[(self.t("Remove"), partial(self.ask, "remove", c.id))])

        dialog = None
        if self.ui.dialog == "units":
            dialog = ChoiceDialog("Units", list(UNITS.values()), UNITS[units], self.set_units,
                                  partial(self.ask, ""))
        dialog = dialog or self.remove_dialog()
        actions = [
            Icon("+", "Add city", partial(self.go, "add"), id="add_city"),
            Icon("≡", "Manage cities", partial(self.go, "manage"), id="manage"),
            Icon("⚙", "Units", partial(self.ask, "units"), id="units")]
        return Screen(
            # Google Weather: no title, the place (the first saved city) on the app bar
            top_bar=(SearchAppBar(Place(self.t(rows[0].name)), actions=actions) if rows
                     else TopBar("", actions=actions)),
            content=[VirtualList(len(rows), row, id="cities", empty_text="Add a city")],
            dialog=dialog, on_dismiss=partial(self.ask, ""))

    def city_screen(self, name: str) -> Screen:
        seed, units, now = self.data.seed, self.data.units, self.system.now
        days = forecast(seed, name, now.date())
        hours = hourly(seed, name, now)
        today = days[0]
        content: list[Node] = [
            Text(f"{degrees(hours[0].temp, units)} · {self.t(today.condition)}", style="title",
                 id="current"),
            Text(self.t("High {high} · Low {low}", high=degrees(today.high, units),
                        low=degrees(today.low, units)),
                 id="high_low"),
            Text(self.t("Rain {rain}% · Wind {wind} km/h · UV {uv}", rain=hours[0].rain,
                        wind=today.wind, uv=today.uv),
                 id="details"),
            *(Text(f"⚠ {a}", id=f"alert_{i}") for i, a in enumerate(self.alert_texts(days))),
            Tabs(("Hourly", "10 days"), self.ui.tab, self.set_tab, id="forecast_tabs")]
        if self.ui.tab == "10 days":
            def day_row(i: int) -> Node:
                d = days[i]
                label = self.t("Today") if i == 0 else self.day_label(d.day)
                return ListItem(label, f"{degrees(d.high, units)} / {degrees(d.low, units)} · "
                                + self.t("{rain}% rain", rain=d.rain)
                                + f" · {self.t(d.condition)}", id=f"day_{i}")
            content.append(VirtualList(len(days), day_row, id="days"))
        else:
            def hour_row(i: int) -> Node:
                h = hours[i]
                return ListItem(f"{h.hour:02d}:00", f"{degrees(h.temp, units)} · "
                                + self.t("{rain}% rain", rain=h.rain), id=f"hour_{i}")
            content.append(VirtualList(len(hours), hour_row, id="hours"))
        return Screen(top_bar=TopBar(self.t(name), on_back=self.back), content=content)

    def add_screen(self) -> Screen:
        saved = {c.name for c in self.data.cities}
        q = self.ui.query.strip().lower()
        found = [n for n in sorted(CITIES)  # blank: every city; by its shown name too
                 if q in n.lower() or q in self.t(n).lower()]

        def row(i: int) -> Node:
            name = found[i]
            return ListItem(self.t(name), "Saved" if name in saved else "", id=f"result_{i}",
                            glyph="📍", on_click=partial(self.add_city, name))

        return Screen(top_bar=TopBar("Add city", on_back=self.back), content=[
            TextField(self.ui.query, self.set_query, id="city_search", label="Search",
                      hint="Search for a city"),
            Text("Popular cities" if not q else "Results", style="caption", id="results_title"),
            VirtualList(len(found), row, id="results", empty_text="No cities found")])

    def manage_screen(self) -> Screen:
        rows = ordered(self.data.cities)

        def row(i: int) -> Node:
            c = rows[i]
            return ListItem(self.t(c.name), f"#{i + 1}", id=f"manage_{c.id}", glyph="≡",
                            menu=[(self.t("Move up"), partial(self.move, c.id, -1)),
                                  (self.t("Move down"), partial(self.move, c.id, 1)),
                                  (self.t("Remove"), partial(self.ask, "remove", c.id))])

        dialog = self.remove_dialog()
        return Screen(top_bar=TopBar("Manage cities", on_back=self.back),
                      content=[VirtualList(len(rows), row, id="manage_list")],
                      dialog=dialog, on_dismiss=partial(self.ask, ""))

    def alert_texts(self, days: list[Day]) -> list[str]:
        """``alerts`` as shown: in the phone's locale (the weekday as the locale writes it)."""
        return [self.t("Wind warning · {day} · gusts to {wind} km/h", wind=d.wind,
                       day=self.weekday(d.day))
                for d in days[:3] if d.wind >= WIND_ALERT]

    def weekday(self, day: date) -> str:
        if self.system.locale == "zh-CN":
            return ZH_WEEKDAYS[day.weekday()].replace("星期", "周")
        return day.strftime("%a")

    def day_label(self, day: date) -> str:
        """A forecast day's row: "Sat 17 Oct" / "10月17日 周六"."""
        if self.system.locale == "zh-CN":
            return f"{format_date(day, self.system.locale, year=False)} {self.weekday(day)}"
        return day.strftime("%a %-d %b")

    def remove_dialog(self) -> Node | None:
        city = self.data.cities.get(self.ui.target) if self.ui.dialog == "remove" else None
        if city is None:
            return None
        return ConfirmDialog(self.t("Remove {name}?", name=self.t(city.name)), "", confirm="Remove",
                             on_confirm=partial(self.remove, city.id),
                             on_cancel=partial(self.ask, ""), destructive=True)
