"""How each widget kind looks: one draw function per ``Node.kind``, and ``draw_tile``."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw

from . import maps, pictures
from . import theme as T
from .glyphs import RGB, SYMBOLS
from .keyboard import FUNCTION_KEYS, KEY_ICONS, STRIP_ICONS, STRIP_MIC
from .layout import VIDEO_AVATAR, VIDEO_SIDE_W, video_card_picture_h
from .painter import (
    ICON_SCALE,
    SS,
    Look,
    Painter,
    Tile,
    blended_tile,
    on_color,
    paint_rect,
    pixel_box,
    pixels,
    rect_radius,
    surfaces,
)
from .theme import luminance, mix
from .widgets import SLIDER_INSET

#: Kinds drawn without supersampling: mostly text (FreeType anti-aliases it anyway), and the
#: most frequent cache misses when content changes; their curves (avatars) are pasted from
#: supersampled sprites.
FAST_KINDS = frozenset({"list_item", "text_field", "text"})
#: Kinds drawn as floating shapes over whatever is below them (tiles with an alpha mask).
MASKED = frozenset({"dialog", "menu", "menu_item", "toast", "fab", "sheet", "pin", "map_button",
                    "dial_num", "drawer", "speed_dial_item"})
#: Text styles with their own font size and line height (others draw as body text).
TEXT_STYLES = frozenset({"title", "body", "caption", "big", "link", "error"})

FIELD_BG = T.DEFAULT_PALETTE.field_bg
OUTLINE = (116, 119, 127)
DISABLED_FILL = (226, 227, 231)
SELECTION = (187, 214, 251)
BUBBLE_IN = T.DEFAULT_PALETTE.bubble_in
PAPER = (255, 255, 255)  # a drawing canvas is white whatever the theme
SHEET_HANDLE = (196, 199, 206)
SHEET_HANDLE_BOX = (56, 18, 28, 5)  # a sheet's drag handle: half its width, top, bottom, radius
LINK_ON_DARK = (138, 180, 248)
AVATAR_COLORS: tuple[RGB, ...] = (
    (26, 115, 232), (217, 48, 37), (30, 142, 62), (249, 171, 0), (161, 66, 244),
    (0, 137, 123), (232, 113, 10), (84, 110, 122),
)


def _lines_y(base: float, n: int, pitch: int) -> list[float]:
    return [base / 2 + i * pitch for i in range(n)]


# --- per-kind drawing ------------------------------------------------------------------------

DrawFn = Callable[[Painter, Look], None]
#: The draw function of each kind, or of a kind in one style (``"<kind>:<style>"``, e.g. the
#: kit's Markdown editor ``text_field:markdown``), which wins over the kind's.
DRAW: dict[str, DrawFn] = {}
#: Kinds whose plain drawing (``DRAW[kind]``) reads ``Look.desc``; every other kind drawn by
#: its plain function is keyed without it by the renderer (a description changes no pixel).
DESC_DRAWN = frozenset({"text_field", "icon", "fab", "key", "thumb", "bubble", "map_button"})
#: Masked kinds whose plain drawing reads only the look's size, palette and the surface its
#: painter starts from (``surfaces``): the renderer keys their tiles without their text and
#: state, so that a dialog's tile is drawn once per size and palette, not once per title.
SHAPE_ONLY = frozenset({"dialog", "sheet", "drawer"})
#: Kinds whose plain drawing reads ``desc`` (and for ``icon``, ``text``) only as the fallback
#: of a glyph that cannot be drawn (``painter.glyph_drawn``).
DESC_FALLBACK = frozenset({"icon", "fab", "map_button"})


def _draws(*kinds: str) -> Callable[[DrawFn], DrawFn]:
    def register(fn: DrawFn) -> DrawFn:
        for kind in kinds:
            DRAW[kind] = fn
        return fn
    return register


@_draws("screen", "nav_bar")
def _draw_fill(p: Painter, k: Look) -> None:
    color = k.color if k.kind == "screen" and k.color else surfaces(k.pal).get(k.kind, k.pal.bg)
    p.rect(0, 0, k.lw, k.lh, color)


@_draws("text")
def _draw_text(p: Painter, k: Look) -> None:
    style = k.style if k.style in TEXT_STYLES else "body"
    size = T.FONT[style]
    base = T.HEIGHTS[f"text:{style}"]
    fill = on_color(k.bg, secondary=style == "caption", pal=k.pal)
    if style == "link":
        fill = k.pal.primary if luminance(k.bg) >= 128 else LINK_ON_DARK
    elif style == "error":
        fill = T.DANGER
    if not k.enabled:
        fill = k.pal.hint
    lines = T.wrap_text(k.text, k.lw, size)
    for line, y in zip(lines, _lines_y(base, len(lines), int(size * 1.3)), strict=False):
        end = p.text(0, y, line, size, fill, bold=style == "title", max_w=k.lw)
        if style == "link" and end > 0:
            p.hline(0, end, y + size * 0.62, 3, fill)  # links are underlined


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
        fill = (k.pal.primary if style == "primary" else T.DANGER) if k.enabled else DISABLED_FILL
        fg = k.pal.on_primary if k.enabled else k.pal.hint
    elif style == "secondary":
        outline = OUTLINE if k.enabled else k.pal.divider
        fg = k.pal.primary if k.enabled else k.pal.hint
    else:  # text button
        fg = (T.DANGER if style == "text_danger" else k.pal.primary) if k.enabled else k.pal.hint
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
    accent = k.pal.primary if k.focused else OUTLINE
    fg, label_fg = (k.pal.text, k.pal.primary if k.focused else k.pal.text_2)
    if not k.enabled:
        fg = label_fg = accent = k.pal.hint
    size, lsize = T.FONT["body"], T.FONT["small"]
    y0, y1 = 6, k.lh - 8
    multiline = k.style == "multiline"
    if multiline:
        p.rect(0, y0, k.lw, y1, k.pal.field_bg, radius=16, outline=accent,
               width=5 if k.focused else 3)
    else:
        p.rect(0, y0, k.lw, y1, k.pal.field_bg, radius=16, corners=(True, True, False, False))
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
        p.text(pad, ys[0], hint, size, k.pal.hint, max_w=max_w)
    if k.focused and k.enabled:
        cx = end_x + (3 if value else 0)
        p.rect(cx, end_y - size * 0.58, cx + 4, end_y + size * 0.58, k.pal.primary)


def _switch(p: Painter, k: Look, x1: float, cy: float) -> None:
    tw, th = 132, 78
    x0 = x1 - tw
    on = bool(k.checked)
    if on:
        track = k.pal.primary if k.enabled else mix(k.pal.primary, k.bg, 0.6)
        p.rect(x0, cy - th / 2, x1, cy + th / 2, track, radius=th / 2)
        p.circle(x1 - th / 2, cy, 27, k.pal.surface)
    else:
        line = OUTLINE if k.enabled else k.pal.divider
        p.rect(x0, cy - th / 2, x1, cy + th / 2, (228, 230, 236), radius=th / 2, outline=line,
               width=5)
        p.circle(x0 + th / 2, cy, 19, line)


@_draws("toggle")
def _draw_toggle(p: Painter, k: Look) -> None:
    x1 = k.lw - 6
    if k.text:
        fg = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
        p.text(0, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - 132 - 40)
    _switch(p, k, x1, k.lh / 2)


@_draws("checkbox", "radio")
def _draw_checkbox(p: Painter, k: Look) -> None:
    s = 60
    x0 = 6 if k.text else (k.lw - s) / 2
    y0 = (k.lh - s) / 2
    if k.kind == "radio":  # a ring, with a dot when checked
        color = (k.pal.primary if k.checked else k.pal.text_2) if k.enabled else k.pal.hint
        p.circle(x0 + s / 2, y0 + s / 2, s / 2, color)
        p.circle(x0 + s / 2, y0 + s / 2, s / 2 - 6, k.bg)
        if k.checked:
            p.circle(x0 + s / 2, y0 + s / 2, s / 2 - 16, color)
    elif k.checked:
        fill = k.pal.primary if k.enabled else k.pal.hint
        p.rect(x0, y0, x0 + s, y0 + s, fill, radius=10)
        SYMBOLS["✓"](p.d, (x0 + s / 2) * p.kx, (y0 + s / 2) * p.ky, s * 0.4 * p.kf,
                     k.pal.surface, fill)
    else:
        p.rect(x0, y0, x0 + s, y0 + s, None, radius=10,
               outline=k.pal.text_2 if k.enabled else k.pal.hint, width=5)
    if k.text:
        fg = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
        p.text(x0 + s + 36, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - s - 48)


@_draws("slider")
def _draw_slider(p: Painter, k: Look) -> None:
    """A track from ``SLIDER_INSET`` to ``lw - SLIDER_INSET``, filled up to the thumb."""
    lo, hi, value = k.extra if isinstance(k.extra, tuple) else (0, 1, 0)
    share = (value - lo) / (hi - lo) if hi > lo else 0.0
    x0, x1, cy = SLIDER_INSET, k.lw - SLIDER_INSET, k.lh / 2
    thumb = x0 + share * (x1 - x0)
    active = k.pal.primary if k.enabled else k.pal.hint
    p.rect(x0 - 8, cy - 8, x1 + 8, cy + 8, mix(active, k.bg, 0.72), radius=8)
    p.rect(x0 - 8, cy - 8, thumb, cy + 8, active, radius=8)
    p.circle(thumb, cy, 30, active)


def avatar_color(glyph: str, color: RGB | None) -> RGB:
    if color is not None:
        return color
    return AVATAR_COLORS[sum(map(ord, glyph)) % len(AVATAR_COLORS)]


def _paste_picture(p: Painter, box: tuple[float, float, float, float], kind: str, seed: int,
                   *, circle: bool) -> None:
    """Paste the picture ``(kind, seed)`` (``pictures.render``, cached) into ``box`` cut to a
    disc, or with rounded corners."""
    x0, y0, x1, y1 = (round(box[0] * p.kx), round(box[1] * p.ky), round(box[2] * p.kx),
                      round(box[3] * p.ky))
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:  # a screenshot too small to show it
        return
    art = Image.fromarray(pictures.render(kind, seed, w, h))
    mask = Image.new("L", (w, h), 0)
    shape = ImageDraw.Draw(mask)
    if circle:
        shape.ellipse((0, 0, w - 1, h - 1), fill=255)
    else:
        shape.rounded_rectangle((0, 0, w - 1, h - 1), radius=round(14 * p.kx), fill=255)
    p.img.paste(art, (x0, y0), mask)


@_draws("list_item")
def _draw_list_item(p: Painter, k: Look) -> None:
    bg = k.pal.selected if k.selected else k.bg
    if k.selected:
        p.rect(0, 0, k.lw, k.lh, bg)
    x = T.PAD if k.lw >= T.SCREEN_W - T.PAD else 16  # full-width rows get the screen margin
    picture = pictures.decode(k.style)
    if picture is not None:  # a drawn photo or cover (round for a face, else a rounded square)
        d = 112
        box = (x, k.lh / 2 - d / 2, x + d, k.lh / 2 + d / 2)
        _paste_picture(p, box, *picture, circle=picture[0] == "avatar")
        x += d + 36
    elif k.glyph:
        d = 104
        p.avatar(x + d / 2, k.lh / 2, d, k.glyph, avatar_color(k.glyph, k.color), bg)
        x += d + 40
    trailing = k.extra
    reserve = 0 if not trailing else (2 if trailing == "toggle" else 1) * T.ICON_SIZE + 24
    max_w = k.lw - x - T.PAD // 2 - reserve
    fg = on_color(bg, pal=k.pal) if k.enabled else k.pal.hint
    fg2 = on_color(bg, secondary=True, pal=k.pal) if k.enabled else k.pal.hint
    if k.hint:
        p.text(x, k.lh / 2 - 28, k.text, T.FONT["body"], fg, max_w=max_w)
        p.text(x, k.lh / 2 + 32, k.hint, T.FONT["caption"], fg2, max_w=max_w)
    else:
        p.text(x, k.lh / 2, k.text, T.FONT["body"], fg, max_w=max_w)
    if k.pal.row_dividers:
        p.hline(x, k.lw, k.lh, 2, k.pal.divider if luminance(bg) >= 128 else OUTLINE)


def _video_texts(p: Painter, k: Look, x: float, y0: float, y1: float, bg: RGB) -> None:
    """A video row's title (and subtitle) centred in the band ``y0..y1`` from ``x``."""
    reserve = T.ICON_SIZE + 24 if k.extra else 0
    max_w = k.lw - x - T.PAD // 2 - reserve
    fg = on_color(bg, pal=k.pal) if k.enabled else k.pal.hint
    mid = (y0 + y1) / 2
    if k.hint:
        p.text(x, mid - 28, k.text, T.FONT["body"], fg, max_w=max_w, bold=True)
        p.text(x, mid + 32, k.hint, T.FONT["caption"],
               on_color(bg, secondary=True, pal=k.pal) if k.enabled else k.pal.hint,
               max_w=max_w)
    else:
        p.text(x, mid, k.text, T.FONT["body"], fg, max_w=max_w, bold=True)


