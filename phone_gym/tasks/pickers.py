"""Oracle steps for Android's Material pickers (``world.kit.pickers``), done as a person
does them: tap the hour on the clock face, then the minute (a minute between the marks is
tapped at its angle on the ring), AM or PM on a 12-hour face; tap the day in the month grid,
moving month by month with the arrows (or through the years for a far year)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from datetime import date

from ..actions import PhoneAction
from ..world import theme as T
from ..world.kit.pickers import MONTH_NAMES, OUTER_R
from .driver import Driver, OracleError

#: Beyond this many months away, the year is picked from the years view first.
MAX_MONTH_TAPS = 12


def _click(x: float, y: float) -> PhoneAction:
    """A click at logical pixel (x, y)."""
    return PhoneAction("click", x=round(x * 1000 / T.SCREEN_W), y=round(y * 1000 / T.SCREEN_H))


def pick_time(ui: Driver, hour: int, minute: int) -> Iterator[PhoneAction]:
    """With a MaterialTimePicker open: pick ``hour`` (0..23) and ``minute`` on the clock face,
    then OK."""
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ValueError(f"a time is hour 0..23 and minute 0..59, got {hour}:{minute}")
    if ui.find(id="material_hour_text_input") is not None:  # keyboard mode: back to the face
        yield from ui.tap(id="material_timepicker_mode_button")
    twelve = ui.find(id="material_clock_period_am_button") is not None
    if twelve:
        period = "material_clock_period_pm_button" if hour >= 12 else \
            "material_clock_period_am_button"
        if not ui.must(id=period).checked:
            yield from ui.tap(id=period)
    if not ui.must(id="material_hour_tv").checked:
        yield from ui.tap(id="material_hour_tv")
    desc = f"{hour % 12 or 12} o'clock" if twelve else f"{hour} hours"
    yield from ui.tap(desc=desc, kind="dial_num")  # the face turns to the minutes
    if minute % 5 == 0:
        yield from ui.tap(desc=f"{minute} minutes", kind="dial_num")
    else:  # between the marks: tap the ring at the minute's angle
        face = ui.must(id="material_clock_face")
        x0, y0, x1, y1 = face.full_bounds or face.bounds
        r = (x1 - x0) / 2 * OUTER_R / 500
        angle = math.radians(minute * 6)
        yield _click((x0 + x1) / 2 + r * math.sin(angle), (y0 + y1) / 2 - r * math.cos(angle))
    yield from ui.tap(id="material_timepicker_ok_button")


def _shown_month(ui: Driver) -> tuple[int, int]:
    """The (year, month) a MaterialDatePicker shows."""
    label = ui.must(id="month_navigation_fragment_toggle").text.rstrip(" ▾")
    zh = re.fullmatch(r"(\d+)年(\d+)月", label)  # zh-CN: 2026年10月
    if zh is not None:
        return int(zh[1]), int(zh[2])
    name, year = label.rsplit(" ", 1)
    return int(year), MONTH_NAMES.index(name) + 1


def pick_date(ui: Driver, day: date) -> Iterator[PhoneAction]:
    """With a MaterialDatePicker open: show ``day``'s month (arrows, or the years view when
    it is more than a year away), tap the day, then OK."""
    if ui.find(id="mtrl_picker_text_input_date") is not None:  # text mode: back to the grid
        yield from ui.tap(id="mtrl_picker_header_toggle")
    year, month = _shown_month(ui)
    if abs((day.year - year) * 12 + day.month - month) > MAX_MONTH_TAPS:
        yield from ui.tap(id="month_navigation_fragment_toggle")
        yield from ui.tap(id=f"year_{day.year}")
        year, month = _shown_month(ui)
    for _ in range(abs((day.year - year) * 12 + day.month - month)):
        ahead = (day.year, day.month) > (year, month)
        yield from ui.tap(id="month_navigation_next" if ahead else "month_navigation_previous")
    if _shown_month(ui) != (day.year, day.month):
        raise OracleError(f"the picker shows {_shown_month(ui)}, not {day:%Y-%m}")
    yield from ui.tap(id=f"day_{day.isoformat()}")
    yield from ui.tap(id="confirm_button")
