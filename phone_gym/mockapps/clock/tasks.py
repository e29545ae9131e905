"""Clock tasks: adding, switching off, deleting, retiming and looking up alarms. Setups write
a handful of alarms with distinct labels and times; the target sits at a sampled position,
so its id is ``alarm_id``. ``real`` tasks run on real phones too (alarms set through the
``SET_ALARM`` intent, read back from the alarm manager)."""

from __future__ import annotations

import copy
from collections.abc import Generator, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.families import (
    CreateRecord,
    DeleteRecord,
    EditRecord,
    Infeasible,
    Lookup,
    scan,
)
from ...tasks.pickers import pick_time
from ...tasks.task import Task, localize_data
from ...tasks.vocab import LABELS, hhmm, pick, times_of_day
from ...verifiers import Allowed, Criterion, Matcher, NearMiss, Value, matching, same_text
from ...world.app import app_strings
from .app import DAYS, WEEKDAYS, WEEKEND, ClockApp, timer_digits, timer_text
from .fixtures import COLLECTION, seed_alarms, seed_around, target_params
from .fixtures import DATA as LABEL_DATA

DAY_NAMES = dict(zip(DAYS, ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                            "Saturday", "Sunday"), strict=True))
#: Repeat patterns for new alarms, with how an instruction says them.
REPEAT_CHOICES: tuple[tuple[tuple[str, ...], str], ...] = (
    (WEEKDAYS, "every weekday (Monday to Friday)"),
    (WEEKEND, "every Saturday and Sunday"),
    *(((a, b), f"every {DAY_NAMES[a]} and {DAY_NAMES[b]}")
      for a, b in (("Mon", "Wed"), ("Tue", "Thu"), ("Mon", "Fri"), ("Wed", "Sat"),
                   ("Thu", "Sun"))),
)


ZH_DAYS = dict(zip(DAYS, "一二三四五六日", strict=True))


def repeat_zh(days: Sequence[str]) -> str:
    """How a Chinese instruction says a repeat pattern: 每个工作日（周一到周五）, 每周一和周三."""
    if tuple(days) == WEEKDAYS:
        return "每个工作日（周一到周五）"
    return "每周" + "和周".join(ZH_DAYS[d] for d in days)


def label(ui: Driver, key: str) -> str:
    """A Clock label as the phone's locale shows it (a menu item, a button)."""
    return app_strings(ClockApp, ui.locale).t(key)


class ClockZh(Task):
    """The zh-CN side of the Clock's templates: their labels in Chinese (``LABELS`` through
    ``strings/zh-CN.data.json``), a repeat pattern as 每周一和周三. Templates built on these
    elsewhere run in en-US unless they declare their locales."""

    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = LABEL_DATA

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        p: dict[str, Any] = localize_data(params, table)
        if "repeat" in p:  # the days as the instruction and the editor's boxes show them
            p["repeat"] = repeat_zh(p["days"])
            p["days_shown"] = [app_strings(ClockApp, "zh-CN").t(d) for d in p["days"]]
        return p


def alarms_shown(ui: Driver) -> dict[int, dict[str, Any]]:
    """The alarm rows on screen now: ``{id: {"time", "label", "on"}}`` (a row's switch and
    label follow it), top to bottom."""
    out: dict[int, dict[str, Any]] = {}
    current: dict[str, Any] | None = None
    for e in ui.elements():
        sid = e.short_id
        if sid.startswith("alarm_switch_") and current is not None:
            current["on"] = e.checked
        elif sid.startswith("alarm_") and sid[6:].isdigit():
            current = out.setdefault(int(sid[6:]), {"time": e.text, "label": "", "on": False})
        elif sid == "label" and current is not None and not current["label"]:
            current["label"] = e.text
    return out


def find_alarm(ui: Driver, label: str) -> Generator[PhoneAction, None, int]:
    """From the alarm list: the id of the alarm labelled ``label``, scrolling down to it."""
    def found(rows: Mapping[int, Mapping[str, Any]]) -> bool:
        return any(r["label"] == label for r in rows.values())
    ui.why(f"Looking down the alarm list for the one labelled \"{label}\"")
    rows = yield from scan(ui, alarms_shown, until=found)
    ids = [i for i, r in rows.items() if r["label"] == label]
    if not ids:
        raise OracleError(f"no alarm labelled {label!r} in the list")
    return ids[0]


