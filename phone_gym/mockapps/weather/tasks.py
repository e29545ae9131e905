"""Weather tasks: add, remove and reorder cities, switch units, a two-stage set-up, and
look-ups answered by type (tomorrow's high, rain on a weekday, the rainiest hour, the city
with a severe weather alert). Forecasts follow from the seed that ``setup`` draws, so
look-ups read their answer from the initial snapshot, never from the params."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, DeleteRecord, Lookup
from ...tasks.families import scan_rows as scan
from ...tasks.task import Task, data_catalogue
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Becomes, Criterion, Record, Value, lookup
from ...world.app import app_strings
from ...world.locale import DEFAULT_LOCALE
from .app import (
    ALERT_DAYS,
    RAIN,
    UNITS,
    WeatherApp,
    alerts,
    forecast,
    has_alert,
    hourly,
    ordered,
)
from .fixtures import CITY_NAMES, CITY_TABLE, UNITS_PATH, seed_weather


def saved_names(state: Mapping[str, Any]) -> list[str]:
    rows = lookup(state, CITY_TABLE)
    rows = rows if isinstance(rows, Mapping) else {}
    return [r["name"] for r in sorted(rows.values(), key=lambda r: (r["pos"], r["id"]))]


def shown(ui: Driver, key: str) -> str:
    """A city, unit or label as the phone's locale shows it (伦敦 for London in zh-CN)."""
    return app_strings(WeatherApp, ui.locale).t(key)


def percent(hint: str) -> int:
    """The rain chance in a forecast row's hint: "9° / 4° · 30% rain · Cloudy", "8° · 降水概率
    20%"."""
    found = re.search(r"(\d+)%", hint)
    assert found is not None, hint
    return int(found[1])


#: The data in zh-CN (``strings/zh-CN.data.json``): the cities as a Chinese phone shows
#: them (伦敦), the units' names and the weekdays (周一) an instruction says.
DATA = {"zh-CN": data_catalogue(__file__, "zh-CN")}
KEYS = {v: k for table in DATA.values() for k, v in table.items()}


def key(city: str) -> str:
    """The app's key of a city a template names in any locale (伦敦: London)."""
    return KEYS.get(city, city)


class WeatherZh(Task):
    """The zh-CN side of Weather's templates: the params name the cities, units and weekdays
    as the Chinese phone shows them (伦敦, 摄氏度, 周一: ``DATA``), the app's data keep their
    keys (``key``), and the oracle taps and types what the screen shows. Templates built on
    these elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True


def open_city(ui: Driver, city: str) -> Iterator[PhoneAction]:
    yield from ui.open_app("Weather")
    yield from ui.tap(city, kind="list_item")


def set_units(ui: Driver, units: str) -> Iterator[PhoneAction]:
    """Open Weather's Units dialog and pick ``units`` unless it is checked already."""
    yield from ui.open_app("Weather")
    ui.why("Opening the Units dialog to see which unit is set")
    yield from ui.tap(id="units")
    label = shown(ui, UNITS[units])
    if ui.must(label, kind="radio").checked:
        ui.why(f"{label} is checked already: closing the dialog")
        yield from ui.tap(id="button_cancel")
    else:
        ui.why(f"{label} is not checked: choosing it")
        yield from ui.tap(label)


class WeatherTask(WeatherZh):
    apps = ("Weather",)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"city": pick(rng, CITY_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, cities=[key(params["city"])])


