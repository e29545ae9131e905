"""uiautomator2 selectors matched against a PhoneWorld frame, as the u2 server's ``Selector``
does on Android.

The client sends a selector as a JSON object (uiautomator2 ``_selector.Selector``): a ``mask``
of the criteria set, their values, and ``childOrSibling``/``childOrSiblingSelector`` chains.
The server (``openatx/android-uiautomator-server-jar``, ``stub/Selector.java``) reads only
the criteria whose mask bit is set and turns them into a ``UiSelector`` (``index``,
``instance``, chains) or a ``BySelector`` (everything else), which match one accessibility
node at a time:

- ``text``/``description``/``className``/``packageName``/``resourceId``: equal;
  ``...Contains``/``...StartsWith``: substring/prefix; ``...Matches``: the whole value
  matches the (Java) regex. A node without text (or description, id) matches none of them.
- the booleans (``clickable``, ``checked``, ``focusable``...): equal to the node's flag;
- ``index``: the node's index among its siblings (the dump's ``index``);
- ``instance``: the n-th match in the dump's (depth-first) order;
- ``child``: nodes below a match that match the next selector; ``sibling``
  (``UiSelector.fromParent``): nodes below a match's parent.

``Tree`` is a frame as the accessibility tree the dump writes (``a11y.to_xml``): the same
nodes, attributes and order, so a selector finds what ``d.xpath`` finds in the dump.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..world.a11y import UIElement, element
from ..world.layout import Frame, Placed, Rect

__all__ = ["MASKS", "Node", "SelectorError", "Tree", "describe", "is_by_selector", "resolve"]

#: Selector criteria and their mask bits (``Selector.java`` ``MASK_*``).
MASKS: dict[str, int] = {
    "text": 0x01, "textContains": 0x02, "textMatches": 0x04, "textStartsWith": 0x08,
    "className": 0x10, "classNameMatches": 0x20, "description": 0x40,
    "descriptionContains": 0x80, "descriptionMatches": 0x0100,
    "descriptionStartsWith": 0x0200, "checkable": 0x0400, "checked": 0x0800,
    "clickable": 0x1000, "longClickable": 0x2000, "scrollable": 0x4000, "enabled": 0x8000,
    "focusable": 0x010000, "focused": 0x020000, "selected": 0x040000,
    "packageName": 0x080000, "packageNameMatches": 0x100000, "resourceId": 0x200000,
    "resourceIdMatches": 0x400000, "index": 0x800000, "instance": 0x01000000,
}
INDEX, INSTANCE = MASKS["index"], MASKS["instance"]
#: ``UiSelector.toString`` names of the criteria.
NAMES = {
    "text": "TEXT", "textContains": "CONTAINS_TEXT", "textMatches": "TEXT_REGEX",
    "textStartsWith": "START_TEXT", "className": "CLASS", "classNameMatches": "CLASS_REGEX",
    "description": "DESCRIPTION", "descriptionContains": "CONTAINS_DESCRIPTION",
    "descriptionMatches": "DESCRIPTION_REGEX", "descriptionStartsWith": "START_DESCRIPTION",
    "checkable": "CHECKABLE", "checked": "CHECKED", "clickable": "CLICKABLE",
    "longClickable": "LONG_CLICKABLE", "scrollable": "SCROLLABLE", "enabled": "ENABLED",
    "focusable": "FOCUSABLE", "focused": "FOCUSED", "selected": "SELECTED",
    "packageName": "PACKAGE_NAME", "packageNameMatches": "PACKAGE_NAME_REGEX",
    "resourceId": "RESOURCE_ID", "resourceIdMatches": "RESOURCE_ID_REGEX", "index": "INDEX",
    "instance": "INSTANCE",
}


class SelectorError(ValueError):
    """A selector the server cannot read (Jackson's or ``Pattern``'s complaint)."""

    def __init__(self, java_class: str, message: str) -> None:
        super().__init__(message)
        self.java_class = java_class


@dataclass(frozen=True)
class Node:
    """One node of the accessibility tree."""

    element: UIElement
    placed: Placed
    parent: int  # position in ``Tree.nodes``, -1 for a root
    children: tuple[int, ...]
    index: int  # among its siblings

    @property
    def focusable(self) -> bool:
        e = self.element
        return e.clickable or e.long_clickable or e.editable or e.checkable

    @property
    def bounds(self) -> Rect:
        """Its bounds on screen, clipped by its scrolling parents (as Android reports a node's
        bounds: ``View.getBoundsOnScreen(rect, clipToParent=true)``)."""
        return self.placed.rect


class Tree:
    """A frame's nodes in the dump's depth-first order (see the module doc)."""

    def __init__(self, frame: Frame) -> None:
        items = frame.items
        kids: list[list[int]] = [[] for _ in items]
        roots: list[int] = []
        for i, placed in enumerate(items):
            if 0 <= placed.parent < i:
                kids[placed.parent].append(i)
            else:
                roots.append(i)
        order: list[int] = []  # item numbers in depth-first order
        stack = list(reversed(roots))
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(kids[i]))
        position = {item: n for n, item in enumerate(order)}
        sibling = {i: n for group in [roots, *kids] for n, i in enumerate(group)}
        self.nodes: list[Node] = [
            Node(element(items[i], position[i]), items[i],
                 position[items[i].parent] if 0 <= items[i].parent < i else -1,
                 tuple(position[k] for k in kids[i]), sibling[i])
            for i in order]

    def descendants(self, n: int) -> Iterator[int]:
        """The nodes below node ``n``, depth-first."""
        stack = list(reversed(self.nodes[n].children))
        while stack:
            k = stack.pop()
            yield k
            stack.extend(reversed(self.nodes[k].children))


def _regex(pattern: Any) -> re.Pattern[str]:
    try:
        return re.compile(str(pattern))
    except re.error as e:
        raise SelectorError("java.util.regex.PatternSyntaxException", f"{e}: {pattern}") from None


def _text(value: str) -> str | None:
    return value or None  # an empty text is no text (AccessibilityNodeInfo: null)


Test = Callable[[Node], bool]


def _criterion(key: str, value: Any) -> Test:
    """The test of one criterion on a node."""
    strings: dict[str, Callable[[Node], str | None]] = {
        "text": lambda n: _text(n.element.text),
        "description": lambda n: _text(n.element.content_desc),
        "className": lambda n: _text(n.element.class_name),
        "packageName": lambda n: _text(n.element.package),
        "resourceId": lambda n: _text(n.element.resource_id),
    }
    flags: dict[str, Callable[[Node], bool]] = {
        "checkable": lambda n: n.element.checkable, "checked": lambda n: n.element.checked,
        "clickable": lambda n: n.element.clickable,
        "longClickable": lambda n: n.element.long_clickable,
        "scrollable": lambda n: n.element.scrollable, "enabled": lambda n: n.element.enabled,
        "focusable": lambda n: n.focusable, "focused": lambda n: n.element.focused,
        "selected": lambda n: n.element.selected,
    }
    if key in flags:
        if not isinstance(value, bool):
            raise SelectorError("com.fasterxml.jackson.databind.exc.InvalidFormatException",
                                f"{key}: not a boolean: {value!r}")
        flag = flags[key]
        return lambda n: flag(n) == value
    if key == "index":
        if isinstance(value, bool) or not isinstance(value, int):
            raise SelectorError("com.fasterxml.jackson.databind.exc.InvalidFormatException",
                                f"index: not an int: {value!r}")
        return lambda n: n.index == value
    for base, get in strings.items():
        if not key.startswith(base):
            continue
        suffix = key[len(base):]
        if value is None or not isinstance(value, str):
            raise SelectorError("java.lang.IllegalArgumentException", f"{key} cannot be null")
        if suffix == "":
            return lambda n: get(n) == value
        if suffix == "Contains":
            return lambda n: (s := get(n)) is not None and value in s
        if suffix == "StartsWith":
            return lambda n: (s := get(n)) is not None and s.startswith(value)
        if suffix == "Matches":
            regex = _regex(value)
            return lambda n: (s := get(n)) is not None and regex.fullmatch(s) is not None
    raise SelectorError("java.lang.IllegalArgumentException", f"unknown criterion {key}")


@dataclass(frozen=True)
class Level:
    """One selector of a chain: its tests and its instance (None: all matches)."""

    tests: tuple[Test, ...]
    instance: int | None
    relation: str  # "" for the first, "child" or "sibling"

    def matches(self, node: Node) -> bool:
        return all(test(node) for test in self.tests)


def _level(selector: Any, relation: str = "") -> Level:
    if not isinstance(selector, dict):
        raise SelectorError("com.fasterxml.jackson.databind.exc.MismatchedInputException",
                            f"a selector must be an object, got {selector!r}")
    mask = selector.get("mask", 0)
    if isinstance(mask, bool) or not isinstance(mask, int):
        raise SelectorError("com.fasterxml.jackson.databind.exc.InvalidFormatException",
                            f"mask: not a number: {mask!r}")
    tests = tuple(_criterion(key, selector.get(key)) for key, bit in MASKS.items()
                  if mask & bit and key != "instance")
    instance = None
    if mask & INSTANCE:
        value = selector.get("instance", 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SelectorError("com.fasterxml.jackson.databind.exc.InvalidFormatException",
                                f"instance: not an int: {value!r}")
        instance = value
    return Level(tests, instance, relation)


def _chain(selector: Any) -> list[Level]:
    levels = [_level(selector)]
    kinds = selector.get("childOrSibling") or []
    subs = selector.get("childOrSiblingSelector") or []
    if not isinstance(kinds, list) or not isinstance(subs, list):
        raise SelectorError("com.fasterxml.jackson.databind.exc.MismatchedInputException",
                            "childOrSibling and childOrSiblingSelector must be arrays")
    for kind, sub in zip(kinds, subs, strict=False):  # Java reads the shorter one
        kind = str(kind).lower()
        if kind in ("child", "sibling"):
            levels.append(_level(sub, kind))
    return levels


def resolve(tree: Tree, selector: Any) -> list[int]:
    """The nodes (positions in ``tree.nodes``) that ``selector`` finds, in dump order.
    Raises ``SelectorError`` for a selector the server would reject."""
    levels = _chain(selector)
    found: list[int] = []
    for depth, level in enumerate(levels):
        if depth == 0:
            pool: list[int] = list(range(len(tree.nodes)))
        else:
            seen: dict[int, None] = {}
            for n in found:
                start = n if level.relation == "child" else tree.nodes[n].parent
                below = (tree.descendants(start) if start >= 0 else
                         iter(range(len(tree.nodes))))
                for k in below:
                    seen.setdefault(k)
            pool = list(seen)
        found = [n for n in pool if level.matches(tree.nodes[n])]
        if level.instance is not None:
            found = found[level.instance:level.instance + 1] if level.instance >= 0 else []
    return found


def is_by_selector(selector: Any) -> bool:
    """Whether the server serves ``selector`` with a ``UiObject2`` (``toUiObject2``): no
    chain, no index or instance, and some criterion (``Selector.checkBySelectorNull``)."""
    if not isinstance(selector, dict) or selector.get("childOrSibling"):
        return False
    mask = selector.get("mask", 0)
    if not isinstance(mask, int) or mask & (INDEX | INSTANCE):
        return False
    return any(mask & bit for bit in MASKS.values())


def describe(selector: Any) -> str:
    """``UiSelector.toString``: ``UiSelector[TEXT=Clock, INSTANCE=1]`` (what the server's
    ``UiObjectNotFoundException`` says)."""
    if not isinstance(selector, dict):
        return "UiSelector[]"
    mask = selector.get("mask", 0) if isinstance(selector.get("mask"), int) else 0
    parts = [f"{NAMES[key]}={selector.get(key)}" for key, bit in MASKS.items() if mask & bit]
    for kind, sub in zip(selector.get("childOrSibling") or [],
                         selector.get("childOrSiblingSelector") or [], strict=False):
        parts.append(f"{'CHILD' if str(kind).lower() == 'child' else 'PARENT'}={describe(sub)}")
    return f"UiSelector[{', '.join(parts)}]"
