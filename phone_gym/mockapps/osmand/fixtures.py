"""Public fixtures of OsmAnd: seeding favourites, markers and tracks."""

from __future__ import annotations

import numpy as np

from ...tasks.vocab import pick
from ...verifiers import Matcher
from ...verifiers.state import DeviceState
from .app import TOWNS, OsmAndApp, decode_points

FAVORITES, MARKERS, TRACKS = ("apps.OsmAnd.favorites", "apps.OsmAnd.markers",
                              "apps.OsmAnd.tracks")
#: How far (degrees) a stored point may be from a place and still be it (AndroidWorld's).
TOLERANCE = 0.001


def osmand_app(state: DeviceState) -> OsmAndApp:
    app = state.app("OsmAnd")  # type: ignore[attr-defined]
    assert isinstance(app, OsmAndApp)
    return app


def near(value: float) -> Matcher:
    """A coordinate within ``TOLERANCE`` of ``value``."""
    def test(v: object) -> bool:
        return isinstance(v, (int, float)) and abs(float(v) - value) <= TOLERANCE
    return Matcher(test, f"within {TOLERANCE} of {value}")


def passes_in_order(towns: list[str]) -> Matcher:
    """A track's points that pass each town (within ``TOLERANCE``), in that order."""
    def test(v: object) -> bool:
        points = decode_points(str(v))
        i = 0
        for lat, lon in points:
            if i < len(towns):
                t_lat, t_lon = TOWNS[towns[i]]
                if abs(lat - t_lat) <= TOLERANCE and abs(lon - t_lon) <= TOLERANCE:
                    i += 1
        return i == len(towns)
    return Matcher(test, f"points passing {', '.join(towns)} in order")


def seed_places(state: DeviceState, rng: np.random.Generator, avoid: list[str]) -> None:
    """One to three favourites and markers at other towns, and maybe a saved track."""
    data = osmand_app(state).data
    others = [t for t in TOWNS if t not in avoid]
    for table in (data.favorites, data.markers):
        for town in pick(rng, others, int(rng.integers(1, 4))):
            lat, lon = TOWNS[town]
            table.new(name=town, lat=lat, lon=lon)
    if rng.random() < 0.5:
        a, b = pick(rng, others, 2)
        data.tracks.new(name=f"{a} walk", points=";".join(
            f"{TOWNS[t][0]:.5f},{TOWNS[t][1]:.5f}" for t in (a, b)))
