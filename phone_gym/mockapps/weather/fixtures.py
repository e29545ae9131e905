"""Public fixtures of Weather: seeding saved cities, the units and the forecast seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...tasks.vocab import pick
from ...verifiers import lookup
from ...verifiers.state import DeviceState
from .app import CITIES, WeatherApp
from .app import RAIN as RAIN
from .app import forecast as forecast

CITY_TABLE, UNITS_PATH, SEED_PATH = ("apps.Weather.cities", "apps.Weather.units",
                                     "apps.Weather.seed")
CITY_NAMES: tuple[str, ...] = tuple(CITIES)


def weather_app(state: DeviceState) -> WeatherApp:
    app = state.app("Weather")  # type: ignore[attr-defined]
    assert isinstance(app, WeatherApp)
    return app


def seed_weather(state: DeviceState, rng: np.random.Generator, *, cities: Sequence[str] = (),
                 extra: int = 3, avoid: Sequence[str] = (), units: str = "C",
                 seed: int | None = None) -> WeatherApp:
    """Saved cities: ``cities`` plus ``extra`` others not in ``avoid``, in random order; the
    forecast seed (default: a fresh one); the units."""
    app = weather_app(state)
    others = pick(rng, [c for c in CITY_NAMES if c not in cities and c not in avoid], extra)
    names = list(cities) + others
    for pos, name in enumerate(pick(rng, names, len(names))):
        app.data.cities.new(name=name, pos=pos)
    app.data.seed = int(rng.integers(1, 1_000_000)) if seed is None else seed
    app.data.units = units
    return app


def seed_of(state: Mapping[str, Any]) -> int:
    """The forecast seed of a snapshot."""
    return int(lookup(state, SEED_PATH) or 0)


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"open_city"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
