"""List-like blocks: a searchable sectioned list, top tabs, filter chips and a settings
list (switch, value and navigation rows in sections)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial

from .. import pictures
from .. import theme as T
from ..layout import VIDEO_CARD_TEXT_H, VIDEO_SIDE_W, video_card_picture_h
from ..widgets import (
    Handler,
    Icon,
    ListItem,
    ListView,
    MenuItem,
    Node,
    Row,
    Tab,
    Text,
    TextField,
    TextHandler,
    Toggle,
    VirtualList,
)
from .common import slug, tall, weighted

# --- searchable sectioned list ---------------------------------------------------------------


def section_headers(titles: Sequence[str]) -> list[tuple[int, str]]:
    """The ``VirtualList`` headers of sorted rows whose section titles are ``titles``
    (``titles[i]`` is row ``i``'s): a header wherever the title changes."""
    return [(i, t) for i, t in enumerate(titles) if t and (i == 0 or titles[i - 1] != t)]


def SearchList(
    query: str, on_query: TextHandler, count: int, build: Callable[[int], Node], *,
    id: str = "list", search_id: str = "search", hint: str = "Search",
    headers: Sequence[tuple[int, str]] = (), row_height: int = 196,
    empty_text: str = "Nothing here",
) -> list[Node]:
    """Content: a search field (id ``search_id``, with a clear icon while it holds text)
    above a virtual list of the ``count`` matching rows (only those on screen are built by
    ``build(i)``), with section ``headers`` (see ``section_headers``). The app filters:
    ``count`` and ``build`` describe the rows matching ``query``. With none, the list shows
    ``No results for "<query>"`` (or ``empty_text`` when the query is blank), id ``empty``."""
    field = TextField(query, on_query, hint=hint, id=search_id, label="Search")
    search: Node = field
    if query:
        clear = Icon("×", "Clear search", lambda: on_query(""), id=f"{search_id}_clear")
        search = Row([field, weighted(tall(clear, T.HEIGHTS["text_field"]), 0.16)],
                     id=f"{search_id}_bar")
    q = query.strip()
    empty = f'No results for "{q}"' if q else empty_text
    return [search, VirtualList(count, build, id=id, row_height=row_height, headers=headers,
                                empty_text=empty)]


# --- 16:9 video rows ------------------------------------------------------------------------
#: ``VideoRow`` layouts: the thumbnail left of the text (VLC), or a full-width picture above
#: it (YouTube's home feed).
VIDEO_LAYOUTS = ("side", "card")


def video_row_height(layout: str, width: int = T.SCREEN_W) -> int:
    """The height of a ``VideoRow`` in a list ``width`` wide (a ``VirtualList``'s
    ``row_height``)."""
    if layout == "side":
        return VIDEO_SIDE_W * 9 // 16 + 48
    if layout == "card":
        return video_card_picture_h(width) + VIDEO_CARD_TEXT_H
    raise ValueError(f"video row layout {layout!r}; accepted: {', '.join(VIDEO_LAYOUTS)}")


def VideoRow(title: str, subtitle: str = "", *, picture: str, layout: str = "side",
             id: str = "", on_click: Handler | None = None,
             on_long_click: Handler | None = None, menu: list[MenuItem] | None = None,
             parts: Sequence[tuple[str, str]] = (), trailing: Node | None = None,
             selected: bool = False) -> Node:
    """A list row for a video with a 16:9 ``picture`` (``pictures.encode``): at the left
    (``layout`` ``side``) or full width above the title (``card``, the channel's avatar left
    of it). The row is a ``ListItem`` (same accessibility node, texts, ``parts`` and ids);
    ``selected`` marks the picture with a check. Give its list
    ``row_height=video_row_height(layout)``."""
    if layout not in VIDEO_LAYOUTS:
        raise ValueError(f"video row layout {layout!r}; accepted: {', '.join(VIDEO_LAYOUTS)}")
    if pictures.decode(picture) is None:
        raise ValueError(f"picture must be a pictures.encode style; got {picture!r}")
    node = ListItem(title, subtitle, id=id, on_click=on_click, on_long_click=on_long_click,
                    menu=menu, parts=parts, trailing=trailing)
    node.style, node.glyph, node.selected = f"video_{layout}", picture, selected
    return node


# --- tabs and chips --------------------------------------------------------------------------


def Tabs(labels: Sequence[str], selected: str, on_select: Callable[[str], None], *,
         id: str = "tabs") -> Node:
    """A row of top tabs sharing the width (ids ``tab_<label>``); the ``selected`` one is
    underlined and reports selected. A tap calls ``on_select(label)``. Put it first in the
    content (it scrolls with it)."""
    tabs = []
    for label in labels:
        tab = Tab(label, label == selected, partial(on_select, label),
                  id=f"tab_{slug(label)}")
        tab.style = "top"
        tabs.append(tab)
    return Row(tabs, id=id)


def Chip(label: str, checked: bool, on_click: Handler, *, id: str = "") -> Node:
    """One filter chip: a pill that is checked (filled, with a check mark) or not."""
    return Node("chip", text=label, checked=checked, on_click=on_click, id=id)


def Chips(labels: Sequence[str], selected: Collection[str], on_toggle: Callable[[str], None],
          *, id: str = "chips") -> Node:
    """Filter chips (ids ``chip_<label>``), wrapping onto more lines when they do not fit;
    those in ``selected`` are checked. A tap calls ``on_toggle(label)``."""
    return Node("chip_group", id=id, children=[
        Chip(label, label in selected, partial(on_toggle, label),
             id=f"chip_{slug(label)}")
        for label in labels
    ])


# --- settings list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """A titled group of settings rows."""

    title: str
    rows: Sequence[Node]


def SwitchRow(title: str, checked: bool, on_toggle: Handler, *, id: str,
              summary: str = "") -> Node:
    """A setting that is on or off: a row whose switch (id ``<id>_switch``, described by
    ``title``) shows the state; a tap on the row or the switch calls ``on_toggle``."""
    switch = Toggle("", checked, on_toggle, id=f"{id}_switch", desc=title)
    return ListItem(title, summary, on_click=on_toggle, id=id, trailing=switch)


def ValueRow(title: str, value: str, on_click: Handler, *, id: str) -> Node:
    """A setting with a value, shown under its title; a tap opens a picker (e.g. a
    ``ChoiceDialog``)."""
    return ListItem(title, value, on_click=on_click, id=id)


def NavRow(title: str, on_click: Handler, *, id: str, summary: str = "",
           glyph: str = "") -> Node:
    """A row that opens another page, with an optional summary and icon glyph."""
    return ListItem(title, summary, on_click=on_click, id=id, glyph=glyph)


def SettingsList(sections: Sequence[Section], *, id: str = "settings") -> list[Node]:
    """Content: each section's title (a caption, id ``<title>_header``) above its rows
    (a list, id ``<id>_<title>``)."""
    out: list[Node] = []
    for section in sections:
        key = slug(section.title) if section.title else str(len(out))
        if section.title:
            out.append(Text(section.title, style="caption", id=f"{key}_header"))
        out.append(ListView(section.rows, id=f"{id}_{key}"))
    return out
