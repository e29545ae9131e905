"""Conversation exports of trajectories (``phone_gym.trajectory``): the ``messages`` +
``images`` format read by TRL's SFT trainer and LLaMA-Factory, with actions in the model's
own syntax (``format_action``): ``conversations_<style>.jsonl`` beside a trajectory folder's
``steps.jsonl`` (what ``phone-gym collect`` writes). Conversations list absolute image
paths (``write_conversations``), which TRL, LLaMA-Factory and ``datasets`` open from any
working directory. ``export_episodes``/``load_episodes`` are the trajectory folder's own
(``phone_gym.trajectory.store``), re-exported here.

``write_formats`` writes a trajectory folder's episodes in the formats trainers load
(``FORMATS``): ``hf`` (a Hugging Face ``datasets`` folder of parquet files, images embedded:
``datasets.load_dataset("parquet", data_dir=...)``), ``sharegpt`` (LLaMA-Factory's ShareGPT
layout with its ``dataset_info.json`` entry) and ``trl`` (TRL's conversational messages with
images, JSON lines). Each sample is one step; with ``reasons`` the assistant's target holds
the step's reason (and step instruction) before the action (``prompts.assistant_text``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..trajectory.records import Episode
from ..trajectory.store import STEPS_FILE, export_episodes, load_episodes
from .formats import FORMATS  # what collect --format writes (light: the CLI reads it)
from .prompts import (
    PROMPT_LOCALES,
    REASONS,
    Turn,
    assistant_text,
    build_messages,
    prompt_locale,
    system_prompt,
)

STYLES: tuple[str, ...] = ("llamafactory", "trl")
#: The dataset's name in LLaMA-Factory's ``dataset_info.json`` (``dataset: phone_gym``).
SHAREGPT_NAME = "phone_gym"

__all__ = ["FORMATS", "SHAREGPT_NAME", "STEPS_FILE", "STYLES", "export_episodes",
           "load_episodes", "to_conversations", "write_conversations", "write_formats",
           "write_hf", "write_sharegpt"]


def to_conversations(episodes: Sequence[Episode], *, style: str = "llamafactory",
                     system: str | None = None, max_history: int = 8,
                     history_images: int = 0, successful_only: bool = True,
                     frames_dir: str | Path | None = None, reasons: str = "none",
                     meta: bool = False) -> list[dict[str, Any]]:
    """One single-turn conversation per step: the system prompt, the user turn (task,
    earlier actions, screenshots as images), the assistant's action.

    ``style="llamafactory"``: string contents with ``<image>`` placeholders;
    ``style="trl"``: contents as ``{"type": "text"|"image"}`` parts. Both list the frame
    paths (relative to the export folder) under ``"images"``. Steps whose text did not
    parse are left out. ``reasons`` (``prompts.REASONS``): what the assistant's turn holds
    before the action. ``meta``: also the step's ids, action, reason and step instruction
    (``"task_id"``, ``"seed"``, ``"episode_id"``, ``"step"``, ``"action"``, ``"reason"``,
    ``"step_instruction"``, ``"success"``). Without ``system``, each step gets the system
    prompt and user message of its recorded locale (``StepRecord.locale``: zh-CN episodes
    the zh-CN prompts; unrecorded: en-US).
    """
    if style not in STYLES:
        raise ValueError(f"style={style!r}; accepted: {', '.join(STYLES)}")
    if reasons not in REASONS:
        raise ValueError(f"reasons={reasons!r}; accepted: {', '.join(REASONS)}")
    systems = {locale: system if system is not None else system_prompt(reasons=reasons,
                                                                        locale=locale)
               for locale in PROMPT_LOCALES}
    root = None if frames_dir is None else Path(frames_dir).resolve()
    out = []
    for episode in episodes:
        if successful_only and not episode.success:
            continue
        history: list[Turn] = []  # screenshots as file references
        for step in episode.steps:
            locale = prompt_locale(step.locale)
            messages, images = build_messages(
                step.instruction, history, step.screenshot, system=systems[locale],
                max_history=max_history, history_images=history_images, locale=locale)
            if step.action is not None and step.valid:
                messages.append({"role": "assistant", "content": assistant_text(
                    step.action, step.reason, step.step_instruction, reasons)})
                paths = [str(root / p) if root is not None else p for p in images]
                row: dict[str, Any] = {"messages": _styled(messages, style), "images": paths}
                if meta:
                    row.update(task_id=step.task_id, seed=step.seed,
                               episode_id=step.episode_id, step=step.step,
                               action=step.action, reason=step.reason,
                               step_instruction=step.step_instruction,
                               success=episode.success)
                out.append(row)
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


def _write_json(path: Path, data: Any, lines: bool = False) -> None:
    """Write JSON (or JSON lines) whole or not at all (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w") as f:
        if lines:
            for row in data:
                f.write(json.dumps(row) + "\n")
        else:
            json.dump(data, f, indent=1)
    os.replace(tmp, path)


def write_sharegpt(episodes: Sequence[Episode], out_dir: str | Path, frames_dir: str | Path,
                   **kwargs: Any) -> int:
    """LLaMA-Factory's ShareGPT multimodal layout (its data/README.md, "Sharegpt Format",
    https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md): ``phone_gym.json``,
    a JSON list of ``{"conversations": [{"from": "human"|"gpt", "value": ...}], "system":
    ..., "images": [absolute paths]}`` with one ``<image>`` in the values per image, and
    ``dataset_info.json`` registering it (``dataset: phone_gym``, ``dataset_dir: out_dir``).
    Returns the number of samples."""
    out = Path(out_dir)
    rows = []
    for conv in to_conversations(episodes, style="llamafactory", frames_dir=frames_dir,
                                 **kwargs):
        system = [m["content"] for m in conv["messages"] if m["role"] == "system"]
        turns = [{"from": "human" if m["role"] == "user" else "gpt", "value": m["content"]}
                 for m in conv["messages"] if m["role"] != "system"]
        row: dict[str, Any] = {"conversations": turns, "images": conv["images"]}
        if system:
            row["system"] = system[0]
        rows.append(row)
    file_name = f"{SHAREGPT_NAME}.json"
    _write_json(out / file_name, rows)
    columns = {"messages": "conversations", "images": "images"}
    if any("system" in r for r in rows):
        columns["system"] = "system"
    _write_json(out / "dataset_info.json", {SHAREGPT_NAME: {
        "file_name": file_name, "formatting": "sharegpt", "columns": columns}})
    return len(rows)


def hf_features() -> Any:
    """The ``datasets.Features`` of the ``hf`` export: TRL-style messages, the images
    (decoded as PIL images), and the step's ids, action, reason and step instruction."""
    from datasets import Features, Image, Value

    text = Value("string")
    return Features({
        "messages": [{"role": text, "content": [{"type": text, "text": text}]}],
        "images": [Image()], "task_id": text, "seed": Value("int64"), "episode_id": text,
        "step": Value("int64"), "action": text, "reason": text, "step_instruction": text,
        "success": Value("bool")})


def write_hf(episodes: Sequence[Episode], out_dir: str | Path, frames_dir: str | Path,
             shard_rows: int = 2000, **kwargs: Any) -> int:
    """A Hugging Face ``datasets`` folder: ``train-NNNNN.parquet`` shards of
    ``hf_features()`` rows, the PNG bytes embedded (the folder stands alone), for
    ``datasets.load_dataset("parquet", data_dir=out_dir, split="train")``. Returns the
    number of samples. Needs ``datasets`` (the trl extra)."""
    from datasets.utils.logging import (
        disable_progress_bar,
        enable_progress_bar,
        is_progress_bar_enabled,
    )

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("train-*.parquet"):
        old.unlink()
    rows = to_conversations(episodes, style="trl", frames_dir=frames_dir, meta=True,
                            **kwargs)
    features = hf_features()
    bars = is_progress_bar_enabled()
    disable_progress_bar()
    try:
        _write_shards(rows, out, features, shard_rows)
    finally:
        if bars:
            enable_progress_bar()
    return len(rows)


def _write_shards(rows: list[dict[str, Any]], out: Path, features: Any,
                  shard_rows: int) -> None:
    from datasets import Dataset

    for k, start in enumerate(range(0, len(rows), shard_rows)):
        shard = rows[start:start + shard_rows]
        for row in shard:
            row["images"] = [{"bytes": _read(p), "path": Path(p).name} for p in row["images"]]
            for m in row["messages"]:  # one schema for every part: text null on images
                m["content"] = [{"type": c["type"], "text": c.get("text")}
                                for c in m["content"]]
        Dataset.from_list(shard, features=features).to_parquet(
            str(out / f"train-{k:05d}.parquet"))


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def write_formats(folder: str | Path, formats: Sequence[str], *, reasons: str = "none",
                  successful_only: bool = True, **kwargs: Any) -> dict[str, int]:
    """Write the episodes of the trajectory folder ``folder`` in each of ``formats``
    (``FORMATS``; ``native`` is the folder itself) into ``folder/<format>/``; returns the
    samples written per format."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"format {unknown[0]!r}; accepted: {', '.join(FORMATS)}")
    folder = Path(folder)
    episodes = load_episodes(folder, frames=False)
    common = {"reasons": reasons, "successful_only": successful_only, **kwargs}
    counts: dict[str, int] = {}
    for fmt in formats:
        if fmt == "native":
            counts[fmt] = sum(len(e) for e in episodes)
        elif fmt == "hf":
            counts[fmt] = write_hf(episodes, folder / "hf", folder, **common)
        elif fmt == "sharegpt":
            counts[fmt] = write_sharegpt(episodes, folder / "sharegpt", folder, **common)
        else:
            rows = to_conversations(episodes, style="trl", frames_dir=folder, **common)
            _write_json(folder / "trl" / "train.jsonl", rows, lines=True)
            counts[fmt] = len(rows)
    return counts
