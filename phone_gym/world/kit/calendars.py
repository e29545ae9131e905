"""A calendar's month and day views, as Simple Calendar draws them: a month grid whose day
cells hold the day's events as coloured chips with their titles, and a day of hour rows with
each event a block as tall as it lasts. Chips and blocks are elements with the event's title
that open the event; a cell's day number selects the day (id ``day_YYYY-MM-DD``)."""

from __future__ import annotations

import calendar
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial

from ..widgets import Node, Row

#: Event colours (Simple Calendar's default event type colours vary by type; here by title,
#: so that an event keeps its colour): blue, orange, green, purple, red, teal, pink, brown.
EVENT_COLORS: tuple[tuple[int, int, int], ...] = (
    (33, 118, 210), (239, 108, 0), (56, 142, 60), (142, 36, 170), (211, 47, 47),
    (0, 137, 123), (216, 27, 96), (109, 76, 65),
)
CELL_H = 196  # a month cell: the day number and two chips
DAY_NUMBER_H = 76
CHIP_H = 56
HOUR_H = 120  # a day view's hour row
HOUR_LABEL_W = 150  # the hours' column at the left of a day view


def event_color(title: str) -> tuple[int, int, int]:
    """A title's colour: the same on every machine (not Python's salted ``hash``)."""
    return EVENT_COLORS[sum(title.encode()) % len(EVENT_COLORS)]


@dataclass(frozen=True)
class Shown:
    """An event as a view shows it: its id, title, and its minutes from the day's start
    (``start``, ``end``; the whole day for an all-day event)."""

    id: int
    title: str
    start: int = 0
    end: int = 24 * 60
    when: str = ""  # its time, as text ("14:00 – 15:00")


def MonthView(year: int, month: int, events: Mapping[date, Sequence[Shown]], *,
              selected: date, today: date, on_day: Callable[[date], None],
              on_event: Callable[[int], None], max_chips: int = 2) -> list[Node]:
    """The weeks of a month (Monday first, as Simple Calendar's default) as rows of cells:
    the day's number (id ``day_<iso>``, the chosen day filled, today outlined) over up to
    ``max_chips`` event chips (id ``event_chip_<id>_<iso>``, text the title); when more
    events than that fall on the day, the last slot says "+N" (id ``more_<iso>``)."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1..12, got {month!r}")
    if max_chips < 0:
        raise ValueError(f"max_chips must be 0 or more, got {max_chips!r}")
    rows: list[Node] = []
    chip_h = CHIP_H * 1000 // CELL_H
    top = DAY_NUMBER_H * 1000 // CELL_H
    for week in calendar.Calendar().monthdayscalendar(year, month):
        cells: list[Node] = []
        for d in week:
            cell = Node("board", height=CELL_H)
            cells.append(cell)
            if not d:
                continue
            day = date(year, month, d)
            number = Node("day", text=str(d), id=f"day_{day.isoformat()}",
                          desc=f"{calendar.day_name[day.weekday()]}, "
                               f"{calendar.month_name[month]} {d}",
                          selected=day == selected, style="today" if day == today else "",
                          on_click=partial(on_day, day))
            number.at = (0, 0, 1000, top)
            cell.children.append(number)
            shown = list(events.get(day, ()))
            # what does not fit: the last slot says how many more
            fits = max_chips if len(shown) <= max_chips else max(0, max_chips - 1)
            for k, e in enumerate(shown[:fits]):
                chip = Node("event_chip", text=e.title, id=f"event_chip_{e.id}_{day.isoformat()}",
                            color=event_color(e.title), on_click=partial(on_event, e.id))
                chip.at = (20, top + k * chip_h, 980, top + (k + 1) * chip_h - 10)
                cell.children.append(chip)
            if len(shown) > fits:
                more = Node("day", text=f"+{len(shown) - fits}", style="header",
                            id=f"more_{day.isoformat()}")
                more.at = (0, top + fits * chip_h, 1000, top + (fits + 1) * chip_h)
                cell.children.append(more)
        rows.append(Row(cells))
    return rows


def DayView(events: Sequence[Shown], *, on_event: Callable[[int], None],
            first_hour: int = 0, last_hour: int = 24) -> Node:
    """A day's hours (``first_hour`` to ``last_hour``) as rows with their labels ("9 AM"),
    and each event a block from its start to its end (at least half an hour tall), side by
    side where events overlap; a block (id ``event_block_<id>``) shows the title and time
    and opens the event."""
    if not 0 <= first_hour < last_hour <= 24:
        raise ValueError(f"hours must satisfy 0 <= first_hour < last_hour <= 24, got "
                         f"{first_hour}..{last_hour}")
    hours = last_hour - first_hour
    span = hours * 60
    board = Node("board", id="day_view", style=f"hours:{hours}:{HOUR_LABEL_W}",
                 height=hours * HOUR_H)
    for i in range(hours):
        h = first_hour + i
        label = Node("day", text=f"{h % 12 or 12} {'AM' if h < 12 else 'PM'}", style="header")
        label.at = (0, i * 1000 // hours, HOUR_LABEL_W * 1000 // 1080,
                    i * 1000 // hours + 1000 // (2 * hours))
        board.children.append(label)
    # overlapping events share the width: each takes the first free column
    placed: list[tuple[Shown, int]] = []
    ends: list[int] = []
    for e in sorted(events, key=lambda e: (e.start, e.end, e.id)):
        col = next((c for c, end in enumerate(ends) if end <= e.start), len(ends))
        if col == len(ends):
            ends.append(0)
        ends[col] = max(e.end, e.start + 30)
        placed.append((e, col))
    cols = max(1, len(ends))
    left = HOUR_LABEL_W * 1000 // 1080 + 10
    width = (1000 - left - 10) // cols
    for e, col in placed:
        start = max(0, e.start - first_hour * 60)
        end = min(span, max(e.end, e.start + 30) - first_hour * 60)
        if end <= 0 or start >= span:
            continue
        block = Node("event_chip", text=e.title, hint=e.when, style="block",
                     id=f"event_block_{e.id}", color=event_color(e.title),
                     on_click=partial(on_event, e.id))
        block.at = (left + col * width, start * 1000 // span,
                    left + (col + 1) * width - 8, end * 1000 // span - 2)
        board.children.append(block)
    return board
