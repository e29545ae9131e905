"""App bars that show what the real app shows instead of a title.

Many real apps' main screens have no title in their app bar: Google Contacts and Uber Eats
show a search bar there (Material 3's ``SearchBar``), Chrome its omnibox, Amazon a search
box that opens its search page, X its logo centred, Google Weather the place. ``SearchAppBar``
builds such a bar: a ``TopBar`` with an empty title (``text`` "", as uiautomator reports a
toolbar without one) whose ``fill`` child takes the room between the navigation button and
the action icons (``layout.BAR_FILL_KINDS``); the fill is one of:

``SearchField(query, on_query, hint=, id=)``
    an editable search field (an ``EditText`` with its hint: tap it, type, and the app
    filters as today); drawn as a pill with the search glyph, in the app's palette.
``SearchEntry(hint, on_click, id=)``
    a tappable search box that opens the app's search screen (its text is the hint).
``Logo(text, glyph=)``
    a wordmark or logo centred on the bar (content description ``text``).
``Place(name, id=)``
    a place name with a location pin (Google Weather's current place).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..widgets import Handler, Node, TextField, TextHandler, TopBar

FILL_STYLES = {"text_field": "search_bar", "button": "search_bar", "text": ("logo", "place")}


def SearchField(query: str, on_query: TextHandler, *, hint: str, id: str = "search",
                label: str = "Search", on_submit: Handler | None = None) -> Node:
    """An editable search field for an app bar (id ``id``, hint ``hint``)."""
    field = TextField(query, on_query, hint=hint, id=id, label=label, on_submit=on_submit)
    field.style = "search_bar"
    return field


def SearchEntry(hint: str, on_click: Handler, *, id: str = "search_entry") -> Node:
    """A search box for an app bar that opens the app's search (text ``hint``)."""
    return Node("button", text=hint, on_click=on_click, id=id, style="search_bar",
                glyph="search")


def Logo(text: str, *, glyph: str = "", id: str = "logo") -> Node:
    """A logo centred on an app bar: ``glyph`` (a Material icon) or the wordmark ``text``;
    ``text`` is its content description."""
    if not text:
        raise ValueError("Logo: text is required (the logo's content description)")
    return Node("text", text="" if glyph else text, desc=text, glyph=glyph, id=id,
                style="logo")


def Place(name: str, *, id: str = "location") -> Node:
    """A place name with a location pin for an app bar (Google Weather's)."""
    return Node("text", text=name, id=id, style="place")


def SearchAppBar(fill: Node, *, actions: Sequence[Node] = (), on_menu: Handler | None = None,
                 on_back: Handler | None = None) -> Node:
    """An app bar without a title: ``fill`` (``SearchField``, ``SearchEntry``, ``Logo`` or
    ``Place``) between the optional navigation button and ``actions``."""
    accepted = FILL_STYLES.get(fill.kind, ())
    if fill.style not in (accepted if isinstance(accepted, tuple) else (accepted,)):
        raise ValueError(f"SearchAppBar: fill {fill.kind}:{fill.style!r} is not accepted; "
                         "accepted: SearchField, SearchEntry, Logo or Place")
    bar = TopBar("", on_back=on_back, on_menu=on_menu, actions=actions)
    bar.children.append(fill)
    return bar
