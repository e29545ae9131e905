"""Trajectory export: episodes as JSONL plus PNG frames, loading them back, and conversion
to the ``messages`` + ``images`` conversation format read by TRL's SFT trainer and
LLaMA-Factory, with actions in the model's own syntax (``format_action``).

Layout of an export folder (what ``phone-gym collect`` writes)::

    steps.jsonl                    a format line, then one StepRecord a line
                                   (records.RECORD_KEYS), each episode closed by an end line
    frames/<episode_id>/<step>.png the screenshot each step was taken on
    conversations_<style>.jsonl    (collect) the steps as conversations for other trainers

``trajectory`` describes ``steps.jsonl``: an episode counts once its end line is written, so
an interrupted append leaves a partial episode that loading leaves out. Frame paths in
``steps.jsonl`` are relative to the folder that holds it, so the folder can be moved as a
whole; ``load_episodes`` resolves them inside that folder only, whatever the working
directory. Conversations list absolute image paths (``write_conversations``), which
TRL, LLaMA-Factory and ``datasets`` open from any working directory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .prompts import Turn, build_messages, system_prompt
from .records import Episode, StepRecord
from .trajectory import (
    ON_PARTIAL,
    FolderPaths,
    TrajectoryError,
    TrajectoryWriter,
    read_trajectory,
)

STEPS_FILE = "steps.jsonl"
STYLES: tuple[str, ...] = ("llamafactory", "trl")


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


def to_conversations(episodes: Sequence[Episode], *, style: str = "llamafactory",
                     system: str | None = None, max_history: int = 8,
                     history_images: int = 0, successful_only: bool = True,
                     frames_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """One single-turn conversation per step: the system prompt, the user turn (task,
    earlier actions, screenshots as images), the assistant's action.

    ``style="llamafactory"``: string contents with ``<image>`` placeholders;
    ``style="trl"``: contents as ``{"type": "text"|"image"}`` parts. Both list the frame
    paths (relative to the export folder) under ``"images"``. Steps whose text did not
    parse are left out.
    """
    if style not in STYLES:
        raise ValueError(f"style={style!r}; accepted: {', '.join(STYLES)}")
    system = system if system is not None else system_prompt()
    root = None if frames_dir is None else Path(frames_dir).resolve()
    out = []
    for episode in episodes:
        if successful_only and not episode.success:
            continue
        history: list[Turn] = []  # screenshots as file references
        for step in episode.steps:
            messages, images = build_messages(
                step.instruction, history, step.screenshot, system=system,
                max_history=max_history, history_images=history_images)
            if step.action is not None and step.valid:
                messages.append({"role": "assistant", "content": step.action})
                paths = [str(root / p) if root is not None else p for p in images]
                out.append({"messages": _styled(messages, style), "images": paths})
            history.append(Turn(step.action or step.text[:200], step.action_error,
                                step.screenshot))
    return out


def _styled(messages: list[dict[str, Any]], style: str) -> list[dict[str, Any]]:
    styled = []
    for m in messages:
        content = m["content"]
        if isinstance(content, str):
            parts = [{"type": "text", "text": content}]
        else:
            parts = content
        if style == "trl":
            styled.append({"role": m["role"], "content": parts})
        else:
            text = "\n".join("<image>" if p["type"] == "image" else p["text"] for p in parts)
            styled.append({"role": m["role"], "content": text})
    return styled


def write_conversations(episodes: Sequence[Episode], path: str | Path,
                        frames_dir: str | Path | None = None, **kwargs: Any) -> int:
    """Write ``to_conversations`` as JSON lines, with absolute image paths (the frames'
    paths resolved against ``frames_dir``, the export folder; default: the folder of
    ``path``); returns the number of samples."""
    frames_dir = Path(path).parent if frames_dir is None else frames_dir
    rows = to_conversations(episodes, frames_dir=frames_dir, **kwargs)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    return len(rows)
