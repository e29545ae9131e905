"""Public fixtures of 网易云音乐 (NetEase Cloud Music): the library's songs (title, artist,
album), playlists and comments, the vocabulary they are drawn from, and the oracle steps
other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import pick
from .app import ME, MusicApp, Playlist, Song

SONGS = "apps.NeteaseMusic.songs"
PLAYLISTS = "apps.NeteaseMusic.playlists"
COMMENTS = "apps.NeteaseMusic.comments"
NOW_PLAYING = "apps.NeteaseMusic.now_playing"
#: (title, artist, album): every title and every album distinct.
CATALOGUE: tuple[tuple[str, str, str], ...] = (
    ("晴天", "周杰伦", "叶惠美"), ("稻香", "周杰伦", "魔杰座"), ("Mojito", "周杰伦", "Mojito单曲"),
    ("夜曲", "周杰伦", "十一月的萧邦"), ("十年", "陈奕迅", "黑·白·灰"), ("浮夸", "陈奕迅", "U87"),
    ("好久不见", "陈奕迅", "认了吧"), ("江南", "林俊杰", "第二天堂"),
    ("修炼爱情", "林俊杰", "因你而在"), ("不为谁而作的歌", "林俊杰", "和自己对话"),
    ("消愁", "毛不易", "平凡的一天"), ("像我这样的人", "毛不易", "巨星不易工作室"),
    ("光年之外", "邓紫棋", "光年之外单曲"), ("泡沫", "邓紫棋", "Xposed"),
    ("倔强", "五月天", "神的孩子都在跳舞"), ("突然好想你", "五月天", "后青春期的诗"),
    ("温柔", "五月天", "人生海海"),
    ("Something Just Like This", "Coldplay", "Memories...Do Not Open"),
)
ARTISTS = tuple(dict.fromkeys(a for _, a, _ in CATALOGUE))
PLAYLIST_NAMES = ("跑步歌单", "睡前听", "通勤路上", "KTV必点", "学习专注", "周末放松")
COMMENT_TEXTS = ("单曲循环了一整天", "青春的回忆", "每次听都会哭", "前奏一响就爱了",
                 "2026年还有人在听吗", "太好听了吧")
USERS = ("云村村民", "夜猫子", "小确幸", "追光者", "听歌的鱼")


def music_app(state: Any) -> MusicApp:
    app = state.app("NeteaseMusic")
    assert isinstance(app, MusicApp)
    return app


def sample_songs(rng: np.random.Generator, k: int,
                 leave_out: Sequence[str] = ()) -> list[dict[str, Any]]:
    """``k`` songs of the catalogue as plain data (``write_songs`` writes them), titles not
    in ``leave_out``."""
    pool = [c for c in CATALOGUE if c[0] not in leave_out]
    return [{"title": t, "artist": a, "album": al, "seconds": int(rng.integers(170, 330))}
            for t, a, al in pick(rng, pool, k)]


def write_songs(state: Any, songs: Sequence[Mapping[str, Any]]) -> dict[str, Song]:
    """The songs, written in that order (ids 1, 2...): by title."""
    data = music_app(state).data
    return {s["title"]: data.songs.new(title=s["title"], artist=s["artist"], album=s["album"],
                                       seconds=s.get("seconds", 240),
                                       liked=s.get("liked", False)) for s in songs}


def add_playlist(state: Any, name: str, songs: Sequence[Song] = ()) -> Playlist:
    return music_app(state).data.playlists.new(name=name, songs=tuple(s.id for s in songs))


def add_comment(state: Any, song: Song, text: str, author: str = "云村村民") -> None:
    music_app(state).data.comments.new(song=song.id, author=author, text=text)


TAB_IDS = {"发现": "tab_home", "我的": "tab_person", "关注": "tab_favorite"}


def to_tab(ui: Driver, tab: str) -> Iterator[PhoneAction]:
    """Launch 网易云音乐 and go back to its bottom bar (closing a dialog or a page on the
    way), then open ``tab``."""
    yield from ui.open_app("NeteaseMusic")
    for _ in range(6):
        if ui.find(id=TAB_IDS[tab]) is not None and ui.find(id="dialog") is None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:  # backed out of the app: launch it again
            yield PhoneAction("open_app", app="NeteaseMusic")
    yield from ui.tap(id=TAB_IDS[tab])


def find_song(ui: Driver, query: str) -> Iterator[PhoneAction]:
    """Launch 网易云音乐 on 发现 and search for ``query`` (the results listed)."""
    yield from to_tab(ui, "发现")
    yield from ui.fill("search", query)
    yield from ui.press("back")


def song_row(ui: Driver, title: str) -> Any:
    """The listed row of the song titled ``title`` (an ``OracleError`` when none)."""
    for e in ui.find_all():
        if e.short_id.startswith("song_") and e.text == title:
            return e
    raise OracleError(f"no song {title!r} listed")


def song_part(ui: Driver, row: Any, part: str) -> str:
    """A listed song's ``artist`` or ``album``, as its row shows it."""
    return ui.must(id=f"{part}_{row.short_id.removeprefix('song_')}").text


def play_song(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Search for the song titled ``title`` and play it (the player opens)."""
    yield from find_song(ui, title)
    yield from ui.tap(id=song_row(ui, title).short_id)


def playlist_id(ui: Driver, name: str) -> str:
    """The element id of the playlist ``name`` in the player's 收藏 sheet."""
    for e in ui.find_all():
        if e.short_id.startswith("add_") and e.text == name:
            return e.short_id
    raise OracleError(f"no playlist {name!r} in the sheet")


__all__ = ["ARTISTS", "CATALOGUE", "COMMENTS", "COMMENT_TEXTS", "ME", "NOW_PLAYING",
           "PLAYLISTS", "PLAYLIST_NAMES", "SONGS", "USERS", "add_comment", "add_playlist",
           "find_song", "music_app", "play_song", "playlist_id", "sample_songs", "song_part",
           "song_row", "to_tab", "write_songs"]
