"""Audio Recorder: a record button, pause and stop while recording, and the list of records
with rename and delete.

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

from ...world.app import App, Route
from ...world.data import Table
from ...world.kit import ConfirmDialog, Tabs
from ...world.system import File
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: Where recordings are saved.
RECORDINGS_DIR = "/sdcard/Recordings"
EXT = ".m4a"
TABS = ("Record", "Records")


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
    """Transient: the tab, the recording in progress (its start, seconds banked before a
    pause, paused or not), the last saved record, and the open dialog's record and text."""

    tab: str = "Record"
    started: datetime | None = None
    banked: int = 0
    paused: bool = False
    saved: str | None = None
    renaming: str | None = None
    new_name: str = ""
    deleting: str | None = None


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
        return self.ui.started is not None

    def elapsed(self) -> int:
        ui = self.ui
        running = 0
        if ui.started is not None:
            running = int((self.system.now - ui.started).total_seconds())
        return ui.banked + max(0, running)

    # updates (``App.stop`` is the force-stop: the recorder's stop is ``stop_recording``)
    def set_tab(self, tab: str) -> None:
        self.ui.tab = tab

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
        self.toast("Recording saved")

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
            self.toast(error)
            return
        if self.ui.saved == path:
            self.ui.saved = f"{RECORDINGS_DIR}/{stem}{EXT}"
        self.ui.renaming = None
        self.toast("Renamed")

    def ask_delete(self, path: str | None) -> None:
        self.ui.deleting = path

    def confirm_delete(self) -> None:
        path = self.ui.deleting
        if path is not None and self.files.get(path) is not None:
            self.files.remove(path)
            if self.ui.saved == path:
                self.ui.saved = None
            self.toast("Record deleted")
        self.ui.deleting = None

    def close_dialogs(self) -> None:
        self.ui.renaming = self.ui.deleting = None

    # views
    def view(self, route: Route) -> Screen:
        ui = self.ui
        content: list[Node] = [Tabs(TABS, ui.tab, self.set_tab)]
        content += self.recorder() if ui.tab == "Record" else [self.record_list()]
        return Screen(top_bar=TopBar("Audio Recorder"), content=content,
                      dialog=self.dialog(), on_dismiss=self.close_dialogs)

    def recorder(self) -> list[Node]:
        ui = self.ui
        out: list[Node] = [Text(clock_text(self.elapsed()), style="big", id="txt_duration")]
        if ui.started is not None:
            out += [Text("Recording…", style="caption", id="txt_status"),
                    Button("Pause", self.pause, id="btn_pause", style="secondary"),
                    Button("Stop", self.stop_recording, id="btn_stop", style="danger")]
        elif ui.paused:
            out += [Text("Paused", style="caption", id="txt_status"),
                    Button("Resume", self.record, id="btn_record"),
                    Button("Stop", self.stop_recording, id="btn_stop", style="danger")]
        else:
            out.append(Button("Record", self.record, id="btn_record"))
            saved = self.files.get(ui.saved) if ui.saved else None
            if saved is not None:
                out += [Text(f"Saved: {saved.name}", id="txt_saved"),
                        Button("Rename", lambda: self.ask_rename(saved.path), id="btn_rename",
                               style="secondary")]
        return out

    def record_item(self, f: File) -> Node:
        duration = re.search(r"duration (\d+:\d\d)", f.content)
        return ListItem(f.name, duration[1] if duration else "", id=f"record_{f.name}",
                        glyph="🎙", on_click=lambda: self.toast(f"Playing {f.name}"),
                        menu=[("Rename", lambda: self.ask_rename(f.path)),
                              ("Delete", lambda: self.ask_delete(f.path))])

    def record_list(self) -> Node:
        shown = records(self.files)
        return VirtualList(len(shown), lambda i: self.record_item(shown[i]), id="records",
                           empty_text="No records yet")

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
            return ConfirmDialog("Delete record?", f"{name} will be deleted.",
                                 on_confirm=self.confirm_delete,
                                 on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                                 destructive=True)
        return None
