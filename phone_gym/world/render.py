"""Pixels of a ``Frame``: a fast tile renderer (the Minigrid way).

Each placed node is drawn once with Pillow into an opaque tile (or, for floating shapes such
as the FAB and dialogs, a tile with an alpha mask) at its size in output pixels, and cached.
A frame is then composed in a numpy buffer by slice assignment: a frame of ~40 cached tiles
takes a fraction of a millisecond.

Drawing one tile lives in ``painter`` (the ``Painter``, ``Look`` and ``Tile``),
``widgets_draw`` (one function per widget kind) and ``glyphs`` (fonts and vector symbols).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from contextlib import suppress
from typing import cast

import numpy as np
from PIL import Image

from . import theme as T
from .a11y import SHARED as SHARED_NODE
from .glyphs import RGB
from .layout import Frame, Rect
from .painter import Look, Tile, glyph_drawn, surfaces
from .theme import DEFAULT_PALETTE, Palette
from .widgets import NAV_BUTTON_IDS, Node
from .widgets_draw import DESC_DRAWN, DESC_FALLBACK, DRAW, SHAPE_ONLY, draw_tile

#: Kinds that draw nothing themselves (their children do).
NO_DRAW = frozenset({"row", "column", "spacer", "list", "chip_group", "speed_dial",
                     "subtitle"})  # a list item draws its subtitle parts itself
#: Kinds whose inner color is not simply their surface (see ``inner_color``).
INNER_SPECIAL = frozenset({"screen", "list_item", "key", "keyboard"})
#: Kinds the system draws in its own colors whatever app is in front (the keyboard).
SYSTEM_KINDS = frozenset({"keyboard", "key"})


def _scrim_shifts(keep: float) -> tuple[int, ...]:
    """Right shifts whose sum of ``x >> s`` best approximates ``x * keep`` (1 or 2 terms)."""
    options: list[tuple[int, ...]] = [(s,) for s in range(8)]
    options += [(a, b) for a in range(1, 8) for b in range(a + 1, 9)]
    options.append(())  # keep == 0
    return min(options, key=lambda o: abs(sum(2.0**-s for s in o) - keep))


SCRIM_SHIFTS = _scrim_shifts(1.0 - T.SCRIM)


def scrimmed(color: RGB) -> RGB:
    """``color`` darkened by the scrim exactly as the frame buffer is."""
    return tuple(sum(c >> s for s in SCRIM_SHIFTS) for c in color)  # type: ignore[return-value]


def _extra(node: Node) -> object:
    kind = node.kind
    if kind == "top_bar":
        ups = sum(1 for c in node.children if c.id in NAV_BUTTON_IDS)
        return (ups > 0, len(node.children) - ups)
    if kind == "list_item" and node.children:
        return trailing_kind(node)
    if kind == "slider":
        return node.range_info
    return None


def trailing_kind(node: Node) -> str | None:
    """The kind of a list item's trailing widget (None: it has only subtitle parts)."""
    kind = node.children[0].kind
    return None if kind == "subtitle" else kind


def inner_color(node: Node, bg: RGB, pal: Palette = DEFAULT_PALETTE) -> RGB:
    """The color a node paints behind its children, given what it sits on and the palette."""
    kind = node.kind
    if kind == "screen":
        return node.color or pal.bg
    if kind == "list_item" and node.selected:
        return pal.selected
    if kind == "keyboard":  # Gboard's board, light or dark (its style)
        return T.keyboard_colors(node.style).board
    if kind == "key":
        return T.keyboard_colors(node.style).key
    return surfaces(pal).get(kind, bg)


def _paste(out: np.ndarray, tile: Tile, ty0: int, ty1: int, tx0: int, tx1: int, oy: int,
           ox: int) -> None:
    """Tile rows ``[ty0, ty1)`` and columns ``[tx0, tx1)`` at ``(oy, ox)`` of ``out``."""
    rgb = tile.rgb
    if tile.opaque:
        out[oy:oy + ty1 - ty0, ox:ox + tx1 - tx0] = rgb[ty0:ty1, tx0:tx1]
        return
    r0, r1, c0, c1 = tile.solid
    r0, r1, c0, c1 = max(ty0, r0), min(ty1, r1), max(tx0, c0), min(tx1, c1)
    dy, dx = oy - ty0, ox - tx0
    if r1 > r0 and c1 > c0:
        out[r0 + dy:r1 + dy, c0 + dx:c1 + dx] = rgb[r0:r1, c0:c1]
    if tile.pre is None or tile.inv is None:
        return
    for ya, yb, xa, xb, pre, inv in _blend_bands(tile):
        a0, a1 = max(ya, ty0), min(yb, ty1)
        b0, b1 = max(xa, tx0), min(xb, tx1)
        if a1 > a0 and b1 > b0:
            dst = out[a0 + dy:a1 + dy, b0 + dx:b1 + dx]
            mixed = dst * inv[a0 - ya:a1 - ya, b0 - xa:b1 - xa]
            mixed += pre[a0 - ya:a1 - ya, b0 - xa:b1 - xa]
            mixed >>= 8
            dst[...] = mixed


