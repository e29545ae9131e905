"""The judge matrix of every template (``phone_gym.testing.judge_matrix``): positive end
states (the oracle's, the oracle's from other screens, accepted answer formats) pass and
negative ones (near misses, wrong records, over-doing, dumped answers...) fail, at least
``MIN_JUDGED`` of them per template."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from phone_gym.mockapps import TEMPLATES
from phone_gym.mockapps.notes.tasks import NotesDeleteNote
from phone_gym.mockapps.todo.tasks import TodoCountOpen
from phone_gym.testing import MIN_JUDGED, CheckFailed, judge_matrix
from phone_gym.verifiers import Allow, Allowed, Criterion, Matcher

IDS = sorted(TEMPLATES)


@pytest.mark.parametrize("task_id", IDS)
def test_the_judge_matrix_holds(task_id: str) -> None:
    report = judge_matrix(task_id, seeds=3)
    assert report.judged >= MIN_JUDGED and report.positives >= 3 and report.negatives >= 3


class LooseDelete(NotesDeleteNote):
    """Deleting any number of notes is allowed: over-deletion passes."""

    id = "LooseDelete"

    def allowed(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                ) -> Sequence[Allowed]:
        return [Allow(self.collection, "removed", max=99)]


class LooseCount(TodoCountOpen):
    """Any answer holding the right digit passes: a dump of candidates passes."""

    id = "LooseCount"

    def criteria(self, params: Mapping[str, Any], initial: Mapping[str, Any]
                 ) -> Sequence[Criterion]:
        from phone_gym.verifiers import Answer

        want = str(self.expected(params))
        return [Answer(Matcher(lambda v: want in str(v), "contains"))]


@pytest.mark.parametrize("task", [LooseDelete(), LooseCount()])
def test_a_loose_verifier_is_caught(task: Any) -> None:
    with pytest.raises(CheckFailed, match="negative passes"):
        judge_matrix(task, seeds=2)
