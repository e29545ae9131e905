"""Conversation exports of trajectories (``phone_gym.trajectory``): the ``messages`` +
``images`` format read by TRL's SFT trainer and LLaMA-Factory, with actions in the model's
own syntax (``format_action``): ``conversations_<style>.jsonl`` beside a trajectory folder's
``steps.jsonl`` (what ``phone-gym collect`` writes). Conversations list absolute image
paths (``write_conversations``), which TRL, LLaMA-Factory and ``datasets`` open from any
working directory. ``export_episodes``/``load_episodes`` are the trajectory folder's own
(``phone_gym.trajectory.store``), re-exported here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..trajectory.records import Episode
from ..trajectory.store import STEPS_FILE, export_episodes, load_episodes
from .prompts import Turn, build_messages, system_prompt

STYLES: tuple[str, ...] = ("llamafactory", "trl")

__all__ = ["STEPS_FILE", "STYLES", "export_episodes", "load_episodes", "to_conversations",
           "write_conversations"]


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
