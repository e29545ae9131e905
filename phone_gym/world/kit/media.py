"""Media blocks whose content is in the pixels: a picture that carries text (a receipt
photo, a recipe card, a video frame) and a canvas a finger draws on.

Android reports no text for an ``ImageView`` or a custom-drawn ``View``: the accessibility
tree shows the picture's content description only, so an agent must read a receipt from
the screenshot, as it would on a phone. ``Picture`` draws ``lines`` on a paper-colored
card; ``Canvas`` draws the strokes it is given and reports new ones (a ``drag`` across it)
to ``on_stroke(x0, y0, x1, y1)`` in 0..1000 of its own box.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from PIL import Image as PilImage
from PIL import ImageDraw

from .. import pictures
from .. import theme as T
from ..painter import Look, Painter, on_color
from ..theme import luminance, mix
from ..widgets import (
    SLIDER_INSET,
    Column,
    Handler,
    Icon,
    ListItem,
    MenuItem,
    Node,
    Row,
    Slider,
    Spacer,
    StrokeHandler,
    Text,
    ValueHandler,
    VirtualList,
)
from ..widgets_draw import DRAW
from .common import slug

RGB = tuple[int, int, int]
PAPER: RGB = (250, 246, 236)
PICTURE_H = 560
CANVAS_H = 760


def Picture(lines: Sequence[str], *, desc: str, id: str = "picture", height: int = PICTURE_H,
            color: RGB = PAPER, on_click: Handler | None = None, picture: str = "") -> Node:
    """A photo of a page of text: ``lines`` drawn (not in the accessibility tree), ``desc``
    its content description (say what it is, never what it says). With ``picture``
    (``pictures.encode(kind, seed)``) it is that drawn picture, ``lines`` drawn in it."""
    return Node("picture", text="\n".join(lines), desc=desc, id=id, height=height,
                color=color, on_click=on_click, style=picture)


#: The canvas's tools: a brush paints in its colour, an eraser paints the canvas's white.
TOOLS = ("brush", "eraser")
#: A stroke's default width (logical pixels of a full-width canvas).
STROKE_SIZE = 10
ERASER: RGB = (255, 255, 255)


@dataclass(frozen=True)
class Stroke:
    """A straight stroke in 0..1000 canvas coordinates: its ends, its colour, its width
    (``size``, in logical pixels) and the ``tool`` that drew it (``TOOLS``; an eraser's
    stroke paints the canvas's white)."""

    x0: int
    y0: int
    x1: int
    y1: int
    color: RGB = (28, 28, 32)
    size: int = STROKE_SIZE
    tool: str = "brush"

    def __post_init__(self) -> None:
        if self.tool not in TOOLS:
            raise ValueError(f"unknown tool {self.tool!r}: expected one of {', '.join(TOOLS)}")
        if not 1 <= self.size <= 200:
            raise ValueError(f"stroke size {self.size} out of range: expected 1..200")

    @property
    def points(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The stroke's ends."""
        return (self.x0, self.y0), (self.x1, self.y1)

    def encode(self) -> str:
        """``x0 y0 x1 y1 r g b``, then ``size tool`` when not a default brush stroke."""
        r, g, b = self.color
        base = f"{self.x0} {self.y0} {self.x1} {self.y1} {r} {g} {b}"
        if self.size == STROKE_SIZE and self.tool == "brush":
            return base
        return f"{base} {self.size} {TOOLS.index(self.tool)}"


def encode_strokes(strokes: Sequence[Stroke]) -> str:
    """The strokes as the canvas node's text (what its tile is drawn from)."""
    return ";".join(s.encode() for s in strokes)


def decode_strokes(text: str) -> list[Stroke]:
    """The strokes of ``encode_strokes``'s text (parts that are not strokes are skipped)."""
    out = []
    for part in text.split(";"):
        try:
            nums = [int(v) for v in part.split()]
        except ValueError:
            continue
        if len(nums) == 7:
            out.append(Stroke(nums[0], nums[1], nums[2], nums[3], (nums[4], nums[5], nums[6])))
        elif len(nums) == 9 and 0 <= nums[8] < len(TOOLS) and 1 <= nums[7] <= 200:
            out.append(Stroke(nums[0], nums[1], nums[2], nums[3], (nums[4], nums[5], nums[6]),
                              nums[7], TOOLS[nums[8]]))
    return out


def Canvas(strokes: Sequence[Stroke], on_stroke: StrokeHandler, *, desc: str = "Canvas",
           id: str = "canvas", height: int = CANVAS_H, borderless: bool = False) -> Node:
    """A drawing surface: a ``drag`` across it calls ``on_stroke`` with the stroke's ends (a
    tap, a dot: both ends the same point, at the canvas's center as the device reports a
    tap's point only to ``on_click``). ``borderless``: no frame (a full-screen canvas)."""
    node = Node("canvas", text=encode_strokes(strokes), desc=desc, id=id, height=height,
                style="borderless" if borderless else "")
    node.on_stroke = on_stroke
    node.on_click = lambda: on_stroke(500, 500, 500, 500)
    return node


# --- drawing tools -----------------------------------------------------------------------------
SWATCH = 108


def Palette(colors: dict[str, RGB], selected: str, on_pick: Callable[[str], None], *,
            id: str = "palette") -> Node:
    """A row of colour swatches (ids ``color_<name>``, described ``Color <name>``; the
    ``selected`` one ringed); a tap calls ``on_pick(name)``."""
    if selected not in colors:
        raise ValueError(f"selected colour {selected!r} not in the palette: "
                         f"expected one of {', '.join(colors)}")
    swatches = []
    for name, rgb in colors.items():
        node = Icon("", f"Color {name}", partial(on_pick, name), id=f"color_{name.lower()}")
        node.style, node.color, node.selected = "swatch", rgb, name == selected
        swatches.append(node)
    return Row(swatches, id=id)


def _draw_swatch(p: Painter, k: Look) -> None:
    """A colour disc, ringed in the text colour when selected."""
    r = min(k.lw, k.lh) * 0.32
    cx, cy = k.lw / 2, k.lh / 2
    ring = on_color(k.bg, pal=k.pal)
    if k.selected:
        p.circle(cx, cy, r + 12, ring)
        p.circle(cx, cy, r + 6, k.bg)
    color = k.color or k.pal.text
    if luminance(color) > 235:  # a white swatch needs an edge on a light background
        p.circle(cx, cy, r, mix(color, ring, 0.3))
        p.circle(cx, cy, r - 3, color)
    else:
        p.circle(cx, cy, r, color)


DRAW["icon:swatch"] = _draw_swatch


# --- media players -----------------------------------------------------------------------------
def clock(seconds: int) -> str:
    """``seconds`` as a player shows them: ``m:ss``, or ``h:mm:ss`` from an hour."""
    if seconds < 0:
        raise ValueError(f"negative time {seconds}: expected seconds >= 0")
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def SeekBar(position: int, duration: int, on_seek: ValueHandler, *, id: str = "seek_bar",
            label: str = "Seek bar") -> Node:
    """A player's seek bar: a SeekBar (``Slider``) over ``0..duration`` seconds whose value
    is the playback ``position`` (a tap or drag on it calls ``on_seek(seconds)``), and the
    elapsed and total times under it (ids ``elapsed`` and ``duration``)."""
    if duration < 0:
        raise ValueError(f"duration {duration} is negative: expected seconds >= 0")
    position = max(0, min(position, duration))
    bar = Slider(label, position, 0, max(1, duration), on_seek, id=id)
    bar.style = "seek"
    times = Row([Text(clock(position), style="time", id="elapsed"),
                 Text(clock(duration), style="time_end", id="duration")], id="times")
    return Column([bar, times], id=f"{id}_block")


def _draw_seek(p: Painter, k: Look) -> None:
    """A thin seek track filled up to a small thumb."""
    lo, hi, value = k.extra if isinstance(k.extra, tuple) else (0, 1, 0)
    share = (value - lo) / (hi - lo) if hi > lo else 0.0
    x0, x1, cy = SLIDER_INSET, k.lw - SLIDER_INSET, k.lh / 2
    thumb = x0 + share * (x1 - x0)
    active = k.pal.primary if luminance(k.bg) >= 128 else (242, 243, 246)
    p.rect(x0, cy - 5, x1, cy + 5, mix(active, k.bg, 0.7), radius=5)
    p.rect(x0, cy - 5, thumb, cy + 5, active, radius=5)
    p.circle(thumb, cy, 20, active)


def _draw_time(p: Painter, k: Look) -> None:
    size = T.FONT["caption"]
    x = k.lw - 40 if k.style == "time_end" else 40
    p.text(x, k.lh / 2, k.text, size, on_color(k.bg, secondary=True),
           align="r" if k.style == "time_end" else "l")


DRAW["slider:seek"] = _draw_seek
DRAW["text:time"] = DRAW["text:time_end"] = _draw_time


def PlayerControls(playing: bool, on_toggle: Handler, *, on_previous: Handler | None = None,
                   on_next: Handler | None = None, id: str = "controls",
                   previous: tuple[str, str] = ("previous", "Previous"),
                   next: tuple[str, str] = ("next", "Next")) -> Node:
    """Previous, Play or Pause (a filled disc) and Next: icons ``previous``, ``play_pause``
    (described ``Pause`` while playing, else ``Play``) and ``next``; previous and next are
    disabled without a handler. ``previous`` and ``next`` give those icons' ``(id,
    description)`` (a frame step, say)."""
    prev = Icon("⏮", previous[1], on_previous, id=previous[0])
    prev.enabled = on_previous is not None
    play = Icon("⏸" if playing else "▶", "Pause" if playing else "Play", on_toggle,
                id="play_pause")
    play.style, play.height = "play", 168
    nxt = Icon("⏭", next[1], on_next, id=next[0])
    nxt.enabled = on_next is not None
    prev.style = nxt.style = "skip"
    return Row([prev, play, nxt], id=id)


def _draw_skip(p: Painter, k: Look) -> None:
    """Previous (⏮) or next (⏭): a triangle against a bar, drawn as vectors."""
    s = min(k.lw, k.lh) * 0.2
    cx, cy = k.lw / 2, k.lh / 2
    fg = on_color(k.bg, pal=k.pal) if k.enabled else k.pal.hint
    d = -1 if k.glyph == "⏮" else 1  # which way the triangle points
    tip, base = cx + d * s, cx - d * s
    p.d.polygon([(base * p.kx, (cy - s) * p.ky), (tip * p.kx, cy * p.ky),
                 (base * p.kx, (cy + s) * p.ky)], fill=fg)
    bar = tip + d * s * 0.1
    p.rect(min(bar, bar + d * s * 0.35), cy - s, max(bar, bar + d * s * 0.35), cy + s, fg)


def _draw_play(p: Painter, k: Look) -> None:
    """The main play or pause button: a disc in the accent colour with its glyph."""
    r = min(k.lw, k.lh) / 2 - 6
    cx, cy = k.lw / 2, k.lh / 2
    dark = luminance(k.bg) < 128
    fill = (242, 243, 246) if dark else k.pal.primary
    p.circle(cx, cy, r, fill)
    p.glyph(cx, cy, k.glyph, r * 1.2, k.bg if dark else k.pal.on_primary, fill, fallback=k.desc)


DRAW["icon:play"] = _draw_play
DRAW["icon:skip"] = _draw_skip


def MiniPlayer(title: str, artist: str, playing: bool, on_toggle: Handler, *,
               on_open: Handler | None = None, glyph: str = "♪",
               color: RGB | None = None, id: str = "mini_player", picture: str = "") -> Node:
    """The mini player docked above the bottom bar (``Screen(dock=...)``): the song's art
    (``picture``, a ``pictures.encode`` style, else ``glyph``), title and artist, and a Play
    or Pause icon (id ``mini_play_pause``); a tap on the row calls ``on_open`` (the full
    player)."""
    button = Icon("⏸" if playing else "▶", "Pause" if playing else "Play", on_toggle,
                  id="mini_play_pause")
    return ListItem(title, artist, id=id, glyph=glyph, color=color, on_click=on_open,
                    trailing=button, picture=picture)


#: The height of a player's cover art (a square as wide as the content, a little smaller).
COVER_H = 840


def CoverArt(picture: str, *, desc: str = "Album art", id: str = "album_art",
             height: int = COVER_H) -> Node:
    """A player's large cover art above its seek bar: ``picture`` (``pictures.encode``)
    drawn as a rounded square centred in a box ``height`` tall (an ImageView described
    ``desc``)."""
    if pictures.decode(picture) is None:
        raise ValueError(f"picture must be a pictures.encode style; got {picture!r}")
    return Node("picture", desc=desc, id=id, height=height, glyph=picture, style="art")


def _draw_art(p: Painter, k: Look) -> None:
    """The picture named by the glyph as a square with rounded corners, centred."""
    picture = pictures.decode(k.glyph)
    if picture is None:
        return
    side = min(k.lw, k.lh) - 16
    x0, y0 = round((k.lw - side) / 2 * p.kx), round((k.lh - side) / 2 * p.ky)
    w, h = round(side * p.kx), round(side * p.ky)
    if w <= 0 or h <= 0:  # a screenshot too small to show it
        return
    art = PilImage.fromarray(pictures.render(*picture, w, h))
    mask = PilImage.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=round(24 * p.kx),
                                           fill=255)
    p.img.paste(art, (x0, y0), mask)


DRAW["picture:art"] = _draw_art


# --- camera ------------------------------------------------------------------------------------
def PhotoPreview(picture: str, on_click: Handler | None, *, desc: str = "Photo preview",
                 id: str = "thumbnail") -> Node:
    """The round thumbnail of the last shot beside a camera's shutter (an ``ImageButton``
    described ``desc``): ``picture`` (``pictures.encode``) in a ringed disc, or an empty
    ring before the first shot ("")."""
    if picture and pictures.decode(picture) is None:
        raise ValueError(f"picture must be a pictures.encode style or ''; got {picture!r}")
    node = Icon(picture, desc, on_click, id=id)
    node.style, node.enabled = "preview", on_click is not None
    return node


def _draw_preview(p: Painter, k: Look) -> None:
    """A disc showing the picture named by the glyph (``PhotoPreview``) in a white ring."""
    r = min(k.lw, k.lh) * 0.36
    cx, cy = k.lw / 2, k.lh / 2
    p.circle(cx, cy, r + 5, (242, 243, 246))
    picture = pictures.decode(k.glyph)
    if picture is None:
        p.circle(cx, cy, r, k.bg)
        return
    x0, y0 = round((cx - r) * p.kx), round((cy - r) * p.ky)
    w, h = round((cx + r) * p.kx) - x0, round((cy + r) * p.ky) - y0
    if w <= 0 or h <= 0:  # a screenshot too small to show it
        return
    art = PilImage.fromarray(pictures.render(*picture, w, h))
    mask = PilImage.new("L", (w, h), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, w - 1, h - 1), fill=255)
    p.img.paste(art, (x0, y0), mask)


