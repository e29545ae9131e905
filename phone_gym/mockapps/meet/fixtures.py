"""Public fixtures of Meet: a small world of contacts and upcoming meetings made from a seed
(params stay small and hold no answer), and seeding it into a phone."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import people, pick
from ...verifiers.snap import FrozenDict
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, ZH_WEEKDAYS
from ...world.system import DEFAULT_START
from ..contacts.fixtures import DATA as NAME_DATA
from ..contacts.fixtures import zh_name
from .app import MeetApp, MeetData, add_meeting
from .app import digits_of as digits_of

MEETINGS = "apps.Meet.meetings"
SESSIONS = "apps.Meet.sessions"
TODAY = DEFAULT_START.date()
TOPICS = ("Weekly sync", "Design review", "Budget planning", "Sprint planning",
          "Client check-in", "Quarterly review", "Team standup", "Project kickoff",
          "Interview panel", "Marketing sync", "Product demo", "Board prep",
          "Hiring debrief", "Roadmap review", "Vendor call", "Launch retro")
NEW_TOPICS = ("Partner onboarding", "Security briefing", "Offsite planning",
              "Customer workshop", "Data review", "Sales pipeline")
RECORDINGS = (("All hands", 58), ("Training session", 41), ("Town hall", 63))
CHARS = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: meeting topics, recordings);
#: people's names are the Contacts' Chinese ones (``contacts.fixtures.zh_name``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def localize_text(text: str, locale: str) -> str:
    """A topic, a recording or a person's name in ``locale``'s words (others kept)."""
    if locale == DEFAULT_LOCALE:
        return text
    if text in DATA[locale]:
        return str(DATA[locale][text])
    return zh_name(text, NAME_DATA[locale])


@dataclass(frozen=True)
class WMeeting:
    title: str
    date: str
    time: str
    minutes: int
    invitees: tuple[str, ...]
    passcode: str
    number: str


@dataclass(frozen=True)
class World:
    people: tuple[dict[str, Any], ...]
    meetings: tuple[WMeeting, ...]

    def names(self) -> list[str]:
        return [str(p["name"]) for p in self.people]

    def meeting(self, title: str) -> WMeeting:
        return next(m for m in self.meetings if m.title == title)

    def localized(self, locale: str) -> World:
        """The same world with its names and topics in ``locale``'s words."""
        if locale == DEFAULT_LOCALE:
            return self
        people_ = tuple({**p, "name": localize_text(str(p["name"]), locale)}
                        for p in self.people)
        meetings = tuple(replace(m, title=localize_text(m.title, locale),
                                 invitees=tuple(localize_text(n, locale) for n in m.invitees))
                         for m in self.meetings)
        return World(people_, meetings)


def passcode(rng: np.random.Generator) -> str:
    return "".join(CHARS[int(i)] for i in rng.integers(len(CHARS), size=6))


def number(rng: np.random.Generator) -> str:
    d = "8" + "".join(str(int(x)) for x in rng.integers(10, size=10))
    return f"{d[:3]} {d[3:7]} {d[7:]}"


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


def world(seed: int, meetings: int = 7) -> World:
    """Six contacts and ``meetings`` upcoming meetings (distinct topics, days 1..12 ahead,
    some days holding two), each with one or two invitees. Made once per seed (a reset
    reads it to sample and again to set up) and shared: its people are read-only dicts."""
    return _world(seed, meetings)


@functools.lru_cache(maxsize=64)
def _world(seed: int, meetings: int) -> World:
    rng = np.random.default_rng(seed)
    folks = [FrozenDict(p) for p in people(rng, 6)]
    names = [str(p["name"]) for p in folks]
    out = []
    for title in pick(rng, TOPICS, meetings):
        hour, half = int(rng.integers(8, 18)), int(rng.integers(2)) * 30
        invitees = tuple(str(n) for n in pick(rng, names, int(rng.integers(1, 3))))
        out.append(WMeeting(str(title), day(int(rng.integers(1, 13))), f"{hour:02d}:{half:02d}",
                            int(pick(rng, (30, 45, 60))), invitees, passcode(rng),
                            number(rng)))
    return World(tuple(folks), tuple(out))


def meet_app(state: DeviceState) -> MeetApp:
    app = state.app("Meet")  # type: ignore[attr-defined]
    assert isinstance(app, MeetApp)
    return app


def seed_world(state: DeviceState, w: World, *, microphone: str = "ask",
               camera: str = "ask") -> MeetData:
    """The contacts (system store) and the meetings, recordings and permissions (app)."""
    for p in w.people:
        state.add_contact(p["name"], p["phone"], p["email"])
    data = meet_app(state).data
    for m in w.meetings:
        add_meeting(data, m.title, m.date, m.time, m.minutes, invitees=m.invitees,
                    passcode=m.passcode, number=m.number)
    locale = str(getattr(state, "locale", DEFAULT_LOCALE))
    for i, (title, minutes) in enumerate(RECORDINGS):
        data.recordings.new(title=localize_text(title, locale),
                            date=(TODAY - timedelta(days=3 + 5 * i)).isoformat(),
                            minutes=minutes)
    data.microphone, data.camera = microphone, camera
    return data


def long_day(iso: str, locale: str = DEFAULT_LOCALE) -> str:
    """``Tuesday, October 20`` (the weekday and the date, no year; zh-CN: 10月20日星期二)."""
    d = date.fromisoformat(iso)
    if locale == "zh-CN":
        return f"{d.month}月{d.day}日{ZH_WEEKDAYS[d.weekday()]}"
    return f"{d:%A, %B} {d.day}"


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({
    "EMPTY", "MeetTask", "fill_meeting", "join", "new_meeting", "open_meeting",
    "same_number", "same_set", "set_date", "set_start", "set_time", "start"
})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
