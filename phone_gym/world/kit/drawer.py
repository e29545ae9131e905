"""Navigation drawers and speed-dial FABs (Material's modal ``NavigationView`` in a
``DrawerLayout``, and a FAB that expands into labelled mini-FABs).

A **navigation drawer** is a sheet sliding in from the left over a scrim. The app keeps one
flag (open or not) in its ``ui``; its top bar shows the drawer toggle (``TopBar(on_menu=)``:
the "menu" icon with content description "Open navigation drawer", as Android's
``ActionBarDrawerToggle``, id ``drawer_toggle``), and a drag from the screen's left edge
presses that toggle (``DrawerLayout``'s edge swipe; see ``Device._drag``). While open, the
drawer is the screen's modal layer (``with_drawer``): back, a tap on the scrim, a drag to
the left or choosing a destination close it. Its parts::

    NavigationDrawer([Destination("Inbox", "inbox", go_inbox, id="inbox"), "Labels", ...],
                     selected="Inbox", title="Gmail", on_close=close)

a ``drawer`` node (id ``navigation_drawer``) holding a ``drawer_header`` (``title``, an
optional ``subtitle``, plain or coloured per ``header``), section captions (the strings) and
``drawer_item`` destinations (icon, label, optional trailing ``badge``; the ``selected``
one highlighted as Material's active indicator).

A **speed dial** (Joplin's "New to-do / New note / New notebook") is a FAB whose tap opens
``SpeedDial([DialAction("New note", "description", new_note, id="new_note"), ...],
on_close=close)``: the actions stacked above the FAB, each a labelled mini-FAB, and the FAB
turned into a close button (id ``fab_close``). Show it as ``with_speed_dial``: back and taps
outside it close it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .. import theme as T
from ..icons import is_icon, material_name
from ..widgets import Fab, Handler, Node, Screen
from .common import slug

#: The drawer's width: Material's min(screen - 56 dp, 360 dp) at 2.625 px per dp.
DRAWER_W = T.DRAWER_W
#: The drawer's height: from below the status bar to the navigation bar.
DRAWER_H = T.SCREEN_H - T.STATUS_H - T.NAV_H
#: A destination row (Material 3: 56 dp; ``dense``: Material 2's 48 dp, as Gmail's and
#: Files' drawers), the header, a section caption.
ITEM_H = 148
DENSE_ITEM_H = 126
HEADER_H = {"plain": 180, "colored": 300}
CAPTION_H = 96
#: One speed-dial action's row (a 56 dp mini-FAB and the gap above it) and the dial's width.
DIAL_ITEM_H = 192
#: Header styles: "plain" (the title in the drawer's colours, Material 3) or "colored" (a
#: band in the app bar's colour with the app's name and account, Material 2).
HEADER_STYLES = ("plain", "colored")


@dataclass(frozen=True)
class Destination:
    """One entry of a navigation drawer: its ``label``, Material ``icon``, what choosing
    it does, an id (``nav_<label>`` unless given) and an optional trailing ``badge`` (a
    count)."""

    label: str
    icon: str
    on_click: Handler
    id: str = ""
    badge: str = ""


@dataclass(frozen=True)
class DialAction:
    """One action of a speed dial: its label (also its content description), Material
    ``icon``, handler, id (``dial_<label>`` unless given) and mini-FAB colour (the accent
    when None)."""

    label: str
    icon: str
    on_click: Handler
    id: str = ""
    color: tuple[int, int, int] | None = None


def _check_icon(what: str, icon: str) -> None:
    if not (is_icon(icon) or material_name(icon) is not None):
        raise ValueError(f"{what}: icon {icon!r} is not a Material icon name; accepted: a "
                         "name in icons.codepoints() (e.g. 'inbox', 'folder', 'add')")


def _closing(on_close: Handler, then: Handler) -> Handler:
    def choose() -> None:
        on_close()
        then()
    return choose


def NavigationDrawer(
    items: Sequence[Destination | str], *, selected: str = "", title: str,
    subtitle: str = "", header: str = "plain", on_close: Handler,
    id: str = "navigation_drawer", dense: bool = False,
) -> Node:
    """A modal navigation drawer: a header (``title``, ``subtitle``), then ``items``:
    ``Destination``s and section captions (strings). The destination whose label is
    ``selected`` is highlighted (none when ``selected`` is empty). Choosing a destination
    closes the drawer (``on_close``) and then calls its handler. Rows are ``ITEM_H`` high
    (``DENSE_ITEM_H`` when ``dense``); rows that do not fit the drawer's height are cut
    off."""
    if header not in HEADER_STYLES:
        raise ValueError(f"drawer header {header!r}; accepted: {', '.join(HEADER_STYLES)}")
    dests = [d for d in items if isinstance(d, Destination)]
    if not dests:
        raise ValueError("a navigation drawer needs at least one Destination")
    labels = [d.label for d in dests]
    if selected and selected not in labels:
        raise ValueError(f"drawer: selected {selected!r} is not a destination; accepted: "
                         f"'' or one of {', '.join(map(repr, labels))}")
    kids: list[Node] = [Node("drawer_header", text=title, hint=subtitle, style=header,
                             id="drawer_header", height=HEADER_H[header])]
    ids: set[str] = set()
    row_h = DENSE_ITEM_H if dense else ITEM_H
    for item in items:
        if isinstance(item, str):
            kids.append(Node("text", text=item, style="caption", id=f"{slug(item)}_header",
                             height=CAPTION_H))
            continue
        _check_icon(f"destination {item.label!r}", item.icon)
        nid = item.id or f"nav_{slug(item.label)}"
        if nid in ids:
            raise ValueError(f"drawer: two destinations with id {nid!r}; accepted: unique ids")
        ids.add(nid)
        kids.append(Node("drawer_item", text=item.label, glyph=item.icon, id=nid,
                         hint=item.badge, selected=item.label == selected, height=row_h,
                         on_click=_closing(on_close, item.on_click)))
    return Node("drawer", id=id, children=kids, height=DRAWER_H)


def with_drawer(screen: Screen, drawer: Node | None, on_close: Handler) -> Screen:
    """``screen`` with ``drawer`` open over it (when not None): the drawer becomes the
    modal layer, and back or a tap on the scrim calls ``on_close``. A screen already
    showing a dialog keeps it (the drawer stays closed under a dialog)."""
    if drawer is None or screen.dialog is not None:
        return screen
    if drawer.kind != "drawer":
        raise ValueError(f"with_drawer: a {drawer.kind!r} node; accepted: a NavigationDrawer")
    return replace(screen, dialog=drawer, on_dismiss=on_close)


def SpeedDialFab(icon: str, desc: str, on_open: Handler, *, id: str = "fab") -> Node:
    """The closed speed dial: a FAB whose tap opens the dial (``on_open``)."""
    _check_icon("speed dial FAB", icon)
    fab = Fab(icon, desc, on_open, id=id)
    fab.style = "speed_dial"
    return fab


def SpeedDial(actions: Sequence[DialAction], *, on_close: Handler, close_desc: str = "Close",
              id: str = "speed_dial", scrim: bool = False,
              close_color: tuple[int, int, int] | None = None) -> Node:
    """The open speed dial: ``actions`` stacked bottom-up above the FAB (the first nearest
    the FAB; each a labelled mini-FAB whose tap closes the dial and runs the action), and
    the FAB as a close button (id ``fab_close``, in ``close_color`` or the accent). With
    ``scrim`` the screen behind is dimmed (Material 3); without it (Joplin) it is not."""
    if not actions:
        raise ValueError("a speed dial needs at least one DialAction")
    if not 1 <= len(actions) <= 6:
        raise ValueError(f"a speed dial of {len(actions)} actions; accepted: 1 to 6 "
                         "(Material: a speed dial shows 3 to 6)")
    kids: list[Node] = []
    ids: set[str] = set()
    for action in reversed(actions):  # laid out top to bottom: the last action on top
        _check_icon(f"dial action {action.label!r}", action.icon)
        nid = action.id or f"dial_{slug(action.label)}"
        if nid in ids:
            raise ValueError(f"speed dial: two actions with id {nid!r}; accepted: unique ids")
        ids.add(nid)
        kids.append(Node("speed_dial_item", text=action.label, desc=action.label,
                         glyph=action.icon, id=nid, color=action.color, height=DIAL_ITEM_H,
                         on_click=_closing(on_close, action.on_click)))
    close = Fab("close", close_desc, on_close, id="fab_close")
    close.style, close.color = "close", close_color
    close.height = T.FAB_SIZE + T.PAD
    kids.append(close)
    return Node("speed_dial", id=id, children=kids, style="scrim" if scrim else "")


def with_speed_dial(screen: Screen, dial: Node | None, on_close: Handler) -> Screen:
    """``screen`` with ``dial`` open over it (when not None): back and taps outside it
    call ``on_close``; the closed FAB is hidden under the dial's close button."""
    if dial is None or screen.dialog is not None:
        return screen
    if dial.kind != "speed_dial":
        raise ValueError(f"with_speed_dial: a {dial.kind!r} node; accepted: a SpeedDial")
    return replace(screen, dialog=dial, on_dismiss=on_close, fab=None)


__all__ = ["DENSE_ITEM_H", "DRAWER_W", "DialAction", "Destination", "NavigationDrawer", "SpeedDial",
           "SpeedDialFab", "with_drawer", "with_speed_dial"]
