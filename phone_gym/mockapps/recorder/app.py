"""Audio Recorder (Dimowner's): a big round record button at the bottom centre, the elapsed
time and a waveform while recording, pause (the same button) and stop; the records list
(the button left of it) with play controls and a docked player, rename and delete.

Recordings are files in shared storage (``/sdcard/Recordings/<name>.m4a``, the system's
``files`` store), described in text (``AAC audio, duration 0:05``). Time does not pass by
itself in PhoneWorld: every action takes a second and ``wait`` lets more pass, so a
recording lasts from the press of the record button to the press of stop (paused time
left out), at least one second. Stopping saves the recording at once under the next free
``Record-<n>`` name and offers to rename it, as the real app's "saved" panel does. What is
being recorded is transient (a force-stop drops it, as a killed recorder service would).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Table
from ...world.kit import ConfirmDialog
from ...world.kit.common import weighted
from ...world.kit.localize import in_locale
from ...world.kit.media import MiniPlayer, RoundButton, SeekBar, Waveform
from ...world.system import File
from ...world.widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Spacer,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: Where recordings are saved.
RECORDINGS_DIR = "/sdcard/Recordings"
EXT = ".m4a"


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def records(files: Table[File]) -> list[File]:
    """The recordings, by name."""
    return sorted((f for f in files if f.folder == RECORDINGS_DIR and f.name.endswith(EXT)),
                  key=lambda f: f.name.lower())


def next_default_name(files: Table[File]) -> str:
    """``Record-<n>``: one more than the highest number used."""
    used = [int(m[1]) for f in records(files)
            if (m := re.fullmatch(r"Record-(\d+)\.m4a", f.name))]
    return f"Record-{max(used, default=0) + 1}"


def duration_of(f: File) -> int:
    """A recording's length in seconds, from its description (0 when it gives none)."""
    m = re.search(r"duration (\d+):(\d\d)", f.content)
    return int(m[1]) * 60 + int(m[2]) if m else 0


def clean_name(text: str) -> str:
    """A typed name as a file stem: trimmed, without a typed ``.m4a``, no slashes."""
    stem = text.strip().replace("/", "_")
    if stem.lower().endswith(EXT):
        stem = stem[: -len(EXT)].rstrip()
    return stem


def save_recording(files: Table[File], stem: str, seconds: int, when: datetime) -> File:
    content = (f"AAC audio (m4a), 44.1 kHz mono, duration {clock_text(seconds)}, "
               f"recorded {when:%Y-%m-%d %H:%M:%S}")
    return files.put(File(f"{RECORDINGS_DIR}/{stem}{EXT}", content, "audio/mp4"))


def rename_recording(files: Table[File], path: str, stem: str) -> str | None:
    """Rename the recording at ``path`` to ``stem``.m4a; None when done, else why not."""
    old = files.get(path)
    if old is None:
        return "Recording not found"
    if not stem:
        return "Enter a name"
    new_path = f"{RECORDINGS_DIR}/{stem}{EXT}"
    if new_path == path:
        return None
    if files.get(new_path) is not None:
        return "A record with this name exists"
    files.remove(path)
    files.put(File(new_path, old.content, old.mime))
    return None


@dataclass
class RecorderUi:
    """Transient: the recording in progress (its start, seconds banked before a pause,
    paused or not), the last saved record, the open dialog's record and text, and the
    record being played (its path, when playback started or None when paused, seconds
    played before)."""

    started: datetime | None = None
    banked: int = 0
    paused: bool = False
    saved: str | None = None
    renaming: str | None = None
    new_name: str = ""
    deleting: str | None = None
    playing: str | None = None
    play_started: datetime | None = None
    play_banked: int = 0


