"""The soft keyboard shown while a text field has focus."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .widgets import Node

LETTERS = ("qwertyuiop", "asdfghjkl", ["⇧", *"zxcvbnm", "⌫"], ["?123", ",", "space", ".", "↵"])
SYMBOLS = ("1234567890", "@#$_&-+()/", ["=", *"*\"':;!?", "⌫"], ["ABC", ",", "space", ".", "↵"])
WIDE = {"space": 4.0, "⇧": 1.5, "⌫": 1.5, "?123": 1.5, "ABC": 1.5, "↵": 1.5}
KEY_IDS = {"⇧": "key_shift", "⌫": "key_delete", "space": "key_space", "↵": "key_enter",
           "?123": "key_symbols", "ABC": "key_letters", ",": "key_comma", ".": "key_period"}


def keyboard_node(on_key: Callable[[str], None], *, shift: bool = False,
                  symbols: bool = False) -> Node:
    """Rows of ``key`` nodes; tapping one calls ``on_key(label)``."""
    rows = []
    for row in SYMBOLS if symbols else LETTERS:
        keys = []
        for label in row:
            shown = label.upper() if shift and len(label) == 1 and label.isalpha() else label
            keys.append(Node("key", text=shown, desc=label, id=KEY_IDS.get(label, f"key_{label}"),
                             weight=WIDE.get(label, 1.0), selected=label == "⇧" and shift,
                             on_click=partial(on_key, label)))
        rows.append(Node("row", children=keys))
    return Node("keyboard", id="keyboard", children=rows)
