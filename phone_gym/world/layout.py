"""A small layout engine: widget trees to placed rectangles, and hit-testing.

Everything here is in logical pixels of a 1080 x 2400 screen. A ``Frame`` is the list of
placed nodes in paint order (parents before children, later layers above earlier ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import theme as T
from .theme import DEFAULT_PALETTE, Palette
from .widgets import NAV_BUTTON_IDS, PART_SEPARATOR, Node

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


@dataclass(eq=False, slots=True)
class Placed:
    """A node with its place on screen."""

    node: Node
    rect: Rect  # visible (clipped) bounds
    full: Rect  # unclipped bounds (where it would be drawn without clipping)
    parent: int = -1
    layer: int = 0
    scrollable: bool = False
    focused: bool = False
    package: str = ""


@dataclass(eq=False)
class Frame:
    """Everything on screen, in paint order. ``modal_from`` is the index of the first node of
    a modal layer (dialog or menu): taps below that index are blocked."""

    items: list[Placed] = field(default_factory=list)
    modal_from: int | None = None
    scrim_before: int | None = None
    content_height: int = 0
    viewport: Rect = (0, 0, 0, 0)
    package: str = ""  # package new nodes are attributed to
    elements: list[Any] | None = None  # the accessibility elements, once built (a11y)
    #: The foreground app's colors (``AppLook.palette``); the system's screens keep the default.
    palette: Palette = DEFAULT_PALETTE
    #: Heights of the containers measured while laying the frame out (``measure``'s memo:
    #: a container's children are measured with it, then placed), dropped when it is done.
    heights: dict[int, tuple[Node, int, int]] | None = field(default=None, repr=False)

    def add(
        self, node: Node, rect: Rect, *, full: Rect | None = None, parent: int = -1,
        layer: int = 0, scrollable: bool = False, focused: bool = False,
    ) -> int:
        self.items.append(
            Placed(node, rect, full or rect, parent, layer, scrollable, focused, self.package)
        )
        return len(self.items) - 1

    def hit(self, x: int, y: int, want: str = "click") -> Placed | None:
        """The topmost node under (x, y) that handles ``want``: click, long_click or scroll."""
        start = self.modal_from or 0
        for placed in reversed(self.items[start:]):
            x0, y0, x1, y1 = placed.rect
            if not (x0 <= x < x1 and y0 <= y < y1):
                continue
            node = placed.node
            if want == "click" and node.clickable:
                return placed
            if want == "long_click" and node.long_clickable:
                return placed
            if want == "scroll" and placed.scrollable:
                return placed
        return None

    def in_modal(self, x: int, y: int) -> bool:
        """Whether (x, y) falls on the modal layer (dialog or menu box)."""
        if self.modal_from is None:
            return True
        box = self.items[self.modal_from].rect
        return box[0] <= x < box[2] and box[1] <= y < box[3]


def clip(rect: Rect, box: Rect) -> Rect | None:
    """``rect`` cut to ``box``, or None when nothing is left."""
    x0, y0 = max(rect[0], box[0]), max(rect[1], box[1])
    x1, y1 = min(rect[2], box[2]), min(rect[3], box[3])
    if x0 >= x1 or y0 >= y1:
        return None
    return (x0, y0, x1, y1)


def text_height(node: Node, width: int) -> int:
    """Height of a text node, wrapping long text."""
    style = node.style or "body"
    base = T.HEIGHTS.get(f"text:{style}", T.HEIGHTS["text:body"])
    font = T.FONT.get(style, T.FONT["body"])
    text = node.text
    if len(text) <= width / (font * T.CHAR_W) and "\n" not in text:
        return base  # one line (what ``wrap_text`` makes of it)
    lines = len(T.wrap_text(text, width, font))
    return base + (lines - 1) * int(font * 1.3)


#: 16:9 video rows (``kit.VideoRow``): ``video_side`` has a thumbnail this wide (and
#: ``VIDEO_SIDE_W * 9 // 16`` tall) left of its text; ``video_card`` a full-width 16:9
#: picture above it, the channel's avatar (``VIDEO_AVATAR``) left of the title.
VIDEO_SIDE_W = 288
VIDEO_AVATAR = 96
VIDEO_CARD_TEXT_H = 220


def video_card_picture_h(width: int) -> int:
    """The height of a ``video_card`` row's 16:9 picture in a row ``width`` wide."""
    return width * 9 // 16


