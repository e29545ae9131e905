"""Retro Music: songs, playlists and the playing queue.

Songs are files in shared storage (``/sdcard/Music/*.mp3``, the system's ``files`` store)
whose text holds their tags (``title:``, ``artist:``, ``duration: m:ss``), so other apps and
tasks see the same songs. Playlists and the playing queue are the app's own data
(``MusicData``, as Retro keeps them in its database): verifiers read
``apps.Music.playlists`` (name and ordered song titles) and ``apps.Music.queue`` (titles in
order). "Save playlist" exports a playlist as ``/sdcard/Download/<name>.m3u``.

The app opens on its Home page (the library at a glance). The song list is searchable; a
long press starts a selection, further taps add songs to it in the order they are tapped,
and the bar's actions add the selection to a playlist (an existing one or a new one) or to
the playing queue. Each row's "More options" sheet does the same for one song. A tap
outside a selection plays the song: the queue becomes the listed songs, starting there (as
Retro does).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Grouping, Listing, Mapped, Store, Table
from ...world.kit import (
    BottomNav,
    BottomSheet,
    ConfirmDialog,
    MiniPlayer,
    PlayerControls,
    SearchList,
    SeekBar,
)
from ...world.kit.localize import in_locale
from ...world.kit.media import CoverArt
from ...world.system import File, SystemState
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

MUSIC_DIR = "/sdcard/Music"
EXPORT_DIR = "/sdcard/Download"
TABS = ("Home", "Songs", "Playlists", "Queue")
#: The bottom bar's icons (Retro Music's home, song, playlist and queue icons).
TAB_ICONS = ("home", "music_note", "queue_music", "playlist_play")


# --- songs (files) ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Song:
    """A song file's tags."""

    path: str
    title: str
    artist: str
    seconds: int


def parse_song(f: File) -> Song:
    tags = dict(re.findall(r"^(\w+):[ \t]*(.*)$", f.content, re.M))
    minutes, _, secs = tags.get("duration", "0:00").partition(":")
    seconds = int(minutes) * 60 + int(secs) if minutes.isdigit() and secs.isdigit() else 0
    title = tags.get("title") or posixpath.splitext(f.name)[0]
    return Song(f.path, title, tags.get("artist", "Unknown artist"), seconds)


def song_file(title: str, artist: str, seconds: int) -> tuple[str, str]:
    """The path and text of a song file."""
    text = (f"title: {title}\nartist: {artist}\nduration: {seconds // 60}:{seconds % 60:02d}"
            "\nformat: MP3 320 kbps")
    return f"{MUSIC_DIR}/{title}.mp3", text


def cover(artist: str) -> str:
    """The drawn album art of a song (its artist's: the files carry no album)."""
    return pictures.encode("album", pictures.seed_of(artist))


def length_text(seconds: int) -> str:
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


def is_song(f: File) -> bool:
    return f.folder == MUSIC_DIR and f.name.lower().endswith(".mp3")


def song_order(f: File) -> tuple[str, str]:
    """The song list's order: by title (any case), then path."""
    return (parse_song(f).title.lower(), f.path)


def song_text(f: File) -> str:
    """What a search looks in: the title and the artist."""
    s = parse_song(f)
    return f"{s.title}\n{s.artist}"


def song_seconds(f: File) -> int:
    return parse_song(f).seconds


def song_title(f: File) -> str | None:
    return parse_song(f).title if is_song(f) else None


def song_index(files: Table[File]) -> tuple[Listing[File], Grouping[File]]:
    """The song files in the list's order, and by title: indexes of the files kept on
    write (a library of thousands is not parsed and sorted per frame)."""
    return (files.index("music_songs", song_order, song_text, keep=is_song),
            files.grouping("music_titles", song_title, song_order))


def titled(files: Table[File], title: str, last: bool = False) -> Song | None:
    """The first (or ``last``) song in the list's order titled ``title``."""
    _, titles = song_index(files)
    found = titles.last(title) if last else next(iter(titles.view(title)), None)
    return parse_song(found) if found is not None else None


def songs_of(files: Table[File]) -> Sequence[Song]:
    """The songs on the phone, by title."""
    listing, _ = song_index(files)
    return Mapped(listing.view(files), parse_song)


# --- the app's data ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Playlist:
    id: int
    name: str
    songs: tuple[str, ...] = ()


@dataclass
class MusicData(Store):
    """Playlists (song titles in order) and the playing queue (titles in order)."""

    playlists: Table[Playlist] = field(default_factory=lambda: Table(kind=Playlist))
    queue: tuple[str, ...] = ()


