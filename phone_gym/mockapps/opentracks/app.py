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
from ...world.kit import ActionIcon, Chips, ConfirmDialog, DetailPage
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


def say_start(iso: str) -> str:
    """``2023-10-12T08:30`` as ``Thu, Oct 12, 2023 08:30``."""
    try:
        t = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{t:%a}, {t:%b} {t.day}, {t.year} {t:%H:%M}"


def say_duration(minutes: int) -> str:
    """``95`` as ``1:35 h``, ``45`` as ``45 min``."""
    return f"{minutes // 60}:{minutes % 60:02d} h" if minutes >= 60 else f"{minutes} min"


def say_distance(meters: int) -> str:
    """Kilometers with two decimals (exact for whole tens of meters)."""
    return f"{meters / 1000:.2f} km"


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
        self.toast("Activity deleted")

    # views
    def view(self, route: Route) -> Screen:
        activity = self.data.activities.get(route.arg) if route.name == "activity" else None
        return self.page(activity) if activity is not None else self.activity_list()

    def delete_dialog(self) -> Node | None:
        a = self.data.activities.get(self.ui.deleting) if self.ui.deleting else None
        if a is None:
            return None
        return ConfirmDialog("Delete activity?", f'"{a.name}" will be deleted.',
                             on_confirm=lambda: self.delete(a.id),
                             on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                             destructive=True)

    def row(self, a: Activity) -> Node:
        return ListItem(
            a.name, f"{a.category} · {say_start(a.start)} · {say_duration(a.duration_min)} · "
                    f"{say_distance(a.distance_m)}",
            id=f"activity_{a.id}", glyph=a.category[:1],
            on_click=lambda: self.go("activity", a.id),
            menu=[("Delete", lambda: self.ask_delete(a.id))],
        )

    def activity_list(self) -> Screen:
        shown = self.shown()
        meters, minutes = total(shown, "distance_m"), total(shown, "duration_min")
        totals = (f"{len(shown)} activities · {say_distance(meters)} · "
                  f"{say_duration(minutes)}")
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
        return DetailPage(
            a.name,
            [("Category", a.category), ("Start", say_start(a.start)),
             ("Duration", say_duration(a.duration_min)),
             ("Distance", say_distance(a.distance_m)),
             ("Elevation gain", f"{a.elevation_m} m"),
             ("Description", a.description or "-")],
            on_back=self.back,
            actions=[ActionIcon("delete", lambda: self.ask_delete(a.id))],
            dialog=self.delete_dialog(), on_dismiss=lambda: self.ask_delete(None),
        )
