"""Android's Material pickers (``kit.pickers``: the clock face and keyboard of
MaterialTimePicker, the month grid, years and typed date of MaterialDatePicker) and a
calendar's month and day views (``kit.calendars``): their accessibility (every number and
day an element described as Android does), taps by element and by coordinate, typed modes,
refused values, cancel, the pixels; and the oracle steps that drive them
(``phone_gym.tasks.pickers``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pytest
from driving import act, drive, fill, shown, tap
from test_kit import check_accessible, element, region, render, start

from phone_gym.actions import PhoneAction
from phone_gym.tasks.driver import Driver as OracleDriver
from phone_gym.tasks.pickers import pick_date, pick_time
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.a11y import ui_elements
from phone_gym.world.kit import (
    CalendarState,
    ClockState,
    MaterialDatePicker,
    MaterialTimePicker,
)
from phone_gym.world.kit.calendars import HOUR_H, DayView, MonthView, Shown, event_color
from phone_gym.world.kit.pickers import OUTER_R, day_description
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Text

TODAY = date(2023, 10, 20)


@dataclass
class PickUi:
    clock: ClockState = field(default_factory=lambda: ClockState.of("14:37"))
    cal: CalendarState = field(
        default_factory=lambda: CalendarState.of("2023-10-15", today=TODAY))
    open: str = "time"  # time | date | "" (closed)
    value: str = ""
    cancelled: int = 0


class PickApp(App):
    """A screen showing the value picked, with a picker open."""

    manifest = AppManifest(name="Pick", package="com.example.pick")
    ui: PickUi

    def initial_ui(self) -> PickUi:
        return PickUi()

    def done(self, value: str) -> None:
        self.ui.value, self.ui.open = value, ""

    def cancel(self) -> None:
        self.ui.open, self.ui.cancelled = "", self.ui.cancelled + 1

    def view(self, route: Route) -> Screen:
        ui = self.ui
        dialog = None
        if ui.open == "time":
            dialog = MaterialTimePicker(ui.clock, on_done=self.done, on_cancel=self.cancel)
        elif ui.open == "date":
            dialog = MaterialDatePicker(ui.cal, on_done=self.done, on_cancel=self.cancel)
        return Screen([Text(ui.value or "none", id="value")], dialog=dialog,
                      on_dismiss=self.cancel)


def picker(open: str = "time", *, is24h: bool = True, time: str = "14:37") -> Device:
    device = start(PickApp)
    ui = device.apps["Pick"].ui
    ui.open, ui.clock = open, ClockState.of(time, is24h=is24h)
    device.invalidate()
    return device


def pick_ui(device: Device) -> PickUi:
    return device.apps["Pick"].ui


def descs(device: Device, kind: str) -> list[str]:
    return [e.content_desc for e in ui_elements(device.frame()) if e.kind == kind]


def tap_face(device: Device, angle: float, radius: int = OUTER_R) -> None:
    """A click on the clock face at ``angle`` degrees from 12, ``radius`` (0..1000 units
    of the face) from its center."""
    x0, y0, x1, y1 = element(device, "material_clock_face").full_bounds or (0, 0, 0, 0)
    r = (x1 - x0) / 2 * radius / 500
    x = (x0 + x1) / 2 + r * math.sin(math.radians(angle))
    y = (y0 + y1) / 2 - r * math.cos(math.radians(angle))
    act(device, PhoneAction("click", x=round(x * 1000 / T.SCREEN_W),
                            y=round(y * 1000 / T.SCREEN_H)))


# --- the time picker -------------------------------------------------------------------------


def test_every_number_on_the_face_is_an_element_described_as_android_does() -> None:
    device = picker(is24h=False)
    check_accessible(device)
    assert descs(device, "dial_num") == [f"{h} o'clock" for h in (12, *range(1, 12))]
    assert element(device, "material_hour_tv").text == "2"
    assert element(device, "material_clock_period_pm_button").checked
    tap(device, id="material_minute_tv")
    assert descs(device, "dial_num") == [f"{m} minutes" for m in range(0, 60, 5)]
    device24 = picker(is24h=True)
    assert descs(device24, "dial_num") == [f"{h} hours" for h in range(24)]
    assert shown(device24, id="material_clock_period_am_button") is False


@pytest.mark.parametrize("is24h", [True, False])
def test_taps_on_numbers_and_at_their_angles_set_the_same_time(is24h: bool) -> None:
    by_element, by_point = picker(is24h=is24h), picker(is24h=is24h)
    tap(by_element, desc="9 hours" if is24h else "9 o'clock")
    tap_face(by_point, 9 * 30)
    assert pick_ui(by_element).clock == pick_ui(by_point).clock
    assert pick_ui(by_point).clock.selecting == "minute"  # the face turned to the minutes
    tap(by_element, desc="25 minutes")
    tap_face(by_point, 25 * 6 + 2)  # a little off the mark: the nearest minute
    for device in (by_element, by_point):
        tap(device, id="material_timepicker_ok_button")
    assert pick_ui(by_element).value == pick_ui(by_point).value == (
        "09:25" if is24h else "21:25")  # (a 12-hour face keeps PM)


def test_any_minute_on_the_ring_and_the_inner_ring_of_a_24_hour_face() -> None:
    device = picker(is24h=True)
    tap_face(device, 7 * 30, radius=250)  # the inner ring: 19
    assert pick_ui(device).clock.hour == 19
    tap_face(device, 37 * 6)  # between the marks
    assert pick_ui(device).clock.minute == 37
    assert pick_ui(device).clock.result() == "19:37"
    tap_face(device, 0, radius=0)  # the center does nothing
    assert pick_ui(device).clock.minute == 37


def test_am_pm_and_the_hour_chip() -> None:
    device = picker(is24h=False, time="07:05")
    tap(device, id="material_clock_period_pm_button")
    tap(device, id="material_minute_tv")
    tap(device, id="material_hour_tv")  # back to the hours
    assert shown(device, desc="12 o'clock")
    tap(device, desc="12 o'clock")
    tap(device, id="material_timepicker_ok_button")
    assert pick_ui(device).value == "12:05"


def test_keyboard_mode_types_the_time_and_refuses_bad_values() -> None:
    device = picker(is24h=True, time="08:00")
    tap(device, id="material_timepicker_mode_button")
    assert element(device, "material_hour_text_input").text == "8"
    assert element(device, "alertTitle").text == "Enter time"
    for hour, minute in (("24", "10"), ("7", "61"), ("x", "10")):
        fill(device, "material_hour_text_input", hour)
        fill(device, "material_minute_text_input", minute)
        tap(device, id="material_timepicker_ok_button")
        assert element(device, "material_timepicker_error").text == (
            "Enter an hour from 0 to 23 and a minute from 0 to 59")
        assert pick_ui(device).value == ""
    fill(device, "material_hour_text_input", "23")
    fill(device, "material_minute_text_input", "5")
    tap(device, id="material_timepicker_mode_button")  # back to the face, the time kept
    assert element(device, "material_minute_tv").text == "05"
    tap(device, id="material_timepicker_ok_button")
    assert pick_ui(device).value == "23:05"


def test_cancel_leaves_the_value_unchanged() -> None:
    device = picker()
    tap(device, desc="3 hours")
    tap(device, id="material_timepicker_cancel_button")
    assert (pick_ui(device).value, pick_ui(device).cancelled) == ("", 1)
    assert element(device, "value").text == "none"


def test_bad_arguments_say_what_is_accepted() -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        ClockState.of("25:00")
    twelve = ClockState.of("10:00", is24h=False)
    with pytest.raises(ValueError, match="from 1 to 12"):
        twelve.pick_hour(13)
    with pytest.raises(ValueError, match="from 0 to 59"):
        twelve.pick_minute(60)
    with pytest.raises(ValueError, match="'AM' or 'PM'"):
        twelve.set_period("pm")
    with pytest.raises(ValueError, match="'hour' or 'minute'"):
        twelve.select("second")


def test_the_face_is_drawn_with_the_selected_number_filled() -> None:
    device = picker(is24h=False, time="03:00")
    image = render(device)
    chosen = region(image, element(device, "dial_hour_3").bounds)
    other = region(image, element(device, "dial_hour_6").bounds)
    primary = np.all(chosen == T.PRIMARY, axis=-1).mean()
    assert primary > 0.3 and np.all(other == T.PRIMARY, axis=-1).mean() < 0.05
    tap(device, desc="6 o'clock")  # the face turns to the minutes, the hand moves
    assert not np.array_equal(render(device), image)


# --- the date picker -------------------------------------------------------------------------


def test_every_day_of_the_month_is_an_element_with_its_description() -> None:
    device = picker("date")
    check_accessible(device)
    days = [e for e in ui_elements(device.frame()) if e.short_id.startswith("day_")]
    assert [e.text for e in days] == [str(d) for d in range(1, 32)]
    assert days[2].content_desc == "Tuesday, October 3"
    assert days[19].content_desc == "Today Friday, October 20"
    assert days[14].selected and not days[19].selected
    assert [e.content_desc for e in ui_elements(device.frame())
            if e.short_id == "" and e.kind == "day"] == ["Sunday", "Monday", "Tuesday",
                                                          "Wednesday", "Thursday", "Friday",
                                                          "Saturday"]
    assert day_description(date(2024, 2, 29), TODAY) == "Thursday, February 29, 2024"


def test_months_years_and_a_day_tapped() -> None:
    device = picker("date")
    tap(device, id="month_navigation_next")
    tap(device, id="month_navigation_next")
    assert element(device, "month_navigation_fragment_toggle").text == "December 2023 ▾"
    tap(device, id="month_navigation_fragment_toggle")
    tap(device, id="year_2025")
    assert element(device, "month_navigation_fragment_toggle").text == "December 2025 ▾"
    tap(device, desc="Wednesday, December 24, 2025")
    assert element(device, "mtrl_picker_header_selection_text").text == "Wed, Dec 24"
    tap(device, id="confirm_button")
    assert pick_ui(device).value == "2025-12-24"


def test_the_pencil_types_the_date_and_bad_dates_are_refused() -> None:
    device = picker("date")
    tap(device, id="mtrl_picker_header_toggle")
    assert element(device, "mtrl_picker_text_input_date").text == "10/15/2023"
    for bad in ("2023-10-16", "02/30/2023", "10/16/23", ""):
        fill(device, "mtrl_picker_text_input_date", bad)
        tap(device, id="confirm_button")
        assert element(device, "mtrl_picker_error").text.startswith("Invalid format. Use: "
                                                                    "mm/dd/yyyy")
    fill(device, "mtrl_picker_text_input_date", "2/29/2024")
    tap(device, id="mtrl_picker_header_toggle")  # the grid shows the typed day's month
    assert element(device, "month_navigation_fragment_toggle").text == "February 2024 ▾"
    assert element(device, "day_2024-02-29").selected
    tap(device, id="cancel_button")
    assert (pick_ui(device).value, pick_ui(device).cancelled) == ("", 1)


def test_date_bad_arguments_say_what_is_accepted() -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        CalendarState.of("2023-13-01", today=TODAY)
    state = CalendarState.of("2023-10-15", today=TODAY)
    with pytest.raises(ValueError, match="from 1900 to 2100"):
        state.pick_year(2200)
    with pytest.raises(ValueError, match="datetime.date"):
        state.select("2023-10-16")  # type: ignore[arg-type]


def test_the_grid_is_drawn_with_today_outlined_and_the_day_filled() -> None:
    device = picker("date")
    image = render(device)
    chosen = region(image, element(device, "day_2023-10-15").bounds)
    today = region(image, element(device, "day_2023-10-20").bounds)
    plain = region(image, element(device, "day_2023-10-16").bounds)
    fill_of = [np.all(px == T.PRIMARY, axis=-1).mean() for px in (chosen, today, plain)]
    assert fill_of[0] > 0.3 and 0.01 < fill_of[1] < 0.2 and fill_of[2] == 0


# --- the oracle steps ------------------------------------------------------------------------


@pytest.mark.parametrize(("is24h", "hour", "minute"), [(True, 0, 0), (True, 17, 43),
                                                         (False, 12, 30), (False, 0, 5),
                                                         (False, 23, 59)])
def test_pick_time_sets_any_time_like_a_person(is24h: bool, hour: int, minute: int) -> None:
    device = picker(is24h=is24h, time="08:15")
    drive(device, pick_time(OracleDriver(lambda: ui_elements(device.frame())), hour, minute))
    assert pick_ui(device).value == f"{hour:02d}:{minute:02d}"


@pytest.mark.parametrize("day", [date(2023, 10, 1), date(2023, 7, 31), date(2024, 2, 29),
                                 date(2031, 1, 9)])
def test_pick_date_navigates_and_taps_the_day(day: date) -> None:
    device = picker("date")
    drive(device, pick_date(OracleDriver(lambda: ui_elements(device.frame())), day))
    assert pick_ui(device).value == day.isoformat()


# --- a calendar's month and day views --------------------------------------------------------


@dataclass
class CalUi:
    opened: list[int] = field(default_factory=list)
    day: date = TODAY
    tab: str = "month"


EVENTS = {date(2023, 10, 3): [Shown(1, "Standup", 9 * 60, 9 * 60 + 15),
                              Shown(2, "Lunch", 12 * 60, 13 * 60 + 30),
                              Shown(3, "Review", 12 * 60 + 30, 14 * 60)],
          date(2023, 10, 20): [Shown(4, "Dentist", 8 * 60, 9 * 60)]}


class CalApp(App):
    manifest = AppManifest(name="Cal", package="com.example.cal")
    ui: CalUi

    def initial_ui(self) -> CalUi:
        return CalUi()

    def pick_day(self, day: date) -> None:
        self.ui.day = day

    def view(self, route: Route) -> Screen:
        if self.ui.tab == "day":
            return Screen([DayView(EVENTS.get(self.ui.day, []), on_event=self.ui.opened.append,
                                   first_hour=7, last_hour=16)])
        return Screen(MonthView(2023, 10, EVENTS, selected=self.ui.day, today=TODAY,
                                on_day=self.pick_day, on_event=self.ui.opened.append))


def test_month_cells_hold_event_chips_that_open_their_events() -> None:
    device = start(CalApp)
    check_accessible(device)
    chips = [e for e in ui_elements(device.frame()) if e.kind == "event_chip"]
    assert [(e.text, e.short_id) for e in chips] == [
        ("Standup", "event_chip_1_2023-10-03"), ("Dentist", "event_chip_4_2023-10-20")]
    assert element(device, "more_2023-10-03").text == "+2"  # two chips' room: one and "+2"
    assert all(e.clickable for e in chips)
    tap(device, "Dentist", kind="event_chip")
    tap(device, id="day_2023-10-03")
    assert device.apps["Cal"].ui.opened == [4]
    assert device.apps["Cal"].ui.day == date(2023, 10, 3)
    image = render(device)
    dentist = region(image, element(device, "event_chip_4_2023-10-20").bounds)
    assert np.all(dentist == event_color("Dentist"), axis=-1).mean() > 0.4


def test_day_view_blocks_are_as_tall_as_the_events_last() -> None:
    device = start(CalApp)
    app = device.apps["Cal"]
    app.ui.tab, app.ui.day = "day", date(2023, 10, 3)
    device.invalidate()
    blocks = {e.text: e for e in ui_elements(device.frame()) if e.kind == "event_chip"}
    assert set(blocks) == {"Standup", "Lunch", "Review"}
    height = {t: e.full_bounds[3] - e.full_bounds[1] for t, e in blocks.items()}
    assert abs(height["Lunch"] - 1.5 * HOUR_H) <= 4
    assert abs(height["Standup"] - HOUR_H / 2) <= 4  # at least half an hour tall
    lunch, review = blocks["Lunch"].full_bounds, blocks["Review"].full_bounds
    assert lunch[2] <= review[0]  # overlapping: side by side
    assert review[1] - lunch[1] == pytest.approx(HOUR_H / 2, abs=4)
    tap(device, "Review", kind="event_chip")
    assert app.ui.opened == [3]
    render(device)


def test_calendar_views_refuse_bad_arguments() -> None:
    with pytest.raises(ValueError, match="month must be 1..12"):
        MonthView(2023, 13, {}, selected=TODAY, today=TODAY, on_day=print, on_event=print)
    with pytest.raises(ValueError, match="first_hour < last_hour"):
        DayView([], on_event=print, first_hour=10, last_hour=10)
