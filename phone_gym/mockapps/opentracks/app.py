"""OpenTracks: a sports tracker's recorded activities (tracks), newest first, with a filter
by category, totals of what the filter shows, a page per activity with its figures, and
deleting.

State is dataclasses (persistent ``TracksData``: a ``Table`` of frozen ``Activity``
records, kept privately as the real app keeps its SQLite database; transient ``TracksUi``),
the views are pure functions of them. Distances are whole meters, durations whole minutes,
start times ISO ``2023-10-12T08:30``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from ...world.app import App, Route
from ...world.data import Store, Table, total
from ...world.kit import ActionIcon, Chips, ConfirmDialog, Detail, DetailPage
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, ZH_WEEKDAYS, format_date
from ...world.widgets import ListItem, Node, Screen, Text, TopBar, VirtualList
from .manifest import MANIFEST

CATEGORIES = ("Running", "Cycling", "Swimming", "Hiking", "Walking", "Skiing", "Rowing",
              "Kayaking", "Skating", "Snowboarding", "Climbing", "Horse riding")
ALL = "All"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Activity:
    """One recorded activity."""

    id: int
    name: str
    category: str
    start: str  # ISO date and time, minutes
    duration_min: int
    distance_m: int
    elevation_m: int = 0
    description: str = ""


@dataclass
class TracksData(Store):
    """What the app stores: verifiers compare this (``apps.OpenTracks.activities.<id>``)."""

    activities: Table[Activity] = field(default_factory=lambda: Table(kind=Activity))


@dataclass
class TracksUi:
    """Transient state: the category filter and the activity whose delete confirmation
    shows."""

    category: str = ALL
    deleting: int | None = None


# --- updates and formatting ----------------------------------------------------------------
def add_activity(data: TracksData, name: str, category: str, start: str, duration_min: int,
                 distance_m: int, elevation_m: int = 0, description: str = "") -> Activity:
    return data.activities.new(name=name, category=category, start=start,
                               duration_min=duration_min, distance_m=distance_m,
                               elevation_m=elevation_m, description=description)


def of_category(category: str, a: Activity) -> bool:
    return a.category == category


def newest_first(a: Activity) -> tuple[float, int]:
    """The list's order: newest start first."""
    try:
        stamp = datetime.fromisoformat(a.start).timestamp()
    except ValueError:
        stamp = 0.0
    return (-stamp, -a.id)


def say_start(iso: str, locale: str = DEFAULT_LOCALE) -> str:
    """``2023-10-12T08:30`` as ``Thu, Oct 12, 2023 08:30`` (zh-CN: ``2023年10月12日 周四
    08:30``)."""
    try:
        t = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if locale != DEFAULT_LOCALE:
        weekday = ZH_WEEKDAYS[t.weekday()].replace("星期", "周")
        return f"{format_date(t.date(), locale)} {weekday} {t:%H:%M}"
    return f"{t:%a}, {t:%b} {t.day}, {t.year} {t:%H:%M}"


def say_duration(minutes: int, locale: str = DEFAULT_LOCALE) -> str:
    """``95`` as ``1:35 h``, ``45`` as ``45 min`` (zh-CN: ``1:35 小时``, ``45 分钟``)."""
    zh = locale != DEFAULT_LOCALE
    if minutes >= 60:
        return f"{minutes // 60}:{minutes % 60:02d} " + ("小时" if zh else "h")
    return f"{minutes} " + ("分钟" if zh else "min")


def say_distance(meters: int, locale: str = DEFAULT_LOCALE) -> str:
    """Kilometers with two decimals (exact for whole tens of meters): ``12.34 km`` (zh-CN:
    ``12.34 公里``)."""
    return f"{meters / 1000:.2f} " + ("km" if locale == DEFAULT_LOCALE else "公里")