class ClockTask(ClockZh):
    """Shared parts: the alarms store, a new alarm's params, and opening a new alarm."""

    apps, collection = ("Clock",), COLLECTION

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """An alarm already set for the task's time (on or off) makes "the alarm at 7:30"
        ambiguous, and a new one at that time reuse it (DeskClock's ``SET_ALARM``)."""
        if "hour" in params and matching(existing, COLLECTION, {"hour": params["hour"],
                                                                "minute": params["minute"]}):
            return f"the phone already has an alarm at {params['time']}"
        return None

    def new_time(self, rng: np.random.Generator) -> dict[str, Any]:
        hour, minute = times_of_day(rng, 1)[0]
        return {"hour": hour, "minute": minute, "time": hhmm(hour, minute)}

    def seed_others(self, state: Any, params: Mapping[str, Any],
                    rng: np.random.Generator) -> None:
        seed_alarms(state, rng, int(rng.integers(3, 6)), avoid_labels=[params.get("label", "")],
                    avoid_times=[(params["hour"], params["minute"])], all_on=self.real)

    def new_alarm(self, ui: Driver, hour: int, minute: int) -> Iterator[PhoneAction]:
        """Open Clock, start a new alarm, and pick its time on the clock face."""
        yield from ui.open_app("Clock")
        yield from ui.tap(id="add_alarm")
        yield from pick_time(ui, hour, minute)


