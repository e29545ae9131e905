"""A map renderer: a seeded synthetic city drawn as cached tiles, for Maps and OsmAnd.

The city is a function of its seed, defined everywhere: a grid of streets (every fourth an
avenue) with seeded offsets and names, blocks that are buildings, parks or ponds, and a
river winding east-west. A ``MapView`` (seed, the latitude and longitude of the city's
origin, the centre in metres east and south of it, and the zoom) says what a map shows; at
zoom 16 one logical pixel is one metre, each zoom step doubles that. ``paint`` draws a view
into a ``Painter`` from square tiles cached by ``(seed, zoom, pixel scale, column, row)``,
then the view's own labels and route on top; a widget tile of a map is cached by the tile
cache like any other (keyed by the node's look, which holds the view).

Colours follow OpenStreetMap's standard ("Carto") style, which OsmAnd's default day style
and most street maps resemble.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from . import theme as T
from .glyphs import RGB
from .painter import Painter

LAND: RGB = (242, 239, 233)
BLOCK: RGB = (224, 218, 208)
BUILDING: RGB = (217, 208, 201)
PARK: RGB = (200, 250, 204)
WATER: RGB = (170, 211, 223)
ROAD: RGB = (255, 255, 255)
AVENUE: RGB = (252, 214, 164)
CASING: RGB = (200, 196, 188)
ROUTE: RGB = (26, 115, 232)
LABEL: RGB = (60, 60, 64)

SPACING = 180.0  # metres between streets
TILE = 256  # drawing pixels per tile side
MIN_ZOOM, MAX_ZOOM = 10, 19
STREETS = ("Oak", "Maple", "Cedar", "Elm", "Pine", "Birch", "Willow", "Linden", "Chestnut",
           "Alder", "Rowan", "Hazel", "Juniper", "Aspen", "Laurel", "Poplar")
AVENUES = ("Main", "Market", "River", "Park", "Station", "Church", "Harbour", "Castle",
           "Mill", "Bridge", "College", "Garden")


def _h(seed: int, *key: object) -> int:
    """A stable hash of ``key`` under ``seed`` (CRC-32: the same on every machine)."""
    return zlib.crc32(f"{seed}:{key}".encode())


def street_x(seed: int, i: int) -> float:
    """Metres east of the origin of the ``i``-th north-south street."""
    return i * SPACING + _h(seed, "v", i) % 61 - 30


def street_y(seed: int, j: int) -> float:
    """Metres south of the origin of the ``j``-th east-west street."""
    return j * SPACING + _h(seed, "h", j) % 61 - 30


def street_name(seed: int, vertical: bool, i: int) -> str:
    """The name of a street: avenues (every fourth) are ``... Avenue``."""
    if i % 4 == 0:
        name = AVENUES[_h(seed, "an", vertical, i) % len(AVENUES)]
        return f"{name} Avenue" if vertical else f"{name} Street"
    names = STREETS
    return f"{names[_h(seed, 'sn', vertical, i) % len(names)]} {'Lane' if vertical else 'Road'}"


def block_kind(seed: int, i: int, j: int) -> str:
    """What fills the block east of street ``i`` and south of street ``j``."""
    v = _h(seed, "b", i, j) % 100
    return "park" if v < 9 else "water" if v < 12 else "block"


def river_y(seed: int, x: float) -> float:
    """Metres south of the origin of the river's centre line at ``x``."""
    r = random.Random(seed)
    a, b, p1, p2, off = (r.uniform(300, 600), r.uniform(80, 160), r.uniform(0, 6.3),
                         r.uniform(0, 6.3), r.uniform(-400, 400))
    return off + SPACING * 2.5 + a * math.sin(x / 1900 + p1) + b * math.sin(x / 520 + p2)


RIVER_W = 110.0


def px_per_metre(zoom: int) -> float:
    """Logical pixels per metre at ``zoom``."""
    return 2.0 ** (zoom - 16)


