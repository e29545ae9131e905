"""``run_bench``: the oracle and random baselines over every PhoneWorld template, failure
reasons, the step budget rule, frames, resume after an interrupted write, and the CLI."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

from phone_gym.bench import read_results, run_bench
from phone_gym.bench.results import TIMING_KEYS
from phone_gym.cli import main
from phone_gym.mockapps import TEMPLATES

TWO = "ClockDisableAlarm,ContactsAddContact"


# agents of these tests, named as module:function too
def always_wait(obs: Any, info: Any) -> str:
    return "wait(seconds=0)"


def gibberish(obs: Any, info: Any) -> str:
    return "let me think about it"


def wrong_answer(obs: Any, info: Any) -> str:
    return 'answer(text="no idea")'


def crashes(obs: Any, info: Any) -> str:
    raise RuntimeError("boom")


def slow(obs: Any, info: Any) -> str:
    time.sleep(0.05)
    return "wait(seconds=0)"


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_oracle_solves_every_template_and_random_almost_none(tmp_path: Path) -> None:
    oracle = run_bench("phoneworld", "oracle", seeds=1, workers=2, out_dir=tmp_path / "o",
                       frames=False, progress=False)
    assert oracle["episodes"] == len(TEMPLATES)
    assert oracle["success_rate"] == 1.0, oracle["failures"]
    assert {"single", "cross-app", "safety"} <= set(oracle["by_category"])
    random = run_bench("phoneworld", "random", seeds=1, workers=2, out_dir=tmp_path / "r",
                       frames=False, progress=False)
    assert random["episodes"] == len(TEMPLATES)
    assert random["success_rate"] < 0.1
    assert set(random["failures"]) <= {"wrong_answer", "budget", "invalid_actions"}


@pytest.mark.parametrize("agent, task, failure, detail", [
    (f"{__name__}:always_wait", "ClockDisableAlarm", "budget", "10 steps of 10"),
    (gibberish, "ContactsAddContact", "invalid_actions", "4 invalid actions in a row"),
    (wrong_answer, "ClockAlarmTimeLookup", "wrong_answer", None),
    (crashes, "ClockDisableAlarm", "crash", "RuntimeError: boom"),
])
def test_failure_reasons(tmp_path: Path, agent: Any, task: str, failure: str,
                         detail: str | None) -> None:
    summary = run_bench(task, agent, out_dir=tmp_path, progress=False)
    (record,) = read_results(tmp_path)
    assert summary["failures"] == {failure: 1}
    assert record["failure"] == failure and not record["success"]
    if detail is not None:
        assert detail in record["failure_detail"]
    else:
        assert record["failure_detail"] == record["verdict"] != ""
    if failure == "invalid_actions":
        assert record["steps"] == 4
        assert all(a["action"] is None and a["error"] for a in record["actions"])


def test_every_action_invalid_and_the_time_limit(tmp_path: Path) -> None:
    run_bench("ClockDisableAlarm", gibberish, out_dir=tmp_path / "a", invalid_limit=100,
              progress=False)
    (record,) = read_results(tmp_path / "a")
    assert record["steps"] == record["max_steps"] == TEMPLATES["ClockDisableAlarm"].max_steps
    assert record["failure"] == "invalid_actions"
    assert record["failure_detail"].startswith("every action was invalid")
    run_bench("ContactsAddContact", slow, out_dir=tmp_path / "b", time_limit_s=0.12,
              progress=False, frames=False)
    (record,) = read_results(tmp_path / "b")
    assert record["failure"] == "time_limit" and 1 <= record["steps"] < record["max_steps"]


def test_step_budget_rule_and_frames(tmp_path: Path) -> None:
    run_bench("ClockDisableAlarm", always_wait, out_dir=tmp_path, max_steps_rule=1.5,
              progress=False)
    (record,) = read_results(tmp_path)
    budget = math.ceil(TEMPLATES["ClockDisableAlarm"].max_steps * 1.5)
    assert record["max_steps"] == record["steps"] == budget
    assert record["frames"] == "episodes/ClockDisableAlarm_0/"
    names = sorted(p.name for p in (tmp_path / record["frames"]).iterdir())
    assert names == [f"step_{i:03d}.png" for i in range(budget + 1)]  # the final screen last
    assert record["actions"][0] == {"step": 1, "text": "wait(seconds=0)",
                                    "action": {"action": "wait", "seconds": 0}, "error": None}


def test_resume_skips_finished_episodes_and_mends_a_torn_line(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run_bench(TWO, "oracle", seeds=2, out_dir=whole, progress=False, frames=False)
    lines = (whole / "results.jsonl").read_text().splitlines(keepends=True)
    assert len(lines) == 4
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "results.jsonl").write_text(lines[0] + lines[1] + lines[2][:40])  # killed mid-write
    (cut / "run.json").write_text((whole / "run.json").read_text())
    summary = run_bench(TWO, "oracle", seeds=2, out_dir=cut, progress=False, frames=False)
    assert summary["episodes"] == 4 and summary["success_rate"] == 1.0
    text = (cut / "results.jsonl").read_text().splitlines()
    assert len(text) == 4 and all(json.loads(line) for line in text)  # no torn line left
    assert text[:2] == [line.rstrip("\n") for line in lines[:2]]  # not run again

    def key(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(({k: v for k, v in r.items() if k not in TIMING_KEYS} for r in records),
                      key=lambda r: (r["task"], r["seed"]))

    assert key(read_results(cut)) == key(read_results(whole))


def test_another_run_in_the_folder_needs_no_resume(tmp_path: Path) -> None:
    run_bench("ClockDisableAlarm", "oracle", out_dir=tmp_path, progress=False)
    with pytest.raises(ValueError, match="another agent.*--no-resume"):
        run_bench("ClockDisableAlarm", "random", out_dir=tmp_path, progress=False)
    summary = run_bench("ClockDisableAlarm", "random", out_dir=tmp_path, resume=False,
                        progress=False, frames=False)
    assert summary["agent"] == "random" and len(read_results(tmp_path)) == 1
    assert not (tmp_path / "episodes").exists()


@pytest.mark.parametrize("kwargs, message", [
    ({"suite": "phonewrld"}, "did you mean 'phoneworld'"),
    ({"suite": "ClockDisableAlarm,Nope"}, "unknown suite or task 'Nope'"),
    ({"seeds": 0}, "seeds=0; accepted"),
    ({"workers": 0}, "workers=0; accepted"),
    ({"max_steps_rule": 0}, "max_steps_rule=0; accepted"),
    ({"agent": "nope"}, "accepted: oracle, random, openai or module:function"),
    ({"agent": "no_such_module:fn"}, "no module 'no_such_module'"),
    ({"agent": "openai"}, "needs base_url and model"),
    ({"agent": lambda obs, info: "wait(seconds=0)", "workers": 2}, "module:function"),
    ({"call_timeout_s": 0}, "call_timeout_s=0; accepted: None or seconds > 0"),
    ({"agent": "openai", "call_timeout_s": 60, "agent_options": {
        "base_url": "http://127.0.0.1:9/v1", "model": "m", "timeout": 30, "retries": 1}},
     r"shorter than the agent's own worst case \(60.5 s.*accepted: None or seconds >= 60.5"),
])
def test_bad_arguments_raise_value_error(tmp_path: Path, kwargs: dict[str, Any],
                                         message: str) -> None:
    args = {"suite": "ClockDisableAlarm", "agent": "oracle", **kwargs}
    with pytest.raises(ValueError, match=message):
        run_bench(out_dir=tmp_path, progress=False, **args)


def test_cli_run_and_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    out = tmp_path / "run"
    assert main(["bench", "run", "--suite", TWO, "--seeds", "2", "--out", str(out),
                 "--no-progress", "--no-frames"]) == 0
    printed = capsys.readouterr().out
    assert "4 episodes: success 100.0% (single 100%); failures: none" in printed
    run = json.loads((out / "run.json").read_text())
    assert run["seeds"] == [0, 1] and run["call_timeout_s"] == 600.0
    assert main(["bench", "run", "--suite", "Nope", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("phone-gym: unknown suite or task 'Nope'") and "\n" not in err
    assert main(["bench", "run", "--agent", "openai", "--out", str(out)]) == 2
    assert "--base-url" in capsys.readouterr().err
    assert main(["bench", "report", str(tmp_path / "none")]) == 2
    assert "holds no results.jsonl" in capsys.readouterr().err


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_ray_tasks_give_the_records_processes_give(tmp_path: Path) -> None:
    pytest.importorskip("ray")

    def stripped(out: Path) -> list[dict[str, Any]]:
        records = [{k: v for k, v in r.items() if k not in TIMING_KEYS}
                   for r in read_results(out)]
        return sorted(records, key=lambda r: (r["task"], r["seed"]))

    kwargs: dict[str, Any] = {"seeds": 2, "workers": 2, "frames": False, "progress": False}
    a = run_bench(TWO, "oracle", out_dir=tmp_path / "ray", executor="ray", **kwargs)
    b = run_bench(TWO, "oracle", out_dir=tmp_path / "processes", **kwargs)
    assert a["success_rate"] == b["success_rate"] == 1.0
    assert stripped(tmp_path / "ray") == stripped(tmp_path / "processes")
    with pytest.raises(ValueError, match="executor='threads'; accepted: 'processes', 'ray'"):
        run_bench(TWO, "oracle", out_dir=tmp_path / "x", executor="threads")
