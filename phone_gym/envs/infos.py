"""Values of PhoneWorld's ``info``: the UI element list, built lazily, and its compact form.

``info["ui_elements"]`` is a ``UIElementList``: a sequence of dicts (``UIElement.to_dict``)
built on first access, so steps that never look at it cost nothing. Between processes
(``phone_gym.envs.vector``) it travels as ``PackedUIElements``: one tuple of field values
per element, a third of the pickled size and a fraction of the time; the receiving side
unpickles it as a ``UIElementList`` again, whose dicts are made on first access.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from ..world.a11y import UIElement, ui_elements
from ..world.layout import Frame

#: A UI element as a tuple of its ``UI_FIELDS`` values (tuples stay tuples).
Row = tuple[Any, ...]
#: The fields of ``UIElement``, in the order of a ``Row``: the keys of each dict.
UI_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(UIElement)
                                 if f.name not in ("kind", "full_bounds"))
_row_of = operator.attrgetter(*UI_FIELDS)
# the rows of the last frame asked for: a frame is not changed once built (the device
# builds a new one after each change), and consecutive steps often show the same frame
_last: tuple[weakref.ref[Frame], tuple[Row, ...]] | None = None


def ui_rows(frame: Frame) -> tuple[Row, ...]:
    """The elements of ``ui_elements(frame)`` as rows (the last frame's are remembered)."""
    global _last
    last = _last
    if last is not None and last[0]() is frame:
        return last[1]
    rows = tuple(_row_of(e) for e in ui_elements(frame))
    _last = (weakref.ref(frame), rows)
    return rows


def row_dict(row: Row) -> dict[str, Any]:
    """The dict of one row, as ``UIElement.to_dict`` makes it (tuples as lists)."""
    return {name: list(value) if isinstance(value, tuple) else value
            for name, value in zip(UI_FIELDS, row, strict=True)}


class UIElementList(Sequence[dict[str, Any]]):
    """The UI elements of one frame (or of rows from another process) as dicts, built on
    first access (most steps never look). Pickles and copies as a plain list."""

    def __init__(self, frame: Frame | None = None, rows: Sequence[Row] | None = None) -> None:
        if (frame is None) == (rows is None):
            raise ValueError("UIElementList takes a frame or rows (one of them)")
        self._frame: Frame | None = frame
        self._rows: tuple[Row, ...] | None = None if rows is None else tuple(rows)
        self._items: list[dict[str, Any]] | None = None

    def rows(self) -> tuple[Row, ...]:
        """The elements as rows of ``UI_FIELDS`` values: the compact form."""
        if self._rows is None:
            assert self._frame is not None
            self._rows, self._frame = ui_rows(self._frame), None
        return self._rows

    def packed(self) -> PackedUIElements:
        """The compact form to send to another process (unpickles as a ``UIElementList``)."""
        return PackedUIElements(self.rows())

    def _get(self) -> list[dict[str, Any]]:
        if self._items is None:
            self._items = [row_dict(row) for row in self.rows()]
        return self._items

    def __getitem__(self, index: Any) -> Any:
        return self._get()[index]

    def __len__(self) -> int:
        return len(self._get())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._get() == list(other)

    def __repr__(self) -> str:
        return repr(self._get())

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (self._get(),))


class PackedUIElements:
    """A ``UIElementList`` in compact form (its rows): pickles as the rows and unpickles as
    a ``UIElementList``, so only tuples of values cross between processes."""

    __slots__ = ("rows",)

    def __init__(self, rows: tuple[Row, ...]) -> None:
        self.rows = rows

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpack, (self.rows,))


def _unpack(rows: tuple[Row, ...]) -> UIElementList:
    return UIElementList(rows=rows)


__all__ = ["UI_FIELDS", "PackedUIElements", "Row", "UIElementList", "row_dict", "ui_rows"]