DRAW["icon:preview"] = _draw_preview


#: A horizontal drag across a viewfinder at least this long (in 0..1000 of its width)
#: switches modes, as the Pixel Camera's swipe does.
SWIPE_MIN = 150


def Viewfinder(picture: str, *, desc: str = "Viewfinder", id: str = "viewfinder",
               height: int = 1440, on_swipe: Callable[[int], None] | None = None,
               overlays: Sequence[Node] = ()) -> Node:
    """A camera's live preview, edge to edge (a ``TextureView`` described ``desc``):
    ``picture`` (``pictures.encode``) fills it; ``overlays`` float over it at their ``at``
    boxes (0..1000 of the viewfinder). A horizontal drag calls ``on_swipe(+1)`` (towards
    the left: the next mode) or ``on_swipe(-1)``; a tap (to focus) changes nothing."""
    if pictures.decode(picture) is None:
        raise ValueError(f"picture must be a pictures.encode style; got {picture!r}")
    for child in overlays:
        if child.at is None:
            raise ValueError(f"overlay {child.id or child.kind!r} has no box: set its `at` "
                             "(x0, y0, x1, y1 in 0..1000 of the viewfinder)")
    node = Node("viewfinder", desc=desc, id=id, height=height, style=picture,
                children=list(overlays))

    def stroke(x0: int, y0: int, x1: int, y1: int) -> None:
        if on_swipe is not None and abs(x1 - x0) >= SWIPE_MIN and abs(x1 - x0) > abs(y1 - y0):
            on_swipe(1 if x1 < x0 else -1)

    node.on_stroke = stroke
    return node


