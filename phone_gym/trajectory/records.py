"""Trajectory records: one ``StepRecord`` per policy decision, grouped into ``Episode``s.

Token-in/token-out: ``prompt_ids`` are the exact ids the model was conditioned on and
``gen_ids``/``logprobs`` what it generated; training uses them as they are and never
re-tokenizes the chat. Images stay in memory (``images``) and are written as PNG frames by
``export``; ``screenshot`` then names the current frame's file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PureWindowsPath
from typing import Any

import numpy as np

#: The JSON keys of a step record (``StepRecord.to_json``), in order.
RECORD_KEYS: tuple[str, ...] = (
    "episode_id", "source", "task_id", "seed", "group_id", "step", "instruction", "history",
    "feedback", "prompt_ids", "gen_ids", "logprobs", "screenshot", "image_refs", "text",
    "action", "valid", "action_error", "env_reward", "penalty", "reward", "done",
    "terminated", "truncated", "success", "verdict", "reason", "step_instruction", "locale",
)
#: Keys a step record may lack (files written before they existed): read as null.
OPTIONAL_KEYS: frozenset[str] = frozenset({"reason", "step_instruction", "locale"})


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _list_of(check: Callable[[Any], bool], exact: type) -> Callable[[Any], bool]:
    # ``type(x) is exact`` first: fast on the long token-id lists of a VLM's prompts
    return lambda v: isinstance(v, list) and all(type(x) is exact or check(x) for x in v)


#: What each key of a step record holds: (a check, its name in errors, null allowed).
_KIND: dict[str, tuple[Callable[[Any], bool], str, bool]] = {
    "str": (_is_str, "a string", False), "str?": (_is_str, "a string", True),
    "int": (_is_int, "an integer", False), "int?": (_is_int, "an integer", True),
    "num": (_is_num, "a number", False),
    "bool": (lambda v: isinstance(v, bool), "true or false", False),
    "bool?": (lambda v: isinstance(v, bool), "true or false", True),
    "strs": (_list_of(_is_str, str), "a list of strings", False),
    "ints?": (_list_of(_is_int, int), "a list of integers", True),
    "nums?": (_list_of(_is_num, float), "a list of numbers", True),
}
RECORD_TYPES: dict[str, str] = {
    "episode_id": "str", "source": "str", "task_id": "str?", "seed": "int?", "group_id": "int",
    "step": "int", "instruction": "str", "history": "strs", "feedback": "str?",
    "prompt_ids": "ints?", "gen_ids": "ints?", "logprobs": "nums?", "screenshot": "str?",
    "image_refs": "strs", "text": "str", "action": "str?", "valid": "bool",
    "action_error": "str?", "env_reward": "num", "penalty": "num", "reward": "num",
    "done": "bool", "terminated": "bool", "truncated": "bool", "success": "bool?",
    "verdict": "str?", "reason": "str?", "step_instruction": "str?",
    "locale": "str?",
}


def check_ref(ref: str, what: str = "path") -> str:
    """``ref`` if it is a relative path that stays inside its folder (no ``..``, not
    absolute, no drive); else ``ValueError`` naming it."""
    parts = ref.replace("\\", "/").split("/")
    if (not ref or ref.startswith(("/", "\\")) or PureWindowsPath(ref).drive
            or ".." in parts or "\0" in ref):
        raise ValueError(f"{what} {ref!r} is not a relative path inside the trajectory "
                         "folder (absolute paths and '..' are refused)")
    return ref


@dataclass
class StepRecord:
    """One step: what the policy saw, wrote and got."""

    episode_id: str
    source: str  #: name of the environment source (``EnvSource.name``)
    task_id: str | None
    seed: int | None
    group_id: int  #: episodes with the same group id share task and seed (GRPO groups)
    step: int  #: 0-based step index in the episode
    instruction: str
    history: list[str]  #: the earlier actions as the prompt listed them
    feedback: str | None  #: the error of the previous action shown to the model, if any
    prompt_ids: list[int] | None  #: token ids of the prompt (None for policies without tokens)
    gen_ids: list[int] | None  #: generated token ids, the end-of-turn token included
    logprobs: list[float] | None  #: log-probabilities of ``gen_ids`` under the sampler
    screenshot: str | None  #: reference to the current frame (file name once exported)
    image_refs: list[str]  #: references to every prompt image, in prompt order
    text: str  #: the raw model text
    action: str | None  #: the action carried out, in ``format_action`` syntax
    valid: bool  #: the text parsed as an action
    action_error: str | None  #: ``info["action_error"]``
    env_reward: float  #: the environment's reward
    penalty: float  #: format penalty (<= 0) for an action error
    reward: float  #: ``env_reward + penalty``
    done: bool
    terminated: bool
    truncated: bool
    success: bool | None
    verdict: str | None
    #: why the step was taken (an oracle's reason), if recorded
    reason: str | None = None
    #: the step's low-level instruction ("Tap “Save”"), if recorded
    step_instruction: str | None = None
    #: the phone's locale (``info["locale"]``): the language of the prompts, if recorded
    locale: str | None = None
    images: list[np.ndarray] = field(default_factory=list, repr=False)  #: prompt images
    frame: np.ndarray | None = field(default=None, repr=False)  #: the screenshot seen

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (images and frame left out: see ``image_refs``)."""
        return {key: getattr(self, key) for key in RECORD_KEYS}

    @classmethod
    def from_json(cls, data: Any) -> StepRecord:
        """The record ``to_json`` wrote (other keys ignored); ``ValueError`` naming the
        first missing key, the first value of a wrong type, or an unsafe frame path."""
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object (a step record), got {type(data).__name__}")
        data = {**dict.fromkeys(OPTIONAL_KEYS), **data}
        missing = [k for k in RECORD_KEYS if k not in data]
        if missing:
            raise ValueError(f"the step record lacks {', '.join(map(repr, missing))}")
        for key, kind in RECORD_TYPES.items():
            check, name, nullable = _KIND[kind]
            value = data[key]
            if not (check(value) or (nullable and value is None)):
                raise ValueError(f"{key!r} is {json_type(value)}, expected {name}"
                                 + (" or null" if nullable else ""))
        if data["step"] < 0:
            raise ValueError(f"'step' is {data['step']}, expected a step index >= 0")
        if not data["episode_id"]:
            raise ValueError("'episode_id' is empty")
        for ref in ([data["screenshot"]] if data["screenshot"] is not None else []) \
                + data["image_refs"]:
            check_ref(ref, "frame path")
        values = {k: data[k] for k in RECORD_KEYS}
        for key in ("env_reward", "penalty", "reward"):
            values[key] = float(values[key])
        return cls(**values)


def json_type(value: Any) -> str:
    """How a JSON value is named in errors (``a string 'x'``, ``null``, ``a list``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, (int, float)):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({value[:40]!r})"
    if isinstance(value, list):
        return "a list"
    return "an object"


@dataclass
class Episode:
    """The steps of one episode and its return."""

    steps: list[StepRecord]

    @property
    def episode_id(self) -> str:
        return self.steps[0].episode_id

    @property
    def group_id(self) -> int:
        return self.steps[0].group_id

    @property
    def total_reward(self) -> float:
        return float(sum(s.reward for s in self.steps))

    @property
    def success(self) -> bool:
        return bool(self.steps[-1].success) if self.steps else False

    def __len__(self) -> int:
        return len(self.steps)


def group_episodes(episodes: list[Episode]) -> dict[int, list[Episode]]:
    """Episodes by ``group_id``, in first-seen order."""
    groups: dict[int, list[Episode]] = {}
    for ep in episodes:
        groups.setdefault(ep.group_id, []).append(ep)
    return groups