def _selected_mark(p: Painter, cx: float, cy: float, k: Look) -> None:
    """A picked row's check mark over its picture: a disc in the accent with a tick."""
    p.circle(cx, cy, 40, k.pal.primary)
    p.glyph(cx, cy, "check", 64, k.pal.on_primary, k.pal.primary)


def _draw_video_side(p: Painter, k: Look) -> None:
    """A ``kit.VideoRow`` with its 16:9 thumbnail at the left (VLC's video list)."""
    bg = k.pal.selected if k.selected else k.bg
    if k.selected:
        p.rect(0, 0, k.lw, k.lh, bg)
    x = T.PAD if k.lw >= T.SCREEN_W - T.PAD else 16
    th = VIDEO_SIDE_W * 9 // 16
    box = (x, k.lh / 2 - th / 2, x + VIDEO_SIDE_W, k.lh / 2 + th / 2)
    picture = pictures.decode(k.glyph)
    if picture is not None:
        _paste_picture(p, box, *picture, circle=False)
    if k.selected:
        _selected_mark(p, (box[0] + box[2]) / 2, k.lh / 2, k)
    _video_texts(p, k, x + VIDEO_SIDE_W + 36, 0, k.lh, bg)
    if k.pal.row_dividers:
        p.hline(x, k.lw, k.lh, 2, k.pal.divider if luminance(bg) >= 128 else OUTLINE)


