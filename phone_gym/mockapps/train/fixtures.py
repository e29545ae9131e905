"""Public fixtures of the Train Tickets mini-program: lines with their stops, trains,
saved passengers and orders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE
from .app import Order, Passenger, Train, TrainApp, seat_labels

TRAINS = "apps.Train.trains"
PASSENGERS = "apps.Train.passengers"
ORDERS = "apps.Train.orders"

#: Lines: (origin, destination) -> stations in between (a train stops at some of them).
LINES: dict[tuple[str, str], tuple[str, ...]] = {
    ("Beijing South", "Shanghai Hongqiao"): ("Tianjin South", "Jinan West", "Nanjing South"),
    ("Shanghai Hongqiao", "Hangzhou East"): ("Songjiang South", "Jiaxing South"),
    ("Guangzhou South", "Shenzhen North"): ("Humen", "Guangming City"),
    ("Nanjing South", "Hangzhou East"): ("Liyang", "Huzhou"),
    ("Chengdu East", "Chongqing West"): ("Neijiang North", "Yongchuan East"),
    ("Wuhan", "Changsha South"): ("Xianning North", "Yueyang East"),
}
PEOPLE = ("Li Na", "Zhang Wei", "Wang Fang", "Liu Yang", "Chen Jing", "Zhao Lei", "Sun Mei",
          "Zhou Tao", "Wu Xia", "Xu Ming")
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: the stations; passengers are
#: WeChat's names): the templates' params are localized with it (``Task.data``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def stops_of(line: tuple[str, str]) -> tuple[str, ...]:
    """The stations between the ends of ``line`` (English or localized names), in the
    line's locale."""
    if line in LINES:
        return LINES[line]
    for table in DATA.values():
        back = {v: k for k, v in table.items()}
        english = (back.get(line[0], ""), back.get(line[1], ""))
        if english in LINES:
            return tuple(table[m] for m in LINES[english])
    return ()


#: Price multipliers of a class over the line's second-class base, by train letter.
CLASS_RATES: dict[str, tuple[tuple[str, float], ...]] = {
    "G": (("Business", 3.2), ("First", 1.6), ("Second", 1.0)),
    "D": (("First", 1.3), ("Second", 0.8)),
    "K": (("Sleeper", 0.7), ("Second", 0.4)),
}


def train_app(state: Any) -> TrainApp:
    app = state.app("Train")
    assert isinstance(app, TrainApp)
    return app


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def id_number(rng: np.random.Generator) -> str:
    """An 18-character resident ID number (17 digits and a digit or X)."""
    body = "".join(str(int(d)) for d in rng.integers(0, 10, 17))
    return body + pick(rng, "0123456789X")


def add_passenger(state: Any, name: str, rng: np.random.Generator) -> Passenger:
    return train_app(state).data.passengers.new(name=name, id_number=id_number(rng))


def seats_for(letter: str, base: int, left: Mapping[str, int] | None = None,
              rng: np.random.Generator | None = None) -> tuple[tuple[str, int, int], ...]:
    """The classes of a ``letter`` train whose second class costs ``base`` cents on a G
    train; seats left from ``left`` (by class) or plenty (20..200)."""
    out = []
    for cls, rate in CLASS_RATES[letter]:
        price = int(round(base * rate / 50)) * 50
        n = (left or {}).get(cls)
        if n is None:
            n = int(rng.integers(20, 200)) if rng is not None else 99
        out.append((cls, price, n))
    return tuple(out)


def add_train(state: Any, number: str, line: tuple[str, str], day: str, depart: int,
              minutes: int, seats: Sequence[tuple[str, int, int]],
              stops: Sequence[str] = ()) -> Train:
    """A train on ``line`` leaving at ``depart`` (minutes after midnight) for ``minutes``."""
    origin, dest = line
    return train_app(state).data.trains.new(
        number=number, origin=origin, dest=dest, day=day, depart=hhmm(depart),
        arrive=hhmm(depart + minutes), seats=tuple(seats),
        stops=(origin, *stops, dest))


def numbers(rng: np.random.Generator, letters: Sequence[str]) -> list[str]:
    """Different train numbers, one per letter (G12, D3107, K528 ...)."""
    out: list[str] = []
    while len(out) < len(letters):
        letter = letters[len(out)]
        n = int(rng.integers(1, 100)) if letter == "G" else int(rng.integers(100, 9999))
        if f"{letter}{n}" not in out:
            out.append(f"{letter}{n}")
    return out


Spec = tuple[str, int, int, "Mapping[str, int] | None", int]


def seed_trains(state: Any, rng: np.random.Generator, line: tuple[str, str], day: str,
                specs: Sequence[Spec], names: Sequence[str] = ()) -> list[Train]:
    """Trains of ``line`` on ``day`` from ``(letter, depart, minutes, seats left by class,
    second-class base price)`` specs, written in a shuffled order; the first get the train
    numbers ``names``, the others random ones (all different). Returns them in the specs'
    order."""
    nums = list(names)
    while len(nums) < len(specs):
        extra = numbers(rng, [specs[len(nums)][0]])[0]
        if extra not in nums and extra[1:] not in {n[1:] for n in nums}:
            nums.append(extra)
    mids = stops_of(line)
    made: dict[int, Train] = {}
    for i in rng.permutation(len(specs)):
        letter, depart, minutes, left, base = specs[int(i)]
        stops = [m for m in mids if rng.random() < (0.5 if letter == "G" else 0.9)]
        made[int(i)] = add_train(state, nums[int(i)], line, day, depart, minutes,
                                 seats_for(letter, base, left, rng), stops)
    return [made[i] for i in range(len(specs))]


def add_order(state: Any, train: Train, cls: str, names: Sequence[str],
              pref: str = "No preference", status: str = "paid") -> Order:
    """A paid order for ``names`` on ``train`` in ``cls``."""
    app = train_app(state)
    seat = train.seat(cls)
    assert seat is not None
    next_id = max((o.id for o in app.data.orders), default=0) + 1
    return app.data.orders.new(
        train=train.id, number=train.number, day=train.day, origin=train.origin,
        dest=train.dest, depart=train.depart, arrive=train.arrive, seat_class=cls,
        passengers=tuple(names),
        seats=seat_labels(train, cls, next_id, len(names), pref,
                          getattr(state, "locale", DEFAULT_LOCALE)),
        total=seat[1] * len(names), status=status)


def trains_in(initial: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    rows = initial.get("apps", {}).get("Train", {}).get("trains", {})
    return [t for t in rows.values() if isinstance(t, Mapping)]


def price_of(train: Mapping[str, Any], cls: str) -> int | None:
    return next((int(p) for c, p, _ in train.get("seats", ()) if c == cls), None)


def left_of(train: Mapping[str, Any], cls: str) -> int:
    return next((int(n) for c, _, n in train.get("seats", ()) if c == cls), 0)


def mins(hh: str) -> int:
    h, _, m = hh.partition(":")
    return int(h) * 60 + int(m)
