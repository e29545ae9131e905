"""``compare`` and ``phone-gym bench compare`` on two hand-made runs: per-task success, the
difference and the exact sign test over seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phone_gym.bench.results import compare, sign_test, summarize
from phone_gym.cli import main


def record(task: str, seed: int, success: bool) -> dict:
    return {"suite": "hand", "task": task, "seed": seed, "apps": ["Clock"],
            "category": "single", "difficulty": 1, "success": success,
            "reward": float(success), "steps": 3, "max_steps": 10, "tokens_in": 0,
            "tokens_out": 0, "latency_s": 0.0, "time_s": 0.1,
            "failure": None if success else "budget", "failure_detail": None,
            "instruction": "", "verdict": "", "frames": None, "actions": []}


def write_run(folder: Path, outcomes: dict[str, list[bool]]) -> Path:
    folder.mkdir()
    lines = [json.dumps(record(task, seed, ok))
             for task, seeds in outcomes.items() for seed, ok in enumerate(seeds)]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    a = write_run(tmp_path / "a", {"Alpha": [False] * 6, "Beta": [True, True, False, True],
                                   "Gamma": [True, False]})
    b = write_run(tmp_path / "b", {"Alpha": [True] * 6, "Beta": [True, False, True, True],
                                   "Delta": [True]})
    return a, b


def test_sign_test_is_the_exact_binomial() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(0, 6) == pytest.approx(2 / 64)
    assert sign_test(6, 0) == pytest.approx(2 / 64)
    assert sign_test(1, 1) == 1.0
    assert sign_test(1, 9) == pytest.approx(2 * 11 / 1024)


def test_compare_per_task_and_overall(runs: tuple[Path, Path]) -> None:
    result = compare(*runs)
    assert list(result["tasks"]) == ["Alpha", "Beta"]  # Gamma and Delta are in one run only
    alpha = result["tasks"]["Alpha"]
    assert (alpha["success_a"], alpha["success_b"], alpha["diff"]) == (0.0, 1.0, 1.0)
    assert (alpha["only_a"], alpha["only_b"]) == (0, 6)
    assert alpha["p_value"] == pytest.approx(0.03125)
    beta = result["tasks"]["Beta"]
    assert (beta["success_a"], beta["success_b"], beta["diff"]) == (0.75, 0.75, 0.0)
    assert (beta["only_a"], beta["only_b"], beta["p_value"]) == (1, 1, 1.0)
    overall = result["overall"]
    assert overall["seeds"] == 10 and (overall["only_a"], overall["only_b"]) == (1, 7)
    assert overall["p_value"] == pytest.approx(sign_test(1, 7))
    assert (result["only_in_a"], result["only_in_b"]) == (2, 1)


def test_compare_cli(runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    a, b = runs
    assert main(["bench", "compare", str(a), str(b)]) == 0
    table = capsys.readouterr().out.splitlines()
    alpha = next(line for line in table if line.startswith("Alpha"))
    assert alpha.split() == ["Alpha", "6", "0%", "100%", "+100%", "0.031"]
    assert any(line.startswith("overall") for line in table)
    assert "not compared: 2 episodes only in A, 1 only in B" in table
    assert main(["bench", "compare", str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tasks"]["Beta"]["diff"] == 0.0
    assert main(["bench", "compare", str(a), str(a.parent / "missing")]) == 2
    err = capsys.readouterr().err
    assert "missing holds no results.jsonl" in err and err.count("\n") == 1


def test_runs_with_nothing_in_common(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"Alpha": [True]})
    b = write_run(tmp_path / "b", {"Beta": [True]})
    with pytest.raises(ValueError, match="share no"):
        compare(a, b)


def test_summary_by_app_category_and_difficulty() -> None:
    records = [record("Alpha", 0, True), record("Alpha", 1, False),
               {**record("Cross", 0, True), "apps": ["Clock", "Notes"],
                "category": "cross-app", "difficulty": 3}]
    summary = summarize(records, "hand", "oracle")
    assert summary["episodes"] == 3 and summary["success_rate"] == pytest.approx(2 / 3)
    assert summary["by_app"]["Clock"]["episodes"] == 3
    assert summary["by_app"]["Notes"] == {"episodes": 1, "successes": 1, "success_rate": 1.0}
    assert summary["by_category"]["single"]["success_rate"] == 0.5
    assert summary["by_difficulty"]["3"]["successes"] == 1
    assert summary["failures"] == {"budget": 1}
