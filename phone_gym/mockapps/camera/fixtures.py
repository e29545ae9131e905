"""Public fixtures of Camera: older photos and videos in ``DCIM/Camera`` (bystanders that a
task must leave alone)."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from ...verifiers.state import DeviceState
from .app import CAMERA_DIR

COLLECTION = "files"


def sample_media(rng: np.random.Generator, low: int = 1, high: int = 4) -> list[list[str]]:
    """``low``..``high`` older photos and videos for ``CAMERA_DIR`` (from the weeks before
    the task's day), as ``[path, content]`` pairs."""
    out = []
    for _ in range(int(rng.integers(low, high + 1))):
        when = datetime(2023, 9, 1, 8) + timedelta(minutes=int(rng.integers(0, 60 * 24 * 40)))
        video = bool(rng.random() < 0.3)
        ext, prefix = ("mp4", "VID") if video else ("jpg", "IMG")
        path = f"{CAMERA_DIR}/{prefix}_{when:%Y%m%d_%H%M%S}.{ext}"
        what = "MP4 video, 1920x1080, duration 0:12" if video else "JPEG photo, 4032x3024"
        out.append([path, f"{what}, taken {when:%Y-%m-%d %H:%M:%S}"])
    return out


def seed_media(state: DeviceState, media: list[list[str]]) -> None:
    """Write the ``[path, content]`` pairs of ``sample_media``."""
    for path, content in media:
        state.write_file(path, content.encode("utf-8"))


def new_media(state: DeviceState, media: list[list[str]], suffix: str) -> list[str]:
    """Names of the ``suffix`` files in ``CAMERA_DIR`` that ``media`` did not seed (what
    the task's agent made)."""
    seeded = {path for path, _ in media}
    return [n for n in state.list_dir(CAMERA_DIR)
            if n.lower().endswith(suffix) and f"{CAMERA_DIR}/{n}" not in seeded]
