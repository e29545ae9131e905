"""网易云音乐 (NetEase Cloud Music): songs, a player, playlists, as in the NetEase app.

The bottom bar has 发现 (a search field, id ``search``, over the songs: each row, id
``song_<id>``, shows the title over its artist and album, ids ``artist_<id>`` and
``album_<id>``; a tap plays it and opens the player),
我的 (我喜欢的音乐, id ``liked``; 创建的歌单, rows ``playlist_<id>``; 新建歌单, id
``new_playlist``, asks for a name) and 关注 (the artists of the library, rows
``follow_<n>``, each opening the artist's songs). The player shows the song, the artist and
album, a progress bar (id ``progress``), 歌词 (id ``lyrics``) or the disc, and ♡ (id
``like``: 我喜欢的音乐), 收藏 (id ``collect``: a sheet of playlists, ``add_<id>``), 评论 (id
``comments``), play/pause (id ``play_pause``) and 下一首 (id ``next``).

Songs, playlists and comments are the app's ``Store`` (``apps.NeteaseMusic...``); what is
playing is ``now_playing`` (a song id, 0 before anything plays). Play/pause, the position
and the open sheet are transient.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav
from ...world.widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Slider,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

TABS = ("发现", "我的", "关注")
TAB_ICONS = ("home", "person", "favorite")
ME = "我"
LYRIC_LINES = ("前奏", "{title}", "副歌", "{title} 再唱一遍", "尾声")


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Song:
    """A song of the library; ``liked``: in 我喜欢的音乐."""

    id: int
    title: str
    artist: str
    album: str
    seconds: int = 240
    liked: bool = False


@dataclass(frozen=True)
class Playlist:
    """A playlist the owner made: its songs' ids in the order added."""

    id: int
    name: str
    songs: tuple[int, ...] = ()


@dataclass(frozen=True)
class Comment:
    id: int
    song: int
    author: str
    text: str


@dataclass
class MusicData(Store):
    songs: Table[Song] = field(default_factory=lambda: Table(kind=Song))
    playlists: Table[Playlist] = field(default_factory=lambda: Table(kind=Playlist))
    comments: Table[Comment] = field(default_factory=lambda: Table(kind=Comment))
    now_playing: int = 0


@dataclass
class MusicUi:
    """Transient state: the tab, the search, play/pause and the position, the open sheet or
    dialog, the drafts."""

    tab: str = "发现"
    query: str = ""
    playing: bool = False
    position: int = 0
    lyrics: bool = False
    collecting: bool = False
    naming: bool = False
    name: str = ""
    comment: str = ""


# --- updates -------------------------------------------------------------------------------
def search(data: MusicData, query: str) -> list[Song]:
    """The songs whose title, artist or album holds ``query`` (all when empty), in order."""
    q = query.strip().lower()
    return [s for s in sorted(data.songs, key=lambda s: s.id)
            if not q or q in s.title.lower() or q in s.artist.lower() or q in s.album.lower()]


def artists(data: MusicData) -> list[str]:
    """The artists of the library, in the order their first song was added."""
    return list(dict.fromkeys(s.artist for s in sorted(data.songs, key=lambda s: s.id)))


def toggle_like(data: MusicData, song_id: int) -> None:
    s = data.songs.get(song_id)
    if s is not None:
        data.songs.update(song_id, liked=not s.liked)


def add_to_playlist(data: MusicData, playlist_id: int, song_id: int) -> bool:
    """Add the song to the playlist; False when it is there already."""
    p = data.playlists.get(playlist_id)
    if p is None or song_id in p.songs or data.songs.get(song_id) is None:
        return False
    data.playlists.update(playlist_id, songs=(*p.songs, song_id))
    return True


