"""A task suite from another benchmark, as data: its tasks (with that benchmark's own
metadata), the phone-gym template each maps to (or None), and its protocol (device date,
step budget)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class SuiteTask:
    """One task of an outside suite and its phone-gym counterpart.

    ``counterpart``: a template id that checks the same thing, or None (not yet);
    ``differs``: what differs from the outside task (or why there is no counterpart)."""

    name: str
    app: str
    information_retrieval: bool
    difficulty: str
    complexity: float
    optimal_steps: int
    apps: tuple[str, ...]
    counterpart: str | None
    differs: str


@dataclass(frozen=True)
class TaskSuite:
    """A named suite: its tasks, the device date it fixes (None: none) and its step budget
    rule (``budget_rule(task)``: the steps an episode of ``task`` gets)."""

    name: str
    tasks: tuple[SuiteTask, ...]
    device_date: datetime | None
    budget_rule: Callable[[SuiteTask], int]
    budget_doc: str

    def __post_init__(self) -> None:
        names = [t.name for t in self.tasks]
        if len(set(names)) != len(names):
            raise ValueError(f"suite {self.name!r} names a task twice")

    @property
    def mapped(self) -> tuple[SuiteTask, ...]:
        """The tasks with a phone-gym counterpart."""
        return tuple(t for t in self.tasks if t.counterpart is not None)

    @property
    def template_ids(self) -> tuple[str, ...]:
        """The counterpart template ids, in suite order, each once."""
        return tuple(dict.fromkeys(t.counterpart for t in self.mapped if t.counterpart))

    @property
    def coverage(self) -> tuple[int, int]:
        """(tasks mapped, tasks in the suite)."""
        return len(self.mapped), len(self.tasks)

    def budgets(self) -> dict[str, int]:
        """Each counterpart template's step budget under the suite's rule (the largest, when
        several tasks map to one template)."""
        out: dict[str, int] = {}
        for t in self.mapped:
            assert t.counterpart is not None
            out[t.counterpart] = max(out.get(t.counterpart, 0), self.budget_rule(t))
        return out
