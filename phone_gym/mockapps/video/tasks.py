"""Video (YouTube) tasks: search with filters and pick under constraints, subscribe, build
a playlist in order, like and comment, and a look-up."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import EditRecord, Lookup
from ...tasks.task import Task
from ...tasks.vocab import distinct_ints, pick
from ...verifiers import Allow, Allowed, Criterion, Matcher, Record, Value, same_text
from ...world.a11y import UIElement
from ...world.app import app_strings
from .app import ME, VideoApp
from .fixtures import (
    CHANNEL_NAMES,
    CHANNELS,
    COMMENTS,
    COMMENTS_TEXT,
    DATA,
    PLAYLIST_NAMES,
    PLAYLISTS,
    TOPICS,
    VIDEOS,
    add_channels,
    add_video,
    datum,
    key_of,
    random_video,
    records,
    seed_others,
    topic_key,
    video_app,
)


def label(ui: Driver, key: str) -> str:
    """A YouTube string as the phone's locale shows it ("Subscribe": 订阅)."""
    return app_strings(VideoApp, ui.locale).t(key)


class VideoTask(Task):
    """Shared parts. In zh-CN the catalogue's topics, titles, channels, playlists and
    comments are Chinese (``strings/zh-CN.data.json``): the params through ``data``, what the
    setup seeds through ``fixtures.datum``."""

    apps = ("Video",)
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    data = DATA

    locales_stay_home = True  # elsewhere: en-US unless it declares zh-CN

    def search(self, ui: Driver, query: str, sort: str = "") -> Iterator[PhoneAction]:
        """Search YouTube for ``query``, sorted by ``sort`` when given."""
        yield from ui.open_app("Video")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="search_button")
        yield from ui.fill("search", query)
        yield from ui.tap(id="go_search")
        if sort:
            yield from ui.tap(id="filters")
            yield from ui.tap(id="filter_sort")
            yield from ui.tap(id=f"option_{sort.lower().replace(' ', '_')}")
            yield from ui.tap(id="filters_done")

    def result(self, ui: Driver, title: str) -> Generator[PhoneAction, None, str]:
        """The id of the search result titled ``title`` (scrolling the results to it)."""
        yield from ui.reveal(title, kind="list_item")
        return ui.must(title, kind="list_item").short_id

    def rows(self, ui: Driver, topic: str) -> list[UIElement]:
        """The result rows about ``topic``, in the order the results list them."""
        rows = [e for e in ui.find_all(kind="list_item")
                if e.short_id.startswith("video_") and topic in e.text.lower()]
        return sorted(rows, key=lambda e: e.bounds[1])


def clock_seconds(text: str) -> int:
    """Seconds in a length as YouTube writes it ("5:55", "1:02:03")."""
    out = 0
    for part in text.split(":"):
        out = out * 60 + int(part)
    return out