def _draw_viewfinder(p: Painter, k: Look) -> None:
    """The picture named by the style, filling the box."""
    picture = pictures.decode(k.style)
    if picture is not None:
        pictures.paint(p, (0, 0, k.lw, k.lh), *picture)


DRAW["viewfinder"] = _draw_viewfinder

#: The share of the width each mode label of a ``ModeSwitcher`` takes.
MODE_W = 0.2


def ModeSwitcher(modes: Sequence[str], selected: str, on_select: Callable[[str], None], *,
                 id: str = "mode_switcher", enabled: bool = True) -> Node:
    """The Pixel Camera's mode switcher: the modes as a centred row of text labels (tabs
    ``tab_<mode>``, as ``Tabs`` names them), the ``selected`` one white in a pill, the
    others grey; a tap calls ``on_select(mode)``. Disabled while recording."""
    if selected not in modes:
        raise ValueError(f"selected mode {selected!r}; accepted: {', '.join(modes)}")
    tabs = []
    for mode in modes:
        tab = Node("tab", text=mode, selected=mode == selected, on_click=partial(on_select, mode),
                   id=f"tab_{slug(mode)}", style="mode", weight=MODE_W, enabled=enabled)
        tabs.append(tab)
    side = max(0.0, (1 - MODE_W * len(modes)) / 2)
    left, right = Spacer(1), Spacer(1)
    left.weight = right.weight = side
    return Row([left, *tabs, right] if side else tabs, id=id)


