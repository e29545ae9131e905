"""Public fixtures of Video: channels, topics and videos that tasks seed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers import lookup
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, MissingString
from .app import Video, VideoApp

VIDEOS = "apps.Video.videos"
CHANNELS = "apps.Video.channels"
PLAYLISTS = "apps.Video.playlists"
COMMENTS = "apps.Video.comments"

CHANNEL_NAMES: tuple[str, ...] = (
    "Kitchen Basics", "Trail Tales", "Pixel Workshop", "Daily Physics", "Green Thumb TV",
    "Street Eats", "Quiet Studio", "Fix It Friday", "Budget Travel Co", "Night Sky Notes",
    "Beat Lab", "Home Gym Hub",
)
#: Topic keyword -> video titles about it (each holds the keyword, none another topic's).
TOPICS: dict[str, tuple[str, ...]] = {
    "sourdough": ("Sourdough bread for beginners", "My sourdough starter routine",
                  "Sourdough mistakes to avoid", "Overnight sourdough focaccia",
                  "Whole wheat sourdough explained"),
    "guitar": ("Guitar chords every beginner needs", "Ten minute guitar warm up",
               "Fingerstyle guitar in one week", "Cheap guitar vs expensive guitar",
               "Guitar setup at home"),
    "telescope": ("Choosing your first telescope", "Telescope view of Saturn",
                  "Telescope collimation made easy", "Budget telescope review",
                  "What you can see with a small telescope"),
    "houseplants": ("Houseplants that survive anything", "Repotting houseplants the right way",
                    "Houseplants for low light", "Watering houseplants in winter",
                    "Propagating houseplants from cuttings"),
    "kayak": ("Kayak basics for first timers", "Sea kayak trip along the coast",
              "How to roll a kayak", "Kayak fishing setup tour", "Packing a kayak for camping"),
    "watercolor": ("Watercolor sky in five minutes", "Watercolor supplies on a budget",
                   "Loose watercolor flowers", "Watercolor mistakes beginners make",
                   "Painting rain with watercolor"),
}
PLAYLIST_NAMES: tuple[str, ...] = ("Weekend learning", "To try soon", "Evening picks",
                                   "Road trip", "Inspiration", "Study break")
COMMENTS_TEXT: tuple[str, ...] = ("Thanks, this helped a lot", "Great explanation",
                                  "Trying this tomorrow", "Loved the editing",
                                  "Please make a part two")

#: The seeded data in zh-CN (``strings/zh-CN.data.json``): topics, titles, channels,
#: playlists and comments.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
LATIN = re.compile(r"[A-Za-z]")


def datum(state: Any, text: str) -> str:
    """``text`` (a title, a channel...) in the phone's locale: as it is in en-US or when it
    is already localized (no Latin letters); else the data catalogue's entry
    (``MissingString`` when it lacks one)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    if locale == DEFAULT_LOCALE or not LATIN.search(text):
        return text
    try:
        return str(DATA[locale][text])
    except KeyError:
        raise MissingString(f"Video: no {locale} datum for {text!r} (add it to "
                            f"video/strings/{locale}.data.json)") from None


def topic_key(topic: str) -> str:
    """The ``TOPICS`` key of ``topic`` (its English keyword, or the keyword in a locale)."""
    return next(k for k in TOPICS
                if topic == k or any(topic == t.get(k) for t in DATA.values()))


def video_app(state: Any) -> VideoApp:
    app = state.app("Video")
    assert isinstance(app, VideoApp)
    return app


def add_channels(state: DeviceState, rng: np.random.Generator,
                 unsubscribed: Sequence[str] = ()) -> None:
    for name in CHANNEL_NAMES:
        shown = datum(state, name)
        sub = name not in unsubscribed and shown not in unsubscribed \
            and bool(rng.random() < 0.3)
        video_app(state).data.channels.new(name=shown,
                                           subscribers=int(rng.integers(2, 900)) * 1000,
                                           subscribed=sub)


def add_video(state: DeviceState, title: str, channel: str, seconds: int, views: int,
              days: int) -> Video:
    return video_app(state).data.videos.new(title=datum(state, title),
                                            channel=datum(state, channel), seconds=seconds,
                                            views=views, days=days, likes=views // 40)


def random_video(state: DeviceState, rng: np.random.Generator, title: str,
                 channel: str | None = None) -> Video:
    return add_video(state, title, channel or pick(rng, CHANNEL_NAMES),
                     int(rng.integers(60, 3000)), int(rng.integers(300, 3_000_000)),
                     int(rng.integers(0, 700)))


def seed_others(state: DeviceState, rng: np.random.Generator, topic: str, k: int = 2) -> None:
    """``k`` videos on each of two other topics."""
    key = topic_key(topic) if topic else topic
    for other in pick(rng, [t for t in TOPICS if t != key], 2):
        for title in pick(rng, TOPICS[other], k):
            random_video(state, rng, title)


def records(state: Any, collection: str) -> dict[str, Any]:
    rows = lookup(state, collection)
    return dict(rows) if hasattr(rows, "items") else {}


def key_of(initial: Any, collection: str, **fields: Any) -> str:
    return next(k for k, r in records(initial, collection).items()
                if all(r.get(f) == v for f, v in fields.items()))


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"in_order"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
