"""Fonts and vector symbols: the text and icon glyphs tiles are drawn with.

Fonts are Pillow's bundled FreeType font (``load_default``), so renders are the same on
every machine. Symbols the font lacks (◀ ● ■ ⋮ ✎ 🗑 ⇧ ⌫ ↵ ✓ ★ ...) are drawn as vector shapes
registered in ``SYMBOLS``: each takes ``(draw, cx, cy, s, color, bg)``, a center and a scale
``s`` in drawing pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import ImageDraw, ImageFont

RGB = tuple[int, int, int]
#: Invisible characters dropped before looking a glyph up (emoji presentation, joiners).
VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200d"))


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


@_symbol("📶", "🛜")
def _wifi(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.13)
    base = cy + 0.55 * s
    for r in (0.45, 0.85, 1.25):
        rr = r * s
        d.arc((cx - rr, base - rr, cx + rr, base + rr), 225, 315, fill=c, width=w)
    _disc(d, cx, base - 0.06 * s, 0.14 * s, c)


@_symbol("ᛒ", "🄱")
def _bluetooth(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.45, -0.4), (0.42, 0.38), (0, 0.8), (0, -0.8), (0.42, -0.38),
                      (-0.45, 0.4)), c, _lw(s, 0.12))


@_symbol("🔋", "🪫")
def _battery(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.42, -0.66), (0.42, 0.85)), radius=0.1 * s, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.18, -0.85), (0.18, -0.66)), fill=c)


@_symbol("📄", "🗎", "📃")
def _document(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.6, -0.85), (0.25, -0.85), (0.6, -0.5), (0.6, 0.85),
                   (-0.6, 0.85)), fill=c)
    d.polygon(_pts(cx, cy, s, (0.25, -0.85), (0.25, -0.5), (0.6, -0.5)), fill=bg)
    for v in (-0.1, 0.2, 0.5):
        d.rectangle(_pts(cx, cy, s, (-0.38, v - 0.05), (0.38, v + 0.05)), fill=bg)


@_symbol("ℹ", "ⓘ", "ℹ️")
def _info(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.8 * s, c, _lw(s, 0.13))
    _disc(d, cx, cy - 0.38 * s, 0.1 * s, c)
    d.rectangle(_pts(cx, cy, s, (-0.08, -0.15), (0.08, 0.45)), fill=c)


def can_draw(glyph: str) -> bool:
    """Whether ``glyph`` can be drawn: vector symbols and text the font has."""
    return glyph in SYMBOLS or all(font_has(ch) or ch in SYMBOLS for ch in glyph)
