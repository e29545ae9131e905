"""A table's mark and rewind, and a task's prefill put back at each reset (issue 29)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from phone_gym.tasks.task import Episode, Task
from phone_gym.verifiers.diff import diff
from phone_gym.world.data import Table
from phone_gym.world.device import Device
from phone_gym.world.system import File, Message, file_folder, file_order


def test_rewind_restores_records_order_and_indexes() -> None:
    files: Table[File] = Table(kind=File, key="path")
    for i in range(40):
        files.put(File(f"/sdcard/{('Download', 'DCIM')[i % 2]}/n{i:02d}.txt", f"n{i}"))
    folders = files.grouping("folders", file_folder, file_order)
    files.snapshot()
    files.mark()
    before, order = files.snapshot(), files.keys()
    files.remove("/sdcard/Download/n04.txt")  # a rename: out, and in at the end
    files.put(File("/sdcard/Download/renamed.txt", "n4"))
    files.update("/sdcard/DCIM/n01.txt", content="changed")
    files.remove("/sdcard/DCIM/n03.txt")
    files.put(File("/sdcard/DCIM/n03.txt", "n3"))  # the same record back, at the end
    assert files.keys() != order
    files.rewind()
    assert files.keys() == order
    assert diff(before, files.snapshot()) == []
    assert not files.snapshot().delta  # the base's plain records again
    fresh: Table[File] = Table(files.values(), kind=File, key="path")
    made = fresh.grouping("folders", file_folder, file_order)
    assert list(folders.ranked()) == list(made.ranked())
    for folder in made.ranked():
        assert folders.members(folder) == made.members(folder)
        assert folders._seq == made._seq


def test_rewind_without_mark_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="mark"):
        Table(kind=Message).rewind()


class Roster(Task):
    id = "PrefillRoster"
    apps = ("Contacts",)
    template = "Rename {name}."

    def prefill(self, state: Any) -> None:
        for i in range(300):
            state.add_contact(f"Person {i:03d}", f"+1 415-555-{i:04d}")
        state.add_message("+1 415-555-0001", "hello", "inbox", "2024-01-01T10:00:00", True)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"name": f"Person {int(rng.integers(300)):03d}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        state.add_contact("Setup Person", "+1 212-555-0100")


def fresh_snapshot(task: Task, seed: int) -> dict[str, Any]:
    """The initial snapshot of ``task`` on a brand-new phone (prefill run, nothing kept)."""
    device = Device([])
    episode = Episode(task, device, np.random.default_rng(seed))
    return episode.initial


def test_prefill_is_put_back_at_each_reset() -> None:
    task = Roster()
    device = Device([])
    calls = []
    original = task.prefill
    task.prefill = lambda state: (calls.append(1), original(state))  # type: ignore[method-assign]
    for seed in range(3):
        episode = Episode(task, device, np.random.default_rng(seed))
        assert diff(fresh_snapshot(Roster(), seed), episode.initial) == []
        assert list(episode.initial["contacts"]) == \
            list(fresh_snapshot(Roster(), seed)["contacts"])
        system = device.system  # the episode changes the prefilled data every way
        first = system.contacts.first(name=episode.params["name"])
        assert first is not None
        system.contacts.update(first.id, name="Renamed")
        system.contacts.remove(2)
        system.messages.clear()
        system.clipboard = "copied"
        system.put_setting("system", "screen_brightness", "12")
    assert calls == [1]  # written once, put back twice
    Episode(task, device, np.random.default_rng(0))
    assert device.system.contacts.get(2) is not None
    assert device.system.clipboard == ""
    assert device.system.get_setting("system", "screen_brightness") != "12"


def test_prefill_writes_data_only() -> None:
    class Bad(Roster):
        id = "PrefillBad"

        def prefill(self, state: Any) -> None:
            state.device.open_app("Contacts")

    from phone_gym.mockapps.contacts.app import ContactsApp
    with pytest.raises(ValueError, match="it opens no app"):
        Episode(Bad(), Device([ContactsApp]), np.random.default_rng(0))


class Notebook(Task):
    id = "PrefillNotebook"
    apps = ("Notes",)
    template = "Open {title}."

    def prefill(self, state: Any) -> None:
        from phone_gym.mockapps.notes.fixtures import write_note
        for i in range(300):
            write_note(state, f"Note {i:03d}", f"body {i}", pinned=i % 50 == 0)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"title": f"Note {int(rng.integers(300)):03d}"}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        from phone_gym.mockapps.notes.fixtures import write_note
        write_note(state, "Setup note")


def test_prefilled_app_data_is_put_back_at_each_reset() -> None:
    """An app's data written by ``prefill`` (thousands of notes) is kept between resets and
    put back as marked: each episode starts from what a brand-new phone holds."""
    from phone_gym.mockapps.notes.app import NotesApp
    task, device = Notebook(), Device([NotesApp])
    calls = []
    original = task.prefill
    task.prefill = lambda state: (calls.append(1), original(state))  # type: ignore[method-assign]
    for seed in range(3):
        episode = Episode(task, device, np.random.default_rng(seed))
        fresh = Episode(Notebook(), Device([NotesApp]), np.random.default_rng(seed)).initial
        assert diff(fresh, episode.initial) == []
        assert list(episode.initial["apps"]["Notes"]["notes"]) == \
            list(fresh["apps"]["Notes"]["notes"])
        app = device.apps["Notes"]
        assert len(app.data.notes) == 301
        app.data.notes.update(1, title="Changed")  # the episode changes the notes every way
        app.data.notes.remove(2)
        app.data.notes.new(title="Added", body="")
        device.open_app("Notes")
        device.clear_data(NotesApp.manifest.package)
    assert calls == [1]  # written once, put back twice


class Agenda(Task):
    id = "PrefillAgenda"
    apps = ("Simple Calendar",)
    template = "Look at the agenda."

    def prefill(self, state: Any) -> None:
        for i in range(300):
            start = f"2023-10-{1 + i % 28:02d}T{8 + i % 10:02d}:00"
            state.add_event(f"Meeting {i}", start, start[:-5] + f"{9 + i % 10:02d}:00")


def test_the_event_list_is_made_at_the_reset_after_a_prefill() -> None:
    """The calendar's event list (every event read, with a header per day) is made when
    the prefill is written, and kept by later resets: not at an episode's first frame."""
    from phone_gym.mockapps.calendar.app import _UPCOMING, CalendarApp, index_events
    device = Device([CalendarApp])
    for seed in range(2):
        Episode(Agenda(), device, np.random.default_rng(seed))
        events = device.system.events
        made = _UPCOMING.get(index_events(events)[2])
        assert made is not None
        assert made[0] == (events.version, device.system.now.date().isoformat(),
                           device.system.locale)