# --- pick under constraints -------------------------------------------------------------------
class VideoWatchLaterMostViewed(VideoTask):
    template = ("Add the most viewed video about {topic} that is shorter than {minutes} "
                "minutes to Watch later.")
    instructions = {"zh-CN": "在 YouTube 上找关于“{topic}”、时长短于 {minutes} 分钟的视频，"
                             "把其中观看次数最多的一个加入“稍后观看”。"}
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"topic": pick(rng, list(TOPICS)), "minutes": pick(rng, (5, 10, 15))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        add_channels(state, rng)
        limit = params["minutes"] * 60
        titles = TOPICS[topic_key(params["topic"])]
        views = sorted((int(v) for v in distinct_ints(rng, 1000, 5_000_000, 5, step=997)),
                       reverse=True)
        short = set(int(i) for i in rng.choice(np.arange(1, 5), 2, replace=False))
        for i, title in enumerate(pick(rng, titles, 5)):
            if i in short or (i > 0 and rng.random() < 0.3):
                seconds = int(rng.integers(60, limit - 30))
            else:  # the most viewed of all is too long
                seconds = int(rng.integers(limit + 60, limit + 1500))
            add_video(state, title, pick(rng, CHANNEL_NAMES), seconds, views[i],
                      int(rng.integers(0, 400)))
        seed_others(state, rng, params["topic"])

    def target(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        rows = [(r["views"], k) for k, r in records(initial, VIDEOS).items()
                if p["topic"] in r["title"].lower() and r["seconds"] < p["minutes"] * 60]
        return max(rows)[1]

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        return [Value(f"{VIDEOS}.{self.target(params, initial)}.watch_later", True)]

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        return [Allow(VIDEOS, "modified", key=self.target(params, initial),
                      fields=("watch_later",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Searching {p['topic']} sorted by view count: the first result under "
               f"{p['minutes']} minutes is the most viewed one that is short enough")
        yield from self.search(ui, p["topic"], "View count")
        best = next(e for e in self.rows(ui, p["topic"])
                    if clock_seconds(e.hint.split(" · ")[-1]) < p["minutes"] * 60)
        ui.why(f"{best.text} ({best.hint.split(' · ')[-1]}) is the most viewed under "
               f"{p['minutes']} minutes: saving it to Watch later")
        yield from ui.tap(id=best.short_id)
        yield from ui.tap(id="save")
        yield from ui.tap(id="save_watch_later")
        yield from ui.finish()


class VideoSubscribeNewest(VideoTask, EditRecord):
    template = "Subscribe to the channel that uploaded the newest video about {topic}."
    instructions = {"zh-CN": "在 YouTube 上订阅发布了最新一条“{topic}”相关视频的频道。"}
    collection = CHANNELS
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"topic": pick(rng, list(TOPICS)), "channel": pick(rng, CHANNEL_NAMES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        add_channels(state, rng, unsubscribed=[params["channel"]])
        others = [c for c in CHANNEL_NAMES if datum(state, c) != params["channel"]
                  and c != params["channel"]]
        days = sorted(int(d) for d in rng.choice(np.arange(1, 300), 4, replace=False))
        titles = pick(rng, TOPICS[topic_key(params["topic"])], 4)
        newest = int(rng.integers(4))
        for i, title in enumerate(titles):
            channel = params["channel"] if i == newest else pick(rng, others)
            # the newest is the least viewed: sorting by views leads astray
            add_video(state, title, channel, int(rng.integers(90, 1800)),
                      int(rng.integers(500, 5000)) if i == newest
                      else int(rng.integers(10_000, 900_000)),
                      days[0] if i == newest else days[1 + (i - (i > newest))])
        seed_others(state, rng, params["topic"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["channel"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"subscribed": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Searching {p['topic']} sorted by upload date: the first result is the "
               "newest")
        yield from self.search(ui, p["topic"], "Upload date")
        newest = self.rows(ui, p["topic"])[0]
        ui.why(f"{newest.text} is the newest: opening it to subscribe to its channel")
        yield from ui.tap(id=newest.short_id)
        if ui.must(id="subscribe").text == label(ui, "Subscribe"):
            ui.why(f"Not subscribed to {ui.must(id='channel').text} yet: subscribing")
            yield from ui.tap(id="subscribe")
        yield from ui.finish()


# --- a playlist in order ---------------------------------------------------------------------
class CatalogTask(VideoTask):
    """A catalog of two topics' videos (and others); ``first`` and ``second`` are titles."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        topic = pick(rng, list(TOPICS))
        first, second = pick(rng, TOPICS[topic], 2)
        return {"topic": topic, "first": first, "second": second,
                "name": pick(rng, PLAYLIST_NAMES), "text": pick(rng, COMMENTS_TEXT),
                "seconds": int(rng.integers(70, 2400))}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        add_channels(state, rng)
        for title in TOPICS[topic_key(params["topic"])]:
            video = random_video(state, rng, title)
            if datum(state, title) == params["first"]:
                video_app(state).data.videos.update(video.id, seconds=params["seconds"])
        seed_others(state, rng, params["topic"])
        data = video_app(state).data
        decoy = [v.id for v in data.videos][:2]
        other = pick(rng, [n for n in PLAYLIST_NAMES
                           if n != params["name"] and datum(state, n) != params["name"]])
        data.playlists.new(name=datum(state, other), videos=tuple(decoy))

    def open_video(self, ui: Driver, title: str) -> Iterator[PhoneAction]:
        ui.why(f"Searching YouTube for {title} and opening it")
        yield from self.search(ui, title)
        yield from ui.tap(id=(yield from self.result(ui, title)))


def in_order(ids: list[int]) -> Matcher:
    return Matcher(lambda v: isinstance(v, (list, tuple)) and [int(i) for i in v] == ids,
                   f"exactly the videos {ids} in this order")


class VideoCreatePlaylist(CatalogTask):
    template = ('Create a YouTube playlist named "{name}" that holds "{first}" and then '
                '"{second}", in that order.')
    instructions = {"zh-CN": "在 YouTube 上新建一个名为“{name}”的播放列表，先加入“{first}”，"
                             "再加入“{second}”。"}
    complexity, max_steps = 3, 36

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        ids = [int(key_of(initial, VIDEOS, title=params[k])) for k in ("first", "second")]
        name = same_text(params["name"])
        return [Record(PLAYLISTS, {"name": name}, count=1),
                Record(PLAYLISTS, {"name": name, "videos": in_order(ids)}, count=1)]

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        return [Allow(PLAYLISTS, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_video(ui, p["first"])
        yield from ui.tap(id="save")
        yield from ui.tap(id="new_playlist")
        yield from ui.fill("playlist_name", p["name"])
        yield from ui.tap(id="button_create")
        yield from ui.press("back")
        ui.why(f"Playlist {p['name']} made with {p['first']}: now finding {p['second']}")
        yield from ui.fill("search", p["second"])
        yield from ui.tap(id="go_search")
        yield from ui.tap(id=(yield from self.result(ui, p["second"])))
        ui.why(f"Saving {p['second']} to the new playlist {p['name']} (the last one listed)")
        yield from ui.tap(id="save")
        made = [e for e in ui.find_all(p["name"], kind="list_item")
                if e.short_id.startswith("save_playlist_")]
        yield from ui.tap(id=max(made, key=lambda e: int(e.short_id.rsplit("_", 1)[1])).short_id)
        yield from ui.finish()


class VideoLikeAndComment(CatalogTask):
    template = 'On YouTube, like the video "{first}" and comment "{text}" under it.'
    instructions = {"zh-CN": "在 YouTube 上给视频“{first}”点个赞，再在下面评论“{text}”。"}
    complexity, max_steps = 2, 24

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        key = key_of(initial, VIDEOS, title=params["first"])
        return [Value(f"{VIDEOS}.{key}.liked", True),
                Record(COMMENTS, {"video": int(key), "author": ME,
                                  "text": same_text(params["text"])}, count=1)]

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        key = key_of(initial, VIDEOS, title=params["first"])
        return [Allow(VIDEOS, "modified", key=key, fields=("liked", "likes")),
                Allow(COMMENTS, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_video(ui, p["first"])
        if ui.must(id="like").content_desc == label(ui, "Like"):
            ui.why(f"{p['first']} is not liked yet: liking it")
            yield from ui.tap(id="like")
        ui.why(f"Commenting \"{p['text']}\" under {p['first']}")
        yield from ui.fill("comment", p["text"])
        yield from ui.tap(id="post_comment")
        yield from ui.finish()


class VideoLengthLookup(CatalogTask, Lookup):
    template = 'How long is the YouTube video "{first}"?'
    instructions = {"zh-CN": "YouTube 上的视频“{first}”有多长？"}
    derivations = {"answer": "the length the result row shows (m:ss), in minutes and seconds"}
    answer_type = "duration"
    complexity, max_steps = 2, 14

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["seconds"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["seconds"] for r in records(initial, VIDEOS).values()]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f"Searching for {p['first']}: its result row shows its length")
        yield from self.search(ui, p["first"])
        row = ui.must(id=(yield from self.result(ui, p["first"])))
        length = row.hint.split(" · ")[-1]
        m, s = length.split(":")[-2:]
        ui.why(f"{p['first']} runs {length}")
        yield from ui.answer(f"{int(m)} minutes {int(s)} seconds" if ui.locale == "en-US"
                             else f"{int(m)}分{int(s)}秒")


TEMPLATES: list[Task] = [
    VideoWatchLaterMostViewed(), VideoSubscribeNewest(), VideoCreatePlaylist(),
    VideoLikeAndComment(), VideoLengthLookup(),
]