#: A band of a masked tile to blend: its rows ``ya:yb`` and columns ``xa:xb`` in the tile,
#: and its own ``pre`` and ``inv`` (``inv`` repeated over the three channels).
Band = tuple[int, int, int, int, np.ndarray, np.ndarray]
_BANDS: dict[int, tuple[weakref.ref[np.ndarray], weakref.ref[np.ndarray], list[Band]]] = {}


def _blend_bands(tile: Tile) -> list[Band]:
    """The parts of ``tile`` outside its solid rect that change what is below them (made
    once per tile, kept while its arrays live): above, below, left and right of the solid
    rect, each cut to the box of its pixels that are not fully transparent.

    Each band holds ``inv`` repeated over the channels, in one block of memory with ``pre``'s
    layout: numpy then blends a row in one inner loop, where broadcasting a one-channel
    ``inv`` made an inner loop of three values per pixel (3-4x slower)."""
    pre, inv = tile.pre, tile.inv
    assert pre is not None and inv is not None
    entry = _BANDS.get(id(pre))
    if entry is not None and entry[0]() is pre and entry[1]() is inv:
        return entry[2]
    h, w = inv.shape[:2]
    r0, r1, c0, c1 = tile.solid
    if not (r1 > r0 and c1 > c0):
        r0 = r1 = 0
        c0 = c1 = 0
    bands: list[Band] = []
    for ya, yb, xa, xb in ((0, r0, 0, w), (r1, h, 0, w), (r0, r1, 0, c0), (r0, r1, c1, w)):
        if yb <= ya or xb <= xa:
            continue
        # a pixel with inv 256 and pre 0 leaves what is below it: (below * 256) >> 8
        shows = (inv[ya:yb, xa:xb, 0] != 256) | pre[ya:yb, xa:xb].any(axis=2)
        rows, cols = np.flatnonzero(shows.any(axis=1)), np.flatnonzero(shows.any(axis=0))
        if not len(rows):
            continue
        ya, yb = ya + int(rows[0]), ya + int(rows[-1]) + 1
        xa, xb = xa + int(cols[0]), xa + int(cols[-1]) + 1
        bands.append((ya, yb, xa, xb, pre[ya:yb, xa:xb].copy(),  # not a view:
                      np.repeat(inv[ya:yb, xa:xb], 3, axis=2)))  # it would keep pre alive
    key = id(pre)
    forget = _BANDS.pop  # bound now: the callback may run late in interpreter shutdown
    _BANDS[key] = (weakref.ref(pre, lambda _, key=key: forget(key, None)),  # type: ignore[misc]
                   weakref.ref(inv), bands)
    return bands


class TileCache:
    """An LRU of drawn tiles, bounded in count and in bytes."""

    def __init__(self, max_tiles: int = 16384, max_mb: float = 512.0) -> None:
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

    def __getstate__(self) -> dict[str, object]:
        # pickled empty: keys name palettes by their number in this process (``palette_id``)
        return {**self.__dict__, "tiles": OrderedDict(), "nbytes": 0}


#: Palettes by number (``palette_id``): tile keys hold the number, which hashes at once,
#: where a palette (a dataclass of ~20 fields) would be hashed anew at every lookup.
_PALETTES: list[Palette] = []
_PALETTE_IDS: dict[Palette, int] = {}
_PALETTE_LOCK = threading.Lock()


def palette_id(pal: Palette) -> int:
    """The number of ``pal`` in this process (the same for equal palettes)."""
    number = _PALETTE_IDS.get(pal)
    if number is None:
        with _PALETTE_LOCK:
            number = _PALETTE_IDS.get(pal)
            if number is None:
                number = len(_PALETTES)
                _PALETTES.append(pal)  # before the number is published
                _PALETTE_IDS[pal] = number
    return number


