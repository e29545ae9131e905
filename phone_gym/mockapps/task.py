"""Task templates in the AndroidWorld pattern, and episodes built from them.

A template has a sentence with ``{params}``, samples its params from a seeded generator,
writes the initial state, verifies the final state (plus the agent's answer) against
the initial one, and has an oracle that solves it through actions alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

import numpy as np

from ..actions import PhoneAction
from ..verifiers import Criterion, Verdict, check
from ..world import Device
from ..world.system import DEFAULT_START
from .oracle import Driver


class TaskTemplate:
    """Subclass and set the class attributes; override the methods you need."""

    #: Unique CamelCase id, also used in the env id ``PhoneWorld-{id}-v0``.
    id: ClassVar[str] = ""
    #: The apps the task is about (used to select tasks by app).
    apps: ClassVar[tuple[str, ...]] = ()
    #: The instruction, formatted with the params.
    template: ClassVar[str] = ""
    #: Rough difficulty (1 easy .. 5 hard) and the step budget.
    complexity: ClassVar[int] = 1
    max_steps: ClassVar[int] = 20
    #: True for information-retrieval tasks that end with ``answer``.
    needs_answer: ClassVar[bool] = False
    #: The frozen start time of the episode's clock.
    start: ClassVar[datetime] = DEFAULT_START

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """The params of one task instance."""
        return {}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        """Write the initial state (records the task needs, plus distractors)."""

    def instruction(self, params: Mapping[str, Any]) -> str:
        return self.template.format(**params)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        """What must hold in the final state."""
        return ()

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        """The changes the task asks for (``verifiers.diff.matches`` patterns)."""
        return ()

    def verify(self, initial: Mapping[str, Any], final: Mapping[str, Any],
               params: Mapping[str, Any], answer: str | None) -> Verdict:
        """Criteria hold and nothing else changed."""
        return check(initial, final, self.criteria(params), allowed=self.allowed(params),
                     answer=answer)

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """A wrong end state close to a solved one, for tests: take the snapshot (and answer)
        the oracle reached and return a copy with a wrong value (a field off by a little, the
        wrong record changed, a wrong answer). ``verify`` must fail it."""
        raise NotImplementedError

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Yield actions that solve the task; may read state through ``ui`` between them."""
        raise NotImplementedError
        yield  # pragma: no cover


def pick(rng: np.random.Generator, items: Sequence[Any], k: int | None = None) -> Any:
    """One item (or ``k`` distinct items) of ``items``, drawn by ``rng``."""
    if k is None:
        return items[int(rng.integers(len(items)))]
    idx = rng.choice(len(items), size=k, replace=False)
    return [items[int(i)] for i in idx]


class Episode:
    """One task instance on a device: params, instruction, initial snapshot, verifier."""

    def __init__(self, template: TaskTemplate, device: Device, rng: np.random.Generator) -> None:
        self.template = template
        self.device = device
        device.reset(template.start)
        self.params = template.sample_params(rng)
        template.setup(device, self.params, rng)
        device.invalidate()
        self.instruction = template.instruction(self.params)
        self.initial = device.snapshot()
        self._oracle: Iterator[PhoneAction] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the running oracle (a generator): it restarts when next asked."""
        return {**self.__dict__, "_oracle": None}

    def verify(self, answer: str | None = None) -> Verdict:
        return self.template.verify(self.initial, self.device.snapshot(), self.params, answer)

    def solve(self, max_steps: int | None = None) -> tuple[str | None, int]:
        """Run the oracle on the device until it answers or finishes.

        Returns the answer (None for ``finish``) and the number of device actions taken.
        Raises ``RuntimeError`` if an action fails or the budget runs out.
        """
        budget = self.template.max_steps if max_steps is None else max_steps
        for steps in range(budget):
            action = self.oracle_action()
            if action.type in ("answer", "finish"):
                return action.text, steps
            error = self.device.step(action)
            if error is not None:
                raise RuntimeError(f"oracle action {action} failed: {error}")
        raise RuntimeError(f"oracle of {self.template.id} did not finish in {budget} steps")

    def oracle_action(self) -> PhoneAction:
        """The oracle's next action for the current screen (``finish`` once it is done)."""
        if self._oracle is None:
            self._oracle = self.template.oracle(Driver(self.device), self.params)
        try:
            return next(self._oracle)
        except StopIteration:
            return PhoneAction("finish", status="success")