def row_text_box(item: Node, rect: Rect) -> tuple[int, int, int]:
    """Where a list item's painter puts its text: ``(x, y0, y1)``, the text's left edge and
    the band it is centred in (the whole row, or a video card's band under its picture)."""
    x0, y0, x1, y1 = rect
    x = x0 + (T.PAD if x1 - x0 >= T.SCREEN_W - T.PAD else 16)
    if item.style == "video_side":
        return x + VIDEO_SIDE_W + 36, y0, y1
    if item.style == "video_card":
        return x + VIDEO_AVATAR + 32, y0 + video_card_picture_h(x1 - x0), y1
    if item.glyph:
        x += 144  # the avatar and its margin
    return x, y0, y1


#: Where a drawer's section captions and labels start (Material 3: 28 dp).
DRAWER_TEXT_X = 74
#: Containers that stack their children inside a padded box, and the padding.
PADDED = {"dialog": T.PAD, "sheet": T.PAD, "card": T.CARD_PAD}


def text_units(text: str) -> float:
    """``text``'s width in average Latin characters: a CJK character (or full-width form)
    is a full em, about 1.8 of them; any other text's is its length."""
    if text.isascii():
        return len(text)
    return sum(1 / T.CHAR_W if "\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" else 1
               for c in text)


def chip_width(node: Node) -> int:
    """The width a chip asks for: its label, padding and, when checked, its check mark."""
    label = int(text_units(node.text) * T.FONT["chip"] * T.CHAR_W * 1.1)
    return label + 2 * T.CHIP_PAD + (T.CHIP_CHECK if node.checked else 0)


def flow(node: Node, x0: int, x1: int) -> list[tuple[int, int, int]]:
    """Where a chip group's children go: ``(x0, x1, line)`` each, left to right, wrapping
    onto a new line when the next one does not fit."""
    out: list[tuple[int, int, int]] = []
    x, line = x0, 0
    for child in node.children:
        w = min(x1 - x0, chip_width(child))
        if x > x0 and x + w > x1:
            x, line = x0, line + 1
        out.append((x, x + w, line))
        x += w + T.CHIP_GAP
    return out


def bubble_lines(node: Node, width: int) -> list[str]:
    """The lines of a chat bubble's text in a thread ``width`` wide."""
    text_w = int(width * T.BUBBLE_SHARE) - 2 * T.BUBBLE_PAD
    return T.wrap_text(node.text, text_w, T.FONT["body"])


def bubble_span(node: Node, x0: int, x1: int) -> tuple[int, int]:
    """The x extent of a chat bubble in a thread across ``[x0, x1)``: as wide as its text
    (up to ``BUBBLE_SHARE`` of the thread), at the right when outgoing (style ``out``)."""
    per_char = T.CHAR_W * 1.1
    longest = max([len(line) * T.FONT["body"] for line in bubble_lines(node, x1 - x0)]
                  + [len(node.hint) * T.FONT["small"], len(node.desc) * T.FONT["caption"]])
    w = min(int((x1 - x0) * T.BUBBLE_SHARE), int(longest * per_char) + 2 * T.BUBBLE_PAD)
    return (x1 - w, x1) if node.style == "out" else (x0, x0 + w)


def bubble_height(node: Node, width: int) -> int:
    """A chat bubble's height (with the gap below it) in a thread ``width`` wide: its text,
    the sender's name (incoming bubbles with a ``desc``) and the time (``hint``)."""
    lines = len(bubble_lines(node, width))
    extra = (T.BUBBLE_LINE if node.desc and node.style != "out" else 0) + (
        T.BUBBLE_LINE if node.hint else 0)
    return 2 * T.BUBBLE_PAD + lines * int(T.FONT["body"] * 1.3) + extra + T.BUBBLE_GAP


def dialog_width(node: Node) -> int:
    """The width of a modal layer that is not centered: a navigation drawer (from the
    left edge) or an open speed dial (from the right edge)."""
    widths = {"drawer": T.DRAWER_W, "speed_dial": T.DIAL_W}
    if node.kind not in widths:
        raise ValueError(f"dialog_width: a {node.kind!r} node; accepted: "
                         f"{', '.join(widths)}")
    return widths[node.kind]