def _draw_mode(p: Painter, k: Look) -> None:
    """A mode label: white in a grey pill when selected, else light grey."""
    size = T.FONT["caption"]
    cx, cy = k.lw / 2, k.lh / 2
    label = p.fit(k.text, size, k.lw - 24)
    if k.selected:
        w = min(k.lw - 8, p.width(label, size) + 64)
        p.rect(cx - w / 2, cy - 40, cx + w / 2, cy + 40, (60, 62, 66), radius=40)
    fg = (255, 255, 255) if k.selected else (196, 199, 204)
    p.text(cx, cy, label, size, fg, align="m", bold=k.selected,
           bg=(60, 62, 66) if k.selected else k.bg)


DRAW["tab:mode"] = _draw_mode

#: A shutter's states (its glyph): a white disc, a red disc, a red square (recording).
SHUTTER_STATES = ("photo", "video", "recording")
SHUTTER_H = 300


def Shutter(state: str, label: str, on_press: Handler, *, id: str = "shutter_button") -> Node:
    """The round shutter button: a white disc in a white ring for a photo, a red disc for a
    video, a small red square while recording (``state``, one of ``SHUTTER_STATES``). A
    ``Button`` whose text is ``label`` ("Take photo", "Stop recording")."""
    if state not in SHUTTER_STATES:
        raise ValueError(f"shutter state {state!r}; accepted: {', '.join(SHUTTER_STATES)}")
    return Node("button", text=label, on_click=on_press, id=id, style="shutter", glyph=state,
                height=SHUTTER_H)


