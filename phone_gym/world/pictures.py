"""Procedural pictures: seeded drawings that read as what they are.

A picture is data: its ``kind`` (one of ``KINDS``), a ``seed`` and, for the kinds that carry
words (documents, receipts, album covers, video frames), its ``text``. ``paint`` draws it
into a box of a ``Painter`` (so a widget tile that shows it is cached by the tile cache like
any other, keyed by the node's look); ``render`` draws one standalone, cached by ``(kind,
seed, text, size)``. Drawing is pure: shapes come from ``random.Random(seed)`` and text from
the package's fonts (``glyphs``), so the same picture is the same bytes on any machine.

The text a task needs from a picture (a receipt's lines, a whiteboard's notes) is drawn in
its pixels in the body font, dark on paper, so that it stays readable.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from . import theme as T
from .glyphs import RGB
from .painter import Look, Painter
from .theme import mix

KINDS = ("landscape", "food", "pet", "document", "receipt", "avatar", "album", "video",
         "product")
#: The objects a ``product`` picture shows; ``seed % len(PRODUCTS)`` picks one (``product``
#: chooses it from the product's name).
PRODUCTS = ("box", "phone", "shoe", "bag", "book", "headphones", "mug", "shirt", "watch",
            "pan")
#: Words of a product's name that pick its object (``product_object``), first match wins.
_PRODUCT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("headphones", ("headphones", "headphone", "earbuds", "headset", "monitors", "speaker",
                    "airpods")),
    ("watch", ("watch", "smartwatch", "chronograph", "band", "clock")),
    ("phone", ("phone", "smartphone", "tablet", "iphone", "pixel", "galaxy", "charger",
               "case")),
    ("shoe", ("shoe", "shoes", "sneaker", "runner", "trainer", "loafer", "boot", "slip-on",
              "racer", "high-top", "sandal", "heels")),
    ("bag", ("bag", "backpack", "daypack", "pack", "tote", "purse", "wallet", "suitcase",
             "luggage")),
    ("book", ("book", "novel", "notebook", "journal", "guide", "cookbook", "diary")),
    ("mug", ("mug", "cup", "kettle", "press", "bowls", "bowl", "pot", "bottle", "tumbler",
             "teapot", "glass")),
    ("shirt", ("tee", "t-shirt", "shirt", "henley", "polo", "top", "hoodie", "sweater",
               "jacket", "dress", "jeans")),
    ("pan", ("skillet", "pan", "knife", "board", "rack", "wok", "spatula")),
)
#: Words of a one-line description that pick a kind (``classify``), first match wins.
_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pet", ("cat", "dog", "kitten", "puppy", "pet", "parrot", "rabbit")),
    ("food", ("cake", "pizza", "salad", "dinner", "lunch", "breakfast", "soup", "pasta",
              "tomato", "basil", "food", "dish", "plate", "cookie", "bread", "fruit")),
    ("landscape", ("beach", "sunset", "sunrise", "mountain", "trail", "tree", "lake", "sea",
                   "river", "skyline", "city", "garden", "park", "forest", "sky", "hike",
                   "view", "field", "snow", "island")),
)


def seed_of(text: str) -> int:
    """A stable seed for a name (CRC-32: the same on every machine and Python run)."""
    return zlib.crc32(text.encode("utf-8"))


def classify(lines: Sequence[str]) -> str:
    """The kind a photo described by ``lines`` shows: a receipt when a line holds an amount,
    a document when it has several lines, else a pet, food or landscape by its words (a
    landscape when no word matches)."""
    text = " ".join(lines).casefold()
    if any(_has_amount(line) for line in lines):
        return "receipt"
    if len([line for line in lines if line.strip()]) > 1:
        return "document"
    for kind, words in _WORDS:
        if any(word in text.replace("_", " ").split() or f"{word}s" in text.split()
               for word in words):
            return kind
    return "landscape"


def _has_amount(line: str) -> bool:
    """Whether ``line`` holds a price such as ``12.50`` or ``$3``."""
    for token in line.replace(",", " ").split():
        token = token.strip("$€£¥")
        whole, _, cents = token.partition(".")
        if whole.isdigit() and len(cents) == 2 and cents.isdigit():
            return True
    return False


def describe(lines: Sequence[str], name: str) -> tuple[str, int]:
    """``(kind, seed)`` of a photo named ``name`` that shows ``lines`` (``classify``): the
    seed comes from the name, and for a pet its parity says cat (even) or dog (odd)."""
    kind = classify(lines)
    seed = seed_of(name)
    if kind == "pet":
        low = " ".join(lines).casefold()
        dog = "dog" in low or "pupp" in low
        seed = seed - seed % 2 + (1 if dog else 0)
    return kind, seed


def product_object(name: str) -> str:
    """The object (``PRODUCTS``) a product named ``name`` shows, by its words (a parcel,
    ``box``, when none matches)."""
    words = name.casefold().replace("/", " ").split()
    for obj, keys in _PRODUCT_WORDS:
        if any(word in keys or word.rstrip("s") in keys for word in words):
            return obj
    return "box"


def product(name: str) -> str:
    """The drawn picture of a product named ``name`` (a node's style): the object its name
    says, seeded by the name (its seed is ``PRODUCTS.index(object)`` modulo
    ``len(PRODUCTS)``)."""
    n = len(PRODUCTS)
    seed = seed_of(name)
    return encode("product", seed - seed % n + PRODUCTS.index(product_object(name)))


def encode(kind: str, seed: int) -> str:
    """A picture as a node's ``style``: ``"pic:<kind>:<seed>"``."""
    check_kind(kind)
    return f"pic:{kind}:{int(seed)}"


def decode(style: str) -> tuple[str, int] | None:
    """``(kind, seed)`` of a style made by ``encode``; None for any other style."""
    parts = style.split(":")
    if len(parts) != 3 or parts[0] != "pic" or parts[1] not in KINDS:
        return None
    try:
        return parts[1], int(parts[2])
    except ValueError:
        return None


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"picture kind must be one of {', '.join(KINDS)}; got {kind!r}")
    return kind


