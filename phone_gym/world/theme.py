"""Sizes (logical pixels on a 1080 x 2400 screen) and colors shared by layout and rendering."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

SCREEN_W = 1080
SCREEN_H = 2400

STATUS_H = 90
NAV_H = 132
TOP_BAR_H = 168
TAB_BAR_H = 180
KEYBOARD_H = 840
PAD = 48
FAB_SIZE = 168
ICON_SIZE = 132
DRAWER_W = SCREEN_W - 147  # a navigation drawer: Material's screen width - 56 dp
DIAL_W = 760  # an open speed dial: its mini-FABs and their labels, from the right edge

#: Preferred heights per widget kind (and text style) when a node gives none.
HEIGHTS: dict[str, int] = {
    "text:title": 132,
    "text:body": 96,
    "text:caption": 84,
    "text:big": 280,
    "button": 156,
    "text_field": 184,
    "toggle": 156,
    "checkbox": 156,
    "list_item": 196,
    "list_item:single": 152,
    "icon": ICON_SIZE,
    "row": 156,
    "spacer": 40,
    "app_icon": 300,
    "tab": 132,
    "radio": 156,
    "chip": 120,  # one line of chips (the pill and the gap below it)
    "text:link": 96,
    "text:error": 72,
}

#: Font sizes (logical pixels) per text role.
FONT: dict[str, int] = {
    "title": 56,
    "body": 44,
    "caption": 36,
    "big": 150,
    "button": 44,
    "small": 32,
    "key": 48,
    "top_bar": 58,
    "status": 36,
    "link": 44,
    "error": 34,
    "chip": 40,
}

# screen kit widgets (``phone_gym.world.kit``)
CARD_PAD = 36  # inside a card's edge
CHIP_PAD = 36  # left and right of a chip's label
CHIP_GAP = 24  # between chips on a line
CHIP_CHECK = 52  # room for the check mark of a selected chip
BUBBLE_SHARE = 0.78  # a chat bubble's widest share of the thread's width
BUBBLE_PAD = 32  # inside a bubble's edge
BUBBLE_GAP = 20  # below each bubble
BUBBLE_LINE = 48  # the sender line (incoming) and the time line of a bubble
THUMB_LABEL = 64  # the label strip under a thumbnail

#: Average glyph width as a share of the font size, used to wrap text the same way in
#: layout and rendering.
CHAR_W = 0.56

BG = (250, 250, 252)
SURFACE = (255, 255, 255)
TEXT = (28, 28, 32)
TEXT_2 = (96, 98, 106)
HINT = (150, 152, 160)
PRIMARY = (26, 115, 232)
PRIMARY_TEXT = (255, 255, 255)
DANGER = (200, 40, 40)
DIVIDER = (224, 226, 230)
TOP_BAR_BG = (240, 244, 250)
STATUS_BG = (30, 30, 36)
STATUS_FG = (240, 240, 240)
NAV_BG = (20, 20, 24)
NAV_FG = (230, 230, 230)
KEYBOARD_BG = (232, 234, 237)
KEY_BG = (255, 255, 255)
KEYBOARD_STRIP_H = 120  # Gboard's toolbar strip above the keys
FOCUS = PRIMARY
SCRIM = 0.45
LAUNCHER_BG = (44, 62, 96)
TOAST_BG = (50, 50, 54)
TOAST_FG = (250, 250, 250)
SELECTED_BG = (222, 234, 252)

RGB = tuple[int, int, int]


def _check_rgb(owner: str, name: str, value: object) -> None:
    if not (isinstance(value, tuple) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255
                    for c in value)):
        raise ValueError(f"{owner}: {name} {value!r} is not an (r, g, b) of ints in 0..255")


def luminance(color: RGB) -> float:
    """Perceived brightness 0..255 (the renderer's light/dark test)."""
    return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]