#: A paint operation of a frame (``Renderer._ops``).
Op = tuple[object, int, int, int, int, int, int]
#: Output pixel rows ``y0:y1`` and columns ``x0:x1``: ``(y0, y1, x0, x1)``.
Box = tuple[int, int, int, int]

_SHARED: dict[tuple[int, int], TileCache] = {}
_FILLS: dict[tuple[int, RGB], np.ndarray] = {}


def shared_cache(width: int, height: int) -> TileCache:
    """The tile cache shared by every ``Renderer`` of this output size in the process."""
    cache = _SHARED.get((width, height))
    if cache is None:
        cache = _SHARED.setdefault((width, height), TileCache())
    return cache


def _fill(width: int, color: RGB) -> np.ndarray:
    """A read-only row (``1 x width``) of one color (shared, cached): copied into any rect
    by broadcasting (as fast as a whole image of the color, at one row's memory)."""
    key = (width, color)
    arr = _FILLS.get(key)
    if arr is None:
        if len(_FILLS) >= 256:
            _FILLS.clear()
        arr = np.empty((1, width, 3), np.uint8)
        arr[...] = color
        arr.flags.writeable = False
        _FILLS[key] = arr
    return arr


class Renderer:
    """Renders frames to ``height x width x 3`` uint8 arrays from cached tiles.

    Renderers of the same size share one process-wide ``TileCache`` unless given their own
    ``cache``; set ``cache_tiles = False`` to draw every tile afresh (a baseline).
    """

    _lent = False  # (class defaults: renderers pickled before these existed)
    serial = 0

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
        #: The image returned last, its operations and their tiles (or fill colors).
        self._buf: np.ndarray | None = None
        self._last: list[Op] = []
        self._tiles: list[Tile | RGB] = []
        self._lent = False  # whether ``render`` returned the last image (never draw into it)
        #: How many frames this renderer has composed (a ``view`` stays valid while it holds).
        self.serial = 0

    # --- public ----------------------------------------------------------------------------
    def render(self, frame: Frame) -> np.ndarray:
        """A new ``H x W x 3`` uint8 image of ``frame``.

        The frame is first listed as paint operations (one cached tile, or a fill, each with
        the rect it covers). Only the rects whose operations differ from the previous frame's
        are redrawn, into a copy of the image returned last: every pixel outside them is
        covered by the same operations in the same order, so it is unchanged, and the image
        equals a full redraw. The renderer reads the image it returned last to compose the
        next one: write to a copy of it, never to it. The scrim costs no pass over the
        buffer: nodes below it are pasted from darkened copies of their tiles (cached too)
        onto a darkened fill.
        """
        out = self._compose(frame, True)
        self._lent = True  # the caller holds it now: the next frame goes into a copy
        return out

    def view(self, frame: Frame) -> np.ndarray:
        """``render`` without its copy: a read-only view of the renderer's own image of
        ``frame``, which the next ``render`` or ``view`` overwrites (copy it to keep it).

        Where ``render`` composes each frame into a copy of the last, ``view`` redraws only
        the changed rects in place: one full-frame copy less per step for a caller that
        copies the image anyway (the env's observation)."""
        out = self._compose(frame, self._lent)
        self._lent = False
        shown = out.view()
        shown.flags.writeable = False
        return shown

    def adopt(self, buffer: np.ndarray) -> None:
        """Compose into ``buffer`` from the next ``view`` on, in place, as into the
        renderer's own image: ``buffer`` (``H x W x 3`` uint8, C-contiguous, writable) must
        hold the current image, e.g. a frame in shared memory the caller has just copied it
        into, which then needs no copy for the frames after (``view``'s images are views
        of it). ``render`` still returns new arrays, and composes away from ``buffer``."""
        if (buffer.shape != (self.height, self.width, 3) or buffer.dtype != np.uint8
                or not buffer.flags.c_contiguous or not buffer.flags.writeable):
            raise ValueError(f"buffer: {buffer.dtype} {buffer.shape}; accepted: a writable, "
                             f"C-contiguous uint8 array of {(self.height, self.width, 3)}")
        self._buf, self._lent = buffer, False

    def _compose(self, frame: Frame, fresh: bool) -> np.ndarray:
        """The image of ``frame`` composed from the last one (in a copy when ``fresh``, else
        in place), kept as the renderer's last image."""
        ops, tiles = self._ops(frame)
        last = self._buf
        rects = self._dirty(self._last, ops) if last is not None else None
        if last is None or rects is None:
            out = np.empty((self.height, self.width, 3), np.uint8) if fresh or last is None \
                else last
            _apply(out, ops, tiles, None)
        else:
            out = last.copy() if fresh else last
            for clip in rects:
                _apply(out, ops, tiles, clip)
        # the tiles are kept alive with their operations, so that their ids stay unique
        self._buf, self._last, self._tiles = out, ops, tiles
        self.serial += 1
        return out

    def _ops(self, frame: Frame) -> tuple[list[Op], list[Tile | RGB]]:
        """The paint operations of ``frame``, in order, and the tile (or fill color) of each.

        An operation is ``(ident, y0, x0, vy0, vy1, vx0, vx1)``: the tile's id (or a fill's
        color), where its top left corner goes and the visible rect it paints, in output
        pixels."""
        W, H = self.width, self.height
        SW, SH = T.SCREEN_W, T.SCREEN_H
        hx, hy = SW // 2, SH // 2
        items = frame.items
        has_scrim = frame.scrim_before is not None
        scrim_at = frame.scrim_before if frame.scrim_before is not None else -1
        pal = frame.palette
        app_surfaces = surfaces(pal)
        sys_pal = DEFAULT_PALETTE
        start, base = 0, pal.bg
        first = items[0] if items else None
        if first is not None and first.node.kind == "screen" and first.parent < 0 \
                and first.rect == first.full == (0, 0, SW, SH) and scrim_at != 0:
            start, base = 1, first.node.color or pal.bg  # the screen background is the fill
        base_dark = has_scrim  # the fill is drawn before the scrim
        color0 = scrimmed(base) if base_dark else base
        ops: list[Op] = [(color0, 0, 0, 0, H, 0, W)]
        looks: list[Tile | RGB] = [color0]
        inner: list[RGB] = [base] * start
        tiles = self.cache.tiles if self.cache_tiles else None
        pal_id, sys_id = palette_id(pal), palette_id(sys_pal)
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
            inner.append(app_surfaces.get(kind, bg) if kind not in INNER_SPECIAL
                         else inner_color(node, bg, pal))
            if kind in NO_DRAW:
                continue
            where: tuple[object, ...] | None = None
            if tiles is not None and SHARED_NODE in node.__dict__ and kind != "screen":
                # made once and shown unchanged in many frames (``a11y.share``): its
                # operation and tile are those of the last frame that showed it like this
                where = (placed.full, placed.rect, placed.focused, bg, under, pal_id, W, H)
                memo = node.__dict__.get(_MEMO)
                if memo is not None and memo[0] == where:
                    known: tuple[object, ...] | None = memo[1]
                    if known is None:
                        continue  # it paints nothing there
                    tile = tiles.get(known)
                    if tile is not None:
                        try:
                            tiles.move_to_end(known)
                        except KeyError:  # evicted meanwhile by another thread
                            pass
                        op = memo[2]
                        if op[0] != id(tile):  # drawn again since
                            op = (id(tile), *op[1:])
                            node.__dict__[_MEMO] = (where, known, op)
                        ops.append(op)
                        looks.append(tile)
                        continue
                node.__dict__[_MEMO] = (where, None)  # until it turns out to paint
            fx0, fy0, fx1, fy1 = placed.full
            X0, Y0 = (fx0 * W + hx) // SW, (fy0 * H + hy) // SH
            X1, Y1 = (fx1 * W + hx) // SW, (fy1 * H + hy) // SH
            if X1 <= X0 or Y1 <= Y0:
                continue
            if kind == "screen" and parent < 0:
                base, base_dark = node.color or pal.bg, under
                if (X0, Y0, X1, Y1) == (0, 0, W, H) and placed.rect == placed.full:
                    fill = scrimmed(base) if under else base
                    ops.append((fill, 0, 0, 0, H, 0, W))
                    looks.append(fill)
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
                extra = trailing_kind(node) if node.children else None
            elif kind in ("top_bar", "slider"):
                extra = _extra(node)
            elif kind == "app_icon" and color is None:
                color = T.APP_COLORS.get(node.text, T.PRIMARY)
            text, desc, style = node.text, node.desc, node.style
            if desc and (not style or f"{kind}:{style}" not in DRAW):  # drawn by DRAW[kind]
                if kind not in DESC_DRAWN:
                    desc = ""  # not drawn: keyed without it, as it changes no pixel
                elif kind in DESC_FALLBACK and glyph_drawn(node.glyph):
                    desc = ""  # only a fallback, and the glyph is drawn
                    if kind == "icon":
                        text = ""  # the icon's other fallback
            key: tuple[object, ...]
            if kind in SHAPE_ONLY and not (style and f"{kind}:{style}" in DRAW):
                # the same pixels whatever its text and state (``SHAPE_ONLY``)
                key = (kind, "", "", "", style, "", None, None, True, False, False, None,
                       app_surfaces.get(kind, bg), fx1 - fx0, fy1 - fy0, X1 - X0, Y1 - Y0,
                       pal_id)
            else:
                key = (
                    kind, text, node.hint, desc, style, node.glyph, color,
                    node.checked, node.enabled, node.selected, placed.focused, extra, bg,
                    fx1 - fx0, fy1 - fy0, X1 - X0, Y1 - Y0,
                    sys_id if kind in SYSTEM_KINDS else pal_id,
                )
            if under:
                key = (_DARK, key)
            tile = tiles.get(key) if tiles is not None else None
            if tile is None:
                tile = self._miss(key)
            else:
                try:
                    tiles.move_to_end(key)  # type: ignore[union-attr]
                except KeyError:  # evicted meanwhile by another thread
                    pass
            op = (id(tile), Y0, X0, vy0, vy1, vx0, vx1)
            ops.append(op)
            looks.append(tile)
            if where is not None:
                node.__dict__[_MEMO] = (where, key, op)
        return ops, looks

    def _dirty(self, last: list[Op], ops: list[Op]) -> list[Box] | None:
        """The rects ``(y0, y1, x0, x1)`` to redraw to turn the frame of ``last`` into that of
        ``ops``; None: redraw it all.

        Every pixel outside the rects of the operations that only one of the frames has is
        painted by the same operations in the same order in both, so it is unchanged. The
        operations both frames start and end with are matched in place; between them, by
        value (where none repeats, and those both have come in the same order)."""
        n, m = len(last), len(ops)
        i, most = 0, min(n, m)
        while i < most and last[i] == ops[i]:
            i += 1
        if i == n == m:
            return []
        j = 0
        most -= i
        while j < most and last[n - 1 - j] == ops[m - 1 - j]:
            j += 1
        before, after = last[i:n - j], ops[i:m - j]
        old, new = set(before), set(after)
        if len(old) != len(before) or len(new) != len(after):
            return None  # an operation repeated: counts would matter (blending twice)
        changed = old ^ new
        if len(changed) != len(old) + len(new) and \
                [op for op in before if op in new] != [op for op in after if op in old]:
            return None  # the operations both have were reordered
        rects = [(op[3], op[4], op[5], op[6]) for op in changed]
        rects = merge_rects(rects) if len(rects) <= 4 * MAX_RECTS else [bounding(rects)]
        if sum((y1 - y0) * (x1 - x0) for y0, y1, x0, x1 in rects) \
                >= REDRAW_ALL * self.width * self.height:
            return None
        return rects

    def render_image(self, frame: Frame) -> Image.Image:
        """``render`` as a PIL image."""
        return Image.fromarray(self.render(frame), "RGB")

    # --- internals -------------------------------------------------------------------------
    def _miss(self, key: tuple[object, ...]) -> Tile:
        """Draw (and cache) the tile of ``key``, or darken the plain one for ``(_DARK, key)``."""
        tiles = self.cache.tiles if self.cache_tiles else None
        if key[0] is _DARK:
            plain_key = cast("tuple[object, ...]", key[1])  # the key of the plain tile
            plain = tiles.get(plain_key) if tiles is not None else None
            tile = darken(plain if plain is not None else self._miss(plain_key))
        else:  # the key ends with the palette's number
            *fields, number = key
            look = Look(*fields, _PALETTES[cast(int, number)])  # type: ignore[arg-type, call-arg]
            tile = draw_tile(look, self.font_scale)
        if tiles is not None:
            self.cache.put(key, tile)
        return tile