RECORD_RED: RGB = (234, 67, 53)


def _draw_shutter(p: Painter, k: Look) -> None:
    """A ringed disc (white or red), or a red rounded square inside the ring."""
    r = min(k.lw, k.lh) * 0.36
    cx, cy = k.lw / 2, k.lh / 2
    p.circle(cx, cy, r, (250, 250, 250))
    p.circle(cx, cy, r - 10, k.bg)
    if k.glyph == "recording":
        s = r * 0.42
        p.rect(cx - s, cy - s, cx + s, cy + s, RECORD_RED, radius=14)
    else:
        p.circle(cx, cy, r - 20, RECORD_RED if k.glyph == "video" else (250, 250, 250))


DRAW["button:shutter"] = _draw_shutter


def _draw_rec(p: Painter, k: Look) -> None:
    """A recording's time (text style ``rec``, "● REC 0:05"): a red dot, then the rest in
    white, centred."""
    rest = k.text.lstrip("●").strip()
    size = T.FONT["body"]
    w = p.width(rest, size) + 44
    x0, cy = (k.lw - w) / 2, k.lh / 2
    p.circle(x0 + 12, cy, 12, RECORD_RED)
    p.text(x0 + 44, cy, rest, size, (250, 250, 250), bg=k.bg)


DRAW["text:rec"] = _draw_rec


