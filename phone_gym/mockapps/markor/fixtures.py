"""Public fixtures of Markor: note names and texts, and what tasks (of any app) use to seed
notes and folders and to check a note's text.

Notes are shared files, written through ``DeviceState.write_file``, so a seeded phone is the
same in PhoneWorld and on a real phone. On a PhoneWorld phone a note may also get a
modification time (Markor's own data); a real phone dates a pushed file itself.
"""

from __future__ import annotations

import hashlib
import posixpath
import string
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from ...verifiers import Matcher
from ...verifiers.fields import content_is
from ...verifiers.state import DeviceState
from ...world.state import WorldState
from .app import KEEP, MARKOR_DIR, MarkorApp
from .manifest import SUBFOLDERS  # noqa: F401 - tasks import it from here

COLLECTION = "files"
EXTENSIONS = (".md", ".txt")
#: Words of note names (``quiet_harbor.md``, ``bright_garden_draft.txt``).
ADJECTIVES = ("quiet", "bright", "early", "hidden", "golden", "rapid", "gentle", "silver",
              "crisp", "humble", "lively", "distant", "clever", "rustic", "frozen", "mellow")
NOUNS = ("harbor", "garden", "meadow", "lantern", "journey", "pebble", "orchard", "canyon",
         "compass", "ember", "glacier", "workshop", "harvest", "summit", "valley", "thicket")
MODIFIERS = ("draft", "final", "v2", "notes", "backup", "old", "summary", "plan")
#: Titles of bystander notes (never made by ``note_name``: no underscore).
NOISE_TITLES = ("Groceries", "Reading list", "Gym plan", "Packing list", "Recipes",
                "Birthday ideas", "Meeting notes", "Movie list", "Budget", "Travel plans",
                "Podcast notes", "Garden plan", "Chores", "Passwords hint", "Quotes",
                "Project ideas", "Wishlist", "Car service", "Vet visits", "Journal")
#: Sentences a note holds or gets.
SENTENCES = (
    "Pick up the dry cleaning before six.",
    "The quarterly review moved to Thursday morning.",
    "Remember to water the ferns on the balcony.",
    "Book a table for four at the Italian place.",
    "The spare key is with the neighbour downstairs.",
    "Renew the library card before the end of the month.",
    "Call the plumber about the dripping kitchen tap.",
    "Send the slides to the team after lunch.",
    "Try the new running route along the river.",
    "Buy oat milk, lemons and a loaf of rye bread.",
    "The train to the coast leaves at 8:15.",
    "Ask the landlord about fixing the window latch.",
    "Practice the piano piece for twenty minutes.",
    "Back up the laptop to the external drive.",
    "The dentist appointment is on the second floor.",
    "Write a thank-you card to grandma.",
    "Check tyre pressure before the long drive.",
    "Return the borrowed drill to the workshop.",
    "Plan the menu for Saturday's dinner party.",
    "Finish reading chapter seven of the novel.",
    "Print the boarding passes the night before.",
    "Sort the old photos into albums by year.",
    "Order a birthday cake with lemon icing.",
    "Cancel the unused streaming subscription.",
    "Clean the coffee machine with descaler.",
    "Bring an umbrella, rain is forecast all week.",
    "Update the emergency contact at the office.",
    "Swap the winter clothes into the wardrobe.",
    "Look up bus times for the museum trip.",
    "Move the team meeting notes to the shared folder.",
    "Pay the electricity bill by Friday.",
    "Test the smoke alarms in every room.",
    "Pick strawberries at the farm on Sunday.",
    "Repot the basil into a bigger pot.",
    "The wifi password is on the fridge.",
    "Charge the camera batteries for the hike.",
    "Drop the parcel at the post office.",
    "Measure the hallway for the new rug.",
    "Schedule the car for its annual service.",
    "Label the moving boxes by room.",
)


def note_path(name: str, folder: str = "") -> str:
    """The path of note ``name`` in Markor's ``folder`` ("" for Markor's own)."""
    return f"{MARKOR_DIR}/{folder}/{name}" if folder else f"{MARKOR_DIR}/{name}"


def folder_path(folder: str = "") -> str:
    return f"{MARKOR_DIR}/{folder}" if folder else MARKOR_DIR


def note_name(rng: np.random.Generator, ext: str | None = None) -> str:
    """A random ``adjective_noun`` name (sometimes with a modifier) and extension."""
    parts = [pick(rng, ADJECTIVES), pick(rng, NOUNS)]
    if rng.random() < 0.3:
        parts.append(pick(rng, MODIFIERS))
    return "_".join(parts) + (ext or pick(rng, EXTENSIONS))


