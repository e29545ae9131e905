"""网易云音乐 (NetEase Cloud Music) tasks: like a song, make a playlist of two songs, play a
song by an artist, which album a song is on, and liking a song the library does not hold.
Chinese instructions (in both locales: the app is Chinese)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import CreateRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allowed, Becomes, Criterion, Matcher, Value, same_text
from .fixtures import (
    ARTISTS,
    COMMENT_TEXTS,
    NOW_PLAYING,
    PLAYLIST_NAMES,
    PLAYLISTS,
    SONGS,
    add_comment,
    add_playlist,
    find_song,
    play_song,
    playlist_id,
    sample_songs,
    song_part,
    song_row,
    to_tab,
    write_songs,
)

ZH = ("en-US", "zh-CN")


class MusicTask(Task):
    """Eight songs (plain data in ``songs``, ids in that order), a playlist of two of them
    and a comment; the task is about song ``index`` (``title``, ``artist``, ``album``).
    Playing the task's own songs on the way (``now_playing``) is allowed; playing another
    is collateral (the oracles that read a song's row end by playing it, which also puts
    right what random taps played before them)."""

    apps: ClassVar[tuple[str, ...]] = ("NeteaseMusic",)
    collection: ClassVar[str] = SONGS
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        songs = sample_songs(rng, 8)
        index = int(rng.integers(len(songs)))
        s = songs[index]
        return {"songs": songs, "index": index, "title": s["title"], "artist": s["artist"],
                "album": s["album"], "kept": pick(rng, PLAYLIST_NAMES), **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        made = write_songs(state, params["songs"])
        add_playlist(state, params["kept"], pick(rng, sorted(made.values(), key=lambda s: s.id),
                                                 2))
        add_comment(state, pick(rng, list(made.values())), pick(rng, COMMENT_TEXTS))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": p["title"]}

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial),
                Becomes(NOW_PLAYING, one_of_ids(self.played(params)))]

    def played(self, p: Mapping[str, Any]) -> list[int]:
        """The ids of the songs the task is about (which may be playing at the end)."""
        return [p["index"] + 1]


#: Any song (or none) playing.
ANY_SONG = Matcher(lambda v: True, "any song")


def one_of_ids(ids: Sequence[int]) -> Matcher:
    return Matcher(lambda v: v in ids, f"one of the songs {sorted(ids)}")


class NeteaseLikeSong(MusicTask, EditRecord):
    template = "在网易云音乐里把{artist}的《{title}》加到“我喜欢的音乐”。"
    complexity, max_steps = 2, 10

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*EditRecord.allowed(self, params, initial), Becomes(NOW_PLAYING, ANY_SONG)]

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"liked": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from play_song(ui, p["title"])
        if ui.must(id="like").content_desc == "喜欢":  # ♡, not yet liked
            yield from ui.tap(id="like")
        yield from ui.finish()


def ids_are(ids: Sequence[int]) -> Matcher:
    want = sorted(ids)
    return Matcher(lambda v: isinstance(v, (list, tuple)) and sorted(v) == want,
                   f"exactly the songs {want}, in any order")


class NeteaseMakePlaylist(MusicTask, CreateRecord):
    template = "在网易云音乐新建一个歌单“{name}”，把《{first}》和《{second}》收藏进去。"
    complexity, max_steps = 3, 30
    collection = PLAYLISTS

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"name_pick": int(rng.integers(1 << 30)), "pair": int(rng.integers(1 << 30))}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        names = [n for n in PLAYLIST_NAMES if n != p["kept"]]
        a, b = pick(np.random.default_rng(p["pair"]), range(len(p["songs"])), 2)
        return {**p, "name": names[p["name_pick"] % len(names)], "first_i": int(a),
                "second_i": int(b), "first": p["songs"][a]["title"],
                "second": p["songs"][b]["title"]}

    def played(self, p: Mapping[str, Any]) -> list[int]:
        return [p["first_i"] + 1, p["second_i"] + 1]

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": same_text(p["name"]), "songs": ids_are([p["first_i"] + 1,
                                                                 p["second_i"] + 1])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from to_tab(ui, "我的")
        if not any(e.text == p["name"] for e in ui.find_all()
                   if e.short_id.startswith("playlist_")):
            yield from ui.tap(id="new_playlist")
            yield from ui.fill("playlist_name", p["name"])
            yield from ui.tap(id="create")
        for title in (p["first"], p["second"]):
            yield from play_song(ui, title)
            yield from ui.tap(id="collect")
            yield from ui.tap(id=playlist_id(ui, p["name"]))
            yield from ui.press("back")
        yield from ui.finish()


class NeteasePlayArtist(MusicTask):
    template = "打开网易云音乐，播放一首{artist}的歌。"
    complexity, max_steps = 2, 10

    def ids(self, p: Mapping[str, Any]) -> list[int]:
        return [i + 1 for i, s in enumerate(p["songs"]) if s["artist"] == p["artist"]]

    def playing(self, p: Mapping[str, Any]) -> Matcher:
        return one_of_ids(self.ids(p))

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(NOW_PLAYING, self.playing(params))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(NOW_PLAYING, ANY_SONG)]  # the criterion checks the song at the end

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from find_song(ui, p["artist"])
        rows = [e for e in ui.find_all() if e.short_id.startswith("artist_")
                and e.text == p["artist"]]
        if not rows:
            raise OracleError(f"no song by {p['artist']} listed")
        yield from ui.tap(id=rows[0].short_id.replace("artist_", "song_"))
        if ui.must(id="play_pause").content_desc == "播放":  # paused: play it
            yield from ui.tap(id="play_pause")
        yield from ui.finish()


class NeteaseWhichAlbum(MusicTask, Lookup):
    template = "网易云音乐里{artist}的《{title}》收录在哪张专辑里？"
    complexity, max_steps = 2, 10

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["album"]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(NOW_PLAYING, ANY_SONG)]  # playing is the player's state, no data

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [s["album"] for s in p["songs"] if s["album"] != p["album"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from find_song(ui, p["title"])
        row = song_row(ui, p["title"])
        artist, album = song_part(ui, row, "artist"), song_part(ui, row, "album")
        if artist != p["artist"] or not album:
            raise OracleError(f"{row.text!r} is not {p['artist']}'s song")
        yield from ui.answer(album)


class NeteaseLikeSongInfeasible(Infeasible, NeteaseLikeSong):
    """The song the task names is not in the library: the search finds nothing."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        missing = sample_songs(rng, 1, leave_out=[s["title"] for s in p["songs"]])[0]
        return {**p, "title": missing["title"], "artist": missing["artist"],
                "album": missing["album"]}

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(NOW_PLAYING, ANY_SONG)]  # playing is the player's state, no data

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from find_song(ui, params["title"])
        ui.why(f"搜不到《{params['title']}》这首歌")


TEMPLATES: list[Task] = [
    NeteaseLikeSong(), NeteaseMakePlaylist(), NeteasePlayArtist(), NeteaseWhichAlbum(),
    NeteaseLikeSongInfeasible(),
]
__all__ = ["ARTISTS", "TEMPLATES"]