def clock(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


# --- the app -------------------------------------------------------------------------------
class MusicApp(App):
    manifest = MANIFEST

    data: MusicData
    ui: MusicUi

    def initial_data(self) -> MusicData:
        return MusicData()

    def initial_ui(self) -> MusicUi:
        return MusicUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def play(self, song_id: int) -> None:
        """Play the song from its start and open the player."""
        self.data.now_playing = song_id
        self.ui.playing, self.ui.position, self.ui.collecting = True, 0, False
        if self.stack and self.stack[-1].name == "player":
            self.replace("player")
        else:
            self.go("player")

    def next_song(self) -> None:
        ids = sorted(s.id for s in self.data.songs)
        if ids:
            now = self.data.now_playing
            later = [i for i in ids if i > now]
            self.play(later[0] if later else ids[0])

    def create_playlist(self) -> None:
        name = self.ui.name.strip()
        if not name:
            self.toast(self.t("歌单名不能为空"))
            return
        if any(p.name == name for p in self.data.playlists):
            self.toast(self.t("歌单已存在"))
            return
        self.data.playlists.new(name=name)
        self.ui.naming, self.ui.name = False, ""
        self.toast(self.t("新建歌单成功"))

    def collect(self, playlist_id: int) -> None:
        self.ui.collecting = False
        if add_to_playlist(self.data, playlist_id, self.data.now_playing):
            self.toast(self.t("已收藏到歌单"))
        else:
            self.toast(self.t("歌曲已存在"))

    def send_comment(self) -> None:
        text, song = self.ui.comment.strip(), self.data.now_playing
        if not text or self.data.songs.get(song) is None:
            return
        self.data.comments.new(song=song, author=ME, text=text)
        self.ui.comment = ""
        self.toast(self.t("评论成功"))

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        song = self.data.songs.get(self.data.now_playing)
        if route.name == "player" and song is not None:
            return self.player(song)
        if route.name == "comments" and song is not None:
            return self.comments(song)
        if route.name == "liked":
            return self.song_list(self.t("我喜欢的音乐"),
                                  [s for s in search(self.data, "") if s.liked])
        if route.name == "playlist" and self.data.playlists.get(route.arg) is not None:
            p = self.data.playlists[route.arg]
            return self.song_list(p.name, [s for i in p.songs
                                           if (s := self.data.songs.get(i)) is not None])
        if route.name == "artist":
            return self.song_list(route.arg, [s for s in search(self.data, "")
                                              if s.artist == route.arg])
        return self.home()

    def song_rows(self, songs: list[Song], list_id: str) -> Node:
        return ListView([ListItem(s.title, id=f"song_{s.id}", on_click=partial(self.play, s.id),
                                  parts=((f"artist_{s.id}", s.artist),
                                         (f"album_{s.id}", s.album))) for s in songs],
                        id=list_id, empty_text=self.t("没有找到相关歌曲"))

    def song_list(self, title: str, songs: list[Song]) -> Screen:
        return Screen(top_bar=TopBar(title, on_back=self.back),
                      content=[Text(self.t("共{n}首", n=len(songs)), id="count"),
                               self.song_rows(songs, "songs")])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        dialog = None
        if tab == "我的":
            liked = sum(1 for s in self.data.songs if s.liked)
            lists = sorted(self.data.playlists, key=lambda p: p.id)
            content = [
                ListItem(self.t("我喜欢的音乐"), self.t("{n}首", n=liked), id="liked",
                         on_click=partial(self.go, "liked")),
                Text(self.t("创建的歌单"), style="title", id="created_label"),
                ListView([ListItem(p.name, self.t("{n}首", n=len(p.songs)),
                                   id=f"playlist_{p.id}",
                                   on_click=partial(self.go, "playlist", p.id))
                          for p in lists], id="playlists", empty_text=self.t("还没有歌单")),
                Button(self.t("新建歌单"), partial(self.set_ui, naming=True, name=""),
                       id="new_playlist", style="secondary")]
            if self.ui.naming:
                dialog = Dialog(self.t("新建歌单"), "", [
                    DialogButton(self.t("取消"), partial(self.set_ui, naming=False),
                                 id="cancel"),
                    DialogButton(self.t("创建"), self.create_playlist, id="create")],
                    body=[TextField(self.ui.name, lambda v: self.set_ui(name=v),
                                    hint=self.t("请输入歌单标题"), id="playlist_name",
                                    label=self.t("歌单标题"))])
        elif tab == "关注":
            content = [ListView([ListItem(a, self.t("{n}首歌曲", n=sum(
                1 for s in self.data.songs if s.artist == a)), id=f"follow_{i}",
                on_click=partial(self.go, "artist", a)) for i, a in enumerate(artists(
                    self.data))], id="artists", empty_text=self.t("还没有关注"))]
        else:
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索歌曲、歌手、专辑"), id="search",
                                 label=self.t("搜索")),
                       Text(self.t("每日推荐") if not self.ui.query.strip()
                            else self.t("单曲"), style="title", id="list_label"),
                       self.song_rows(search(self.data, self.ui.query), "results")]
        song = self.data.songs.get(self.data.now_playing)
        mini = None if song is None else ListItem(  # the mini player above the bar
            song.title, song.artist, id="mini_player", on_click=partial(self.go, "player"))
        return Screen(top_bar=TopBar(self.t(tab)), content=content, dock=mini,
                      bottom=BottomNav(TABS, TAB_ICONS, tab,
                                       lambda t: self.set_ui(tab=t, naming=False),
                                       style=self.manifest.look.nav_style),
                      dialog=dialog,
                      on_dismiss=partial(self.set_ui, naming=False) if dialog else None)

    def player(self, song: Song) -> Screen:
        middle: list[Node]
        if self.ui.lyrics:
            middle = [Text(line.format(title=song.title), id=f"lyric_{i}")
                      for i, line in enumerate(LYRIC_LINES)]
        else:
            middle = [Text(self.t("专辑：{album}", album=song.album), id="album")]
        dialog = None
        if self.ui.collecting:
            lists = sorted(self.data.playlists, key=lambda p: p.id)
            dialog = Dialog(self.t("收藏到歌单"), "" if lists else self.t("还没有歌单"), [
                DialogButton(self.t("取消"), partial(self.set_ui, collecting=False),
                             id="cancel")],
                body=[ListView([ListItem(p.name, self.t("{n}首", n=len(p.songs)),
                                         id=f"add_{p.id}", on_click=partial(self.collect, p.id))
                                for p in lists], id="collect_list",
                               empty_text=self.t("还没有歌单"))])
        return Screen(
            top_bar=TopBar(song.title, on_back=self.back),
            content=[Text(song.artist, id="artist"),
                     Button(self.t("歌词") if not self.ui.lyrics else self.t("封面"),
                            partial(self.set_ui, lyrics=not self.ui.lyrics), id="lyrics",
                            style="secondary"),
                     *middle,
                     Slider(self.t("播放进度"), self.ui.position, 0, song.seconds,
                            lambda v: self.set_ui(position=int(v)), id="progress"),
                     Text(f"{clock(self.ui.position)} / {clock(song.seconds)}", id="time")],
            dock=Column([
                Row([Icon("♥" if song.liked else "♡",
                          self.t("取消喜欢") if song.liked else self.t("喜欢"),
                          partial(toggle_like, self.data, song.id), id="like"),
                     Icon("+", self.t("收藏"), partial(self.set_ui, collecting=True),
                          id="collect"),
                     Icon("💬", self.t("评论"), partial(self.go, "comments"), id="comments")]),
                Row([Icon("⏸" if self.ui.playing else "▶",
                          self.t("暂停") if self.ui.playing else self.t("播放"),
                          partial(self.set_ui, playing=not self.ui.playing), id="play_pause"),
                     Icon("⏭", self.t("下一首"), self.next_song, id="next")])],
                id="player_bar"),
            dialog=dialog,
            on_dismiss=partial(self.set_ui, collecting=False) if dialog else None)

    def comments(self, song: Song) -> Screen:
        shown = sorted((c for c in self.data.comments if c.song == song.id),
                       key=lambda c: -c.id)
        return Screen(
            top_bar=TopBar(self.t("评论（{n}）", n=len(shown)), on_back=self.back),
            content=[Text(f"{song.title} - {song.artist}", id="comment_song"),
                     ListView([ListItem(c.author, c.text, id=f"comment_{c.id}")
                               for c in shown], id="comment_list",
                              empty_text=self.t("还没有评论，快来抢沙发"))],
            dock=Column([TextField(self.ui.comment, lambda v: self.set_ui(comment=v),
                                   hint=self.t("说点什么吧"), id="comment",
                                   label=self.t("评论")),
                         Button(self.t("发送"), self.send_comment, id="send_comment")],
                        id="comment_bar"))
