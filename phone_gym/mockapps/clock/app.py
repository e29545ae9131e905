"""Clock: alarms with an editor, switches and a long-press menu; the time; a timer; a
stopwatch. Four tabs at the bottom.

Alarms are the shared ``alarms`` store (``system.alarms``: frozen ``Alarm`` records), which
the clock owns (its manifest says so: ``pm clear`` of the clock wipes them, and the alarm
manager's ``dumpsys alarm`` reports them under its package). The current tab and the alarm
editor's draft are transient ``ClockUI`` state. Times are
24-hour ``HH:MM``; the timer and the stopwatch follow the simulated clock ``system.now``.
The clock answers Android's ``SET_ALARM`` and ``SHOW_ALARMS`` intents as AOSP DeskClock does;
an alarm row shows its label and days as text views of their own (DeskClock's ids ``label``
and ``days_of_week``) beside the time (``alarm_{id}``) and the switch (``alarm_switch_{id}``),
so a ``uiautomator dump`` of the list reads like a real clock's (``real.alarms``).

The timer and the stopwatch are the clock's own data (``ClockData``, ``apps.Clock.*``):
AOSP DeskClock keeps them in its shared preferences, so they survive the app's death, and
verifiers read them instead of the screen. The timer is set up as DeskClock's is: digits
typed into one field fill ``HHh MMm SSs`` from the right (``timer_input``); the stopwatch
shows "Start" and "Reset" when paused, "Pause" and "Lap" while it runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import ClockState, MaterialTimePicker
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.manifest import Intent
from ...world.system import DAYS, Alarm, next_ring, ordered_days
from ...world.widgets import (
    Button,
    Checkbox,
    Dialog,
    DialogButton,
    Fab,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Spacer,
    Tab,
    TabBar,
    Text,
    TextField,
    Toggle,
    TopBar,
)
from .manifest import MANIFEST

SET_ALARM = "android.intent.action.SET_ALARM"
#: ``AlarmClock.ACTION_SHOW_ALARMS``: AOSP DeskClock's HandleApiCalls.handleShowAlarms selects
#: the alarms tab and brings DeskClock to the front.
SHOW_ALARMS = "android.intent.action.SHOW_ALARMS"
EXTRA = "android.intent.extra.alarm."
WEEKDAYS = DAYS[:5]
WEEKEND = DAYS[5:]
TABS = ("Alarm", "Clock", "Timer", "Stopwatch")


# --- state -------------------------------------------------------------------------------
@dataclass
class AlarmDraft:
    """The alarm editor's fields, as typed."""

    hour: str = ""
    minute: str = ""
    label: str = ""
    days: tuple[str, ...] = ()
    confirm_delete: bool = False


@dataclass
class ClockData(Store):
    """What DeskClock keeps in its preferences: the timer being set up and the running
    timer, the stopwatch (verifiers read ``apps.Clock.<field>``)."""

    timer_input: str = ""  # the digits typed (at most 6: HHMMSS from the right)
    timer_end: datetime | None = None  # when the running timer rings
    stopwatch_since: datetime | None = None  # when the stopwatch last started; None: paused
    stopwatch_total: float = 0.0  # seconds counted before ``stopwatch_since``
    laps: int = 0  # laps recorded since the last reset


@dataclass
class ClockUI:
    """Transient state, lost on force-stop: the tab, the alarm editor and its time picker
    (open while ``picker`` is set)."""

    tab: str = "Alarm"
    draft: AlarmDraft = field(default_factory=AlarmDraft)
    picker: ClockState | None = None