def _draw_video_card(p: Painter, k: Look) -> None:
    """A ``kit.VideoRow`` as a card: a full-width 16:9 picture, under it the channel's
    avatar (its first letter), the title and the subtitle (YouTube's home feed)."""
    bg = k.pal.selected if k.selected else k.bg
    if k.selected:
        p.rect(0, 0, k.lw, k.lh, bg)
    ph = video_card_picture_h(k.lw)
    picture = pictures.decode(k.glyph)
    if picture is not None:
        _paste_picture(p, (0, 0, k.lw, ph), *picture, circle=False)
    x = T.PAD if k.lw >= T.SCREEN_W - T.PAD else 16
    channel = k.hint.split(" · ")[0] if k.hint else k.text
    mid = (ph + k.lh) / 2
    p.avatar(x + VIDEO_AVATAR / 2, mid, VIDEO_AVATAR, channel[:1].upper() or "?",
             avatar_color(channel, None), bg)
    _video_texts(p, k, x + VIDEO_AVATAR + 32, ph, k.lh, bg)


DRAW["list_item:video_side"] = _draw_video_side
DRAW["list_item:video_card"] = _draw_video_card


@_draws("icon")
def _draw_icon(p: Painter, k: Look) -> None:
    box = min(k.lw, k.lh)
    fg = on_color(k.bg, pal=k.pal)
    if k.bg == k.pal.top_bar_bg and k.pal.top_bar_fg != k.pal.text:  # on a colored app bar
        fg = k.pal.top_bar_fg
    elif luminance(k.bg) >= 128:
        fg = (60, 64, 72)
    if k.selected:
        p.circle(k.lw / 2, k.lh / 2, box * 0.4, k.pal.selected)
        fg = k.pal.primary
    if not k.enabled:
        fg = k.pal.hint
    p.glyph(k.lw / 2, k.lh / 2, k.glyph, box, fg, k.pal.selected if k.selected else k.bg,
            fallback=k.desc or k.text)


@_draws("fab")
def _draw_fab(p: Painter, k: Look) -> None:
    r = min(k.lw, k.lh) / 2 - 8
    cx, cy = k.lw / 2, k.lh / 2 - 2
    p.circle(cx, cy + 6, r + 4, (0, 0, 0, 48))
    p.circle(cx, cy + 3, r + 1, (0, 0, 0, 60))
    fill = (k.color or k.pal.primary) if k.enabled else k.pal.hint
    p.circle(cx, cy, r, (*fill, 255))
    fg = _on_fab(fill) if k.color else k.pal.on_primary
    p.glyph(cx, cy, k.glyph, r * 1.3, fg, fill, fallback=k.desc)


def _on_fab(fill: RGB) -> RGB:
    """The icon colour on a FAB of its own colour: white unless the colour is pale."""
    return (255, 255, 255) if luminance(fill) < 190 else (33, 33, 33)


def _mini_fab(p: Painter, cx: float, cy: float, r: float, fill: RGB, glyph: str, fg: RGB,
              desc: str) -> None:
    """A round floating button with its shadow and icon, centered on ``(cx, cy)``."""
    p.circle(cx, cy + 6, r + 4, (0, 0, 0, 48))
    p.circle(cx, cy + 3, r + 1, (0, 0, 0, 60))
    p.circle(cx, cy, r, (*fill, 255))
    p.glyph(cx, cy, glyph, r * 1.3, fg, fill, fallback=desc)


@_draws("drawer")
def _draw_drawer(p: Painter, k: Look) -> None:
    """A modal navigation drawer: the surface, its right corners rounded (Material 3)."""
    p.rect(0, 0, k.lw, k.lh, (*k.pal.surface, 255), radius=42,
           corners=(False, True, True, False))


@_draws("drawer_header")
def _draw_drawer_header(p: Painter, k: Look) -> None:
    """A drawer's header: the app's name (and account) in a band of the app bar's colour
    (style ``colored``), or as a title on the drawer (``plain``)."""
    if k.style == "colored":
        bg, fg = k.pal.top_bar_bg, k.pal.top_bar_fg
        p.rect(0, 0, k.lw - 42, k.lh, bg)
        p.rect(k.lw - 84, 0, k.lw, k.lh, bg, radius=42, corners=(False, True, False, False))
        p.circle(T.PAD + 64, 100, 64, mix(bg, fg, 0.25))
        p.glyph(T.PAD + 64, 100, "person", 128, fg, mix(bg, fg, 0.25))
        p.text(T.PAD, k.lh - 96, k.text, T.FONT["body"], fg, bold=True, max_w=k.lw - 2 * T.PAD,
               bg=bg)
        if k.hint:
            p.text(T.PAD, k.lh - 44, k.hint, T.FONT["caption"], fg, max_w=k.lw - 2 * T.PAD,
                   bg=bg)
        return
    fg = on_color(k.bg, pal=k.pal)
    p.text(74, k.lh / 2 - (24 if k.hint else 0), k.text, T.FONT["title"], fg, bold=True,
           max_w=k.lw - 2 * 74, bg=k.bg)
    if k.hint:
        p.text(74, k.lh / 2 + 40, k.hint, T.FONT["caption"], on_color(k.bg, secondary=True,
               pal=k.pal), max_w=k.lw - 2 * 74, bg=k.bg)


@_draws("drawer_item")
def _draw_drawer_item(p: Painter, k: Look) -> None:
    """A drawer destination: icon, label and badge; the selected one on a pill (Material
    3's active indicator) in the accent's light tint, its label bold."""
    m = 32
    bg = k.pal.selected if k.selected else k.bg
    if k.selected:
        p.rect(m, 4, k.lw - m, k.lh - 4, bg, radius=(k.lh - 8) / 2)
    fg = on_color(bg, pal=k.pal)
    icon_fg = k.pal.primary if k.selected and luminance(k.pal.primary) < 200 else fg
    p.glyph(m + 84, k.lh / 2, k.glyph, 96, icon_fg, bg, fallback=k.text)
    badge_w = p.width(k.hint, T.FONT["caption"]) + 24 if k.hint else 0
    p.text(m + 168, k.lh / 2, k.text, T.FONT["body"], fg, bold=k.selected,
           max_w=k.lw - m * 2 - 168 - badge_w - 24, bg=bg)
    if k.hint:
        p.text(k.lw - m - 40, k.lh / 2, k.hint, T.FONT["caption"],
               on_color(bg, secondary=True, pal=k.pal), align="r", bg=bg)


