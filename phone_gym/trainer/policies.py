"""The ``Policy`` protocol and the policies that need no model: oracle, random, callable.

A policy is batched: observations, infos and each env's history of earlier turns in, one
action string (or a ``Generation``, which adds the tokens) per env out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..actions import action_from_sample, format_action, make_action_space
from .prompts import Turn

Observation = Mapping[str, Any]
Info = Mapping[str, Any]


@dataclass
class Generation:
    """One policy output: the text, and for token models the exact tokens."""

    text: str
    prompt_ids: list[int] | None = None
    gen_ids: list[int] | None = None
    logprobs: list[float] | None = None
    images: list[np.ndarray] = field(default_factory=list, repr=False)  #: prompt images


@runtime_checkable
class Policy(Protocol):
    """Maps a batch of (observation, info, history) to one action per env."""

    def act(self, observations: Sequence[Observation], infos: Sequence[Info],
            histories: Sequence[Sequence[Turn]]) -> Sequence[str | Generation]: ...


def as_generation(output: str | Generation) -> Generation:
    return output if isinstance(output, Generation) else Generation(text=str(output))


class OraclePolicy:
    """The task's oracle solver (PhoneWorld): reads ``info["oracle_action"]``, which the
    collector fills in because ``needs_oracle`` is set."""

    needs_oracle = True

    def act(self, observations: Sequence[Observation], infos: Sequence[Info],
            histories: Sequence[Sequence[Turn]]) -> list[str]:
        out = []
        for info in infos:
            action = info.get("oracle_action")
            if action is None:
                raise ValueError("no oracle action: this environment has no oracle_action()")
            out.append(str(action))
        return out


class RandomPolicy:
    """Uniform samples of the phone action space, as text (the floor to beat)."""

    def __init__(self, app_names: Sequence[str] = ("Contacts", "Clock", "Notes"),
                 seed: int | None = None) -> None:
        self.app_names = list(app_names)
        self.space = make_action_space(self.app_names)
        self.space.seed(seed)

    def act(self, observations: Sequence[Observation], infos: Sequence[Info],
            histories: Sequence[Sequence[Turn]]) -> list[str]:
        return [format_action(action_from_sample(self.space.sample(), self.app_names))
                for _ in observations]


class CallablePolicy:
    """Wraps ``fn(observation, info, history) -> str`` (called once per env) or, with
    ``batched=True``, ``fn(observations, infos, histories) -> list[str]``."""

    def __init__(self, fn: Callable[..., Any], batched: bool = False) -> None:
        self.fn = fn
        self.batched = batched

    def act(self, observations: Sequence[Observation], infos: Sequence[Info],
            histories: Sequence[Sequence[Turn]]) -> list[str | Generation]:
        if self.batched:
            return list(self.fn(observations, infos, histories))
        return [self.fn(o, i, h) for o, i, h in zip(observations, infos, histories, strict=True)]
