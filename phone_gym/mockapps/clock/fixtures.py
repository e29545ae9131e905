"""Public fixtures of the Clock: seeding alarms (the ``alarms`` store the clock owns)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.pickers import pick_time
from ...tasks.task import data_catalogue
from ...tasks.vocab import LABELS, hhmm, pick, times_of_day
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, catalogue_datum
from ...world.state import WorldState
from .app import WEEKDAYS, WEEKEND, add_alarm

COLLECTION = "alarms"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: the alarms' labels, ``LABELS``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The alarm label ``text`` in ``locale`` (``MissingString`` when the catalogue lacks
    it)."""
    return catalogue_datum(DATA, "Clock", "clock", locale, text)
REPEATS: tuple[tuple[str, ...], ...] = ((), (), WEEKDAYS, WEEKEND, ("Mon", "Wed", "Fri"),
                                        ("Tue", "Thu"))


def write_alarm(state: DeviceState, hour: int, minute: int, label: str = "", *,
                enabled: bool = True, days: Sequence[str] = ()) -> None:
    """Add an alarm: in PhoneWorld straight into the store (so it may be off); elsewhere
    through the clock's ``SET_ALARM`` intent (which only sets alarms that are on)."""
    if isinstance(state, WorldState):
        add_alarm(state.system.alarms, hour, minute, label, enabled=enabled, days=days)
    elif enabled:
        state.add_alarm(hour, minute, label, days)
    else:
        raise ValueError("only PhoneWorld can seed an alarm that is switched off")


def seed_alarms(state: DeviceState, rng: np.random.Generator, n: int,
                fixed: Mapping[int, Mapping[str, Any]] | None = None, *,
                avoid_labels: Sequence[str] = (), avoid_times: Sequence[tuple[int, int]] = (),
                all_on: bool = False) -> None:
    """Add ``n`` alarms with distinct labels and times, some off (unless ``all_on``), some
    repeating. Alarm ``i`` (id ``i + 1`` on a fresh phone) takes the fields in ``fixed[i]``."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    labels = pick(rng, [x for x in LABELS if x not in avoid_labels
                        and datum(locale, x) not in avoid_labels], n)
    times = times_of_day(rng, n, avoid_times)
    for i, (label, (hour, minute)) in enumerate(zip(labels, times, strict=True)):
        spec: dict[str, Any] = {"hour": hour, "minute": minute,
                                "label": datum(locale, label),
                                "enabled": all_on or bool(rng.random() < 0.7),
                                "days": pick(rng, REPEATS)}
        spec.update((fixed or {}).get(i, {}))
        write_alarm(state, spec.pop("hour"), spec.pop("minute"), **spec)


def target_params(rng: np.random.Generator, times: int = 1) -> dict[str, Any]:
    """Where the target alarm sits (``alarm_id``), how many alarms there are (``n``), its
    label and its time(s): ``hour``/``minute``/``time`` and ``*_new`` for a second one."""
    n = int(rng.integers(4, 7))
    params: dict[str, Any] = {"n": n, "alarm_id": int(rng.integers(n)) + 1,
                              "label": pick(rng, LABELS)}
    for i, (hour, minute) in enumerate(times_of_day(rng, times)):
        suffix = "" if i == 0 else "_new"
        params.update({f"hour{suffix}": hour, f"minute{suffix}": minute,
                       f"time{suffix}": hhmm(hour, minute)})
    return params


def seed_around(state: DeviceState, rng: np.random.Generator, params: Mapping[str, Any],
                *, all_on: bool = False, **target: Any) -> None:
    """Seed ``params["n"]`` alarms, the target (with ``target`` fields) at its slot."""
    spec = {"hour": params["hour"], "minute": params["minute"], "label": params["label"],
            **target}
    times = [(params["hour"], params["minute"])]
    if "hour_new" in params:
        times.append((params["hour_new"], params["minute_new"]))
    seed_alarms(state, rng, params["n"], {params["alarm_id"] - 1: spec},
                avoid_labels=[params["label"]], avoid_times=times, all_on=all_on)


def new_alarm(ui: Driver, hour: int, minute: int, label: str = "") -> Iterator[PhoneAction]:
    """Oracle steps: set a one-time alarm in Clock (+, the time on the clock face, the
    label, Save)."""
    yield from ui.open_app("Clock")
    yield from ui.tap(id="add_alarm")
    yield from pick_time(ui, hour, minute)
    if label:
        yield from ui.fill("label", label)
    yield from ui.tap(id="save")
