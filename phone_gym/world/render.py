"""Pixels of a ``Frame``: a fast tile renderer (the Minigrid way).

Each placed node is drawn once with Pillow into an opaque tile (or, for floating shapes such
as the FAB and dialogs, a tile with an alpha mask) at its size in output pixels, and cached.
A frame is then composed in a numpy buffer by slice assignment: a frame of ~40 cached tiles
takes a fraction of a millisecond.

Tiles are drawn at ``SS`` times their size and box-filtered down, which anti-aliases circles
and rounded corners. Fonts are Pillow's bundled FreeType font (``load_default``), so renders
are the same on every machine. Symbols the font lacks (◀ ● ■ ⋮ ✎ 🗑 ⇧ ⌫ ↵ ✓ ★ ...) are
drawn as vector shapes.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import theme as T
from .layout import Frame, Rect
from .widgets import Node

RGB = tuple[int, int, int]
Ink = tuple[int, ...]  # RGB, or RGBA on tiles with an alpha mask
SS = 2  # supersampling factor of tile drawing
#: Kinds drawn without supersampling: mostly text (FreeType anti-aliases it anyway), and the
#: most frequent cache misses when content changes; their curves (avatars) are pasted from
#: supersampled sprites.
FAST_KINDS = frozenset({"list_item", "text_field", "text"})

#: Kinds that draw nothing themselves (their children do).
NO_DRAW = frozenset({"row", "column", "spacer", "list"})
#: Kinds drawn as floating shapes over whatever is below them (tiles with an alpha mask).
MASKED = frozenset({"dialog", "menu", "menu_item", "toast", "fab"})
#: Kinds whose inner color is not simply their surface (see ``inner_color``).
INNER_SPECIAL = frozenset({"screen", "list_item", "key"})
#: The color a container paints behind its children.
SURFACES: dict[str, RGB] = {
    "status_bar": T.STATUS_BG,
    "nav_bar": T.NAV_BG,
    "keyboard": T.KEYBOARD_BG,
    "top_bar": T.TOP_BAR_BG,
    "tab_bar": T.SURFACE,
    "dialog": T.SURFACE,
    "menu": T.SURFACE,
    "toast": T.TOAST_BG,
}

FIELD_BG = (236, 239, 245)
OUTLINE = (116, 119, 127)
DISABLED_FILL = (226, 227, 231)
SPECIAL_KEY_BG = (190, 195, 204)
SELECTION = (187, 214, 251)
AVATAR_COLORS: tuple[RGB, ...] = (
    (26, 115, 232), (217, 48, 37), (30, 142, 62), (249, 171, 0), (161, 66, 244),
    (0, 137, 123), (232, 113, 10), (84, 110, 122),
)
SPECIAL_KEYS = frozenset({"⇧", "⌫", "?123", "ABC", "=\\<", "123"})
VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200d"))


def _scrim_shifts(keep: float) -> tuple[int, ...]:
    """Right shifts whose sum of ``x >> s`` best approximates ``x * keep`` (1 or 2 terms)."""
    options = [(s,) for s in range(8)] + [(a, b) for a in range(1, 8) for b in range(a + 1, 9)]
    options.append(())  # keep == 0
    return min(options, key=lambda o: abs(sum(2.0**-s for s in o) - keep))


SCRIM_SHIFTS = _scrim_shifts(1.0 - T.SCRIM)


def scrimmed(color: RGB) -> RGB:
    """``color`` darkened by the scrim exactly as the frame buffer is."""
    return tuple(sum(c >> s for s in SCRIM_SHIFTS) for c in color)  # type: ignore[return-value]


def luminance(color: RGB) -> float:
    return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]


def on_color(bg: RGB, *, secondary: bool = False) -> RGB:
    """Text color readable on ``bg``."""
    if luminance(bg) < 128:
        return (200, 204, 212) if secondary else (242, 243, 246)
    return T.TEXT_2 if secondary else T.TEXT


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved towards ``b`` by ``t``."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


# --- fonts -----------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def font(px: int) -> ImageFont.FreeTypeFont:
    """The bundled FreeType font at ``px`` pixels (cached per size)."""
    return ImageFont.load_default(size=max(1, px))  # type: ignore[return-value]


@lru_cache(maxsize=1)
def _notdef() -> tuple[tuple[int, int], bytes]:
    mask = font(24).getmask("\uffff")
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def font_has(ch: str) -> bool:
    """Whether the bundled font has a glyph for ``ch`` (else it draws a box)."""
    if ch.isspace():
        return True
    mask = font(24).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef()


# --- vector symbols --------------------------------------------------------------------------

Draw = ImageDraw.ImageDraw
SymbolFn = Callable[[Draw, float, float, float, RGB, RGB], None]
SYMBOLS: dict[str, SymbolFn] = {}


def _symbol(*chars: str) -> Callable[[SymbolFn], SymbolFn]:
    def register(fn: SymbolFn) -> SymbolFn:
        for ch in chars:
            SYMBOLS[ch] = fn
        return fn
    return register


def _pts(cx: float, cy: float, s: float, *uv: tuple[float, float]) -> list[tuple[float, float]]:
    return [(cx + u * s, cy + v * s) for u, v in uv]


def _lw(s: float, k: float = 0.17) -> int:
    return max(1, round(s * k))


def _polyline(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, w: int) -> None:
    d.line(pts, fill=fill, width=w, joint="curve")
    r = w / 2
    for x, y in (pts[0], pts[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _disc(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _ring(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB, w: int) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), outline=fill, width=w)


@_symbol("◀", "⏴", "◂")
def _tri_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0.55, -0.75), (0.55, 0.75), (-0.75, 0)), fill=c)


@_symbol("▶", "⏵", "▸")
def _tri_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.55, -0.75), (-0.55, 0.75), (0.75, 0)), fill=c)


@_symbol("▲", "⏶")
def _tri_up(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.75, 0.55), (0.75, 0.55), (0, -0.75)), fill=c)


@_symbol("▼", "⏷")
def _tri_down(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.75, -0.55), (0.75, -0.55), (0, 0.75)), fill=c)


@_symbol("●", "⬤", "•")
def _dot(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy, 0.6 * s, c)


@_symbol("○", "◯")
def _circle(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.65 * s, c, _lw(s))


@_symbol("■", "◼", "⏹")
def _square(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.55, -0.55), (0.55, 0.55)), radius=0.1 * s, fill=c)


@_symbol("□", "◻")
def _square_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.6, -0.6), (0.6, 0.6)), radius=0.12 * s, outline=c,
                        width=_lw(s))


@_symbol("<", "‹", "❮", "〈")
def _chevron_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (0.25, -0.7), (-0.45, 0), (0.25, 0.7)), c, _lw(s))


@_symbol(">", "›", "❯", "〉")
def _chevron_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.25, -0.7), (0.45, 0), (-0.25, 0.7)), c, _lw(s))


def _arrow(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, dx: int,
           dy: int) -> None:
    def rot(u: float, v: float) -> tuple[float, float]:  # (1, 0) points along (dx, dy)
        return (u * dx - v * dy, u * dy + v * dx)

    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, rot(-0.7, 0), rot(0.7, 0)), c, w)
    _polyline(d, _pts(cx, cy, s, rot(0.1, -0.6), rot(0.7, 0), rot(0.1, 0.6)), c, w)


@_symbol("←", "⬅", "🡐")
def _arrow_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, -1, 0)


@_symbol("→", "➡", "🡒")
def _arrow_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 1, 0)


@_symbol("↑", "⬆")
def _arrow_up(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 0, -1)


@_symbol("↓", "⬇")
def _arrow_down(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 0, 1)


@_symbol("+", "＋", "➕")
def _plus(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, (-0.7, 0), (0.7, 0)), c, w)
    _polyline(d, _pts(cx, cy, s, (0, -0.7), (0, 0.7)), c, w)


@_symbol("−", "➖")
def _minus(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.7, 0), (0.7, 0)), c, _lw(s))


@_symbol("×", "✕", "✖", "✗", "✘", "❌")
def _cross(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, (-0.55, -0.55), (0.55, 0.55)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.55, 0.55), (0.55, -0.55)), c, w)


@_symbol("✓", "✔", "☑", "✅")
def _check(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.65, 0.02), (-0.2, 0.48), (0.7, -0.5)), c, _lw(s, 0.2))


@_symbol("⋮", "︙")
def _kebab(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for v in (-0.6, 0, 0.6):
        _disc(d, cx, cy + v * s, 0.15 * s, c)


@_symbol("⋯", "…", "···")
def _meatballs(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for u in (-0.6, 0, 0.6):
        _disc(d, cx + u * s, cy, 0.15 * s, c)


@_symbol("☰", "≡")
def _hamburger(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for v in (-0.5, 0, 0.5):
        _polyline(d, _pts(cx, cy, s, (-0.7, v), (0.7, v)), c, _lw(s, 0.14))


@_symbol("✎", "✏", "🖉", "🖊", "✐", "📝")
def _pencil(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r2 = math.sqrt(0.5)
    du, dv, nu, nv, hw = r2, -r2, r2, r2, 0.2

    def at(t: float, n: float) -> tuple[float, float]:
        return (-0.72 + du * t + nu * n, 0.72 + dv * t + nv * n)

    d.polygon(_pts(cx, cy, s, at(0, 0), at(0.4, hw), at(1.85, hw), at(1.85, -hw), at(0.4, -hw)),
              fill=c)
    d.line(_pts(cx, cy, s, at(1.5, hw * 1.4), at(1.5, -hw * 1.4)), fill=bg, width=_lw(s, 0.08))


@_symbol("🗑", "🗑️")
def _trash(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.14)
    _polyline(d, _pts(cx, cy, s, (-0.7, -0.52), (0.7, -0.52)), c, w)
    d.rectangle(_pts(cx, cy, s, (-0.22, -0.78), (0.22, -0.52)), outline=c, width=w)
    d.polygon(_pts(cx, cy, s, (-0.52, -0.36), (0.52, -0.36), (0.42, 0.78), (-0.42, 0.78)), fill=c)
    for u in (-0.18, 0.18):
        d.line(_pts(cx, cy, s, (u, -0.18), (u, 0.58)), fill=bg, width=_lw(s, 0.08))


@_symbol("🔍", "🔎", "⌕")
def _search(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx - 0.15 * s, cy - 0.15 * s, 0.48 * s, c, _lw(s))
    _polyline(d, _pts(cx, cy, s, (0.22, 0.22), (0.7, 0.7)), c, _lw(s, 0.22))


def _star_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        r = 0.85 if k % 2 == 0 else 0.36
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + r * s * math.cos(a), cy + 0.08 * s + r * s * math.sin(a)))
    return pts


@_symbol("★", "⭐", "🌟")
def _star(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_star_points(cx, cy, s), fill=c)


@_symbol("☆")
def _star_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_star_points(cx, cy, s), outline=c, width=_lw(s, 0.1))


def _heart(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB) -> None:
    for u in (-0.34, 0.34):
        _disc(d, cx + u * s, cy - 0.22 * s, 0.38 * s, c)
    d.polygon(_pts(cx, cy, s, (-0.7, -0.1), (0.7, -0.1), (0, 0.75)), fill=c)


@_symbol("♥", "❤", "💙", "💚")
def _heart_full(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _heart(d, cx, cy, s, c)


@_symbol("♡")
def _heart_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _heart(d, cx, cy, s, c)
    _heart(d, cx, cy + 0.02 * s, 0.72 * s, bg)


@_symbol("⚙", "⛭")
def _gear(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    pts = []
    for k in range(8):
        a = k * math.pi / 4
        for da, r in ((-0.36, 0.58), (-0.2, 0.82), (0.2, 0.82), (0.36, 0.58)):
            pts.append((cx + r * s * math.cos(a + da), cy + r * s * math.sin(a + da)))
    d.polygon(pts, fill=c)
    _disc(d, cx, cy, 0.26 * s, bg)


@_symbol("⇧")
def _shift(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.8), (0.72, 0), (0.3, 0), (0.3, 0.7), (-0.3, 0.7), (-0.3, 0),
                   (-0.72, 0)), outline=c, width=_lw(s, 0.11))


@_symbol("⬆️", "⮉")
def _shift_on(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.8), (0.72, 0), (0.3, 0), (0.3, 0.7), (-0.3, 0.7), (-0.3, 0),
                   (-0.72, 0)), fill=c)


@_symbol("⌫")
def _backspace(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.9, 0), (-0.42, -0.58), (0.85, -0.58), (0.85, 0.58),
                   (-0.42, 0.58)), outline=c, width=_lw(s, 0.11))
    w = _lw(s, 0.11)
    _polyline(d, _pts(cx, cy, s, (0.0, -0.25), (0.5, 0.25)), c, w)
    _polyline(d, _pts(cx, cy, s, (0.0, 0.25), (0.5, -0.25)), c, w)


@_symbol("↵", "⏎", "⮐", "↩")
def _enter(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.14)
    _polyline(d, _pts(cx, cy, s, (0.62, -0.62), (0.62, 0.2), (-0.6, 0.2)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.22, -0.18), (-0.6, 0.2), (-0.22, 0.58)), c, w)


@_symbol("↻", "⟳", "🔄", "↺", "⟲")
def _refresh(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r = 0.6 * s
    d.arc((cx - r, cy - r, cx + r, cy + r), 40, 330, fill=c, width=_lw(s))
    a = math.radians(330)
    tip = (cx + r * math.cos(a), cy + r * math.sin(a))
    d.polygon([(tip[0] - 0.35 * s, tip[1] - 0.05 * s), (tip[0] + 0.22 * s, tip[1] - 0.3 * s),
               (tip[0] + 0.1 * s, tip[1] + 0.28 * s)], fill=c)


@_symbol("✉", "📧", "📨", "📩", "✉️")
def _mail(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.12)
    d.rounded_rectangle(_pts(cx, cy, s, (-0.8, -0.55), (0.8, 0.55)), radius=0.1 * s, outline=c,
                        width=w)
    _polyline(d, _pts(cx, cy, s, (-0.7, -0.42), (0, 0.1), (0.7, -0.42)), c, w)


@_symbol("⌂", "🏠", "🏡")
def _home(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.85, -0.02), (0, -0.82), (0.85, -0.02)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.55, -0.1), (0.55, 0.75)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.15, 0.3), (0.15, 0.75)), fill=bg)


@_symbol("👤", "👥", "🧑", "👩", "👨")
def _person(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy - 0.38 * s, 0.32 * s, c)
    d.chord(_pts(cx, cy, s, (-0.72, 0.08), (0.72, 1.4)), 180, 360, fill=c)


@_symbol("⏸")
def _pause(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for u in (-0.45, 0.15):
        d.rectangle(_pts(cx, cy, s, (u, -0.65), (u + 0.3, 0.65)), fill=c)


@_symbol("📷", "📸")
def _camera(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.85, -0.45), (0.85, 0.7)), radius=0.15 * s, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.3, -0.68), (0.3, -0.4)), fill=c)
    _disc(d, cx, cy + 0.12 * s, 0.36 * s, bg)
    _disc(d, cx, cy + 0.12 * s, 0.2 * s, c)


@_symbol("📅", "📆", "🗓")
def _calendar(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.75, -0.6), (0.75, 0.75)), radius=0.1 * s, outline=c,
                        width=_lw(s, 0.12))
    d.rectangle(_pts(cx, cy, s, (-0.75, -0.6), (0.75, -0.25)), fill=c)
    for u in (-0.38, 0.38):
        _polyline(d, _pts(cx, cy, s, (u, -0.85), (u, -0.5)), c, _lw(s, 0.12))


@_symbol("⏰", "🕒", "🕐", "⏱", "⌚", "🕓")
def _clock(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.72 * s, c, _lw(s, 0.13))
    _polyline(d, _pts(cx, cy, s, (0, -0.45), (0, 0), (0.32, 0.2)), c, _lw(s, 0.12))


@_symbol("🔒", "🔐")
def _lock(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.arc(_pts(cx, cy, s, (-0.38, -0.85), (0.38, -0.05)), 180, 360, fill=c, width=_lw(s, 0.14))
    for u in (-0.38, 0.38):
        d.line(_pts(cx, cy, s, (u, -0.45), (u, -0.05)), fill=c, width=_lw(s, 0.14))
    d.rounded_rectangle(_pts(cx, cy, s, (-0.62, -0.08), (0.62, 0.8)), radius=0.1 * s, fill=c)


@_symbol("📁", "📂", "🗀")
def _folder(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.85, -0.6), (-0.25, -0.6), (-0.1, -0.42), (0.85, -0.42),
                   (0.85, 0.65), (-0.85, 0.65)), fill=c)


@_symbol("💬", "🗨", "🗩")
def _chat(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.8, -0.7), (0.8, 0.45)), radius=0.2 * s, fill=c)
    d.polygon(_pts(cx, cy, s, (-0.4, 0.3), (-0.1, 0.3), (-0.5, 0.82)), fill=c)


@_symbol("♪", "♫", "🎵", "🎶")
def _note(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.ellipse(_pts(cx, cy, s, (-0.6, 0.28), (0.02, 0.78)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.1, -0.75), (0.04, 0.52)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.1, -0.78), (0.6, -0.5), (0.6, -0.2), (-0.1, -0.45)), fill=c)


@_symbol("☀", "🔆", "☼")
def _sun(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy, 0.36 * s, c)
    for k in range(8):
        a = k * math.pi / 4
        _polyline(d, [(cx + 0.55 * s * math.cos(a), cy + 0.55 * s * math.sin(a)),
                      (cx + 0.8 * s * math.cos(a), cy + 0.8 * s * math.sin(a))], c, _lw(s, 0.12))


@_symbol("✈", "🛪", "✈️")
def _plane(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.85), (0.1, -0.7), (0.1, -0.2), (0.85, 0.2), (0.85, 0.32),
                   (0.1, 0.1), (0.1, 0.5), (0.32, 0.7), (0.32, 0.8), (0, 0.7), (-0.32, 0.8),
                   (-0.32, 0.7), (-0.1, 0.5), (-0.1, 0.1), (-0.85, 0.32), (-0.85, 0.2),
                   (-0.1, -0.2), (-0.1, -0.7)), fill=c)


@_symbol("📞", "☎", "✆", "📱")
def _phone(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r = 0.72 * s
    d.arc((cx - r, cy - r, cx + r, cy + r), 95, 175, fill=c, width=_lw(s, 0.3))
    d.ellipse(_pts(cx, cy, s, (-0.9, -0.42), (-0.5, 0.02)), fill=c)
    d.ellipse(_pts(cx, cy, s, (-0.35, 0.42), (0.09, 0.85)), fill=c)


@_symbol("🔔", "🔕")
def _bell(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.chord(_pts(cx, cy, s, (-0.55, -0.7), (0.55, 0.6)), 180, 360, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.55, -0.06), (0.55, 0.45)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.55, 0.4), (0.55, 0.4), (0.75, 0.58), (-0.75, 0.58)), fill=c)
    _disc(d, cx, cy + 0.7 * s, 0.14 * s, c)


@_symbol("↗", "⤴", "🔗")
def _share(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.13)
    _polyline(d, _pts(cx, cy, s, (-0.55, 0.55), (0.6, -0.6)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.05, -0.6), (0.6, -0.6), (0.6, 0.05)), c, w)


@_symbol("⬇️", "📥", "⤓")
def _download(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy - 0.1 * s, 0.8 * s, c, 0, 1)
    _polyline(d, _pts(cx, cy, s, (-0.65, 0.78), (0.65, 0.78)), c, _lw(s))


@_symbol("📌", "📍")
def _pin(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.3, -0.8), (0.3, -0.8), (0.22, -0.1), (-0.22, -0.1)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.55, 0.12), (0.55, 0.12), (0.3, -0.2), (-0.3, -0.2)), fill=c)
    _polyline(d, _pts(cx, cy, s, (0, 0.1), (0, 0.82)), c, _lw(s, 0.12))


def can_draw(glyph: str) -> bool:
    """Whether ``glyph`` can be drawn: vector symbols and text the font has."""
    return glyph in SYMBOLS or all(font_has(ch) or ch in SYMBOLS for ch in glyph)


# --- tiles -----------------------------------------------------------------------------------


class Look(NamedTuple):
    """Everything that affects how a node looks: the tile cache key."""

    kind: str
    text: str
    hint: str
    desc: str
    style: str
    glyph: str
    color: RGB | None
    checked: bool | None
    enabled: bool
    selected: bool
    focused: bool
    extra: object  # per-kind context (top bar buttons, list item trailing widget)
    bg: RGB  # what the node sits on
    lw: int  # logical size
    lh: int
    tw: int  # output size
    th: int


class Tile(NamedTuple):
    """A drawn node: RGB pixels, and for floating shapes what blending needs.

    Inside ``solid`` (rows r0:r1, columns c0:c1) the tile is opaque and is copied. Outside
    it, ``pre`` (rgb * alpha) and ``inv`` (256 - alpha, uint16) blend it with what is below:
    ``(pre + below * inv) >> 8``; when ``clear``, nothing outside ``solid`` is drawn.
    """

    rgb: np.ndarray
    solid: tuple[int, int, int, int] = (0, 0, 0, 0)
    pre: np.ndarray | None = None
    inv: np.ndarray | None = None
    clear: bool = True
    opaque: bool = False  # solid everywhere: a plain copy

    @property
    def nbytes(self) -> int:
        return self.rgb.nbytes + sum(a.nbytes for a in (self.pre, self.inv) if a is not None)


def _solid_rect(alpha: np.ndarray) -> tuple[int, int, int, int]:
    """A large rectangle where ``alpha`` is opaque: full rows, full columns, the opaque
    bounding box, or a centered inset of it (for round shapes)."""
    h, w = alpha.shape
    opaque = alpha == 255
    candidates: list[tuple[int, int, int, int]] = []
    for axis in (1, 0):
        full = opaque.all(axis=axis)
        if full.any():
            a, b = int(np.argmax(full)), len(full) - int(np.argmax(full[::-1]))
            if full[a:b].all():
                candidates.append((a, b, 0, w) if axis == 1 else (0, h, a, b))
    ys, xs = np.flatnonzero(opaque.any(axis=1)), np.flatnonzero(opaque.any(axis=0))
    if len(ys):
        r0, r1, c0, c1 = int(ys[0]), int(ys[-1]) + 1, int(xs[0]), int(xs[-1]) + 1
        lo, hi = 0, min(r1 - r0, c1 - c0) // 2  # smallest centered inset that is all opaque
        while lo < hi:
            mid = (lo + hi) // 2
            if opaque[r0 + mid:r1 - mid, c0 + mid:c1 - mid].all():
                hi = mid
            else:
                lo = mid + 1
        if r0 + lo < r1 - lo and c0 + lo < c1 - lo:
            candidates.append((r0 + lo, r1 - lo, c0 + lo, c1 - lo))
    if not candidates:
        return (0, 0, 0, 0)
    return max(candidates, key=lambda r: (r[1] - r[0]) * (r[3] - r[2]))


class Painter:
    """Draws one tile; coordinates are logical pixels inside the node's rect."""

    def __init__(self, look: Look, font_scale: float, masked: bool, ss: int = SS) -> None:
        self.look = look
        self.ss = ss
        self.font_scale = font_scale
        self.w, self.h = look.tw * ss, look.th * ss
        self.kx = self.w / look.lw
        self.ky = self.h / look.lh
        self.kf = font_scale * ss
        self.lw, self.lh = look.lw, look.lh
        self.masked = masked
        if masked:
            surface = SURFACES.get(look.kind, look.bg)
            self.img = Image.new("RGBA", (self.w, self.h), (*surface, 0))
        else:
            self.img = Image.new("RGB", (self.w, self.h), look.bg)
        self.d = ImageDraw.Draw(self.img)

    # geometry
    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A logical rect as inclusive drawing pixel bounds."""
        return (round(x0 * self.kx), round(y0 * self.ky), round(x1 * self.kx) - 1,
                round(y1 * self.ky) - 1)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Ink | None = None, *,
             radius: float = 0, outline: RGB | None = None, width: float = 0,
             corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        b = self.box(x0, y0, x1, y1)
        if b[2] < b[0] or b[3] < b[1]:
            return
        r = min(radius * self.kf, (b[2] - b[0]) / 2, (b[3] - b[1]) / 2)
        w = max(1, round(width * self.kf)) if outline is not None else 0
        if r >= 1:
            self.d.rounded_rectangle(b, radius=r, fill=fill, outline=outline, width=w,
                                     corners=corners)
        else:
            self.d.rectangle(b, fill=fill, outline=outline, width=w)

    def circle(self, cx: float, cy: float, r: float, fill: Ink) -> None:
        x, y, rr = cx * self.kx, cy * self.ky, r * self.kf
        if rr <= 0:
            return
        self.d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)

    def hline(self, x0: float, x1: float, y1: float, thickness: float, fill: RGB) -> None:
        """A horizontal line whose bottom edge is at ``y1``, at least one output pixel thick."""
        t = max(self.ss, round(thickness * self.kf))
        b = self.box(x0, 0, x1, y1)
        if b[2] >= b[0]:
            self.d.rectangle((b[0], max(0, b[3] + 1 - t), b[2], b[3]), fill=fill)

    # text
    def font(self, size: float) -> ImageFont.FreeTypeFont:
        return font(round(size * self.kf))

    @staticmethod
    def runs(text: str) -> list[tuple[str, bool]]:
        """``text`` split into runs of font text and single vector symbols."""
        text = text.translate(VARIATION_SELECTORS)
        if all(font_has(ch) for ch in text):
            return [(text, False)] if text else []
        out: list[tuple[str, bool]] = []
        buf = ""
        for ch in text:
            if ch in SYMBOLS and not font_has(ch):
                if buf:
                    out.append((buf, False))
                    buf = ""
                out.append((ch, True))
            else:
                buf += ch
        if buf:
            out.append((buf, False))
        return out

    def text_px(self, text: str, f: ImageFont.FreeTypeFont) -> float:
        """Width of ``text`` in drawing pixels."""
        return sum(f.size * 1.05 if sym else f.getlength(run) for run, sym in self.runs(text))

    def width(self, text: str, size: float) -> float:
        """Width of ``text`` in logical pixels."""
        return self.text_px(text, self.font(size)) / self.kx

    def fit(self, text: str, size: float, max_w: float, *, tail: bool = False) -> str:
        """``text`` cut with an ellipsis (at the end, or the start when ``tail``) to fit."""
        f = self.font(size)
        limit = max_w * self.kx
        text = text.replace("\n", " ")
        if self.text_px(text, f) <= limit:
            return text
        lo, hi = 0, len(text)
        while lo < hi:  # longest cut that fits
            mid = (lo + hi + 1) // 2
            cut = "…" + text[len(text) - mid:].lstrip() if tail else text[:mid].rstrip() + "…"
            if self.text_px(cut, f) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return "…" if self.text_px("…", f) <= limit else ""
        return "…" + text[len(text) - lo:].lstrip() if tail else text[:lo].rstrip() + "…"

    def text(self, x: float, y: float, text: str, size: float, fill: RGB, *,
             align: str = "l", bold: bool = False, max_w: float | None = None,
             tail: bool = False, bg: RGB | None = None) -> float:
        """Draw one line vertically centered on ``y``; ``align`` l/m/r is relative to ``x``.
        Returns the logical x where the text ends."""
        if max_w is not None:
            text = self.fit(text, size, max_w, tail=tail)
        if not text:
            return x
        f = self.font(size)
        runs = self.runs(text)
        total = sum(f.size * 1.05 if sym else f.getlength(run) for run, sym in runs)
        px = x * self.kx - (total / 2 if align == "m" else total if align == "r" else 0)
        py = y * self.ky
        stroke = max(1, round(f.size / 44)) if bold else 0
        for run, sym in runs:
            if sym:
                adv = f.size * 1.05
                draw_symbol = SYMBOLS[run]
                draw_symbol(self.d, px + adv / 2, py, f.size * 0.38, fill, bg or self.look.bg)
                px += adv
            else:
                self.d.text((px, py), run, font=f, fill=fill, anchor="lm", stroke_width=stroke,
                            stroke_fill=fill)
                px += f.getlength(run)
        return px / self.kx

    def glyph(self, cx: float, cy: float, glyph: str, box: float, fill: RGB, bg: RGB,
              fallback: str = "") -> None:
        """A glyph centered in a ``box``-sized square: a vector symbol, font text, or the
        first letter of ``fallback``."""
        glyph = glyph.strip()
        if glyph not in SYMBOLS:
            glyph = glyph.translate(VARIATION_SELECTORS)
        if glyph in SYMBOLS:
            SYMBOLS[glyph](self.d, cx * self.kx, cy * self.ky, box * 0.3 * self.kf, fill, bg)
            return
        if not glyph or not can_draw(glyph):
            glyph = (fallback.strip()[:1] or "?").upper()
        size = box * (0.5 if len(glyph) == 1 else 0.36)
        self.text(cx, cy, glyph, size, fill, align="m", bold=True, max_w=box)

    def avatar(self, cx: float, cy: float, d: float, glyph: str, color: RGB, bg: RGB) -> None:
        """A letter in a disc, pasted from a supersampled sprite (crisp even when ``ss`` is 1)."""
        px = max(1, round(d * self.kx))
        sprite = _avatar_sprite(glyph, color, bg, px, self.font_scale * px / (d * self.kx))
        self.img.paste(sprite, (round(cx * self.kx - px / 2), round(cy * self.ky - px / 2)))

    def tile(self) -> Tile:
        img = self.img.reduce(self.ss) if self.ss > 1 else self.img
        if not self.masked:
            rgb = np.ascontiguousarray(np.asarray(img))
            return Tile(rgb, (0, img.height, 0, img.width), opaque=True)
        arr = np.asarray(img)
        rgb = np.ascontiguousarray(arr[..., :3])
        alpha = arr[..., 3].astype(np.uint16)
        alpha += alpha > 127  # 0..256, so that opaque pixels copy exactly
        solid = _solid_rect(arr[..., 3])
        rest = alpha.copy()
        r0, r1, c0, c1 = solid
        rest[r0:r1, c0:c1] = 0
        if not rest.any():
            return Tile(rgb, solid)
        a = alpha[..., None]
        pre = rgb * a
        inv = np.ascontiguousarray(np.broadcast_to(256 - a, rgb.shape))
        return Tile(rgb, solid, pre, inv, False)


def _lines_y(base: float, n: int, pitch: int) -> list[float]:
    return [base / 2 + i * pitch for i in range(n)]


# --- per-kind drawing ------------------------------------------------------------------------

DrawFn = Callable[[Painter, Look], None]
DRAW: dict[str, DrawFn] = {}


def _draws(*kinds: str) -> Callable[[DrawFn], DrawFn]:
    def register(fn: DrawFn) -> DrawFn:
        for kind in kinds:
            DRAW[kind] = fn
        return fn
    return register


@_draws("screen", "nav_bar", "keyboard")
def _draw_fill(p: Painter, k: Look) -> None:
    color = k.color if k.kind == "screen" and k.color else SURFACES.get(k.kind, T.BG)
    p.rect(0, 0, k.lw, k.lh, color)


@_draws("text")
def _draw_text(p: Painter, k: Look) -> None:
    style = k.style if k.style in ("title", "body", "caption", "big") else "body"
    size = T.FONT[style]
    base = T.HEIGHTS[f"text:{style}"]
    fill = on_color(k.bg, secondary=style == "caption")
    if not k.enabled:
        fill = T.HINT
    lines = T.wrap_text(k.text, k.lw, size)
    for line, y in zip(lines, _lines_y(base, len(lines), int(size * 1.3)), strict=False):
        p.text(0, y, line, size, fill, bold=style == "title", max_w=k.lw)


@_draws("button")
def _draw_button(p: Painter, k: Look) -> None:
    style = k.style or "primary"
    x0, y0, x1, y1 = 8, 18, k.lw - 8, k.lh - 18
    if y1 - y0 < 40:
        y0, y1 = 2, k.lh - 2
    radius = (y1 - y0) / 2
    fill: RGB | None = None
    outline: RGB | None = None
    if style in ("primary", "danger"):
        fill = (T.PRIMARY if style == "primary" else T.DANGER) if k.enabled else DISABLED_FILL
        fg = T.PRIMARY_TEXT if k.enabled else T.HINT
    elif style == "secondary":
        outline = OUTLINE if k.enabled else T.DIVIDER
        fg = T.PRIMARY if k.enabled else T.HINT
    else:  # text button
        fg = (T.DANGER if style == "text_danger" else T.PRIMARY) if k.enabled else T.HINT
        if luminance(k.bg) < 128 and k.enabled:
            fg = (138, 180, 248)
    if fill is not None or outline is not None:
        p.rect(x0, y0, x1, y1, fill, radius=radius, outline=outline, width=3)
    size = T.FONT["button"]
    p.text(k.lw / 2, k.lh / 2, k.text, size, fg, align="m", bold=True,
           max_w=max(1, x1 - x0 - 2 * min(40, radius)), bg=fill)


@_draws("text_field")
def _draw_text_field(p: Painter, k: Look) -> None:
    pad = 28
    label, value, hint = k.desc, k.text, k.hint
    accent = T.PRIMARY if k.focused else OUTLINE
    fg, label_fg = (T.TEXT, T.PRIMARY if k.focused else T.TEXT_2)
    if not k.enabled:
        fg = label_fg = accent = T.HINT
    size, lsize = T.FONT["body"], T.FONT["small"]
    y0, y1 = 6, k.lh - 8
    multiline = k.style == "multiline"
    if multiline:
        p.rect(0, y0, k.lw, y1, FIELD_BG, radius=16, outline=accent, width=5 if k.focused else 3)
    else:
        p.rect(0, y0, k.lw, y1, FIELD_BG, radius=16, corners=(True, True, False, False))
        p.hline(0, k.lw, y1, 6 if k.focused else 3, accent)
    top = y0
    if label:
        p.text(pad, y0 + 38, label, lsize, label_fg, max_w=k.lw - 2 * pad)
        top = y0 + 58
    max_w = k.lw - 2 * pad - 8
    pitch = int(size * 1.3)
    if multiline:
        lines = T.wrap_text(value, int(max_w), size) if value else [""]
        room = max(1, int((y1 - top - 24) // pitch))
        if len(lines) > room:
            lines = lines[-room:] if k.focused else lines[:room]
        ys = [top + 24 + pitch / 2 + i * pitch for i in range(len(lines))]
    else:
        lines = [value]
        ys = [(top + y1) / 2 if not label else (top + y1) / 2 - 2]
    end_x, end_y = float(pad), ys[0]
    if value:
        for line, y in zip(lines, ys, strict=True):
            shown = p.fit(line, size, max_w, tail=k.focused)
            if k.selected and k.focused:
                w = p.width(shown, size)
                p.rect(pad - 2, y - size * 0.62, pad + w + 2, y + size * 0.62, SELECTION)
            end_x = p.text(pad, y, shown, size, fg)
            end_y = y
    elif hint:
        p.text(pad, ys[0], hint, size, T.HINT, max_w=max_w)
    if k.focused and k.enabled:
        cx = end_x + (3 if value else 0)
        p.rect(cx, end_y - size * 0.58, cx + 4, end_y + size * 0.58, T.PRIMARY)


def _switch(p: Painter, k: Look, x1: float, cy: float) -> None:
    tw, th = 132, 78
    x0 = x1 - tw
    on = bool(k.checked)
    if on:
        track = T.PRIMARY if k.enabled else mix(T.PRIMARY, k.bg, 0.6)
        p.rect(x0, cy - th / 2, x1, cy + th / 2, track, radius=th / 2)
        p.circle(x1 - th / 2, cy, 27, T.SURFACE)
    else:
        line = OUTLINE if k.enabled else T.DIVIDER
        p.rect(x0, cy - th / 2, x1, cy + th / 2, (228, 230, 236), radius=th / 2, outline=line,
               width=5)
        p.circle(x0 + th / 2, cy, 19, line)


@_draws("toggle")
def _draw_toggle(p: Painter, k: Look) -> None:
    x1 = k.lw - 6
    if k.text:
        fg = on_color(k.bg) if k.enabled else T.HINT
        p.text(0, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - 132 - 40)
    _switch(p, k, x1, k.lh / 2)


@_draws("checkbox")
def _draw_checkbox(p: Painter, k: Look) -> None:
    s = 60
    x0 = 6 if k.text else (k.lw - s) / 2
    y0 = (k.lh - s) / 2
    if k.checked:
        fill = T.PRIMARY if k.enabled else T.HINT
        p.rect(x0, y0, x0 + s, y0 + s, fill, radius=10)
        SYMBOLS["✓"](p.d, (x0 + s / 2) * p.kx, (y0 + s / 2) * p.ky, s * 0.4 * p.kf,
                     T.SURFACE, fill)
    else:
        p.rect(x0, y0, x0 + s, y0 + s, None, radius=10,
               outline=T.TEXT_2 if k.enabled else T.HINT, width=5)
    if k.text:
        fg = on_color(k.bg) if k.enabled else T.HINT
        p.text(x0 + s + 36, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - s - 48)


def avatar_color(glyph: str, color: RGB | None) -> RGB:
    if color is not None:
        return color
    return AVATAR_COLORS[sum(map(ord, glyph)) % len(AVATAR_COLORS)]


@_draws("list_item")
def _draw_list_item(p: Painter, k: Look) -> None:
    bg = T.SELECTED_BG if k.selected else k.bg
    if k.selected:
        p.rect(0, 0, k.lw, k.lh, bg)
    x = T.PAD if k.lw >= T.SCREEN_W - T.PAD else 16  # full-width rows get the screen margin
    if k.glyph:
        d = 104
        p.avatar(x + d / 2, k.lh / 2, d, k.glyph, avatar_color(k.glyph, k.color), bg)
        x += d + 40
    trailing = k.extra
    reserve = 0 if not trailing else (2 if trailing == "toggle" else 1) * T.ICON_SIZE + 24
    max_w = k.lw - x - T.PAD // 2 - reserve
    fg = on_color(bg) if k.enabled else T.HINT
    fg2 = on_color(bg, secondary=True) if k.enabled else T.HINT
    if k.hint:
        p.text(x, k.lh / 2 - 28, k.text, T.FONT["body"], fg, max_w=max_w)
        p.text(x, k.lh / 2 + 32, k.hint, T.FONT["caption"], fg2, max_w=max_w)
    else:
        p.text(x, k.lh / 2, k.text, T.FONT["body"], fg, max_w=max_w)
    p.hline(x, k.lw, k.lh, 2, T.DIVIDER if luminance(bg) >= 128 else OUTLINE)


@_draws("icon")
def _draw_icon(p: Painter, k: Look) -> None:
    box = min(k.lw, k.lh)
    fg = on_color(k.bg)
    if luminance(k.bg) >= 128:
        fg = (60, 64, 72)
    if k.selected:
        p.circle(k.lw / 2, k.lh / 2, box * 0.4, T.SELECTED_BG)
        fg = T.PRIMARY
    if not k.enabled:
        fg = T.HINT
    p.glyph(k.lw / 2, k.lh / 2, k.glyph, box, fg, T.SELECTED_BG if k.selected else k.bg,
            fallback=k.desc or k.text)


@_draws("fab")
def _draw_fab(p: Painter, k: Look) -> None:
    r = min(k.lw, k.lh) / 2 - 8
    cx, cy = k.lw / 2, k.lh / 2 - 2
    p.circle(cx, cy + 6, r + 4, (0, 0, 0, 48))
    p.circle(cx, cy + 3, r + 1, (0, 0, 0, 60))
    fill = T.PRIMARY if k.enabled else T.HINT
    p.circle(cx, cy, r, (*fill, 255))
    p.glyph(cx, cy, k.glyph, r * 1.3, T.PRIMARY_TEXT, fill, fallback=k.desc)


@_draws("top_bar")
def _draw_top_bar(p: Painter, k: Look) -> None:
    has_up, n_actions = k.extra if isinstance(k.extra, tuple) else (False, 0)
    p.rect(0, 0, k.lw, k.lh, T.TOP_BAR_BG)
    x = T.PAD // 2 + T.ICON_SIZE + 16 if has_up else T.PAD
    max_w = k.lw - x - T.PAD // 2 - n_actions * T.ICON_SIZE - 16
    p.text(x, k.lh / 2, k.text, T.FONT["top_bar"], T.TEXT, bold=True, max_w=max_w)
    p.hline(0, k.lw, k.lh, 2, T.DIVIDER)


@_draws("tab_bar")
def _draw_tab_bar(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, T.SURFACE)
    p.hline(0, k.lw, 2, 2, T.DIVIDER)


@_draws("tab")
def _draw_tab(p: Painter, k: Look) -> None:
    size = T.FONT["caption"]
    fg = T.PRIMARY if k.selected else on_color(k.bg, secondary=True)
    if not k.enabled:
        fg = T.HINT
    cx, cy = k.lw / 2, k.lh / 2
    if k.glyph:
        if k.selected:
            p.rect(cx - 64, cy - 62, cx + 64, cy + 2, T.SELECTED_BG, radius=32)
        p.glyph(cx, cy - 30, k.glyph, 84, fg, T.SELECTED_BG if k.selected else k.bg)
        p.text(cx, cy + 42, k.text, size, fg, align="m", bold=k.selected, max_w=k.lw - 16)
        return
    label = p.fit(k.text, size, k.lw - 40)
    if k.selected:
        w = min(k.lw - 16, p.width(label, size) + 72)
        p.rect(cx - w / 2, cy - 38, cx + w / 2, cy + 38, T.SELECTED_BG, radius=38)
    p.text(cx, cy, label, size, fg, align="m", bold=k.selected)


@_draws("status_bar")
def _draw_status_bar(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, T.STATUS_BG)
    size = T.FONT["status"]
    p.text(T.PAD, k.lh / 2, k.text, size, T.STATUS_FG, bold=True, max_w=k.lw / 2)
    p.text(k.lw - T.PAD, k.lh / 2, k.hint, size, T.STATUS_FG, align="r", max_w=k.lw / 2 - T.PAD)


@_draws("key")
def _draw_key(p: Painter, k: Look) -> None:
    label = k.text
    base = k.desc or label
    fg = T.TEXT
    if label in ("↵",) or base == "↵":
        fill, fg = T.PRIMARY, T.PRIMARY_TEXT
    elif k.selected:
        fill, fg = T.SELECTED_BG, T.PRIMARY
    elif base in SPECIAL_KEYS or label in SPECIAL_KEYS:
        fill = SPECIAL_KEY_BG
    else:
        fill = T.KEY_BG
    p.rect(0, 0, k.lw, k.lh, fill, radius=14)
    if label == "space":
        return
    if label in SYMBOLS and not font_has(label):
        sym = "⬆️" if label == "⇧" and k.selected else label
        SYMBOLS[sym](p.d, k.lw / 2 * p.kx, k.lh / 2 * p.ky, T.FONT["key"] * 0.55 * p.kf, fg,
                     fill)
        return
    size = T.FONT["key"] if len(label) == 1 else T.FONT["small"]
    p.text(k.lw / 2, k.lh / 2, label, size, fg, align="m", max_w=k.lw - 8)


@_draws("app_icon")
def _draw_app_icon(p: Painter, k: Look) -> None:
    size = T.FONT["small"]
    label_h = size * 1.8
    avail = k.lh - label_h
    d = min(k.lw * 0.56, avail * 0.8)
    cx, cy = k.lw / 2, avail / 2 + avail * 0.06
    color = k.color or T.PRIMARY
    p.circle(cx, cy, d / 2, color)
    fg = T.PRIMARY_TEXT if luminance(color) < 170 else T.TEXT
    p.glyph(cx, cy, k.glyph, d * 0.95, fg, color, fallback=k.text)
    p.text(cx, cy + d / 2 + label_h / 2 + 4, k.text, size, on_color(k.bg), align="m",
           max_w=k.lw - 12)


MENU_SHADOW = 10  # logical pixels around a popup menu's box


@_draws("menu")
def _draw_menu(p: Painter, k: Look) -> None:
    m = MENU_SHADOW
    for i, a in enumerate((14, 22, 34)):
        p.rect(i * 3, i * 3 + 2, k.lw - i * 3, k.lh - i * 3 + 2, (0, 0, 0, a), radius=24)
    p.rect(m, m, k.lw - m, k.lh - m, (*T.SURFACE, 255), radius=20)


@_draws("menu_item")
def _draw_menu_item(p: Painter, k: Look) -> None:
    m = MENU_SHADOW + 2  # transparent margins keep the menu's shadow and rounded corners
    p.rect(m, m + 24, k.lw - m, k.lh - m - 24, (*k.bg, 255))
    fg = on_color(k.bg) if k.enabled else T.HINT
    p.text(T.PAD, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - 2 * T.PAD)


@_draws("toast")
def _draw_toast(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, (*T.TOAST_BG, 255), radius=k.lh / 2)
    p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["body"], T.TOAST_FG, align="m",
           max_w=k.lw - 2 * min(k.lh / 2, 36), bg=T.TOAST_BG)


@_draws("dialog")
def _draw_dialog(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, (*T.SURFACE, 255), radius=36)


def _draw_other(p: Painter, k: Look) -> None:
    """Unknown kinds: their text, else their glyph."""
    if k.text:
        p.text(0, k.lh / 2, k.text, T.FONT["body"], on_color(k.bg), max_w=k.lw)
    elif k.glyph:
        p.glyph(k.lw / 2, k.lh / 2, k.glyph, min(k.lw, k.lh), on_color(k.bg), k.bg)


@lru_cache(maxsize=512)
def _avatar_sprite(glyph: str, color: RGB, bg: RGB, px: int, font_scale: float) -> Image.Image:
    """A ``px``-wide avatar disc with its letter, drawn supersampled on ``bg``."""
    d = px / font_scale  # logical size that maps to px output pixels
    look = Look("avatar", "", "", "", "", glyph, color, None, True, False, False, None, bg,
                round(d), round(d), px, px)
    painter = Painter(look, font_scale, False)
    painter.circle(d / 2, d / 2, d / 2, color)
    painter.glyph(d / 2, d / 2, glyph, d * 0.9, T.SURFACE, color)
    return painter.img.reduce(SS) if SS > 1 else painter.img


def draw_tile(look: Look, font_scale: float) -> Tile:
    """Draw one node into a tile (uncached)."""
    painter = Painter(look, font_scale, look.kind in MASKED,
                      1 if look.kind in FAST_KINDS else SS)
    DRAW.get(look.kind, _draw_other)(painter, look)
    return painter.tile()


def _extra(node: Node) -> object:
    kind = node.kind
    if kind == "top_bar":
        ups = sum(1 for c in node.children if c.id == "navigate_up")
        return (ups > 0, len(node.children) - ups)
    if kind == "list_item" and node.children:
        return node.children[0].kind
    return None


def inner_color(node: Node, bg: RGB) -> RGB:
    """The color a node paints behind its children, given what it sits on."""
    kind = node.kind
    if kind == "screen":
        return node.color or T.BG
    if kind == "list_item" and node.selected:
        return T.SELECTED_BG
    if kind == "key":
        return T.KEY_BG
    return SURFACES.get(kind, bg)


def _paste(out: np.ndarray, tile: Tile, ty0: int, ty1: int, tx0: int, tx1: int, oy: int,
           ox: int) -> None:
    """Tile rows ``[ty0, ty1)`` and columns ``[tx0, tx1)`` at ``(oy, ox)`` of ``out``."""
    rgb = tile.rgb
    r0, r1, c0, c1 = tile.solid
    if tile.opaque:
        out[oy:oy + ty1 - ty0, ox:ox + tx1 - tx0] = rgb[ty0:ty1, tx0:tx1]
        return
    r0, r1, c0, c1 = max(ty0, r0), min(ty1, r1), max(tx0, c0), min(tx1, c1)
    dy, dx = oy - ty0, ox - tx0
    if r1 > r0 and c1 > c0:
        out[r0 + dy:r1 + dy, c0 + dx:c1 + dx] = rgb[r0:r1, c0:c1]
    else:
        r0 = r1 = ty0
        c0 = c1 = tx0
    pre, inv = tile.pre, tile.inv
    if pre is None or inv is None:
        return
    for ya, yb, xa, xb in ((ty0, r0, tx0, tx1), (r1, ty1, tx0, tx1), (r0, r1, tx0, c0),
                           (r0, r1, c1, tx1)):
        if yb > ya and xb > xa:
            dst = out[ya + dy:yb + dy, xa + dx:xb + dx]
            mixed = dst * inv[ya:yb, xa:xb]
            mixed += pre[ya:yb, xa:xb]
            mixed >>= 8
            dst[...] = mixed


class TileCache:
    """An LRU of drawn tiles, bounded in count and in bytes."""

    def __init__(self, max_tiles: int = 4096, max_mb: float = 256.0) -> None:
        self.max_tiles = max_tiles
        self.max_bytes = int(max_mb * 2**20)
        self.tiles: OrderedDict[tuple[object, ...], Tile] = OrderedDict()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self.tiles)

    def get(self, look: tuple[object, ...]) -> Tile | None:
        tile = self.tiles.get(look)
        if tile is None:
            return None
        with suppress(KeyError):  # evicted meanwhile by another thread
            self.tiles.move_to_end(look)
        return tile

    def put(self, look: tuple[object, ...], tile: Tile) -> None:
        old = self.tiles.pop(look, None)
        if old is not None:
            self.nbytes -= old.nbytes
        self.tiles[look] = tile
        self.nbytes += tile.nbytes
        while len(self.tiles) > 1 and (
            len(self.tiles) > self.max_tiles or self.nbytes > self.max_bytes
        ):
            _, old = self.tiles.popitem(last=False)
            self.nbytes -= old.nbytes

    def clear(self) -> None:
        self.tiles.clear()
        self.nbytes = 0


_SHARED: dict[tuple[int, int], TileCache] = {}
_FILLS: dict[tuple[int, int, RGB], np.ndarray] = {}


def shared_cache(width: int, height: int) -> TileCache:
    """The tile cache shared by every ``Renderer`` of this output size in the process."""
    cache = _SHARED.get((width, height))
    if cache is None:
        cache = _SHARED.setdefault((width, height), TileCache())
    return cache


def _fill(width: int, height: int, color: RGB) -> np.ndarray:
    """A read-only ``height x width`` image of one color (shared, cached)."""
    key = (width, height, color)
    arr = _FILLS.get(key)
    if arr is None:
        if len(_FILLS) >= 32:
            _FILLS.clear()
        arr = np.empty((height, width, 3), np.uint8)
        arr[...] = color
        arr.flags.writeable = False
        _FILLS[key] = arr
    return arr


class Renderer:
    """Renders frames to ``height x width x 3`` uint8 arrays from cached tiles.

    Renderers of the same size share one process-wide ``TileCache`` unless given their own
    ``cache``; set ``cache_tiles = False`` to draw every tile afresh (a baseline).
    """

    def __init__(self, width: int = 540, height: int = 1200, *,
                 cache: TileCache | None = None, cache_tiles: bool = True) -> None:
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
                raise ValueError(
                    f"{name} must be a positive int (e.g. 540 x 1200 or 1080 x 2400), "
                    f"got {value!r}"
                )
        self.width, self.height = int(width), int(height)
        self.font_scale = min(self.width / T.SCREEN_W, self.height / T.SCREEN_H)
        self.cache = cache if cache is not None else shared_cache(self.width, self.height)
        self.cache_tiles = cache_tiles

    # --- public ----------------------------------------------------------------------------
    def render(self, frame: Frame) -> np.ndarray:
        """A new ``H x W x 3`` uint8 image of ``frame``.

        The scrim costs no pass over the buffer: nodes below it are pasted from darkened
        copies of their tiles (cached too) onto a darkened background.
        """
        W, H = self.width, self.height
        SW, SH = T.SCREEN_W, T.SCREEN_H
        hx, hy = SW // 2, SH // 2
        items = frame.items
        has_scrim = frame.scrim_before is not None
        scrim_at = frame.scrim_before if frame.scrim_before is not None else -1
        out = np.empty((H, W, 3), np.uint8)
        start, base = 0, T.BG
        first = items[0] if items else None
        if first is not None and first.node.kind == "screen" and first.parent < 0 \
                and first.rect == first.full == (0, 0, SW, SH) and scrim_at != 0:
            start, base = 1, first.node.color or T.BG  # the screen background is the fill
        base_dark = has_scrim  # the fill is drawn before the scrim
        np.copyto(out, _fill(W, H, scrimmed(base) if base_dark else base))
        inner: list[RGB] = [base] * start
        tiles = self.cache.tiles if self.cache_tiles else None
        for i in range(start, len(items)):
            placed = items[i]
            node = placed.node
            parent = placed.parent
            under = i < scrim_at  # darkened by the scrim drawn later
            if 0 <= parent < i:
                bg = inner[parent]
                if parent < scrim_at <= i:
                    bg = scrimmed(bg)
            else:
                bg = scrimmed(base) if base_dark and not under else base
            kind = node.kind
            inner.append(SURFACES.get(kind, bg) if kind not in INNER_SPECIAL
                         else inner_color(node, bg))
            if kind in NO_DRAW:
                continue
            fx0, fy0, fx1, fy1 = placed.full
            X0, Y0 = (fx0 * W + hx) // SW, (fy0 * H + hy) // SH
            X1, Y1 = (fx1 * W + hx) // SW, (fy1 * H + hy) // SH
            if X1 <= X0 or Y1 <= Y0:
                continue
            if kind == "screen" and parent < 0:
                base, base_dark = node.color or T.BG, under
                if (X0, Y0, X1, Y1) == (0, 0, W, H) and placed.rect == placed.full:
                    np.copyto(out, _fill(W, H, scrimmed(base) if under else base))
                    continue
            vx0, vy0, vx1, vy1 = placed.rect
            vx0 = max(X0, 0, (vx0 * W + hx) // SW)
            vy0 = max(Y0, 0, (vy0 * H + hy) // SH)
            vx1 = min(X1, W, (vx1 * W + hx) // SW)
            vy1 = min(Y1, H, (vy1 * H + hy) // SH)
            if vx1 <= vx0 or vy1 <= vy0:
                continue
            color = node.color
            extra: object = None
            if kind == "list_item":
                extra = node.children[0].kind if node.children else None
            elif kind == "top_bar":
                extra = _extra(node)
            elif kind == "app_icon" and color is None:
                color = T.APP_COLORS.get(node.text, T.PRIMARY)
            key: tuple[object, ...] = (
                kind, node.text, node.hint, node.desc, node.style, node.glyph, color,
                node.checked, node.enabled, node.selected, placed.focused, extra, bg,
                fx1 - fx0, fy1 - fy0, X1 - X0, Y1 - Y0,
            )
            if under:
                key = (_DARK, key)
            tile = tiles.get(key) if tiles is not None else None
            if tile is None:
                tile = self._miss(key)
            else:
                with suppress(KeyError):  # evicted meanwhile by another thread
                    tiles.move_to_end(key)  # type: ignore[union-attr]
                if tile.opaque and vx0 == X0 and vy0 == Y0 and vx1 == X1 and vy1 == Y1:
                    out[vy0:vy1, vx0:vx1] = tile.rgb  # the common case: opaque, not clipped
                    continue
            _paste(out, tile, vy0 - Y0, vy1 - Y0, vx0 - X0, vx1 - X0, vy0, vx0)
        return out

    def render_image(self, frame: Frame) -> Image.Image:
        """``render`` as a PIL image."""
        return Image.fromarray(self.render(frame), "RGB")

    # --- internals -------------------------------------------------------------------------
    def _miss(self, key: tuple[object, ...]) -> Tile:
        """Draw (and cache) the tile of ``key``, or darken the plain one for ``(_DARK, key)``."""
        tiles = self.cache.tiles if self.cache_tiles else None
        if key[0] is _DARK:
            plain_key = key[1]
            plain = tiles.get(plain_key) if tiles is not None else None  # type: ignore[arg-type]
            tile = darken(plain if plain is not None else self._miss(plain_key))  # type: ignore[arg-type]
        else:
            tile = draw_tile(Look(*key), self.font_scale)  # type: ignore[arg-type]
        if tiles is not None:
            self.cache.put(key, tile)
        return tile


_DARK = object()  # marks the cache key of a tile darkened by the scrim


def darken(tile: Tile) -> Tile:
    """``tile`` as seen through the scrim."""
    rgb = scrim_array(tile.rgb)
    if tile.pre is None or tile.inv is None:
        return tile._replace(rgb=rgb)
    return tile._replace(rgb=rgb, pre=rgb * (256 - tile.inv))


def scrim_array(arr: np.ndarray) -> np.ndarray:
    """A copy of ``arr`` darkened by the scrim: ``x >> a`` (+ ``x >> b``)."""
    if not SCRIM_SHIFTS:
        return np.zeros_like(arr)
    out = arr >> SCRIM_SHIFTS[0]
    for shift in SCRIM_SHIFTS[1:]:
        out += arr >> shift
    return out


def rect_to_px(rect: Rect, width: int, height: int) -> Rect:
    """A logical rect in output pixels, rounded as the renderer does."""
    x0, y0, x1, y1 = rect
    sw, sh = T.SCREEN_W, T.SCREEN_H
    return ((x0 * width + sw // 2) // sw, (y0 * height + sh // 2) // sh,
            (x1 * width + sw // 2) // sw, (y1 * height + sh // 2) // sh)
