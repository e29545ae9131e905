"""Trajectory folders: episodes as ``steps.jsonl`` plus PNG frames, and loading them back.

Layout of a trajectory folder (what ``phone-gym collect``, ``play``, ``bench --record`` and
GRPO's ``record = true`` write)::

    steps.jsonl                    a format line, then one StepRecord a line
                                   (``records.RECORD_KEYS``), each episode closed by an end line
    frames/<episode_id>/<step>.png the screenshot each step was taken on

``format`` describes ``steps.jsonl``: an episode counts once its end line is written, so an
interrupted append leaves a partial episode that loading leaves out. Frame paths in
``steps.jsonl`` are relative to the folder that holds it, so the folder can be moved as a
whole; ``load_episodes`` resolves them inside that folder only, whatever the working
directory.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from .format import (
    ON_PARTIAL,
    FolderPaths,
    TrajectoryError,
    TrajectoryWriter,
    read_trajectory,
)
from .records import Episode, StepRecord

STEPS_FILE = "steps.jsonl"


def export_episodes(episodes: Sequence[Episode], out_dir: str | Path,
                    append: bool = False) -> Path:
    """Write ``steps.jsonl`` (each episode's steps, then its end line) and the PNG frames
    (each written before the lines that name it; a step kept without its frame gets
    ``screenshot: null``); returns the JSONL path. ``append=False`` replaces the file at
    the end, ``append=True`` adds to it crash-safely (``trajectory``). A record that would
    not load back (a value of the wrong type, a frame path outside ``out_dir``) raises
    ``ValueError`` before anything of its episode is written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / STEPS_FILE
    paths = FolderPaths(out)
    with TrajectoryWriter(path, append=append) as writer:
        for episode in episodes:
            rows = []
            for step in episode.steps:
                record = step.to_json()
                if step.frame is None or step.screenshot is None:
                    record["screenshot"] = None  # kept without frames: no file to point to
                try:
                    StepRecord.from_json(record)  # what is written must load back
                    frame = paths.resolve(record["screenshot"]) if record["screenshot"] else None
                except ValueError as exc:
                    raise ValueError(f"step {step.step} of episode {step.episode_id!r}: "
                                     f"{exc}") from None
                if frame is not None:
                    _save_png(np.asarray(step.frame, dtype=np.uint8), frame)
                rows.append(record)
            writer.episode(rows)
    return path


def _save_png(pixels: np.ndarray, path: Path) -> None:
    """Save a frame whole or not at all (a temporary file renamed over ``path``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        Image.fromarray(pixels).save(tmp, format="PNG")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def load_episodes(path: str | Path, frames: bool = True, on_partial: str = "skip"
                  ) -> list[Episode]:
    """The complete episodes of an export folder (or its ``steps.jsonl``), in the order
    they began, frames loaded as arrays (frame paths resolved inside the folder of
    ``steps.jsonl``).

    Episodes without an end line (an interrupted write) are left out with a
    ``TrajectoryWarning`` naming them (``on_partial="skip"``), or raise ``TrajectoryError``
    (``on_partial="error"``). A malformed line, a frame path that leads out of the folder
    (``..``, absolute, a symlink) or a frame that is not an image raises one
    ``TrajectoryError`` (a ``ValueError``) starting ``path:line:``. A missing folder, file
    or frame raises ``FileNotFoundError`` naming it."""
    if on_partial not in ON_PARTIAL:
        raise ValueError(f"on_partial={on_partial!r}; accepted: {', '.join(ON_PARTIAL)}")
    path = Path(path)
    file = path / STEPS_FILE if path.is_dir() else path
    if not file.is_file():
        raise FileNotFoundError(
            f"no {STEPS_FILE} at {str(path)!r}: write one with phone-gym collect --out {path}")
    found = read_trajectory(file)
    found.check_partial(on_partial)
    paths = FolderPaths(file.parent)
    episodes = []
    for episode in found.complete:
        for record, line in zip(episode.records, episode.lines, strict=True):
            where = (f"{file}:{line}: step {record.step} of episode {record.episode_id!r}")
            try:
                for ref in record.image_refs:
                    paths.resolve(ref)
                frame = paths.resolve(record.screenshot) if record.screenshot else None
            except ValueError as exc:
                raise TrajectoryError(f"{where}: {exc}") from None
            if frames and frame is not None:
                if not frame.is_file():
                    raise FileNotFoundError(f"{frame}, the frame of {where}, is missing")
                try:
                    with Image.open(frame) as image:
                        record.frame = np.asarray(image.convert("RGB"))
                except (OSError, SyntaxError, ValueError) as exc:  # what PIL raises
                    raise TrajectoryError(f"{where}: its frame {record.screenshot!r} is not "
                                          f"a readable image ({exc})") from None
        episodes.append(Episode(sorted(episode.records, key=lambda r: r.step)))
    return episodes