#: Redraw the whole frame when the dirty rects cover this share of it.
REDRAW_ALL = 0.7
#: At most this many dirty rects are redrawn one by one (more are merged into one).
MAX_RECTS = 6


def merge_rects(rects: list[Box]) -> list[Box]:
    """``rects`` (``(y0, y1, x0, x1)``) with every pair that overlaps merged into its bounding
    box until none do, and all merged into one when more than ``MAX_RECTS`` remain."""
    out: list[Box] = []
    for rect in rects:
        y0, y1, x0, x1 = rect
        merged = True
        while merged:
            merged = False
            for j, (a0, a1, b0, b1) in enumerate(out):
                if a0 < y1 and y0 < a1 and b0 < x1 and x0 < b1:
                    y0, y1, x0, x1 = min(y0, a0), max(y1, a1), min(x0, b0), max(x1, b1)
                    del out[j]
                    merged = True
                    break
        out.append((y0, y1, x0, x1))
    return out if len(out) <= MAX_RECTS else [bounding(out)]


def bounding(rects: list[Box]) -> Box:
    """The smallest box that holds all of ``rects``."""
    return (min(r[0] for r in rects), max(r[1] for r in rects), min(r[2] for r in rects),
            max(r[3] for r in rects))


def _apply(out: np.ndarray, ops: list[Op], looks: list[Tile | RGB], clip: Box | None) -> None:
    """Paint ``ops`` (their tiles or fill colors in ``looks``) into ``out``, only inside
    ``clip`` (``(y0, y1, x0, x1)``; None: everywhere). A fill skips the rows that a later
    opaque operation covers across its width (most of the screen's background)."""
    cy0, cy1, cx0, cx1 = clip if clip is not None else (0, out.shape[0], 0, out.shape[1])
    for k, (op, look) in enumerate(zip(ops, looks, strict=True)):
        _, Y0, X0, vy0, vy1, vx0, vx1 = op
        if vy1 <= cy0 or cy1 <= vy0 or vx1 <= cx0 or cx1 <= vx0:
            continue
        vy0 = cy0 if vy0 < cy0 else vy0
        vy1 = cy1 if vy1 > cy1 else vy1
        vx0 = cx0 if vx0 < cx0 else vx0
        vx1 = cx1 if vx1 > cx1 else vx1
        if not isinstance(look, Tile):  # a fill: copied from a cached row (faster than
            row = _fill(out.shape[1], look)[:, vx0:vx1]  # broadcasting the color)
            for y0, y1 in _uncovered(ops, looks, k + 1, vy0, vy1, vx0, vx1):
                out[y0:y1, vx0:vx1] = row
        elif look.opaque:
            out[vy0:vy1, vx0:vx1] = look.rgb[vy0 - Y0:vy1 - Y0, vx0 - X0:vx1 - X0]
        else:
            _paste(out, look, vy0 - Y0, vy1 - Y0, vx0 - X0, vx1 - X0, vy0, vx0)


