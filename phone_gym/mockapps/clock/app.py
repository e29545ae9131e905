"""Clock: alarms with an editor, switches and a long-press menu; the time; a timer; a
stopwatch. Four tabs at the bottom.

Alarms are the shared ``alarms`` store (``system.alarms``: frozen ``Alarm`` records), which
the clock owns (its manifest says so: ``pm clear`` of the clock wipes them, and the alarm
manager's ``dumpsys alarm`` reports them under its package). The current tab, the alarm
editor's draft, the timer and the stopwatch are transient ``ClockUI`` state. Times are
24-hour ``HH:MM``; the timer and the stopwatch follow the simulated clock ``system.now``.
The clock answers Android's ``SET_ALARM`` and ``SHOW_ALARMS`` intents as AOSP DeskClock does;
an alarm row shows its label and days as text views of their own (DeskClock's ids ``label``
and ``days_of_week``) beside the time (``alarm_{id}``) and the switch (``alarm_switch_{id}``),
so a ``uiautomator dump`` of the list reads like a real clock's (``real.alarms``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Table
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
class ClockUI:
    """Transient state, lost on force-stop: the tab, the editor, the timer, the stopwatch."""

    tab: str = "Alarm"
    draft: AlarmDraft = field(default_factory=AlarmDraft)
    timer_minutes: str = ""
    timer_seconds: str = ""
    timer_end: datetime | None = None  # when the running timer rings
    stopwatch_since: datetime | None = None  # when the stopwatch last started; None: stopped
    stopwatch_total: float = 0.0  # seconds counted before ``stopwatch_since``


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


def stopwatch_elapsed(ui: ClockUI, now: datetime) -> float:
    running = (now - ui.stopwatch_since).total_seconds() if ui.stopwatch_since else 0.0
    return ui.stopwatch_total + running


# --- the app -------------------------------------------------------------------------------
class ClockApp(App):
    manifest = MANIFEST

    ui: ClockUI

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
        ui = self.ui
        return self.route.name == "main" and (
            (ui.tab == "Timer" and ui.timer_end is not None)
            or (ui.tab == "Stopwatch" and ui.stopwatch_since is not None))

    def initial_ui(self) -> ClockUI:
        return ClockUI()

    # navigation with side effects on the draft
    def open_editor(self, alarm_id: int | None) -> None:
        alarm = find_alarm(self.alarms, alarm_id) if alarm_id is not None else None
        self.ui.draft = (AlarmDraft(f"{alarm.hour:02d}", f"{alarm.minute:02d}", alarm.label,
                                    alarm.days) if alarm else AlarmDraft())
        self.go("edit", alarm_id)

    def save_editor(self) -> None:
        try:
            alarm = save_draft(self.alarms, self.ui.draft, self.route.arg)
        except ValueError as error:
            self.toast(str(error))
            return
        self.toast(f"Alarm set for {format_time(alarm.hour, alarm.minute)}")
        self.back()

    def confirm_delete(self, alarm_id: int) -> None:
        delete_alarm(self.alarms, alarm_id)
        self.ui.draft = AlarmDraft()
        if self.route.name == "edit":
            self.back()
        self.toast("Alarm deleted")

    def duplicate(self, alarm_id: int) -> None:
        if duplicate_alarm(self.alarms, alarm_id) is not None:
            self.toast("Alarm duplicated")

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

    def start_timer(self) -> None:
        minutes, seconds = self.ui.timer_minutes.strip(), self.ui.timer_seconds.strip()
        if not all(v.isdigit() or v == "" for v in (minutes, seconds)):
            self.toast("Enter minutes and seconds as numbers")
            return
        total = int(minutes or 0) * 60 + int(seconds or 0)
        if total <= 0:
            self.toast("Enter a duration")
            return
        self.ui.timer_end = self.system.now + timedelta(seconds=total)

    def start_stop_stopwatch(self) -> None:
        ui, now = self.ui, self.system.now
        if ui.stopwatch_since is None:
            ui.stopwatch_since = now
        else:
            ui.stopwatch_total, ui.stopwatch_since = stopwatch_elapsed(ui, now), None

    def reset_stopwatch(self) -> None:
        self.set_ui(stopwatch_since=None, stopwatch_total=0.0)

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            return self.editor(route.arg)
        tabs = {"Alarm": self.alarm_list, "Clock": self.clock, "Timer": self.timer,
                "Stopwatch": self.stopwatch}
        return tabs[self.ui.tab]()

    def tab_bar(self) -> Node:
        return TabBar([Tab(name, name == self.ui.tab, partial(self.set_ui, tab=name),
                           id=f"tab_{name.lower()}") for name in TABS])

    def alarm_list(self) -> Screen:
        items = [
            ListItem(
                format_time(a.hour, a.minute),
                # the label and the days as text views of their own, with AOSP DeskClock's
                # ids (res/layout/alarm_time_collapsed.xml: @id/label, @id/days_of_week)
                parts=[("label", a.label), ("days_of_week", days_summary(a.days))],
                id=f"alarm_{a.id}",
                on_click=partial(self.open_editor, a.id),
                menu=[("Delete", partial(self.confirm_delete, a.id)),
                      ("Duplicate", partial(self.duplicate, a.id))],
                trailing=Toggle("", a.enabled, partial(self.toggle_alarm, a.id),
                                id=f"alarm_switch_{a.id}",
                                desc=f"{format_time(a.hour, a.minute)} alarm"),
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
        next_text = (f"Next alarm: {DAYS[upcoming[1].weekday()]} "
                     f"{format_time(upcoming[0].hour, upcoming[0].minute)}"
                     if upcoming else "No alarms set")
        return Screen(
            top_bar=TopBar("Clock"),
            content=[
                Text(now.strftime("%H:%M"), style="big", id="digital_clock"),
                Text(f"{now:%A}, {now:%B} {now.day}", id="date"),
                Text(next_text, style="caption", id="next_alarm"),
            ],
            bottom=self.tab_bar(),
        )

    def timer(self) -> Screen:
        ui = self.ui
        if ui.timer_end is None:
            content = [
                Row([TextField(ui.timer_minutes, lambda v: self.set_ui(timer_minutes=v),
                               hint="Minutes", id="timer_minutes", label="Minutes"),
                     TextField(ui.timer_seconds, lambda v: self.set_ui(timer_seconds=v),
                               hint="Seconds", id="timer_seconds", label="Seconds")],
                    id="timer_fields"),
                Button("Start", self.start_timer, id="timer_start"),
            ]
        else:
            left = max(0, math.ceil((ui.timer_end - self.system.now).total_seconds()))
            content = [
                Text(format_duration(left), style="big", id="timer_remaining"),
                Text("Time's up" if left == 0 else "Running", style="caption",
                     id="timer_status"),
                Button("Cancel" if left else "Stop", lambda: self.set_ui(timer_end=None),
                       id="timer_cancel", style="secondary"),
            ]
        return Screen(top_bar=TopBar("Timer"), content=content, bottom=self.tab_bar())

    def stopwatch(self) -> Screen:
        ui = self.ui
        running = ui.stopwatch_since is not None
        elapsed = stopwatch_elapsed(ui, self.system.now)
        return Screen(
            top_bar=TopBar("Stopwatch"),
            content=[
                Text(format_duration(elapsed), style="big", id="stopwatch_time"),
                Row([Button("Stop" if running else "Start", self.start_stop_stopwatch,
                            id="stopwatch_start"),
                     Button("Reset", self.reset_stopwatch, id="stopwatch_reset",
                            style="secondary", enabled=not running and elapsed > 0)]),
            ],
            bottom=self.tab_bar(),
        )

    def editor(self, alarm_id: int | None) -> Screen:
        draft = self.ui.draft
        boxes = [Checkbox(day, day in draft.days, partial(self.toggle_day, day),
                          id=f"day_{day.lower()}") for day in DAYS]
        content = [
            Row([TextField(draft.hour, lambda v: self.set_draft(hour=v), hint="Hour (0-23)",
                           id="hour", label="Hour"),
                 TextField(draft.minute, lambda v: self.set_draft(minute=v),
                           hint="Minute (0-59)", id="minute", label="Minute")], id="time"),
            TextField(draft.label, lambda v: self.set_draft(label=v), hint="Label",
                      id="label", label="Label"),
            Text("Repeat", style="caption", id="repeat_title"),
            Row(boxes[:4], id="days_1"),
            Row([*boxes[4:], Spacer()], id="days_2"),
            Row([Button("Cancel", self.back, id="cancel", style="secondary"),
                 Button("Save", self.save_editor, id="save")], id="buttons"),
        ]
        dialog = None
        if alarm_id is not None:
            content.append(Button("Delete alarm", lambda: self.set_draft(confirm_delete=True),
                                  id="delete", style="danger"))
            alarm = find_alarm(self.alarms, alarm_id)
            if draft.confirm_delete and alarm is not None:
                when = format_time(alarm.hour, alarm.minute)
                dialog = Dialog("Delete alarm?", f"The {when} alarm will be deleted.", [
                    DialogButton("Cancel", lambda: self.set_draft(confirm_delete=False)),
                    DialogButton("Delete", lambda: self.confirm_delete(alarm_id)),
                ])
        return Screen(
            top_bar=TopBar("Edit alarm" if alarm_id is not None else "New alarm",
                           on_back=self.back),
            content=content,
            dialog=dialog,
            on_dismiss=lambda: self.set_draft(confirm_delete=False),
        )
