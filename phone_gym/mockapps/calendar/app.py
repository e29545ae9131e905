"""Calendar: Simple Calendar Pro's counterpart over the phone's calendar events.

Events are the shared ``events`` store (``system.events``: frozen ``Event`` records with ISO
local start and end times, location, description and an RFC 5545 repeat rule), so other
apps, adb and verifiers read the same data. The app keeps only transient UI state: the day
and month shown, the tab, the editor's draft and the picker or dialog that is open.

Screens: ``main`` (the upcoming events by day; or a month grid starting on the device
date, the chosen day's events in time order below it), ``search`` (every event whose
text holds the query, with its date) and ``edit``, which a tap on an event
opens, as in Simple Calendar: title, location, description, start and end dates and times
through the kit's pickers, repeat (none, daily or weekly); save, and for an existing event
duplicate and delete (deleting asks first).
"""

from __future__ import annotations

import calendar as cal
import re
import weakref
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from operator import attrgetter
from typing import Any

from ...world.app import App, Route, app_strings
from ...world.data import Grouping, Listing, Ordered, Table
from ...world.kit import (
    ActionIcon,
    CalendarState,
    ChoiceDialog,
    ClockState,
    ConfirmDialog,
    MaterialDatePicker,
    MaterialTimePicker,
    SearchList,
    Tabs,
)
from ...world.kit.calendars import DayView, MonthView, Shown
from ...world.kit.common import tall, weighted
from ...world.kit.localize import localize_dates, localize_screen, localize_tree
from ...world.locale import DEFAULT_LOCALE, ZH_WEEKDAYS, format_date
from ...world.system import Event, SystemState
from ...world.widgets import (
    Fab,
    Headers,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
REPEATS = ("No repeat", "Daily", "Weekly")
TABS = ("Month", "Day", "Event list")


# --- pure helpers --------------------------------------------------------------------------------
def parse(iso: str) -> datetime | None:
    try:
        return datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None


def repeat_of(rrule: str) -> str:
    """The editor's repeat choice for a stored rule."""
    if "FREQ=DAILY" in rrule:
        return "Daily"
    if "FREQ=WEEKLY" in rrule:
        return "Weekly"
    return "No repeat"


def rrule_for(repeat: str, start: date) -> str:
    """The stored rule for a repeat choice: weekly repeats on the start's weekday."""
    if repeat == "Daily":
        return "FREQ=DAILY"
    if repeat == "Weekly":
        return f"FREQ=WEEKLY;BYDAY={RRULE_DAYS[start.weekday()]}"
    return ""


def occurs_on(e: Event, day: date) -> bool:
    """Whether ``e`` (or one of its repeats, forever) falls on ``day``."""
    start = parse(e.start)
    if start is None:
        return False
    first = start.date()
    if day == first:
        return True
    if day < first:
        return False
    if "FREQ=DAILY" in e.rrule:
        return True
    return "FREQ=WEEKLY" in e.rrule and day.weekday() == first.weekday()


def events_on(events: Sequence[Event], day: date) -> list[Event]:
    """The events of ``day`` in time order (all-day ones first)."""
    found = [e for e in events if occurs_on(e, day)]
    return sorted(found, key=lambda e: (not e.all_day, (parse(e.start) or datetime.min).time(),
                                        e.id))


def day_of(e: Event) -> date | None:
    """The day a one-off event falls on (None for a repeat, or a start that is no date)."""
    start = None if e.rrule else parse(e.start)
    return start.date() if start is not None else None


#: The event list's rows and day headers, by the listing they come from: (the events'
#: version and today, rows, headers), made again only when the events or the day change.
_UPCOMING: weakref.WeakKeyDictionary[Listing[Event], tuple[Any, Sequence[Event], Headers]] = \
    weakref.WeakKeyDictionary()


def start_order(e: Event) -> tuple[str, int]:
    """The event list's order: by start, then id."""
    return (e.start, e.id)


_ID = attrgetter("id")
_RRULE = attrgetter("rrule")


def index_events(events: Table[Event]) -> tuple[Grouping[Event], Listing[Event],
                                                Listing[Event]]:
    """The calendar's indexes on ``events`` (made on first call, then kept on write): the
    one-off events by day, the repeats, and every event by start."""
    return (events.grouping("calendar_day", day_of, _ID),
            events.index("calendar_repeats", _ID, keep=_RRULE),
            events.index("calendar_start", start_order))


def upcoming(system: SystemState) -> tuple[Sequence[Event], Headers]:
    """The event list: events from today on and every repeat, by start, with a header
    at each day's first (from the events by start, kept on write; the headers are
    made again only when the events or today change: at the reset after a prefill, and
    after an episode's change of the events)."""
    events = system.events
    by_start = index_events(events)[2]
    today = system.now.date().isoformat()
    key = (events.version, today, system.locale)
    cached = _UPCOMING.get(by_start)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    every = by_start.view(events)
    assert isinstance(every, Ordered)
    first = bisect_left(every._entries, ((today,),))  # the first to start today or later
    early = [e for e in every[:first] if e.rrule]
    ordered: Sequence[Event] = every[first:]
    if early:
        ordered = sorted([*early, *ordered], key=lambda e: (e.start, e.id))
    days = [(parse(e.start) or datetime.min).date() for e in ordered]
    headers = Headers((i, long_day(d, system.locale)) for i, d in enumerate(days)
                      if i == 0 or days[i - 1] != d)
    _UPCOMING[by_start] = (key, ordered, headers)
    return ordered, headers


def span_text(e: Event) -> str:
    """``14:00 – 15:00`` (``All day`` for an all-day event)."""
    if e.all_day:
        return "All day"
    start, end = parse(e.start), parse(e.end)
    if start is None:
        return ""
    if end is None or end == start:
        return f"{start:%H:%M}"
    return f"{start:%H:%M} – {end:%H:%M}"


def long_day(day: date, locale: str = DEFAULT_LOCALE) -> str:
    """``Friday, October 20, 2023`` (zh-CN: ``2023年10月20日 星期五``)."""
    if locale != DEFAULT_LOCALE:
        return format_date(day, locale, weekday=True)
    return f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}, {day.year}"


