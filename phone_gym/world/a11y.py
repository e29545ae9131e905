"""The accessibility view of a ``Frame``: UI elements for agents and ``uiautomator dump`` XML.

``ui_elements`` lists the nodes worth showing an agent (text, description, resource id or an
action), in paint order. ``to_xml`` writes the whole tree exactly as Android's
``uiautomator dump`` does, and ``parse_xml`` reads such a dump (from this module or from a
real phone) back into ``UIElement``s. Bounds are logical pixels of the 1080 x 2400 screen;
``bounds_norm`` and ``center_norm`` are in the action space's ``[0, 1000]`` coordinates.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from . import theme as T
from .layout import Frame, Placed, Rect
from .widgets import ANDROID_CLASS, PIXELS_ONLY, Node

COORD_MAX = 1000
XML_HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
#: Kinds whose ``text`` is shown by a child node, not by the node itself.
TEXT_IN_CHILDREN = frozenset({"dialog", "menu", "screen", "nav_bar", "keyboard", "tab_bar"})
#: Kinds whose own text the tree leaves out (in children, or only in the pixels).
NO_TEXT = TEXT_IN_CHILDREN | PIXELS_ONLY


@dataclass(frozen=True)
class UIElement:
    """One on-screen element as an agent (or ``uiautomator``) sees it."""

    index: int
    resource_id: str
    class_name: str
    text: str
    content_desc: str
    package: str
    bounds: Rect  # visible bounds, logical pixels
    bounds_norm: Rect  # the same in [0, 1000]
    center_norm: tuple[int, int]  # center of the visible bounds in [0, 1000]
    clickable: bool = False
    long_clickable: bool = False
    scrollable: bool = False
    editable: bool = False
    checkable: bool = False
    checked: bool = False
    focused: bool = False
    enabled: bool = True
    selected: bool = False
    hint: str = ""  # placeholder of a text field, subtitle of a list item (not in the XML)
    #: PhoneWorld only (not in the XML nor in ``to_dict``): the widget kind and its unclipped
    #: bounds, which scripted policies use to tell a clipped row or a covered one.
    kind: str = field(default="", compare=False, repr=False)
    full_bounds: Rect | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-friendly data (tuples as lists)."""
        out: dict[str, Any] = {}
        for f in _DICT_FIELDS:
            value = getattr(self, f)
            out[f] = list(value) if isinstance(value, tuple) else value
        return out

    @property
    def clipped(self) -> bool:
        """Whether part of it is scrolled out of view (known in PhoneWorld only)."""
        return self.full_bounds is not None and self.full_bounds != self.bounds

    @property
    def short_class(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]

    @cached_property
    def short_id(self) -> str:
        """The resource id without its package (``element`` sets it as it builds one)."""
        return self.resource_id.split(":id/", 1)[-1]


_DICT_FIELDS = tuple(f.name for f in fields(UIElement) if f.name not in ("kind", "full_bounds"))


