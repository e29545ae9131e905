"""Trajectory export: episodes as JSONL plus PNG frames, loading them back, and conversion
to the ``messages`` + ``images`` conversation format read by TRL's SFT trainer and
LLaMA-Factory, with actions in the model's own syntax (``format_action``).

Layout of an export folder (what ``phone-gym collect`` writes)::

    steps.jsonl                    one StepRecord a line (records.RECORD_KEYS)
    frames/<episode_id>/<step>.png the screenshot each step was taken on
    conversations_<style>.jsonl    (collect) the steps as conversations for other trainers

Frame paths in ``steps.jsonl`` are relative to the folder that holds it, so the folder can
be moved as a whole; ``load_episodes`` resolves them against that folder, whatever the
working directory. Conversations list absolute image paths (``write_conversations``), which
TRL, LLaMA-Factory and ``datasets`` open from any working directory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .prompts import Turn, build_messages, system_prompt
from .records import Episode, StepRecord

STEPS_FILE = "steps.jsonl"
STYLES: tuple[str, ...] = ("llamafactory", "trl")


def export_episodes(episodes: Sequence[Episode], out_dir: str | Path,
                    append: bool = False) -> Path:
    """Write ``steps.jsonl`` and the PNG frames (a step kept without its frame gets
    ``screenshot: null``); returns the JSONL path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / STEPS_FILE
    with open(path, "a" if append else "w") as lines:
        for episode in episodes:
            for step in episode.steps:
                record = step.to_json()
                if step.frame is not None and step.screenshot is not None:
                    frame = out / step.screenshot
                    frame.parent.mkdir(parents=True, exist_ok=True)
                    Image.fromarray(np.asarray(step.frame, dtype=np.uint8)).save(frame)
                else:  # collected with keep_frames=False: no frame file to point to
                    record["screenshot"] = None
                lines.write(json.dumps(record) + "\n")
    return path


def load_episodes(path: str | Path, frames: bool = True) -> list[Episode]:
    """Episodes from an export folder (or its ``steps.jsonl``), frames loaded as arrays
    (frame paths resolved against the folder of ``steps.jsonl``).

    A missing folder, file or frame raises ``FileNotFoundError`` naming it."""
    path = Path(path)
    file = path / STEPS_FILE if path.is_dir() else path
    if not file.is_file():
        raise FileNotFoundError(
            f"no {STEPS_FILE} at {str(path)!r}: write one with phone-gym collect --out {path}")
    root = file.parent
    steps: dict[str, list[StepRecord]] = {}
    with open(file) as lines:
        for line in lines:
            if line.strip():
                record = StepRecord.from_json(json.loads(line))
                if frames and record.screenshot:
                    frame = root / record.screenshot
                    if not frame.is_file():
                        raise FileNotFoundError(
                            f"{frame}, the frame of step {record.step} of episode "
                            f"{record.episode_id} in {file}, is missing")
                    record.frame = np.asarray(Image.open(frame).convert("RGB"))
                steps.setdefault(record.episode_id, []).append(record)
    return [Episode(sorted(s, key=lambda r: r.step)) for s in steps.values()]


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
