"""Drawing one tile: the ``Look`` of a node (its cache key), the ``Tile`` it becomes, and the
``Painter`` that draws it with Pillow in logical coordinates.

Tiles are drawn at ``SS`` times their size and box-filtered down, which anti-aliases circles
and rounded corners. A line of text is split into runs of one font of the stack and vector
symbols (``glyphs.text_runs``); runs are measured and drawn through the fonts' text caches
(``glyphs.text_cache``: advances per character, masks per word), pixel-identical to Pillow's
``ImageDraw.text``, fallback fonts on Roboto's baseline. Text is Roboto in the weight of its
role (``bold`` draws titles, top bars and buttons in Medium, as Material does); icons are
Material Icons glyphs (``icons``), a name or a legacy symbol mapped to one.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple, cast

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import theme as T
from .glyphs import (
    PRIMARY,
    RGB,
    SYMBOL,
    SYMBOLS,
    TEXT_CACHE,
    VARIATION_SELECTORS,
    baseline,
    can_draw,
    face_font,
    font,
    text_cache,
    text_runs,
    weight_face,
)
from .icons import draw_icon, material_name
from .theme import DEFAULT_PALETTE, Palette, luminance

MEDIUM_FACE = weight_face("medium")
ICON_SCALE = 0.6  # an icon's design box, in the glyph box of ``Painter.glyph``
Ink = tuple[int, ...]  # RGB, or RGBA on tiles with an alpha mask
SS = 2  # supersampling factor of tile drawing
#: ``Painter.tile`` reduces and unpacks only the boxes drawn in when they cover less than
#: this share of an opaque tile (the rest is the color the tile was filled with).
BOXED_SHARE = 0.7

#: The palette role (or fixed color) a container paints behind its children.
SURFACE_ROLES: dict[str, str | RGB] = {
    "status_bar": "status_bg",
    "nav_bar": "nav_bg",
    "keyboard": T.KEYBOARD_BG,
    "top_bar": "top_bar_bg",
    "tab_bar": "surface",
    "dialog": "surface",
    "menu": "surface",
    "toast": T.TOAST_BG,
    "dial": (230, 225, 236),  # a time picker's face (Material 3's surface container highest)
    "card": "surface",
    "sheet": "surface",
    "drawer": "surface",
}


@lru_cache(maxsize=256)
def surfaces(pal: Palette) -> dict[str, RGB]:
    """The color each container kind paints behind its children, in palette ``pal``."""
    return {kind: role if isinstance(role, tuple) else getattr(pal, role)
            for kind, role in SURFACE_ROLES.items()}


#: The surfaces of the default palette (the system's screens).
SURFACES: dict[str, RGB] = surfaces(DEFAULT_PALETTE)


def on_color(bg: RGB, *, secondary: bool = False, pal: Palette = DEFAULT_PALETTE) -> RGB:
    """Text color readable on ``bg``: the palette's text colors where they contrast with it."""
    if luminance(bg) < 128:
        if luminance(pal.text) >= 128:
            return pal.text_2 if secondary else pal.text
        return (200, 204, 212) if secondary else (242, 243, 246)
    if luminance(pal.text) < 128:
        return pal.text_2 if secondary else pal.text
    return T.TEXT_2 if secondary else T.TEXT


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
    pal: Palette = DEFAULT_PALETTE  # the app's colors