# --- the app -------------------------------------------------------------------------------
class OpenTracksApp(App):
    manifest = MANIFEST

    data: TracksData
    ui: TracksUi

    def initial_data(self) -> TracksData:
        return TracksData()

    def initial_ui(self) -> TracksUi:
        return TracksUi()

    def make_indexes(self) -> None:
        for category in (ALL, *CATEGORIES):  # the lists and their totals, kept on write
            shown = self.shown(category)
            total(shown, "distance_m"), total(shown, "duration_min")

    def shown(self, category: str | None = None) -> Sequence[Activity]:
        """The activities the list shows, newest first, of the chosen category (a table
        index each, kept on write)."""
        rows, category = self.data.activities, category or self.ui.category
        if category == ALL:
            return rows.index("newest", newest_first).view(rows)
        return rows.index(f"newest_{category}", newest_first,
                          keep=partial(of_category, category)).view(rows)

    def pick_category(self, label: str) -> None:
        """A chip toggles its category filter (tapping the chosen one shows all again)."""
        self.ui.category = ALL if self.ui.category == label else label

    def ask_delete(self, activity_id: int | None) -> None:
        self.ui.deleting = activity_id

    def delete(self, activity_id: int) -> None:
        self.data.activities.remove(activity_id)
        self.ui.deleting = None
        if self.route.name == "activity":
            self.back()
        self.toast(self.t("Activity deleted"))

    # views
    def view(self, route: Route) -> Screen:
        activity = self.data.activities.get(route.arg) if route.name == "activity" else None
        screen = self.page(activity) if activity is not None else self.activity_list()
        return in_locale(self, screen)

    def delete_dialog(self) -> Node | None:
        a = self.data.activities.get(self.ui.deleting) if self.ui.deleting else None
        if a is None:
            return None
        return ConfirmDialog("Delete activity?", self.t('"{name}" will be deleted.', name=a.name),
                             on_confirm=lambda: self.delete(a.id),
                             on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                             destructive=True)

    def row(self, a: Activity) -> Node:
        loc = self.system.locale
        return ListItem(
            a.name, f"{self.t(a.category)} · {say_start(a.start, loc)} · "
                    f"{say_duration(a.duration_min, loc)} · {say_distance(a.distance_m, loc)}",
            id=f"activity_{a.id}", glyph=self.t(a.category)[:1],
            on_click=lambda: self.go("activity", a.id),
            menu=[(self.t("Delete"), lambda: self.ask_delete(a.id))],
        )

    def activity_list(self) -> Screen:
        shown = self.shown()
        meters, minutes = total(shown, "distance_m"), total(shown, "duration_min")
        loc = self.system.locale
        totals = (self.t("{n} activities", n=len(shown))
                  + f" · {say_distance(meters, loc)} · {say_duration(minutes, loc)}")
        chosen = [self.ui.category] if self.ui.category != ALL else []
        return Screen(
            top_bar=TopBar("OpenTracks"),
            content=[
                Chips(CATEGORIES, chosen, self.pick_category, id="categories"),
                Text(totals, style="caption", id="totals"),
                VirtualList(len(shown), lambda i: self.row(shown[i]), id="activities",
                            empty_text="No recorded activities"),
            ],
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def page(self, a: Activity) -> Screen:
        loc = self.system.locale
        return DetailPage(
            a.name,
            [Detail(self.t("Category"), self.t(a.category), id="category"),
             Detail(self.t("Start"), say_start(a.start, loc), id="start"),
             Detail(self.t("Duration"), say_duration(a.duration_min, loc), id="duration"),
             Detail(self.t("Distance"), say_distance(a.distance_m, loc), id="distance"),
             Detail(self.t("Elevation gain"), self.t("{m} m", m=a.elevation_m),
                    id="elevation_gain"),
             Detail(self.t("Description"), a.description or "-", id="description")],
            on_back=self.back,
            actions=[ActionIcon("delete", lambda: self.ask_delete(a.id))],
            dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(None),
        )
