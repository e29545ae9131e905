"""Small helpers the kit's blocks share."""

from __future__ import annotations

import re

from ..widgets import Handler, Node

_NOT_ID = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """``text`` as a resource id part: lower case, runs of other characters as ``_``
    ("Keep editing" -> "keep_editing")."""
    return _NOT_ID.sub("_", text.lower()).strip("_") or "item"


def tall(node: Node, height: int) -> Node:
    """``node`` with a fixed ``height`` (an icon as tall as the field beside it)."""
    node.height = height
    return node


def weighted(node: Node, weight: float) -> Node:
    """``node`` with a share ``weight`` of a row's width."""
    node.weight = weight
    return node


def when(enabled: bool, node: Node) -> Node:
    """``node`` enabled or not (a disabled node is not clickable)."""
    node.enabled = enabled
    return node


def call(fn: Handler | None) -> None:
    """Call ``fn`` if there is one."""
    if fn is not None:
        fn()