class Tile(NamedTuple):
    """A drawn node: RGB pixels, and for floating shapes what blending needs.

    Inside ``solid`` (rows r0:r1, columns c0:c1) the tile is opaque and is copied. Outside
    it, ``pre`` (rgb * alpha) and ``inv`` (256 - alpha, uint16, one channel) blend it with
    what is below: ``(pre + below * inv) >> 8``; when ``clear``, nothing outside ``solid`` is
    drawn.
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


def pixel_box(x0: float, y0: float, x1: float, y1: float, kx: float, ky: float
              ) -> tuple[int, int, int, int]:
    """A logical rect as inclusive drawing pixel bounds, at ``kx``/``ky`` drawing pixels
    per logical pixel."""
    return (round(x0 * kx), round(y0 * ky), round(x1 * kx) - 1, round(y1 * ky) - 1)


def rect_radius(b: tuple[int, int, int, int], radius: float) -> float:
    """The corner radius (drawing pixels) a rect of pixel bounds ``b`` is drawn with."""
    return min(radius, (b[2] - b[0]) / 2, (b[3] - b[1]) / 2)


def paint_rect(d: ImageDraw.ImageDraw, b: tuple[int, int, int, int], r: float,
               fill: Ink | None, outline: RGB | None = None, width: int = 0,
               corners: tuple[bool, bool, bool, bool] | None = None) -> None:
    """A rect of pixel bounds ``b`` (``rect_radius`` ``r``): rounded when ``r`` is a pixel
    or more, else square."""
    if r >= 1:
        d.rounded_rectangle(b, radius=r, fill=fill, outline=outline, width=width,
                            corners=corners)
    else:
        d.rectangle(b, fill=fill, outline=outline, width=width)


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
        #: The boxes (drawing pixels ``x0, y0, x1, y1``, ends excluded) that drawing may have
        #: changed since the image was all ``fill``; None: anywhere (masked tiles, and
        #: drawing with ``d`` or ``img`` from outside, which the painter does not follow).
        self.boxes: list[tuple[int, int, int, int]] | None = None if masked else []
        self.fill: RGB = look.bg
        if masked:
            surface = surfaces(look.pal).get(look.kind, look.bg)
            self._img = Image.new("RGBA", (self.w, self.h), (*surface, 0))
        else:
            self._img = Image.new("RGB", (self.w, self.h), look.bg)
        self._d = ImageDraw.Draw(self._img)

    @property
    def d(self) -> ImageDraw.ImageDraw:
        """The image's ``ImageDraw``, for drawing the painter does not offer (after which
        ``tile`` reduces the whole image)."""
        self.boxes = None
        return self._d

    @property
    def img(self) -> Image.Image:
        """The drawing (supersampled): taking it to draw on makes ``tile`` reduce it whole."""
        self.boxes = None
        return self._img

    def _drawn(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Note that drawing pixels ``x0 <= x < x1, y0 <= y < y1`` may have changed."""
        if self.boxes is not None:
            self.boxes.append((max(0, math.floor(x0)), max(0, math.floor(y0)),
                               min(self.w, math.ceil(x1)), min(self.h, math.ceil(y1))))

    # geometry
    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A logical rect as inclusive drawing pixel bounds."""
        return pixel_box(x0, y0, x1, y1, self.kx, self.ky)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Ink | None = None, *,
             radius: float = 0, outline: RGB | None = None, width: float = 0,
             corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        b = self.box(x0, y0, x1, y1)
        if b[2] < b[0] or b[3] < b[1]:
            return
        r = rect_radius(b, radius * self.kf)
        w = max(1, round(width * self.kf)) if outline is not None else 0
        if self.boxes is not None:
            if (r < 1 and fill is not None and len(fill) == 3 and outline is None
                    and b == (0, 0, self.w - 1, self.h - 1)):
                self.boxes, self.fill = [], cast(RGB, fill)  # all of it, one color again
            else:
                self._drawn(b[0], b[1], b[2] + 1, b[3] + 1)
        paint_rect(self._d, b, r, fill, outline, w, corners)

    def circle(self, cx: float, cy: float, r: float, fill: Ink) -> None:
        x, y, rr = cx * self.kx, cy * self.ky, r * self.kf
        if rr <= 0:
            return
        self._drawn(x - rr - 1, y - rr - 1, x + rr + 2, y + rr + 2)
        self._d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)

    def hline(self, x0: float, x1: float, y1: float, thickness: float, fill: RGB) -> None:
        """A horizontal line whose bottom edge is at ``y1``, at least one output pixel thick."""
        t = max(self.ss, round(thickness * self.kf))
        b = self.box(x0, 0, x1, y1)
        if b[2] >= b[0] and b[3] >= 0:
            self._drawn(b[0], b[3] + 1 - t, b[2] + 1, b[3] + 1)
            self._d.rectangle((b[0], max(0, b[3] + 1 - t), b[2], b[3]), fill=fill)

    # text
    def font(self, size: float) -> ImageFont.FreeTypeFont:
        return font(round(size * self.kf))

    @staticmethod
    def runs(text: str) -> list[tuple[str, int]]:
        """``text`` split into runs of one font of the stack and single vector symbols:
        ``(run, face)``, ``face`` being ``SYMBOL`` for a symbol (``glyphs.text_runs``)."""
        if text.isascii():  # Roboto draws ASCII: the common case, fast
            return [(text, PRIMARY)] if text else []
        return text_runs(text)

    @staticmethod
    def run_px(run: str, face: int, px: int, weight: int = PRIMARY) -> float:
        """The advance of a run at font size ``px``: ``getlength`` of its font (Roboto in
        face ``weight`` for a ``PRIMARY`` run), from the text caches' advances; a vector
        symbol's box."""
        if face == SYMBOL:
            return px * 1.05
        if face == PRIMARY:
            if weight != PRIMARY:
                face = weight
            else:
                return TEXT_CACHE.length(run, px)
        if TEXT_CACHE.enabled:
            return text_cache(face).length(run, px)
        return face_font(face, px).getlength(run)

    def px(self, size: float) -> int:
        """The font size in drawing pixels of logical size ``size``."""
        return int(self.font(size).size)

    def text_px(self, text: str, px: int, weight: int = PRIMARY) -> float:
        """Width of ``text`` in drawing pixels at font size ``px`` (Roboto in face
        ``weight``)."""
        run_px = self.run_px
        return sum(run_px(run, face, px, weight) for run, face in self.runs(text))

    def width(self, text: str, size: float, *, bold: bool = False) -> float:
        """Width of ``text`` in logical pixels (in Medium when ``bold``)."""
        return self.text_px(text, self.px(size), MEDIUM_FACE if bold else PRIMARY) / self.kx

    def fit(self, text: str, size: float, max_w: float, *, tail: bool = False,
            weight: int = PRIMARY) -> str:
        """``text`` cut with an ellipsis (at the end, or the start when ``tail``) to fit."""
        px = self.px(size)
        limit = max_w * self.kx
        text = text.replace("\n", " ")
        if self.text_px(text, px, weight) <= limit:
            return text
        lo, hi = 0, len(text)
        while lo < hi:  # longest cut that fits
            mid = (lo + hi + 1) // 2
            cut = "…" + text[len(text) - mid:].lstrip() if tail else text[:mid].rstrip() + "…"
            if self.text_px(cut, px, weight) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return "…" if self.text_px("…", px, weight) <= limit else ""
        return "…" + text[len(text) - lo:].lstrip() if tail else text[:lo].rstrip() + "…"

    def text(self, x: float, y: float, text: str, size: float, fill: RGB, *,
             align: str = "l", bold: bool = False, weight: str | None = None,
             max_w: float | None = None, tail: bool = False, bg: RGB | None = None) -> float:
        """Draw one line vertically centered on ``y``; ``align`` l/m/r is relative to ``x``.
        Roboto's ``weight`` (``glyphs.WEIGHTS``) is "medium" when ``bold``, else "regular"
        unless given; the fallback fonts have one weight, drawn with a stroke when heavier.
        Returns the logical x where the text ends."""
        wface = weight_face(weight) if weight else MEDIUM_FACE if bold else PRIMARY
        px = self.px(size)
        run_px = self.run_px
        if max_w is not None:
            text = text.replace("\n", " ")
        runs = self.runs(text)
        widths = [run_px(run, face, px, wface) for run, face in runs]
        total = sum(widths)
        if max_w is not None and total > max_w * self.kx:  # else ``fit`` keeps it whole
            text = self.fit(text, size, max_w, tail=tail, weight=wface)
            runs = self.runs(text)
            widths = [run_px(run, face, px, wface) for run, face in runs]
            total = sum(widths)
        if not text:
            return x
        pen = x * self.kx - (total / 2 if align == "m" else total if align == "r" else 0)
        py = y * self.ky
        # the ink of a line (accents, fallback fonts, symbols, strokes) stays within a font
        # size of its box
        self._drawn(pen - px, py - 1.25 * px, pen + total + px, py + 1.25 * px)
        d = self._d
        stroke = max(1, round(px / 44)) if wface != PRIMARY else 0
        cached = TEXT_CACHE.enabled
        for (run, face), width in zip(runs, widths, strict=True):
            if face == SYMBOL:
                adv = px * 1.05
                draw_symbol = SYMBOLS[run]
                draw_symbol(d, pen + adv / 2, py, px * 0.38, fill, bg or self.look.bg)
            elif face == PRIMARY:
                if not (cached and text_cache(wface).draw(d, pen, py, run, px, fill)):
                    d.text((pen, py), run, font=face_font(wface, px), fill=fill, anchor="lm")
            else:  # a fallback font, on Roboto's baseline
                base = baseline(py, px)
                if not (cached and text_cache(face).draw(d, pen, base, run, px, fill,
                                                         stroke, "ls")):
                    d.text((pen, base), run, font=face_font(face, px), fill=fill,
                                anchor="ls", stroke_width=stroke, stroke_fill=fill)
            pen += width
        return pen / self.kx

    def glyph(self, cx: float, cy: float, glyph: str, box: float, fill: RGB, bg: RGB,
              fallback: str = "") -> None:
        """A glyph centered in a ``box``-sized square: a Material icon (by name, or a legacy
        symbol ``icons.LEGACY`` maps), a vector symbol, font text, or the first letter of
        ``fallback``. An icon's 24-unit design box is 0.6 ``box`` (24 dp in a 40 dp target)."""
        glyph = glyph.strip()
        name = material_name(glyph)
        if name is not None:
            px = max(1, round(box * ICON_SCALE * self.kf))
            x, y = round(cx * self.kx - px / 2), round(cy * self.ky - px / 2)
            self._drawn(x - 1, y - 1, x + px + 1, y + px + 1)  # (a px-square mask at x, y)
            draw_icon(self._d, cx * self.kx, cy * self.ky, px, name, fill)
            return
        if glyph not in SYMBOLS:
            glyph = glyph.translate(VARIATION_SELECTORS)
        if glyph in SYMBOLS:
            size = box * 0.3 * self.kf
            sx, sy, r = cx * self.kx, cy * self.ky, 1.5 * size + 2  # (they reach 0.9 size)
            self._drawn(sx - r, sy - r, sx + r, sy + r)
            SYMBOLS[glyph](self._d, sx, sy, size, fill, bg)
            return
        if not glyph or not can_draw(glyph):
            glyph = (fallback.strip()[:1] or "?").upper()
        size = box * (0.5 if len(glyph) == 1 else 0.36)
        self.text(cx, cy, glyph, size, fill, align="m", bold=True, max_w=box)

    def avatar(self, cx: float, cy: float, d: float, glyph: str, color: RGB, bg: RGB) -> None:
        """A letter in a disc, pasted from a supersampled sprite (crisp even when ``ss`` is 1)."""
        px = max(1, round(d * self.kx))
        sprite = _avatar_sprite(glyph, color, bg, px, self.font_scale * px / (d * self.kx))
        at = (round(cx * self.kx - px / 2), round(cy * self.ky - px / 2))
        self._drawn(at[0], at[1], at[0] + sprite.width, at[1] + sprite.height)
        self._img.paste(sprite, at)

    def tile(self) -> Tile:
        boxes = self.boxes
        if boxes is not None and self.ss > 1:  # (unpacking boxes costs more than whole)
            boxed = self._boxed(boxes)
            if boxed is not None:
                return Tile(boxed, (0, boxed.shape[0], 0, boxed.shape[1]), opaque=True)
        img = self._img.reduce(self.ss) if self.ss > 1 else self._img
        if not self.masked:
            return Tile(pixels(img), (0, img.height, 0, img.width), opaque=True)
        return masked_tile(pixels(img))

    def _boxed(self, boxes: list[tuple[int, int, int, int]]) -> np.ndarray | None:
        """The output pixels, reduced and unpacked only in the output pixels holding
        ``boxes`` (the rest is ``fill``: a box filter's mean of one color is that color);
        None where the boxes cover ``BOXED_SHARE`` of the tile or more."""
        ss = self.ss
        W, H = self.w // ss, self.h // ss
        rects: list[tuple[int, int, int, int]] = []
        area = 0
        for x0, y0, x1, y1 in boxes:
            x0, y0, x1, y1 = x0 // ss, y0 // ss, -(-x1 // ss), -(-y1 // ss)
            if x1 > x0 and y1 > y0:
                rects.append((x0, y0, x1, y1))
                area += (x1 - x0) * (y1 - y0)
        if area >= BOXED_SHARE * W * H:
            return None
        row = np.empty((1, W, 3), np.uint8)
        row[:] = self.fill
        out = np.empty((H, W, 3), np.uint8)
        out[:] = row
        img = self._img
        for x0, y0, x1, y1 in rects:
            box = (x0 * ss, y0 * ss, x1 * ss, y1 * ss)
            out[y0:y1, x0:x1] = pixels(img.reduce(ss, box) if ss > 1 else img.crop(box))
        out.flags.writeable = False
        return out


