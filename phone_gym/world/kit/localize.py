"""The kit's built-in strings in another locale: ``localize_tree`` shows the English UI
strings that shared widgets draw (a search field's hint, a capsule menu's "Back to WeChat",
a pay sheet's payee, "No results for ...") in an app's catalogue words, so that any app built
on the kit runs in zh-CN without re-stating them."""

from __future__ import annotations

import re
from typing import Any

from ..app import App, app_strings
from ..locale import DEFAULT_LOCALE, ZH_WEEKDAYS
from ..widgets import Node, Screen

#: Texts the shared kit draws with a field (the capsule menu's "Back to WeChat", the pay
#: sheet's payee, a search without results): (English prefix, catalogue key, suffix).
TREE_PATTERNS = (("Back to ", "Back to {value}", ""), ("To ", "To {value}", ""),
                ('No results for "', 'No results for "{value}"', '"'))


def localize_tree(node: Node, strings: dict[str, str]) -> None:
    """Show the English UI strings in ``node``'s tree (the kit's included, and the rows its
    virtual lists build) in the catalogue ``strings``' words; data is left as it is. For an
    app whose catalogue holds the kit's strings it shows (WeChat's own ``localize_kit``
    uses a fixed list)."""
    for attr in ("text", "hint", "desc"):
        value = getattr(node, attr)
        if value in strings:
            setattr(node, attr, strings[value])
            continue
        for prefix, key, suffix in TREE_PATTERNS:
            if value.startswith(prefix) and value.endswith(suffix) and len(value) > len(prefix) \
                    and key in strings:
                inner = value[len(prefix):len(value) - len(suffix) if suffix else None]
                setattr(node, attr, strings[key].format(value=inner))
                break
    for child in node.children:
        localize_tree(child, strings)
    if node.rows is not None:
        build = node.rows.build

        def built(i: int, build: Any = build) -> Node:
            row = build(i)
            localize_tree(row, strings)
            return row
        node.rows.build = built


def localize_screen(screen: Screen, strings: dict[str, str]) -> Screen:
    """``screen`` with ``localize_tree`` applied to its content, top bar, bottom bar,
    dialog, floating button and dock (what an app's ``view`` returns in a locale other
    than en-US)."""
    for part in (*screen.content, screen.top_bar, screen.bottom, screen.dialog, screen.fab,
                 screen.dock):
        if part is not None:
            localize_tree(part, strings)
    return screen


# --- the kit's date and time pickers in zh-CN ----------------------------------------------
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_WD = "|".join(_DAYS)
_MO = "|".join(_MONTHS)
_WD3 = "|".join(d[:3] for d in _DAYS)
_MO3 = "|".join(m[:3] for m in _MONTHS)


def _zh_date(text: str) -> str | None:
    """One of the pickers' English dates as Android's zh-CN writes it, or None."""
    if m := re.fullmatch(rf"({_WD3}), ({_MO3}) (\d+)", text):  # the headline: Thu, Oct 15
        wd = ZH_WEEKDAYS[[d[:3] for d in _DAYS].index(m[1])].replace("星期", "周")
        return f"{[x[:3] for x in _MONTHS].index(m[2]) + 1}月{m[3]}日{wd}"
    if m := re.fullmatch(rf"(Today )?({_WD}), ({_MO}) (\d+)(?:, (\d+))?", text):  # a day
        year = f"{m[5]}年" if m[5] else ""
        day = f"{year}{_MONTHS.index(m[3]) + 1}月{m[4]}日{ZH_WEEKDAYS[_DAYS.index(m[2])]}"
        return f"今天 {day}" if m[1] else day
    if m := re.fullmatch(rf"({_MO}) (\d{{4}})( ▾)?", text):  # the month: October 2026 ▾
        return f"{m[2]}年{_MONTHS.index(m[1]) + 1}月{m[3] or ''}"
    if m := re.fullmatch(r"Navigate to year (\d+)", text):
        return f"前往{m[1]}年"
    if m := re.fullmatch(r"(\d+) (o'clock|hours|minutes)", text):  # the time picker's chips
        return m[1] + {"o'clock": "点", "hours": "点", "minutes": "分"}[m[2]]
    return None


def localize_dates(node: Node) -> None:
    """Show the English dates and times the kit's pickers draw (``MaterialDatePicker``'s
    headline, month, weekday header and days' descriptions; ``MaterialTimePicker``'s chips)
    as Android does in zh-CN: 10月15日周四, 2026年10月, 日 一 二 ..., 10月1日星期四. Their
    fixed words (OK, Cancel, Enter date) come from the app's catalogue (``localize_tree``)."""
    if node.kind == "day" and node.style == "header" and node.desc in _DAYS:  # S M T W ...
        node.text = ZH_WEEKDAYS[_DAYS.index(node.desc)][-1]
        node.desc = ZH_WEEKDAYS[_DAYS.index(node.desc)]
    for attr in ("text", "desc"):
        zh = _zh_date(getattr(node, attr))
        if zh is not None:
            setattr(node, attr, zh)
    for child in node.children:
        localize_dates(child)


def in_locale(app: App, screen: Screen) -> Screen:
    """``screen`` of ``app`` as its phone's locale shows it: on a phone in another locale
    than en-US, ``localize_screen`` over the app's catalogue (its fixed strings, the kit's
    included); as it is on an en-US phone. What an app's ``view`` returns."""
    locale = app.system.locale
    if locale != DEFAULT_LOCALE:
        localize_screen(screen, dict(app_strings(type(app), locale).strings))
    return screen


__all__ = ["TREE_PATTERNS", "in_locale", "localize_dates", "localize_screen",
           "localize_tree"]
