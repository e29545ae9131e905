"""The soft keyboard shown while a text field has focus, modelled on Gboard (Google's
keyboard, Android 14): a toolbar strip above four rows of rounded keys on a grey board, the
function keys (shift, delete, ?123, enter) drawn with Material icons, light or dark with
Android's dark theme. On a zh-CN phone it is Gboard's 拼音 (Pinyin QWERTY) layout: the
space bar names it, and the keys beside it type the full-width ，and 。 (what the ``type``
action types is unchanged: it commits text, as ADBKeyboard does on a real phone)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .theme import keyboard_colors
from .widgets import Node

LETTERS = ("qwertyuiop", "asdfghjkl", ["⇧", *"zxcvbnm", "⌫"], ["?123", ",", "space", ".", "↵"])
SYMBOLS = ("1234567890", "@#$_&-+()/", ["=", *"*\"':;!?", "⌫"], ["ABC", ",", "space", ".", "↵"])
WIDE = {"space": 4.0, "⇧": 1.5, "⌫": 1.5, "?123": 1.5, "ABC": 1.5, "↵": 1.5}
#: Gboard's 拼音 layout's bottom row (zh-CN): full-width punctuation beside the space bar.
PINYIN_BOTTOM = ["?123", "，", "space", "。", "↵"]
#: The space bar's label in the 拼音 layout (the layout's name, as Gboard shows it).
PINYIN_SPACE = "拼音"
KEY_IDS = {"⇧": "key_shift", "⌫": "key_delete", "space": "key_space", "↵": "key_enter",
           "?123": "key_symbols", "ABC": "key_letters", ",": "key_comma", ".": "key_period",
           "，": "key_comma", "。": "key_period"}
#: Keys drawn on Gboard's darker function-key fill (the enter key has the accent).
FUNCTION_KEYS = frozenset({"⇧", "⌫", "?123", "ABC", "="})
#: The Material icon each function key shows, as Gboard draws it (by the key's label).
KEY_ICONS = {"⇧": "arrow_upward", "⌫": "backspace", "↵": "keyboard_return"}
#: Gboard's toolbar strip, left to right (drawn, not keys: apps menu, stickers and emoji,
#: GIFs, clipboard, settings, themes), and the voice-typing mic at its right end.
STRIP_ICONS = ("grid_view", "sentiment_satisfied_alt", "gif_box", "content_paste", "settings",
               "palette")
STRIP_MIC = "mic_none"


def keyboard_node(on_key: Callable[[str], None], *, shift: bool = False,
                  symbols: bool = False, dark: bool = False, pinyin: bool = False) -> Node:
    """Rows of ``key`` nodes; tapping one calls ``on_key(label)``. ``dark`` draws Gboard's
    dark theme (the nodes' ``style`` is ``"dark"``); ids, texts and descriptions stay.
    ``pinyin``: the letters in Gboard's 拼音 layout (a zh-CN phone's keyboard)."""
    style = "dark" if dark else ""
    keyboard_colors(style)  # a known theme
    rows = []
    layout = SYMBOLS if symbols else (*LETTERS[:3], PINYIN_BOTTOM) if pinyin else LETTERS
    for row in layout:
        keys = []
        for label in row:
            shown = label.upper() if shift and len(label) == 1 and label.isalpha() else label
            if pinyin and label == "space":
                shown = PINYIN_SPACE
            keys.append(Node("key", text=shown, desc=label, id=KEY_IDS.get(label, f"key_{label}"),
                             weight=WIDE.get(label, 1.0), selected=label == "⇧" and shift,
                             style=style, on_click=partial(on_key, label)))
        rows.append(Node("row", children=keys))
    return Node("keyboard", id="keyboard", style=style, children=rows)