def pixels(img: Image.Image) -> np.ndarray:
    """``np.asarray(img)`` (read-only) of an "RGB", "RGBA" or "L" image, unpacked in one
    pass of Pillow's raw encoder (``asarray`` goes through ``tobytes``, which unpacks in
    64 KiB blocks and joins them: twice the time for a tile)."""
    w, h = img.size
    bands = {"RGB": 3, "RGBA": 4, "L": 1}.get(img.mode)
    if bands is None or not w or not h:
        return np.asarray(img)
    img.load()
    encoder = Image._getencoder(img.mode, "raw", img.mode)
    try:
        encoder.setimage(img.im, (0, 0, w, h))
        _, status, data = encoder.encode(w * h * bands + 64)
    finally:
        encoder.cleanup()
    if status != 1 or len(data) != w * h * bands:  # not all in one pass: the general way
        return np.asarray(img)
    arr = np.frombuffer(data, np.uint8)
    return arr.reshape((h, w) if bands == 1 else (h, w, bands))


def masked_tile(arr: np.ndarray) -> Tile:
    """The tile of an ``H x W x 4`` RGBA array (output pixels): its solid rect copied, the rest
    blended by its alpha. ``pre`` and ``inv`` are filled only outside the solid rect (the only
    pixels ``render`` blends); ``inv`` has one channel, broadcast over the three."""
    rgb = np.empty(arr.shape[:2] + (3,), np.uint8)
    for band in range(3):  # a band at a time: ten times faster than copying arr[..., :3]
        rgb[..., band] = arr[..., band]
    return blended_tile(rgb, np.ascontiguousarray(arr[..., 3]))