@_draws("speed_dial_item")
def _draw_speed_dial_item(p: Painter, k: Look) -> None:
    """One speed-dial action: a mini-FAB under the main FAB's centre and its label in a
    small raised box to its left (as Joplin's)."""
    cx, cy, r = k.lw - T.PAD - T.FAB_SIZE / 2, k.lh / 2, T.FAB_SIZE / 2 - 8
    fill = k.color or k.pal.primary
    _mini_fab(p, cx, cy, r, fill, k.glyph, _on_fab(fill) if k.color else k.pal.on_primary,
              k.text)
    size = T.FONT["caption"]
    w = p.width(k.text, size) + 48
    x1 = cx - r - 32
    x0 = max(4, x1 - w)
    p.rect(x0 + 2, cy - 40, x1 + 2, cy + 44, (0, 0, 0, 40), radius=8)
    p.rect(x0, cy - 42, x1, cy + 40, (*k.pal.surface, 255), radius=8)
    p.text((x0 + x1) / 2, cy, k.text, size, on_color(k.pal.surface, pal=k.pal), align="m",
           max_w=x1 - x0 - 16, bg=k.pal.surface)


@_draws("top_bar")
def _draw_top_bar(p: Painter, k: Look) -> None:
    has_up, n_actions = k.extra if isinstance(k.extra, tuple) else (False, 0)
    pal = k.pal
    p.rect(0, 0, k.lw, k.lh, pal.top_bar_bg)
    x = T.PAD // 2 + T.ICON_SIZE + 16 if has_up else T.PAD
    right = T.PAD // 2 + n_actions * T.ICON_SIZE + 16
    if pal.title_align == "center":  # centered between equal margins
        margin = max(x, right)
        p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["top_bar"], pal.top_bar_fg, align="m",
               bold=True, max_w=k.lw - 2 * margin, bg=pal.top_bar_bg)
    else:
        p.text(x, k.lh / 2, k.text, T.FONT["top_bar"], pal.top_bar_fg, bold=True,
               max_w=k.lw - x - right, bg=pal.top_bar_bg)
    if pal.bar_divider:
        p.hline(0, k.lw, k.lh, 2, pal.divider)


def _search_pill(p: Painter, k: Look) -> tuple[RGB, float]:
    """A search bar's pill (Material 3's SearchBar) on the app bar, in a tone between the
    bar and its text, with the search glyph at its left; its fill and the text's left."""
    pal = k.pal
    fill = mix(pal.top_bar_bg, pal.top_bar_fg, 0.08)
    p.rect(0, 0, k.lw, k.lh, fill, radius=k.lh / 2)
    p.glyph(k.lh * 0.6, k.lh / 2, k.glyph or "search", k.lh * 0.8,
            mix(fill, pal.top_bar_fg, 0.75), fill)
    return fill, k.lh * 1.1


def _draw_search_field(p: Painter, k: Look) -> None:
    """A search field shown as the app bar (``kit.searchbar.SearchField``): the pill, its
    text or hint, a cursor while focused."""
    fill, x = _search_pill(p, k)
    size, pal = T.FONT["body"], k.pal
    max_w = k.lw - x - k.lh * 0.4
    if k.text:
        shown = p.fit(k.text, size, max_w, tail=k.focused)
        if k.selected and k.focused:
            w = p.width(shown, size)
            p.rect(x - 2, k.lh / 2 - size * 0.62, x + w + 2, k.lh / 2 + size * 0.62, SELECTION)
        end = p.text(x, k.lh / 2, shown, size, pal.top_bar_fg, bg=fill)
    else:
        end = x
        p.text(x, k.lh / 2, k.hint, size, mix(fill, pal.top_bar_fg, 0.6), max_w=max_w, bg=fill)
    if k.focused:
        p.rect(end + 2, k.lh / 2 - size * 0.6, end + 6, k.lh / 2 + size * 0.6, pal.primary)


def _draw_search_entry(p: Painter, k: Look) -> None:
    """A search bar that opens the app's search (``kit.searchbar.SearchEntry``)."""
    fill, x = _search_pill(p, k)
    p.text(x, k.lh / 2, k.text, T.FONT["body"], mix(fill, k.pal.top_bar_fg, 0.6),
           max_w=k.lw - x - k.lh * 0.4, bg=fill)


def _draw_logo(p: Painter, k: Look) -> None:
    """A wordmark or logo centred on the app bar (``kit.searchbar.Logo``): its glyph, or its
    text in Roboto's heaviest weight."""
    fg = k.pal.top_bar_fg
    if k.glyph:
        p.glyph(k.lw / 2, k.lh / 2, k.glyph, min(k.lh, k.lw), fg, k.pal.top_bar_bg,
                fallback=k.text)
    else:
        p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["top_bar"] * 1.15, fg, align="m",
               bold=True, max_w=k.lw, bg=k.pal.top_bar_bg)


def _draw_place(p: Painter, k: Look) -> None:
    """A place name as an app bar shows it (Google Weather's location): a pin and the name."""
    fg = k.pal.top_bar_fg
    size = T.FONT["top_bar"]
    p.glyph(size * 0.55, k.lh / 2, "location_on", size * 1.4, fg, k.pal.top_bar_bg)
    p.text(size * 1.3, k.lh / 2, k.text, size, fg, bold=True, max_w=k.lw - size * 1.3,
           bg=k.pal.top_bar_bg)


DRAW["text_field:search_bar"] = _draw_search_field
DRAW["button:search_bar"] = _draw_search_entry
DRAW["text:logo"] = _draw_logo
DRAW["text:place"] = _draw_place


@_draws("tab_bar")
def _draw_tab_bar(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, k.pal.surface)
    p.hline(0, k.lw, 2, 2, k.pal.divider)


@_draws("tab")
def _draw_tab(p: Painter, k: Look) -> None:
    size = T.FONT["caption"]
    fg = k.pal.primary if k.selected else on_color(k.bg, secondary=True, pal=k.pal)
    if not k.enabled:
        fg = k.pal.hint
    cx, cy = k.lw / 2, k.lh / 2
    if k.style == "top":  # a top tab: the label, underlined when selected
        label = p.fit(k.text, T.FONT["button"], k.lw - 32)
        p.text(cx, cy, label, T.FONT["button"], fg, align="m", bold=k.selected)
        p.hline(0, k.lw, k.lh, 2, k.pal.divider)
        if k.selected:
            w = min(k.lw - 16, p.width(label, T.FONT["button"]) + 48)
            p.rect(cx - w / 2, k.lh - 8, cx + w / 2, k.lh, fg, radius=4)
        return
    if k.glyph:
        if k.selected:
            p.rect(cx - 64, cy - 62, cx + 64, cy + 2, k.pal.selected, radius=32)
        p.glyph(cx, cy - 30, k.glyph, 84, fg, k.pal.selected if k.selected else k.bg)
        p.text(cx, cy + 42, k.text, size, fg, align="m", bold=k.selected, max_w=k.lw - 16)
        return
    label = p.fit(k.text, size, k.lw - 40)
    if k.selected:
        w = min(k.lw - 16, p.width(label, size) + 72)
        p.rect(cx - w / 2, cy - 38, cx + w / 2, cy + 38, k.pal.selected, radius=38)
    p.text(cx, cy, label, size, fg, align="m", bold=k.selected)


#: Material 3 NavigationBar metrics in logical pixels (dp x 2.625): the active indicator
#: (64 x 32 dp), the icon (24 dp) and the label (12 sp) under it.
NAV_PILL_W, NAV_PILL_H, NAV_ICON, NAV_LABEL = 168, 84, 63, 32
#: WeChat's bar: a 28 dp icon over a 10 sp label, no indicator.
WECHAT_ICON, WECHAT_LABEL = 74, 28


