"""VLC: the videos on the phone, a player, and playlists.

Videos are files in shared storage (``/sdcard/Movies/*.mp4``, the system's ``files``
store) whose text holds their length and frames (``duration: m:ss`` and ``frames: a|b|c``,
see ``video_file``). The player shows one frame at a time as a ``kit.Picture`` (drawn into
the screenshot, not in the accessibility tree), so an agent reads what a video shows from
the pixels: frame ``i`` shows at position ``i`` seconds; play moves on one frame per second
of phone time (every action takes a second, ``wait`` lets more pass), and next, previous
and the seek bar move by hand. The player opens paused on the first frame (an action
takes a second: a player that started at once would already show the second frame).

Playlists are the app's own data (``VlcData``, as VLC keeps them in its media database):
verifiers read ``apps.VLC.playlists`` (name and ordered file names). A long press on a
video starts a selection, taps add to it in tap order, and "Add to playlist" puts the
selection into a new playlist (named in the dialog) or an existing one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomNav,
    ConfirmDialog,
    MiniPlayer,
    Picture,
    PlayerControls,
    SeekBar,
    VideoRow,
    video_row_height,
)
from ...world.kit.localize import in_locale
from ...world.system import File
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Screen,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

MOVIES_DIR = "/sdcard/Movies"
TABS = ("Video", "Playlists")
#: The bottom bar's icons (VLC's video and playlist icons).
TAB_ICONS = ("movie", "playlist_play")


@dataclass(frozen=True)
class Video:
    path: str
    name: str
    seconds: int
    frames: tuple[str, ...]


def parse_video(f: File) -> Video:
    tags = dict(re.findall(r"^(\w+):[ \t]*(.*)$", f.content, re.M))
    minutes, _, secs = tags.get("duration", "0:00").partition(":")
    seconds = int(minutes) * 60 + int(secs) if minutes.isdigit() and secs.isdigit() else 0
    frames = tuple(w for w in tags.get("frames", "").split("|") if w)
    return Video(f.path, f.name, seconds, frames)


def video_file(name: str, seconds: int, frames: Sequence[str] = ()) -> tuple[str, str]:
    """The path and text of a video file (``frames``: the words its frames show, one a
    second; none: a plain scene)."""
    text = f"duration: {seconds // 60}:{seconds % 60:02d}\nformat: H.264 1280x720"
    if frames:
        text += "\nframes: " + "|".join(frames)
    return f"{MOVIES_DIR}/{name}", text


def videos_of(files: Table[File]) -> list[Video]:
    found = [parse_video(f) for f in files
             if f.folder == MOVIES_DIR and posixpath.splitext(f.name)[1].lower()
             in (".mp4", ".mkv", ".webm", ".3gp")]
    return sorted(found, key=lambda v: v.name.lower())


def length_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class VlcPlaylist:
    id: int
    name: str
    media: tuple[str, ...] = ()


@dataclass
class VlcData(Store):
    """Playlists: names and the file names of their videos, in order."""

    playlists: Table[VlcPlaylist] = field(default_factory=lambda: Table(kind=VlcPlaylist))


def find_playlist(data: VlcData, name: str) -> VlcPlaylist | None:
    return next((p for p in data.playlists if p.name.lower() == name.strip().lower()), None)


def create_playlist(data: VlcData, name: str, media: Sequence[str] = ()) -> VlcPlaylist | None:
    """A new playlist; None when the name is blank or taken (ignoring case)."""
    name = name.strip()
    if not name or find_playlist(data, name) is not None:
        return None
    return data.playlists.new(name=name, media=tuple(media))


def move_entry(data: VlcData, playlist_id: int, index: int, delta: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is None or not 0 <= index < len(p.media) or not 0 <= index + delta < len(p.media):
        return
    media = list(p.media)
    media[index], media[index + delta] = media[index + delta], media[index]
    data.playlists.update(playlist_id, media=tuple(media))


def remove_entry(data: VlcData, playlist_id: int, index: int) -> None:
    p = data.playlists.get(playlist_id)
    if p is not None and 0 <= index < len(p.media):
        data.playlists.update(playlist_id, media=p.media[:index] + p.media[index + 1:])


@dataclass
class VlcUi:
    """The tab, the selection (file names in tap order), the open dialog, and the player:
    the video loaded (its path; "" when none), the frame shown, and since when it plays
    (None: paused). Back from the player keeps the video loaded and playing, shown in the
    mini player, as VLC does; Close stops it."""

    tab: str = "Video"
    selecting: bool = False
    selection: tuple[str, ...] = ()
    dialog: str = ""  # "", "add", "delete"
    new_name: str = ""
    frame: int = 0
    playing_since: datetime | None = None
    current: str = ""


class VlcApp(App):
    manifest = MANIFEST

    data: VlcData
    ui: VlcUi

    def initial_data(self) -> VlcData:
        return VlcData()

    def initial_ui(self) -> VlcUi:
        return VlcUi()

    @property
    def ticking(self) -> bool:
        return self.ui.playing_since is not None

    def videos(self) -> list[Video]:
        return videos_of(self.system.files)

    # --- updates -------------------------------------------------------------------------------
    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab
        self.end_selection()

    def tap_video(self, v: Video) -> None:
        ui = self.ui
        if not ui.selecting:
            self.open_player(v.path)
        elif v.name in ui.selection:
            ui.selection = tuple(n for n in ui.selection if n != v.name)
            ui.selecting = bool(ui.selection)
        else:
            ui.selection = (*ui.selection, v.name)

    def start_selection(self, v: Video) -> None:
        if not self.ui.selecting:
            self.ui.selecting, self.ui.selection = True, (v.name,)
        else:
            self.tap_video(v)

    def end_selection(self) -> None:
        self.ui.selecting, self.ui.selection = False, ()

    def ask_add(self) -> None:
        if self.ui.selection:
            self.ui.dialog, self.ui.new_name = "add", ""

    def set_new_name(self, text: str) -> None:
        self.ui.new_name = text

    def close_dialog(self) -> None:
        self.ui.dialog = ""

    def confirm_new(self) -> None:
        created = create_playlist(self.data, self.ui.new_name, self.ui.selection)
        if created is None:
            self.toast(self.t("Enter a name" if not self.ui.new_name.strip()
                              else "A playlist with that name exists"))
            return
        self.toast(self.t("Added to {playlist}", playlist=created.name))
        self.close_dialog()
        self.end_selection()

    def add_to(self, playlist_id: int) -> None:
        p = self.data.playlists.get(playlist_id)
        if p is not None:
            self.data.playlists.update(playlist_id, media=p.media + self.ui.selection)
            self.toast(self.t("Added to {playlist}", playlist=p.name))
        self.close_dialog()
        self.end_selection()

    def delete_playlist(self, playlist_id: int) -> None:
        self.data.playlists.remove(playlist_id)
        self.close_dialog()
        if self.route.name == "playlist":
            self.back()

    def on_back(self) -> bool:
        if self.ui.selecting:
            self.end_selection()
            return True
        return False

    # the player
    def open_player(self, path: str) -> None:
        if path != self.ui.current:  # another video: from its start, paused
            self.ui.frame, self.ui.playing_since = 0, None
        self.ui.current = path
        self.go("player", path)

    def position(self, v: Video) -> int:
        """The second (and frame) shown now."""
        ui = self.ui
        pos = ui.frame
        if ui.playing_since is not None:
            pos += int((self.system.now - ui.playing_since).total_seconds())
        return max(0, min(pos, max(0, v.seconds - 1)))

    def seek(self, v: Video, position: int) -> None:
        self.ui.frame = max(0, min(position, max(0, v.seconds - 1)))
        if self.ui.playing_since is not None:
            self.ui.playing_since = self.system.now

    def toggle_play(self, v: Video) -> None:
        if self.ui.playing_since is None:
            self.ui.playing_since = self.system.now
        else:
            self.ui.frame, self.ui.playing_since = self.position(v), None

    def close_player(self) -> None:
        """Stop playback and leave the player (its Close button)."""
        self.ui.playing_since, self.ui.current = None, ""
        self.back()

    def mini_player(self) -> Node | None:
        """The mini player at the bottom while a video is loaded (playing or paused)."""
        f = self.system.files.get(self.ui.current) if self.ui.current else None
        if f is None:
            return None
        v = parse_video(f)
        return MiniPlayer(v.name, length_text(v.seconds), self.ui.playing_since is not None,
                          lambda: self.toggle_play(v),
                          on_open=lambda: self.open_player(self.ui.current),
                          picture=pictures.encode("video", pictures.seed_of(v.name)))

    # --- views ---------------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.vlc_view(route)
        return in_locale(self, screen)

    def vlc_view(self, route: Route) -> Screen:
        if route.name == "player":
            f = self.system.files.get(route.arg)
            if f is not None:
                return self.player(parse_video(f))
        if route.name == "playlist" and self.data.playlists.get(route.arg) is not None:
            return self.playlist_screen(route.arg)
        ui = self.ui
        content: list[Node] = []
        actions: list[Node] = []
        if ui.tab == "Video":
            videos = self.videos()
            content.append(VirtualList(len(videos), lambda i: self.video_item(videos[i]),
                                       id="videos", empty_text="No videos",
                                       row_height=video_row_height("side")))
            if ui.selecting:
                actions = [Icon("+", "Add to playlist", self.ask_add, id="action_add_to_playlist"),
                           Icon("×", "Clear selection", self.end_selection, id="action_clear")]
        else:
            content.append(self.playlist_list())
        title = self.t("{n} selected", n=len(ui.selection)) if ui.selecting else ui.tab
        return Screen(top_bar=TopBar(title, actions=actions), content=content,
                      dock=self.mini_player(),
                      bottom=BottomNav(TABS, TAB_ICONS, ui.tab, self.set_tab),
                      dialog=self.add_dialog() if ui.dialog == "add" else None,
                      on_dismiss=self.close_dialog, on_back=self.on_back)

    def video_item(self, v: Video) -> Node:
        """A video: its 16:9 thumbnail left of its name and length; a check over the
        thumbnail when picked."""
        picked = v.name in self.ui.selection
        return VideoRow(v.name, length_text(v.seconds), id=f"video_{v.name}",
                        picture=pictures.encode("video", pictures.seed_of(v.name)),
                        on_click=lambda: self.tap_video(v),
                        on_long_click=lambda: self.start_selection(v), selected=picked)

    def playlist_list(self) -> Node:
        items = sorted(self.data.playlists, key=lambda p: p.name.lower())

        def build(i: int) -> Node:
            p = items[i]
            return ListItem(p.name, self.t("{n} videos", n=len(p.media)), id=f"playlist_{p.id}",
                            glyph="≡", on_click=lambda: self.go("playlist", p.id))
        return VirtualList(len(items), build, id="playlists", empty_text="No playlists")

    def add_dialog(self) -> Node:
        rows: list[Node] = [
            TextField(self.ui.new_name, self.set_new_name, id="playlist_name",
                      label="New playlist", hint="New playlist name"),
        ]
        for p in sorted(self.data.playlists, key=lambda p: p.name.lower()):
            rows.append(ListItem(p.name, self.t("{n} videos", n=len(p.media)), id=f"pick_{p.id}",
                                 glyph="≡", on_click=partial(self.add_to, p.id)))
        return Dialog("Add to playlist", "", [
            DialogButton("Cancel", self.close_dialog),
            DialogButton("Create", self.confirm_new, id="button_create"),
        ], body=rows)

    def playlist_screen(self, playlist_id: int) -> Screen:
        p = self.data.playlists.get(playlist_id)
        assert p is not None
        paths = {v.name: v.path for v in self.videos()}

        def build(i: int) -> Node:
            name = p.media[i]
            return ListItem(name, "", id=f"entry_{i}", glyph=str(i + 1),
                            on_click=lambda: self.open_player(paths[name])
                            if name in paths else self.toast(self.t("File not found")),
                            menu=[(self.t("Move up"), lambda: move_entry(self.data, p.id, i, -1)),
                                  (self.t("Move down"), lambda: move_entry(self.data, p.id, i, 1)),
                                  (self.t("Remove"), lambda: remove_entry(self.data, p.id, i))])
        dialog = None
        if self.ui.dialog == "delete":
            dialog = ConfirmDialog("Delete playlist?",
                                   self.t("{name} will be deleted.", name=p.name),
                                   on_confirm=lambda: self.delete_playlist(p.id),
                                   on_cancel=self.close_dialog, confirm="Delete",
                                   destructive=True)
        return Screen(
            top_bar=TopBar(p.name, on_back=self.back, actions=[
                Icon("🗑", "Delete playlist", lambda: setattr(self.ui, "dialog", "delete"),
                     id="action_delete")]),
            content=[VirtualList(len(p.media), build, id="entries",
                                 empty_text="This playlist is empty")],
            dialog=dialog, on_dismiss=self.close_dialog)

    def player(self, v: Video) -> Screen:
        pos = self.position(v)
        frame = v.frames[pos] if pos < len(v.frames) else ""
        playing = self.ui.playing_since is not None
        return Screen(
            top_bar=TopBar(v.name, on_back=self.close_player),
            content=[
                Picture([frame] if frame else [], desc=self.t("Video frame of {name}", name=v.name),
                        id="video_frame", color=(20, 20, 24) if not frame else (250, 246, 236)),
                SeekBar(pos, max(1, v.seconds - 1), lambda x: self.seek(v, x), id="seek_bar",
                        label="Seek"),
                PlayerControls(playing, lambda: self.toggle_play(v),
                               on_previous=lambda: self.seek(v, pos - 1),
                               on_next=lambda: self.seek(v, pos + 1),
                               previous=("prev_frame", "Previous frame"),
                               next=("next_frame", "Next frame")),
                Button("Close", self.close_player, id="close_player", style="secondary"),
            ],
            on_back=self.back_from_player)

    def back_from_player(self) -> bool:
        """Back leaves the player and keeps the video playing (the mini player shows it)."""
        self.back()
        return True
