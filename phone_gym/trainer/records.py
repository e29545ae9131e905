"""Trajectory records: one ``StepRecord`` per policy decision, grouped into ``Episode``s.

Token-in/token-out: ``prompt_ids`` are the exact ids the model was conditioned on and
``gen_ids``/``logprobs`` what it generated; training uses them as they are and never
re-tokenizes the chat. Images stay in memory (``images``) and are written as PNG frames by
``export``; ``screenshot`` then names the current frame's file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

#: The JSON keys of a step record (``StepRecord.to_json``), in order.
RECORD_KEYS: tuple[str, ...] = (
    "episode_id", "source", "task_id", "seed", "group_id", "step", "instruction", "history",
    "feedback", "prompt_ids", "gen_ids", "logprobs", "screenshot", "image_refs", "text",
    "action", "valid", "action_error", "env_reward", "penalty", "reward", "done",
    "terminated", "truncated", "success", "verdict",
)


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
    images: list[np.ndarray] = field(default_factory=list, repr=False)  #: prompt images
    frame: np.ndarray | None = field(default=None, repr=False)  #: the screenshot seen

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (images and frame left out: see ``image_refs``)."""
        return {key: getattr(self, key) for key in RECORD_KEYS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepRecord:
        names = {f.name for f in fields(cls)} - {"images", "frame"}
        return cls(**{k: v for k, v in data.items() if k in names})


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
