"""The result of verifying a task."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """Whether a task succeeded, why, and optional partial progress in [0, 1]. ``damage``
    lists the changes the task did not allow (collateral damage), whatever else failed."""

    success: bool
    reason: str
    progress: float | None = None
    damage: tuple[Any, ...] = ()

    @property
    def score(self) -> float:
        """1.0 on success, else 0.0 (progress is reported, not rewarded)."""
        return 1.0 if self.success else 0.0

    def __bool__(self) -> bool:
        return self.success


def passed(reason: str = "all checks passed") -> Verdict:
    return Verdict(True, reason, 1.0)


def failed(reason: str, progress: float | None = None) -> Verdict:
    return Verdict(False, reason, progress)