def relative_luminance(color: RGB) -> float:
    """WCAG 2.1 relative luminance of an sRGB color."""
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2.1 contrast ratio of two colors (1..21; 4.5 is the minimum for body text)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved towards ``b`` by ``t``."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


TITLE_ALIGNS = ("left", "center")


@dataclass(frozen=True)
class Palette:
    """The colors (and the few drawing choices) an app's screens are drawn with: a part of
    every tile's cache key, so an app's look never reuses another's tiles.

    ``bg`` is the screen, ``surface`` cards, dialogs and sheets; ``primary`` the accent
    (buttons, switches, FAB, selection) with ``on_primary`` on it; ``text`` / ``text_2`` body
    and secondary text; ``top_bar_bg`` / ``top_bar_fg`` the app bar; ``status_bg`` /
    ``status_fg`` the status bar's tint; ``nav_bg`` the navigation bar. ``title_align``
    (left/center), ``bar_divider`` (a line under the app bar) and ``row_dividers`` (lines
    between list rows) are the top bar's and the rows' anatomy.
    """

    bg: RGB = (250, 250, 252)
    surface: RGB = (255, 255, 255)
    primary: RGB = (26, 115, 232)
    on_primary: RGB = (255, 255, 255)
    text: RGB = (28, 28, 32)
    text_2: RGB = (96, 98, 106)
    hint: RGB = (150, 152, 160)
    divider: RGB = (224, 226, 230)
    selected: RGB = (222, 234, 252)
    field_bg: RGB = (236, 239, 245)
    bubble_in: RGB = (233, 236, 242)
    top_bar_bg: RGB = (240, 244, 250)
    top_bar_fg: RGB = (28, 28, 32)
    status_bg: RGB = (30, 30, 36)
    status_fg: RGB = (240, 240, 240)
    nav_bg: RGB = (20, 20, 24)
    title_align: str = "left"
    bar_divider: bool = True
    row_dividers: bool = True
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.type == "RGB":
                _check_rgb("palette", f.name, getattr(self, f.name))
        if self.title_align not in TITLE_ALIGNS:
            raise ValueError(f"palette: title_align {self.title_align!r}; accepted: "
                             f"{', '.join(TITLE_ALIGNS)}")
        key = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:  # cached: the palette is hashed with every tile key
        return self._hash

    @property
    def dark(self) -> bool:
        """Whether the screen background is dark."""
        return luminance(self.bg) < 128


#: Today's house style: the look of an app that declares none, and of the system's screens
#: (launcher, shade, recents, keyboard).
DEFAULT_PALETTE = Palette()


