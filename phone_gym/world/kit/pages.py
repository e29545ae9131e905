"""Page-like blocks: a detail page, cards, an image grid and a simple web page."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial

from .. import theme as T
from ..widgets import (
    Button,
    Column,
    Handler,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Spacer,
    Text,
    TextField,
    TextHandler,
    TopBar,
    VirtualList,
)
from .common import slug, tall, weighted

RGB = tuple[int, int, int]

# --- action icons and the detail page --------------------------------------------------------

#: Standard top bar actions: name -> (glyph, content description).
ACTIONS: dict[str, tuple[str, str]] = {
    "edit": ("✎", "Edit"),
    "delete": ("🗑", "Delete"),
    "share": ("↗", "Share"),
    "favorite": ("☆", "Add to favorites"),
    "unfavorite": ("★", "Remove from favorites"),
    "save": ("✓", "Save"),
    "search": ("🔍", "Search"),
    "add": ("+", "Add"),
    "close": ("×", "Close"),
    "refresh": ("↻", "Refresh"),
    "more": ("⋮", "More options"),
}


def ActionIcon(name: str, on_click: Handler, *, desc: str = "", id: str = "",
               selected: bool = False) -> Node:
    """A top bar action icon by ``name`` (see ``ACTIONS``: edit, delete, share, favorite,
    save...), id ``name`` and the standard description unless given."""
    glyph, default = ACTIONS[name]
    icon = Icon(glyph, desc or default, on_click, id=id or name)
    icon.selected = selected
    return icon


@dataclass(frozen=True)
class Detail:
    """One labelled value of a detail page; ``on_click`` makes the value a link (call a
    number, open an address)."""

    label: str
    value: str
    id: str = ""
    on_click: Handler | None = None


def detail_rows(fields: Sequence[Detail | tuple[str, str]]) -> list[Node]:
    """Label (caption, id ``<id>_label``) and value (copyable, id ``<id>``) texts; empty
    values are left out."""
    out: list[Node] = []
    for f in fields:
        d = f if isinstance(f, Detail) else Detail(*f)
        if not d.value:
            continue
        key = d.id or slug(d.label)
        value = Text(d.value, id=key, copyable=True)
        if d.on_click is not None:
            value.on_click, value.style = d.on_click, "link"
        out += [Text(d.label, style="caption", id=f"{key}_label"), value]
    return out


def DetailPage(
    title: str, fields: Sequence[Detail | tuple[str, str]], *, on_back: Handler,
    heading: str = "", subtitle: str = "", glyph: str = "", actions: Sequence[Node] = (),
    body: Sequence[Node] = (), dialog: Node | None = None, on_dismiss: Handler | None = None,
) -> Screen:
    """A record's page: ``title`` and ``actions`` (``ActionIcon``s) in the top bar, a
    ``heading`` (with an avatar ``glyph`` and ``subtitle`` when given, id ``heading``), the
    labelled ``fields`` (values copyable by long press), then ``body``."""
    content: list[Node] = []
    if heading and glyph:
        content.append(ListItem(heading, subtitle, glyph=glyph, id="heading"))
    elif heading:
        content.append(Text(heading, style="title", id="heading"))
        if subtitle:
            content.append(Text(subtitle, style="caption", id="subtitle"))
    content += detail_rows(fields)
    content += body
    return Screen(top_bar=TopBar(title, on_back=on_back, actions=actions), content=content,
                  dialog=dialog, on_dismiss=on_dismiss)


# --- cards -----------------------------------------------------------------------------------

CARD_IMAGE_H = 320


def Image(desc: str, glyph: str = "", *, color: RGB | None = None, height: int = CARD_IMAGE_H,
          on_click: Handler | None = None, id: str = "", picture: str = "") -> Node:
    """A picture (content description ``desc``): drawn when ``picture`` names one
    (``pictures.encode(kind, seed)``), else a colored tile with a glyph."""
    return Node("thumb", desc=desc, glyph=glyph, color=color, height=height,
                on_click=on_click, id=id, style=picture)


def Card(
    title: str, *, subtitle: str = "", body: str = "", glyph: str = "", image: str = "",
    color: RGB | None = None, actions: Sequence[tuple[str, Handler]] = (),
    on_click: Handler | None = None, id: str = "card",
) -> Node:
    """A surface with an optional picture (``glyph``, described by ``image``), a title,
    subtitle and body text (ids ``<id>_title``...), and text-button ``actions`` (ids
    ``<id>_<label>``). With ``on_click`` the whole card is clickable (described by its
    title)."""
    kids: list[Node] = []
    if glyph or image:
        kids.append(Image(image or title, glyph, color=color, id=f"{id}_image"))
        kids.append(Spacer(24))
    kids.append(Text(title, style="title", id=f"{id}_title"))
    if subtitle:
        kids.append(Text(subtitle, style="caption", id=f"{id}_subtitle"))
    if body:
        kids.append(Text(body, id=f"{id}_body"))
    if actions:
        kids.append(Row([Button(label, fn, style="text", id=f"{id}_{slug(label)}")
                         for label, fn in actions], id=f"{id}_actions"))
    return Node("card", id=id, desc=title if on_click is not None else "", on_click=on_click,
                children=kids)


def CardList(cards: Sequence[Node], *, id: str = "cards", gap: int = 32) -> Node:
    """Cards stacked with ``gap`` pixels between them."""
    kids: list[Node] = []
    for card in cards:
        if kids:
            kids.append(Spacer(gap))
        kids.append(card)
    return Column(kids, id=id)


# --- image grid ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridItem:
    """A picture of an image grid: its label (drawn under it), what it shows (its
    content description), a glyph and a color for the tile."""

    label: str
    desc: str
    glyph: str = ""
    color: RGB | None = None
    id: str = ""
    picture: str = ""  # a drawn picture (``pictures.encode``) instead of the glyph tile


def ImageGrid(
    items: Sequence[GridItem], *, columns: int = 3, on_open: Callable[[int], None] | None = None,
    on_long_press: Callable[[int], None] | None = None, selected: Collection[int] = (),
    id: str = "grid", empty_text: str = "No photos", width: int = T.SCREEN_W - 2 * T.PAD,
) -> Node:
    """Thumbnails in rows of ``columns`` square cells (ids ``<id>_<i>`` unless the item
    has one), built only where they show; a tap calls ``on_open(i)``, a long press
    ``on_long_press(i)``; those in ``selected`` show a check mark and report selected.
    ``width`` is the width the grid is laid out in (the content's, by default)."""
    cell = width // max(1, columns)
    height = cell + (T.THUMB_LABEL if any(item.label for item in items) else 0)

    def thumb(i: int) -> Node:
        item = items[i]
        node = Node("thumb", text=item.label, desc=item.desc, glyph=item.glyph,
                    color=item.color, id=item.id or f"{id}_{i}", height=height,
                    selected=i in selected, style=item.picture)
        if on_open is not None:
            node.on_click = lambda: on_open(i)
        if on_long_press is not None:
            node.on_long_click = lambda: on_long_press(i)
        return node

    def row(r: int) -> Node:
        cells = [thumb(i) for i in range(r * columns, min(len(items), (r + 1) * columns))]
        cells += [Spacer(height) for _ in range(columns - len(cells))]
        return Row(cells)

    rows = (len(items) + columns - 1) // max(1, columns)
    return VirtualList(rows, row, id=id, row_height=height, empty_text=empty_text)


# --- web page --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A piece of a web page: ``h1``, ``h2``, ``p`` (a paragraph), ``link`` (``text`` to
    ``url``) or ``image`` (``text`` describes it, ``glyph`` draws it)."""

    kind: str
    text: str
    url: str = ""
    glyph: str = ""


_LINK = re.compile(r"\[(.+)\]\((\S+)\)")
_IMAGE = re.compile(r"!\[(.+)\](?:\((\S+)\))?")


def parse_page(source: str) -> list[Block]:
    """A page from a little markup: ``# heading``, ``## subheading``, a line
    ``[text](url)`` (a link), ``![description](glyph)`` (an image); other lines are
    paragraphs, consecutive lines joined, blank lines between paragraphs."""
    blocks: list[Block] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append(Block("p", " ".join(para)))
            para.clear()

    for raw in source.splitlines():
        line = raw.strip()
        link, image = _LINK.fullmatch(line), _IMAGE.fullmatch(line)
        if not line:
            flush()
        elif line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            blocks.append(Block("h1" if level == 1 else "h2", line.lstrip("#").strip()))
        elif image:
            flush()
            blocks.append(Block("image", image.group(1), glyph=image.group(2) or ""))
        elif link:
            flush()
            blocks.append(Block("link", link.group(1), link.group(2)))
        else:
            para.append(line)
    flush()
    return blocks


def WebPage(
    blocks: Sequence[Block], *, address: str, on_address: TextHandler, on_go: Handler,
    on_link: Callable[[str], None], id: str = "page",
) -> list[Node]:
    """Content: an address bar (field id ``url_bar``: enter or the Go icon calls
    ``on_go``), then the page (a column, id ``id``): headings (ids ``heading_<i>``),
    paragraphs (``paragraph_<i>``, copyable), links (``link_<i>``, their URL as the hint; a
    tap calls ``on_link(url)``) and images (``image_<i>``)."""
    bar = TextField(address, on_address, hint="Search or type web address", id="url_bar",
                    label="Address", on_submit=on_go)
    go = weighted(tall(Icon("→", "Go", on_go, id="go"), T.HEIGHTS["text_field"]), 0.16)
    page: list[Node] = []
    for i, b in enumerate(blocks):
        if b.kind in ("h1", "h2"):
            page.append(Text(b.text, style="title", id=f"heading_{i}"))
        elif b.kind == "link":
            page.append(Node("text", text=b.text, hint=b.url, style="link", id=f"link_{i}",
                             on_click=partial(on_link, b.url)))
        elif b.kind == "image":
            page.append(Image(b.text, b.glyph, id=f"image_{i}"))
        else:
            page.append(Text(b.text, id=f"paragraph_{i}", copyable=True))
    return [Row([bar, go], id="address_bar"), Column(page, id=id)]