# --- drawing ---------------------------------------------------------------------------------

Box = tuple[float, float, float, float]


def _poly(p: Painter, pts: Sequence[tuple[float, float]], fill: RGB) -> None:
    p.d.polygon([(x * p.kx, y * p.ky) for x, y in pts], fill=fill)


def _ellipse(p: Painter, x0: float, y0: float, x1: float, y1: float, fill: RGB) -> None:
    p.d.ellipse((x0 * p.kx, y0 * p.ky, x1 * p.kx, y1 * p.ky), fill=fill)


def _gradient(p: Painter, box: Box, top: RGB, bottom: RGB, steps: int = 24) -> None:
    x0, y0, x1, y1 = box
    h = (y1 - y0) / steps
    for i in range(steps):
        p.rect(x0, y0 + i * h, x1, y0 + (i + 1) * h + 1, mix(top, bottom, i / (steps - 1)))


def _jitter(rng: random.Random, color: RGB, amount: int = 18) -> RGB:
    return tuple(max(0, min(255, c + rng.randint(-amount, amount))) for c in color)  # type: ignore[return-value]


SKIES: tuple[tuple[RGB, RGB, RGB], ...] = (  # top, horizon, sun
    ((66, 133, 214), (176, 214, 245), (255, 244, 200)),   # day
    ((52, 56, 122), (246, 150, 94), (255, 214, 120)),     # sunset
    ((24, 30, 64), (86, 76, 140), (236, 236, 250)),       # night, a moon
    ((120, 170, 220), (232, 220, 200), (255, 250, 220)),  # hazy morning
)


