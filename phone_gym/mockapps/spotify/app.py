"""Spotify: a music streaming app over a catalog of artists, albums and songs.

The catalog (artists, albums, tracks) is what the service serves; the app caches it in its
own data, with the owner's marks on it: ``Track.liked`` (Liked Songs), ``Artist.followed``.
Playlists keep track titles in order (``apps.Spotify.playlists``). ``shuffle`` and
``repeat`` are the player's settings; the queue and the position of the song playing (which
advances as time passes: ``wait``) belong to the listening session (transient). ``promo``
is a Premium upsell pop-up waiting to be shown: it covers the main screens until dismissed.

Navigation: a bottom bar (Home, Search, Your Library); search has category chips (Songs,
Artists, Albums, Playlists, Podcasts); rows open artist, album, playlist and podcast pages;
a song row's long press (or its "More options" icon) opens a sheet: like, add to playlist,
add to queue, go to album, go to artist (and, in a playlist, remove and move).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomSheet,
    Chips,
    ConfirmDialog,
    MiniPlayer,
    PlayerControls,
    SearchList,
    SeekBar,
    SheetOption,
)
from ...world.kit.localize import in_locale
from ...world.kit.media import CoverArt
from ...world.locale import DEFAULT_LOCALE
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

CATEGORIES = ("Songs", "Artists", "Albums", "Playlists", "Podcasts")
LIBRARY = ("Playlists", "Artists", "Downloaded")
REPEAT = ("off", "all", "one")
PODCASTS = (("Daily Tech Brief", "Tech news in 15 minutes"),
            ("The History Hour", "Stories from the past"),
            ("Mindful Mornings", "Short guided meditations"),
            ("Kitchen Confidential Radio", "Chefs talk food"))


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Artist:
    id: int
    name: str
    listeners: int = 0  # monthly listeners
    followed: bool = False


@dataclass(frozen=True)
class Album:
    id: int
    title: str
    artist: str
    year: int = 2020


@dataclass(frozen=True)
class Track:
    id: int
    title: str
    artist: str
    album: str
    seconds: int
    plays: int = 0
    liked: bool = False
    downloaded: bool = False


@dataclass(frozen=True)
class Playlist:
    id: int
    name: str
    tracks: tuple[str, ...] = ()


@dataclass
class SpotifyData(Store):
    """The cached catalog with the owner's marks, playlists, and the player's settings."""

    artists: Table[Artist] = field(default_factory=lambda: Table(kind=Artist))
    albums: Table[Album] = field(default_factory=lambda: Table(kind=Album))
    tracks: Table[Track] = field(default_factory=lambda: Table(kind=Track))
    playlists: Table[Playlist] = field(default_factory=lambda: Table(kind=Playlist))
    shuffle: bool = False
    repeat: str = "off"
    promo: bool = False


@dataclass
class SpotifyUi:
    """Transient state: tab, search, chips, the open sheet or dialog, the song playing."""

    tab: str = "Home"
    query: str = ""
    category: str = "Songs"
    library: str = "Playlists"
    sheet: str = ""  # the title of the song whose options sheet is open
    sheet_playlist: int | None = None  # the playlist the sheet was opened from
    sheet_index: int = -1
    dialog: str = ""  # "", "new", "rename", "delete", "pick"
    name: str = ""
    playing: str = ""
    paused: bool = True
    position: float = 0.0  # seconds into the song when last resumed
    resumed_at: float = 0.0  # phone time (epoch seconds) when it last resumed
    add_query: str = ""
    queue: tuple[str, ...] = ()  # the titles playing next (the session's, not saved)


# --- updates -------------------------------------------------------------------------------
def track_by_title(data: SpotifyData, title: str) -> Track | None:
    return data.tracks.first(title=title)


def find_playlist(data: SpotifyData, name: str) -> Playlist | None:
    return next((p for p in data.playlists if p.name.lower() == name.strip().lower()), None)


def create_playlist(data: SpotifyData, name: str, tracks: Sequence[str] = ()) -> Playlist:
    return data.playlists.new(name=name.strip(), tracks=tuple(tracks))


def add_tracks(data: SpotifyData, playlist_id: int, titles: Sequence[str]) -> None:
    p = data.playlists.get(playlist_id)
    if p is not None:
        data.playlists.update(playlist_id, tracks=p.tracks + tuple(titles))


def remove_at(data: SpotifyData, playlist_id: int, index: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is not None and 0 <= index < len(p.tracks):
        data.playlists.update(playlist_id, tracks=p.tracks[:index] + p.tracks[index + 1:])


def move_at(data: SpotifyData, playlist_id: int, index: int, delta: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is None or not (0 <= index < len(p.tracks) and 0 <= index + delta < len(p.tracks)):
        return
    t = list(p.tracks)
    t[index], t[index + delta] = t[index + delta], t[index]
    data.playlists.update(playlist_id, tracks=tuple(t))


def top_tracks(data: SpotifyData, artist: str, k: int = 5) -> list[Track]:
    """An artist's most played songs, most played first."""
    return sorted(data.tracks.where(artist=artist), key=lambda t: (-t.plays, t.id))[:k]


