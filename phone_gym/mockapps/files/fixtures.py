"""Public fixtures of Files: sample text files in shared storage, for any app's tasks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.state import WorldState
from .app import FOLDERS, name_of

COLLECTION = "files"
#: Sample files: name -> content.
CONTENTS: dict[str, str] = {
    "meeting-notes.txt": "Team sync, Monday\n- Ship the beta on Friday\n- Maria writes the "
                         "release notes",
    "pancakes.txt": "Pancakes\n2 eggs, 250 ml milk, 120 g flour\nRest the batter 10 minutes.",
    "packing-list.txt": "Passport\nCharger\nSunscreen\nHiking boots",
    "budget-2026.csv": "month,rent,food\nJan,1200,310\nFeb,1200,285",
    "todo.txt": "Call the bank\nBook the dentist\nReturn the library books",
    "itinerary.txt": "Flight LH 455 departs 10:40\nHotel check-in from 15:00",
    "invoice-0423.txt": "Invoice 0423\nGarden maintenance, October\nTotal due: $240.00",
    "letter-draft.txt": "Dear Ms. Novak,\nThank you for the kind invitation. I will gladly "
                        "attend the opening on the 24th.",
    "lecture-4.md": "# Lecture 4\nEntropy and information\nRead chapter 2 before Thursday.",
    "grocery-receipt.txt": "Milk 1.29\nBread 2.49\nApples 3.10\nTotal 6.88",
    "scan-notes.txt": "Scans from the office printer, 300 dpi.",
    "reading-list.txt": "The Left Hand of Darkness\nPiranesi\nThe Remains of the Day",
    "gift-ideas.txt": "Dad: a good umbrella\nLena: watercolor set\nSam: climbing shoes",
    "warranty.txt": "Dishwasher warranty valid until March 2028. Serial 44-1093-B.",
    "garden-plan.txt": "North bed: tomatoes, basil\nSouth bed: beans, marigolds",
    "workout.txt": "Mon: run 5 km\nWed: strength\nFri: swim 1 km",
}
NOTIFICATIONS = (
    ("Files", "Download complete", "boarding-pass.pdf"),
    ("Files", "Free up space", "You have 2 GB of old downloads"),
    ("Clock", "Upcoming alarm", "Tomorrow 07:00"),
    ("Notes", "Reminder", "Water the plants"),
)


#: The seeded data in zh-CN (``strings/zh-CN.data.json``): the sample files' text, the
#: notifications.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def sample_files(rng: np.random.Generator,
                 extra: Mapping[str, str] | None = None) -> list[list[str]]:
    """8 to 12 of ``CONTENTS`` (plus the ``extra`` name -> content), shuffled, the first
    three in Download, the next three in Documents, the rest in either, as ``[path,
    content]`` pairs (params hold no nested dicts)."""
    names = pick(rng, sorted(CONTENTS), int(rng.integers(8, 13)))
    contents = {**{n: CONTENTS[n] for n in names}, **(extra or {})}
    order = [str(n) for n in rng.permutation(sorted(contents))]
    return [[FOLDERS[0 if i < 3 else 1 if i < 6 else int(rng.integers(2))][1] + name,
             contents[name]] for i, name in enumerate(order)]


def target_params(path: str) -> dict[str, Any]:
    """Params naming the file at ``path``: its path, name, folder label and folder path."""
    label, prefix = next((lb, pf) for lb, pf in FOLDERS if path.startswith(pf))
    return {"path": path, "name": name_of(path), "folder": label, "dir": prefix.rstrip("/")}


def seed_files(state: DeviceState, files: list[list[str]], rng: np.random.Generator) -> None:
    """Write ``files`` (``[path, content]`` pairs); in PhoneWorld also post one or two
    notifications (bystanders)."""
    for path, content in files:
        state.write_file(path, content.encode("utf-8"))
    if isinstance(state, WorldState):
        table = DATA.get(state.locale, {})  # the notifications in the phone's language
        for app, title, text in pick(rng, NOTIFICATIONS, int(rng.integers(1, 3))):
            state.post_notification(table.get(title, title), table.get(text, text), app=app)
