"""Calendar tasks: AndroidWorld's Simple Calendar Pro tasks (adding, repeating and deleting
events; questions about the events of a day, a week or a person).

Every template runs on AndroidWorld's device date (``aw.AW_START``, Sunday Oct 15 2023
15:34). Events live in the phone's calendar provider (the shared ``events`` store). A real
phone keeps its own clock (it cannot be set to AndroidWorld's date), so only the templates
that find their event by search (whatever the phone's date, within the step budget) run on
real phones too (``real = True``); adding an event on an October 2023 day from another
month and year can take more than AndroidWorld's 34 steps. A repeat rule is
PhoneWorld's (the provider's ``rrule`` column is not read over adb here).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import (
    AW_START,
    AW_TODAY,
    WEEKDAYS,
    day_phrase,
    long_date,
    sample_phrasing,
    week_of,
)
from ...tasks.driver import Driver, OracleError
from ...tasks.families import CreateRecord, DeleteRecord, Lookup, at_end, scan
from ...tasks.pickers import pick_date, pick_time
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Answer, Criterion, Matcher, NearMiss, same_text
from ...verifiers.answers import answer_matcher
from ...world.locale import MissingString, format_date
from .app import MONTHS, month_title, short_day
from .fixtures import (
    COLLECTION,
    DATA,
    DESCRIPTIONS,
    DURATIONS,
    EVENING,
    LOCATIONS,
    PEOPLE,
    TITLES,
    add,
    at,
    datum,
    day_span,
    event_rows,
    iso,
    meeting_title,
    moment,
    names,
    overlaps,
    seed_noise,
    seed_random_events,
    specific_title,
    title_matcher,
)

OCT_1, OCT_31 = date(2023, 10, 1), date(2023, 10, 31)


def typed_text(expected: str) -> Matcher:
    """The text as typed: case, spacing and a final period aside, but no other punctuation
    (a description with a stray comma added is not the one asked for)."""
    def norm(value: object) -> str:
        return re.sub(r"\s+", " ", str(value)).strip().lower().removesuffix(".").rstrip()
    return Matcher(lambda v: norm(v) == norm(expected), f"the text {expected!r}")


#: A stored event without a repeat rule (a real phone's rows have no such column: None).
NO_REPEAT = Matcher(lambda v: not v, "no repeat rule")


# --- zh-CN ---------------------------------------------------------------------------------------
def zh_datum(value: Any, table: Mapping[str, str]) -> Any:
    """``value`` (params: strings, lists, dicts) with each seeded text in ``table``'s words
    (a specific title as its qualifier and title, "与孙燕的设计研讨会"); others kept."""
    if isinstance(value, str):
        if value in table:
            return table[value]
        try:
            return datum("zh-CN", value) if " with " in value or " about " in value else value
        except MissingString:
            return value
    if isinstance(value, Mapping):
        return {k: zh_datum(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(zh_datum(v, table) for v in value)
    return value


def zh_params(self: Task, params: dict[str, Any], table: Mapping[str, str]) -> dict[str, Any]:
    """A calendar template's ``localize_params``: the titles, descriptions and places in
    Chinese, and a day the instruction names by its date as 2023年10月20日."""
    out: dict[str, Any] = zh_datum(params, table)
    if "day" in params and params.get("day_text") == long_date(
            date.fromisoformat(params["day"]), year=True):
        out["day_text"] = format_date(date.fromisoformat(params["day"]), "zh-CN")
    return out


# --- oracle helpers ------------------------------------------------------------------------------
def shown_month(text: str) -> tuple[int, int]:
    """``(year, month)`` of a month title: ``October 2023`` or zh-CN's ``2023年10月``."""
    zh = re.fullmatch(r"(\d{4})年(\d{1,2})月", text)
    if zh:
        return int(zh.group(1)), int(zh.group(2))
    month, year = text.split()
    return int(year), MONTHS.index(month) + 1


def open_day(ui: Driver, day: date, *, launch: bool = True) -> Iterator[PhoneAction]:
    """Launch the calendar (unless ``launch`` is False), page to ``day``'s month, tap the
    day and scroll to its events below the month."""
    if launch:
        yield from ui.open_app("Calendar")
    if ui.find(id="month_title") is None:
        yield from ui.tap(id="tab_month")
    for _ in range(24):
        year, month = shown_month(ui.must(id="month_title").text)
        if (year, month) == (day.year, day.month):
            break
        later = (year, month) < (day.year, day.month)
        yield from ui.tap(id="next_month" if later else "previous_month")
    yield from ui.tap(id=f"day_{day.isoformat()}")
    if ui.find(kind="list_item") is None:  # the day's events, below the month: scroll to them
        yield from ui.reveal(id="day_events")
        yield from ui.reveal(id="day_title")


def named_day(text: str, today: date) -> date:
    """The day an instruction names (``tomorrow``, ``this Friday``, ``two weeks from
    today``, ``October 20, 2023``, zh-CN's ``2023年10月20日``), from the phone's date
    ``today``."""
    if text == "two weeks from today":
        return today + timedelta(days=14)
    for delta in range(-40, 41):
        day = today + timedelta(days=delta)
        names = {long_date(day), long_date(day, year=True), format_date(day, "zh-CN")}
        if delta == 0:
            names.add("today")
        if delta == 1:
            names.add("tomorrow")
        if 1 <= delta < 7:
            names.add(f"this {WEEKDAYS[day.weekday()]}")
        if text in names:
            return day
    raise OracleError(f"no day near {today} is called {text!r}")