# --- updates -------------------------------------------------------------------------------
def format_time(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def format_duration(seconds: float) -> str:
    """``MM:SS``, or ``H:MM:SS`` from an hour on."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


Alarms = Table[Alarm]


def add_alarm(alarms: Alarms, hour: int, minute: int, label: str = "", *,
              enabled: bool = True, days: Sequence[str] = ()) -> Alarm:
    return alarms.new(hour=hour, minute=minute, label=label, enabled=enabled,
                      days=ordered_days(days))


def find_alarm(alarms: Alarms, alarm_id: int) -> Alarm | None:
    return alarms.get(alarm_id)


def delete_alarm(alarms: Alarms, alarm_id: int) -> None:
    alarms.remove(alarm_id)


def duplicate_alarm(alarms: Alarms, alarm_id: int) -> Alarm | None:
    alarm = find_alarm(alarms, alarm_id)
    if alarm is None:
        return None
    return add_alarm(alarms, alarm.hour, alarm.minute, alarm.label, enabled=alarm.enabled,
                     days=alarm.days)


def sorted_alarms(alarms: Alarms) -> list[Alarm]:
    """Earliest time of day first."""
    return sorted(alarms, key=lambda a: (a.hour, a.minute, a.id))


def parse_time(hour: str, minute: str) -> tuple[int, int]:
    """The typed hour and minute as numbers; ``ValueError`` says what is wrong."""
    hour, minute = hour.strip(), minute.strip()
    if not (hour.isdigit() and 0 <= int(hour) <= 23):
        raise ValueError("Enter an hour from 0 to 23")
    if not (minute.isdigit() and 0 <= int(minute) <= 59):
        raise ValueError("Enter a minute from 0 to 59")
    return int(hour), int(minute)


def save_draft(alarms: Alarms, draft: AlarmDraft, alarm_id: int | None) -> Alarm:
    """Write the draft into its alarm (or a new one). An alarm whose time changes is
    switched on, as on a real phone. Raises ``ValueError`` on a bad time."""
    hour, minute = parse_time(draft.hour, draft.minute)
    alarm = find_alarm(alarms, alarm_id) if alarm_id is not None else None
    if alarm is None:
        return add_alarm(alarms, hour, minute, draft.label.strip(), days=draft.days)
    changes: dict[str, Any] = {"label": draft.label.strip(), "days": ordered_days(draft.days)}
    if (alarm.hour, alarm.minute) != (hour, minute):
        changes.update(hour=hour, minute=minute, enabled=True)
    return alarms.update(alarm.id, **changes)


def set_alarm(alarms: Alarms, hour: int, minute: int, label: str = "",
              days: Sequence[str] = ()) -> Alarm:
    """What ``SET_ALARM`` does: like AOSP DeskClock, an existing alarm with the same time,
    label and days is switched on instead of duplicated."""
    wanted = ordered_days(days)
    for alarm in alarms:
        if (alarm.hour, alarm.minute, alarm.label, alarm.days) == (hour, minute, label, wanted):
            return alarms.update(alarm.id, enabled=True)
    return add_alarm(alarms, hour, minute, label, days=wanted)


def days_summary(days: Sequence[str]) -> str:
    if not days:
        return "Once"
    if len(days) == len(DAYS):
        return "Every day"
    if tuple(days) == WEEKDAYS:
        return "Weekdays"
    if tuple(days) == WEEKEND:
        return "Weekends"
    return ", ".join(days)


def alarm_subtitle(alarm: Alarm) -> str:
    summary = days_summary(alarm.days)
    return f"{alarm.label} · {summary}" if alarm.label else summary


def next_alarm(alarms: Alarms, now: datetime) -> tuple[Alarm, datetime] | None:
    """The enabled alarm that rings first, and when."""
    upcoming = [(a, next_ring(a, now)) for a in alarms if a.enabled]
    return min(upcoming, key=lambda pair: pair[1]) if upcoming else None


def stopwatch_elapsed(data: ClockData, now: datetime) -> float:
    running = (now - data.stopwatch_since).total_seconds() if data.stopwatch_since else 0.0
    return data.stopwatch_total + running


TIMER_DIGITS = 6


def timer_digits(typed: str) -> str:
    """The digits of the timer's field, the last six (DeskClock's keypad drops the first),
    padded to ``HHMMSS``."""
    only = "".join(c for c in typed if c.isdigit())[-TIMER_DIGITS:]
    return only.rjust(TIMER_DIGITS, "0")


def timer_text(typed: str) -> str:
    """The timer's setup display, ``01h 30m 45s``."""
    d = timer_digits(typed)
    return f"{d[:2]}h {d[2:4]}m {d[4:]}s"


def timer_seconds(typed: str) -> int:
    d = timer_digits(typed)
    return int(d[:2]) * 3600 + int(d[2:4]) * 60 + int(d[4:])