@_draws("tab:nav_material")
def _draw_nav_item(p: Painter, k: Look) -> None:
    """A Material 3 NavigationBar destination: the icon on the tonal pill when selected
    (on-secondary-container), the label below (on-surface, bold when selected)."""
    cx, pill_cy = k.lw / 2, k.lh / 2 - 24
    fg = on_color(k.bg, secondary=not k.selected, pal=k.pal)
    icon_fg = k.pal.primary if k.selected else fg
    behind = k.bg
    if k.selected:
        behind = k.pal.selected
        p.rect(cx - NAV_PILL_W / 2, pill_cy - NAV_PILL_H / 2, cx + NAV_PILL_W / 2,
               pill_cy + NAV_PILL_H / 2, behind, radius=NAV_PILL_H / 2)
    p.glyph(cx, pill_cy, k.glyph, NAV_ICON / 0.6, icon_fg, behind)
    p.text(cx, pill_cy + NAV_PILL_H / 2 + 30, k.text, NAV_LABEL, fg, align="m",
           bold=k.selected, max_w=k.lw - 12)


@_draws("tab:nav_wechat")
def _draw_wechat_item(p: Painter, k: Look) -> None:
    """A WeChat bottom-bar tab: icon over label, both in the app's green when selected and
    in the text colour otherwise."""
    cx, icon_cy = k.lw / 2, k.lh / 2 - 22
    fg = k.pal.primary if k.selected else on_color(k.bg, pal=k.pal)
    p.glyph(cx, icon_cy, k.glyph, WECHAT_ICON / 0.6, fg, k.bg)
    p.text(cx, icon_cy + WECHAT_ICON / 2 + 26, k.text, WECHAT_LABEL, fg, align="m",
           max_w=k.lw - 12)


@_draws("status_bar")
def _draw_status_bar(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, k.pal.status_bg)
    size = T.FONT["status"]
    p.text(T.PAD, k.lh / 2, k.text, size, k.pal.status_fg, bold=True, max_w=k.lw / 2)
    p.text(k.lw - T.PAD, k.lh / 2, k.hint, size, k.pal.status_fg, align="r", max_w=k.lw / 2 - T.PAD)


KEY_RADIUS = 18  # Gboard's rounded keys (about 7 dp)
KEY_LABEL = 58  # a letter key's label (about 22 sp)
KEY_ICON = 62  # a function key's Material icon
STRIP_ICON = 56  # the toolbar strip's icons


@_draws("keyboard")
def _draw_keyboard(p: Painter, k: Look) -> None:
    """Gboard's board and its toolbar strip: the apps grid, stickers, GIFs, clipboard,
    settings and themes icons on the left, the voice-typing mic on the right."""
    c = T.keyboard_colors(k.style)
    p.rect(0, 0, k.lw, k.lh, c.board)
    cy = T.KEYBOARD_STRIP_H / 2 + 4
    pitch = 132
    for i, name in enumerate(STRIP_ICONS):
        p.glyph(78 + i * pitch, cy, name, STRIP_ICON / ICON_SCALE, c.strip_icon, c.board)
    p.glyph(k.lw - 78, cy, STRIP_MIC, STRIP_ICON / ICON_SCALE, c.strip_icon, c.board)


@_draws("key")
def _draw_key(p: Painter, k: Look) -> None:
    """A Gboard key: a rounded key on the board; letter keys light, function keys darker
    with their Material icon (shift, delete) or text (?123), enter a pill in the accent."""
    c = T.keyboard_colors(k.style)
    label = k.text
    base = k.desc or label
    fg = c.label
    if base == "↵":
        fill, fg = c.enter, c.on_enter
        p.rect(0, 0, k.lw, k.lh, fill, radius=k.lh / 2)
    else:
        if k.selected:  # shift on: the key tinted with the accent
            fill, fg = mix(c.function, c.enter, 0.35), c.label
        else:
            fill = c.function if base in FUNCTION_KEYS else c.key
        p.rect(0, 0, k.lw, k.lh, fill, radius=KEY_RADIUS)
    if label == "space":
        return
    if base == "space":  # a named layout's space bar (Gboard's 拼音): its name, small, grey
        p.text(k.lw / 2, k.lh / 2, label, T.FONT["key"] * 0.7, mix(fg, fill, 0.45), align="m",
               max_w=k.lw - 8)
        return
    icon = KEY_ICONS.get(base)
    if icon is not None:
        p.glyph(k.lw / 2, k.lh / 2, icon, KEY_ICON / ICON_SCALE, fg, fill)
        return
    size = KEY_LABEL if len(label) == 1 else T.FONT["key"] * 0.8
    p.text(k.lw / 2, k.lh / 2, label, size, fg, align="m", max_w=k.lw - 8,
           bold=len(label) > 1)


#: Android's three-button navigation (SystemUI's ic_sysbar_back / home / recent, 28-unit
#: boxes): a left-pointing triangle 14 x 16.6 units with rounded corners, a 14-unit disc and
#: a 14-unit square with 2.1-unit corners, all filled.
NAV_BOX = 74  # 28 dp at the screen's 2.625 px/dp
NAV_UNIT = NAV_BOX / 28


def _nav_fg(bg: RGB) -> RGB:
    """The buttons' tone on the navigation bar: light on a dark bar, dark grey on a light
    one (Android's light-navigation-bar icons)."""
    return (242, 243, 246) if luminance(bg) < 128 else (68, 71, 76)


@_draws("icon:nav")
def _draw_nav_button(p: Painter, k: Look) -> None:
    """Back, Home or Overview on the navigation bar, by the node's glyph (◀ ● ■)."""
    u, cx, cy = NAV_UNIT, k.lw / 2, k.lh / 2
    fg = _nav_fg(k.bg)
    if k.glyph == "◀":
        r = 1.1 * u  # the corners' radius
        pts = [(cx - 6.6 * u, cy), (cx + 6.4 * u, cy - 7.6 * u), (cx + 6.4 * u, cy + 7.6 * u)]
        xy = [(x * p.kx, y * p.ky) for x, y in pts]
        p.d.polygon(xy, fill=fg)
        p.d.line([*xy, xy[0]], fill=fg, width=max(1, round(2 * r * p.kf)), joint="curve")
        for x, y in pts:
            p.circle(x, y, r, fg)
    elif k.glyph == "●":
        p.circle(cx, cy, 7 * u, fg)
    elif k.glyph == "■":
        p.rect(cx - 7 * u, cy - 7 * u, cx + 7 * u, cy + 7 * u, fg, radius=2.1 * u)
    else:
        raise ValueError(f"navigation button glyph {k.glyph!r}; accepted: ◀ (back), ● (home), "
                         "■ (overview)")