@lru_cache(maxsize=512)
def tile(seed: int, zoom: int, scale: float, tx: int, ty: int) -> Image.Image:
    """The ``TILE``-pixel tile at column ``tx``, row ``ty`` of the city at ``zoom``, drawn at
    ``scale`` drawing pixels per logical pixel."""
    s = px_per_metre(zoom) * scale  # drawing pixels per metre
    m0x, m0y = tx * TILE / s, ty * TILE / s  # the tile's top-left corner in metres
    m1x, m1y = (tx + 1) * TILE / s, (ty + 1) * TILE / s
    img = Image.new("RGB", (TILE, TILE), LAND)
    d = ImageDraw.Draw(img)

    def px(mx: float, my: float) -> tuple[float, float]:
        return ((mx - m0x) * s, (my - m0y) * s)

    i0, i1 = math.floor(m0x / SPACING) - 1, math.ceil(m1x / SPACING) + 1
    j0, j1 = math.floor(m0y / SPACING) - 1, math.ceil(m1y / SPACING) + 1
    detail = zoom >= 15
    xs_ = [street_x(seed, i) for i in range(i0, i1 + 1)]  # each street once, not per block
    ys_ = [street_y(seed, j) for j in range(j0, j1 + 1)]
    for i in range(i0, i1):
        bx0, bx1 = xs_[i - i0], xs_[i - i0 + 1]
        for j in range(j0, j1):
            by0, by1 = ys_[j - j0], ys_[j - j0 + 1]
            kind = block_kind(seed, i, j)
            a, b = px(bx0 + 8, by0 + 8), px(bx1 - 8, by1 - 8)
            if kind == "block" and not detail:
                continue  # zoomed out: blocks are land, parks and ponds stay
            color = PARK if kind == "park" else WATER if kind == "water" else BLOCK
            if kind == "water":
                d.ellipse((*a, *b), fill=color)
            else:
                d.rectangle((*a, *b), fill=color)
            if kind == "block" and zoom >= 16:  # buildings along the block's edges
                r = random.Random(_h(seed, "bl", i, j))
                x = bx0 + 14
                while x < bx1 - 30:
                    w = r.uniform(22, 48)
                    depth = r.uniform(26, 50)
                    for top in (by0 + 14, by1 - 14 - depth):
                        d.rectangle((*px(x, top), *px(min(x + w, bx1 - 14), top + depth)),
                                    fill=BUILDING, outline=CASING)
                    x += w + r.uniform(4, 10)
    # the river, as a band of quads
    xs = [m0x - 50 + k * (m1x - m0x + 100) / 16 for k in range(17)]
    bank_n = [px(x, river_y(seed, x) - RIVER_W / 2) for x in xs]
    bank_s = [px(x, river_y(seed, x) + RIVER_W / 2) for x in xs]
    d.polygon(bank_n + bank_s[::-1], fill=WATER)
    for vertical in (True, False):
        lo, hi = (i0, i1) if vertical else (j0, j1)
        for k in range(lo, hi):
            avenue = k % 4 == 0
            if not avenue and not detail:
                continue
            w = max(2.0, (22 if avenue else 12) * s)
            line: tuple[float, float, float, float]
            if vertical:
                x = px(xs_[k - i0], 0)[0]
                line = (x, 0, x, TILE)
            else:
                y = px(0, ys_[k - j0])[1]
                line = (0, y, TILE, y)
            d.line(line, fill=CASING, width=round(w + max(2, s * 3)))
            d.line(line, fill=AVENUE if avenue else ROAD, width=round(w))
    return img


@dataclass(frozen=True)
class MapView:
    """What a map shows: the city (``seed``, whose origin is at ``lat0``, ``lon0``), the
    centre (metres east and south of the origin) and the zoom."""

    seed: int
    lat0: float
    lon0: float
    cx: float = 0.0
    cy: float = 0.0
    zoom: int = 16

    def __post_init__(self) -> None:
        if not MIN_ZOOM <= self.zoom <= MAX_ZOOM:
            raise ValueError(f"zoom must be in {MIN_ZOOM}..{MAX_ZOOM}; got {self.zoom!r}")

    def metres(self, lat: float, lon: float) -> tuple[float, float]:
        """A point's metres east and south of the origin (equirectangular)."""
        east = (lon - self.lon0) * 111_320.0 * math.cos(math.radians(self.lat0))
        south = (self.lat0 - lat) * 110_540.0
        return east, south

    def latlon(self, east: float, south: float) -> tuple[float, float]:
        """The point ``east``, ``south`` metres from the origin (``metres`` inverted)."""
        lat = self.lat0 - south / 110_540.0
        return lat, self.lon0 + east / (111_320.0 * math.cos(math.radians(self.lat0)))

    def fitted(self, points: Sequence[tuple[float, float]], width: int, height: int,
               margin: int = 120) -> MapView:
        """The view centred on ``points`` (lat, lon) at the closest zoom that shows them all
        ``margin`` logical pixels inside a ``width x height`` map."""
        if not points:
            raise ValueError("fitted needs at least one (lat, lon) point")
        xy = [self.metres(lat, lon) for lat, lon in points]
        xs, ys = [x for x, _ in xy], [y for _, y in xy]
        span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
        zoom = MAX_ZOOM
        while zoom > MIN_ZOOM and (span_x * px_per_metre(zoom) > width - 2 * margin
                                   or span_y * px_per_metre(zoom) > height - 2 * margin):
            zoom -= 1
        return replace(self, cx=round((max(xs) + min(xs)) / 2, 1),
                       cy=round((max(ys) + min(ys)) / 2, 1), zoom=min(zoom, 17))

    def to_screen(self, lat: float, lon: float, width: int, height: int) -> tuple[int, int]:
        """Where a point shows in a ``width x height`` (logical pixels) map of this view."""
        east, south = self.metres(lat, lon)
        k = px_per_metre(self.zoom)
        return (round(width / 2 + (east - self.cx) * k), round(height / 2 + (south - self.cy) * k))

    def centred(self, lat: float, lon: float, zoom: int | None = None) -> MapView:
        east, south = self.metres(lat, lon)
        return replace(self, cx=east, cy=south, zoom=self.zoom if zoom is None else zoom)

    def panned(self, dx: float, dy: float) -> MapView:
        """The view after a finger moved ``dx, dy`` logical pixels (the map follows it)."""
        k = px_per_metre(self.zoom)
        return replace(self, cx=round(self.cx - dx / k, 1), cy=round(self.cy - dy / k, 1))

    def zoomed(self, step: int) -> MapView:
        """The view ``step`` zoom levels in (negative: out), held in ``MIN_ZOOM..MAX_ZOOM``."""
        return replace(self, zoom=max(MIN_ZOOM, min(MAX_ZOOM, self.zoom + step)))

    def encode(self) -> str:
        return f"{self.seed} {self.lat0} {self.lon0} {self.cx} {self.cy} {self.zoom}"

    @staticmethod
    def decode(text: str) -> MapView:
        parts = text.split()
        if len(parts) != 6:
            raise ValueError(f"a map view is 'seed lat0 lon0 cx cy zoom'; got {text!r}")
        return MapView(int(parts[0]), float(parts[1]), float(parts[2]), float(parts[3]),
                       float(parts[4]), int(parts[5]))