class WeatherLookup(WeatherTask, Lookup):
    """A look-up about ``params["city"]`` whose forecast follows from ``params["seed"]``
    (so ``expected`` recomputes it; the params never hold the answer itself)."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"city": pick(rng, CITY_NAMES), "seed": int(rng.integers(1, 1_000_000))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, cities=[key(params["city"])], seed=params["seed"])


# --- cities and units ------------------------------------------------------------------------
class WeatherAddCity(WeatherTask, CreateRecord):
    collection = CITY_TABLE
    template = "Add {city} to my cities in the Weather app."
    instructions = {"zh-CN": "在天气应用里把{city}添加到我的城市。"}
    complexity, max_steps = 1, 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"city": pick(rng, CITY_NAMES[::2])}  # the saved ones are from the others

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, extra=int(rng.integers(1, 5)), avoid=CITY_NAMES[::2])

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": key(p["city"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Weather")
        yield from ui.tap(id="add_city")
        yield from ui.fill("city_search", p["city"])
        yield from ui.tap(p["city"], kind="list_item")
        yield from ui.finish()


class WeatherRemoveCity(WeatherTask, DeleteRecord):
    collection = CITY_TABLE
    template = "Remove {city} from my cities in the Weather app."
    instructions = {"zh-CN": "在天气应用里把{city}从我的城市中移除。"}
    complexity, max_steps = 2, 12

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": key(p["city"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Weather")
        yield from ui.tap(id="manage")
        yield from ui.long_press(p["city"], kind="list_item")
        yield from ui.tap(shown(ui, "Remove"), kind="menu_item")
        yield from ui.tap(id="button_remove")
        yield from ui.finish()


class WeatherSwitchUnits(WeatherTask):
    template = "Make the Weather app show temperatures in {label}."
    instructions = {"zh-CN": "把天气应用的温度单位改成{label}。"}
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        units = pick(rng, ("C", "F"))
        return {"units": units, "label": UNITS[units].split(" (")[0]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, units="C" if params["units"] == "F" else "F")

    def criteria(self, p: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(UNITS_PATH, p["units"])]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(UNITS_PATH, p["units"])]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from set_units(ui, next(k for k, v in UNITS.items()
                                      if shown(ui, v).startswith(p["label"])))
        yield from ui.finish()


class WeatherMoveCityToTop(WeatherTask):
    template = "In the Weather app, move {city} to the top of my list of cities."
    instructions = {"zh-CN": "在天气应用里把{city}移到我的城市列表的最上面。"}
    complexity, max_steps = 2, 20

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        city = key(params["city"])
        app = seed_weather(state, rng, extra=int(rng.integers(2, 5)), avoid=[city])
        app.data.cities.new(name=city, pos=len(app.data.cities))
        rows = ordered(app.data.cities)
        k = int(rng.integers(1, len(rows)))  # where the city starts: never first
        rows.insert(k, rows.pop())
        for pos, c in enumerate(rows):
            app.data.cities.update(c.id, pos=pos)

    def criteria(self, p: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        rows = lookup(initial, CITY_TABLE)
        names = saved_names(initial)
        names.remove(key(p["city"]))
        want = [key(p["city"]), *names]
        keys = {r["name"]: k for k, r in rows.items()}
        return [Value(f"{CITY_TABLE}.{keys[n]}.pos", pos) for pos, n in enumerate(want)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CITY_TABLE, "modified", fields=("pos",),
                      max=len(saved_names(initial)))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Weather")
        yield from ui.tap(id="manage")
        city = p["city"]
        for _ in range(len(CITY_NAMES)):
            row = ui.must(city, kind="list_item")
            if row.hint == "#1":
                ui.why(f"{city} is first in the list now")
                break
            ui.why(f"{city} is {row.hint} in the list: moving it up one place")
            yield from ui.long_press(city, kind="list_item")
            yield from ui.tap(shown(ui, "Move up"), kind="menu_item")
        yield from ui.finish()


class WeatherAddCityInFahrenheit(WeatherTask):
    template = ("Set up the Weather app for my trip: add {city} to my cities and show "
                "temperatures in Fahrenheit.")
    instructions = {"zh-CN": "为我的旅行设置一下天气应用：把{city}添加到我的城市，并用华氏度显示"
                             "温度。"}
    complexity, max_steps = 2, 20

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, avoid=[key(params["city"])])

    def criteria(self, p: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(CITY_TABLE, {"name": key(p["city"])}, count=1), Value(UNITS_PATH, "F")]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CITY_TABLE, "added", max=1), Becomes(UNITS_PATH, "F")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Weather")
        city = p["city"]
        ui.why(f"Looking for {city} among my cities")
        yield from scan(ui, "city_")
        if ui.find(city, kind="list_item") is None:
            ui.why(f"{city} is not in my cities: adding it")
            yield from ui.tap(id="add_city")
            yield from ui.fill("city_search", city)
            yield from ui.tap(city, kind="list_item")
        yield from set_units(ui, "F")
        yield from ui.finish()


# --- look-ups --------------------------------------------------------------------------------
class WeatherHighTomorrow(WeatherLookup):
    template = ("What is the highest temperature forecast for tomorrow in {city}, in degrees "
                "Celsius? Use the Weather app.")
    instructions = {"zh-CN": "用天气应用查一下：{city}明天的最高气温预计是多少摄氏度？"}
    complexity, max_steps = 2, 10
    answer_type = "number"

    def days(self, p: Mapping[str, Any]) -> list[Any]:
        return forecast(p["seed"], key(p["city"]), self.start.date())

    def expected(self, p: Mapping[str, Any]) -> Any:
        return self.days(p)[1].high

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        days = self.days(p)
        return sorted({days[1].low, days[0].high, days[2].high, days[1].high + 1}
                      - {days[1].high})

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_city(ui, p["city"])
        yield from ui.tap(shown(ui, "10 days"))
        row = ui.must(id="day_1")
        yield from ui.answer(row.hint.split(" / ")[0].rstrip("°"))


class WeatherRainOnDay(WeatherLookup):
    template = ("Is rain likely in {city} on {weekday}, with a chance of {threshold}% or "
                "more? Check the Weather app and answer yes or no.")
    instructions = {"zh-CN": "{city}{weekday}可能下雨吗（降水概率达到{threshold}%或以上）？"
                             "看一下天气应用，回答是或否。"}
    complexity, max_steps = 2, 12
    answer_type = "yes_no"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        offset = int(rng.integers(2, 7))
        day = self.start.date() + timedelta(days=offset)
        p = {"city": pick(rng, CITY_NAMES), "offset": offset,
             "weekday": day.strftime("%A"), "threshold": RAIN}
        rainy = bool(rng.random() < 0.5)  # half the episodes: yes
        for _ in range(200):
            p["seed"] = int(rng.integers(1, 1_000_000))
            if self.expected(p) == rainy:
                break
        return p

    def expected(self, p: Mapping[str, Any]) -> Any:
        offset = p["offset"]  # (the days up to it: each day is drawn on its own)
        return forecast(p["seed"], key(p["city"]), self.start.date(), offset + 1)[offset].rain \
            >= RAIN

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return ["Yes", "No"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_city(ui, p["city"])
        weekday = p["weekday"]  # Monday; 周一 on a Chinese phone
        ui.why(f"Opening {p['city']}'s 10-day forecast to find the coming {weekday}")
        yield from ui.tap(shown(ui, "10 days"))
        days = [e for e in ui.find_all(kind="list_item") if e.short_id.startswith("day_")
                and e.short_id != "day_0" and (e.text.startswith(weekday[:3])
                                               if ui.locale == DEFAULT_LOCALE
                                               else e.text.endswith(weekday))]
        row = min(days, key=lambda e: e.bounds[1])
        chance = percent(row.hint)
        ui.why(f"{row.text}: {chance}% chance of rain, against {RAIN}% asked")
        yes = chance >= RAIN
        yield from ui.answer(("Yes" if yes else "No") if ui.locale == DEFAULT_LOCALE
                             else ("是" if yes else "否"))


class WeatherRainiestHour(WeatherLookup):
    template = ("According to the Weather app's hourly forecast, at what hour is rain most "
                "likely in {city} for the rest of today?")
    instructions = {"zh-CN": "根据天气应用的逐小时预报，{city}今天接下来几点最有可能下雨？"}
    complexity, max_steps = 2, 16
    answer_type = "time"

    def hours(self, p: Mapping[str, Any]) -> list[Any]:
        return hourly(p["seed"], key(p["city"]), self.start)

    def expected(self, p: Mapping[str, Any]) -> Any:
        top = max(self.hours(p), key=lambda h: h.rain)
        return f"{top.hour:02d}:00"

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [f"{h.hour:02d}:00" for h in self.hours(p) if f"{h.hour:02d}:00" !=
                self.expected(p)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_city(ui, p["city"])
        ui.why(f"Reading every hour left today in {p['city']}'s hourly forecast")
        rows = yield from scan(ui, "hour_")
        ordered_rows = sorted(rows.values(), key=lambda e: int(e.short_id.split("_")[1]))
        top = max(ordered_rows, key=lambda e: percent(e.hint))
        ui.why(f"{top.text} has the highest chance of rain ({top.hint.split(' · ')[1]})")
        yield from ui.answer(top.text)


class WeatherCityWithAlert(WeatherLookup):
    template = "Which of my cities in the Weather app has a severe weather alert?"
    instructions = {"zh-CN": "天气应用里我的哪个城市有恶劣天气预警？"}
    complexity, max_steps = 2, 14
    answer_type = "name"
    max_steps = 10
    CITIES: ClassVar[int] = 4

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        cities = pick(rng, CITY_NAMES, self.CITIES)
        for _ in range(500):
            seed = int(rng.integers(1, 1_000_000))
            if self.one_alerted(seed, cities):
                break
        return {"cities": cities, "seed": seed}

    def one_alerted(self, seed: int, names: Sequence[str]) -> bool:
        """``len(self.alerted(seed, names)) == 1``, reading no more forecasts than it needs
        (most seeds tried are not kept)."""
        found = 0
        for name in names:
            if has_alert(seed, key(name), self.start.date()):
                found += 1
                if found > 1:
                    return False
        return found == 1

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_weather(state, rng, cities=[key(c) for c in params["cities"]], extra=0,
                     seed=params["seed"])

    def alerted(self, seed: int, names: Sequence[str]) -> list[str]:
        return [n for n in names
                if alerts(forecast(seed, key(n), self.start.date(), ALERT_DAYS))]

    def expected(self, p: Mapping[str, Any]) -> Any:
        return self.alerted(p["seed"], p["cities"])[0]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [c for c in p["cities"] if c != self.expected(p)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Weather")
        ui.why("Reading my cities' rows: a severe alert shows as ⚠ Alert")
        rows = yield from scan(ui, "city_")
        for row in sorted(rows.values(), key=lambda e: int(e.short_id.split("_")[1])):
            if "⚠" in row.hint:  # "⚠ Alert" / "⚠ 预警"
                ui.why(f"{row.text}'s row shows an alert")
                yield from ui.answer(row.text)
                return
        yield from ui.answer("none")  # pragma: no cover - setup makes one


TEMPLATES: list[Task] = [
    WeatherAddCity(), WeatherRemoveCity(), WeatherSwitchUnits(), WeatherMoveCityToTop(),
    WeatherAddCityInFahrenheit(), WeatherHighTomorrow(), WeatherRainOnDay(),
    WeatherRainiestHour(), WeatherCityWithAlert(),
]