@_draws("app_icon")
def _draw_app_icon(p: Painter, k: Look) -> None:
    """A launcher icon: the app's Material icon on its shape (``k.style``) in its colour."""
    label_h = T.FONT["small"] * 1.8
    avail = k.lh - label_h
    d = min(k.lw * 0.56, avail * 0.8)
    cx, cy = k.lw / 2, avail / 2 + avail * 0.06
    color = k.color or k.pal.primary
    fg = k.pal.on_primary if luminance(color) < 170 else k.pal.text
    if k.style == "tricolor":  # Chrome: red, yellow and green thirds around a blue eye
        for start, third in ((-150, (219, 68, 55)), (-30, (15, 157, 88)), (90, (244, 180, 0))):
            p.d.pieslice(p.box(cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), start,
                         start + 120, fill=third)
        p.circle(cx, cy, d * 0.24, (255, 255, 255))
        p.circle(cx, cy, d * 0.19, (66, 133, 244))
        return _app_label(p, k, cx, cy + d / 2, label_h)
    if k.style in ("rounded", "square"):  # adaptive icons: a squircle or a square tile
        radius = d * (0.28 if k.style == "rounded" else 0.08)
        p.rect(cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2, color, radius=radius)
    else:
        p.circle(cx, cy, d / 2, color)
    p.glyph(cx, cy, k.glyph, d * 0.95, fg, color, fallback=k.text)
    _app_label(p, k, cx, cy + d / 2, label_h)


def _app_label(p: Painter, k: Look, cx: float, bottom: float, label_h: float) -> None:
    """An app icon's label, centered below the icon's ``bottom``."""
    size = T.FONT["small"]
    p.text(cx, bottom + label_h / 2 + 4, k.text, size, on_color(k.bg, pal=k.pal), align="m",
           max_w=k.lw - 12)


MENU_SHADOW = 10  # logical pixels around a popup menu's box


@_draws("menu")
def _draw_menu(p: Painter, k: Look) -> None:
    m = MENU_SHADOW
    for i, a in enumerate((14, 22, 34)):
        p.rect(i * 3, i * 3 + 2, k.lw - i * 3, k.lh - i * 3 + 2, (0, 0, 0, a), radius=24)
    p.rect(m, m, k.lw - m, k.lh - m, (*k.pal.surface, 255), radius=20)


@_draws("menu_item")
def _draw_menu_item(p: Painter, k: Look) -> None:
    m = MENU_SHADOW + 2  # transparent margins keep the menu's shadow and rounded corners
    p.rect(m, m + 24, k.lw - m, k.lh - m - 24, (*k.bg, 255))
    fg = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
    p.text(T.PAD, k.lh / 2, k.text, T.FONT["body"], fg, max_w=k.lw - 2 * T.PAD)


@_draws("toast")
def _draw_toast(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, (*T.TOAST_BG, 255), radius=k.lh / 2)
    p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["body"], T.TOAST_FG, align="m",
           max_w=k.lw - 2 * min(k.lh / 2, 36), bg=T.TOAST_BG)


@_draws("dialog")
def _draw_dialog(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, (*k.pal.surface, 255), radius=36)


# --- screen kit kinds (``phone_gym.world.kit``) ----------------------------------------------


@_draws("chip")
def _draw_chip(p: Painter, k: Look) -> None:
    """A pill: outlined, or filled with a check mark when checked (a filter chip)."""
    y0, y1 = 12, k.lh - 12
    r = (y1 - y0) / 2
    fg = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
    x = T.CHIP_PAD
    if k.checked:
        p.rect(0, y0, k.lw, y1, k.pal.selected, radius=r)
        SYMBOLS["✓"](p.d, (x + 14) * p.kx, (y0 + y1) / 2 * p.ky, 14 * p.kf, fg, k.pal.selected)
        x += T.CHIP_CHECK
    else:
        p.rect(0, y0, k.lw, y1, None, radius=r, outline=OUTLINE, width=3)
    p.text(x, (y0 + y1) / 2, k.text, T.FONT["chip"], fg, max_w=k.lw - x - T.CHIP_PAD // 2,
           bg=k.pal.selected if k.checked else k.bg)


@_draws("card")
def _draw_card(p: Painter, k: Look) -> None:
    p.rect(0, 0, k.lw, k.lh, k.pal.surface, radius=28, outline=k.pal.divider, width=3)


@_draws("sheet")
def _draw_sheet(p: Painter, k: Look) -> None:
    """A panel from the bottom edge: rounded top corners and a drag handle."""
    p.rect(0, 0, k.lw, k.lh, (*k.pal.surface, 255), radius=48, corners=(True, True, False, False))
    hw, y0, y1, radius = SHEET_HANDLE_BOX
    p.rect(k.lw / 2 - hw, y0, k.lw / 2 + hw, y1, (*SHEET_HANDLE, 255), radius=radius)


@_draws("thumb")
def _draw_thumb(p: Painter, k: Look) -> None:
    """A picture, described in text: a colored tile with a glyph, its label below; or a
    drawn picture when its style names one (``pictures.encode``)."""
    m = 8
    label_h = T.THUMB_LABEL if k.text else 0
    x0, y0, x1, y1 = m, m, k.lw - m, k.lh - m - label_h
    picture = pictures.decode(k.style)
    if picture is not None:
        pictures.paint(p, (x0, y0, x1, y1), *picture)  # a thumbnail: no words
        _thumb_extras(p, k, x0, y0, m, label_h)
        return
    color = avatar_color(k.glyph or k.desc, k.color)
    p.rect(x0, y0, x1, y1, color, radius=20)
    box = min(x1 - x0, y1 - y0)
    fg = k.pal.on_primary if luminance(color) < 170 else k.pal.text
    p.glyph((x0 + x1) / 2, (y0 + y1) / 2, k.glyph, box * 0.7, fg, color, fallback=k.desc)
    _thumb_extras(p, k, x0, y0, m, label_h)


def _thumb_extras(p: Painter, k: Look, x0: float, y0: float, m: float, label_h: float) -> None:
    """A thumbnail's check mark (when selected) and its label."""
    if k.selected:  # a check mark in a ringed disc at the top left
        cx, cy = x0 + 52, y0 + 52
        p.circle(cx, cy, 38, k.pal.surface)
        p.circle(cx, cy, 32, k.pal.primary)
        SYMBOLS["✓"](p.d, cx * p.kx, cy * p.ky, 22 * p.kf, k.pal.on_primary, k.pal.primary)
    if k.text:
        fill = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
        p.text(k.lw / 2, k.lh - m - label_h / 2, k.text, T.FONT["small"], fill, align="m",
               max_w=k.lw - 2 * m)