def day_events(ui: Driver) -> dict[int, dict[str, str]]:
    """The event rows on screen now (a day's events below the month, or a list): ``{id:
    {"title", "time"}}`` (the time as the row's second line shows it)."""
    return {int(e.short_id[6:]): {"title": e.text, "time": e.hint}
            for e in ui.elements()
            if e.short_id.startswith("event_") and e.short_id[6:].isdigit()}


def search(ui: Driver, text: str) -> Iterator[PhoneAction]:
    """Launch the calendar and search its events for ``text``."""
    yield from ui.open_app("Calendar")
    if ui.find(id="search", kind="text_field") is None:
        yield from ui.tap(id="search")
    yield from ui.fill("search", text)


def set_time(ui: Driver, which: str, when: datetime) -> Iterator[PhoneAction]:
    """Set the editor's ``start_time``/``end_time`` row to ``when``'s time (unless shown):
    its time picker, the hour then the minute on the clock face, OK."""
    yield from ui.reveal(id=f"{which}_value")
    if ui.must(id=f"{which}_value").text == f"{when:%H:%M}":
        return
    yield from ui.tap(id=which)
    yield from pick_time(ui, when.hour, when.minute)


def set_date(ui: Driver, which: str, day: date) -> Iterator[PhoneAction]:
    """Set the editor's ``start_date``/``end_date`` row to ``day`` (unless shown): its date
    picker, months moved with the arrows, the day tapped, OK."""
    yield from ui.reveal(id=f"{which}_value")
    if ui.must(id=f"{which}_value").text == short_day(day, ui.locale):
        return
    yield from ui.tap(id=which)
    yield from pick_date(ui, day)


#: An event row read off the screen: its title, its time line, and the start and end
#: that line gives on the row's day (``row_span``).
Row = dict[str, Any]


def row_span(day: date, text: str) -> tuple[datetime, datetime]:
    """The start and end a row's time line gives on ``day``: ``14:00 – 15:00`` (an end
    before the start is the next day's), ``14:00``, or ``All day``."""
    if text in ("All day", "全天"):
        first = at(day, 0)
        return first, first + timedelta(days=1)
    parts = [datetime.combine(day, time.fromisoformat(t)) for t in text.split(" – ")]
    first, last = parts[0], parts[-1]
    return first, last + timedelta(days=1) if last < first else last


def dated(title: str, day: date, text: str) -> Row:
    """A row of ``title`` on ``day`` with the time line ``text``, its span parsed."""
    first, last = row_span(day, text)
    return {"title": title, "time": text, "day": day, "start": first, "end": last}


def header_day(text: str) -> date | None:
    """The day a list header names (``Sunday, October 15, 2023``; zh-CN ``2023年10月15日
    星期日``), or None."""
    zh = re.match(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text)
    if zh:
        return date(int(zh.group(1)), int(zh.group(2)), int(zh.group(3)))
    try:
        return datetime.strptime(text, "%A, %B %d, %Y").date()
    except ValueError:
        return None


class EventListReader:
    """Reads the event list as a person does, screen after screen (``scan``): each row
    with the day of the header above it (a new row at the top of a screen belongs to the
    last header read on the screens before). ``days`` are the headers read, in order."""

    def __init__(self) -> None:
        self.day: date | None = None
        self.days: list[date] = []

    def __call__(self, ui: Driver) -> dict[int, Row]:
        rows: dict[int, Row] = {}
        for e in ui.elements():
            if e.short_id.endswith("_header") and (day := header_day(e.text)) is not None:
                self.day = day
                if day not in self.days:
                    self.days.append(day)
            elif e.short_id.startswith("event_") and e.short_id[6:].isdigit() and self.day:
                rows[int(e.short_id[6:])] = dated(e.text, self.day, e.hint)
        return rows


def search_rows(ui: Driver) -> dict[int, Row]:
    """The search results on screen now, each row's second line a date and a time line
    (``Oct 15, 2023 16:00 – 17:00``): ``dated`` rows, the date as shown in ``date``."""
    rows: dict[int, Row] = {}
    for key, r in day_events(ui).items():
        zh = re.match(r"(\d{4})年(\d{1,2})月(\d{1,2})日 ", r["time"])
        if zh:  # zh-CN: 2023年10月15日 16:00 – 17:00
            day = date(int(zh.group(1)), int(zh.group(2)), int(zh.group(3)))
            rows[key] = {**dated(r["title"], day, r["time"][zh.end():]),
                         "date": zh.group().strip()}
            continue
        words = r["time"].split(" ", 3)
        if len(words) < 4:
            continue
        shown = " ".join(words[:3])
        day = datetime.strptime(shown, "%b %d, %Y").date()
        rows[key] = {**dated(r["title"], day, words[3]), "date": shown}
    return rows


def clock(ui: Driver) -> time:
    """The time the status bar shows."""
    return time.fromisoformat(ui.must(id="status_bar").text)