def note_names(rng: np.random.Generator, k: int, avoid: Iterable[str] = ()) -> list[str]:
    """``k`` different random note names, none in ``avoid`` (stems compared)."""
    taken = {posixpath.splitext(a)[0] for a in avoid}
    out: list[str] = []
    while len(out) < k:
        name = note_name(rng)
        stem = posixpath.splitext(name)[0]
        if stem not in taken:
            taken.add(stem)
            out.append(name)
    return out


def random_text(rng: np.random.Generator, n: int) -> str:
    """``n`` random letters and digits."""
    alphabet = string.ascii_letters + string.digits
    return "".join(alphabet[int(i)] for i in rng.integers(len(alphabet), size=n))


def markor(state: DeviceState) -> MarkorApp | None:
    """Markor on a PhoneWorld phone (None on a real one)."""
    if not isinstance(state, WorldState):
        return None
    app = state.app("Markor")
    return app if isinstance(app, MarkorApp) else None


def write_note(state: DeviceState, name: str, content: str, folder: str = "", *,
               when: datetime | None = None) -> str:
    """Write note ``name`` into Markor's ``folder``; its path. ``when`` dates it (PhoneWorld:
    Markor's modification time)."""
    path = note_path(name, folder)
    state.write_file(path, content.encode("utf-8"))
    app = markor(state)
    if app is not None and when is not None:
        app.data.modified[path] = when.isoformat(timespec="seconds")
    return path


def make_folder(state: DeviceState, folder: str) -> None:
    """Create Markor's subfolder ``folder`` (its ``.keep`` placeholder)."""
    state.write_file(f"{folder_path(folder)}/{KEEP}", b"")


def seed_noise(state: DeviceState, rng: np.random.Generator, k: int, folder: str = "",
               *, avoid: Iterable[str] = ()) -> list[str]:
    """``k`` bystander notes (titled from ``NOISE_TITLES``, one sentence each); their
    names."""
    names = [f"{t}.md" for t in pick(rng, NOISE_TITLES, k)]
    avoid = set(avoid)
    names = [n for n in names if n not in avoid]
    for name in names:
        write_note(state, name, pick(rng, SENTENCES), folder)
    return names


def seed_outside(state: DeviceState, rng: np.random.Generator) -> None:
    """Two bystander files outside Markor's folder (Download, Documents): a task done with
    a broom (a whole folder deleted elsewhere) fails."""
    state.write_file(f"/sdcard/Download/{pick(rng, ('invoice', 'ticket'))}.txt",
                     pick(rng, SENTENCES).encode("utf-8"))
    state.write_file("/sdcard/Documents/reading.md", pick(rng, SENTENCES).encode("utf-8"))


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def text_is(*texts: str) -> Matcher:
    """A matcher of a file's ``text_sha1``: the file holds one of ``texts``, compared as a
    note's text is (``verifiers.fields.content_text``: spaces at the ends of lines, blank
    lines at the ends and case aside)."""
    return content_is(*texts)


def where(path: str) -> dict[str, Any]:
    """A files where-clause picking the file at ``path``."""
    return {"name": posixpath.basename(path), "folder": posixpath.dirname(path)}


# --- for other apps' oracles (cross-app tasks) -------------------------------------------------
def open_note(ui: Driver, name: str, folder: str = "") -> Iterator[PhoneAction]:
    """Launch Markor (from a clean start: its browser) and open note ``name`` of ``folder``
    in the editor (its text field has id ``editor_body``, the save icon id ``save``)."""
    yield from ui.open_app("Markor")
    if folder:
        yield from ui.tap(folder, kind="list_item")
    yield from ui.tap(name, kind="list_item")


def create_note(ui: Driver, name: str, lines: Sequence[str]) -> Iterator[PhoneAction]:
    """Launch Markor, create note ``name`` (with its extension) in Markor's folder, type
    ``lines`` (enter between them) and save."""
    yield from ui.open_app("Markor")
    yield from ui.tap(id="new")
    yield from ui.fill("new_name", name)
    yield from ui.tap(id="button_ok")
    yield from ui.tap(id="editor_body", kind="text_field")
    for i, line in enumerate(lines):
        if i:
            yield from ui.press("enter")
        if line:
            yield PhoneAction("type", text=line)
    yield from ui.tap(id="save")


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"MarkorTask", "noise_notes"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
