"""Material's date picker (``kit.pickers.MaterialDatePicker``) in another locale: the
headline, the month, the weekday header and the days' descriptions as Android's zh-CN
Material picker writes them ("10月15日周四", "2026年10月", 日 一 二 ...); the fixed strings
then come from the app's catalogue through ``localize_tree``."""

from __future__ import annotations

from datetime import date

from ..locale import DEFAULT_LOCALE, ZH_WEEKDAYS, check_locale
from ..widgets import Node
from .pickers import CalendarState

#: Sunday first, as the picker's header (Material's zh-CN narrow weekdays).
ZH_NARROW = ("日", "一", "二", "三", "四", "五", "六")


def zh_day_description(day: date, today: date) -> str:
    """A day's description in the zh-CN grid: "10月15日星期四" (the year first outside
    today's year; 今天 first for today)."""
    text = f"{day.month}月{day.day}日{ZH_WEEKDAYS[day.weekday()]}"
    if day.year != today.year:
        text = f"{day.year}年{text}"
    return f"今天 {text}" if day == today else text


def localize_date_picker(node: Node, state: CalendarState, locale: str) -> Node:
    """Rewrite the formatted texts of the date picker ``node`` (made from ``state``) for
    ``locale``; en-US leaves it as it is. Raises ``ValueError`` for an unknown locale."""
    check_locale(locale)
    if locale == DEFAULT_LOCALE:
        return node
    sel = state.selected
    stack = [node]
    while stack:
        n = stack.pop()
        stack += n.children
        nid = n.id or ""
        if nid == "mtrl_picker_header_selection_text":
            n.text = f"{sel.month}月{sel.day}日{ZH_WEEKDAYS[sel.weekday()].replace('星期', '周')}"
        elif nid == "month_navigation_fragment_toggle":
            n.text = f"{state.year}年{state.month}月 ▾"
        elif nid == "mtrl_calendar_days_of_week":
            for i, cell in enumerate(n.children):
                for c in [cell, *cell.children]:
                    if c.text:
                        c.text = ZH_NARROW[i]
                    if c.desc:
                        c.desc = ZH_WEEKDAYS[(i - 1) % 7]
        elif nid.startswith("day_") and len(nid) == 14:
            try:
                n.desc = zh_day_description(date.fromisoformat(nid[4:]), state.today)
            except ValueError:
                pass
        elif nid.startswith("year_") and nid[5:].isdigit():
            n.desc = f"转到{nid[5:]}年"
    return node


__all__ = ["ZH_NARROW", "localize_date_picker", "zh_day_description"]
