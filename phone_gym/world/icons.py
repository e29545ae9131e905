"""Material icons: Google's Material Icons font, by icon name, drawn at a size and colour.

The font (``fonts/MaterialIcons-Regular.ttf``, Apache-2.0) and its name-to-code-point map
(``fonts/MaterialIcons.codepoints``) ship with the package; ``scripts/build_fonts.py`` makes
them from Debian's ``fonts-material-design-icons-iconfont``. Widgets name icons as Material
does ("search", "more_vert", "arrow_back"); the symbols apps used before (``glyphs.SYMBOLS``
and emoji: "🔍", "⋮", "←") map to the Material icon a real app shows there (``LEGACY``);
the navigation bar's ◀ ● ■ and the radio dots ● ○ stay vector shapes, as Android draws them.

An icon is a mask rasterized once per (name, size) (``icon_mask``, LRU) and stamped in a
colour, so tiles that show it are as cheap as text tiles.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .glyphs import FONT_DIR, RGB, VARIATION_SELECTORS, check_font_path

ICON_FONT = FONT_DIR / "MaterialIcons-Regular.ttf"
CODEPOINTS = FONT_DIR / "MaterialIcons.codepoints"

#: The Material icon drawn for each symbol or emoji apps name as a glyph.
LEGACY: dict[str, str] = {
    **dict.fromkeys("⏴◂", "arrow_left"), **dict.fromkeys("▶⏵▸", "play_arrow"),
    **dict.fromkeys("▲⏶", "arrow_drop_up"), **dict.fromkeys("▼⏷", "arrow_drop_down"),
    "◉": "radio_button_checked", **dict.fromkeys("◼⏹", "stop"),
    **dict.fromkeys("□◻", "check_box_outline_blank"),
    **dict.fromkeys("<‹❮〈", "chevron_left"), **dict.fromkeys(">›❯〉", "chevron_right"),
    **dict.fromkeys("←⬅🡐", "arrow_back"), **dict.fromkeys("→➡🡒", "arrow_forward"),
    **dict.fromkeys("↑⬆", "arrow_upward"), "↓": "arrow_downward",
    **dict.fromkeys("⬇📥⤓", "download"),
    **dict.fromkeys("+＋➕", "add"), **dict.fromkeys("−➖", "remove"),
    **dict.fromkeys("×✕✖✗✘❌", "close"), **dict.fromkeys("✓✔", "check"),
    **dict.fromkeys("☑✅", "check_box"), **dict.fromkeys("⋮︙", "more_vert"),
    **dict.fromkeys("⋯…", "more_horiz"), "···": "more_horiz", "☰": "menu", "≡": "list",
    **dict.fromkeys("✎✏🖉🖊✐", "edit"), "📝": "edit_note", "🗑": "delete",
    **dict.fromkeys("🔍🔎⌕", "search"), **dict.fromkeys("★⭐🌟", "star"), "☆": "star_border",
    **dict.fromkeys("♥❤💙💚", "favorite"), "♡": "favorite_border",
    **dict.fromkeys("⚙⛭", "settings"), **dict.fromkeys("↵⏎⮐", "keyboard_return"),
    "↩": "undo", **dict.fromkeys("↻⟳🔄", "refresh"), **dict.fromkeys("↺⟲", "replay"),
    **dict.fromkeys("✉📧", "email"), **dict.fromkeys("📨📩", "mail"),
    **dict.fromkeys("⌂🏠🏡", "home"), **dict.fromkeys("👤🧑👩👨☺", "person"), "👥": "group",
    "⏸": "pause", **dict.fromkeys("📷📸", "photo_camera"),
    **dict.fromkeys("📅📆🗓", "calendar_month"), "⏰": "alarm",
    **dict.fromkeys("🕒🕐🕓", "schedule"), "⏱": "timer", "⌚": "watch",
    **dict.fromkeys("🔒🔐", "lock"), **dict.fromkeys("📁🗀", "folder"), "📂": "folder_open",
    **dict.fromkeys("💬🗨🗩", "chat_bubble"), **dict.fromkeys("♪🎵", "music_note"),
    **dict.fromkeys("♫🎶", "queue_music"), **dict.fromkeys("☀🔆☼", "wb_sunny"),
    **dict.fromkeys("✈🛪", "flight"), **dict.fromkeys("📞☎✆", "call"), "📱": "smartphone",
    "🔔": "notifications", "🔕": "notifications_off", **dict.fromkeys("↗⤴", "open_in_new"),
    "🔗": "link", **dict.fromkeys("📌", "push_pin"), "📍": "place",
    **dict.fromkeys("⌖⌾", "my_location"), "📶": "signal_cellular_alt", "🛜": "wifi",
    **dict.fromkeys("ᛒ🄱", "bluetooth"), "🔋": "battery_full",
    **dict.fromkeys("📄🗎📃", "description"), **dict.fromkeys("ℹⓘ", "info"),
    "🚗": "directions_car", "🛒": "shopping_cart", "🔖": "bookmark", "💾": "save",
    "📎": "attach_file", "🎙": "mic", "◎": "album", "▤": "article", "▣": "collections",
    "#": "tag", "⊙": "adjust", "⏺": "fiber_manual_record", "⚡": "bolt",
    "✦": "auto_awesome",
}


@lru_cache(maxsize=1)
def codepoints() -> dict[str, int]:
    """Every icon name the shipped font draws, and its code point."""
    out: dict[str, int] = {}
    for line in CODEPOINTS.read_text().splitlines():
        name, code = line.split()
        out[name] = int(code, 16)
    return out


def icon_glyph(name: str) -> str:
    """The character of Material icon ``name`` in the icon font; a ``ValueError`` naming the
    closest names for an unknown one."""
    code = codepoints().get(name)
    if code is None:
        close = difflib.get_close_matches(name, codepoints(), n=5, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise ValueError(f"unknown Material icon {name!r}; {hint}accepted: one of the "
                         f"{len(codepoints())} names in {CODEPOINTS.name}")
    return chr(code)


def is_icon(name: str) -> bool:
    """Whether ``name`` is a Material icon name."""
    return name in codepoints()


def material_name(glyph: str) -> str | None:
    """The Material icon a widget's ``glyph`` shows: a Material name as it is, a legacy
    symbol or emoji as ``LEGACY`` maps it; None for other text (a letter, a word)."""
    glyph = glyph.strip()
    if glyph in codepoints():
        return glyph
    name = LEGACY.get(glyph)
    if name is None and not glyph.isascii():
        name = LEGACY.get(glyph.translate(VARIATION_SELECTORS))
    return name


@lru_cache(maxsize=16)
def icon_font(px: int) -> ImageFont.FreeTypeFont:
    """The icon font at ``px`` pixels (an icon is ``px`` square)."""
    return ImageFont.truetype(check_font_path(str(ICON_FONT)), max(1, px),
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def icon_mask(name: str, px: int) -> Image.Image:
    """Icon ``name`` as a ``px``-square alpha mask (its design box: the 24-unit grid)."""
    if px < 1:
        raise ValueError(f"icon size {px}; accepted: a whole number of pixels, 1 or more")
    f = icon_font(px)
    ch = icon_glyph(name)
    mask = Image.new("L", (px, px), 0)
    ascent, _ = f.getmetrics()  # the font's ascent is its em: the icon's box sits on the baseline
    ImageDraw.Draw(mask).text((0, ascent), ch, fill=255, font=f, anchor="ls")
    return mask


def draw_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, px: int, name: str,
              color: RGB | tuple[int, ...]) -> None:
    """Stamp icon ``name``, ``px`` pixels square, centered on ``(cx, cy)`` in ``color``."""
    mask = icon_mask(name, px)
    d.bitmap((round(cx - px / 2), round(cy - px / 2)), mask, fill=color)


def icon_image(name: str, px: int, color: RGB, bg: RGB) -> Image.Image:
    """Icon ``name`` on a ``bg`` square of ``px`` pixels (for previews and tests)."""
    img = Image.new("RGB", (px, px), bg)
    draw_icon(ImageDraw.Draw(img), px / 2, px / 2, px, name, color)
    return img