def RoundIcon(glyph: str, desc: str, on_click: Handler | None, *, id: str = "") -> Node:
    """An icon on a dark grey disc (a camera's switch-camera button)."""
    node = Icon(glyph, desc, on_click, id=id)
    node.style = "round"
    return node


def _draw_round_icon(p: Painter, k: Look) -> None:
    r = min(k.lw, k.lh) * 0.36
    fill = (48, 50, 54)
    p.circle(k.lw / 2, k.lh / 2, r, fill)
    p.glyph(k.lw / 2, k.lh / 2, k.glyph, r * 1.6, (250, 250, 250), fill, fallback=k.desc)


DRAW["icon:round"] = _draw_round_icon


# --- recorders ---------------------------------------------------------------------------------
#: Round buttons' styles: a big disc in the accent colour (a recorder's record button) or a
#: small dark one (stop, delete beside it).
ROUND_STYLES = ("big", "small")
#: A round button's box (the disc is drawn smaller inside it).
ROUND_H = 264


def RoundButton(label: str, glyph: str, on_click: Handler, *, id: str, size: str = "small",
                enabled: bool = True) -> Node:
    """A round button showing the Material icon ``glyph``: ``size`` ``big`` is a disc in the
    app's accent (Audio Recorder's record button), ``small`` a dark grey one. A ``Button``
    whose text is ``label`` (what the accessibility tree reads)."""
    if size not in ROUND_STYLES:
        raise ValueError(f"round button size {size!r}; accepted: {', '.join(ROUND_STYLES)}")
    return Node("button", text=label, on_click=on_click, id=id, style=f"round_{size}",
                glyph=glyph, height=ROUND_H, enabled=enabled)


def _draw_round(p: Painter, k: Look) -> None:
    """A disc with the icon in white: big in the accent colour, small in a dark grey."""
    big = k.style == "round_big"
    r = min(k.lw, k.lh) * (0.42 if big else 0.26)
    fill = k.pal.primary if big else mix(k.bg, (255, 255, 255), 0.16)
    if not k.enabled:
        fill = mix(fill, k.bg, 0.6)
    cx, cy = k.lw / 2, k.lh / 2
    p.circle(cx, cy, r, fill)
    p.glyph(cx, cy, k.glyph, r * (1.2 if big else 1.4), (250, 250, 250), fill,
            fallback=k.text)


DRAW["button:round_big"] = DRAW["button:round_small"] = _draw_round

#: Waveform bars per second of sound, and how many bars a full-width waveform shows.
BARS_PER_S, WAVE_BARS = 4, 60
WAVE_H = 560


def Waveform(seed: int, seconds: int, *, live: bool, id: str = "waveform",
             height: int = WAVE_H) -> Node:
    """A recording's waveform (an ImageView described "Waveform"): ``BARS_PER_S`` bars a
    second of ``seconds``, their heights seeded by ``seed``, the newest at the centre line
    (drawn in the accent while ``live``); a flat line before any sound."""
    if seconds < 0:
        raise ValueError(f"seconds {seconds} is negative: expected >= 0")
    return Node("picture", desc="Waveform", id=id, height=height, style="wave",
                glyph=f"{seed}:{seconds}:{int(live)}")