def make_palette(primary: RGB, *, dark: bool = False, bg: RGB | None = None,
                 surface: RGB | None = None, bar: str | RGB = "surface",
                 bar_fg: RGB | None = None, status: RGB | None = None,
                 nav: RGB | None = None, text: RGB | None = None,
                 on_primary: RGB | None = None, title_align: str = "left",
                 bar_divider: bool = False, row_dividers: bool = True) -> Palette:
    """A full palette from an app's few brand colors.

    ``bar`` is ``"surface"`` (the app bar is the screen's color), ``"colored"`` (the primary
    color) or an explicit (r, g, b); the status bar defaults to a darker shade of the app bar
    (Material's ``colorPrimaryDark``) and the navigation bar to black on dark palettes and
    the screen's color on light ones. Everything else derives from ``dark`` and the colors.
    """
    _check_rgb("make_palette", "primary", primary)
    if dark:
        bg = bg or (18, 18, 20)
        surface = surface or mix(bg, (255, 255, 255), 0.07)
        text = text or (236, 237, 240)
        text_2 = mix(text, bg, 0.3)
        hint = mix(text, bg, 0.5)
        divider = mix(bg, (255, 255, 255), 0.14)
        selected = mix(bg, primary, 0.3)
        fld = mix(bg, (255, 255, 255), 0.1)
        bubble_in = mix(bg, (255, 255, 255), 0.16)
    else:
        bg = bg or (255, 255, 255)
        surface = surface or (255, 255, 255)
        text = text or (28, 28, 32)
        text_2 = mix(text, bg, 0.4)
        hint = mix(text, bg, 0.6)
        divider = mix(bg, (0, 0, 0), 0.11)
        selected = mix(bg, primary, 0.16)
        fld = mix(bg, (0, 0, 0), 0.06)
        bubble_in = mix(bg, (0, 0, 0), 0.08)
    if bar == "surface":
        bar_bg = bg
    elif bar == "colored":
        bar_bg = primary
    elif isinstance(bar, tuple):
        _check_rgb("make_palette", "bar", bar)
        bar_bg = bar
    else:
        raise ValueError(f"make_palette: bar {bar!r}; accepted: 'surface', 'colored' or an "
                         "(r, g, b)")
    if on_primary is None:  # white as on most real apps' accents, unless it is unreadable
        on_primary = (255, 255, 255) if contrast(primary, (255, 255, 255)) >= 2.5 else (
            20, 20, 24)
    if bar_fg is None:
        bar_fg = text if bar_bg == bg else (
            (255, 255, 255) if luminance(bar_bg) < 170 else (20, 20, 24))
    status_bg = status or (bar_bg if bar == "surface" else mix(bar_bg, (0, 0, 0), 0.2))
    status_fg = (250, 250, 250) if luminance(status_bg) < 150 else (28, 28, 32)
    nav_bg = nav or ((0, 0, 0) if dark else bg)
    return Palette(bg=bg, surface=surface, primary=primary, on_primary=on_primary, text=text,
                   text_2=text_2, hint=hint, divider=divider, selected=selected, field_bg=fld,
                   bubble_in=bubble_in, top_bar_bg=bar_bg, top_bar_fg=bar_fg,
                   status_bg=status_bg, status_fg=status_fg, nav_bg=nav_bg,
                   title_align=title_align, bar_divider=bar_divider, row_dividers=row_dividers)


@dataclass(frozen=True)
class KeyboardColors:
    """Gboard's colors in one theme: the board, letter keys, function keys (shift, delete,
    ?123), the enter key, the key labels and the toolbar strip's icons."""

    board: RGB
    key: RGB
    function: RGB
    enter: RGB
    on_enter: RGB
    label: RGB
    strip_icon: RGB


#: Gboard's default theme, light and dark (``"dark"``: Android's dark theme is on); Google's
#: grey ramp (Grey 200 board, Grey 800/700 keys in dark) and its blue accent.
KEYBOARD_THEMES: dict[str, KeyboardColors] = {
    "": KeyboardColors(board=KEYBOARD_BG, key=KEY_BG, function=(204, 208, 214),
                       enter=(26, 115, 232), on_enter=(255, 255, 255), label=(32, 33, 36),
                       strip_icon=(95, 99, 104)),
    "dark": KeyboardColors(board=(32, 33, 36), key=(60, 64, 67), function=(95, 99, 104),
                           enter=(138, 180, 248), on_enter=(32, 33, 36),
                           label=(232, 234, 237), strip_icon=(189, 193, 198)),
}


def keyboard_colors(style: str) -> KeyboardColors:
    """The keyboard's colors for a keyboard or key node's ``style`` ("" or "dark")."""
    colors = KEYBOARD_THEMES.get(style)
    if colors is None:
        raise ValueError(f"keyboard style {style!r}; accepted: "
                         f"{', '.join(repr(s) for s in KEYBOARD_THEMES)}")
    return colors


#: Icon colors for apps, by app name (fallback: PRIMARY).
APP_COLORS: dict[str, tuple[int, int, int]] = {}


def wrap_text(text: str, width: int, font_px: int) -> list[str]:
    """Greedy word wrap of ``text`` into lines of at most ``width`` logical pixels."""
    per_line = max(1, int(width / (font_px * CHAR_W)))
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > per_line:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:per_line])
                word = word[per_line:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= per_line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