@dataclass(frozen=True)
class Label:
    """A named place drawn on the map (its pin, if any, is a widget above it)."""

    name: str
    lat: float
    lon: float


def encode(view: MapView, labels: Sequence[Label] = (),
           route: Sequence[tuple[float, float]] = ()) -> str:
    """A map as a node's text: the view, its labels and its route (``decode`` reads it)."""
    places = ";".join(f"{lb.name}@{lb.lat:.6f},{lb.lon:.6f}" for lb in labels)
    line = ";".join(f"{lat:.6f},{lon:.6f}" for lat, lon in route)
    return f"{view.encode()}|{places}|{line}"


def decode(text: str) -> tuple[MapView, list[Label], list[tuple[float, float]]]:
    parts = text.split("|")
    if len(parts) != 3:
        raise ValueError(f"a map is 'view|labels|route' (maps.encode); got {text!r}")
    view = MapView.decode(parts[0])
    labels = []
    for item in filter(None, parts[1].split(";")):
        name, _, at = item.rpartition("@")
        lat, lon = (float(v) for v in at.split(","))
        labels.append(Label(name, lat, lon))
    route = [(float(a), float(b)) for a, b in
             (p.split(",") for p in filter(None, parts[2].split(";")))]
    return view, labels, route


def paint(p: Painter, box: tuple[float, float, float, float], text: str) -> None:
    """Draw the map ``text`` (``encode``) into ``box`` of ``p``: cached tiles, then the
    route, street names and place labels."""
    view, labels, route = decode(text)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    scale = round(p.kx, 4)
    s = px_per_metre(view.zoom) * scale
    left = round((view.cx - w / 2 / px_per_metre(view.zoom)) * s)  # drawing pixels
    top = round((view.cy - h / 2 / px_per_metre(view.zoom)) * s)
    bx, by = round(x0 * p.kx), round(y0 * p.ky)
    for ty in range(math.floor(top / TILE), math.floor((top + h * p.ky) / TILE) + 1):
        for tx in range(math.floor(left / TILE), math.floor((left + w * p.kx) / TILE) + 1):
            p.img.paste(tile(view.seed, view.zoom, scale, tx, ty),
                        (bx + tx * TILE - left, by + ty * TILE - top))
    k = px_per_metre(view.zoom)
    if view.zoom >= 15:  # the names of the avenues that cross the view
        for vertical in (True, False):
            c = view.cx if vertical else view.cy
            half = (w if vertical else h) / 2 / k
            for i in range(math.ceil((c - half) / SPACING), math.floor((c + half) / SPACING) + 1):
                if i % 4:
                    continue
                name = street_name(view.seed, vertical, i)
                if vertical:
                    sx = x0 + w / 2 + (street_x(view.seed, i) - view.cx) * k
                    p.text(sx + 6, y0 + h * 0.4, name, T.FONT["small"], LABEL, bg=AVENUE)
                else:
                    sy = y0 + h / 2 + (street_y(view.seed, i) - view.cy) * k
                    p.text(x0 + w * 0.3, sy, name, T.FONT["small"], LABEL, bg=AVENUE)
    if len(route) > 1:
        pts = [view.to_screen(lat, lon, round(w), round(h)) for lat, lon in route]
        xy = [((x0 + x) * p.kx, (y0 + y) * p.ky) for x, y in pts]
        p.d.line(xy, fill=(20, 80, 180), width=round(22 * p.kf), joint="curve")
        p.d.line(xy, fill=ROUTE, width=round(14 * p.kf), joint="curve")
    for label in labels:
        lx, ly = view.to_screen(label.lat, label.lon, round(w), round(h))
        if -200 < lx < w + 200 and -50 < ly < h + 50:
            p.text(x0 + lx, y0 + ly + 40, label.name, T.FONT["caption"], LABEL, align="m",
                   bold=True)