def _landscape(p: Painter, box: Box, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    top, horizon, sun = SKIES[rng.randrange(len(SKIES))]
    water_y = y0 + h * rng.uniform(0.66, 0.78)
    _gradient(p, (x0, y0, x1, water_y), top, horizon)
    sx, sy, r = x0 + w * rng.uniform(0.2, 0.8), y0 + h * rng.uniform(0.16, 0.34), h * 0.07
    p.circle(sx, sy, r * 1.6, mix(sun, horizon, 0.6))
    p.circle(sx, sy, r, sun)
    ranges = rng.randint(2, 3)
    for i in range(ranges):
        far = (ranges - 1 - i) / max(1, ranges - 1)
        color = mix(_jitter(rng, (58, 92, 70), 14), horizon, 0.55 * far)
        base = water_y
        peaks = rng.randint(3, 5)
        pts = [(x0, base)]
        for j in range(peaks * 2 + 1):
            x = x0 + w * j / (peaks * 2)
            up = h * (rng.uniform(0.22, 0.42) if j % 2 else rng.uniform(0.06, 0.16))
            pts.append((x, base - up * (0.7 + 0.3 * far)))
        pts.append((x1, base))
        _poly(p, pts, color)
        if far > 0.5:  # snow caps on the far range
            for (ax, ay), (bx, by), (cx, cy) in zip(pts[1:], pts[2:], pts[3:], strict=False):
                if by < ay and by < cy and base - by > h * 0.3:
                    _poly(p, [(bx, by), (bx - (bx - ax) * 0.25, by + (ay - by) * 0.25),
                              (bx + (cx - bx) * 0.25, by + (cy - by) * 0.25)], (244, 246, 250))
    sea = mix(top, (20, 60, 90), 0.35)
    _gradient(p, (x0, water_y, x1, y1), sea, mix(sea, (10, 20, 30), 0.5), 10)
    for _ in range(8):  # light on the water
        lx = sx + rng.uniform(-w * 0.12, w * 0.12)
        ly = rng.uniform(water_y + 6, y1 - 6)
        lw = rng.uniform(w * 0.04, w * 0.14)
        p.rect(lx - lw / 2, ly, lx + lw / 2, ly + max(2, h * 0.008), mix(sun, sea, 0.45))


def _food(p: Painter, box: Box, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    wood = _jitter(rng, (168, 118, 76), 20)
    p.rect(x0, y0, x1, y1, wood)
    for i in range(7):  # planks
        y = y0 + h * (i + 1) / 8
        p.rect(x0, y, x1, y + max(2, h * 0.008), mix(wood, (60, 36, 20), 0.4))
    cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) * 0.4
    _ellipse(p, cx - r + 6, cy - r + 10, cx + r + 6, cy + r + 10, mix(wood, (0, 0, 0), 0.35))
    p.circle(cx, cy, r, (246, 246, 242))
    p.circle(cx, cy, r * 0.78, (232, 232, 226))
    dish = rng.randrange(3)
    if dish == 0:  # a cake with candles
        cw, ch = r * 0.9, r * 0.6
        p.rect(cx - cw / 2, cy - ch / 4, cx + cw / 2, cy + ch / 2, (110, 62, 36), radius=6)
        p.rect(cx - cw / 2, cy - ch / 2, cx + cw / 2, cy - ch / 4, (246, 224, 232), radius=6)
        for i in range(rng.randint(3, 6)):
            tx = cx - cw / 2 + cw * (i + 1) / 7
            p.rect(tx - 4, cy - ch / 2 - r * 0.25, tx + 4, cy - ch / 2, (250, 210, 60))
            p.circle(tx, cy - ch / 2 - r * 0.3, 7, (255, 140, 30))
    elif dish == 1:  # a salad
        for _ in range(26):
            a, d = rng.uniform(0, 6.283), rng.uniform(0, r * 0.6)
            fx, fy = cx + math.cos(a) * d, cy + math.sin(a) * d
            color = rng.choice(((76, 160, 60), (52, 128, 44), (214, 48, 40), (250, 200, 40)))
            p.circle(fx, fy, rng.uniform(r * 0.06, r * 0.14), color)
    else:  # pasta with sauce
        p.circle(cx, cy, r * 0.6, (236, 200, 110))
        for _ in range(14):
            a, d = rng.uniform(0, 6.283), rng.uniform(0, r * 0.45)
            p.circle(cx + math.cos(a) * d, cy + math.sin(a) * d, r * 0.08, (196, 52, 34))
        p.circle(cx, cy, r * 0.12, (60, 140, 60))
    p.rect(cx + r * 1.1, cy - r * 0.8, cx + r * 1.16, cy + r * 0.8, (200, 202, 206), radius=4)
    p.rect(cx - r * 1.16, cy - r * 0.8, cx - r * 1.1, cy + r * 0.8, (200, 202, 206), radius=4)


def _pet(p: Painter, box: Box, rng: random.Random, dog: bool) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    wall = _jitter(rng, (214, 200, 180), 24)
    p.rect(x0, y0, x1, y1, wall)
    sofa = _jitter(rng, (96, 120, 150), 30)
    p.rect(x0, y0 + h * 0.62, x1, y1, sofa)
    p.rect(x0, y0 + h * 0.58, x1, y0 + h * 0.66, mix(sofa, (255, 255, 255), 0.15), radius=12)
    fur = rng.choice(((128, 128, 134), (214, 150, 80), (60, 56, 54), (236, 226, 210)))
    if dog:
        fur = rng.choice(((190, 140, 90), (120, 84, 56), (230, 214, 180)))
    cx, cy, s = x0 + w * rng.uniform(0.42, 0.58), y0 + h * 0.62, min(w, h)
    _ellipse(p, cx - s * 0.32, cy - s * 0.12, cx + s * 0.32, cy + s * 0.2, fur)  # body
    p.rect(cx + s * 0.24, cy - s * 0.02, cx + s * 0.42, cy + s * 0.06, fur, radius=s * 0.04)
    hx, hy, hr = cx - s * 0.2, cy - s * 0.18, s * 0.16
    dark = mix(fur, (0, 0, 0), 0.4)
    if dog:  # floppy ears, a snout
        _ellipse(p, hx - hr * 1.25, hy - hr * 0.6, hx - hr * 0.55, hy + hr * 0.9, dark)
        _ellipse(p, hx + hr * 0.55, hy - hr * 0.6, hx + hr * 1.25, hy + hr * 0.9, dark)
        p.circle(hx, hy, hr, fur)
        _ellipse(p, hx - hr * 0.5, hy + hr * 0.1, hx + hr * 0.5, hy + hr * 0.8,
                 mix(fur, (255, 255, 255), 0.4))
        p.circle(hx, hy + hr * 0.25, hr * 0.16, (30, 26, 24))
    else:  # pointed ears, whiskers
        for side in (-1, 1):
            _poly(p, [(hx + side * hr * 0.95, hy - hr * 0.2), (hx + side * hr * 0.75,
                      hy - hr * 1.35), (hx + side * hr * 0.2, hy - hr * 0.85)], fur)
            _poly(p, [(hx + side * hr * 0.8, hy - hr * 0.4), (hx + side * hr * 0.72,
                      hy - hr * 1.05), (hx + side * hr * 0.38, hy - hr * 0.78)], (236, 170, 170))
        p.circle(hx, hy, hr, fur)
        p.circle(hx, hy + hr * 0.3, hr * 0.1, (220, 120, 130))
        for side in (-1, 1):
            for dy in (0.28, 0.4):
                p.rect(hx + side * hr * 0.25 - (hr * 0.7 if side < 0 else 0), hy + hr * dy,
                       hx + side * hr * 0.25 + (hr * 0.7 if side > 0 else 0),
                       hy + hr * dy + 2, (250, 250, 250))
    for side in (-1, 1):
        p.circle(hx + side * hr * 0.4, hy - hr * 0.1, hr * 0.14, (250, 250, 240))
        p.circle(hx + side * hr * 0.4, hy - hr * 0.1, hr * 0.08, (24, 24, 24))


def _paper_text(p: Painter, x0: float, y0: float, x1: float, y1: float, lines: Sequence[str],
                paper: RGB, size: float, mono_bars: bool, rng: random.Random) -> None:
    pitch = int(size * 1.35)
    y = y0 + pitch / 2
    ink = (40, 40, 44)
    if not lines and mono_bars:  # no words given: lines of grey bars
        while y + pitch / 2 < y1:
            p.rect(x0, y - size * 0.2, x0 + (x1 - x0) * rng.uniform(0.4, 1.0), y + size * 0.2,
                   (196, 196, 200), radius=4)
            y += pitch
        return
    for line in lines:
        if y + pitch / 2 > y1:
            break
        p.text(x0, y, line, size, ink, max_w=x1 - x0, bg=paper)
        y += pitch


def _document(p: Painter, box: Box, rng: random.Random, lines: Sequence[str],
              receipt: bool) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    table = _jitter(rng, (104, 96, 90) if receipt else (150, 128, 104), 16)
    p.rect(x0, y0, x1, y1, table)
    m = min(w, h) * 0.05
    size = T.FONT["body"] if w > 600 else max(12.0, T.FONT["body"] * w / 600)
    if receipt:
        longest = max((p.width(line, size) for line in lines), default=w * 0.5)
        pw = min(w - 2 * m, max(w * 0.55, longest + 2 * T.CARD_PAD))
        px0 = x0 + (w - pw) / 2
        paper: RGB = (252, 252, 248)
    else:
        px0, pw = x0 + m, w - 2 * m
        paper = (250, 246, 236)
    py0, py1 = y0 + m, y1 - m
    p.rect(px0 + 8, py0 + 10, px0 + pw + 8, py1 + 10, mix(table, (0, 0, 0), 0.35))
    p.rect(px0, py0, px0 + pw, py1, paper)
    if receipt:  # a torn bottom edge
        teeth = max(4, int(pw // 28))
        tw = pw / teeth
        for i in range(teeth):
            _poly(p, [(px0 + i * tw, py1), (px0 + (i + 0.5) * tw, py1 - tw * 0.45),
                      (px0 + (i + 1) * tw, py1), (px0 + (i + 1) * tw, py1 + 1),
                      (px0 + i * tw, py1 + 1)], table)
    pad = min(T.CARD_PAD, pw * 0.06)
    _paper_text(p, px0 + pad, py0 + pad, px0 + pw - pad, py1 - pad, lines, paper, size, True,
                rng)


def _avatar(p: Painter, box: Box, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    bg = rng.choice(((178, 210, 240), (246, 206, 170), (196, 230, 200), (226, 200, 240),
                     (250, 226, 160), (200, 208, 216)))
    p.rect(x0, y0, x1, y1, bg)
    skin = rng.choice(((250, 218, 190), (232, 186, 150), (196, 142, 104), (140, 96, 66),
                       (100, 68, 48)))
    hair = rng.choice(((40, 30, 26), (110, 70, 40), (220, 180, 110), (160, 60, 40),
                       (120, 120, 124)))
    shirt = rng.choice(((26, 115, 232), (217, 48, 37), (30, 142, 62), (84, 110, 122),
                        (161, 66, 244)))
    cx, s = x0 + w / 2, min(w, h)
    _ellipse(p, cx - s * 0.4, y0 + h * 0.74, cx + s * 0.4, y0 + h * 1.25, shirt)
    p.rect(cx - s * 0.07, y0 + h * 0.56, cx + s * 0.07, y0 + h * 0.76, skin)
    hy, hr = y0 + h * 0.44, s * 0.2
    long_hair = rng.random() < 0.5
    if long_hair:
        p.rect(cx - hr * 1.15, hy - hr * 0.4, cx + hr * 1.15, hy + hr * 1.5, hair,
               radius=hr * 0.5)
    _ellipse(p, cx - hr * 1.08, hy - hr * 1.2, cx + hr * 1.08, hy + hr * 0.2, hair)
    _ellipse(p, cx - hr * 0.86, hy - hr * 0.55, cx + hr * 0.86, hy + hr, skin)
    for side in (-1, 1):
        p.circle(cx + side * hr * 0.38, hy + hr * 0.1, hr * 0.09, (40, 34, 30))
    p.rect(cx - hr * 0.3, hy + hr * 0.5, cx + hr * 0.3, hy + hr * 0.58,
           mix(skin, (150, 50, 50), 0.5), radius=hr * 0.05)


def _album(p: Painter, box: Box, rng: random.Random, lines: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    palettes = (((230, 57, 70), (241, 250, 238), (29, 53, 87)),
                ((255, 183, 3), (2, 48, 71), (33, 158, 188)),
                ((38, 70, 83), (233, 196, 106), (231, 111, 81)),
                ((20, 20, 24), (240, 60, 140), (80, 220, 210)),
                ((114, 9, 183), (247, 37, 133), (76, 201, 240)),
                ((240, 234, 214), (20, 20, 20), (200, 60, 40)))
    bg, a, b = palettes[rng.randrange(len(palettes))]
    p.rect(x0, y0, x1, y1, bg)
    style = rng.randrange(3)
    if style == 0:  # concentric rings
        cx, cy = x0 + w * rng.uniform(0.3, 0.7), y0 + h * rng.uniform(0.3, 0.6)
        for i in range(6, 0, -1):
            p.circle(cx, cy, min(w, h) * 0.09 * i, a if i % 2 else b)
    elif style == 1:  # diagonal stripes
        for i in range(-4, 8):
            off = i * w * 0.16
            _poly(p, [(x0 + off, y1), (x0 + off + w * 0.08, y1), (x0 + off + w * 0.58, y0),
                      (x0 + off + w * 0.5, y0)], a if i % 2 else b)
        p.rect(x0, y0, x1, y0 + h * 0.12, bg)
    else:  # triangles
        for _ in range(5):
            cx, cy, s = x0 + rng.uniform(0, w), y0 + rng.uniform(h * 0.1, h * 0.8), w * 0.3
            _poly(p, [(cx, cy - s), (cx + s, cy + s * 0.7), (cx - s, cy + s * 0.7)],
                  rng.choice((a, b)))
    title = lines[0] if lines else ""
    if title:
        size = max(10.0, min(T.FONT["title"], h * 0.12))
        band = size * 1.8
        p.rect(x0, y1 - band, x1, y1, bg)
        p.text(x0 + w * 0.06, y1 - band / 2, title.upper(), size, mix(a, bg, 0.0), bold=True,
               max_w=w * 0.88, bg=bg)


def _video(p: Painter, box: Box, rng: random.Random, lines: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    _landscape(p, box, rng)
    if not lines:
        p.circle(x0 + w / 2, y0 + h / 2, min(w, h) * 0.16, (0, 0, 0))
        s = min(w, h) * 0.08
        _poly(p, [(x0 + w / 2 - s * 0.6, y0 + h / 2 - s), (x0 + w / 2 - s * 0.6, y0 + h / 2 + s),
                  (x0 + w / 2 + s, y0 + h / 2)], (250, 250, 250))
        return
    _caption(p, box, lines)


#: Studio backdrops of product photos (top, bottom) and the products' colours.
_STUDIO: tuple[tuple[RGB, RGB], ...] = (
    ((246, 246, 248), (222, 224, 230)), ((250, 244, 236), (226, 216, 202)),
    ((236, 242, 248), (204, 216, 230)), ((242, 248, 242), (212, 226, 214)))
_GOODS: tuple[RGB, ...] = ((34, 36, 40), (210, 52, 46), (36, 92, 170), (46, 128, 84),
                           (236, 236, 232), (120, 124, 132), (214, 150, 60), (150, 70, 140))


def _product(p: Painter, box: Box, rng: random.Random, obj: str) -> None:
    """One object on a plain studio backdrop with a soft shadow under it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    top, bottom = _STUDIO[rng.randrange(len(_STUDIO))]
    _gradient(p, box, top, bottom, 12)
    s = min(w, h) * 0.36  # the object's half size
    cx, cy = x0 + w / 2, y0 + h * 0.5
    color = rng.choice(_GOODS)
    dark, light = mix(color, (0, 0, 0), 0.35), mix(color, (255, 255, 255), 0.35)
    _ellipse(p, cx - s * 1.05, cy + s * 0.78, cx + s * 1.05, cy + s * 1.0,
             mix(bottom, (0, 0, 0), 0.18))
    if obj == "phone":
        p.rect(cx - s * 0.5, cy - s, cx + s * 0.5, cy + s * 0.9, (28, 28, 32), radius=s * 0.12)
        _gradient(p, (cx - s * 0.43, cy - s * 0.9, cx + s * 0.43, cy + s * 0.8), light, color, 8)
        p.circle(cx, cy - s * 0.84, s * 0.03, (60, 60, 66))
    elif obj == "shoe":
        _poly(p, [(cx - s, cy + s * 0.6), (cx - s * 0.95, cy - s * 0.2), (cx - s * 0.35,
                  cy - s * 0.3), (cx + s * 0.05, cy + s * 0.05), (cx + s * 0.9, cy + s * 0.2),
                  (cx + s, cy + s * 0.6)], color)
        p.rect(cx - s * 1.02, cy + s * 0.5, cx + s * 1.02, cy + s * 0.7, (244, 244, 240),
               radius=s * 0.08)
        for i in range(3):  # laces
            lx = cx - s * 0.5 + i * s * 0.18
            p.rect(lx, cy - s * 0.18 + i * s * 0.08, lx + s * 0.16, cy - s * 0.12 + i * s * 0.08,
                   light)
    elif obj == "bag":
        p.rect(cx - s * 0.4, cy - s * 0.95, cx + s * 0.4, cy - s * 0.55, dark, radius=s * 0.2)
        p.rect(cx - s * 0.3, cy - s * 0.85, cx + s * 0.3, cy - s * 0.6, top, radius=s * 0.14)
        p.rect(cx - s * 0.75, cy - s * 0.65, cx + s * 0.75, cy + s * 0.85, color,
               radius=s * 0.22)
        p.rect(cx - s * 0.5, cy + s * 0.05, cx + s * 0.5, cy + s * 0.6, dark, radius=s * 0.1)
        p.rect(cx - s * 0.5, cy + s * 0.05, cx + s * 0.5, cy + s * 0.1, light)
    elif obj == "book":
        p.rect(cx - s * 0.62, cy - s * 0.9, cx + s * 0.68, cy + s * 0.9, (244, 240, 228),
               radius=s * 0.04)
        p.rect(cx - s * 0.7, cy - s * 0.95, cx + s * 0.6, cy + s * 0.85, color, radius=s * 0.04)
        p.rect(cx - s * 0.7, cy - s * 0.95, cx - s * 0.58, cy + s * 0.85, dark)
        p.rect(cx - s * 0.4, cy - s * 0.6, cx + s * 0.4, cy - s * 0.5, light)
        p.rect(cx - s * 0.3, cy - s * 0.4, cx + s * 0.3, cy - s * 0.34, light)
    elif obj == "headphones":
        p.circle(cx, cy - s * 0.1, s * 0.8, dark)
        p.circle(cx, cy - s * 0.1, s * 0.66, top)
        p.rect(cx - s * 0.9, cy - s * 0.1, cx + s * 0.9, cy + s * 0.75, top)
        for side in (-1, 1):
            ex = cx + side * s * 0.72
            p.rect(ex - s * 0.2, cy - s * 0.05, ex + s * 0.2, cy + s * 0.7, color,
                   radius=s * 0.16)
            p.rect(ex - s * 0.08, cy + s * 0.05, ex + s * 0.08, cy + s * 0.6, light,
                   radius=s * 0.06)
    elif obj == "mug":
        p.circle(cx + s * 0.55, cy + s * 0.1, s * 0.34, color)
        p.circle(cx + s * 0.55, cy + s * 0.1, s * 0.2, top)
        p.rect(cx - s * 0.6, cy - s * 0.6, cx + s * 0.5, cy + s * 0.75, color, radius=s * 0.14)
        _ellipse(p, cx - s * 0.6, cy - s * 0.72, cx + s * 0.5, cy - s * 0.48, dark)
        p.rect(cx - s * 0.45, cy - s * 0.2, cx - s * 0.35, cy + s * 0.5, light,
               radius=s * 0.05)
    elif obj == "shirt":
        _poly(p, [(cx - s * 0.35, cy - s * 0.85), (cx - s * 0.95, cy - s * 0.55),
                  (cx - s * 0.75, cy - s * 0.15), (cx - s * 0.55, cy - s * 0.3),
                  (cx - s * 0.55, cy + s * 0.9), (cx + s * 0.55, cy + s * 0.9),
                  (cx + s * 0.55, cy - s * 0.3), (cx + s * 0.75, cy - s * 0.15),
                  (cx + s * 0.95, cy - s * 0.55), (cx + s * 0.35, cy - s * 0.85)], color)
        _ellipse(p, cx - s * 0.22, cy - s * 0.95, cx + s * 0.22, cy - s * 0.68, top)
        p.rect(cx - s * 0.55, cy + s * 0.82, cx + s * 0.55, cy + s * 0.9, dark)
    elif obj == "watch":
        p.rect(cx - s * 0.26, cy - s, cx + s * 0.26, cy + s * 0.95, dark, radius=s * 0.1)
        p.circle(cx, cy, s * 0.5, (200, 202, 208))
        p.circle(cx, cy, s * 0.43, color if color != (236, 236, 232) else (30, 30, 34))
        p.rect(cx - s * 0.02, cy - s * 0.34, cx + s * 0.02, cy, light)
        p.rect(cx, cy - s * 0.02, cx + s * 0.24, cy + s * 0.02, light)
    elif obj == "pan":
        p.rect(cx + s * 0.4, cy - s * 0.08, cx + s * 1.05, cy + s * 0.08, (60, 44, 32),
               radius=s * 0.06)
        p.circle(cx - s * 0.2, cy, s * 0.68, (48, 48, 52))
        p.circle(cx - s * 0.2, cy, s * 0.56, mix((48, 48, 52), color, 0.3))
    else:  # a parcel
        _poly(p, [(cx - s * 0.8, cy - s * 0.4), (cx, cy - s * 0.75), (cx + s * 0.8, cy - s * 0.4),
                  (cx, cy - s * 0.05)], light)
        _poly(p, [(cx - s * 0.8, cy - s * 0.4), (cx, cy - s * 0.05), (cx, cy + s * 0.9),
                  (cx - s * 0.8, cy + s * 0.55)], color)
        _poly(p, [(cx + s * 0.8, cy - s * 0.4), (cx, cy - s * 0.05), (cx, cy + s * 0.9),
                  (cx + s * 0.8, cy + s * 0.55)], dark)


def _caption(p: Painter, box: Box, lines: Sequence[str]) -> None:
    """``lines`` in white on a dark band across the bottom of ``box`` (subtitles)."""
    x0, _, x1, y1 = box
    w = x1 - x0
    size = T.FONT["body"] if w > 600 else max(12.0, T.FONT["body"] * w / 600)
    pitch = size * 1.35
    band = pitch * len(lines) + size
    p.rect(x0, y1 - band, x1, y1, (16, 16, 20))
    for i, line in enumerate(lines):
        p.text(x0 + w / 2, y1 - band + size / 2 + pitch * (i + 0.5), line, size,
               (250, 250, 250), align="m", max_w=w * 0.94, bg=(16, 16, 20))


def paint(p: Painter, box: Box, kind: str, seed: int, text: str = "") -> None:
    """Draw the picture ``(kind, seed, text)`` into ``box`` (logical pixels) of ``p``."""
    check_kind(kind)
    rng = random.Random(seed)
    lines = text.split("\n") if text else []
    if kind == "landscape":
        _landscape(p, box, rng)
    elif kind == "food":
        _food(p, box, rng)
    elif kind == "pet":
        low = text.casefold()
        _pet(p, box, rng, dog="dog" in low or "pupp" in low or (
            "cat" not in low and "kitten" not in low and seed % 2 == 1))
    elif kind in ("document", "receipt"):
        _document(p, box, rng, lines, kind == "receipt")
    elif kind == "avatar":
        _avatar(p, box, rng)
    elif kind == "album":
        _album(p, box, rng, lines)
    elif kind == "product":
        _product(p, box, rng, PRODUCTS[seed % len(PRODUCTS)])
    else:
        _video(p, box, rng, lines)
    if kind in ("landscape", "food", "pet") and lines:
        _caption(p, box, lines)  # what the photo shows: the words a task may need


@lru_cache(maxsize=256)
def _render(kind: str, seed: int, text: str, width: int, height: int) -> np.ndarray:
    look = Look("picture", text, "", "", encode(kind, seed), "", None, None, True, False,
                False, None, (255, 255, 255), width, height, width, height)
    painter = Painter(look, 1.0, False)
    paint(painter, (0, 0, width, height), kind, seed, text)
    arr = painter.tile().rgb
    arr.flags.writeable = False
    return arr


def render(kind: str, seed: int, width: int, height: int, text: str = "") -> np.ndarray:
    """The picture as a read-only ``height x width x 3`` uint8 array (cached)."""
    check_kind(kind)
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive int; got {value!r}")
    return _render(kind, int(seed), text, width, height)
