"""Modal blocks: a confirm dialog, a single-choice dialog and a bottom sheet. Show one as
``Screen(dialog=..., on_dismiss=close)``: back and taps outside call ``on_dismiss``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from ..widgets import Column, Dialog, DialogButton, Handler, ListItem, Node, Text
from .common import slug


def ConfirmDialog(
    title: str, message: str, *, on_confirm: Handler, on_cancel: Handler,
    confirm: str = "OK", cancel: str = "Cancel", destructive: bool = False,
) -> Node:
    """A dialog asking to confirm an action: ``cancel`` and ``confirm`` text buttons (ids
    ``button_<label>``), the confirm one red when ``destructive`` (deleting, discarding)."""
    ok = DialogButton(confirm, on_confirm, id=f"button_{slug(confirm)}")
    if destructive:
        ok.style = "text_danger"
    return Dialog(title, message, [DialogButton(cancel, on_cancel, id=f"button_{slug(cancel)}"),
                                   ok])


def Radio(label: str, checked: bool, on_click: Handler, *, id: str = "") -> Node:
    """A radio button row with a label (one choice among several)."""
    return Node("radio", text=label, checked=checked, on_click=on_click, id=id)


def ChoiceDialog(
    title: str, options: Sequence[str], selected: str, on_pick: Callable[[str], None],
    on_cancel: Handler, *, id: str = "choices",
) -> Node:
    """A dialog to pick one of ``options`` (radio buttons, ids ``option_<label>``); a tap
    calls ``on_pick(option)``. Keep the options few (about 8): the dialog does not scroll."""
    radios = [Radio(o, o == selected, partial(on_pick, o), id=f"option_{slug(o)}")
              for o in options]
    return Dialog(title, "", [DialogButton("Cancel", on_cancel, id="button_cancel")],
                  body=[Column(radios, id=id)])


@dataclass(frozen=True)
class SheetOption:
    """One row of a bottom sheet."""

    label: str
    on_click: Handler
    glyph: str = ""
    subtitle: str = ""
    id: str = ""


def BottomSheet(
    title: str, options: Sequence[SheetOption | tuple[str, Handler]], *,
    body: Sequence[Node] = (), id: str = "sheet",
) -> Node:
    """A modal panel sliding up from the bottom: a title, optional ``body`` widgets, then
    the ``options`` as rows (ids ``option_<label>`` unless given). Show it as a
    ``Screen.dialog``; the device lays a ``sheet`` out full width at the bottom."""
    kids: list[Node] = [Text(title, style="title", id="sheet_title")] if title else []
    kids.extend(body)
    for option in options:
        o = option if isinstance(option, SheetOption) else SheetOption(*option)
        kids.append(ListItem(o.label, o.subtitle, on_click=o.on_click, glyph=o.glyph,
                             id=o.id or f"option_{slug(o.label)}"))
    return Node("sheet", id=id, children=kids)