#: Kinds whose height is the sum (or the most) of their children's: ``measure`` remembers
#: theirs in a frame's ``heights`` while the frame is laid out.
CONTAINERS = frozenset({"column", "list", "speed_dial", "row", "dialog", *PADDED})


def measure(node: Node, width: int,
            memo: dict[int, tuple[Node, int, int]] | None = None) -> int:
    """Preferred height of ``node`` at ``width`` (``memo``: heights of containers measured
    already, by ``id``, with the node and width; see ``Frame.heights``)."""
    if node.height:
        return node.height
    kind = node.kind
    if kind == "text":
        return text_height(node, width)
    if node.rows is not None:
        return node.rows.total
    if kind not in CONTAINERS:
        return _leaf_height(node, width)
    if memo is not None:
        known = memo.get(id(node))
        if known is not None and known[0] is node and known[1] == width:
            return known[2]
    if kind in ("column", "list", "speed_dial"):
        h = sum(measure(c, width, memo) for c in node.children)
    elif kind == "row":
        if not node.children:
            h = T.HEIGHTS["row"]
        else:
            total = sum(c.weight for c in node.children) or 1.0
            h = max(measure(c, int(width * c.weight / total), memo) for c in node.children)
    elif kind == "dialog":  # (measures its children at the full width, unlike the others)
        h = sum(measure(c, width, memo) for c in node.children) + 2 * T.PAD
    else:
        pad = PADDED[kind]
        h = sum(measure(c, width - 2 * pad, memo) for c in node.children) + 2 * pad
    if memo is not None:
        memo[id(node)] = (node, width, h)
    return h


def _leaf_height(node: Node, width: int) -> int:
    """``measure`` of a node that is no text, no virtual list and no container."""
    kind = node.kind
    if kind == "list_item":
        return T.HEIGHTS["list_item" if node.hint else "list_item:single"]
    if kind == "chip_group":
        lines = {line for _, _, line in flow(node, 0, width)}
        return len(lines) * T.HEIGHTS["chip"]
    if kind == "bubble":
        return bubble_height(node, width)
    return T.HEIGHTS.get(kind, T.HEIGHTS["text:body"])


#: Kinds placed across the whole screen when they are at the top level (``place``).
FULL_WIDTH = frozenset({"list_item", "list", "tab_bar", "top_bar"})
#: Kinds placed edge to edge wherever they are.
BLEED = frozenset({"map", "viewfinder"})


def place_column(
    frame: Frame, nodes: list[Node], x0: int, x1: int, y: int, box: Rect, *,
    parent: int = -1, layer: int = 0, focus_id: str | None = None,
) -> int:
    """Place ``nodes`` top to bottom from ``y``; clip them to ``box``; return the end y."""
    for node in nodes:
        y = place(frame, node, x0, x1, y, box, parent=parent, layer=layer, focus_id=focus_id)
    return y


