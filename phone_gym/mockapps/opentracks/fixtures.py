"""Public fixtures of OpenTracks: what tasks use to seed recorded activities."""

from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from ...tasks.vocab import Draws, draws, pick
from ...verifiers.state import DeviceState
from .app import CATEGORIES, Activity, OpenTracksApp, add_activity

COLLECTION = "apps.OpenTracks.activities"
NAMES = ("Morning session", "Evening loop", "Lunch break", "Weekend outing", "Quick one",
         "With friends", "Recovery", "Long one", "Before work", "After work", "Lakeside",
         "Hill repeats", "City tour", "Easy pace", "New route")
DESCRIPTIONS = ("Felt strong", "Windy", "Sore legs", "Nice weather", "Tried a new route",
                "Light rain", "Very hot", "Good pace", "Tired today", "Great views")
TIMES = ("06:15", "06:45", "07:00", "07:30", "08:10", "09:00", "10:20", "11:45", "12:30",
         "13:10", "14:05")
#: Durations (minutes) and distances (whole tens of meters) as AndroidWorld's pools go.
DURATIONS = (15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 75, 80, 90, 100, 110, 120, 150, 180)
DISTANCES = tuple(range(800, 25_000, 130))
ELEVATIONS = (0, 5, 12, 20, 35, 50, 80, 120, 200, 350)


def app_of(state: DeviceState) -> OpenTracksApp:
    app = state.app("OpenTracks")  # type: ignore[attr-defined]
    assert isinstance(app, OpenTracksApp)
    return app


def write_activity(state: DeviceState, **fields: Any) -> Activity:
    """Add a recorded activity (PhoneWorld: the app's own data)."""
    return add_activity(app_of(state).data, **fields)


def start_on(day: date, rng: np.random.Generator) -> str:
    """An ISO start time on ``day`` (before AndroidWorld's clock on its day: all morning)."""
    return f"{day.isoformat()}T{pick(rng, TIMES)}"


@functools.cache
def activity_sizes(first: date, last: date) -> tuple[int, ...]:
    """The pools ``random_activity`` draws from, in turn (the days first)."""
    return ((last - first).days + 1, len(NAMES), len(CATEGORIES), len(TIMES), len(DURATIONS),
            len(DISTANCES), len(ELEVATIONS), len(DESCRIPTIONS))


@functools.cache
def _days(first: date, last: date) -> tuple[str, ...]:
    """The ISO days from ``first`` to ``last``."""
    return tuple((first + timedelta(days=d)).isoformat() for d in range((last - first).days + 1))


def random_activity(rng: np.random.Generator | Draws, first: date, last: date
                    ) -> dict[str, Any]:
    """An activity with random fields, started between ``first`` and ``last`` (the draws of
    a ``pick`` from each pool in turn, made in one call, or through ``Draws``)."""
    sizes = activity_sizes(first, last)
    if isinstance(rng, Draws):
        below = rng.below
        day, name, category, time, duration, distance, elevation, description = (
            below(sizes[0]), below(sizes[1]), below(sizes[2]), below(sizes[3]),
            below(sizes[4]), below(sizes[5]), below(sizes[6]), below(sizes[7]))
    else:
        day, name, category, time, duration, distance, elevation, description = draws(
            rng, sizes)
    return {"name": NAMES[name], "category": CATEGORIES[category],
            "start": f"{_days(first, last)[day]}T{TIMES[time]}",
            "duration_min": DURATIONS[duration], "distance_m": DISTANCES[distance],
            "elevation_m": ELEVATIONS[elevation], "description": DESCRIPTIONS[description]}


def start_day(row: dict[str, Any]) -> date:
    return datetime.fromisoformat(row["start"]).date()
