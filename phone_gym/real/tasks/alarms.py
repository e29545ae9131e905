"""Clock tasks, checked with ``dumpsys alarm`` (the alarms the clock app has scheduled)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, DeviceState, NoRecord, Record
from .base import RealTaskTemplate, ScreenDriver

DESKCLOCK = "com.google.android.deskclock"


def alarm_time(rng: np.random.Generator) -> tuple[int, int]:
    return int(rng.integers(5, 23)), int(rng.choice([0, 10, 15, 20, 30, 40, 45, 50]))


class ClockCreateAlarm(RealTaskTemplate):
    id = "ClockCreateAlarm"
    apps = ("Clock",)
    packages = data_packages = (DESKCLOCK,)
    template = "Set an alarm for {time}."
    complexity = 2
    max_steps = 16

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        hour, minute = alarm_time(rng)
        return {"hour": hour, "minute": minute, "time": f"{hour:02d}:{minute:02d}"}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        before = initial["alarms"].get(params["time"], {}).get("count", 0)
        return [Record("alarms", {"hour": params["hour"], "minute": params["minute"]},
                       {"count": before + 1})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"alarms.{params['time']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)  # an hour off
        record = wrong["alarms"].pop(params["time"])
        record["hour"] = (record["hour"] + 1) % 24
        wrong["alarms"][f"{record['hour']:02d}:{record['minute']:02d}"] = record
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Clock")
        yield from ui.tap(id="add_alarm")
        yield from ui.fill(f"{params['hour']:02d}", id="hour")
        yield from ui.fill(f"{params['minute']:02d}", id="minute")
        yield from ui.tap(id="save")
        yield PhoneAction("finish", status="success")


class ClockDeleteAlarm(RealTaskTemplate):
    id = "ClockDeleteAlarm"
    apps = ("Clock",)
    packages = data_packages = (DESKCLOCK,)
    template = "Delete the {time} alarm."
    complexity = 2
    max_steps = 14

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        times: list[tuple[int, int]] = []
        while len(times) < 3:
            t = alarm_time(rng)
            if t not in times:
                times.append(t)
        (hour, minute), others = times[0], times[1:]
        return {"hour": hour, "minute": minute, "time": f"{hour:02d}:{minute:02d}",
                "others": [list(t) for t in others]}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        for hour, minute in [(params["hour"], params["minute"]), *params["others"]]:
            state.add_alarm(hour, minute)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord("alarms", {"hour": params["hour"], "minute": params["minute"]})]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"removed:alarms.{params['time']}"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)  # deleted every alarm
        wrong["alarms"] = {}
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Clock")
        yield from ui.long_press(params["time"])
        yield from ui.tap("Delete")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[RealTaskTemplate] = [ClockCreateAlarm(), ClockDeleteAlarm()]