def place(
    frame: Frame, node: Node, x0: int, x1: int, y: int, box: Rect, *,
    parent: int = -1, layer: int = 0, focus_id: str | None = None,
) -> int:
    """Place one node (and its children) at ``y``; return the y below it."""
    kind = node.kind
    # full width at the top level; edge to edge wherever they are: maps, viewfinders and
    # video cards (``kit.VideoRow``)
    if (parent < 0 and kind in FULL_WIDTH) or kind in BLEED or (
            kind == "list_item" and node.style == "video_card"):
        nx0, nx1 = 0, T.SCREEN_W
    else:
        nx0, nx1 = x0, x1
    h = node.height
    if not h:
        if frame.heights is None:
            frame.heights = {}
        h = measure(node, nx1 - nx0, frame.heights)
    if kind == "bubble":
        nx0, nx1 = bubble_span(node, nx0, nx1)
    elif kind == "dial":  # a square, centered
        side = min(h, nx1 - nx0)
        nx0 = (nx0 + nx1 - side) // 2
        nx1 = nx0 + side
    full = (nx0, y, nx1, y + h)
    # clipped to ``box`` (``clip``, inline: this runs for every node of every frame)
    bx0, by0, bx1, by1 = box
    vx0, vy0 = (nx0 if nx0 > bx0 else bx0), (y if y > by0 else by0)
    vx1, vy1 = (nx1 if nx1 < bx1 else bx1), (y + h if y + h < by1 else by1)
    if vx0 >= vx1 or vy0 >= vy1:
        return y + h
    visible = (vx0, vy0, vx1, vy1)
    focused = bool(focus_id) and kind == "text_field" and node.id == focus_id
    items = frame.items  # (``Frame.add``, inline)
    idx = len(items)
    items.append(Placed(node, visible, full, parent, layer, False, focused, frame.package))
    if node.rows is not None:
        place_rows(frame, node, nx0, nx1, y, box, parent=idx, layer=layer, focus_id=focus_id)
    elif kind == "map":  # pins and floating buttons, each at its box (``at``) in the map
        for child in node.children:
            ax0, ay0, ax1, _ = child.at or (0, 0, nx1 - nx0, 0)
            place(frame, child, nx0 + ax0, nx0 + ax1, y + ay0, visible, parent=idx,
                  layer=layer, focus_id=focus_id)
    elif kind in ("column", "list"):
        inner_x0, inner_x1 = (x0, x1) if kind == "column" else (nx0, nx1)
        place_column(
            frame, node.children, inner_x0, inner_x1, y, box, parent=idx, layer=layer,
            focus_id=focus_id,
        )
    elif kind == "row":
        total = sum(c.weight for c in node.children) or 1.0
        cx = nx0
        for child in node.children:
            cw = int((nx1 - nx0) * child.weight / total)
            place(frame, child, cx, cx + cw, y, box, parent=idx, layer=layer, focus_id=focus_id)
            cx += cw
    elif kind == "list_item" and node.children:
        size = T.ICON_SIZE
        child = node.children[0]
        cx1 = nx1 - T.PAD // 2
        _, band0, band1 = row_text_box(node, full)
        cy = band0 + (band1 - band0 - size) // 2
        reserve = 0
        if child.kind != "subtitle":  # the trailing widget
            reserve = (2 if child.kind == "toggle" else 1) * size
            rect = (cx1 - reserve, cy, cx1, cy + size)
            vis = clip(rect, box)
            if vis is not None:
                frame.add(child, vis, full=rect, parent=idx, layer=layer)
        parts = [c for c in node.children if c.kind == "subtitle"]
        if parts:
            place_parts(frame, parts, node, full, reserve, box, idx, layer)
    elif kind == "drawer":  # destinations full width, captions at the labels' margin
        inner = clip(full, box) or visible
        cy = y
        for child in node.children:
            cx0 = nx0 + DRAWER_TEXT_X if child.kind == "text" else nx0
            cy = place(frame, child, cx0, nx1, cy, inner, parent=idx, layer=layer)
    elif kind == "speed_dial":  # actions full width; the close FAB at the right, as the FAB
        cy = y
        for child in node.children:
            ch = measure(child, nx1 - nx0)
            rect = ((nx1 - T.PAD - T.FAB_SIZE, cy, nx1 - T.PAD, cy + T.FAB_SIZE)
                    if child.kind == "fab" else (nx0, cy, nx1, cy + ch))
            vis = clip(rect, box)
            if vis is not None:
                frame.add(child, vis, full=rect, parent=idx, layer=layer)
            cy += ch
    elif kind in PADDED:
        pad = PADDED[kind]
        place_column(
            frame, node.children, nx0 + pad, nx1 - pad, y + pad, box, parent=idx,
            layer=layer, focus_id=focus_id,
        )
    elif kind in ("dial", "board", "viewfinder"):
        w = nx1 - nx0
        for child in node.children:
            if child.at is None:
                continue
            ax0, ay0, ax1, ay1 = child.at
            rect = (nx0 + ax0 * w // 1000, y + ay0 * h // 1000,
                    nx0 + ax1 * w // 1000, y + ay1 * h // 1000)
            vis = clip(rect, box)
            if vis is not None:
                frame.add(child, vis, full=rect, parent=idx, layer=layer)
    elif kind == "chip_group":
        line_h = T.HEIGHTS["chip"]
        for child, (cx0, cx1, line) in zip(node.children, flow(node, nx0, nx1), strict=True):
            top = y + line * line_h
            rect = (cx0, top, cx1, top + line_h)
            vis = clip(rect, box)
            if vis is not None:
                frame.add(child, vis, full=rect, parent=idx, layer=layer)
    return y + h


def place_parts(frame: Frame, parts: list[Node], item: Node, rect: Rect, reserve: int,
                box: Rect, parent: int, layer: int) -> None:
    """Place the ``subtitle`` parts of a list item at ``rect`` over the subtitle line that its
    painter draws (text views for the accessibility tree; the item draws their text), left to
    right, each as wide as its share of the line's characters. ``reserve`` is the width its
    trailing widget takes."""
    x1 = rect[2]
    x, band0, band1 = row_text_box(item, rect)  # as the painter places text
    end = max(x + 1, x1 - T.PAD // 2 - (reserve + 24 if reserve else 0))
    line = int(T.FONT["caption"] * 1.4)
    top = band0 + (band1 - band0) // 2 + 32 - line // 2
    sep = len(PART_SEPARATOR)
    total = sum(len(p.text) for p in parts) + sep * (len(parts) - 1)
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        width = (end - x) * (len(part.text) + (0 if last else sep)) // max(1, total)
        prect = (x, top, end if last else x + width, top + line)
        vis = clip(prect, box)
        if vis is not None:
            frame.add(part, vis, full=prect, parent=parent, layer=layer)
        x += width


#: Rows of a virtual list built beyond each edge of what shows (scrolling reveals them).
ROW_MARGIN = 2


def place_rows(frame: Frame, node: Node, x0: int, x1: int, y: int, box: Rect, *,
               parent: int, layer: int, focus_id: str | None) -> None:
    """Place only the rows of a virtual list that fall in ``box`` (plus a margin)."""
    rows = node.rows
    assert rows is not None
    first = max(0, rows.first_below(box[1] - y) - ROW_MARGIN)
    last = min(rows.count, rows.first_below(box[3] - y) + 1 + ROW_MARGIN)
    for i in range(first, last):
        top = y + rows.top(i)
        title = rows.title(i)
        if title is not None:
            slug = "".join(c if c.isalnum() else "_" for c in title.lower())
            header = Node("text", text=title, style="caption", id=f"{slug}_header",
                          height=rows.header_height)
            place(frame, header, x0, x1, top - rows.header_height, box, parent=parent,
                  layer=layer)
        row = rows.build(i)
        row.height = rows.height
        place(frame, row, x0, x1, top, box, parent=parent, layer=layer, focus_id=focus_id)


#: Top-bar children that fill the room between the navigation button and the action icons
#: (``kit.searchbar``: a search bar, an omnibox, a place name or a centred logo).
BAR_FILL_KINDS = ("text_field", "button", "text")


def place_bar(frame: Frame, bar: Node, rect: Rect, *, layer: int = 0,
              focus_id: str | None = None) -> None:
    """Place a top bar (up arrow left, icons right, a search bar or logo in the room between:
    ``BAR_FILL_KINDS``) or a tab bar (equal tabs). A text field whose id is ``focus_id`` is
    placed focused."""
    idx = frame.add(bar, rect, layer=layer)
    x0, y0, x1, y1 = rect
    if bar.kind == "tab_bar":
        n = max(1, len(bar.children))
        w = (x1 - x0) // n
        for i, tab in enumerate(bar.children):
            frame.add(tab, (x0 + i * w, y0, x0 + (i + 1) * w, y1), parent=idx, layer=layer)
        return
    size = T.ICON_SIZE
    cy = y0 + (y1 - y0 - size) // 2
    right = x1 - T.PAD // 2
    left = x0 + T.PAD
    for child in bar.children:
        if child.id in NAV_BUTTON_IDS:
            frame.add(child, (T.PAD // 2, cy, T.PAD // 2 + size, cy + size), parent=idx,
                      layer=layer)
            left = T.PAD // 2 + size + 16
    fills = [c for c in bar.children if c.kind in BAR_FILL_KINDS]
    for child in reversed([c for c in bar.children
                           if c.id not in NAV_BUTTON_IDS and c not in fills]):
        frame.add(child, (right - size, cy, right, cy + size), parent=idx, layer=layer)
        right -= size
    for child in fills:
        if child.style == "logo":  # centred between equal margins
            margin = max(left - x0, x1 - right)
            box = (x0 + margin, y0, x1 - margin, y1)
        else:
            box = (left, y0 + 18, right - (0 if right < x1 - T.PAD // 2 else T.PAD // 2),
                   y1 - 18)
        frame.add(child, box, parent=idx, layer=layer,
                  focused=child.kind == "text_field" and child.id == focus_id)
