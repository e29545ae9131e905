"""Bottom navigation: Material 3's NavigationBar, and WeChat's four-tab bar.

``BottomNav(labels, icons, selected, on_select)`` is a ``Screen(bottom=...)``: 2 to 5
destinations, each a Material icon over its label, the selected one on the palette's tonal
pill (Material 3's active indicator, 64 x 32 dp) in the app's accent. With
``style="wechat"`` it is WeChat's bar instead: no pill, the selected icon and label in the
app's green, the others in the text colour.

Accessibility follows Android's ``BottomNavigationView``: every destination is a clickable
item whose text and content description are its label and which reports ``selected``
(``BottomNavigationItemView`` sets both from the menu item's title). Ids are
``tab_<label>`` (as ``Tabs``), so a destination moved from top tabs to the bottom bar keeps
its id and text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from ..icons import is_icon
from ..manifest import NAV_STYLES
from ..widgets import Node, Tab, TabBar
from .common import slug

#: Android's BottomNavigationView takes at most five items (``getMaxItemCount``) and sets
#: no minimum; Material 3 advises three to five. Two is the least that navigates.
MIN_ITEMS, MAX_ITEMS = 2, 5


def BottomNav(labels: Sequence[str], icons: Sequence[str] | Mapping[str, str], selected: str,
              on_select: Callable[[str], None], *, style: str = "material") -> Node:
    """A bottom navigation bar of ``labels`` (ids ``tab_<label>``; ``tab_<icon>`` for a
    label with no Latin letters or digits, such as 首页) with one Material icon
    each (``icons`` in the same order, or by label); ``selected`` is the current one. A tap
    calls ``on_select(label)``. ``style`` is one of ``NAV_STYLES``."""
    labels = list(labels)
    if not MIN_ITEMS <= len(labels) <= MAX_ITEMS:
        raise ValueError(f"BottomNav: {len(labels)} destinations; accepted: "
                         f"{MIN_ITEMS} to {MAX_ITEMS}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"BottomNav: labels must differ, got {labels}")
    if style not in NAV_STYLES:
        raise ValueError(f"BottomNav: style {style!r}; accepted: {', '.join(NAV_STYLES)}")
    if isinstance(icons, Mapping):
        missing = [label for label in labels if label not in icons]
        if missing:
            raise ValueError(f"BottomNav: no icon for {missing}; give one per label")
        names = [icons[label] for label in labels]
    else:
        names = list(icons)
        if len(names) != len(labels):
            raise ValueError(f"BottomNav: {len(names)} icons for {len(labels)} labels; "
                             "give one icon per label")
    for name in names:
        if not is_icon(name):
            raise ValueError(f"BottomNav: {name!r} is not a Material icon name "
                             "(accepted: the names in world/fonts/MaterialIcons.codepoints)")
    if selected not in labels:
        raise ValueError(f"BottomNav: selected {selected!r}; accepted: {', '.join(labels)}")
    items = []
    for label, name in zip(labels, names, strict=True):
        key = slug(label)
        key = name if key == "item" else key  # a label with no Latin letters (首页): its icon
        item = Tab(label, label == selected, partial(on_select, label), id=f"tab_{key}")
        item.glyph, item.desc, item.style = name, label, f"nav_{style}"
        items.append(item)
    bar = TabBar(items)
    bar.style = style
    return bar
