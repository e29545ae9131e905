"""Date and time pickers: dialogs with a field per part (typed, or stepped with -/+),
validated, answering ISO strings (``2024-03-05``, ``14:05``)."""

from __future__ import annotations

import calendar
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, time
from functools import partial

from .. import theme as T
from ..widgets import Dialog, DialogButton, Handler, Icon, Node, Row, Text, TextField
from .common import tall, weighted


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def _in(text: str, lo: int, hi: int) -> int | None:
    value = _int(text)
    return value if value is not None and lo <= value <= hi else None


def _step(text: str, delta: int, lo: int, hi: int, *, wrap: bool) -> str:
    """``text`` moved by ``delta`` within ``lo..hi`` (wrapping around, or stopping at the
    ends); a value that is not a number starts from ``lo``."""
    value = _int(text)
    if value is None:
        return str(lo)
    value += delta
    if wrap:
        return str(lo + (value - lo) % (hi - lo + 1))
    return str(max(lo, min(hi, value)))


@dataclass
class DateDraft:
    """A date picker's parts while it is open (as typed: strings). Keep it in the app's
    ``ui`` (``DateDraft.from_iso(value)`` when the picker opens); ``DatePicker`` updates it."""

    year: str = ""
    month: str = ""
    day: str = ""
    min_year: int = 1900
    max_year: int = 2100

    @classmethod
    def of(cls, day: date, **limits: int) -> DateDraft:
        return cls(str(day.year), str(day.month), str(day.day), **limits)

    @classmethod
    def from_iso(cls, iso: str, **limits: int) -> DateDraft:
        """The parts of ``YYYY-MM-DD`` (raises ``ValueError`` for anything else)."""
        return cls.of(date.fromisoformat(iso), **limits)

    def days(self) -> int:
        """Days in the chosen month (31 while the year or month is not valid)."""
        year = _in(self.year, self.min_year, self.max_year)
        month = _in(self.month, 1, 12)
        return calendar.monthrange(year, month)[1] if year and month else 31

    def errors(self) -> dict[str, str]:
        """What is wrong, by part (year, month, day)."""
        out: dict[str, str] = {}
        if _in(self.year, self.min_year, self.max_year) is None:
            out["year"] = f"Enter a year from {self.min_year} to {self.max_year}"
        if _in(self.month, 1, 12) is None:
            out["month"] = "Enter a month from 1 to 12"
        if _in(self.day, 1, self.days()) is None:
            out["day"] = f"Enter a day from 1 to {self.days()}"
        return out

    def value(self) -> date | None:
        if self.errors():
            return None
        return date(int(self.year), int(self.month), int(self.day))

    def iso(self) -> str | None:
        """``YYYY-MM-DD``, or None while a part is not valid."""
        value = self.value()
        return value.isoformat() if value else None

    def step(self, part: str, delta: int) -> None:
        """Move ``part`` by ``delta``: the year stops at its limits, the month and day wrap
        around; the day then stays within its month."""
        if part == "year":
            self.year = _step(self.year, delta, self.min_year, self.max_year, wrap=False)
        elif part == "month":
            self.month = _step(self.month, delta, 1, 12, wrap=True)
        else:
            self.day = _step(self.day, delta, 1, self.days(), wrap=True)
        day = _int(self.day)
        if part != "day" and day is not None and day > self.days():
            self.day = str(self.days())


@dataclass
class TimeDraft:
    """A time picker's hour and minute while it is open (as typed: strings)."""

    hour: str = ""
    minute: str = ""

    @classmethod
    def from_iso(cls, iso: str) -> TimeDraft:
        """The parts of ``HH:MM`` (raises ``ValueError`` for anything else)."""
        t = time.fromisoformat(iso)
        return cls(str(t.hour), f"{t.minute:02d}")

    def errors(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if _in(self.hour, 0, 23) is None:
            out["hour"] = "Enter an hour from 0 to 23"
        if _in(self.minute, 0, 59) is None:
            out["minute"] = "Enter a minute from 0 to 59"
        return out

    def iso(self) -> str | None:
        """``HH:MM``, or None while a part is not valid."""
        if self.errors():
            return None
        return f"{int(self.hour):02d}:{int(self.minute):02d}"

    def step(self, part: str, delta: int) -> None:
        """Move ``part`` by ``delta``, wrapping around (23 -> 0, 59 -> 0)."""
        if part == "hour":
            self.hour = _step(self.hour, delta, 0, 23, wrap=True)
        else:
            self.minute = f"{int(_step(self.minute, delta, 0, 59, wrap=True)):02d}"


Part = tuple[str, str, str]  # (part, label, value)


def _picker(
    title: str, parts: Sequence[Part], errors: dict[str, str], summary: str,
    set_part: Callable[[str, str], None], step: Callable[[str, int], None],
    iso: str | None, on_done: Callable[[str], None], on_cancel: Handler,
) -> Node:
    """A dialog with a row per part: a -/+ pair around its field, its error below it."""
    h = T.HEIGHTS["text_field"]
    body: list[Node] = [Text(summary, id="picker_summary")]
    for part, label, value in parts:
        minus = Icon("−", f"Decrease {label.lower()}", partial(step, part, -1),
                     id=f"{part}_decrease")
        plus = Icon("+", f"Increase {label.lower()}", partial(step, part, 1),
                    id=f"{part}_increase")
        field = TextField(value, partial(set_part, part), hint=label, id=part, label=label)
        body.append(Row([weighted(tall(minus, h), 0.3), field, weighted(tall(plus, h), 0.3)],
                        id=f"{part}_row"))
        if part in errors:
            body.append(Text(errors[part], style="error", id=f"{part}_error"))
    ok = DialogButton("OK", lambda: on_done(iso) if iso else None, id="button_ok")
    ok.enabled = iso is not None
    return Dialog(title, "", [DialogButton("Cancel", on_cancel, id="button_cancel"), ok],
                  body=body)


def DatePicker(draft: DateDraft, *, on_done: Callable[[str], None], on_cancel: Handler,
               title: str = "Select date") -> Node:
    """A dialog to choose a date: year, month and day fields (ids ``year``, ``month``,
    ``day``) typed or stepped with -/+ icons (``<part>_decrease``/``<part>_increase``),
    the chosen date spelled out (``picker_summary``), errors under invalid parts
    (``<part>_error``). OK (enabled when valid) calls ``on_done("YYYY-MM-DD")``."""
    value = draft.value()
    summary = f"{value:%a, %B} {value.day}, {value.year}" if value else "Not a valid date"
    return _picker(title, [("year", "Year", draft.year), ("month", "Month", draft.month),
                           ("day", "Day", draft.day)],
                   draft.errors(), summary, lambda p, v: setattr(draft, p, v), draft.step,
                   draft.iso(), on_done, on_cancel)


def TimePicker(draft: TimeDraft, *, on_done: Callable[[str], None], on_cancel: Handler,
               title: str = "Select time") -> Node:
    """A dialog to choose a time of day (24-hour): hour and minute fields (ids ``hour``,
    ``minute``), typed or stepped with -/+ icons; OK calls ``on_done("HH:MM")``."""
    iso = draft.iso()
    return _picker(title, [("hour", "Hour", draft.hour), ("minute", "Minute", draft.minute)],
                   draft.errors(), iso or "Not a valid time", lambda p, v: setattr(draft, p, v),
                   draft.step, iso, on_done, on_cancel)
