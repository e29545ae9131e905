"""Clock tasks: adding, switching off, deleting, retiming and looking up alarms.

Every setup writes a handful of alarms with distinct labels and times; the alarm a task is
about sits at a sampled position ``slot`` among them, so its id is ``slot + 1``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Answer, Criterion, Matcher, NoRecord, Record, Value, same_text
from ...world import Device
from ..oracle import Driver
from ..task import TaskTemplate, pick
from .app import DAYS, WEEKDAYS, WEEKEND, ClockApp, add_alarm

ALARMS = "apps.Clock.alarms"
LABELS = ("Wake up", "Gym", "Medication", "School run", "Team meeting", "Yoga", "Laundry",
          "Call mom", "Nap", "Bus", "Water plants", "Pick up kids")
REPEATS: tuple[tuple[str, ...], ...] = ((), (), WEEKDAYS, WEEKEND, ("Mon", "Wed", "Fri"),
                                        ("Tue", "Thu"))
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


def clock_app(device: Device) -> ClockApp:
    app = device.apps[ClockApp.name]
    assert isinstance(app, ClockApp)
    return app


def hhmm(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def sample_times(rng: np.random.Generator, k: int,
                 avoid: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """``k`` distinct times of day (hours 5-22, minutes in steps of 5) not in ``avoid``."""
    times: list[tuple[int, int]] = []
    while len(times) < k:
        time = (int(rng.integers(5, 23)), 5 * int(rng.integers(12)))
        if time not in times and time not in avoid:
            times.append(time)
    return times


def seed_alarms(device: Device, rng: np.random.Generator, n: int,
                fixed: Mapping[int, Mapping[str, Any]], *, avoid_labels: Sequence[str] = (),
                avoid_times: Sequence[tuple[int, int]] = ()) -> None:
    """Add ``n`` alarms with distinct labels and times, some off, some repeating. Alarm
    ``i`` (id ``i + 1``) takes the fields in ``fixed[i]``, when given, over random ones."""
    labels = pick(rng, [x for x in LABELS if x not in avoid_labels], n)
    times = sample_times(rng, n, avoid_times)
    data = clock_app(device).data
    assert not data.alarms and data.next_id == 1
    for i, (label, (hour, minute)) in enumerate(zip(labels, times, strict=True)):
        spec: dict[str, Any] = {"hour": hour, "minute": minute, "label": label,
                                "enabled": bool(rng.random() < 0.7), "days": pick(rng, REPEATS)}
        spec.update(fixed.get(i, {}))
        add_alarm(data, **spec)


def target_params(rng: np.random.Generator, times: int = 1) -> dict[str, Any]:
    """Where the target alarm sits, how many alarms there are, its label and its times."""
    n = int(rng.integers(4, 7))
    slot = int(rng.integers(n))
    params: dict[str, Any] = {"n": n, "alarm_id": slot + 1, "label": pick(rng, LABELS)}
    for i, (hour, minute) in enumerate(sample_times(rng, times)):
        suffix = "" if i == 0 else "_new"
        params.update({f"hour{suffix}": hour, f"minute{suffix}": minute,
                       f"time{suffix}": hhmm(hour, minute)})
    return params


def seed_around_target(device: Device, rng: np.random.Generator, params: Mapping[str, Any],
                       **target: Any) -> None:
    """Seed ``params["n"]`` alarms, the target (with ``target`` fields) at its slot."""
    spec = {"hour": params["hour"], "minute": params["minute"], "label": params["label"],
            **target}
    times = [(params["hour"], params["minute"])]
    if "hour_new" in params:
        times.append((params["hour_new"], params["minute_new"]))
    seed_alarms(device, rng, params["n"], {params["alarm_id"] - 1: spec},
                avoid_labels=[params["label"]], avoid_times=times)


def alarm_record(state: Mapping[str, Any], alarm_id: int) -> dict[str, Any]:
    return state["apps"]["Clock"]["alarms"][str(alarm_id)]


def other_alarm(state: Mapping[str, Any], alarm_id: int) -> dict[str, Any]:
    """Some alarm other than ``alarm_id`` (the lowest id)."""
    alarms = state["apps"]["Clock"]["alarms"]
    return alarms[min((k for k in alarms if k != str(alarm_id)), key=int)]


def same_time(expected: str) -> Matcher:
    """The first ``H:MM`` (or ``H.MM``) in the value is the time ``expected``."""
    def test(value: Any) -> bool:
        found = re.search(r"(\d{1,2})\s*[:.h]\s*(\d{2})", str(value))
        want = re.fullmatch(r"(\d{1,2}):(\d{2})", expected)
        assert want is not None
        return found is not None and (int(found[1]), int(found[2])) == (int(want[1]),
                                                                        int(want[2]))
    return Matcher(test, f"time {expected!r}")


def new_alarm(ui: Driver, hour: int, minute: int) -> Iterator[PhoneAction]:
    """Oracle steps: open Clock, start a new alarm, and fill its time."""
    yield from ui.open_app("Clock")
    yield from ui.tap(id="add_alarm")
    yield from ui.fill("hour", f"{hour:02d}")
    yield from ui.fill("minute", f"{minute:02d}")


class ClockAddAlarm(TaskTemplate):
    id = "ClockAddAlarm"
    apps = ("Clock",)
    template = 'In the Clock app, create an alarm at {time} labelled "{label}".'
    complexity = 2
    max_steps = 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        hour, minute = sample_times(rng, 1)[0]
        return {"hour": hour, "minute": minute, "time": hhmm(hour, minute),
                "label": pick(rng, LABELS)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_alarms(device, rng, int(rng.integers(3, 6)), {}, avoid_labels=[params["label"]],
                    avoid_times=[(params["hour"], params["minute"])])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(ALARMS, {"label": same_text(params["label"])},
                       {"hour": params["hour"], "minute": params["minute"], "enabled": True,
                        "days": []}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"added:{ALARMS}.*"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for alarm in state["apps"]["Clock"]["alarms"].values():
            if alarm["label"] == params["label"]:
                alarm["minute"] = (alarm["minute"] + 1) % 60
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from new_alarm(ui, params["hour"], params["minute"])
        yield from ui.fill("label", params["label"])
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ClockAddRepeatingAlarm(TaskTemplate):
    id = "ClockAddRepeatingAlarm"
    apps = ("Clock",)
    template = "In the Clock app, create an alarm at {time} that repeats {repeat}."
    complexity = 3
    max_steps = 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        hour, minute = sample_times(rng, 1)[0]
        days, repeat = pick(rng, REPEAT_CHOICES)
        return {"hour": hour, "minute": minute, "time": hhmm(hour, minute),
                "days": list(days), "repeat": repeat}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_alarms(device, rng, int(rng.integers(3, 6)), {},
                    avoid_times=[(params["hour"], params["minute"])])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(ALARMS, {"hour": params["hour"], "minute": params["minute"]},
                       {"days": list(params["days"]), "enabled": True}, count=1)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"added:{ALARMS}.*"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        for alarm in state["apps"]["Clock"]["alarms"].values():
            if (alarm["hour"], alarm["minute"]) == (params["hour"], params["minute"]):
                alarm["days"] = alarm["days"][:-1]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from new_alarm(ui, params["hour"], params["minute"])
        for day in params["days"]:
            yield from ui.tap(id=f"day_{day.lower()}")
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ClockDisableAlarm(TaskTemplate):
    id = "ClockDisableAlarm"
    apps = ("Clock",)
    template = 'In the Clock app, turn off the alarm labelled "{label}".'
    complexity = 1
    max_steps = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around_target(device, rng, params, enabled=True)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(f"{ALARMS}.{params['alarm_id']}.enabled", False)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"{ALARMS}.{params['alarm_id']}.enabled"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)  # the wrong alarm switched
        alarm_record(state, params["alarm_id"])["enabled"] = True
        other = other_alarm(state, params["alarm_id"])
        other["enabled"] = not other["enabled"]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        yield from ui.tap(id=f"alarm_switch_{params['alarm_id']}")
        yield PhoneAction("finish", status="success")


class ClockDeleteAlarm(TaskTemplate):
    id = "ClockDeleteAlarm"
    apps = ("Clock",)
    template = "In the Clock app, delete the alarm set for {time}."
    complexity = 2
    max_steps = 10

    def target(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"enabled": True, "days": []}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around_target(device, rng, params, **self.target(params))

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord(ALARMS, {"hour": params["hour"], "minute": params["minute"]})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:{ALARMS}.{params['alarm_id']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)  # the wrong alarm deleted
        alarms = state["apps"]["Clock"]["alarms"]
        del alarms[str(other_alarm(state, params["alarm_id"])["id"])]
        alarms[str(params["alarm_id"])] = {
            "id": params["alarm_id"], "hour": params["hour"], "minute": params["minute"],
            "label": params["label"], **self.target(params)}
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        yield from ui.long_press(id=f"alarm_{params['alarm_id']}")
        yield from ui.tap("Delete", kind="menu_item")
        yield PhoneAction("finish", status="success")


class ClockChangeAlarmTime(TaskTemplate):
    id = "ClockChangeAlarmTime"
    apps = ("Clock",)
    template = 'In the Clock app, change the alarm labelled "{label}" to ring at {time_new}.'
    complexity = 3
    max_steps = 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng, times=2)

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around_target(device, rng, params, enabled=True)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        path = f"{ALARMS}.{params['alarm_id']}"
        return [Value(f"{path}.hour", params["hour_new"]),
                Value(f"{path}.minute", params["minute_new"])]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        path = f"{ALARMS}.{params['alarm_id']}"
        return [f"{path}.hour", f"{path}.minute"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)
        alarm = alarm_record(state, params["alarm_id"])
        alarm["minute"] = (alarm["minute"] + 1) % 60
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        yield from ui.tap(id=f"alarm_{params['alarm_id']}")
        yield from ui.fill("hour", f"{params['hour_new']:02d}")
        yield from ui.fill("minute", f"{params['minute_new']:02d}")
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ClockAlarmTimeLookup(TaskTemplate):
    id = "ClockAlarmTimeLookup"
    apps = ("Clock",)
    template = ('In the Clock app, at what time is the alarm labelled "{label}" set? '
                "Answer in HH:MM.")
    complexity = 1
    max_steps = 10
    needs_answer = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return target_params(rng)

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_around_target(device, rng, params)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(same_time(params["time"]))]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        return copy.deepcopy(final), hhmm(params["hour"], (params["minute"] + 1) % 60)

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        row = f"alarm_{params['alarm_id']}"
        yield from ui.reveal(id=row)
        placed = ui.find(id=row)
        assert placed is not None
        yield PhoneAction("answer", text=placed.node.text)


class ClockDeleteDisabledAlarms(TaskTemplate):
    id = "ClockDeleteDisabledAlarms"
    apps = ("Clock",)
    template = "In the Clock app, delete every alarm that is switched off. Keep the others."
    complexity = 3
    max_steps = 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        n = int(rng.integers(5, 8))
        off = sorted(int(i) + 1 for i in rng.choice(n, size=int(rng.integers(2, 4)),
                                                    replace=False))
        return {"n": n, "off_ids": off}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        fixed = {i: {"enabled": i + 1 not in params["off_ids"]} for i in range(params["n"])}
        seed_alarms(device, rng, params["n"], fixed)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord(ALARMS, {"enabled": False})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:{ALARMS}.{i}" for i in params["off_ids"]]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        state = copy.deepcopy(final)  # an alarm that was on deleted too
        alarms = state["apps"]["Clock"]["alarms"]
        del alarms[min(alarms, key=int)]
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clock")
        for alarm_id in params["off_ids"]:
            yield from ui.long_press(id=f"alarm_{alarm_id}")
            yield from ui.tap("Delete", kind="menu_item")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[TaskTemplate] = [
    ClockAddAlarm(), ClockAddRepeatingAlarm(), ClockDisableAlarm(), ClockDeleteAlarm(),
    ClockChangeAlarmTime(), ClockAlarmTimeLookup(), ClockDeleteDisabledAlarms(),
]