# --- the app -------------------------------------------------------------------------------
class ClockApp(App):
    manifest = MANIFEST

    ui: ClockUI
    data: ClockData

    @property
    def alarms(self) -> Alarms:
        return self.system.alarms

    def handle_intent(self, intent: Intent) -> bool:
        """``SET_ALARM`` with an hour (and minutes, message, days) sets an alarm; with
        ``SKIP_UI`` it stays in the background, as in AOSP DeskClock's HandleApiCalls.
        ``SHOW_ALARMS`` shows the alarm list (the alarm tab, the editor closed)."""
        if intent.action == SHOW_ALARMS:
            self.ui.tab = "Alarm"
            self.stack = [Route("main")]
            return True
        if intent.action != SET_ALARM:
            return True
        extras = intent.extras
        hour, minute = extras.get(EXTRA + "HOUR"), extras.get(EXTRA + "MINUTES", 0)
        if not (isinstance(hour, int) and isinstance(minute, int) and 0 <= hour <= 23
                and 0 <= minute <= 59):
            return True
        days = [DAYS[(int(d) - 2) % 7] for d in extras.get(EXTRA + "DAYS") or []]
        set_alarm(self.alarms, int(hour), int(minute), str(extras.get(EXTRA + "MESSAGE") or ""),
                  days)
        return extras.get(EXTRA + "SKIP_UI") is not True

    @property
    def ticking(self) -> bool:
        """A running timer or stopwatch on screen counts seconds."""
        tab, data = self.ui.tab, self.data
        return self.route.name == "main" and (
            (tab == "Timer" and data.timer_end is not None)
            or (tab == "Stopwatch" and data.stopwatch_since is not None))

    def initial_ui(self) -> ClockUI:
        return ClockUI()

    def initial_data(self) -> ClockData:
        return ClockData()

    # navigation with side effects on the draft
    def open_editor(self, alarm_id: int | None) -> None:
        alarm = find_alarm(self.alarms, alarm_id) if alarm_id is not None else None
        self.ui.draft = (AlarmDraft(f"{alarm.hour:02d}", f"{alarm.minute:02d}", alarm.label,
                                    alarm.days) if alarm else AlarmDraft())
        self.ui.picker = None
        self.go("edit", alarm_id)
        if alarm is None:  # DeskClock's "+" asks for the time first
            self.open_picker()

    def is24h(self) -> bool:
        """The system's 12/24-hour setting (``system.time_12_24``)."""
        return self.system.get_setting("system", "time_12_24") != "12"

    def open_picker(self) -> None:
        """The time picker, at the draft's time (a new alarm's: the current time, as
        DeskClock's)."""
        draft, now = self.ui.draft, self.system.now
        when = (format_time(int(draft.hour), int(draft.minute))
                if draft.hour.isdigit() and draft.minute.isdigit() else f"{now:%H:%M}")
        self.ui.picker = ClockState.of(when, is24h=self.is24h())

    def picked(self, value: str) -> None:
        hour, minute = value.split(":")
        self.ui.draft.hour, self.ui.draft.minute, self.ui.picker = hour, minute, None

    def close_picker(self) -> None:
        """Cancel: a new alarm whose time was never set is not made (as DeskClock's)."""
        self.ui.picker = None
        if self.route.name == "edit" and self.route.arg is None and not self.ui.draft.hour:
            self.back()

    def save_editor(self) -> None:
        try:
            alarm = save_draft(self.alarms, self.ui.draft, self.route.arg)
        except ValueError as error:
            self.toast(self.t(str(error)))
            return
        self.toast(self.t("Alarm set for {time}", time=format_time(alarm.hour, alarm.minute)))
        self.back()

    def confirm_delete(self, alarm_id: int) -> None:
        delete_alarm(self.alarms, alarm_id)
        self.ui.draft = AlarmDraft()
        if self.route.name == "edit":
            self.back()
        self.toast(self.t("Alarm deleted"))

    def duplicate(self, alarm_id: int) -> None:
        if duplicate_alarm(self.alarms, alarm_id) is not None:
            self.toast(self.t("Alarm duplicated"))

    def toggle_alarm(self, alarm_id: int) -> None:
        alarm = find_alarm(self.alarms, alarm_id)
        if alarm is not None:
            self.alarms.update(alarm_id, enabled=not alarm.enabled)

    def set_draft(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def toggle_day(self, day: str) -> None:
        days = self.ui.draft.days
        self.ui.draft.days = ordered_days([d for d in days if d != day] if day in days
                                          else [*days, day])

    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def type_timer(self, typed: str) -> None:
        """The timer's field: digits only, the last six kept."""
        digits = "".join(c for c in typed if c.isdigit())[-TIMER_DIGITS:]
        if digits != self.data.timer_input:
            self.data.timer_input = digits

    def start_timer(self) -> None:
        total = timer_seconds(self.data.timer_input)
        if total <= 0:
            self.toast(self.t("Enter a duration"))
            return
        self.data.timer_end = self.system.now + timedelta(seconds=total)
        self.data.timer_input = ""

    def stop_timer(self) -> None:
        self.data.timer_end = None

    def start_stop_stopwatch(self) -> None:
        data, now = self.data, self.system.now
        if data.stopwatch_since is None:
            data.stopwatch_since = now
        else:
            data.stopwatch_total, data.stopwatch_since = stopwatch_elapsed(data, now), None

    def lap(self) -> None:
        if self.data.stopwatch_since is not None:
            self.data.laps += 1

    def reset_stopwatch(self) -> None:
        data = self.data
        if data.stopwatch_since is None and (data.stopwatch_total or data.laps):
            data.stopwatch_total, data.laps = 0.0, 0

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            screen = self.editor(route.arg)
        else:
            tabs = {"Alarm": self.alarm_list, "Clock": self.clock, "Timer": self.timer,
                    "Stopwatch": self.stopwatch}
            screen = tabs[self.ui.tab]()
        return in_locale(self, screen)

    def timer_label(self, typed: str) -> str:
        """The timer's setup display: "01h 30m 45s" (01时 30分 45秒)."""
        d = timer_digits(typed)
        return self.t("{h}h {m}m {s}s", h=d[:2], m=d[2:4], s=d[4:])

    def days_text(self, days: Sequence[str]) -> str:
        """When an alarm repeats: "Once", "Weekdays", "Mon, Wed" (仅一次, 工作日, 周一、周三)."""
        summary = days_summary(days)
        if summary != ", ".join(days) or not days:
            return self.t(summary)
        return self.t(", ").join(self.t(d) for d in days)

    def tab_bar(self) -> Node:
        return TabBar([Tab(name, name == self.ui.tab, partial(self.set_ui, tab=name),
                           id=f"tab_{name.lower()}") for name in TABS])

    def alarm_list(self) -> Screen:
        items = [
            ListItem(
                format_time(a.hour, a.minute),
                # the label and the days as text views of their own, with AOSP DeskClock's
                # ids (res/layout/alarm_time_collapsed.xml: @id/label, @id/days_of_week)
                parts=[("label", a.label), ("days_of_week", self.days_text(a.days))],
                id=f"alarm_{a.id}",
                on_click=partial(self.open_editor, a.id),
                menu=[(self.t("Delete"), partial(self.confirm_delete, a.id)),
                      (self.t("Duplicate"), partial(self.duplicate, a.id))],
                trailing=Toggle("", a.enabled, partial(self.toggle_alarm, a.id),
                                id=f"alarm_switch_{a.id}",
                                desc=self.t("{time} alarm",
                                            time=format_time(a.hour, a.minute))),
            )
            for a in sorted_alarms(self.alarms)
        ]
        return Screen(
            top_bar=TopBar("Alarm"),
            # the spacer lets the last alarm scroll above the floating button
            content=[ListView(items, id="alarm_list", empty_text="No alarms"), Spacer(240)],
            fab=Fab("+", "Add alarm", lambda: self.open_editor(None), id="add_alarm"),
            bottom=self.tab_bar(),
        )

    def clock(self) -> Screen:
        now = self.system.now
        upcoming = next_alarm(self.alarms, now)
        next_text = (self.t("Next alarm: {day} {time}", day=self.t(DAYS[upcoming[1].weekday()]),
                            time=format_time(upcoming[0].hour, upcoming[0].minute))
                     if upcoming else "No alarms set")
        date_text = (f"{now:%A}, {now:%B} {now.day}" if self.system.locale == DEFAULT_LOCALE
                     else format_date(now.date(), self.system.locale, year=False,
                                      weekday=True))
        return Screen(
            top_bar=TopBar("Clock"),
            content=[
                Text(now.strftime("%H:%M"), style="big", id="digital_clock"),
                Text(date_text, id="date"),
                Text(next_text, style="caption", id="next_alarm"),
            ],
            bottom=self.tab_bar(),
        )

    def timer(self) -> Screen:
        data = self.data
        if data.timer_end is None:
            content = [
                Text(self.timer_label(data.timer_input), style="big", id="timer_setup"),
                TextField(data.timer_input, self.type_timer, hint="Type the hours, minutes "
                          "and seconds (HHMMSS)", id="timer_input", label="Duration"),
                Button("Start", self.start_timer, id="timer_start"),
            ]
        else:
            left = max(0, math.ceil((data.timer_end - self.system.now).total_seconds()))
            content = [
                Text(format_duration(left), style="big", id="timer_remaining"),
                Text("Time's up" if left == 0 else "Running", style="caption",
                     id="timer_status"),
                Button("Cancel" if left else "Stop", self.stop_timer, id="timer_cancel",
                       style="secondary"),
            ]
        return Screen(top_bar=TopBar("Timer"), content=content, bottom=self.tab_bar())

    def stopwatch(self) -> Screen:
        data = self.data
        running = data.stopwatch_since is not None
        elapsed = stopwatch_elapsed(data, self.system.now)
        laps = [Text(self.t("{n} lap" if data.laps == 1 else "{n} laps", n=data.laps),
                     style="caption", id="stopwatch_laps")] if data.laps else []
        if running:
            buttons = [Button("Lap", self.lap, id="stopwatch_lap", style="secondary"),
                       Button("Pause", self.start_stop_stopwatch, id="stopwatch_start")]
        else:
            buttons = [Button("Reset", self.reset_stopwatch, id="stopwatch_reset",
                              style="secondary", enabled=elapsed > 0 or data.laps > 0),
                       Button("Start", self.start_stop_stopwatch, id="stopwatch_start")]
        return Screen(
            top_bar=TopBar("Stopwatch"),
            content=[Text(format_duration(elapsed), style="big", id="stopwatch_time"), *laps,
                     Row(buttons, id="stopwatch_buttons")],
            bottom=self.tab_bar(),
        )

    def editor(self, alarm_id: int | None) -> Screen:
        draft = self.ui.draft
        boxes = [Checkbox(day, day in draft.days, partial(self.toggle_day, day),
                          id=f"day_{day.lower()}") for day in DAYS]
        shown = (format_time(int(draft.hour), int(draft.minute))
                 if draft.hour.isdigit() and draft.minute.isdigit() else "Set time")
        content = [
            # the alarm's time (DeskClock's digital_clock): a tap opens the time picker
            Button(shown, self.open_picker, id="time", style="text"),
            TextField(draft.label, lambda v: self.set_draft(label=v), hint="Label",
                      id="label", label="Label"),
            Text("Repeat", style="caption", id="repeat_title"),
            Row(boxes[:4], id="days_1"),
            Row([*boxes[4:], Spacer()], id="days_2"),
            Row([Button("Cancel", self.back, id="cancel", style="secondary"),
                 Button("Save", self.save_editor, id="save")], id="buttons"),
        ]
        dialog = None
        if self.ui.picker is not None:
            dialog = MaterialTimePicker(self.ui.picker, on_done=self.picked,
                                        on_cancel=self.close_picker)
        if alarm_id is not None:
            content.append(Button("Delete alarm", lambda: self.set_draft(confirm_delete=True),
                                  id="delete", style="danger"))
            alarm = find_alarm(self.alarms, alarm_id)
            if draft.confirm_delete and alarm is not None:
                when = format_time(alarm.hour, alarm.minute)
                dialog = Dialog("Delete alarm?",
                                self.t("The {time} alarm will be deleted.", time=when), [
                    DialogButton("Cancel", lambda: self.set_draft(confirm_delete=False),
                                 id="button_cancel"),
                    DialogButton("Delete", lambda: self.confirm_delete(alarm_id),
                                 id="button_delete"),
                ])
        return Screen(
            top_bar=TopBar("Edit alarm" if alarm_id is not None else "New alarm",
                           on_back=self.back),
            content=content,
            dialog=dialog,
            on_dismiss=self.dismiss,
        )

    def dismiss(self) -> None:
        if self.ui.picker is not None:
            self.close_picker()
        else:
            self.set_draft(confirm_delete=False)