def _uncovered(ops: list[Op], looks: list[Tile | RGB], start: int, y0: int, y1: int,
               x0: int, x1: int) -> list[tuple[int, int]]:
    """The row spans of ``[y0, y1)`` that no operation from ``start`` on paints opaquely
    across all columns ``[x0, x1)``."""
    spans = []
    for k in range(start, len(ops)):
        _, Y0, X0, vy0, vy1, vx0, vx1 = ops[k]
        if vy1 <= y0 or y1 <= vy0 or vx0 > x0 or vx1 < x1:
            continue
        look = looks[k]
        if isinstance(look, Tile) and not look.opaque:  # only its solid rect
            r0, r1, c0, c1 = look.solid
            if X0 + c0 > x0 or X0 + c1 < x1:
                continue
            vy0, vy1 = max(vy0, Y0 + r0), min(vy1, Y0 + r1)
            if vy1 <= vy0:
                continue
        spans.append((vy0, vy1))
    if not spans:
        return [(y0, y1)]
    spans.sort()
    out = []
    for a, b in spans:
        if a > y0:
            out.append((y0, min(a, y1)))
        if b > y0:
            y0 = b
        if y0 >= y1:
            break
    if y0 < y1:
        out.append((y0, y1))
    return out


_DARK = object()  # marks the cache key of a tile darkened by the scrim
#: The attribute under which a node made once (``a11y.share``) keeps where it was last
#: painted, its tile's key and its operation: ``(where, key, op)`` (``(where, None)``: it
#: painted nothing there). Its tile stays the cache's (a key, not a tile, is kept).
_MEMO = "_render_memo"


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
