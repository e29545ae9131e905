"""Reading a clock app's alarm list from its screen (``uiautomator dump`` XML).

A phone keeps its alarms in the clock app's private database, which the shell cannot query.
The alarm manager (``dumpsys alarm``) does not list them either: AOSP DeskClock
(``alarms.AlarmStateManager``) gives it each switched-on alarm's next state change (2 h or
30 min before it rings) and one ``setAlarmClock`` entry for the next alarm, nothing for
switched-off ones (``real.state``: ``next_alarm`` is all it gives faithfully). The clock's
own alarm list shows them all, on and off, so ``AdbState.alarms`` opens it
(``AlarmClock.ACTION_SHOW_ALARMS``) and reads it with ``parse_alarm_page``, page by page.

Rows are found generically, the way AOSP DeskClock and Google Clock lay them out
(packages/apps/DeskClock ``res/layout/alarm_time_collapsed.xml``: a ``GridLayout`` per alarm
with the time ``@id/digital_clock`` and the switch ``@id/onoff`` on its first row, the label
``@id/label`` and the repeat days ``@id/days_of_week`` below them; ``CollapsedAlarmViewHolder``
shows the label only when the alarm has one):

- a row is anchored by a node whose text is a time in the phone's locale ("7:30", "07:30",
  "7:30 AM", "下午3:30", "오후 3:30", "3:30 nachm.", "٣:٣٠ م": ``time_of``; with a
  ``…:id/digital_clock`` resource-id when the dump has any, only those count). A 12-hour
  time whose day-period marker is a separate text node takes it from the same row;
- the row is the anchor's ancestor just below the list (a ``RecyclerView``/``ListView`` or a
  scrollable node) that holds no other anchor; with no list around the anchors, the row is
  the vertical band from its anchor down to the next anchor;
- ``enabled`` is the ``checked`` state of the row's switch (``…:id/onoff``, else a
  ``Switch``, else any checkable node);
- the label is the text of ``…:id/label`` (or ``…:id/edit_label`` of an expanded row, whose
  empty hint reads "Label"), else the first other short text of the row that is not a time,
  AM/PM, a day list ("Mon, Wed", "Every day", "Weekdays", "Once", "Tomorrow"...), nor one of
  the clock's own words ("Alarm", "Add alarm", "Label", "Delete"...).

Only nodes of the clock's package are read. A row that touches the top or bottom edge of the
scrolling list may be cut off: it counts only on the first page (top) or the last (bottom),
where nothing is cut off; ``merge_pages`` joins the pages of a scrolled list.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..verifiers.state import AlarmRow, DeviceError

Rect = tuple[int, int, int, int]

#: A time as clocks show it in any locale: hours and minutes (any script's digits) apart by
#: ``:``, ``.``, ``∶`` or ``h`` (French Canada's "7 h 30"), with a day-period marker before
#: or after it (or none: a 24-hour clock).
TIME = re.compile(r"^\s*(\D*?)\s*(\d{1,2})\s*(?:[:.\u2236]|h)\s*(\d{2})\s*(\D*?)\s*$")
#: The day-period markers of 12-hour clocks (CLDR's, in the locales phones ship), as
#: ``marker_half`` folds them (casefolded, without spaces and dots): before noon and after.
#: German "vorm."/"nachm.", Spanish "a. m."/"p. m.", Chinese 上午/下午 (and 凌晨, 早上,
#: 中午, 晚上), Japanese 午前/午後 (its 12-hour clock counts 0 to 11), Korean 오전/오후,
#: Arabic ص/م, Greek π.μ./μ.μ., Vietnamese SA/CH, Turkish ÖÖ/ÖS, Persian ق.ظ./ب.ظ., Thai and
#: Hindi's own words.
AM_MARKERS = frozenset({"am", "vorm", "上午", "凌晨", "早上", "午前", "오전", "ص", "πμ", "sa",
                        "öö", "قظ", "ก่อนเที่ยง", "पूर्वाह्न"})
PM_MARKERS = frozenset({"pm", "nachm", "下午", "中午", "晚上", "午後", "오후", "م", "μμ", "ch",
                        "ös", "بظ", "หลังเที่ยง", "अपराह्न"})
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
DAY_WORDS = frozenset(
    "mon monday mo tue tues tuesday tu wed weds wednesday we thu thur thurs thursday th fri "
    "friday fr sat saturday sa sun sunday su and".split())
#: Texts of an alarm row that are never its label (casefolded).
NOT_LABELS = frozenset({
    "alarm", "alarms", "add alarm", "label", "once", "today", "tomorrow", "not scheduled",
    "every day", "everyday", "daily", "weekdays", "weekends", "repeat", "vibrate", "delete",
    "dismiss", "dismiss now", "ringtone", "on", "off", "done", "schedule alarm", "snooze",
    "collapse alarm", "expand alarm", "no alarms",
})
LIST_CLASSES = ("RecyclerView", "ListView", "ScrollView", "GridView")


@dataclass(eq=False)
class UINode:
    """A node of a ``uiautomator dump``, with its parent and children."""

    attrs: dict[str, str]
    bounds: Rect
    parent: UINode | None = None
    children: list[UINode] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.attrs.get("text", "")

    @property
    def rid(self) -> str:
        return self.attrs.get("resource-id", "")

    @property
    def cls(self) -> str:
        return self.attrs.get("class", "")

    def flag(self, name: str) -> bool:
        return self.attrs.get(name, "false").strip().lower() == "true"

    def walk(self) -> Iterator[UINode]:
        yield self
        for child in self.children:
            yield from child.walk()

    def ancestors(self) -> Iterator[UINode]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


@dataclass(frozen=True)
class PageRow:
    """An alarm row on one screen: the alarm, the row's top and bottom, and whether the row
    touches the top or bottom edge of the scrolling list (it may be cut off there)."""

    alarm: AlarmRow
    top: int
    bottom: int
    at_top: bool = False
    at_bottom: bool = False


@dataclass(frozen=True)
class AlarmPage:
    """What one dump shows of the alarm list: its rows top to bottom, and the bounds of the
    list that scrolls (None: nothing scrolls, every row is on screen)."""

    rows: tuple[PageRow, ...]
    scroll: Rect | None = None
    package_shown: bool = True

    def same(self, other: AlarmPage) -> bool:
        """Whether ``other`` shows the same rows at the same places (the list did not move)."""
        return self.rows == other.rows


def read_tree(xml: str) -> UINode:
    """The root of a ``uiautomator dump`` (``DeviceError`` when it is not one)."""
    start, end = xml.find("<hierarchy"), xml.rfind("</hierarchy>")
    if start < 0 or end < start:
        raise DeviceError(f"not a uiautomator dump: {xml[:200]!r}")
    try:
        root = ET.fromstring(xml[start:end + len("</hierarchy>")])
    except ET.ParseError as exc:
        raise DeviceError(f"unreadable uiautomator dump ({exc}): {xml[:200]!r}") from None

    def build(element: ET.Element, parent: UINode | None) -> UINode:
        m = BOUNDS.fullmatch(element.attrib.get("bounds", "").strip())
        rect = (0, 0, 0, 0) if m is None else (int(m[1]), int(m[2]), int(m[3]), int(m[4]))
        node = UINode(dict(element.attrib), rect, parent)
        node.children = [build(child, node) for child in element if child.tag == "node"]
        return node

    return build(root, None)


def marker_half(text: str) -> str | None:
    """"a" or "p" for a day-period marker (``AM_MARKERS``, ``PM_MARKERS``), "" for no text,
    None for any other text."""
    folded = re.sub(r"[\s.]+", "", text.casefold())
    if not folded:
        return ""
    return "a" if folded in AM_MARKERS else "p" if folded in PM_MARKERS else None


def time_of(text: str) -> tuple[int, int, str] | None:
    """``(hour, minute, "a"/"p"/"")`` of a time text in any locale (see ``TIME``), or
    None."""
    m = TIME.match(text)
    if m is None:
        return None
    before, after = marker_half(m[1]), marker_half(m[4])
    if before is None or after is None or (before and after):
        return None
    hour, minute, half = int(m[2]), int(m[3]), before or after
    if minute > 59 or hour > (12 if half else 23):
        return None
    return hour, minute, half


def to_24h(hour: int, half: str) -> int:
    if half == "a":
        return hour % 12
    if half == "p":
        return hour % 12 + 12
    return hour


def is_day_list(text: str) -> bool:
    words = [w for w in re.split(r"[\s,.·/&+\-]+", text.casefold()) if w]
    return bool(words) and all(w in DAY_WORDS for w in words)


def may_be_label(node: UINode) -> bool:
    text = node.text.strip()
    folded = text.casefold()
    return bool(text) and len(text) <= 80 and not node.flag("checkable") \
        and "Button" not in node.cls and time_of(text) is None and not marker_half(text) \
        and folded not in NOT_LABELS and not is_day_list(text) \
        and not folded.startswith(("in ", "rings in", "next alarm", "default ("))


def id_is(node: UINode, *names: str) -> bool:
    return any(node.rid.endswith(f":id/{name}") for name in names)


def is_list(node: UINode) -> bool:
    return node.flag("scrollable") or any(node.cls.endswith(c) for c in LIST_CLASSES)


def row_nodes(anchor: UINode, anchors: Sequence[UINode], next_top: int | None,
              nodes: Sequence[UINode]) -> tuple[list[UINode], Rect, UINode | None]:
    """The nodes of ``anchor``'s row, the row's bounds and the list holding it (if any)."""
    others = {id(a) for a in anchors if a is not anchor}
    row = anchor
    for up in anchor.ancestors():
        if is_list(up) or any(id(n) in others for n in up.walk()):
            break
        row = up
    holder = next((up for up in anchor.ancestors() if is_list(up)), None)
    if row is not anchor or anchor.children:
        return [n for n in row.walk() if n is not anchor], row.bounds, holder
    x0, y0, x1, y1 = anchor.bounds  # a flat layout: the band down to the next anchor
    bottom = next_top if next_top is not None else y1 + 3 * (y1 - y0)
    band = [n for n in nodes if n is not anchor and id(n) not in others
            and y0 <= (n.bounds[1] + n.bounds[3]) // 2 < bottom]
    return band, (min([x0, *(n.bounds[0] for n in band)]), y0,
                  max([x1, *(n.bounds[2] for n in band)]), max(bottom, y1)), holder


def switch_of(members: Sequence[UINode]) -> UINode | None:
    checkable = [n for n in members if n.flag("checkable")]
    return (next((n for n in checkable if id_is(n, "onoff")), None)
            or next((n for n in checkable if "Switch" in n.cls), None)
            or next(iter(checkable), None))


def label_of(members: Sequence[UINode]) -> str:
    for node in members:
        if id_is(node, "label", "edit_label"):
            text = node.text.strip()
            return "" if text.casefold() == "label" and id_is(node, "edit_label") else text
    return next((n.text.strip() for n in members
                 if may_be_label(n) and not id_is(n, "days_of_week", "upcoming_instance_label")),
                "")


def parse_alarm_page(xml: str, package: str) -> AlarmPage:
    """The alarm rows a ``uiautomator dump`` of ``package``'s alarm list shows (see the module
    doc). ``package_shown`` is False when no node of ``package`` is on screen (the clock did
    not open). ``DeviceError`` for a dump that is not XML, or a row with no switch."""
    root = read_tree(xml)
    nodes = [n for n in root.walk() if n.attrs.get("package") == package]
    if not nodes:
        return AlarmPage((), None, package_shown=False)
    clocks = [n for n in nodes if id_is(n, "digital_clock")]
    anchors = [n for n in (clocks or nodes) if time_of(n.text) is not None]
    anchors.sort(key=lambda n: (n.bounds[1], n.bounds[0]))
    rows: list[PageRow] = []
    scroll: Rect | None = None
    for k, anchor in enumerate(anchors):
        next_top = anchors[k + 1].bounds[1] if k + 1 < len(anchors) else None
        members, rect, holder = row_nodes(anchor, anchors, next_top, nodes)
        hour, minute, half = time_of(anchor.text) or (0, 0, "")
        if not half:  # a 12-hour time whose marker is a node of its own
            half = next((h for n in members if (h := marker_half(n.text))), "")
        switch = switch_of(members)
        at_top = at_bottom = False
        if holder is not None and holder.flag("scrollable"):
            scroll = holder.bounds
            at_top, at_bottom = rect[1] <= scroll[1], rect[3] >= scroll[3]
        if switch is None:
            if at_top or at_bottom:
                continue  # cut off: seen whole on another page
            raise DeviceError(f"the {anchor.text} alarm row of {package} has no on/off switch "
                              "in the dump")
        rows.append(PageRow(AlarmRow(to_24h(hour, half), minute, switch.flag("checked"),
                                     label_of(members)), rect[1], rect[3], at_top, at_bottom))
    if scroll is None:  # a scrolling list may hold no alarm row yet
        scroll = next((n.bounds for n in nodes if n.flag("scrollable") and is_list(n)), None)
    return AlarmPage(tuple(rows), scroll)


def page_rows(page: AlarmPage, *, first: bool, last: bool) -> list[PageRow]:
    """The rows of ``page`` that are whole: one at the list's top edge only on the first
    page, one at its bottom edge only on the last."""
    return [r for r in page.rows if (first or not r.at_top) and (last or not r.at_bottom)]


def merge_pages(seen: list[PageRow], new: list[PageRow]) -> list[PageRow]:
    """The rows of ``new`` (a page after scrolling down) that ``seen`` (the rows of the page
    before it) does not already hold: the longest end of ``seen`` that starts ``new`` with the
    same alarms, every one of them moved up by one and the same distance. (A run of identical
    alarms, same time, label and state, across a page break is matched at its longest, so
    such twins may be undercounted.)"""
    for m in range(min(len(seen), len(new)), 0, -1):
        tail, head = seen[-m:], new[:m]
        if [r.alarm for r in tail] != [r.alarm for r in head]:
            continue
        shifts = {a.top - b.top for a, b in zip(tail, head, strict=True)}
        if len(shifts) == 1 and shifts.pop() > 0:
            return new[m:]
    return new