def total_seconds(data: SpotifyData, titles: Sequence[str]) -> int:
    return sum(t.seconds for t in (track_by_title(data, x) for x in titles) if t is not None)


def mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def total_text(seconds: int, locale: str = DEFAULT_LOCALE) -> str:
    """``1 hr 3 min 20 sec`` style (exact, as the playlist header shows it; zh-CN:
    ``1小时3分20秒``)."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if locale == "zh-CN":
        return (f"{h}小时" if h else "") + f"{m}分{s}秒"
    parts = [f"{h} hr"] if h else []
    return " ".join([*parts, f"{m} min", f"{s} sec"])


# --- the app -------------------------------------------------------------------------------
class SpotifyApp(App):
    manifest = MANIFEST

    data: SpotifyData
    ui: SpotifyUi

    def initial_data(self) -> SpotifyData:
        return SpotifyData()

    def initial_ui(self) -> SpotifyUi:
        return SpotifyUi()

    @property
    def ticking(self) -> bool:
        return self.route.name == "player" and not self.ui.paused and bool(self.ui.playing)

    # --- small updates -------------------------------------------------------------------
    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def dismiss_promo(self) -> None:
        self.data.promo = False

    def open_page(self, name: str, arg: object) -> None:
        self.close_sheet()
        self.go(name, arg)

    def now_s(self) -> float:
        return self.system.now.timestamp()

    def position(self) -> int:
        track = track_by_title(self.data, self.ui.playing)
        if track is None:
            return 0
        pos = self.ui.position
        if not self.ui.paused:
            pos += self.now_s() - self.ui.resumed_at
        return int(min(pos, track.seconds))

    def play(self, title: str, context: Sequence[str] = ()) -> None:
        """Play ``title``; the queue becomes the rest of ``context`` after it."""
        self.close_sheet()
        if track_by_title(self.data, title) is None:
            return
        rest = list(context)
        if title in rest:
            self.ui.queue = tuple(rest[rest.index(title) + 1:])
        self.ui.playing, self.ui.paused = title, False
        self.ui.position, self.ui.resumed_at = 0.0, self.now_s()

    def toggle_pause(self) -> None:
        if not self.ui.playing:
            return
        if self.ui.paused:
            self.ui.resumed_at = self.now_s()
        else:
            self.ui.position = float(self.position())
        self.ui.paused = not self.ui.paused

    def seek(self, seconds: int) -> None:
        """Move the song playing to ``seconds`` (held within the song)."""
        track = track_by_title(self.data, self.ui.playing)
        if track is None:
            return
        self.ui.position = float(max(0, min(seconds, track.seconds)))
        self.ui.resumed_at = self.now_s()

    def next_track(self) -> None:
        if self.ui.queue:
            title, self.ui.queue = self.ui.queue[0], self.ui.queue[1:]
            self.play(title)

    def toggle_shuffle(self) -> None:
        self.data.shuffle = not self.data.shuffle

    def cycle_repeat(self) -> None:
        self.data.repeat = REPEAT[(REPEAT.index(self.data.repeat) + 1) % 3] \
            if self.data.repeat in REPEAT else "off"

    def toggle_like(self, title: str) -> None:
        t = track_by_title(self.data, title)
        if t is not None:
            self.data.tracks.update(t.id, liked=not t.liked)
            self.toast(self.t("Removed from Liked Songs" if t.liked else "Added to Liked Songs"))
        self.close_sheet()

    def toggle_follow(self, artist_id: int) -> None:
        a = self.data.artists.get(artist_id)
        if a is not None:
            self.data.artists.update(artist_id, followed=not a.followed)

    def enqueue(self, title: str) -> None:
        self.ui.queue = (*self.ui.queue, title)
        self.toast(self.t("Added to queue"))
        self.close_sheet()

    def open_sheet(self, title: str, playlist: int | None = None, index: int = -1) -> None:
        self.ui.sheet, self.ui.sheet_playlist, self.ui.sheet_index = title, playlist, index
        self.ui.dialog = ""

    def close_sheet(self) -> None:
        self.ui.sheet, self.ui.sheet_playlist, self.ui.sheet_index = "", None, -1
        if self.ui.dialog == "pick":
            self.ui.dialog = ""

    def close_dialog(self) -> None:
        self.ui.dialog = ""
        self.close_sheet()

    def add_to(self, playlist_id: int) -> None:
        title = self.ui.sheet
        if title:
            add_tracks(self.data, playlist_id, [title])
            p = self.data.playlists.get(playlist_id)
            self.toast(self.t("Added to {name}", name=p.name if p else self.t("playlist")))
        self.close_dialog()

    def new_playlist(self) -> None:
        name = self.ui.name.strip()
        if not name:
            return
        pending = self.ui.sheet
        p = create_playlist(self.data, name, [pending] if pending else [])
        self.close_dialog()
        self.ui.name = ""
        self.go("playlist", p.id)

    def rename(self, playlist_id: int) -> None:
        if self.ui.name.strip() and self.data.playlists.get(playlist_id) is not None:
            self.data.playlists.update(playlist_id, name=self.ui.name.strip())
        self.close_dialog()

    def delete_playlist(self, playlist_id: int) -> None:
        if self.data.playlists.get(playlist_id) is not None:
            self.data.playlists.remove(playlist_id)
            self.toast(self.t("Playlist deleted"))
        self.close_dialog()
        if self.route.name == "playlist":
            self.back()

    def sheet_remove(self) -> None:
        if self.ui.sheet_playlist is not None:
            remove_at(self.data, self.ui.sheet_playlist, self.ui.sheet_index)
        self.close_sheet()

    def sheet_move(self, delta: int) -> None:
        if self.ui.sheet_playlist is not None:
            move_at(self.data, self.ui.sheet_playlist, self.ui.sheet_index, delta)
        self.close_sheet()

    # --- pieces --------------------------------------------------------------------------
    def track_row(self, t: Track, rid: str, *, context: Sequence[str] = (),
                  playlist: int | None = None, index: int = -1, rank: str = "") -> Node:
        sub = f"{t.artist} · {t.album}" + (" · ♥" if t.liked else "")
        more = Icon("⋮", self.t("More options for {title}", title=t.title),
                    partial(self.open_sheet, t.title, playlist, index), id=f"more_{rid}")
        return ListItem(f"{rank}{t.title}", sub, id=rid, glyph="♪",
                        picture=pictures.encode("album", pictures.seed_of(t.album)),
                        on_click=partial(self.play, t.title, list(context) or [t.title]),
                        on_long_click=partial(self.open_sheet, t.title, playlist, index),
                        trailing=more)

    def sheet(self) -> Node | None:
        ui = self.ui
        t = track_by_title(self.data, ui.sheet)
        if t is None:
            return None
        if ui.dialog == "pick":
            rows = [SheetOption(p.name, partial(self.add_to, p.id), glyph="≡",
                                subtitle=self.t("{n} songs", n=len(p.tracks)), id=f"pick_{p.id}")
                    for p in self.data.playlists]
            rows.insert(0, SheetOption("New playlist", partial(self.set_ui, dialog="new"),
                                       glyph="+", id="pick_new"))
            return BottomSheet("Add to playlist", rows, id="pick_sheet")
        album = self.data.albums.first(title=t.album)
        artist = self.data.artists.first(name=t.artist)
        rows = [SheetOption("Remove from Liked Songs" if t.liked else "Like",
                            partial(self.toggle_like, t.title), glyph="♥", id="option_like"),
                SheetOption("Add to playlist", partial(self.set_ui, dialog="pick"), glyph="+",
                            id="option_add_to_playlist"),
                SheetOption("Add to queue", partial(self.enqueue, t.title), glyph="≡",
                            id="option_add_to_queue")]
        if album is not None:
            rows.append(SheetOption("Go to album", partial(self.open_page, "album", album.id),
                                    glyph="◎", id="option_go_to_album"))
        if artist is not None:
            rows.append(SheetOption("Go to artist",
                                    partial(self.open_page, "artist", artist.id), glyph="☺",
                                    id="option_go_to_artist"))
        if ui.sheet_playlist is not None:
            rows += [SheetOption("Remove from this playlist", self.sheet_remove, glyph="−",
                                 id="option_remove"),
                     SheetOption("Move up", partial(self.sheet_move, -1), glyph="↑",
                                 id="option_move_up"),
                     SheetOption("Move down", partial(self.sheet_move, 1), glyph="↓",
                                 id="option_move_down")]
        return BottomSheet(t.title, rows, body=[Text(f"{t.artist} · {t.album}",
                                                     id="sheet_subtitle")])

    def name_dialog(self, title: str, ok: str, on_ok: Callable[[], None]) -> Node:
        return Dialog(title, "", [DialogButton("Cancel", self.close_dialog),
                                  DialogButton(ok, on_ok, id="button_ok")],
                      body=[TextField(self.ui.name, self.set_ui_name, hint="Name",
                                      id="playlist_name", label="Playlist name")])

    def set_ui_name(self, value: str) -> None:
        self.ui.name = value

    def overlay(self, playlist_id: int | None = None) -> Node | None:
        """The dialog or sheet showing now, if any (the promo first)."""
        ui = self.ui
        if ui.dialog == "new":
            return self.name_dialog("Give your playlist a name", "Create", self.new_playlist)
        if ui.dialog == "rename" and playlist_id is not None:
            return self.name_dialog("Rename playlist", "Save",
                                    partial(self.rename, playlist_id))
        if ui.dialog == "delete" and playlist_id is not None:
            return ConfirmDialog("Delete playlist?", "This can't be undone.",
                                 on_confirm=partial(self.delete_playlist, playlist_id),
                                 on_cancel=self.close_dialog, confirm="Delete",
                                 destructive=True)
        if ui.sheet:
            return self.sheet()
        return None

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def podcasts(self) -> list[tuple[str, str]]:
        """The podcasts (name, about) in the phone's locale (catalogue words)."""
        return [(self.t(name), self.t(about)) for name, about in PODCASTS]

    def screen(self, route: Route) -> Screen:
        if route.name == "artist":
            return self.artist_page(route.arg)
        if route.name == "album":
            return self.album_page(route.arg)
        if route.name == "playlist":
            return self.playlist_page(route.arg)
        if route.name == "liked":
            return self.liked_page()
        if route.name == "player":
            return self.player()
        if route.name == "queue":
            return self.queue_page()
        if route.name == "add":
            return self.add_songs(route.arg)
        if route.name == "podcast":
            return self.podcast_page(route.arg)
        return self.main()

    def mini_player(self) -> Node | None:
        """The mini player docked above the bottom bar while a song is loaded."""
        t = track_by_title(self.data, self.ui.playing)
        if t is None:
            return None
        return MiniPlayer(t.title, t.artist, not self.ui.paused, self.toggle_pause,
                          on_open=partial(self.go, "player"),
                          picture=pictures.encode("album", pictures.seed_of(t.album)))

    def main(self) -> Screen:
        ui = self.ui
        if ui.tab == "Search":
            content = self.search_tab()
        elif ui.tab == "Your Library":
            content = self.library_tab()
        else:
            content = self.home_tab()
        dialog = self.overlay()
        if dialog is None and self.data.promo:
            dialog = Dialog("Try 1 month of Premium for €0", "Ad-free music, offline "
                            "listening and unlimited skips.",
                            [DialogButton("Not now", self.dismiss_promo, id="button_not_now"),
                             DialogButton("Try free", self.dismiss_promo,
                                          id="button_try_free")])
        bar = TabBar([Tab(t, t == ui.tab, partial(self.set_ui, tab=t), id=f"nav_{i}")
                      for i, t in enumerate(("Home", "Search", "Your Library"))])
        actions = [Icon("+", "Create playlist", partial(self.set_ui, dialog="new", name=""),
                        id="create_playlist")] if ui.tab == "Your Library" else []
        return Screen(top_bar=TopBar(ui.tab if ui.tab != "Home" else "Good morning",
                                     actions=actions),
                      content=content, dock=self.mini_player(), bottom=bar, dialog=dialog,
                      on_dismiss=self.dismiss_main)

    def dismiss_main(self) -> None:
        if self.ui.dialog or self.ui.sheet:
            self.close_dialog()
        else:
            self.dismiss_promo()

    def home_tab(self) -> list[Node]:
        rows: list[Node] = [Text("Jump back in", style="title", id="home_title")]
        for p in list(self.data.playlists)[:4]:
            rows.append(ListItem(p.name, self.t("Playlist · {n} songs", n=len(p.tracks)),
                                 glyph="≡", id=f"home_playlist_{p.id}",
                                 on_click=partial(self.go, "playlist", p.id)))
        for a in list(self.data.albums)[:4]:
            rows.append(ListItem(a.title, self.t("Album · {artist}", artist=a.artist), glyph="◎",
                                 picture=pictures.encode("album", pictures.seed_of(a.title)),
                                 id=f"home_album_{a.id}",
                                 on_click=partial(self.go, "album", a.id)))
        return rows

    def search_tab(self) -> list[Node]:
        ui = self.ui
        q = ui.query.strip().lower()
        chips = Chips(CATEGORIES, {ui.category}, lambda c: self.set_ui(category=c))
        build: object
        if ui.category == "Artists":
            artists = [a for a in self.data.artists if q in a.name.lower()]
            count = len(artists)

            def build(i: int) -> Node:
                a = artists[i]
                return ListItem(a.name, "Artist", glyph="☺", id=f"artist_{a.id}",
                                on_click=partial(self.go, "artist", a.id))
        elif ui.category == "Albums":
            albums = [a for a in self.data.albums
                      if q in a.title.lower() or q in a.artist.lower()]
            count = len(albums)

            def build(i: int) -> Node:
                a = albums[i]
                return ListItem(a.title, self.t("Album · {artist}", artist=a.artist), glyph="◎",
                                picture=pictures.encode("album", pictures.seed_of(a.title)),
                                id=f"album_{a.id}",
                                on_click=partial(self.go, "album", a.id))
        elif ui.category == "Playlists":
            lists = [p for p in self.data.playlists if q in p.name.lower()]
            count = len(lists)

            def build(i: int) -> Node:
                p = lists[i]
                return ListItem(p.name, "Playlist", glyph="≡", id=f"playlist_{p.id}",
                                on_click=partial(self.go, "playlist", p.id))
        elif ui.category == "Podcasts":
            shown_pods = self.podcasts()
            pods = [i for i, (n, _) in enumerate(shown_pods) if q in n.lower()]
            count = len(pods)

            def build(i: int) -> Node:
                name, about = shown_pods[pods[i]]
                return ListItem(name, self.t("Podcast · {about}", about=about), glyph="🎙",
                                id=f"podcast_{pods[i]}",
                                on_click=partial(self.go, "podcast", pods[i]))
        else:
            tracks = [t for t in self.data.tracks
                      if q in t.title.lower() or q in t.artist.lower()]
            count = len(tracks)
            titles = [t.title for t in tracks]

            def build(i: int) -> Node:
                return self.track_row(tracks[i], f"song_{tracks[i].id}", context=titles)
        return [chips, *SearchList(ui.query, lambda v: self.set_ui(query=v), count,
                                   build, id="results",  # type: ignore[arg-type]
                                   hint="What do you want to listen to?",
                                   empty_text="Search for music")]

    def library_tab(self) -> list[Node]:
        ui = self.ui
        chips = Chips(LIBRARY, {ui.library}, lambda c: self.set_ui(library=c))
        rows: list[Node] = []
        if ui.library == "Artists":
            for a in self.data.artists.where(followed=True):
                rows.append(ListItem(a.name, "Artist", glyph="☺", id=f"lib_artist_{a.id}",
                                     on_click=partial(self.go, "artist", a.id)))
        elif ui.library == "Downloaded":
            for t in self.data.tracks.where(downloaded=True):
                rows.append(self.track_row(t, f"lib_song_{t.id}"))
        else:
            liked = len(self.data.tracks.where(liked=True))
            rows.append(ListItem("Liked Songs", self.t("Playlist · {n} songs", n=liked), glyph="♥",
                                 id="liked_songs", on_click=partial(self.go, "liked")))
            for p in self.data.playlists:
                rows.append(ListItem(p.name, self.t("Playlist · {n} songs", n=len(p.tracks)),
                                     glyph="≡", id=f"lib_playlist_{p.id}",
                                     on_click=partial(self.go, "playlist", p.id)))
        return [chips, VirtualList(len(rows), lambda i: rows[i], id="library",
                                   empty_text="Nothing here yet")]

    def page(self, title: str, content: list[Node], *, actions: Sequence[Node] = (),
             dialog: Node | None = None, mini: bool = True) -> Screen:
        return Screen(top_bar=TopBar(title, on_back=self.back, actions=actions),
                      content=content, dock=self.mini_player() if mini else None,
                      dialog=dialog, on_dismiss=self.close_dialog)

    def artist_page(self, artist_id: int) -> Screen:
        a = self.data.artists.get(artist_id)
        if a is None:
            return self.page("Artist", [Text("Artist not found", id="missing")])
        content: list[Node] = [
            Text(a.name, style="title", id="artist_name"),
            Text(self.t("{n} monthly listeners", n=f"{a.listeners:,}"), style="caption",
                 id="listeners"),
            Button("Following" if a.followed else "Follow", partial(self.toggle_follow, a.id),
                   id="follow", style="secondary" if a.followed else "primary"),
            Text("Popular", style="title", id="popular_title")]
        top = top_tracks(self.data, a.name)
        titles = [t.title for t in top]
        for i, t in enumerate(top, 1):
            content.append(self.track_row(t, f"popular_{i}", context=titles, rank=f"{i}. "))
        content.append(Text("Albums", style="title", id="albums_title"))
        for al in self.data.albums.where(artist=a.name):
            content.append(ListItem(al.title, self.t("Album · {year}", year=al.year), glyph="◎",
                                    id=f"artist_album_{al.id}",
                                    on_click=partial(self.go, "album", al.id)))
        return self.page(a.name, content, dialog=self.overlay())

    def album_page(self, album_id: int) -> Screen:
        al = self.data.albums.get(album_id)
        if al is None:
            return self.page("Album", [Text("Album not found", id="missing")])
        artist = self.data.artists.first(name=al.artist)
        tracks = self.data.tracks.where(album=al.title)
        titles = [t.title for t in tracks]
        content: list[Node] = [
            Text(al.title, style="title", id="album_title"),
            ListItem(al.artist, "Artist", glyph="☺", id="album_artist",
                     on_click=partial(self.go, "artist", artist.id) if artist else None),
            Text(self.t("Album · {year} · {n} songs", year=al.year, n=len(tracks)),
                 style="caption", id="album_info")]
        for t in tracks:
            heart = Icon("♥" if t.liked else "♡",
                         self.t("Remove {title} from Liked Songs" if t.liked else "Like {title}",
                                title=t.title),
                         partial(self.toggle_like, t.title), id=f"like_{t.id}")
            content.append(ListItem(t.title, f"{t.artist} · {mmss(t.seconds)}",
                                    id=f"track_{t.id}",
                                    glyph="♪", on_click=partial(self.play, t.title, titles),
                                    on_long_click=partial(self.open_sheet, t.title),
                                    trailing=heart))
        return self.page(al.title, content, dialog=self.overlay())

    def playlist_page(self, playlist_id: int) -> Screen:
        p = self.data.playlists.get(playlist_id)
        if p is None:
            return self.page("Playlist", [Text("Playlist not found", id="missing")])
        secs = total_seconds(self.data, p.tracks)
        content: list[Node] = [
            Text(p.name, style="title", id="playlist_title"),
            Text(self.t("{n} songs · {total}", n=len(p.tracks),
                        total=total_text(secs, self.system.locale)), style="caption",
                 id="playlist_info"),
            Button("Add songs", partial(self.go, "add", p.id), id="add_songs",
                   style="secondary")]
        for i, title in enumerate(p.tracks):
            t = track_by_title(self.data, title)
            if t is not None:
                content.append(self.track_row(t, f"item_{i}", context=p.tracks,
                                              playlist=p.id, index=i))
        actions = [Icon("✎", "Rename playlist", partial(self.set_ui, dialog="rename",
                                                        name=p.name), id="rename"),
                   Icon("🗑", "Delete playlist", partial(self.set_ui, dialog="delete"),
                        id="delete")]
        return self.page(p.name, content, actions=actions, dialog=self.overlay(p.id))

    def add_songs(self, playlist_id: int) -> Screen:
        p = self.data.playlists.get(playlist_id)
        q = self.ui.add_query.strip().lower()
        tracks = [t for t in self.data.tracks
                  if q and (q in t.title.lower() or q in t.artist.lower())]

        def build(i: int) -> Node:
            t = tracks[i]
            add = Icon("+", self.t("Add {title}", title=t.title),
                       partial(add_tracks, self.data, playlist_id, [t.title]), id=f"add_{t.id}")
            return ListItem(t.title, f"{t.artist} · {t.album}", glyph="♪", id=f"found_{t.id}",
                            trailing=add)
        info = (self.t("{n} songs in {name}", n=len(p.tracks), name=p.name) if p
                else "Playlist not found")
        return self.page("Add to this playlist", [
            Text(info, style="caption", id="add_info"),
            *SearchList(self.ui.add_query, lambda v: self.set_ui(add_query=v), len(tracks),
                        build, id="found", search_id="add_search", hint="Search songs",
                        empty_text="Search for songs to add")])

    def liked_page(self) -> Screen:
        liked = self.data.tracks.where(liked=True)
        titles = [t.title for t in liked]
        return self.page("Liked Songs", [
            Text(self.t("{n} songs", n=len(liked)), style="caption", id="liked_info"),
            VirtualList(len(liked), lambda i: self.track_row(liked[i], f"liked_{liked[i].id}",
                                                             context=titles),
                        id="liked", empty_text="Songs you like will appear here")],
            dialog=self.overlay())

    def podcast_page(self, index: int) -> Screen:
        name, about = self.podcasts()[index % len(PODCASTS)]
        return self.page(name, [Text(name, style="title", id="podcast_title"),
                                Text(about, id="podcast_about"),
                                Button("Follow",
                                       lambda: self.toast(self.t("Sign in to follow shows")),
                                       id="podcast_follow", style="secondary")])

    def player(self) -> Screen:
        t = track_by_title(self.data, self.ui.playing)
        if t is None:
            return self.page("Now playing", [Text("Nothing playing", id="missing")])
        return self.page("Now playing", [
            CoverArt(pictures.encode("album", pictures.seed_of(t.album)),
                     desc=self.t("Album art of {album}", album=t.album)),
            Text(t.title, style="title", id="player_title"),
            Text(t.artist, id="player_artist"),
            SeekBar(self.position(), t.seconds, self.seek, id="player_position"),
            PlayerControls(not self.ui.paused, self.toggle_pause,
                           on_previous=partial(self.seek, 0),
                           on_next=self.next_track if self.ui.queue else None),
            Button(self.t("Shuffle: {state}", state=self.t("on" if self.data.shuffle else "off")),
                   self.toggle_shuffle,
                   id="shuffle", style="secondary"),
            Button(self.t("Repeat: {mode}", mode=self.t(f"repeat {self.data.repeat}")
                          if self.system.locale != DEFAULT_LOCALE else self.data.repeat),
                   self.cycle_repeat, id="repeat",
                   style="secondary"),
            Button("Unlike" if t.liked else "Like", partial(self.toggle_like, t.title),
                   id="player_like", style="secondary"),
            Button("Queue", partial(self.go, "queue"), id="open_queue", style="secondary")],
            mini=False)

    def queue_page(self) -> Screen:
        q = self.ui.queue
        return self.page("Queue", [
            Text(self.t("Now playing: {title}", title=self.ui.playing or self.t("nothing")),
                 id="queue_now"),
            VirtualList(len(q), lambda i: ListItem(q[i], "Next in queue", glyph="♪",
                                                   id=f"queue_{i}"),
                        id="queue", empty_text="Your queue is empty")])
