"""``WorkerPool`` on its own: an episode hung outside agent calls (the env) is abandoned
``ENV_GRACE_S`` after its time limit; workers that die before they start any episode (they
cannot even load their target) stop the run with one clear error instead of being replaced
for every episode; the progress file a lost episode is rebuilt from."""

from __future__ import annotations

import json
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from phone_gym.bench import workers
from phone_gym.bench.calls import AgentCalls
from phone_gym.bench.workers import Lost, WorkerPool, read_progress


def naps(seconds: float, calls: AgentCalls) -> str:
    """A worker's target: sleeps outside any agent call."""
    time.sleep(seconds)
    return f"slept {seconds:g}"


def test_an_episode_hung_outside_agent_calls_is_abandoned_after_the_grace(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "ENV_GRACE_S", 0.5)
    start = time.monotonic()
    with WorkerPool(1, naps, lambda job: 0.5) as pool:
        outcomes = list(pool.run([3600, 0.0]))
    assert time.monotonic() - start < 60
    (hung, lost), (quick, slept) = outcomes
    assert (hung, quick, slept) == (3600, 0.0, "slept 0")  # a new worker ran the next one
    assert isinstance(lost, Lost) and lost.failure == "time_limit"
    assert "over the time limit of 0.5 s by more than 0.5 s outside agent calls" in lost.detail
    assert 1.0 <= lost.elapsed_s < 30


def test_workers_that_die_at_start_stop_the_run_with_one_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("phone_gym_test_only_here")  # a worker cannot import it

    def target(job: Any, calls: AgentCalls) -> None:
        raise AssertionError("never runs")

    target.__module__, target.__qualname__ = module.__name__, "target"
    module.target = target  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(RuntimeError, match=r"die before they start an episode \(the worker "
                                           r"process exited with code 1"):
        with WorkerPool(1, target, lambda job: None) as pool:
            list(pool.run(range(10)))
    assert not pool.workers and not os.path.exists(pool.folder)


def test_progress_file_keeps_every_action_and_skips_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "worker-0.jsonl"
    lines = [{"what": "the call timeout of 9 s", "instruction": "Do it", "steps": 0,
              "actions": []},
             {"what": "the time limit of 5 s", "steps": 2, "tokens_in": 7,
              "actions": [{"step": 1}, {"step": 2}]},
             {"what": "the time limit of 5 s", "steps": 3, "actions": [{"step": 3}]}]
    text = "\n".join(json.dumps(line) for line in lines)
    path.write_text(text + "\n" + text[:25])  # the worker died mid-line
    progress, what = read_progress(path)
    assert what == "the time limit of 5 s"
    assert progress == {"instruction": "Do it", "steps": 3, "tokens_in": 7,
                        "actions": [{"step": 1}, {"step": 2}, {"step": 3}]}
    assert read_progress(tmp_path / "none") == ({"actions": []}, "")