def find_playlist(data: MusicData, name: str) -> Playlist | None:
    return next((p for p in data.playlists if p.name.lower() == name.strip().lower()), None)


def create_playlist(data: MusicData, name: str, songs: Sequence[str] = ()) -> Playlist | None:
    """A new playlist; None when the name is blank or taken (ignoring case)."""
    name = name.strip()
    if not name or find_playlist(data, name) is not None:
        return None
    return data.playlists.new(name=name, songs=tuple(songs))


def add_to_playlist(data: MusicData, playlist_id: int, songs: Sequence[str]) -> None:
    p = data.playlists.get(playlist_id)
    if p is not None and songs:
        data.playlists.update(playlist_id, songs=p.songs + tuple(songs))


def move_song(data: MusicData, playlist_id: int, index: int, delta: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is None or not 0 <= index < len(p.songs) or not 0 <= index + delta < len(p.songs):
        return
    songs = list(p.songs)
    songs[index], songs[index + delta] = songs[index + delta], songs[index]
    data.playlists.update(playlist_id, songs=tuple(songs))


def remove_song(data: MusicData, playlist_id: int, index: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is not None and 0 <= index < len(p.songs):
        data.playlists.update(playlist_id, songs=p.songs[:index] + p.songs[index + 1:])


def m3u_text(playlist: Playlist, songs: Sequence[Song]) -> str:
    """The playlist as an extended M3U file."""
    by_title = {s.title: s for s in songs}
    lines = ["#EXTM3U"]
    for title in playlist.songs:
        s = by_title.get(title)
        if s is not None:
            lines += [f"#EXTINF:{s.seconds},{s.artist} - {s.title}", s.path]
    return "\n".join(lines) + "\n"


# --- transient state ---------------------------------------------------------------------------
@dataclass
class MusicUi:
    """The tab, the search, the selection (titles, in tap order), the songs waiting for a
    playlist (``pending``), the open dialog or sheet, the song playing."""

    tab: str = "Home"
    query: str = ""
    selecting: bool = False
    selection: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    dialog: str = ""  # "", "add", "new", "sheet", "delete"
    sheet_song: str = ""
    new_name: str = ""
    playing: str = ""
    paused: bool = False
    position: float = 0.0  # seconds into the song when last resumed (or paused)
    resumed_at: float = 0.0  # the phone's time (epoch seconds) it last resumed


class MusicApp(App):
    manifest = MANIFEST

    data: MusicData
    ui: MusicUi

    def initial_data(self) -> MusicData:
        return MusicData()

    def initial_ui(self) -> MusicUi:
        return MusicUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        listing, _ = song_index(system.files)
        listing.total("seconds", song_seconds)

    def songs(self) -> Sequence[Song]:
        return songs_of(self.system.files)

    def shown_songs(self) -> Sequence[Song]:
        q = self.ui.query.strip().lower()
        if not q:
            return self.songs()
        files = self.system.files
        listing, _ = song_index(files)  # its search (any case) finds these and maybe more
        return [s for s in map(parse_song, listing.view(files, q))
                if q in s.title.lower() or q in s.artist.lower()]

    def titled(self, title: str, last: bool = False) -> Song | None:
        return titled(self.system.files, title, last)

    def length_of(self, title: str) -> int:
        """The seconds of the song titled ``title`` (the last of that title; 0: none)."""
        song = titled(self.system.files, title, last=True)
        return song.seconds if song is not None else 0

    # --- updates -------------------------------------------------------------------------------
    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab
        self.end_selection()

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def play(self, title: str) -> None:
        """Play a song: the queue becomes the listed songs, from this one on."""
        titles = [s.title for s in self.shown_songs()]
        if title in titles:
            self.data.queue = tuple(titles[titles.index(title):])
        self.start(title)

    def start(self, title: str) -> None:
        """Play ``title`` from its start."""
        self.ui.playing, self.ui.paused = title, False
        self.ui.position, self.ui.resumed_at = 0.0, self.system.now.timestamp()

    def song(self) -> Song | None:
        return self.titled(self.ui.playing) if self.ui.playing else None

    @property
    def ticking(self) -> bool:
        return self.route.name == "player" and bool(self.ui.playing) and not self.ui.paused

    def position(self) -> int:
        """Seconds into the song playing (time moves it on while it plays)."""
        song = self.song()
        if song is None:
            return 0
        pos = self.ui.position
        if not self.ui.paused:
            pos += self.system.now.timestamp() - self.ui.resumed_at
        return int(min(pos, song.seconds))

    def toggle_pause(self) -> None:
        if not self.ui.playing:
            return
        if self.ui.paused:
            self.ui.resumed_at = self.system.now.timestamp()
        else:
            self.ui.position = float(self.position())
        self.ui.paused = not self.ui.paused

    def seek(self, seconds: int) -> None:
        """Move the song playing to ``seconds`` (held within the song)."""
        song = self.song()
        if song is not None:
            self.ui.position = float(max(0, min(seconds, song.seconds)))
            self.ui.resumed_at = self.system.now.timestamp()

    def skip(self, delta: int) -> None:
        """The next (1) or previous (-1) song of the playing queue."""
        queue = self.data.queue
        if self.ui.playing in queue:
            at = queue.index(self.ui.playing) + delta
            if 0 <= at < len(queue):
                self.start(queue[at])

    def tap_song(self, title: str) -> None:
        ui = self.ui
        if not ui.selecting:
            self.play(title)
        elif title in ui.selection:
            ui.selection = tuple(t for t in ui.selection if t != title)
            ui.selecting = bool(ui.selection)
        else:
            ui.selection = (*ui.selection, title)

    def start_selection(self, title: str) -> None:
        if not self.ui.selecting:
            self.ui.selecting, self.ui.selection = True, (title,)
        else:
            self.tap_song(title)

    def end_selection(self) -> None:
        self.ui.selecting, self.ui.selection = False, ()

    def ask_playlist(self, songs: Sequence[str]) -> None:
        """Open "Add to playlist" for ``songs``."""
        if songs:
            self.ui.pending, self.ui.dialog = tuple(songs), "add"

    def ask_new(self) -> None:
        self.ui.dialog, self.ui.new_name = "new", ""

    def ask_playlist_empty(self) -> None:
        self.ui.pending = ()
        self.ask_new()

    def set_new_name(self, text: str) -> None:
        self.ui.new_name = text

    def close_dialog(self) -> None:
        self.ui.dialog, self.ui.pending, self.ui.sheet_song = "", (), ""

    def confirm_new(self) -> None:
        created = create_playlist(self.data, self.ui.new_name, self.ui.pending)
        if created is None:
            self.toast(self.t("Enter a name" if not self.ui.new_name.strip()
                              else "A playlist with that name exists"))
            return
        self.toast(self.t("Created playlist {name}", name=created.name))
        self.close_dialog()
        self.end_selection()

    def add_pending_to(self, playlist_id: int) -> None:
        add_to_playlist(self.data, playlist_id, self.ui.pending)
        count = len(self.ui.pending)
        self.close_dialog()
        self.end_selection()
        self.toast(self.t("Added {count} song to playlist" if count == 1
                          else "Added {count} songs to playlist", count=count))

    def enqueue(self, songs: Sequence[str]) -> None:
        if songs:
            self.data.queue = self.data.queue + tuple(songs)
            self.toast(self.t("Added to playing queue"))
        self.close_dialog()
        self.end_selection()

    def play_next(self, title: str) -> None:
        queue = list(self.data.queue)
        at = queue.index(self.ui.playing) + 1 if self.ui.playing in queue else 0
        self.data.queue = tuple(queue[:at] + [title] + queue[at:])
        self.close_dialog()

    def remove_from_queue(self, index: int) -> None:
        q = self.data.queue
        if 0 <= index < len(q):
            self.data.queue = q[:index] + q[index + 1:]

    def clear_queue(self) -> None:
        self.data.queue, self.ui.playing, self.ui.paused = (), "", False

    def open_sheet(self, title: str) -> None:
        self.ui.dialog, self.ui.sheet_song = "sheet", title

    def save_playlist(self, playlist_id: int) -> None:
        p = self.data.playlists.get(playlist_id)
        if p is None:
            return
        path = f"{EXPORT_DIR}/{p.name}.m3u"
        self.system.files.put(File(path, m3u_text(p, self.songs()), "audio/x-mpegurl"))
        self.toast(self.t("Saved playlist to {path}", path=path))

    def delete_playlist(self, playlist_id: int) -> None:
        self.data.playlists.remove(playlist_id)
        self.close_dialog()
        if self.route.name == "playlist":
            self.back()

    def play_playlist(self, p: Playlist, index: int) -> None:
        if 0 <= index < len(p.songs):
            self.data.queue = p.songs[index:]
            self.start(p.songs[index])

    def on_back(self) -> bool:
        """Back ends a selection first."""
        if self.ui.selecting:
            self.end_selection()
            return True
        return False

    # --- views ---------------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        """The screen of ``route`` with its English fixed strings (``view`` localizes)."""
        if route.name == "player":
            return self.player()
        if route.name == "playlist" and self.data.playlists.get(route.arg) is not None:
            return self.playlist_screen(route.arg)
        ui = self.ui
        content: list[Node] = []
        actions: list[Node] = []
        fab = None
        if ui.tab == "Songs":
            content += self.song_list()
            if ui.selecting:
                actions = [
                    Icon("+", "Add to playlist", lambda: self.ask_playlist(ui.selection),
                         id="action_add_to_playlist"),
                    Icon("≡", "Add to playing queue", lambda: self.enqueue(ui.selection),
                         id="action_add_to_queue"),
                    Icon("×", "Clear selection", self.end_selection, id="action_clear"),
                ]
        elif ui.tab == "Home":
            content += self.home()
        elif ui.tab == "Playlists":
            content.append(self.playlist_list())
            fab = Fab("+", "New playlist", self.ask_playlist_empty, id="new_playlist")
        else:
            content += self.queue_list()
        title = self.t("{n} selected", n=len(ui.selection)) if ui.selecting else "Retro Music"
        return Screen(top_bar=TopBar(title, actions=actions), content=content, fab=fab,
                      bottom=BottomNav(TABS, TAB_ICONS, ui.tab, self.set_tab),
                      dock=self.mini_player(), dialog=self.dialog_node(),
                      on_dismiss=self.close_dialog, on_back=self.on_back)

    def mini_player(self) -> Node | None:
        """The mini player docked at the bottom while a song is loaded."""
        song = self.song()
        if song is None:
            return None
        return MiniPlayer(song.title, song.artist, not self.ui.paused, self.toggle_pause,
                          on_open=partial(self.go, "player"), picture=cover(song.artist))

    def player(self) -> Screen:
        """The now-playing screen: the song, its seek bar and the playback controls."""
        song = self.song()
        if song is None:
            return Screen(top_bar=TopBar("Now playing", on_back=self.back),
                          content=[Text("Nothing playing", id="nothing_playing")])
        queue = self.data.queue
        at = queue.index(song.title) if song.title in queue else -1
        return Screen(top_bar=TopBar("Now playing", on_back=self.back), content=[
            CoverArt(cover(song.artist), desc=self.t("Album art of {title}", title=song.title)),
            Text(song.title, style="title", id="player_title"),
            Text(song.artist, id="player_artist"),
            SeekBar(self.position(), song.seconds, self.seek, id="player_position"),
            PlayerControls(not self.ui.paused, self.toggle_pause,
                           on_previous=partial(self.skip, -1) if at > 0 else None,
                           on_next=partial(self.skip, 1) if 0 <= at < len(queue) - 1
                           else None)])

    def songs_text(self, n: int, seconds: int) -> str:
        """"12 songs · 45:10" (12首 · 45:10)."""
        return self.t("{n} songs · {length}", n=n, length=length_text(seconds))

    def home(self) -> list[Node]:
        """Retro's start page: the library at a glance, and links to its lists."""
        files = self.system.files
        listing, _ = song_index(files)
        songs, total = listing.view(files), listing.total("seconds", song_seconds)
        return [
            Text("Your library", style="title", id="home_title"),
            ListItem("Songs", self.songs_text(len(songs), total), id="home_songs",
                     glyph="♪", on_click=lambda: self.set_tab("Songs")),
            ListItem("Playlists", self.t("{n} playlists", n=len(self.data.playlists)),
                     glyph="≡", id="home_playlists", on_click=lambda: self.set_tab("Playlists")),
            ListItem("Playing queue", self.t("{n} songs", n=len(self.data.queue)), glyph="▶",
                     id="home_queue", on_click=lambda: self.set_tab("Queue")),
        ]

    def song_item(self, s: Song) -> Node:
        picked = s.title in self.ui.selection
        item = ListItem(
            s.title, f"{s.artist} · {length_text(s.seconds)}", id=f"song_{s.title}",
            glyph="✓" if picked else "♪", on_click=lambda: self.tap_song(s.title),
            picture="" if picked else cover(s.artist),
            on_long_click=lambda: self.start_selection(s.title),
            trailing=Icon("⋮", self.t("More options for {title}", title=s.title),
                          lambda: self.open_sheet(s.title),
                          id=f"more_{s.title}"),
        )
        item.selected = picked
        return item

    def song_list(self) -> list[Node]:
        shown = self.shown_songs()
        return SearchList(self.ui.query, self.set_query, len(shown),
                          lambda i: self.song_item(shown[i]), id="songs",
                          hint="Search songs", empty_text="No songs")

    def playlist_list(self) -> Node:
        items = sorted(self.data.playlists, key=lambda p: p.name.lower())

        def build(i: int) -> Node:
            p = items[i]
            total = sum(self.length_of(t) for t in p.songs)
            return ListItem(p.name, self.songs_text(len(p.songs), total),
                            id=f"playlist_{p.id}", glyph="≡",
                            on_click=lambda: self.go("playlist", p.id))
        return VirtualList(len(items), build, id="playlists", empty_text="No playlists")

    def queue_list(self) -> list[Node]:
        queue = self.data.queue
        out: list[Node] = []
        if queue:
            out.append(Button("Clear queue", self.clear_queue, id="clear_queue",
                              style="secondary"))

        def build(i: int) -> Node:
            title = queue[i]
            return ListItem(title, "Playing" if title == self.ui.playing else "",
                            id=f"queue_{i}", glyph=str(i + 1),
                            on_click=lambda: self.start(title),
                            menu=[(self.t("Remove from playing queue"),
                                   lambda: self.remove_from_queue(i))])
        out.append(VirtualList(len(queue), build, id="queue", empty_text="The queue is empty"))
        return out

    def playlist_screen(self, playlist_id: int) -> Screen:
        p = self.data.playlists.get(playlist_id)
        assert p is not None
        lengths = {t: self.length_of(t) for t in set(p.songs)}
        total = sum(lengths[t] for t in p.songs)

        def build(i: int) -> Node:
            title = p.songs[i]
            return ListItem(title, length_text(lengths[title]), id=f"entry_{i}",
                            glyph=str(i + 1), on_click=lambda: self.play_playlist(p, i),
                            menu=[(self.t("Move up"),
                                   lambda: move_song(self.data, p.id, i, -1)),
                                  (self.t("Move down"),
                                   lambda: move_song(self.data, p.id, i, 1)),
                                  (self.t("Remove from playlist"),
                                   lambda: remove_song(self.data, p.id, i))])
        actions = [
            Icon("▶", "Play", lambda: self.play_playlist(p, 0), id="action_play"),
            Icon("⇩", "Save playlist", lambda: self.save_playlist(p.id), id="action_save"),
            Icon("🗑", "Delete playlist", lambda: setattr(self.ui, "dialog", "delete"),
                 id="action_delete"),
        ]
        dialog = None
        if self.ui.dialog == "delete":
            dialog = ConfirmDialog("Delete playlist?",
                                   self.t("{name} will be deleted.", name=p.name),
                                   on_confirm=lambda: self.delete_playlist(p.id),
                                   on_cancel=self.close_dialog, confirm="Delete",
                                   destructive=True)
        return Screen(
            top_bar=TopBar(p.name, on_back=self.back, actions=actions),
            content=[Text(self.songs_text(len(p.songs), total), style="caption",
                          id="playlist_info"),
                     VirtualList(len(p.songs), build, id="entries",
                                 empty_text="This playlist is empty")],
            dock=self.mini_player(), dialog=dialog, on_dismiss=self.close_dialog)

    def dialog_node(self) -> Node | None:
        ui = self.ui
        if ui.dialog == "add":
            rows: list[Node] = [ListItem("New playlist", id="option_new_playlist", glyph="+",
                                         on_click=self.ask_new)]
            for p in sorted(self.data.playlists, key=lambda p: p.name.lower()):
                rows.append(ListItem(p.name, self.t("{n} songs", n=len(p.songs)),
                                     id=f"pick_{p.id}",
                                     glyph="≡", on_click=partial(self.add_pending_to, p.id)))
            return Dialog("Add to playlist", "", [DialogButton("Cancel", self.close_dialog)],
                          body=rows)
        if ui.dialog == "new":
            return Dialog("New playlist", "", [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Create", self.confirm_new, id="button_create"),
            ], body=[TextField(ui.new_name, self.set_new_name, id="playlist_name",
                               label="Playlist name", hint="Playlist name")])
        if ui.dialog == "sheet" and ui.sheet_song:
            title = ui.sheet_song
            return BottomSheet(title, [
                ("Play next", lambda: self.play_next(title)),
                ("Add to playing queue", lambda: self.enqueue([title])),
                ("Add to playlist", lambda: self.ask_playlist([title])),
            ])
        return None