def blended_tile(rgb: np.ndarray, alpha8: np.ndarray) -> Tile:
    """``masked_tile`` of colors ``rgb`` (``H x W x 3``) and ``alpha8`` (``H x W``)."""
    solid = _solid_rect(alpha8)
    h, w = alpha8.shape
    r0, r1, c0, c1 = solid
    bands = [b for b in ((0, r0, 0, w), (r1, h, 0, w), (r0, r1, 0, c0), (r0, r1, c1, w))
             if b[1] > b[0] and b[3] > b[2]]
    if not any(alpha8[y0:y1, x0:x1].any() for y0, y1, x0, x1 in bands):
        return Tile(rgb, solid)
    pre = np.zeros((h, w, 3), np.uint16)
    inv = np.zeros((h, w, 1), np.uint16)
    for y0, y1, x0, x1 in bands:
        a = alpha8[y0:y1, x0:x1, None].astype(np.uint16)
        a += a > 127  # 0..256, so that opaque pixels copy exactly
        np.multiply(rgb[y0:y1, x0:x1], a, out=pre[y0:y1, x0:x1])
        np.subtract(256, a, out=inv[y0:y1, x0:x1])
    return Tile(rgb, solid, pre, inv, False)


@lru_cache(maxsize=4096)
def glyph_drawn(glyph: str) -> bool:
    """Whether ``Painter.glyph`` draws ``glyph`` itself (its ``fallback`` then changes no
    pixel): a Material icon, a vector symbol or text a font has."""
    glyph = glyph.strip()
    if material_name(glyph) is not None:
        return True
    if glyph not in SYMBOLS:
        glyph = glyph.translate(VARIATION_SELECTORS)
    return glyph in SYMBOLS or (bool(glyph) and can_draw(glyph))


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