class RecorderApp(App):
    manifest = MANIFEST

    ui: RecorderUi

    def initial_ui(self) -> RecorderUi:
        return RecorderUi()

    @property
    def files(self) -> Table[File]:
        return self.system.files

    @property
    def recording(self) -> bool:
        return self.ui.started is not None or self.ui.paused

    @property
    def ticking(self) -> bool:
        return self.ui.started is not None or self.ui.play_started is not None

    def elapsed(self) -> int:
        ui = self.ui
        running = 0
        if ui.started is not None:
            running = int((self.system.now - ui.started).total_seconds())
        return ui.banked + max(0, running)

    def played(self) -> int:
        """Seconds of the record being played that have played (up to its length)."""
        ui = self.ui
        f = self.files.get(ui.playing) if ui.playing else None
        if f is None:
            return 0
        running = 0
        if ui.play_started is not None:
            running = int((self.system.now - ui.play_started).total_seconds())
        return min(duration_of(f), ui.play_banked + max(0, running))

    # updates (``App.stop`` is the force-stop: the recorder's stop is ``stop_recording``)
    def toggle_play(self, path: str) -> None:
        """Play ``path`` (from where it was, or from the start when another one or the end),
        or pause it when it is playing."""
        ui = self.ui
        f = self.files.get(path)
        if f is None:
            return
        if ui.playing == path and ui.play_started is not None and self.played() < duration_of(f):
            ui.play_banked, ui.play_started = self.played(), None
            return
        if ui.playing != path or self.played() >= duration_of(f):
            ui.playing, ui.play_banked = path, 0
        ui.play_started = self.system.now

    def seek(self, seconds: int) -> None:
        ui = self.ui
        ui.play_banked = max(0, seconds)
        if ui.play_started is not None:
            ui.play_started = self.system.now

    def record(self) -> None:
        """Start, or resume after a pause."""
        self.ui.started, self.ui.paused, self.ui.saved = self.system.now, False, None

    def pause(self) -> None:
        if self.ui.started is not None:
            self.ui.banked, self.ui.started, self.ui.paused = self.elapsed(), None, True

    def stop_recording(self) -> None:
        if not self.recording:
            return
        seconds = max(1, self.elapsed())
        saved = save_recording(self.files, next_default_name(self.files), seconds,
                               self.system.now)
        self.ui.started, self.ui.banked, self.ui.paused = None, 0, False
        self.ui.saved = saved.path
        self.toast(self.t("Recording saved"))

    def ask_rename(self, path: str | None) -> None:
        self.ui.renaming = path
        self.ui.new_name = path.rsplit("/", 1)[-1][: -len(EXT)] if path else ""

    def set_new_name(self, text: str) -> None:
        self.ui.new_name = text

    def confirm_rename(self) -> None:
        path = self.ui.renaming
        if path is None:
            return
        stem = clean_name(self.ui.new_name)
        error = rename_recording(self.files, path, stem)
        if error is not None:
            self.toast(self.t(error))
            return
        if self.ui.saved == path:
            self.ui.saved = f"{RECORDINGS_DIR}/{stem}{EXT}"
        if self.ui.playing == path:
            self.ui.playing = f"{RECORDINGS_DIR}/{stem}{EXT}"
        self.ui.renaming = None
        self.toast(self.t("Renamed"))

    def ask_delete(self, path: str | None) -> None:
        self.ui.deleting = path

    def confirm_delete(self) -> None:
        path = self.ui.deleting
        if path is not None and self.files.get(path) is not None:
            self.files.remove(path)
            if self.ui.saved == path:
                self.ui.saved = None
            if self.ui.playing == path:
                self.ui.playing, self.ui.play_started = None, None
            self.toast(self.t("Record deleted"))
        self.ui.deleting = None

    def close_dialogs(self) -> None:
        self.ui.renaming = self.ui.deleting = None

    # views
    def view(self, route: Route) -> Screen:
        """The screen for ``route``, its fixed strings in the phone's locale."""
        screen = self.records_screen() if route.name == "records" else self.recorder_screen()
        return in_locale(self, screen)

    def recorder_screen(self) -> Screen:
        """The recorder: the waveform and time over the record panel."""
        return Screen(top_bar=TopBar("Audio Recorder", actions=[
            Icon("settings", "Settings", lambda: self.toast(self.t("No settings")),
                 id="btn_settings")]),
            content=self.recorder(), dock=self.controls(), dialog=self.dialog(),
            on_dismiss=self.close_dialogs)

    def recorder(self) -> list[Node]:
        """The waveform, the elapsed time under it, the state, the saved record's panel."""
        ui = self.ui
        live = ui.started is not None
        seed = pictures.seed_of(f"{ui.started or ui.saved or ''}")
        timer = Text(clock_text(self.elapsed()), style="timer", id="txt_duration")
        timer.height = 190
        out: list[Node] = [Waveform(seed, self.elapsed() if self.recording else 0, live=live),
                           timer]
        if live:
            out.append(Text("Recording…", style="caption", id="txt_status"))
        elif ui.paused:
            out.append(Text("Paused", style="caption", id="txt_status"))
        else:
            saved = self.files.get(ui.saved) if ui.saved else None
            if saved is not None:
                out += [Text(self.t("Saved: {name}", name=saved.name), id="txt_saved"),
                        Button("Rename", lambda: self.ask_rename(saved.path), id="btn_rename",
                               style="secondary")]
        return out

    def controls(self) -> Node:
        """The bottom panel: the records list, the big record (or pause) button, stop."""
        ui = self.ui
        if ui.started is not None:
            main = RoundButton("Pause", "pause", self.pause, id="btn_pause", size="big")
        else:
            main = RoundButton("Resume" if ui.paused else "Record", "mic", self.record,
                               id="btn_record", size="big")
        listing = RoundButton("Records", "list", lambda: self.go("records"),
                              id="btn_records_list")
        listing.enabled = not self.recording
        stop: Node = (RoundButton("Stop", "stop", self.stop_recording, id="btn_stop")
                      if self.recording else Spacer(1))
        return Column([Row([weighted(listing, 0.3), weighted(main, 0.4), weighted(stop, 0.3)],
                           id="record_panel"), Spacer(24)], id="controls")

    def record_item(self, f: File) -> Node:
        ui = self.ui
        playing = ui.playing == f.path and ui.play_started is not None \
            and self.played() < duration_of(f)
        duration = re.search(r"duration (\d+:\d\d)", f.content)
        play = Icon("pause" if playing else "play_arrow", "Pause" if playing else "Play",
                    lambda: self.toggle_play(f.path), id=f"play_{f.name}")
        item = ListItem(f.name, duration[1] if duration else "", id=f"record_{f.name}",
                        glyph="mic", on_click=lambda: self.toggle_play(f.path), trailing=play,
                        menu=[(self.t("Rename"), lambda: self.ask_rename(f.path)),
                              (self.t("Delete"), lambda: self.ask_delete(f.path))])
        item.selected = ui.playing == f.path
        return item

    def records_screen(self) -> Screen:
        """The records, each with a play button; the one played docked at the bottom with
        its seek bar."""
        shown = records(self.files)
        ui = self.ui
        f = self.files.get(ui.playing) if ui.playing else None
        dock = None
        if f is not None:
            pos, total = self.played(), duration_of(f)
            playing = ui.play_started is not None and pos < total
            dock = Column([SeekBar(pos, total, self.seek),
                           MiniPlayer(f.name, clock_text(total), playing,
                                      lambda: self.toggle_play(f.path), glyph="mic")],
                          id="player")
        return Screen(top_bar=TopBar("Records", on_back=self.back),
                      content=[VirtualList(len(shown), lambda i: self.record_item(shown[i]),
                                           id="records", empty_text="No records yet")],
                      dock=dock, dialog=self.dialog(), on_dismiss=self.close_dialogs)

    def dialog(self) -> Node | None:
        ui = self.ui
        if ui.renaming is not None:
            return Dialog("Rename record", "", [
                DialogButton("Cancel", lambda: self.ask_rename(None)),
                DialogButton("OK", self.confirm_rename, id="button_ok"),
            ], body=[TextField(ui.new_name, self.set_new_name, id="rename_field",
                               label="Name", hint="Record name")])
        if ui.deleting is not None:
            name = ui.deleting.rsplit("/", 1)[-1]
            return ConfirmDialog("Delete record?", self.t("{name} will be deleted.", name=name),
                                 on_confirm=self.confirm_delete,
                                 on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                                 destructive=True)
        return None