def day_rows(ui: Driver, day: date) -> Generator[PhoneAction, None, list[Row]]:
    """Launch the calendar and read every event of ``day`` off the screen, in time order:
    on the event list the app opens on when that screen shows the day whole (its header
    and the next day's, or the list's end), else on the day opened in the month view."""
    yield from ui.open_app("Calendar")
    if ui.find(id="event_list") is not None:
        reader = EventListReader()
        rows = reader(ui)
        if day in reader.days and (reader.days[-1] > day or at_end(ui)):
            ui.why(f"The event list shows {long_date(day)} whole: reading its events")
            return [r for r in rows.values() if r["day"] == day]
    ui.why(f"Opening {long_date(day)} in the month view to read its events")
    yield from open_day(ui, day, launch=False)
    ui.why(f"Reading {long_date(day)}'s events below the month, scrolling to the last one")
    shown = yield from scan(ui, day_events)
    return [dated(r["title"], day, r["time"]) for r in shown.values()]


def listing(rows: Sequence[Row]) -> str:
    """``Haircut (09:00 – 10:00), Book club (18:00 – 19:00)`` (``none`` for no rows)."""
    return ", ".join(f"{r['title']} ({r['time']})" for r in rows) or "none"


def shown_titles(ui: Driver, titles: Sequence[str]) -> Generator[PhoneAction, None, list[str]]:
    """Scroll each of ``titles`` into view (a list row) and return the ones found, as the
    screen shows them (on a phone changed by a first try, some may be gone)."""
    found = []
    for title in titles:
        try:
            yield from ui.reveal(title, kind="list_item")
        except OracleError:
            continue
        found.append(ui.must(title, kind="list_item").text)
    return found


# --- adding events -------------------------------------------------------------------------------
class AddEvent(CreateRecord):
    """Add one event on a day at a whole hour, lasting 15 to 60 minutes, with a title and
    a description; 0 to 20 other events in October."""

    apps, collection = ("Calendar",), COLLECTION
    start = AW_START
    complexity, max_steps = 3, 34
    repeats: tuple[str, ...] = ("",)

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=int(rng.integers(0, 17)))  # Oct 15-31

    def day_text(self, day: date) -> str:
        return long_date(day, year=True)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day, hour = self.sample_day(rng), int(rng.integers(0, 24))
        return {"day": day.isoformat(), "day_text": self.day_text(day), "hour": hour,
                "time": f"{hour:02d}:00", "minutes": int(pick(rng, DURATIONS)),
                "title": specific_title(rng), "description": str(pick(rng, DESCRIPTIONS)),
                "repeat": str(pick(rng, self.repeats)), "noise": int(rng.integers(1, 21))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_noise(state, rng, params["noise"],
                   titles=[t for t in TITLES if t != params["title"]], first=OCT_1, last=OCT_31)

    def span(self, p: Mapping[str, Any]) -> tuple[datetime, datetime]:
        first = at(date.fromisoformat(p["day"]), p["hour"])
        return first, first + timedelta(minutes=p["minutes"])

    def rule(self, p: Mapping[str, Any]) -> Any:
        return NO_REPEAT

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        first, last = self.span(p)
        return {"title": same_text(p["title"]), "start": iso(first), "end": iso(last),
                "description": typed_text(p["description"]), "location": "",
                "all_day": False, "rrule": self.rule(p)}

    def day_named(self, p: Mapping[str, Any]) -> str:
        """How the instruction names the event's day."""
        return str(p["day_text"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        day = named_day(self.day_named(p), self.start.date())
        first = datetime.combine(day, datetime.strptime(p["time"], "%H:%M").time())
        last = first + timedelta(minutes=p["minutes"])
        ui.why(f"Adding \"{p['title']}\" on {long_date(day)} ({self.day_named(p)}) at "
               f"{p['time']} for {p['minutes']} minutes: from the month view")
        yield from ui.open_app("Calendar")
        if ui.find(id="month_title") is None:
            yield from ui.tap(id="tab_month")
        if ui.must(id="month_title").text == month_title(first.year, first.month, ui.locale):
            yield from ui.tap(id=f"day_{first.date().isoformat()}")
        yield from ui.tap(id="new_event")  # its date: the day chosen (else today), set below
        ui.why(f"Filling in the title, description, {long_date(day)}, {first:%H:%M} to "
               f"{last:%H:%M}")
        yield from ui.fill("title", p["title"])
        yield from ui.fill("description", p["description"])
        yield from set_date(ui, "start_date", first.date())
        yield from set_time(ui, "start_time", first)
        yield from set_date(ui, "end_date", last.date())
        yield from set_time(ui, "end_time", last)
        if p["repeat"]:
            yield from ui.tap(id="repeat")
            yield from ui.tap(id=f"option_{p['repeat'].lower()}")
        ui.why("The event's fields are set: saving it")
        yield from ui.tap(id="save")
        ui.why(f"\"{p['title']}\" is in the calendar")
        yield from ui.finish()


class SimpleCalendarAddOneEvent(AddEvent):
    template = ('In Simple Calendar, add an event "{title}" on {day_text} at {time}, '
                'lasting {minutes} minutes, with the description "{description}".')
    locales = ("en-US", "zh-CN")
    instructions = {"zh-CN": "在日历里添加一个活动“{title}”，时间是{day_text} {time}，"
                             "时长{minutes}分钟，描述填写“{description}”"}
    data = DATA
    localize_params = zh_params


class SimpleCalendarAddOneEventInTwoWeeks(AddEvent):
    template = ('In Simple Calendar, add an event "{title}" two weeks from today at {time}, '
                'lasting {minutes} minutes, with the description "{description}".')
    instructions = {"zh-CN": "在日历里添加一个活动“{title}”，时间是两周后的今天{time}，"
                             "时长{minutes}分钟，描述填写“{description}”"}
    locales = ("en-US", "zh-CN")
    data = DATA
    localize_params = zh_params

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=14)

    def day_named(self, p: Mapping[str, Any]) -> str:
        return "two weeks from today"


class SimpleCalendarAddOneEventRelativeDay(AddEvent):
    template = ('In Simple Calendar, add an event "{title}" for {day_text} at {time}, '
                'lasting {minutes} minutes, with the description "{description}".')

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=int(rng.integers(1, 7)))

    def day_text(self, day: date) -> str:
        return f"this {WEEKDAYS[day.weekday()]}"


class SimpleCalendarAddOneEventTomorrow(AddEvent):
    template = ('In Simple Calendar, add an event "{title}" for tomorrow at {time}, '
                'lasting {minutes} minutes, with the description "{description}".')
    instructions = {"zh-CN": "在日历里添加一个活动“{title}”，时间是明天{time}，"
                             "时长{minutes}分钟，描述填写“{description}”"}
    locales = ("en-US", "zh-CN")
    data = DATA
    localize_params = zh_params

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=1)

    def day_named(self, p: Mapping[str, Any]) -> str:
        return "tomorrow"


