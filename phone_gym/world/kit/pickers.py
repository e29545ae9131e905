"""Date and time pickers answering ISO strings (``2024-03-05``, ``14:05``): Android's
Material pickers (``MaterialTimePicker``: a clock face or typed fields;
``MaterialDatePicker``: a month grid or a typed date)."""

from __future__ import annotations

import calendar
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time
from functools import partial

from ..widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    Handler,
    Icon,
    Node,
    Row,
    Spacer,
    Text,
    TextField,
)
from .common import tall, weighted


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def _in(text: str, lo: int, hi: int) -> int | None:
    value = _int(text)
    return value if value is not None and lo <= value <= hi else None


# --- Material pickers (com.google.android.material.timepicker / .datepicker) -----------------
#
# What they show and say follows Material Components for Android 1.9: MaterialTimePicker's
# clock face (ClockFaceView: numbers described "5 o'clock" / "13 hours" / "30 minutes",
# res/values/strings.xml material_hour_suffix, material_hour_24h_suffix,
# material_minute_suffix), its keyboard mode (material_timepicker_text_input_mode_description)
# and MaterialDatePicker's month grid (days described by DateStrings.getDayContentDescription,
# "Monday, March 3"; month arrows "Change to previous month" / "Change to next month"; the
# year toggle; the pencil switching to text input, the date typed as mm/dd/yyyy in en-US).