@_draws("bubble")
def _draw_bubble(p: Painter, k: Look) -> None:
    """A chat message: its sender (incoming), its text and its time, in a rounded box that
    is blue for outgoing messages (style ``out``)."""
    out = k.style == "out"
    fill = k.pal.primary if out else k.pal.bubble_in
    fg = k.pal.on_primary if out else k.pal.text
    fg2 = mix(k.pal.on_primary, fill, 0.25) if out else k.pal.text_2
    pad, size = T.BUBBLE_PAD, T.FONT["body"]
    pitch, max_w = int(size * 1.3), k.lw - 2 * pad
    sender = T.BUBBLE_LINE if k.desc and not out else 0
    time = T.BUBBLE_LINE if k.hint else 0
    lines = T.wrap_text(k.text, max_w, size)
    fits = max(1, int((k.lh - T.BUBBLE_GAP - 2 * pad - sender - time) // pitch))
    if len(lines) > fits:  # a fixed-height row of a long thread: the text is cut
        lines = lines[:fits - 1] + [" ".join(lines[fits - 1:])]
    y1 = min(k.lh - T.BUBBLE_GAP, 2 * pad + sender + len(lines) * pitch + time)
    p.rect(0, 0, k.lw, y1, fill, radius=36)
    y = float(pad)
    if sender:
        p.text(pad, y + sender / 2, k.desc, T.FONT["caption"], k.pal.primary, bold=True,
               max_w=max_w, bg=fill)
        y += sender
    for line in lines:
        p.text(pad, y + pitch / 2, line, size, fg, max_w=max_w, bg=fill)
        y += pitch
    if k.hint:
        p.text(k.lw - pad, y1 - pad - T.BUBBLE_LINE / 2, k.hint, T.FONT["small"], fg2,
               align="r", max_w=max_w, bg=fill)


@_draws("picture")
def _draw_picture(p: Painter, k: Look) -> None:
    """A photo of a page: paper with a thin frame, its lines of text in a dark ink (the
    accessibility tree leaves them out: ``widgets.PIXELS_ONLY``); or a drawn picture when
    its style names one (``pictures.encode``), its text drawn in it."""
    picture = pictures.decode(k.style)
    if picture is not None:
        pictures.paint(p, (0, 0, k.lw, k.lh), *picture, k.text)
        return
    paper = k.color or (250, 246, 236)
    p.rect(8, 8, k.lw - 8, k.lh - 8, paper, radius=12, outline=k.pal.divider, width=3)
    lines = k.text.split("\n") if k.text else []
    size = T.FONT["body"]
    pitch = int(size * 1.35)
    y = 8 + T.CARD_PAD + pitch / 2
    for line in lines:
        if y + pitch / 2 > k.lh - 8:
            break
        p.text(8 + T.CARD_PAD, y, line, size, k.pal.text, max_w=k.lw - 16 - 2 * T.CARD_PAD,
               bg=paper)
        y += pitch


@_draws("canvas")
def _draw_canvas(p: Painter, k: Look) -> None:
    """A white drawing surface with a frame, and its strokes (``kit.media``)."""
    if k.style == "borderless":  # white in dark apps too, as a sheet of paper
        p.rect(0, 0, k.lw, k.lh, PAPER)
    else:
        p.rect(0, 0, k.lw, k.lh, PAPER, outline=k.pal.divider, width=3)
    for part in k.text.split(";") if k.text else ():  # "x0 y0 x1 y1 r g b [size tool]"
        v = [int(n) for n in part.split()]
        if len(v) not in (7, 9):
            continue
        width = max(2, round((v[7] if len(v) == 9 else 10) * p.kf))
        x0, y0, x1, y1 = v[0] * p.w / 1000, v[1] * p.h / 1000, v[2] * p.w / 1000, v[3] * p.h / 1000
        color = PAPER if len(v) == 9 and v[8] == 1 else (v[4], v[5], v[6])  # 1: eraser
        p.d.line((x0, y0, x1, y1), fill=color, width=width)
        r = width / 2
        for cx, cy in ((x0, y0), (x1, y1)):
            p.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)


@_draws("map")
def _draw_map(p: Painter, k: Look) -> None:
    """A street map (``maps.encode`` in the node's text), from cached map tiles."""
    maps.paint(p, (0, 0, k.lw, k.lh), k.text)


@_draws("pin")
def _draw_pin(p: Painter, k: Look) -> None:
    """A map marker: a teardrop whose point is at the bottom centre of the box."""
    cx, r = k.lw / 2, k.lw * 0.36
    cy = r + 4
    fill = k.color or (217, 48, 37)
    p.circle(cx + 2, cy + 4, r, (0, 0, 0, 50))
    poly = [(cx - r * 0.86, cy + r * 0.5), (cx + r * 0.86, cy + r * 0.5), (cx, k.lh - 2)]
    p.d.polygon([(x * p.kx, y * p.ky) for x, y in poly], fill=(*fill, 255))
    p.circle(cx, cy, r, (*fill, 255))
    p.circle(cx, cy, r * 0.4, (255, 255, 255, 255))


@_draws("map_button")
def _draw_map_button(p: Painter, k: Look) -> None:
    """A floating round (or, with style ``square``, rounded square) button over a map."""
    m = 6
    fill = k.color or k.pal.surface
    radius = 28 if k.style == "square" else min(k.lw, k.lh) / 2 - m
    p.rect(m, m + 5, k.lw - m, k.lh - m + 5, (0, 0, 0, 40), radius=radius)
    p.rect(m, m, k.lw - m, k.lh - m, (*fill, 255), radius=radius)
    fg = on_color(fill, pal=k.pal) if not k.selected else k.pal.primary
    if k.glyph:
        p.glyph(k.lw / 2, k.lh / 2, k.glyph, min(k.lw, k.lh) * 0.7, fg, fill, fallback=k.desc)
    else:
        p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["body"], fg, align="m", max_w=k.lw - 40,
               bg=fill)


# --- pickers and calendar views (``kit.pickers``, ``kit.calendars``) --------------------------

#: A time picker's clock face and unselected chips (Material 3's surface container highest).
DIAL_BG = (230, 225, 236)


def _container(primary: RGB, bg: RGB) -> RGB:
    """Material's primary container: the accent faded into ``bg``."""
    return mix(primary, bg, 0.78)


@_draws("dial")
def _draw_dial(p: Painter, k: Look) -> None:
    """The clock face, and its hand: ``style`` is ``angle:radius:size:dot`` (degrees from
    12, the selector's distance from the center and its diameter in 0..1000 of the face; a
    dot in the selector when no number marks the value)."""
    side = min(k.lw, k.lh)
    cx, cy = k.lw / 2, k.lh / 2
    p.circle(cx, cy, side / 2, DIAL_BG)
    if not k.style:
        return
    angle, radius, size, dot = (float(v) for v in k.style.split(":"))
    s = side / 1000
    ex = cx + radius * s * math.sin(math.radians(angle))
    ey = cy - radius * s * math.cos(math.radians(angle))
    p.d.line((cx * p.kx, cy * p.ky, ex * p.kx, ey * p.ky), fill=k.pal.primary,
             width=max(1, round(4 * p.kf)))
    p.circle(cx, cy, 8, k.pal.primary)
    p.circle(ex, ey, size * s / 2, k.pal.primary)
    if dot:
        p.circle(ex, ey, 6, k.pal.on_primary)


@_draws("dial_num")
def _draw_dial_num(p: Painter, k: Look) -> None:
    """A number on the face (its selector circle is the face's; this draws over it)."""
    size = T.FONT["small"] if k.style == "inner" else T.FONT["body"]
    fg = k.pal.on_primary if k.selected else on_color(k.bg, pal=k.pal)
    p.text(k.lw / 2, k.lh / 2, k.text, size, fg, align="m",
           bg=k.pal.primary if k.selected else k.bg)


