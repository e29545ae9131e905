"""Retro Music tasks (AndroidWorld's ``RetroCreatePlaylist``, ``RetroPlayingQueue``,
``RetroPlaylistDuration`` and ``RetroSavePlaylist``).

Songs are files in ``/sdcard/Music``; playlists and the queue are the app's data. A
playlist is checked by name (``same_text``) and its ordered song titles, with counted
changes: exactly one playlist added, nothing else touched (the songs, the playlists the
owner had). Playing songs along the way changes the queue; that is not damage, except in
the queue task, where the queue must end exactly as asked. The export writes
``<name>.m3u`` into Download; the composite task has one criterion per part, so
``info["progress"]`` is AndroidWorld's fraction while the reward stays 0/1.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord
from ...tasks.families import scan_rows as scan
from ...tasks.task import Task, data_catalogue, localize_data
from ...verifiers import Allow, Allowed, Becomes, Criterion, Matcher, Record, Value, same_text
from .app import EXPORT_DIR
from .fixtures import (
    PLAYLISTS,
    QUEUE,
    sample_library,
    sample_old_playlists,
    sample_playlist_name,
    seed_playlists,
    seed_songs,
)

ANY = Matcher(lambda v: True, "any queue")


def song_list(titles: Sequence[str]) -> Matcher:
    """Exactly these titles in this order."""
    want = [str(t) for t in titles]
    return Matcher(lambda v: isinstance(v, (list, tuple)) and [str(t) for t in v] == want,
                   f"the songs {want!r} in order")


def file_named(name: str) -> Matcher:
    return Matcher(lambda v: str(v).lower() == name.lower(), f"the name {name!r}")


def clock_seconds(text: str) -> int:
    """Seconds in a length written "4:19" or "1:02:03"."""
    out = 0
    for part in text.split(":"):
        out = out * 60 + int(part)
    return out


def pick_total(lengths: Mapping[str, int], low: int, high: int) -> list[str]:
    """The fewest songs whose lengths add up to ``low``..``high`` seconds."""
    reach: dict[int, list[str]] = {0: []}
    for title, secs in sorted(lengths.items(), key=lambda kv: -kv[1]):
        for total, songs in list(reach.items()):
            t = total + secs
            if t <= high and (t not in reach or len(reach[t]) > len(songs) + 1):
                reach[t] = [*songs, title]
    best = min((t for t in reach if t >= low), key=lambda t: len(reach[t]))
    return reach[best]


class MusicTask(Task):
    """Shared parts: the library of songs, the owner's playlists, the oracle's steps."""

    apps = ("Music",)
    start = AW_START
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    #: The library in zh-CN: Chinese song titles, artists and playlist themes.
    data = {"zh-CN": data_catalogue(__file__, "zh-CN")}

    locales_stay_home = True

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """Songs, artists and playlist themes in Chinese (``strings/zh-CN.data.json``): a
        playlist "Study Session 84" as 学习时光 84; the song list joined again."""
        def walk(value: Any) -> Any:
            if isinstance(value, str):
                theme, _, number = value.rpartition(" ")
                if value not in table and theme in table and number.isdigit():
                    return f"{table[theme]} {number}"
                return table.get(value, value)
            if isinstance(value, Mapping):
                return {k: walk(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(walk(v) for v in value)
            return value
        p: dict[str, Any] = walk(localize_data(params, table))
        if "song_names" in p:
            p["song_names"] = ", ".join(p["titles"])
        return p

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        """The song list as Chinese writes a list: titles joined by 、."""
        if locale == "zh-CN" and "titles" in params:
            return {**params, "song_names": "、".join(params["titles"])}
        return params

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_songs(state, params["library"])
        seed_playlists(state, params.get("old", []))

    def select(self, ui: Driver, titles: Sequence[str]) -> Iterator[PhoneAction]:
        """Open the song list (Retro Music is open) and select ``titles`` in this order."""
        tab = ui.find(id="tab_songs", kind="tab")
        if tab is None or not tab.selected:  # (the tabs may be scrolled away)
            yield from ui.tap(id="tab_songs", kind="tab")
        ui.why(f"Selecting the songs in order: {', '.join(titles)}")
        yield from ui.long_press(titles[0], kind="list_item")
        for title in titles[1:]:
            yield from ui.tap(title, kind="list_item")

    def create(self, ui: Driver, name: str, titles: Sequence[str]) -> Iterator[PhoneAction]:
        """Select ``titles`` and make them a new playlist ``name``."""
        yield from self.select(ui, titles)
        yield from ui.tap(id="action_add_to_playlist")
        if any(e.short_id.startswith("pick_") for e in ui.find_all(name, kind="list_item")):
            ui.why(f"The dialog lists a playlist {name} already: it was made before")
            yield from ui.tap("Cancel")
            return
        ui.why(f"No playlist {name} in the dialog: a new one with the selected songs")
        yield from ui.tap(id="option_new_playlist")
        yield from ui.fill("playlist_name", name)
        yield from ui.tap(id="button_create")


class RetroCreatePlaylist(MusicTask, CreateRecord):
    collection = PLAYLISTS
    template = ('In Retro Music, create a playlist named "{playlist_name}" with these songs '
                'in this order: {song_names}.')
    instructions = {"zh-CN": "在 Retro Music 里新建一个名为“{playlist_name}”的播放列表，按顺序"
                             "加入这些歌曲：{song_names}。"}
    complexity, max_steps = 2, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles, library = sample_library(rng, int(rng.integers(2, 6)))
        name = sample_playlist_name(rng)
        return {"playlist_name": name, "titles": titles, "song_names": ", ".join(titles),
                "library": library, "old": sample_old_playlists(rng, library, name)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["playlist_name"]), "songs": song_list(p["titles"])}

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Music")
        yield from self.create(ui, p["playlist_name"], p["titles"])
        yield from ui.finish()


class RetroPlayingQueue(MusicTask):
    template = ('In Retro Music, put these songs in the playing queue, in this order: '
                '{song_names}.')
    instructions = {"zh-CN": "在 Retro Music 里把这些歌曲按顺序加入播放队列：{song_names}。"}
    complexity, max_steps = 3, 32

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        titles, library = sample_library(rng, int(rng.integers(2, 6)))
        return {"titles": titles, "song_names": ", ".join(titles), "library": library,
                "old": sample_old_playlists(rng, library, "")}

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(QUEUE, song_list(p["titles"]))]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """The queue may pass through any value (songs played along the way): the criterion
        pins where it ends."""
        return [Becomes(QUEUE, ANY)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Music")
        ui.why("Looking at the playing queue first: it may hold other songs")
        yield from ui.tap(id="tab_queue", kind="tab")
        rows = yield from scan(ui, "queue_")
        queue = [e.text for e in sorted(rows.values(), key=lambda e: int(e.short_id[6:]))]
        if queue == list(p["titles"]):
            ui.why("The queue holds exactly these songs in this order already")
            yield from ui.finish()
            return
        if queue:
            ui.why(f"The queue holds {len(queue)} other songs: clearing it first")
            yield from ui.tap(id="clear_queue")
        yield from self.select(ui, p["titles"])
        yield from ui.tap(id="action_add_to_queue")
        yield from ui.finish()


#: The songs AndroidWorld's duration task picks from add up to 47.5 minutes.
CORE_SECONDS = 2850
LOW, HIGH = 45 * 60, 50 * 60


def total_between(lengths: Mapping[str, int], low: int, high: int) -> Matcher:
    """Songs of the library whose lengths add up to ``low``..``high`` seconds."""
    def test(v: Any) -> bool:
        if not isinstance(v, (list, tuple)) or not v or any(str(t) not in lengths for t in v):
            return False
        return low <= sum(lengths[str(t)] for t in v) <= high
    return Matcher(test, f"songs adding up to {low // 60}-{high // 60} minutes")


class RetroPlaylistDuration(MusicTask, CreateRecord):
    collection = PLAYLISTS
    template = ('In Retro Music, create a playlist named "{playlist_name}" from the songs on '
                'the phone that lasts between 45 and 50 minutes in total.')
    instructions = {"zh-CN": "在 Retro Music 里用手机上的歌曲新建一个名为“{playlist_name}”的"
                             "播放列表，总时长要在45到50分钟之间。"}
    complexity, max_steps = 3, 30

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        n = int(rng.integers(9, 12))
        titles, library = sample_library(rng, n, noise=(4, 6))
        base = CORE_SECONDS // n
        while True:  # lengths near the average that add up to 47.5 minutes exactly
            lengths = [base + int(rng.integers(-40, 41)) for _ in range(n - 1)]
            lengths.append(CORE_SECONDS - sum(lengths))
            if 150 <= lengths[-1] <= 420:
                break
        by_title = dict(zip(titles, lengths, strict=True))
        for song in library:
            song[2] = by_title.get(song[0], song[2])
        name = sample_playlist_name(rng)
        return {"playlist_name": name, "titles": titles, "library": library,
                "old": sample_old_playlists(rng, library, name)}

    def lengths(self, p: Mapping[str, Any]) -> dict[str, int]:
        return {str(t): int(s) for t, _, s in p["library"]}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["playlist_name"]),
                "songs": total_between(self.lengths(p), LOW, HIGH)}

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(self.collection, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Music")
        tab = ui.find(id="tab_songs", kind="tab")
        if tab is None or not tab.selected:
            yield from ui.tap(id="tab_songs", kind="tab")
        ui.why("Reading every song's length in the Songs tab")
        rows = yield from scan(ui, "song_")
        lengths = {e.text: clock_seconds(e.hint.split(" · ")[-1]) for e in rows.values()}
        titles = sorted(pick_total(lengths, LOW, HIGH), key=str.lower)  # list order
        total = sum(lengths[t] for t in titles)
        ui.why(f"{len(titles)} songs add up to {total // 60}:{total % 60:02d}, between "
               "45 and 50 minutes: making them the playlist")
        yield from self.create(ui, p["playlist_name"], titles)
        yield from ui.finish()


class RetroSavePlaylist(RetroCreatePlaylist):
    template = ('In Retro Music, create a playlist named "{playlist_name}" with these songs '
                'in this order: {song_names}; then save it as a file in Download.')
    instructions = {"zh-CN": "在 Retro Music 里新建一个名为“{playlist_name}”的播放列表，按顺序"
                             "加入这些歌曲：{song_names}；然后把它保存为文件，存到 Download "
                             "文件夹。"}
    complexity, max_steps = 5, 50

    def m3u(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"folder": EXPORT_DIR, "name": file_named(f"{p['playlist_name']}.m3u")}

    def criteria(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [*super().criteria(p, initial), Record("files", self.m3u(p), count=1)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(p, initial), Allow("files", "added", where=self.m3u(p))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        name = p["playlist_name"]
        yield from ui.open_app("Music")
        yield from self.create(ui, name, p["titles"])
        ui.why(f"Saving {name} as a file (saving again only rewrites the same file)")
        yield from ui.tap(id="tab_playlists", kind="tab")
        yield from ui.tap(name, kind="list_item")
        yield from ui.tap(id="action_save")
        yield from ui.finish()


TEMPLATES: list[Task] = [RetroCreatePlaylist(), RetroPlayingQueue(), RetroPlaylistDuration(),
                         RetroSavePlaylist()]