def short_day(day: date, locale: str = DEFAULT_LOCALE) -> str:
    """``Oct 20, 2023`` (zh-CN: ``2023年10月20日``)."""
    if locale != DEFAULT_LOCALE:
        return format_date(day, locale)
    return f"{MONTHS[day.month - 1][:3]} {day.day}, {day.year}"


def month_title(year: int, month: int, locale: str = DEFAULT_LOCALE) -> str:
    """``October 2026`` (zh-CN: ``2026年10月``)."""
    return f"{MONTHS[month - 1]} {year}" if locale == DEFAULT_LOCALE else f"{year}年{month}月"


def hour_labels_24h(node: Node) -> None:
    """The day view's hour labels ("9 AM") as a 24-hour phone shows them ("09:00")."""
    for n in node.children:
        m = re.fullmatch(r"(\d+) (AM|PM)", n.text or "")
        if m:
            h = int(m.group(1)) % 12 + (12 if m.group(2) == "PM" else 0)
            n.text = f"{h:02d}:00"
        hour_labels_24h(n)


# --- state ---------------------------------------------------------------------------------------
@dataclass
class Draft:
    """The editor's fields while an event is open (ISO date and ``HH:MM`` times)."""

    title: str = ""
    location: str = ""
    description: str = ""
    start_date: str = ""
    start_time: str = ""
    end_date: str = ""
    end_time: str = ""
    repeat: str = "No repeat"

    def start(self) -> datetime:
        return datetime.fromisoformat(f"{self.start_date}T{self.start_time}")

    def end(self) -> datetime:
        return datetime.fromisoformat(f"{self.end_date}T{self.end_time}")

    def set_start(self, when: datetime) -> None:
        """Move the start; the end moves along, keeping the event's length."""
        length = self.end() - self.start()
        self.start_date, self.start_time = when.date().isoformat(), f"{when:%H:%M}"
        end = when + length
        self.end_date, self.end_time = end.date().isoformat(), f"{end:%H:%M}"