def normalize(rect: Rect, width: int = T.SCREEN_W, height: int = T.SCREEN_H) -> Rect:
    """A pixel rect in ``[0, 1000]`` coordinates."""
    x0, y0, x1, y1 = rect
    return (x0 * COORD_MAX // width, y0 * COORD_MAX // height,
            x1 * COORD_MAX // width, y1 * COORD_MAX // height)


def center_of(rect: Rect, width: int = T.SCREEN_W, height: int = T.SCREEN_H) -> tuple[int, int]:
    """The center of a pixel rect in ``[0, 1000]`` coordinates."""
    x0, y0, x1, y1 = rect
    return ((x0 + x1) * COORD_MAX // (2 * width), (y0 + y1) * COORD_MAX // (2 * height))


def worth_showing(e: UIElement) -> bool:
    """Whether an agent should see ``e``: it has text, a description, an id or an action."""
    return bool(
        e.text or e.content_desc or e.resource_id or e.clickable or e.long_clickable
        or e.scrollable or e.editable or e.checkable
    )


_new = object.__new__
_set = object.__setattr__
_NOT_SHARED = object()
_W, _H = T.SCREEN_W, T.SCREEN_H
_CLASS = ANDROID_CLASS.get


def element(placed: Placed, index: int = 0) -> UIElement:
    """The ``UIElement`` of one placed node (built without the dataclass ``__init__``, its
    fields read from the node's ``__dict__`` and ``Node.clickable``/``long_clickable``
    inlined: this runs for every node shown of every frame an oracle or agent reads)."""
    nd = placed.node.__dict__
    package = placed.package
    kind = nd["kind"]
    x0, y0, x1, y1 = rect = placed.rect
    enabled = nd["enabled"]
    checked = nd["checked"]
    node_id = nd["id"]
    if node_id:
        rid = f"{package or 'android'}:id/{node_id}"
        # the part after the first ":id/" (the node's id unless the package holds one)
        short_id = node_id if ":id/" not in package else rid.split(":id/", 1)[-1]
    else:
        rid = short_id = ""
    e = _new(UIElement)
    _set(e, "__dict__", {
        "index": index,
        "resource_id": rid,
        "class_name": _CLASS(kind, "android.view.View"),
        "text": "" if kind in NO_TEXT else nd["text"], "content_desc": nd["desc"],
        "package": package, "bounds": rect,
        "bounds_norm": (x0 * COORD_MAX // _W, y0 * COORD_MAX // _H,
                        x1 * COORD_MAX // _W, y1 * COORD_MAX // _H),
        "center_norm": ((x0 + x1) * COORD_MAX // (2 * _W), (y0 + y1) * COORD_MAX // (2 * _H)),
        "clickable": enabled and (  # Node.clickable
            nd["on_click"] is not None or kind == "text_field"
            or (kind == "slider" and nd["on_slide"] is not None)
            or nd["on_stroke"] is not None),
        "long_clickable": enabled and (  # Node.long_clickable
            nd["on_long_click"] is not None or nd["menu"] is not None or nd["copyable"]
            or kind == "text_field"),
        "scrollable": placed.scrollable, "editable": kind == "text_field" and enabled,
        "checkable": checked is not None, "checked": bool(checked),
        "focused": placed.focused, "enabled": enabled, "selected": nd["selected"],
        "hint": nd["hint"], "kind": kind, "full_bounds": placed.full,
        "short_id": short_id})
    return e


#: The key under which a node made once and shown in many frames (``share``) keeps its
#: element's fields, with the ``Placed`` and the place they were made for (its presence
#: marks the node as shared: ``render`` reads it too).
SHARED = "_a11y_shared"


def share(node: Node) -> Node:
    """Mark ``node`` and its descendants as made once and shown unchanged in many frames
    (the keyboard, the system bars, the launcher's icons): ``ui_elements`` then makes
    their elements from the fields of the last frame that showed them at the same place.
    Returns ``node``."""
    stack = [node]
    while stack:
        n = stack.pop()
        n.__dict__[SHARED] = None
        stack.extend(n.children)
    return node


def _shown(placed: Placed) -> bool:
    """``worth_showing`` of ``element(placed)``, decided on the node (no element made)."""
    node = placed.node
    return bool(node.id or node.desc or node.clickable or node.long_clickable
                or placed.scrollable or node.checked is not None
                or (node.text and node.kind not in NO_TEXT)
                or (node.kind == "text_field" and node.enabled))


def ui_elements(frame: Frame) -> list[UIElement]:
    """The elements worth showing an agent, in paint order (later ones are on top); built
    once per frame (``worth_showing``, decided on the node before an element is made)."""
    cached = frame.elements
    if cached is not None:
        return cached
    out: list[UIElement] = []
    append = out.append
    for placed in frame.items:
        nd = placed.node.__dict__
        memo = nd.get(SHARED, _NOT_SHARED)
        if memo is _NOT_SHARED:
            if nd["id"] or nd["desc"] or placed.scrollable or nd["checked"] is not None:
                append(element(placed, len(out)))
                continue
            kind = nd["kind"]
            if ((nd["text"] and kind not in NO_TEXT)
                    or (nd["enabled"] and (  # Node.clickable, long_clickable, editable
                        kind == "text_field" or nd["on_click"] is not None
                        or nd["on_long_click"] is not None or nd["on_stroke"] is not None
                        or nd["menu"] is not None or nd["copyable"]
                        or (kind == "slider" and nd["on_slide"] is not None)))):
                append(element(placed, len(out)))  # _shown(placed)
            continue
        if memo is None or memo[0] is not placed:  # (the keyboard's and bars' placed are
            # shared too: then nothing is compared)
            where = (placed.rect, placed.full, placed.package, placed.focused,
                     placed.scrollable)
            if memo is None or memo[1] != where:
                fields = element(placed, 0).__dict__ if _shown(placed) else None
            else:
                fields = memo[2]
            memo = nd[SHARED] = (placed, where, fields)
        if memo[2] is not None:
            e = _new(UIElement)
            d = memo[2].copy()
            d["index"] = len(out)
            _set(e, "__dict__", d)
            append(e)
    frame.elements = out
    return out


def pixel_texts(frame: Frame) -> list[str]:
    """The text drawn into pictures on screen (a photo of a receipt, a page): in the pixels
    only, so not in the element list, but a vision model reads it."""
    out = []
    for placed in frame.items:
        node = placed.node
        x0, y0, x1, y1 = placed.rect
        if node.kind in PIXELS_ONLY and node.text and x1 > x0 and y1 > y0:
            out.append(node.text)
    return out


# --- text for prompts ------------------------------------------------------------------------


def _quote(text: str, limit: int = 120) -> str:
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


def format_element(e: UIElement) -> str:
    """One line, e.g. ``[3] Button "Save" id=save center=(500,812) bounds=(400,790,600,834)
    clickable`` (centre and bounds in [0, 1000])."""
    parts = [f"[{e.index}] {e.short_class}"]
    if e.text:
        parts.append(_quote(e.text))
    if e.content_desc and e.content_desc != e.text:
        parts.append(f"desc={_quote(e.content_desc)}")
    if e.hint:
        parts.append(f"hint={_quote(e.hint)}")
    if e.resource_id:
        parts.append(f"id={e.short_id}")
    parts.append(f"center=({e.center_norm[0]},{e.center_norm[1]})")
    parts.append("bounds=({},{},{},{})".format(*e.bounds_norm))
    flags = [name for name, on in (("clickable", e.clickable), ("long-clickable", e.long_clickable),
                                   ("scrollable", e.scrollable), ("editable", e.editable),
                                   ("focused", e.focused), ("selected", e.selected)) if on]
    if e.checkable:
        flags.append("checked" if e.checked else "unchecked")
    if not e.enabled:
        flags.append("disabled")
    return " ".join(parts + flags)


def format_elements(elements: Iterable[UIElement]) -> str:
    """Compact text for prompts, one element a line (``center`` is in [0, 1000])."""
    return "\n".join(format_element(e) for e in elements)


# --- uiautomator XML -------------------------------------------------------------------------

_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;",
            ord("\n"): "&#10;", ord("\r"): "&#13;", ord("\t"): "&#9;"}
_ESCAPES.update({c: "?" for c in range(0x20) if c not in (9, 10, 13)})
_ESCAPES.update({0xFFFE: "?", 0xFFFF: "?"})
_SURROGATES = re.compile("[\ud800-\udfff]")


def xml_escape(text: str) -> str:
    """Escape an attribute value as uiautomator does (invalid XML characters become ``?``)."""
    return _SURROGATES.sub("?", text.translate(_ESCAPES))


def _b(value: bool) -> str:
    return "true" if value else "false"


def _attrs(e: UIElement, index: int) -> str:
    x0, y0, x1, y1 = e.bounds
    focusable = e.clickable or e.long_clickable or e.editable or e.checkable
    return (
        f'index="{index}" text="{xml_escape(e.text)}" resource-id="{xml_escape(e.resource_id)}" '
        f'class="{xml_escape(e.class_name)}" package="{xml_escape(e.package)}" '
        f'content-desc="{xml_escape(e.content_desc)}" checkable="{_b(e.checkable)}" '
        f'checked="{_b(e.checked)}" clickable="{_b(e.clickable)}" enabled="{_b(e.enabled)}" '
        f'focusable="{_b(focusable)}" focused="{_b(e.focused)}" '
        f'scrollable="{_b(e.scrollable)}" long-clickable="{_b(e.long_clickable)}" '
        f'password="false" selected="{_b(e.selected)}" bounds="[{x0},{y0}][{x1},{y1}]"'
    )


def to_xml(frame: Frame, rotation: int = 0) -> str:
    """The frame's whole tree in the format of ``uiautomator dump`` (one line)."""
    items = frame.items
    children: list[list[int]] = [[] for _ in items]
    roots: list[int] = []
    for i, placed in enumerate(items):
        parent = placed.parent
        if 0 <= parent < i:
            children[parent].append(i)
        else:
            roots.append(i)
    out = [XML_HEADER, f'<hierarchy rotation="{int(rotation)}">']
    # iterative pre-order walk: (item, index among siblings) or a closing marker (-1)
    stack: list[tuple[int, int]] = [(i, n) for n, i in reversed(list(enumerate(roots)))]
    while stack:
        i, n = stack.pop()
        if i < 0:
            out.append("</node>")
            continue
        attrs = _attrs(element(items[i]), n)
        kids = children[i]
        if not kids:
            out.append(f"<node {attrs} />")
            continue
        out.append(f"<node {attrs}>")
        stack.append((-1, 0))
        stack.extend((k, m) for m, k in reversed(list(enumerate(kids))))
    out.append("</hierarchy>")
    return "".join(out)


_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def _flag(attrs: dict[str, str], name: str, default: bool = False) -> bool:
    value = attrs.get(name)
    return default if value is None else value.strip().lower() == "true"


def parse_xml(xml: str | bytes, width: int = T.SCREEN_W, height: int = T.SCREEN_H,
              *, all_nodes: bool = False) -> list[UIElement]:
    """Read a ``uiautomator dump`` into ``UIElement``s (document order), keeping those worth
    showing (or every node with ``all_nodes``); ``width`` x ``height`` is the screen size
    used for the normalized coordinates."""
    if isinstance(xml, str):
        xml = xml.encode("utf-8", "replace")
    root = ET.fromstring(xml)
    out: list[UIElement] = []
    for node in root.iter("node"):
        a = node.attrib
        m = _BOUNDS.fullmatch(a.get("bounds", "").strip())
        x0, y0, x1, y1 = (0, 0, 0, 0) if m is None else (int(v) for v in m.groups())
        bounds = (x0, y0, x1, y1)
        class_name = a.get("class", "")
        enabled = _flag(a, "enabled", True)
        e = UIElement(
            index=len(out), resource_id=a.get("resource-id", ""), class_name=class_name,
            text=a.get("text", ""), content_desc=a.get("content-desc", ""),
            package=a.get("package", ""), bounds=bounds,
            bounds_norm=normalize(bounds, width, height),
            center_norm=center_of(bounds, width, height),
            clickable=_flag(a, "clickable"), long_clickable=_flag(a, "long-clickable"),
            scrollable=_flag(a, "scrollable"),
            editable=enabled and ("EditText" in class_name or _flag(a, "editable")),
            checkable=_flag(a, "checkable"), checked=_flag(a, "checked"),
            focused=_flag(a, "focused"), enabled=enabled, selected=_flag(a, "selected"),
            hint=a.get("hint", ""),
        )
        if all_nodes or worth_showing(e):
            out.append(e)
    return out