class SimpleCalendarAddRepeatingEvent(AddEvent):
    template = ('In Simple Calendar, add an event "{title}" starting {day_text} at {time}, '
                'lasting {minutes} minutes, with the description "{description}", that '
                'repeats {repeat} forever.')
    real = False  # the repeat rule is not read from a real phone
    repeats = ("daily", "weekly")

    def rule(self, p: Mapping[str, Any]) -> Any:
        if p["repeat"] == "daily":
            return "FREQ=DAILY"
        day = date.fromisoformat(p["day"])
        return f"FREQ=WEEKLY;BYDAY={('MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU')[day.weekday()]}"


# --- deleting events -----------------------------------------------------------------------------
def starts_on(day: str) -> Matcher:
    return Matcher(lambda v: str(v or "").startswith(day), f"starts on {day}")


class DeleteEvents(DeleteRecord):
    """Delete every event of one day (``targets`` of them, at different hours); 20 other
    events on other October days."""

    apps, collection = ("Calendar",), COLLECTION
    start = AW_START
    targets = 3
    noise = 20

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=int(rng.integers(0, 17)))

    def day_text(self, day: date) -> str:
        return long_date(day, year=True)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        hours = sorted(int(h) for h in rng.choice(np.arange(7, 22), self.targets,
                                                  replace=False))
        titles = [str(t) for t in pick(rng, TITLES, self.targets + 1)]
        return {"day": day.isoformat(), "day_text": self.day_text(day), "hours": hours,
                "titles": titles[:self.targets], "title": titles[0], "time": f"{hours[0]:02d}:00"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        day = date.fromisoformat(params["day"])
        for title, hour in zip(params["titles"], params["hours"], strict=True):
            add(state, title, at(day, hour), int(pick(rng, DURATIONS)))
        seed_noise(state, rng, self.noise, titles=self.noise_titles(params), first=OCT_1,
                   last=OCT_31, avoid_days=[day])

    def noise_titles(self, p: Mapping[str, Any]) -> list[str]:
        """The other titles (in zh-CN, ``p``'s are Chinese: neither form may repeat)."""
        zh = DATA["zh-CN"]
        return [t for t in TITLES if t not in p["titles"] and zh.get(t) not in p["titles"]]

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"start": starts_on(p["day"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        day = named_day(p["day_text"], self.start.date())
        ui.why(f"{p['day_text']} is {long_date(day, year=True)}: opening that day in the "
               "month view")
        yield from open_day(ui, day)
        rows = yield from scan(ui, day_events)
        targets = [r for r in rows.values() if self.is_target(r, p)]
        for row in targets:
            ui.why(f"\"{row['title']}\" ({row['time']}) is on {long_date(day)}: deleting it")
            yield from ui.tap(row["title"], kind="list_item")
            yield from ui.tap(id="delete")
            yield from ui.tap(id="button_delete")
        ui.why(f"The {len(targets)} events of {long_date(day)} are deleted")
        yield from ui.finish()

    def is_target(self, row: Mapping[str, Any], p: Mapping[str, Any]) -> bool:
        return True


class SimpleCalendarDeleteEvents(DeleteEvents):
    template = "In Simple Calendar, delete all the events on {day_text}."
    instructions = {"zh-CN": "在日历里删除{day_text}的所有活动。"}
    locales = ("en-US", "zh-CN")
    data = DATA
    localize_params = zh_params
    complexity, max_steps = 1, 14


class SimpleCalendarDeleteEventsOnRelativeDay(DeleteEvents):
    template = "In Simple Calendar, delete all the events for {day_text}."
    complexity, max_steps = 1, 12
    targets = 2

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=int(rng.integers(1, 7)))

    def day_text(self, day: date) -> str:
        return f"this {WEEKDAYS[day.weekday()]}"


class SimpleCalendarDeleteOneEvent(DeleteEvents):
    template = 'In Simple Calendar, delete the event "{title}" on {day_text} at {time}.'
    instructions = {"zh-CN": "在日历里删除{day_text} {time}的活动“{title}”。"}
    locales = ("en-US", "zh-CN")
    data = DATA
    localize_params = zh_params
    complexity, max_steps = 1, 12
    targets = 1
    real = True  # an absolute date, and found by search: any phone's clock will do

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        params = super().sample_params(rng)
        params["title"] = specific_title(rng)
        params["titles"] = [params["title"]]
        return params

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """The title must be new to the phone (a search finds it by title)."""
        if any(same_text(params["title"])(r["title"]) for r in event_rows(existing)):
            return f"events already holds one titled {params['title']!r}"
        return None

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, p["title"])
        yield from ui.tap(p["title"], kind="list_item")
        yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        day = date.fromisoformat(params["day"])
        first = at(day, params["hours"][0])
        add(state, params["title"], first, int(pick(rng, DURATIONS)))
        seed_noise(state, rng, self.noise, titles=self.noise_titles(params), first=OCT_1,
                   last=OCT_31, avoid_starts=[first])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        day = date.fromisoformat(p["day"])
        return {"title": same_text(p["title"]), "start": iso(at(day, p["hours"][0]))}

    def is_target(self, row: Mapping[str, Any], p: Mapping[str, Any]) -> bool:
        return bool(same_text(p["title"])(row["title"]))


# --- questions -----------------------------------------------------------------------------------
class Question(Task):
    """A question about seeded events: ``events`` in the params are ``[title, start ISO,
    minutes, location]``; the answer is read off the day's list (or an event's page).
    As AndroidWorld's, the setup also adds 75 random events (``seed_random_events``) around
    the clock, none of which changes the answer (``excluded``)."""

    apps = ("Calendar",)
    start = AW_START
    complexity, max_steps = 1, 10

    def sample_day(self, rng: np.random.Generator) -> date:
        return AW_TODAY + timedelta(days=int(rng.integers(0, 15)))  # Oct 15-29

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for title, start, minutes, location in params["events"]:
            add(state, title, datetime.fromisoformat(start), minutes, location=location)
        seed_random_events(state, rng, excluded=partial(self.excluded, params))

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """Whether a random event would change the answer or make it ambiguous (the
        question's exclusion conditions): by default, one on the day asked about."""
        return overlaps(start, minutes, *day_span(params["day"], 1))

    def seeded_start(self, params: Mapping[str, Any], title: str) -> datetime:
        """When the seeded event ``title`` starts."""
        return moment(next(e[1] for e in params["events"] if e[0] == title))

    def candidates(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["title"] for r in event_rows(initial)]

    def chosen(self, rows: Sequence[Row], p: Mapping[str, Any]) -> tuple[list[Row], str]:
        """The rows of the day asked about that answer the question, and what makes them
        the answer (``answer_day``): by default, all of them."""
        return list(rows), "all of them"

    def answer_day(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Read the events of the day the instruction names off the screen and answer with
        the titles of those ``chosen`` by the times their rows show."""
        day = named_day(p["day_text"], self.start.date())
        named = "" if p["day_text"] in (long_date(day), long_date(day, year=True)) else \
            f" ({p['day_text']})"
        ui.why(f"Opening Simple Calendar to read the events of {long_date(day, year=True)}"
               f"{named}")
        rows = yield from day_rows(ui, day)
        chosen, how = self.chosen(rows, p)
        ui.why(f"{long_date(day)} shows {listing(rows)}; {how}: {listing(chosen)}")
        yield from ui.answer(", ".join(r["title"] for r in chosen))

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """A phone that already holds an event titled like a seeded one would make the
        question ambiguous."""
        have = {str(r["title"]).strip().lower() for r in event_rows(existing)}
        clash = [e[0] for e in params["events"] if str(e[0]).strip().lower() in have]
        return f"events already holds {clash[0]!r}" if clash else None


def event(title: str, when: datetime, minutes: int, location: str = "") -> list[Any]:
    return [title, iso(when), minutes, location]


def free_hours(rng: np.random.Generator, k: int, lo: int, hi: int,
               avoid: Sequence[int] = ()) -> list[int]:
    """``k`` different hours from ``lo`` to ``hi``, none in ``avoid``."""
    hours = [h for h in range(lo, hi + 1) if h not in avoid]
    return sorted(int(h) for h in rng.choice(hours, k, replace=False))


class DayTitles(Question, Lookup):
    """Which events fall on a day: ``count`` of them; decoys on other days."""

    answer_type = "set"
    count = 1
    template = ""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        titles = [str(t) for t in pick(rng, TITLES, self.count + 5)]
        events = [event(t, at(day, h), int(pick(rng, DURATIONS)))
                  for t, h in zip(titles, free_hours(rng, self.count, 8, 20), strict=False)]
        for t in titles[self.count:]:
            other = AW_TODAY + timedelta(days=int(rng.integers(0, 15)))
            if other == day:
                other += timedelta(days=1)
            events.append(event(t, at(other, int(rng.integers(8, 21))), 60))
        return {"day": day.isoformat(), "day_text": day_phrase(day, sample_phrasing(rng)),
                "events": events, "targets": titles[:self.count]}

    def expected(self, params: Mapping[str, Any]) -> Any:
        return list(params["targets"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.answer_day(ui, p)


class SimpleCalendarEventsOnDate(DayTitles):
    template = ("Which events are in my Simple Calendar {day_text}? "
                "Answer with their titles, separated by commas.")


class SimpleCalendarAnyEventsOnDate(DayTitles):
    template = ("Do I have any events {day_text} in Simple Calendar? "
                "Answer with the titles of all of them, separated by commas.")
    count = 3


class OneTitle(Question, Lookup):
    """A question whose answer is one event's title (``target``)."""

    answer_type = "name"
    template = ""

    def expected(self, params: Mapping[str, Any]) -> Any:
        return params["target"]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.answer_day(ui, p)


class SimpleCalendarNextEvent(OneTitle):
    template = ("What is my next event today in Simple Calendar? "
                "Answer with its title.")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        today = AW_TODAY
        titles = [str(t) for t in pick(rng, TITLES, 6)]
        slot = int(rng.integers(0, 20))  # 15:45 .. 20:30
        first = at(today, 15, 45) + timedelta(minutes=15 * slot)
        events = [event(titles[0], first, int(pick(rng, DURATIONS))),
                  event(titles[1], at(today, int(rng.integers(8, 15))), 30),
                  event(titles[2], first + timedelta(minutes=30 + 15 * int(rng.integers(0, 8))),
                        30),
                  event(titles[3], at(today + timedelta(days=1), int(rng.integers(8, 20))), 60),
                  event(titles[4], at(today + timedelta(days=int(rng.integers(2, 8))), 10), 60),
                  event(titles[5], at(today - timedelta(days=1), 18), 60)]
        return {"day": today.isoformat(), "events": events, "target": titles[0]}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None from an hour before the clock (running now) up to the next event."""
        return AW_START - timedelta(hours=1) <= start <= self.seeded_start(params,
                                                                          params["target"])

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening Simple Calendar's event list (upcoming events by day) to find "
               "today's events after the time now")
        yield from ui.open_app("Calendar")
        now = datetime.combine(self.start.date(), clock(ui))
        ui.why(f"The clock shows {now:%H:%M}: reading today's events on the event list up to "
               "the first one after it")
        if ui.find(id="event_list") is None:
            yield from ui.tap(id="tab_event_list")
        reader = EventListReader()

        def done(rows: Mapping[int, Row]) -> bool:  # the next one read, or tomorrow reached
            return any(r["day"] == now.date() and r["start"] > now for r in rows.values()) \
                or any(d > now.date() for d in reader.days)

        rows = yield from scan(ui, reader, until=done)
        today = [r for r in rows.values() if r["day"] == now.date()]
        later = sorted((r for r in today if r["start"] > now), key=lambda r: r["start"])
        ui.why(f"It is {now:%H:%M}; today the list shows {listing(today)}: the "
               f"next is {listing(later[:1])}")
        yield from ui.answer(later[0]["title"] if later else "")


class SimpleCalendarEventOnDateAtTime(OneTitle):
    template = ("What do I have in Simple Calendar {day_text} at {time}? "
                "Answer with the event's title.")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        hour = int(rng.integers(8, 21))
        minute = int(pick(rng, (0, 30)))
        titles = [str(t) for t in pick(rng, TITLES, 5)]
        first = at(day, hour, minute)
        other_day = day + timedelta(days=int(pick(rng, (1, 2, -1)))) if day > AW_TODAY else \
            day + timedelta(days=1)
        events = [event(titles[0], first, int(pick(rng, DURATIONS))),
                  event(titles[1], first + timedelta(hours=int(rng.integers(1, 3))), 60),
                  event(titles[2], first - timedelta(hours=int(rng.integers(1, 4))), 30),
                  event(titles[3], at(other_day, hour, minute), 60),
                  event(titles[4], at(day + timedelta(days=3), hour, minute), 45)]
        return {"day": day.isoformat(), "day_text": day_phrase(day, sample_phrasing(rng)),
                "time": f"{hour:02d}:{minute:02d}", "events": events, "target": titles[0]}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None under way at the time asked about."""
        when = moment(f"{params['day']}T{params['time']}")
        return overlaps(start, minutes, when, when)

    def chosen(self, rows: Sequence[Row], p: Mapping[str, Any]) -> tuple[list[Row], str]:
        when = time.fromisoformat(p["time"])
        return ([r for r in rows if r["start"] <= datetime.combine(r["day"], when) < r["end"]],
                f"under way at {p['time']}")


class SimpleCalendarFirstEventAfterStartTime(OneTitle):
    template = ("In Simple Calendar, what is the first event {day_text} that starts after "
                "{time}? Answer with its title.")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        hour = int(rng.integers(10, 17))
        titles = [str(t) for t in pick(rng, TITLES, 5)]
        after = at(day, hour) + timedelta(minutes=int(pick(rng, (30, 60, 90))))
        events = [event(titles[0], after, int(pick(rng, DURATIONS))),
                  event(titles[1], at(day, hour) - timedelta(hours=int(rng.integers(1, 3))),
                        60),
                  event(titles[2], after + timedelta(hours=int(rng.integers(1, 3))), 60),
                  event(titles[3], at(day + timedelta(days=1), hour, 30), 60),
                  event(titles[4], after + timedelta(hours=3), 30)]
        return {"day": day.isoformat(), "day_text": day_phrase(day, sample_phrasing(rng)),
                "time": f"{hour:02d}:00", "events": events, "target": titles[0]}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None starting from the time asked about up to the first event after it."""
        after = moment(f"{params['day']}T{params['time']}")
        return after <= start <= self.seeded_start(params, params["target"])

    def chosen(self, rows: Sequence[Row], p: Mapping[str, Any]) -> tuple[list[Row], str]:
        after = time.fromisoformat(p["time"])
        later = sorted((r for r in rows if r["start"] > datetime.combine(r["day"], after)),
                       key=lambda r: r["start"])
        return later[:1], f"the first to start after {p['time']}"


class SimpleCalendarEventsInTimeRange(DayTitles):
    template = ("Which events do I have in Simple Calendar {day_text} between {time} and "
                "20:00? Answer with their titles, separated by commas.")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        slot = int(rng.integers(0, 13))  # 12:00 .. 18:00 by half hours
        begin = at(day, 12) + timedelta(minutes=30 * slot)
        titles = [str(t) for t in pick(rng, EVENING, 5)]
        k = 1 if begin.hour >= 18 else int(rng.integers(1, 3))
        inside = [begin + timedelta(minutes=30 * i) for i in
                  sorted(int(x) for x in rng.choice(np.arange(0, 2 * (19 - begin.hour)), k,
                                                    replace=False))]
        events = [event(t, when, 30) for t, when in zip(titles, inside, strict=False)]
        events += [event(titles[k], begin - timedelta(hours=2), 60),
                   event(titles[k + 1], at(day, 20, 30), 60),
                   event(titles[k + 2], at(day + timedelta(days=1), begin.hour), 60)]
        return {"day": day.isoformat(), "day_text": day_phrase(day, sample_phrasing(rng)),
                "time": f"{begin:%H:%M}", "events": events, "targets": titles[:k]}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None that meets the time range (20:00 included)."""
        begin = moment(f"{params['day']}T{params['time']}")
        return overlaps(start, minutes, begin, at(begin.date(), 20))

    def chosen(self, rows: Sequence[Row], p: Mapping[str, Any]) -> tuple[list[Row], str]:
        begin = time.fromisoformat(p["time"])
        return ([r for r in rows if r["start"] <= at(r["day"], 20)
                 and r["end"] > datetime.combine(r["day"], begin)],
                f"those meeting {p['time']} to 20:00")


class SimpleCalendarEventsInNextWeek(DayTitles):
    template = ("Which events do I have next week (Monday to Sunday) in Simple Calendar? "
                "Answer with their titles, separated by commas.")

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        monday, _ = week_of(AW_TODAY + timedelta(days=7))
        titles = [str(t) for t in pick(rng, TITLES, 6)]
        days = sorted(int(d) for d in rng.choice(np.arange(7), 2, replace=False))
        events = [event(t, at(monday + timedelta(days=d), int(rng.integers(8, 20))), 60)
                  for t, d in zip(titles, days, strict=False)]
        events += [event(titles[2], at(AW_TODAY, 18), 60),
                   event(titles[3], at(monday + timedelta(days=7 + int(rng.integers(0, 7))), 9),
                         60),
                   event(titles[4], at(AW_TODAY - timedelta(days=3), 11), 60),
                   event(titles[5], at(monday + timedelta(days=int(rng.integers(8, 14))), 15),
                         30)]
        return {"day": monday.isoformat(), "events": events, "targets": titles[:2]}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None in next week (Monday 00:00 to Sunday 24:00)."""
        return overlaps(start, minutes, *day_span(params["day"], 7))

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Calendar")
        if ui.find(id="event_list") is None:
            yield from ui.tap(id="tab_event_list")
        titles = yield from shown_titles(ui, p["targets"])
        yield from ui.answer(", ".join(titles))


class SimpleCalendarLocationOfEvent(Question, Lookup):
    template = ('Where does the event "{title}" in Simple Calendar take place? '
                "Answer with its location.")
    instructions = {"zh-CN": "日历里的活动“{title}”在哪里举行？请回答它的地点。"}
    locales = ("en-US", "zh-CN")
    data = DATA
    localize_params = zh_params
    answer_type = "text"
    real = True  # found by search: any phone's clock will do

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """The asked-for title must be new to the phone (a search finds it by title)."""
        if any(same_text(params["title"])(r["title"]) for r in event_rows(existing)):
            return f"events already holds one titled {params['title']!r}"
        return None

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        day = self.sample_day(rng)
        titles = [specific_title(rng), *(str(t) for t in pick(rng, TITLES, 4))]
        places = [str(x) for x in pick(rng, LOCATIONS, 5)]
        hours = free_hours(rng, 3, 8, 20)
        events = [event(titles[0], at(day, hours[0]), 60, places[0]),
                  event(titles[1], at(day, hours[1]), 30, places[1]),
                  event(titles[2], at(day, hours[2]), 45, places[2]),
                  event(titles[3], at(day + timedelta(days=1), 10), 60, places[3]),
                  event(titles[4], at(day + timedelta(days=2), 14), 60, places[4])]
        return {"day": day.isoformat(), "day_text": day_phrase(day, sample_phrasing(rng)),
                "title": titles[0], "location": places[0], "events": events}

    def expected(self, params: Mapping[str, Any]) -> Any:
        return params["location"]

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None with the asked title (random events have no location)."""
        return bool(title_matcher(params["title"])(title))

    def candidates(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["location"] for r in event_rows(initial) if r["location"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, p["title"])
        if not (yield from shown_titles(ui, [p["title"]])):  # renamed by a first try
            yield from ui.answer("")
            return
        yield from ui.tap(p["title"], kind="list_item")
        yield from ui.answer(ui.must(id="location", kind="text_field").text)


class SimpleCalendarNextMeetingWithPerson(Question):
    """Both the date and the time must be right: two typed answer checks on one answer."""

    template = ("When is my next meeting with {person} in Simple Calendar? Answer with the "
                "date and the time (24-hour).")
    needs_answer = True
    derivations: ClassVar[Mapping[str, str]] = {
        "answer": "the next meeting's date and start time, as its search result shows them, "
                  "joined with 'at'"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        people = [str(x) for x in pick(rng, PEOPLE, 3)]
        person = people[0]
        day = self.sample_day(rng)
        low = 16 if day == AW_TODAY else 8
        hour = int(rng.integers(low, 21))
        minute = int(pick(rng, (0, 15, 30, 45)))
        first = at(day, hour, minute)
        later = first + timedelta(days=int(rng.integers(2, 9)), hours=int(rng.integers(-2, 3)))
        events = [event(meeting_title(person), first, 60),
                  event(meeting_title(person), at(AW_TODAY - timedelta(days=int(
                      rng.integers(1, 6))), 10), 60),
                  event(meeting_title(person), later, 30),
                  event(meeting_title(people[1]), first - timedelta(days=1)
                        if day > AW_TODAY else first + timedelta(hours=2), 60),
                  event(meeting_title(people[2]), first + timedelta(days=1), 45)]
        if day > AW_TODAY:  # one with someone else between now and the meeting
            events.append(event(meeting_title(people[2]), at(AW_TODAY, 17), 30))
        return {"person": person, "date": first.date().isoformat(),
                "time": f"{first:%H:%M}", "later": iso(later), "day": day.isoformat(),
                "events": events}

    def excluded(self, params: Mapping[str, Any], title: str, start: datetime,
                 minutes: int) -> bool:
        """None naming the person from an hour before the clock up to the meeting."""
        first = moment(f"{params['date']}T{params['time']}")
        return names(title, params["person"]) and AW_START - timedelta(hours=1) <= start <= first

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        now = initial.get("now")  # a zh answer may say 明天 for the date
        today = now if isinstance(now, str) and now else None
        return [Answer(answer_matcher("date", params["date"], today=today)),
                Answer(answer_matcher("time", params["time"]))]

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        later = datetime.fromisoformat(params["later"])
        right = datetime.fromisoformat(f"{params['date']}T{params['time']}")
        wrong_time = right + timedelta(hours=1)
        return [NearMiss(final, f"{later:%B} {later.day}, {later.year} at {later:%H:%M}",
                         "the meeting after the next one"),
                NearMiss(final, f"{right:%B} {right.day}, {right.year}", "the date only"),
                NearMiss(final, f"{right:%H:%M}", "the time only"),
                NearMiss(final, f"{right:%B} {right.day}, {right.year} at {wrong_time:%H:%M}",
                         "the wrong time"),
                NearMiss(final, f"{right:%B} {right.day}, {right.year} at {right:%H:%M} or "
                         f"{later:%B} {later.day} at {later:%H:%M}", "two meetings")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        person = p["person"]
        ui.why(f"Opening Simple Calendar to search it for {person}")
        yield from ui.open_app("Calendar")
        ui.why(f"Searching for {person}: the results are every event naming them, by start, "
               "each with its date")
        if ui.find(id="search", kind="text_field") is None:
            yield from ui.tap(id="search")
        yield from ui.fill("search", person)
        now = datetime.combine(self.start.date(), clock(ui))

        def upcoming(r: Row) -> bool:
            return names(r["title"], person) and r["start"] >= now

        rows = yield from scan(ui, search_rows,
                               until=lambda rows: any(upcoming(r) for r in rows.values()))
        later = sorted((r for r in rows.values() if upcoming(r)), key=lambda r: r["start"])
        if not later:  # renamed or moved by a first try
            ui.why(f"No event naming {person} after {now:%H:%M} today")
            yield from ui.answer("")
            return
        row = later[0]
        ui.why(f"The clock shows {now:%H:%M}; the first result naming {person} from now on is "
               f"\"{row['title']}\", {row['date']} {row['time']}")
        yield from ui.answer(f"{row['date']} at {row['time'].split(' – ')[0]}")


TEMPLATES: list[Task] = [
    SimpleCalendarAddOneEvent(), SimpleCalendarAddOneEventInTwoWeeks(),
    SimpleCalendarAddOneEventRelativeDay(), SimpleCalendarAddOneEventTomorrow(),
    SimpleCalendarAddRepeatingEvent(), SimpleCalendarDeleteEvents(),
    SimpleCalendarDeleteEventsOnRelativeDay(), SimpleCalendarDeleteOneEvent(),
    SimpleCalendarEventsOnDate(), SimpleCalendarNextEvent(),
    SimpleCalendarEventOnDateAtTime(), SimpleCalendarAnyEventsOnDate(),
    SimpleCalendarNextMeetingWithPerson(), SimpleCalendarLocationOfEvent(),
    SimpleCalendarEventsInNextWeek(), SimpleCalendarFirstEventAfterStartTime(),
    SimpleCalendarEventsInTimeRange(),
]