class ClockAddAlarm(ClockTask, CreateRecord):
    template = 'In the Clock app, create an alarm at {time} labelled "{label}".'
    instructions = {"zh-CN": "在时钟应用里新建一个{time}的闹钟，标签设为“{labe"
                             "l}”。"}
    complexity, max_steps = 2, 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**self.new_time(rng), "label": pick(rng, LABELS)}

    setup = ClockTask.seed_others

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"label": same_text(p["label"]), "hour": p["hour"], "minute": p["minute"],
                "enabled": True, "days": []}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.new_alarm(ui, p["hour"], p["minute"])
        yield from ui.fill("label", p["label"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class ClockAddRepeatingAlarm(ClockTask, CreateRecord):
    template = "In the Clock app, create an alarm at {time} that repeats {repeat}."
    instructions = {"zh-CN": "在时钟应用里新建一个{time}的闹钟，{repeat}重复"
                             "。"}
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        days, repeat = pick(rng, REPEAT_CHOICES)
        return {**self.new_time(rng), "days": list(days), "repeat": repeat}

    setup = ClockTask.seed_others

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour"], "minute": p["minute"], "days": list(p["days"]),
                "enabled": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.new_alarm(ui, p["hour"], p["minute"])
        if "days_shown" in p:  # 周一 ...: as the instruction names them
            for shown in p["days_shown"]:
                yield from ui.tap(shown, kind="checkbox")
        else:
            for day in p["days"]:
                yield from ui.tap(id=f"day_{day.lower()}")
        yield from ui.tap(id="save")
        yield from ui.finish()


class ClockDisableAlarm(ClockTask, EditRecord):
    template = 'In the Clock app, turn off the alarm labelled "{label}".'
    instructions = {"zh-CN": "在时钟应用里把标签为“{label}”的闹钟关掉。"}
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around(state, rng, p, enabled=True)

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["alarm_id"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"enabled": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Clock app's alarm list")
        yield from ui.open_app("Clock")
        alarm = yield from find_alarm(ui, p["label"])
        yield from ui.reveal(id=f"alarm_switch_{alarm}")
        if ui.must(id=f"alarm_switch_{alarm}").checked:
            ui.why(f"The \"{p['label']}\" alarm is on: switching it off")
            yield from ui.tap(id=f"alarm_switch_{alarm}")
        ui.why(f"The \"{p['label']}\" alarm is off")
        yield from ui.finish()


class ClockDeleteAlarm(ClockTask, DeleteRecord):
    template = "In the Clock app, delete the alarm set for {time}."
    instructions = {"zh-CN": "在时钟应用里删除{time}的那个闹钟。"}
    complexity, max_steps = 2, 10
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around(state, rng, p, all_on=True, days=())

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour"], "minute": p["minute"]}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        yield from ui.long_press(p["time"], kind="list_item")
        yield from ui.tap(label(ui, "Delete"), kind="menu_item")
        yield from ui.finish()


class ClockChangeAlarmTime(ClockDisableAlarm):
    template = 'In the Clock app, change the alarm labelled "{label}" to ring at {time_new}.'
    instructions = {"zh-CN": "在时钟应用里把标签为“{label}”的闹钟改成{time_"
                             "new}响。"}
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng, times=2)

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour_new"], "minute": p["minute_new"]}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Clock app's alarm list")
        yield from ui.open_app("Clock")
        alarm = yield from find_alarm(ui, p["label"])
        ui.why(f"Opening the \"{p['label']}\" alarm to set its time")
        yield from ui.tap(id=f"alarm_{alarm}")
        yield from ui.tap(id="time")
        yield from pick_time(ui, p["hour_new"], p["minute_new"])
        yield from ui.tap(id="save")
        yield from ui.finish()


class ClockAlarmTimeLookup(ClockTask, Lookup):
    template = ('In the Clock app, at what time is the alarm labelled "{label}" set? '
                "Answer in HH:MM.")
    instructions = {"zh-CN": "在时钟应用里，标签为“{label}”的闹钟定的是几点？请按"
                             "HH:MM格式回答。"}
    complexity, max_steps = 1, 10
    answer_type, answer_field = "time", "time"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around(state, rng, p)

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["time"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [hhmm(a["hour"], a["minute"]) for a in initial[COLLECTION].values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Clock app's alarm list")
        yield from ui.open_app("Clock")
        alarm = yield from find_alarm(ui, p["label"])
        yield from ui.reveal(id=f"alarm_{alarm}")
        time = ui.must(id=f"alarm_{alarm}").text
        ui.why(f"The alarm labelled \"{p['label']}\" is set for {time}")
        yield from ui.answer(time)


class ClockDeleteDisabledAlarms(ClockTask, DeleteRecord):
    template = "In the Clock app, delete every alarm that is switched off. Keep the others."
    instructions = {"zh-CN": "在时钟应用里删除所有已关闭的闹钟，其他的保留。"}
    complexity, max_steps = 3, 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        n = int(rng.integers(5, 8))
        off = rng.choice(n, size=int(rng.integers(2, 4)), replace=False)
        return {"n": n, "off_ids": sorted(int(i) + 1 for i in off)}

    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        fixed = {i: {"enabled": i + 1 not in p["off_ids"]} for i in range(p["n"])}
        seed_alarms(state, rng, p["n"], fixed)

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"enabled": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Clock app's alarm list to see which alarms are off")
        yield from ui.open_app("Clock")
        rows = yield from scan(ui, alarms_shown)
        off = [i for i, r in rows.items() if not r["on"]]
        for alarm in off:
            ui.why(f"The {rows[alarm]['time']} alarm ({rows[alarm]['label']}) is switched "
                   "off: deleting it")
            yield from ui.long_press(id=f"alarm_{alarm}")
            yield from ui.tap(label(ui, "Delete"), kind="menu_item")
        ui.why(f"The {len(off)} switched-off alarms are deleted; the others stay")
        yield from ui.finish()


class ClockCreateAlarm(ClockTask, CreateRecord):
    template = "Set an alarm for {time}."
    instructions = {"zh-CN": "定一个{time}的闹钟。"}
    complexity, max_steps = 2, 16
    real = True

    sample_params = ClockTask.new_time
    setup = ClockTask.seed_others

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"hour": p["hour"], "minute": p["minute"], "enabled": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.new_alarm(ui, p["hour"], p["minute"])
        yield from ui.tap(id="save")
        yield from ui.finish()


# --- infeasible variants: no alarm has the label (or the time) the task names --------------
class ClockDisableAlarmInfeasible(Infeasible, ClockDisableAlarm):
    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_alarms(state, rng, p["n"], avoid_labels=[p["label"]],
                    avoid_times=[(p["hour"], p["minute"])])


class ClockDeleteAlarmInfeasible(Infeasible, ClockDeleteAlarm):
    def setup(self, state: Any, p: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_alarms(state, rng, p["n"], avoid_labels=[p["label"]],
                    avoid_times=[(p["hour"], p["minute"])], all_on=True)


# --- AndroidWorld's clock tasks (``suites.aw_system``): the stopwatch and the timer ---------
#: Where the clock keeps its timer and stopwatch (``app.ClockData``, DeskClock's preferences).
DATA = "apps.Clock"


def _is_time(value: Any) -> bool:
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


#: The stopwatch runs: it holds the time it last started at.
RUNNING = Matcher(_is_time, "the stopwatch running")


class AwClockTask(ClockZh):
    """On AndroidWorld's device date; a few alarms as bystanders; the stopwatch and the
    timer checked in the clock's data, never on the screen."""

    apps = ("Clock",)
    start, complexity, max_steps = AW_START, 1, 10

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_alarms(state, rng, int(rng.integers(2, 5)))

    def open_tab(self, ui: Driver, tab: str) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        yield from ui.tap(id=f"tab_{tab}")


class ClockStopWatchPausedVerify(AwClockTask):
    """The stopwatch starts paused (reset): doing nothing is right; starting it (even
    pausing it again, which leaves time counted) fails."""

    template = "Make sure the stopwatch in the Clock app is paused."
    instructions = {"zh-CN": "确认时钟应用里的秒表处于暂停状态。"}
    done_at_start = True

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Value(f"{DATA}.stopwatch_since", None)]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        running = copy.deepcopy(final)
        running["apps"]["Clock"]["stopwatch_since"] = AW_START.isoformat()
        paused = copy.deepcopy(final)
        paused["apps"]["Clock"]["stopwatch_total"] = 4.0
        return [NearMiss(running, answer, "the stopwatch started"),
                NearMiss(paused, answer, "the stopwatch started and paused again")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "stopwatch")
        if ui.find(label(ui, "Pause"), id="stopwatch_start") is not None:
            yield from ui.tap(id="stopwatch_start")
        yield from ui.finish()


class ClockStopWatchRunning(AwClockTask):
    template = "Start the stopwatch in the Clock app."
    instructions = {"zh-CN": "在时钟应用里启动秒表。"}

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Value(f"{DATA}.stopwatch_since", RUNNING)]

    def allowed(self, params: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [f"{DATA}.stopwatch_since", f"{DATA}.stopwatch_total"]  # no laps

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        paused = copy.deepcopy(final)
        paused["apps"]["Clock"].update(stopwatch_since=None, stopwatch_total=3.0)
        return [NearMiss(paused, answer, "started, then paused")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_tab(ui, "stopwatch")
        if ui.find(label(ui, "Start"), id="stopwatch_start") is not None:
            yield from ui.tap(id="stopwatch_start")
        yield from ui.finish()


def typed_duration(hours: int, minutes: int, seconds: int) -> Matcher:
    """The timer's field holds that duration (``HHMMSS``, leading zeros optional)."""
    want = f"{hours:02d}{minutes:02d}{seconds:02d}"
    return Matcher(lambda v: isinstance(v, str) and v.isdigit() and len(v) <= 6
                   and timer_digits(v) == want, f"timer {timer_text(want)}")


class ClockTimerEntry(AwClockTask):
    template = ("In the Clock app, enter a timer of {hours} h {minutes} min {seconds} s, "
                "but do not start it.")
    instructions = {"zh-CN": "在时钟应用里输入一个{hours}小时{minutes}分{"
                             "seconds}秒的计时器，但先不要开始。"}
    derivations = {"type": "the instruction's hours, minutes and seconds as the timer "
                           "keypad's HHMMSS digits"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        while True:
            h, m, s = (int(rng.integers(0, 24)), int(rng.integers(0, 60)),
                       int(rng.integers(0, 60)))
            if h or m or s:
                return {"hours": h, "minutes": m, "seconds": s}

    def digits(self, p: Mapping[str, Any]) -> str:
        return f"{p['hours']:02d}{p['minutes']:02d}{p['seconds']:02d}"

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Value(f"{DATA}.timer_input",
                      typed_duration(params["hours"], params["minutes"], params["seconds"])),
                Value(f"{DATA}.timer_end", None)]

    def allowed(self, params: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [f"{DATA}.timer_input"]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        d = self.digits(params)
        wrong = {"minutes and seconds swapped": d[:2] + d[4:] + d[2:4],
                 "one second off": f"{(int(d) + (1 if d[4:] != '59' else -1)):06d}",
                 "hours left out": "00" + d[2:]}
        out = []
        for why, typed in wrong.items():
            if typed != d:
                state = copy.deepcopy(final)
                state["apps"]["Clock"]["timer_input"] = typed
                out.append(NearMiss(state, answer, why))
        started = copy.deepcopy(final)
        started["apps"]["Clock"].update(timer_input="", timer_end=AW_START.isoformat())
        out.append(NearMiss(started, answer, "the timer started"))
        return out

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening the Clock app's Timer tab")
        yield from self.open_tab(ui, "timer")
        if ui.find(id="timer_cancel") is not None:  # a timer running: not ours to keep
            ui.why("A timer is running: cancelling it to enter the new one")
            yield from ui.tap(id="timer_cancel")
        ui.why(f"Entering {params['hours']} h {params['minutes']} min {params['seconds']} s "
               "as the keypad's digits, without starting it")
        yield from ui.fill("timer_input", self.digits(params))
        ui.why("The timer is entered and not started")
        yield from ui.finish()


TEMPLATES: list[Task] = [
    ClockAddAlarm(), ClockAddRepeatingAlarm(), ClockDisableAlarm(), ClockDeleteAlarm(),
    ClockChangeAlarmTime(), ClockAlarmTimeLookup(), ClockDeleteDisabledAlarms(),
    ClockCreateAlarm(), ClockDisableAlarmInfeasible(), ClockDeleteAlarmInfeasible(),
    ClockStopWatchPausedVerify(), ClockStopWatchRunning(), ClockTimerEntry(),
]