@dataclass
class CalendarUi:
    """Transient state, lost on force-stop. ``day`` None: the device's today. The app
    opens on the list of upcoming events (Simple Calendar's "simple event list" view)."""

    day: date | None = None
    month: tuple[int, int] | None = None  # (year, month) shown; None: the day's month
    tab: str = "Event list"
    draft: Draft = field(default_factory=Draft)
    picking: str = ""  # the open picker: start_date, start_time, end_date, end_time, repeat
    date_picker: CalendarState | None = None
    time_picker: ClockState | None = None
    deleting: int | None = None
    query: str = ""


# --- the app -------------------------------------------------------------------------------------
class CalendarApp(App):
    manifest = MANIFEST

    ui: CalendarUi

    def initial_data(self) -> None:
        return None

    def initial_ui(self) -> CalendarUi:
        return CalendarUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        """The views' indexes on the events, kept on write from the phone's reset, and the
        event list (made again only when the events changed since)."""
        index_events(system.events)
        upcoming(system)

    # state read by the views
    @property
    def today(self) -> date:
        return self.system.now.date()

    @property
    def day(self) -> date:
        return self.ui.day or self.today

    @property
    def month(self) -> tuple[int, int]:
        return self.ui.month or (self.day.year, self.day.month)

    def event(self, event_id: object) -> Event | None:
        return self.system.events.get(event_id) if isinstance(event_id, int) else None

    # updates
    def select_day(self, day: date) -> None:
        self.ui.day, self.ui.month = day, None

    def shift_month(self, delta: int) -> None:
        year, month = self.month
        index = year * 12 + month - 1 + delta
        self.ui.month = (index // 12, index % 12 + 1)

    def go_today(self) -> None:
        self.ui.day, self.ui.month, self.ui.tab = None, None, "Month"

    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

    def open_search(self) -> None:
        self.ui.query = ""
        self.go("search")

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def open_editor(self, event_id: int | None, *, copy: bool = False) -> None:
        """Edit an event (None: a new one; ``copy``: a new one filled from ``event_id``, as
        Simple Calendar's "Duplicate event" does)."""
        e = self.event(event_id)
        start, end = (parse(e.start), parse(e.end)) if e else (None, None)
        if e is not None and start is not None:
            end = end or start
            self.ui.draft = Draft(e.title, e.location, e.description, start.date().isoformat(),
                                  f"{start:%H:%M}", end.date().isoformat(), f"{end:%H:%M}",
                                  repeat_of(e.rrule))
            if copy:
                event_id = None
        else:  # a new event: the chosen day, at the next full hour, for an hour
            hour = min(self.system.now.hour + 1, 23)
            first = datetime.combine(self.day, datetime.min.time()).replace(hour=hour)
            last = first + timedelta(hours=1)
            self.ui.draft = Draft(start_date=first.date().isoformat(), start_time=f"{hour:02d}:00",
                                  end_date=last.date().isoformat(), end_time=f"{last:%H:%M}")
            event_id = None
        self.ui.picking, self.ui.deleting = "", None
        if self.route.name == "edit":
            self.replace("edit", event_id)
        else:
            self.go("edit", event_id)

    def set_draft(self, name: str, value: str) -> None:
        setattr(self.ui.draft, name, value)

    def open_picker(self, which: str) -> None:
        draft = self.ui.draft
        if which.endswith("_date"):
            self.ui.date_picker = CalendarState.of(getattr(draft, which), today=self.today)
        elif which.endswith("_time"):
            twelve = self.system.get_setting("system", "time_12_24") == "12"
            self.ui.time_picker = ClockState.of(getattr(draft, which), is24h=not twelve)
        self.ui.picking = which

    def close_picker(self) -> None:
        self.ui.picking = ""

    def dismiss(self) -> None:
        """Back or a tap outside the editor's dialog: close it."""
        self.ui.picking, self.ui.deleting = "", None

    def picked(self, value: str) -> None:
        """A picker's OK: a new start moves the end along; a new end is taken as is."""
        which, draft = self.ui.picking, self.ui.draft
        self.ui.picking = ""
        if which == "start_date":
            draft.set_start(datetime.fromisoformat(f"{value}T{draft.start_time}"))
        elif which == "start_time":
            draft.set_start(datetime.fromisoformat(f"{draft.start_date}T{value}"))
        elif which in ("end_date", "end_time", "repeat"):
            setattr(draft, which, value)

    def save(self) -> None:
        """Write the draft into its event (or a new one); refuses an empty title or an end
        before the start, as Simple Calendar does."""
        draft, event_id = self.ui.draft, self.route.arg
        if not draft.title.strip():
            self.toast(self.t("Title cannot be empty"))
            return
        start, end = draft.start(), draft.end()
        if end < start:
            self.toast(self.t("The end of the event cannot be earlier than the start"))
            return
        fields = {"title": draft.title, "start": start.isoformat(timespec="seconds"),
                  "end": end.isoformat(timespec="seconds"), "location": draft.location,
                  "description": draft.description,
                  "rrule": rrule_for(draft.repeat, start.date())}
        old = self.event(event_id)
        if old is None:
            self.system.events.new(all_day=False, **fields)
        elif any(getattr(old, k) != v for k, v in fields.items()):
            self.system.events.update(old.id, **fields)
        self.ui.day, self.ui.month = start.date(), None
        self.toast(self.t("Event saved"))
        self.back()

    def ask_delete(self, event_id: int | None) -> None:
        self.ui.deleting = event_id

    def confirm_delete(self, event_id: int) -> None:
        self.system.events.remove(event_id)
        self.ui.deleting = None
        if self.route.name == "edit":
            self.back()
        self.toast(self.t("Event deleted"))

    # views
    @property
    def locale(self) -> str:
        return self.system.locale

    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            screen = self.editor(route.arg)
        elif route.name == "search":
            screen = self.search()
        else:
            screen = self.main()
        if self.locale != DEFAULT_LOCALE:  # the fixed strings, the kit's included
            localize_screen(screen, dict(app_strings(type(self), self.locale).strings))
        return screen

    def localized(self, node: Node) -> Node:
        """``node``'s fixed strings in the phone's locale (rows a virtual list builds)."""
        if self.locale != DEFAULT_LOCALE:
            localize_tree(node, dict(app_strings(type(self), self.locale).strings))
        return node

    def event_item(self, e: Event, *, with_day: bool = False) -> Node:
        when = self.t(span_text(e)) if e.all_day else span_text(e)
        start = parse(e.start)
        if with_day and start is not None:
            when = f"{short_day(start.date(), self.locale)} {when}"
        return ListItem(e.title or "(No title)", id=f"event_{e.id}",
                        parts=[("event_time", when), ("event_location", e.location)],
                        on_click=lambda: self.open_editor(e.id),
                        menu=[(self.t("Duplicate"), lambda: self.open_editor(e.id, copy=True)),
                              (self.t("Delete"), lambda: self.ask_delete(e.id))])

    def delete_dialog(self, event_id: int) -> Node:
        return ConfirmDialog("Delete event?", "This event will be deleted permanently.",
                             on_confirm=lambda: self.confirm_delete(event_id),
                             on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                             destructive=True)

    def events_on(self, day: date) -> list[Event]:
        """``day``'s events in time order, read from indexes kept on write: the one-off
        events by day, and the repeats (a few); not every event."""
        events = self.system.events
        by_day, repeats, _ = index_events(events)
        return events_on([*by_day.view(day), *repeats.view(events)], day)

    def upcoming(self) -> tuple[Sequence[Event], Headers]:
        """The event list (``upcoming``)."""
        return upcoming(self.system)

    def shown_on(self, day: date) -> list[Shown]:
        """``day``'s events as the month and day views show them (minutes of the day)."""
        out = []
        for e in self.events_on(day):
            start, end = parse(e.start), parse(e.end)
            if e.all_day or start is None:
                out.append(Shown(e.id, e.title or self.t("(No title)"), when=self.t(span_text(e))))
                continue
            # a repeat starts at its time of day; a day an event runs into starts at 0:00
            first = start.hour * 60 + start.minute if start.date() == day or e.rrule else 0
            # a repeat lasts as long as the first; an event running past midnight ends there
            last = first + int(((end or start) - start).total_seconds() // 60)
            out.append(Shown(e.id, e.title or self.t("(No title)"), first, min(24 * 60, last),
                             span_text(e)))
        return out

    def month_grid(self) -> list[Node]:
        """Simple Calendar's month view: the month's name between arrows, the weekdays,
        and the weeks, each day's events as coloured chips with their titles."""
        year, month = self.month
        nodes: list[Node] = [Row([
            weighted(Icon("‹", "Previous month", lambda: self.shift_month(-1),
                          id="previous_month"), 0.25),
            Text(month_title(year, month, self.locale), style="title", id="month_title"),
            weighted(Icon("›", "Next month", lambda: self.shift_month(1), id="next_month"),
                     0.25),
        ], id="month_bar"), Row([tall(Node("day", text=d[0], style="header", desc=d), 64)
                                 for d in WEEKDAYS], id="weekdays")]
        if self.locale != DEFAULT_LOCALE:  # 一 二 三 ..., Monday first
            for i, cell in enumerate(nodes[1].children):
                cell.text, cell.desc = ZH_WEEKDAYS[i][-1], ZH_WEEKDAYS[i]
        days = [date(year, month, d) for d in range(1, cal.monthrange(year, month)[1] + 1)]
        by_day = {day: self.shown_on(day) for day in days}
        return nodes + MonthView(year, month, by_day, selected=self.day, today=self.today,
                                 on_day=self.select_day, on_event=self.open_editor)

    def shift_day(self, delta: int) -> None:
        self.select_day(self.day + timedelta(days=delta))

    def day_view(self) -> list[Node]:
        """Simple Calendar's day view: the day between arrows, its hours with the events as
        blocks as tall as they last."""
        return [Row([
            weighted(Icon("‹", "Previous day", lambda: self.shift_day(-1), id="previous_day"),
                     0.25),
            Text(long_day(self.day, self.locale), style="title", id="day_view_title"),
            weighted(Icon("›", "Next day", lambda: self.shift_day(1), id="next_day"), 0.25),
        ], id="day_bar"), self.day_board()]

    def day_board(self) -> Node:
        board = DayView(self.shown_on(self.day), on_event=self.open_editor)
        if self.locale != DEFAULT_LOCALE:
            hour_labels_24h(board)
        return board

    def main(self) -> Screen:
        content: list[Node] = [Tabs(TABS, self.ui.tab, self.set_tab)]
        if self.ui.tab == "Event list":  # upcoming events (from today), by start
            ordered, headers = self.upcoming()
            content.append(VirtualList(len(ordered), lambda i: self.event_item(ordered[i]),
                                       id="event_list", headers=headers,
                                       empty_text="No events"))
        elif self.ui.tab == "Day":
            content += self.day_view()
        else:
            shown = self.events_on(self.day)
            content += self.month_grid()
            content += [Text(long_day(self.day, self.locale), style="title", id="day_title"),
                        VirtualList(len(shown), lambda i: self.event_item(shown[i]),
                                    id="day_events", empty_text="No events on this day")]
        deleting = self.ui.deleting
        dialog = self.delete_dialog(deleting) if deleting is not None and self.event(
            deleting) is not None else None
        return Screen(
            top_bar=TopBar("Calendar", actions=[
                ActionIcon("search", self.open_search),
                Icon("◎", "Go to today", self.go_today, id="go_today")]),
            content=content,
            fab=Fab("+", "New event", lambda: self.open_editor(None), id="new_event"),
            dialog=dialog,
            on_dismiss=lambda: self.ask_delete(None),
        )

    def search(self) -> Screen:
        """Every event (past ones too) whose title, location or description holds the
        query, by start, each with its date."""
        q = self.ui.query.strip().lower()
        found = sorted((e for e in self.system.events if q and (
            q in e.title.lower() or q in e.location.lower() or q in e.description.lower())),
            key=lambda e: (e.start, e.id))
        return Screen(
            top_bar=TopBar("Search", on_back=self.back),
            content=SearchList(self.ui.query, self.set_query, len(found),
                               lambda i: self.event_item(found[i], with_day=True),
                               id="results", hint="Search events",
                               empty_text="Type to search events"))

    def picker(self) -> Node | None:
        which = self.ui.picking
        if which.endswith("_date") and self.ui.date_picker is not None:
            picker = MaterialDatePicker(self.ui.date_picker, on_done=self.picked,
                                        on_cancel=self.close_picker)
            if self.locale != DEFAULT_LOCALE:
                localize_dates(picker)
            return picker
        if which.endswith("_time") and self.ui.time_picker is not None:
            return MaterialTimePicker(self.ui.time_picker, on_done=self.picked,
                                      on_cancel=self.close_picker)
        if which == "repeat":
            return ChoiceDialog("Repeat", REPEATS, self.ui.draft.repeat, self.picked,
                                self.close_picker, id="repeat_choices")
        return None

    def value_row(self, title: str, value: str, which: str) -> Node:
        """An editor row showing a value (id ``<which>_value``); a tap opens its picker."""
        return ListItem(title, id=which, parts=[(f"{which}_value", value)],
                        on_click=lambda: self.open_picker(which))

    def editor(self, event_id: int | None) -> Screen:
        draft = self.ui.draft

        def day_text(iso: str) -> str:
            try:
                return short_day(date.fromisoformat(iso), self.locale)
            except ValueError:
                return iso

        def back() -> bool:
            self.back()
            return True

        actions = [ActionIcon("save", self.save)]
        dialog = self.picker()
        if event_id is not None:
            actions += [Icon("📄", "Duplicate event",
                             lambda: self.open_editor(event_id, copy=True), id="duplicate"),
                        ActionIcon("delete", lambda: self.ask_delete(event_id))]
            if self.ui.deleting == event_id:
                dialog = self.delete_dialog(event_id)

        return Screen(
            top_bar=TopBar("New event" if event_id is None else "Edit event", on_back=self.back,
                           actions=actions),
            content=[
                TextField(draft.title, lambda v: self.set_draft("title", v), hint="Title",
                          id="title", label="Title"),
                TextField(draft.location, lambda v: self.set_draft("location", v),
                          hint="Location", id="location", label="Location"),
                TextField(draft.description, lambda v: self.set_draft("description", v),
                          hint="Description", id="description", label="Description",
                          multiline=True),
                self.value_row("Start date", day_text(draft.start_date), "start_date"),
                self.value_row("Start time", draft.start_time, "start_time"),
                self.value_row("End date", day_text(draft.end_date), "end_date"),
                self.value_row("End time", draft.end_time, "end_time"),
                self.value_row("Repeat", draft.repeat, "repeat"),
            ],
            dialog=dialog,
            on_dismiss=self.dismiss,
            on_back=back,
        )
