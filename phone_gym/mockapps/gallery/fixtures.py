"""Public fixtures of Gallery: pictures in shared storage, for any app's tasks.

A picture is a file whose name ends in an image extension; its text content is what the
photo shows, one line per drawn line (see ``app``). ``write_picture`` goes through the
``DeviceState`` facade, so a task that seeds pictures this way runs on real phones too
(there the pushed file holds the text, not an image).
"""

from __future__ import annotations

import string
from collections.abc import Sequence

import numpy as np

from ...tasks.aw import AW_TODAY
from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from .app import is_image as is_image

COLLECTION = "files"
DCIM = "/sdcard/DCIM"
CAMERA = "/sdcard/DCIM/Camera"
PICTURES = "/sdcard/Pictures"
DOWNLOAD = "/sdcard/Download"
#: Things bought, with a price range in dollars.
ITEMS: tuple[tuple[str, float, float], ...] = (
    ("Coffee beans", 8, 18), ("Taxi ride", 12, 45), ("Printer paper", 5, 15),
    ("Lunch with client", 20, 80), ("Train ticket", 9, 60), ("Phone charger", 15, 35),
    ("Groceries", 25, 120), ("Office chair", 90, 250), ("Parking", 3, 20),
    ("Notebooks", 4, 12), ("Team dinner", 60, 200), ("Museum tickets", 15, 40),
)
#: What other photos on the phone show (decoys): name stem -> lines drawn.
SCENES: dict[str, tuple[str, ...]] = {
    "beach": ("A sandy beach at sunset",),
    "birthday_cake": ("A chocolate cake with candles",),
    "mountain_hike": ("A trail through pine trees",),
    "cat_on_sofa": ("A grey cat asleep on a sofa",),
    "city_lights": ("A skyline at night",),
    "garden": ("Tomatoes and basil in a raised bed",),
    "whiteboard": ("Sprint goals", "1. Ship the beta", "2. Fix the login bug"),
    "parking_sign": ("Parking 8:00-18:00", "Max 2 hours"),
}


def random_suffix(rng: np.random.Generator, n: int = 5) -> str:
    return "".join(pick(rng, string.ascii_lowercase + string.digits) for _ in range(n))


def receipt_rows(rng: np.random.Generator, count: int | None = None) -> list[list[str]]:
    """1 to 5 (or ``count``) transactions as ``[date, item, amount]`` (dates in the week
    before AndroidWorld's date, amounts with cents)."""
    n = int(rng.integers(1, 6)) if count is None else count
    rows = []
    for item, lo, hi in pick(rng, ITEMS, n):
        day = AW_TODAY.toordinal() - int(rng.integers(1, 8))
        amount = round(float(rng.uniform(lo, hi)), 2)
        rows.append([str(type(AW_TODAY).fromordinal(day)), item, f"{amount:.2f}"])
    return sorted(rows)


def receipt_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines a receipt photo shows: a ``Date, Item, Amount`` header, then the rows."""
    return ["Date, Item, Amount", *(", ".join(r) for r in rows)]


def write_picture(state: DeviceState, path: str, lines: Sequence[str]) -> None:
    """Put a picture showing ``lines`` at ``path``."""
    state.write_file(path, "\n".join(lines).encode("utf-8"))


def seed_photos(state: DeviceState, rng: np.random.Generator, k: int,
                folders: Sequence[str] = (CAMERA, PICTURES), avoid: Sequence[str] = ()) -> None:
    """``k`` decoy photos spread over ``folders`` (names not in ``avoid``)."""
    for i, stem in enumerate(pick(rng, sorted(SCENES), k)):
        name = f"{stem}.jpg"
        if name in avoid:
            continue
        write_picture(state, f"{folders[i % len(folders)]}/{name}", SCENES[stem])