@_draws("day")
def _draw_day(p: Painter, k: Look) -> None:
    """A day (or a year) of a date picker: the chosen one filled, today outlined; a weekday
    header letter (style ``header``); nothing (``blank``)."""
    if k.style == "blank":
        return
    cx, cy = k.lw / 2, k.lh / 2
    if k.style == "header":
        p.text(cx, cy, k.text, T.FONT["caption"], on_color(k.bg, secondary=True, pal=k.pal),
               align="m")
        return
    year = k.style.startswith("year")
    r = min(k.lw, k.lh) / 2 - 10
    x0, x1 = (16, k.lw - 16) if year else (cx - r, cx + r)
    fg = on_color(k.bg, pal=k.pal)
    fill = None
    if k.selected:
        fill, fg = k.pal.primary, k.pal.on_primary
        p.rect(x0, cy - r, x1, cy + r, fill, radius=r)
    elif k.style.endswith("today"):
        p.rect(x0, cy - r, x1, cy + r, None, radius=r, outline=k.pal.primary, width=3)
        fg = k.pal.primary
    p.text(cx, cy, k.text, T.FONT["body"], fg, align="m", bg=fill)


@_draws("time_chip")
def _draw_time_chip(p: Painter, k: Look) -> None:
    """The hour, minute (large) or AM/PM (style ``small``) of a time picker: on the
    primary container when it is the part being picked."""
    if k.style == "colon":  # between the hour and the minute
        p.text(k.lw / 2, k.lh / 2, k.text, 110, on_color(k.bg, pal=k.pal), align="m")
        return
    fill = _container(k.pal.primary, k.bg) if k.selected else DIAL_BG
    fg = k.pal.primary if k.selected else on_color(DIAL_BG, pal=k.pal)
    p.rect(6, 6, k.lw - 6, k.lh - 6, fill, radius=20)
    size = T.FONT["button"] if k.style == "small" else 110
    p.text(k.lw / 2, k.lh / 2, k.text, size, fg, align="m", bold=k.style == "small", bg=fill)


@_draws("event_chip")
def _draw_event_chip(p: Painter, k: Look) -> None:
    """An event in a calendar view: a colored box with its title (and, for a day view's
    block, style ``block``, its time below)."""
    fill = k.color or k.pal.primary
    p.rect(2, 2, k.lw - 2, k.lh - 2, fill, radius=8)
    fg = on_color(fill, pal=k.pal)
    if k.style == "block":
        p.text(16, 36, k.text, T.FONT["caption"], fg, bold=True, max_w=k.lw - 32, bg=fill)
        if k.hint and k.lh >= 100:
            p.text(16, 80, k.hint, T.FONT["small"], fg, max_w=k.lw - 32, bg=fill)
        return
    p.text(8, k.lh / 2, k.text, T.FONT["small"] - 6, fg, max_w=k.lw - 12, bg=fill)


@_draws("board")
def _draw_board(p: Painter, k: Look) -> None:
    """A surface its children are placed on; style ``hours:N:LEFT`` draws N hour lines (a
    calendar's day view) right of LEFT pixels."""
    if k.style.startswith("hours:"):
        _, hours, start = k.style.split(":")
        n, left = int(hours), int(start)
        for i in range(n):
            p.hline(left, k.lw, k.lh * i / n + 2, 2, T.DIVIDER)


def _draw_other(p: Painter, k: Look) -> None:
    """Unknown kinds: their text, else their glyph."""
    if k.text:
        p.text(0, k.lh / 2, k.text, T.FONT["body"], on_color(k.bg, pal=k.pal), max_w=k.lw)
    elif k.glyph:
        p.glyph(k.lw / 2, k.lh / 2, k.glyph, min(k.lw, k.lh), on_color(k.bg, pal=k.pal), k.bg)


#: Kinds drawn as one rounded rect of the surface (their ``DRAW`` function; a sheet's drag
#: handle too): its radius and rounded corners (``ImageDraw.rounded_rectangle``'s; None:
#: all four).
PANELS: dict[str, tuple[float, tuple[bool, bool, bool, bool] | None]] = {
    "dialog": (36, None), "drawer": (42, (False, True, True, False)),
    "sheet": (48, (True, True, False, False)),
}


def _panel_tile(look: Look, font_scale: float) -> Tile | None:
    """The tile ``DRAW[look.kind]`` of a ``PANELS`` kind draws, made from two bands (its top
    and bottom rows, where the corners are: drawn supersampled as ``Painter.rect`` draws
    them) around opaque rows of the surface: the same pixels at a fraction of the cost of a
    large dialog. None where the shape is too short for that (draw it as any tile)."""
    radius, corners = PANELS[look.kind]
    w, h = look.tw * SS, look.th * SS
    kx, ky = w / look.lw, h / look.lh
    if (round(look.lw * kx) - 1, round(look.lh * ky) - 1) != (w - 1, h - 1):
        return None
    r = min(radius * font_scale * SS, (w - 1) / 2, (h - 1) / 2)
    band = (math.ceil(r) + 2 * SS) // SS * SS  # rows of the corners, whole output rows
    if r < 1 or 2 * band + 2 * SS > h:
        return None
    fill = look.pal.surface
    img = Image.new("RGBA", (w, 2 * band), (*surfaces(look.pal).get(look.kind, look.bg), 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, 2 * band - 1), radius=r, fill=(*fill, 255),
                           corners=corners)
    if look.kind == "sheet":  # its handle (as ``Painter.rect`` draws it), in the top band
        hw, y0, y1, radius = SHEET_HANDLE_BOX
        b = pixel_box(look.lw / 2 - hw, y0, look.lw / 2 + hw, y1, kx, ky)
        if b[3] >= band:
            return None
        if b[2] >= b[0] and b[3] >= b[1]:
            paint_rect(draw, b, rect_radius(b, radius * font_scale * SS),
                       (*SHEET_HANDLE, 255))
    bands = pixels(img.reduce(SS) if SS > 1 else img)
    rows, th = band // SS, look.th
    rgb = np.empty((th, look.tw, 3), np.uint8)
    alpha = np.empty((th, look.tw), np.uint8)
    for c in range(3):  # (a band at a time: see ``masked_tile``)
        rgb[:rows, :, c] = bands[:rows, :, c]
        rgb[th - rows:, :, c] = bands[rows:, :, c]
    alpha[:rows] = bands[:rows, :, 3]
    alpha[th - rows:] = bands[rows:, :, 3]
    row = np.empty((1, look.tw, 3), np.uint8)
    row[:] = fill
    rgb[rows:th - rows] = row  # (a row broadcast: a tuple's is a hundred times slower)
    alpha[rows:th - rows] = 255
    return blended_tile(rgb, alpha)


def draw_tile(look: Look, font_scale: float) -> Tile:
    """Draw one node into a tile (uncached)."""
    if look.kind in PANELS and not (look.style and f"{look.kind}:{look.style}" in DRAW):
        tile = _panel_tile(look, font_scale)
        if tile is not None:
            return tile
    painter = Painter(look, font_scale, look.kind in MASKED,
                      1 if look.kind in FAST_KINDS else SS)
    draw = DRAW.get(f"{look.kind}:{look.style}") if look.style else None
    (draw or DRAW.get(look.kind, _draw_other))(painter, look)
    return painter.tile()
