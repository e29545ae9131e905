"""Trajectory export: episodes as JSONL plus PNG frames, loading them back, and conversion
to the ``messages`` + ``images`` conversation format read by TRL's SFT trainer and
LLaMA-Factory, with actions in the model's own syntax (``format_action``).

Layout of an export folder::

    steps.jsonl                   one StepRecord a line (records.RECORD_KEYS)
    frames/<episode_id>/<step>.png the screenshot each step was taken on
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
    """Write ``steps.jsonl`` and the PNG frames; returns the JSONL path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / STEPS_FILE
    with open(path, "a" if append else "w") as lines:
        for episode in episodes:
            for step in episode.steps:
                if step.frame is not None and step.screenshot is not None:
                    frame = out / step.screenshot
                    frame.parent.mkdir(parents=True, exist_ok=True)
                    Image.fromarray(np.asarray(step.frame, dtype=np.uint8)).save(frame)
                lines.write(json.dumps(step.to_json()) + "\n")
    return path


def load_episodes(path: str | Path, frames: bool = True) -> list[Episode]:
    """Episodes from an export folder (or its ``steps.jsonl``), frames loaded as arrays."""
    path = Path(path)
    root = path.parent if path.is_file() else path
    steps: dict[str, list[StepRecord]] = {}
    with open(root / STEPS_FILE if path.is_dir() else path) as lines:
        for line in lines:
            if line.strip():
                record = StepRecord.from_json(json.loads(line))
                if frames and record.screenshot and (root / record.screenshot).exists():
                    record.frame = np.asarray(Image.open(root / record.screenshot).convert("RGB"))
                steps.setdefault(record.episode_id, []).append(record)
    return [Episode(sorted(s, key=lambda r: r.step)) for s in steps.values()]


def to_conversations(episodes: Sequence[Episode], *, style: str = "llamafactory",
                     system: str | None = None, max_history: int = 8,
                     history_images: int = 0, successful_only: bool = True
                     ) -> list[dict[str, Any]]:
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
                out.append({"messages": _styled(messages, style), "images": list(images)})
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
                        **kwargs: Any) -> int:
    """Write ``to_conversations`` as JSON lines; returns the number of samples."""
    rows = to_conversations(episodes, **kwargs)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    return len(rows)
