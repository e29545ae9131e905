"""Sizes (logical pixels on a 1080 x 2400 screen) and colors shared by layout and rendering."""

from __future__ import annotations

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
KEYBOARD_BG = (214, 218, 224)
KEY_BG = (255, 255, 255)
FOCUS = PRIMARY
SCRIM = 0.45
LAUNCHER_BG = (44, 62, 96)
TOAST_BG = (50, 50, 54)
TOAST_FG = (250, 250, 250)
SELECTED_BG = (222, 234, 252)

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