def wave_levels(seed: int, n: int) -> list[float]:
    """``n`` bar heights in 0.08..1, deterministic in ``seed`` (speech-like: loud and quiet
    runs)."""
    out, level = [], 0.5
    for i in range(n):
        h = (seed * 2654435761 + i * 40503) & 0xFFFFFFFF
        h = ((h ^ (h >> 15)) * 2246822519) & 0xFFFFFFFF
        level = 0.6 * level + 0.4 * ((h >> 8) % 1000) / 1000
        out.append(max(0.08, min(1.0, level * (1.4 if (i // 9) % 3 else 0.5))))
    return out


def _draw_wave(p: Painter, k: Look) -> None:
    """Bars around a midline up to the centre, the centre line across the height."""
    try:
        seed, seconds, live = (int(v) for v in k.glyph.split(":"))
    except ValueError:
        return
    cx, cy = k.lw / 2, k.lh / 2
    muted = on_color(k.bg, secondary=True, pal=k.pal)
    p.hline(0, k.lw, cy + 1, 2, mix(muted, k.bg, 0.5))
    n = seconds * BARS_PER_S
    pitch = k.lw / WAVE_BARS
    levels = wave_levels(seed, n)
    for j, level in enumerate(levels[-(WAVE_BARS // 2):][::-1]):  # newest at the centre
        x = cx - (j + 0.5) * pitch
        half = level * (k.lh / 2 - 24)
        p.rect(x - pitch * 0.3, cy - half, x + pitch * 0.3, cy + half,
               k.pal.primary if live else muted, radius=pitch * 0.3)
    p.rect(cx - 2, 8, cx + 2, k.lh - 8, k.pal.primary if live else muted)


DRAW["picture:wave"] = _draw_wave


def _draw_timer(p: Painter, k: Look) -> None:
    """A recorder's elapsed time (text style ``timer``): big, centred."""
    p.text(k.lw / 2, k.lh / 2, k.text, T.FONT["big"], on_color(k.bg, pal=k.pal), align="m",
           bg=k.bg)


DRAW["text:timer"] = _draw_timer


# --- album covers ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cover:
    """An album of a cover grid: its name and count (drawn over the bottom of its cover),
    its cover ``picture`` (``pictures.encode``), an id and a long-press ``menu``."""

    label: str
    count: str
    picture: str
    id: str = ""
    menu: tuple[MenuItem, ...] = ()


def CoverGrid(covers: Sequence[Cover], on_open: Callable[[int], None], *, columns: int = 2,
              id: str = "albums", empty_text: str = "Nothing here",
              width: int = T.SCREEN_W - 2 * T.PAD) -> Node:
    """Albums as a grid of square cover photos, ``columns`` to a row, each cover's name and
    count in white over its bottom (Simple Gallery's folder grid): cells are ImageViews
    (kind ``thumb``, text the name, hint the count; ids ``<id>_<i>`` unless the cover has
    one), built only where they show; a tap calls ``on_open(i)``, a long press opens the
    cover's ``menu``."""
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"columns must be an int >= 1; got {columns!r}")
    for cover in covers:
        if pictures.decode(cover.picture) is None:
            raise ValueError(f"cover {cover.label!r}: picture must be a pictures.encode "
                             f"style; got {cover.picture!r}")
    size = width // columns

    def cell(i: int) -> Node:
        cover = covers[i]
        node = Node("thumb", text=cover.label, hint=cover.count, glyph=cover.picture,
                    style="cover", id=cover.id or f"{id}_{i}", height=size,
                    menu=list(cover.menu) or None)
        node.on_click = partial(on_open, i)
        return node

    def row(r: int) -> Node:
        cells = [cell(i) for i in range(r * columns, min(len(covers), (r + 1) * columns))]
        cells += [Spacer(size) for _ in range(columns - len(cells))]
        return Row(cells)

    rows = (len(covers) + columns - 1) // columns
    return VirtualList(rows, row, id=id, row_height=size, empty_text=empty_text)


def _draw_cover(p: Painter, k: Look) -> None:
    """A cover photo filling the cell (a thin gap around it), darkened towards its bottom,
    with the album's name and count in white over it."""
    m = 3
    x0, y0, x1, y1 = m, m, k.lw - m, k.lh - m
    picture = pictures.decode(k.glyph)
    if picture is not None:
        pictures.paint(p, (x0, y0, x1, y1), *picture)
    else:
        p.rect(x0, y0, x1, y1, k.pal.hint)
    shade = (y1 - y0) * 0.34
    steps = 24
    blend = ImageDraw.Draw(p.img, "RGBA")
    for i in range(steps):  # a scrim so that white text reads on any photo
        top = y1 - shade + i * shade / steps
        blend.rectangle((x0 * p.kx, top * p.ky, x1 * p.kx, (top + shade / steps) * p.ky),
                        fill=(0, 0, 0, int(190 * (i + 1) / steps)))
    white = (250, 250, 250)
    p.text(x0 + 28, y1 - 96, k.text, T.FONT["body"], white, max_w=x1 - x0 - 56)
    if k.hint:
        p.text(x0 + 28, y1 - 40, k.hint, T.FONT["caption"], white, max_w=x1 - x0 - 56)


DRAW["thumb:cover"] = _draw_cover