#: The hour ring of a 12-hour face, clockwise from the top; a 24-hour face has "00".."11"
#: outside and "12".."23" inside (TimePickerClockPresenter's HOUR_CLOCK_VALUES,
#: HOUR_CLOCK_24_VALUES); minutes are marked every 5.
HOURS_12 = (12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#: Where numbers sit on the face, in 0..1000 of its side: ring radii and a number's size.
OUTER_R, INNER_R, NUM_SIZE = 390, 250, 150
#: A tap nearer the center than this (0..1000 units) on a 24-hour face picks the inner ring.
RING_SPLIT = (OUTER_R + INNER_R) // 2
DIAL_SIDE = 700  # logical pixels
WEEK = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
MONTH_NAMES = tuple(calendar.month_name[1:])


def _ring(angle: float, radius: int) -> tuple[int, int, int, int]:
    """The box (0..1000 of the face) of a number at ``angle`` degrees clockwise from 12."""
    rad = math.radians(angle)
    cx, cy = 500 + radius * math.sin(rad), 500 - radius * math.cos(rad)
    half = NUM_SIZE // 2
    return (round(cx) - half, round(cy) - half, round(cx) + half, round(cy) + half)


def _angle(x: int, y: int) -> tuple[float, float]:
    """The angle (degrees clockwise from 12) and distance of (x, y) from the face's center."""
    dx, dy = x - 500, y - 500
    return math.degrees(math.atan2(dx, -dy)) % 360, math.hypot(dx, dy)


@dataclass
class ClockState:
    """A MaterialTimePicker while it is open: the time chosen (24-hour ``hour``, ``minute``),
    whether the face picks the hour or the minute, the input mode (``clock``: the dial;
    ``keyboard``: two typed fields), and the keyboard fields' text. Keep it in the app's ``ui``
    (``ClockState.of("14:05", is24h=...)`` when the picker opens)."""

    hour: int = 0
    minute: int = 0
    is24h: bool = True
    selecting: str = "hour"  # hour | minute
    mode: str = "clock"  # clock | keyboard
    hour_text: str = ""
    minute_text: str = ""
    error: str = ""

    @classmethod
    def of(cls, iso: str, *, is24h: bool = True) -> ClockState:
        """A picker showing ``HH:MM`` (raises ``ValueError`` for anything else)."""
        try:
            t = time.fromisoformat(iso)
        except ValueError:
            raise ValueError(f"a time must be HH:MM (00:00 to 23:59), got {iso!r}") from None
        return cls(t.hour, t.minute, is24h)

    @property
    def pm(self) -> bool:
        return self.hour >= 12

    def shown_hour(self) -> int:
        """The hour as the face shows it: 0..23, or 1..12 on a 12-hour face."""
        return self.hour if self.is24h else (self.hour % 12 or 12)

    def pick_hour(self, hour: int) -> None:
        """Tap an hour on the face (0..23 on a 24-hour face, 1..12 keeping AM/PM on a
        12-hour one); the face then shows the minutes, as Material's does."""
        top = 23 if self.is24h else 12
        low = 0 if self.is24h else 1
        if isinstance(hour, bool) or not isinstance(hour, int) or not low <= hour <= top:
            raise ValueError(f"hour must be an int from {low} to {top}, got {hour!r}")
        self.hour = hour if self.is24h else hour % 12 + (12 if self.pm else 0)
        self.selecting, self.error = "minute", ""

    def pick_minute(self, minute: int) -> None:
        if isinstance(minute, bool) or not isinstance(minute, int) or not 0 <= minute <= 59:
            raise ValueError(f"minute must be an int from 0 to 59, got {minute!r}")
        self.minute, self.error = minute, ""

    def set_period(self, period: str) -> None:
        """AM or PM (12-hour face)."""
        if period not in ("AM", "PM"):
            raise ValueError(f"period must be 'AM' or 'PM', got {period!r}")
        self.hour = self.hour % 12 + (12 if period == "PM" else 0)

    def select(self, part: str) -> None:
        """Tap the hour or minute chip above the face: the face shows that part."""
        if part not in ("hour", "minute"):
            raise ValueError(f"part must be 'hour' or 'minute', got {part!r}")
        self.selecting = part

    def tap_at(self, x: int, y: int) -> None:
        """A tap on the face at (x, y) in 0..1000 of its side: the nearest hour, or the
        nearest minute (any minute, not only the marked ones); the center does nothing."""
        angle, dist = _angle(x, y)
        if dist < NUM_SIZE // 3:
            return
        if self.selecting == "minute":
            self.pick_minute(round(angle / 6) % 60)
            return
        step = round(angle / 30) % 12
        if self.is24h:
            self.pick_hour(step + (12 if dist < RING_SPLIT else 0))
        else:
            self.pick_hour(HOURS_12[step])

    def toggle_mode(self) -> None:
        """The keyboard icon (clock icon in keyboard mode): switch input modes; the typed
        fields start from the chosen time; going back keeps a valid typed time."""
        if self.mode == "clock":
            self.mode, self.error = "keyboard", ""
            self.hour_text, self.minute_text = str(self.shown_hour()), f"{self.minute:02d}"
            return
        if self.typed() is not None:
            self.hour, self.minute = self.typed() or (self.hour, self.minute)
        self.mode, self.error = "clock", ""

    def set_text(self, part: str, text: str) -> None:
        if part == "hour":
            self.hour_text = text[:2]
        elif part == "minute":
            self.minute_text = text[:2]
        else:
            raise ValueError(f"part must be 'hour' or 'minute', got {part!r}")
        self.error = ""

    def typed(self) -> tuple[int, int] | None:
        """The keyboard fields as a 24-hour (hour, minute), or None while not valid."""
        low, top = (0, 23) if self.is24h else (1, 12)
        hour, minute = _in(self.hour_text, low, top), _in(self.minute_text, 0, 59)
        if hour is None or minute is None:
            return None
        return (hour if self.is24h else hour % 12 + (12 if self.pm else 0)), minute

    def result(self) -> str:
        """``HH:MM`` chosen; in keyboard mode raises ``ValueError`` saying what to type."""
        if self.mode == "keyboard":
            typed = self.typed()
            if typed is None:
                low, top = (0, 23) if self.is24h else (1, 12)
                raise ValueError(f"Enter an hour from {low} to {top} and a minute from 0 to 59")
            self.hour, self.minute = typed
        return f"{self.hour:02d}:{self.minute:02d}"


def dial_numbers(state: ClockState) -> list[tuple[int, str, str, tuple[int, int, int, int]]]:
    """The numbers on the face: ``(value, label, description, box)`` each."""
    out = []
    if state.selecting == "minute":
        for i in range(12):
            m = i * 5
            out.append((m, f"{m:02d}", f"{m} minutes", _ring(i * 30, OUTER_R)))
    elif state.is24h:
        for i in range(24):
            h, r = i, OUTER_R if i < 12 else INNER_R
            out.append((h, f"{h:02d}", f"{h} hours", _ring((i % 12) * 30, r)))
    else:
        for i, h in enumerate(HOURS_12):
            out.append((h, str(h), f"{h} o'clock", _ring(i * 30, OUTER_R)))
    return out


def _hand(state: ClockState) -> str:
    """Where the face's hand points, the dial's look: ``angle:radius:size:dot`` (a dot
    in the selector for a minute between the marks)."""
    if state.selecting == "minute":
        return f"{state.minute * 6}:{OUTER_R}:{NUM_SIZE}:{int(state.minute % 5 != 0)}"
    radius = INNER_R if state.is24h and state.hour >= 12 else OUTER_R
    return f"{(state.hour % 12) * 30}:{radius}:{NUM_SIZE}:0"


def ClockFace(state: ClockState, on_change: Handler) -> Node:
    """The dial: a number per hour (or per 5 minutes), each a tappable element described as
    Android does; a tap anywhere on the face picks the nearest value (``ClockState.tap_at``).
    ``on_change`` runs after each pick (the app redraws)."""
    chosen = state.minute if state.selecting == "minute" else state.shown_hour()

    def tap_at(x0: int, y0: int, x1: int, y1: int) -> None:
        state.tap_at(x1, y1)  # where the finger lifts, as Material's face
        on_change()

    def tap_number(box: tuple[int, int, int, int], x0: int, y0: int, x1: int, y1: int) -> None:
        """A tap on a number is a tap on the face there (its center: its value)."""
        w, h = box[2] - box[0], box[3] - box[1]
        tap_at(0, 0, box[0] + x1 * w // 1000, box[1] + y1 * h // 1000)

    nums = []
    for value, label, desc, box in dial_numbers(state):
        num = Node("dial_num", text=label, desc=desc, id=f"dial_{state.selecting}_{value}",
                   selected=value == chosen,
                   style="inner" if state.is24h and state.selecting == "hour" and value >= 12
                   else "")
        num.on_stroke = partial(tap_number, box)
        num.at = box
        nums.append(num)
    face = Node("dial", id="material_clock_face", style=_hand(state), height=DIAL_SIDE,
                desc="Hour selector" if state.selecting == "hour" else "Minute selector",
                children=nums)
    face.on_stroke = tap_at
    return face


def _chip(text: str, desc: str, selected: bool, on_click: Handler, id: str,
          style: str = "") -> Node:
    return Node("time_chip", text=text, desc=desc, selected=selected, checked=selected,
                on_click=on_click, id=id, style=style)


def _then_redraw(on_change: Handler) -> Callable[[Callable[[], object]], Handler]:
    """``do(fn)``: a handler that runs ``fn``, then ``on_change`` (the picker redraws)."""
    def do(fn: Callable[[], object]) -> Handler:
        def run() -> None:
            fn()
            on_change()
        return run
    return do


def _confirm(state: ClockState | CalendarState, on_change: Handler,
             on_done: Callable[[str], None]) -> Handler:
    """OK: ``on_done`` with the picked value, or the picker shows why it has none."""
    def ok() -> None:
        try:
            value = state.result()
        except ValueError as error:
            state.error = str(error)
            on_change()
            return
        on_done(value)
    return ok


def MaterialTimePicker(state: ClockState, *, on_done: Callable[[str], None],
                       on_cancel: Handler, on_change: Handler = lambda: None,
                       title: str = "Select time") -> Node:
    """Android's time picker dialog (MaterialTimePicker, Android 12+ Clock). Clock mode: the
    hour and minute chips (``material_hour_tv``, ``material_minute_tv``), AM/PM on a 12-hour
    face (``material_clock_period_am_button``/``..._pm_button``), the face (``ClockFace``);
    keyboard mode: ``material_hour_text_input`` and ``material_minute_text_input`` fields. The
    mode button (``material_timepicker_mode_button``) switches; OK
    (``material_timepicker_ok_button``) calls ``on_done("HH:MM")``, or shows what to type."""

    do, ok = _then_redraw(on_change), _confirm(state, on_change, on_done)

    def typed(part: str, text: str) -> None:
        state.set_text(part, text)
        on_change()

    keyboard = state.mode == "keyboard"
    period: list[Node] = []
    if not state.is24h:
        period = [weighted(Column([
            tall(_chip("AM", "AM", not state.pm, do(partial(state.set_period, "AM")),
                       "material_clock_period_am_button", "small"), 90),
            tall(_chip("PM", "PM", state.pm, do(partial(state.set_period, "PM")),
                       "material_clock_period_pm_button", "small"), 90),
        ], id="material_clock_period_toggle"), 0.55)]
    body: list[Node] = []
    if keyboard:
        hour_hint = "0-23" if state.is24h else "1-12"
        body.append(Row([
            TextField(state.hour_text, partial(typed, "hour"),
                      hint=hour_hint, id="material_hour_text_input", label="Hour"),
            weighted(Node("time_chip", text=":", style="colon"), 0.2),
            TextField(state.minute_text, partial(typed, "minute"), hint="00-59",
                      id="material_minute_text_input", label="Minute"),
            *period], id="material_textinput_timepicker"))
        if state.error:
            body.append(Text(state.error, style="error", id="material_timepicker_error"))
    else:
        body.append(tall(Row([
            _chip(str(state.shown_hour()) if not state.is24h else f"{state.hour:02d}",
                  f"{state.shown_hour()} o'clock" if not state.is24h else f"{state.hour} hours",
                  state.selecting == "hour", do(partial(state.select, "hour")),
                  "material_hour_tv"),
            weighted(Node("time_chip", text=":", style="colon"), 0.2),
            _chip(f"{state.minute:02d}", f"{state.minute} minutes",
                  state.selecting == "minute", do(partial(state.select, "minute")),
                  "material_minute_tv"),
            *period], id="material_clock_display"), 200))
        body.append(ClockFace(state, on_change))
    mode = Icon("⌨" if not keyboard else "🕒",
                "Switch to text input mode for the time input." if not keyboard
                else "Switch to clock mode for the time input.",
                do(state.toggle_mode), id="material_timepicker_mode_button")
    buttons = [weighted(mode, 0.5), Spacer(0),
               DialogButton("Cancel", on_cancel, id="material_timepicker_cancel_button"),
               DialogButton("OK", ok, id="material_timepicker_ok_button")]
    return Dialog("Enter time" if keyboard else title, "", buttons, body=body)


def day_description(day: date, today: date) -> str:
    """A day's content description in the grid, as Material's DateStrings: "Monday, March 3"
    (the year added outside today's year; "Today" first for today)."""
    text = f"{WEEK[(day.weekday() + 1) % 7]}, {MONTH_NAMES[day.month - 1]} {day.day}"
    if day.year != today.year:
        text += f", {day.year}"
    return f"Today {text}" if day == today else text


def us_date(day: date) -> str:
    """``MM/DD/YYYY``, how an en-US phone types a date."""
    return f"{day.month:02d}/{day.day:02d}/{day.year}"


@dataclass
class CalendarState:
    """A MaterialDatePicker while it is open: the day chosen, the month shown, the view (the
    month's days or the years), the input mode (``calendar`` or ``text``: the date typed as
    mm/dd/yyyy) and today (outlined). ``CalendarState.of("2024-03-05", today=...)``."""

    selected: date
    today: date
    year: int = 0  # the month shown
    month: int = 0
    view: str = "days"  # days | years
    mode: str = "calendar"  # calendar | text
    text: str = ""
    error: str = ""
    min_year: int = 1900
    max_year: int = 2100

    def __post_init__(self) -> None:
        if not self.year:
            self.year, self.month = self.selected.year, self.selected.month

    @classmethod
    def of(cls, iso: str, *, today: date) -> CalendarState:
        """A picker showing the month of ``YYYY-MM-DD`` with it selected (``ValueError`` for
        anything else)."""
        try:
            day = date.fromisoformat(iso)
        except ValueError:
            raise ValueError(f"a date must be YYYY-MM-DD, got {iso!r}") from None
        return cls(day, today)

    def select(self, day: date) -> None:
        if not isinstance(day, date):
            raise ValueError(f"day must be a datetime.date, got {day!r}")
        if not self.min_year <= day.year <= self.max_year:
            raise ValueError(f"day must be in {self.min_year}..{self.max_year}, got {day}")
        self.selected, self.error = day, ""

    def shift_month(self, delta: int) -> None:
        """The month arrows: show the month ``delta`` away (within the year limits)."""
        index = self.year * 12 + self.month - 1 + delta
        year = index // 12
        if self.min_year <= year <= self.max_year:
            self.year, self.month = year, index % 12 + 1

    def toggle_years(self) -> None:
        """The "March 2025 ▾" button: the years instead of the days, or back."""
        self.view = "days" if self.view == "years" else "years"

    def pick_year(self, year: int) -> None:
        """A year in the years view: its same month shows, with the days."""
        if isinstance(year, bool) or not isinstance(year, int) or not (
                self.min_year <= year <= self.max_year):
            raise ValueError(f"year must be an int from {self.min_year} to {self.max_year}, "
                             f"got {year!r}")
        self.year, self.view = year, "days"

    def years(self) -> list[int]:
        """The years the years view shows: 21 around the month shown, within the limits."""
        first = max(self.min_year, min(self.year - 10, self.max_year - 20))
        return list(range(first, min(self.max_year, first + 20) + 1))

    def toggle_mode(self) -> None:
        """The pencil (calendar icon in text mode): switch input modes; the field starts
        from the chosen day, and a valid typed date is kept going back."""
        if self.mode == "calendar":
            self.mode, self.text, self.error = "text", us_date(self.selected), ""
            return
        typed = self.typed()
        if typed is not None:
            self.selected = typed
            self.year, self.month = typed.year, typed.month
        self.mode, self.error = "calendar", ""

    def set_text(self, text: str) -> None:
        self.text, self.error = text[:10], ""

    def typed(self) -> date | None:
        """The text field as a date (m/d/yyyy), or None while it is not one."""
        parts = self.text.strip().split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts) or len(parts[2]) != 4:
            return None
        try:
            day = date(int(parts[2]), int(parts[0]), int(parts[1]))
        except ValueError:
            return None
        return day if self.min_year <= day.year <= self.max_year else None

    def result(self) -> str:
        """``YYYY-MM-DD`` chosen; in text mode raises ``ValueError`` as Material's field
        says ("Invalid format." with the format to use)."""
        if self.mode == "text":
            typed = self.typed()
            if typed is None:
                raise ValueError(f"Invalid format. Use: mm/dd/yyyy "
                                 f"(years {self.min_year} to {self.max_year})")
            self.selected = typed
        return self.selected.isoformat()


def month_grid(year: int, month: int) -> list[list[int]]:
    """The weeks of a month, Sunday first (0: a day of another month)."""
    return calendar.Calendar(firstweekday=6).monthdayscalendar(year, month)


def MaterialDatePicker(state: CalendarState, *, on_done: Callable[[str], None],
                       on_cancel: Handler, on_change: Handler = lambda: None,
                       title: str = "Select date") -> Node:
    """Android's date picker dialog (MaterialDatePicker). The headline is the chosen day;
    the pencil (``mtrl_picker_header_toggle``) switches to a typed mm/dd/yyyy field
    (``mtrl_picker_text_input_date``). The calendar shows the month
    (``month_navigation_fragment_toggle`` opens the years; ``month_navigation_previous`` and
    ``_next`` change month), a weekday header and the days (ids ``day_YYYY-MM-DD``,
    described "Monday, March 3"; today outlined, the chosen day filled). OK
    (``confirm_button``) calls ``on_done("YYYY-MM-DD")``; Cancel (``cancel_button``)."""

    do, ok = _then_redraw(on_change), _confirm(state, on_change, on_done)

    def typed(text: str) -> None:
        state.set_text(text)
        on_change()

    text_mode = state.mode == "text"
    sel = state.selected
    headline = f"{WEEK[(sel.weekday() + 1) % 7][:3]}, {MONTH_NAMES[sel.month - 1][:3]} {sel.day}"
    toggle = Icon("📅" if text_mode else "✎",
                  "Switch to calendar input mode" if text_mode
                  else "Switch to text input mode", do(state.toggle_mode),
                  id="mtrl_picker_header_toggle")
    body: list[Node] = [Row([Text(headline, style="title", id="mtrl_picker_header_selection_text"),
                             weighted(toggle, 0.2)], id="mtrl_picker_header")]
    if text_mode:
        body.append(TextField(state.text, typed, hint="mm/dd/yyyy",
                              id="mtrl_picker_text_input_date", label="Date"))
        if state.error:
            body.append(Text(state.error, style="error", id="mtrl_picker_error"))
    else:
        shown = f"{MONTH_NAMES[state.month - 1]} {state.year}"
        body.append(Row([
            Button(f"{shown} ▾", do(state.toggle_years), id="month_navigation_fragment_toggle",
                   style="text"),
            weighted(Icon("‹", "Change to previous month", do(partial(state.shift_month, -1)),
                          id="month_navigation_previous"), 0.3),
            weighted(Icon("›", "Change to next month", do(partial(state.shift_month, 1)),
                          id="month_navigation_next"), 0.3),
        ], id="month_navigation_bar"))
        if state.view == "years":
            years = state.years()
            for i in range(0, len(years), 3):
                body.append(Row([tall(Node(
                    "day", text=str(y), desc=f"Navigate to year {y}", id=f"year_{y}",
                    style="year" + (" today" if y == state.today.year else ""),
                    selected=y == state.year, on_click=do(partial(state.pick_year, y))), 110)
                    for y in years[i:i + 3]]))
        else:
            body.append(Row([tall(Node("day", text=d[0], style="header", desc=d), 80)
                             for d in WEEK], id="mtrl_calendar_days_of_week"))
            for week in month_grid(state.year, state.month):
                cells: list[Node] = []
                for d in week:
                    if not d:
                        cells.append(tall(Node("day", style="blank"), 110))
                        continue
                    day = date(state.year, state.month, d)
                    cells.append(tall(Node(
                        "day", text=str(d), desc=day_description(day, state.today),
                        id=f"day_{day.isoformat()}", selected=day == sel,
                        style="today" if day == state.today else "",
                        on_click=do(partial(state.select, day))), 110))
                body.append(Row(cells))
    buttons = [Spacer(0), DialogButton("Cancel", on_cancel, id="cancel_button"),
               DialogButton("OK", ok, id="confirm_button")]
    return Dialog("Enter date" if text_mode else title, "", buttons, body=body)
