"""PhoneWorld-Bench zh (issue 31): the zh suites are drawn by v1.0's rule from the held-out
zh-CN templates, frozen with their own version and citation, run on a zh-CN phone, and
every frozen instance is solved by its oracle; the random agent runs through them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.bench import resolve_suite, run_bench
from phone_gym.cli import main
from phone_gym.mockapps import REGISTRY
from phone_gym.suites import pwbench

ZH = pwbench.load_zh()
DATA = json.loads(pwbench.ZH_DATA.read_text(encoding="utf-8"))


def test_zh_suites_come_from_held_out_zh_templates() -> None:
    assert (ZH.version, ZH.locale, ZH.name) == (pwbench.ZH_VERSION, "zh-CN", "PhoneWorld-Bench zh")
    for category in pwbench.CATEGORIES:
        instances = ZH.suite(category)
        pool = DATA["drawn_from"][category]
        # 50 instances, or MAX_SEEDS of each template while a category has fewer than 13
        assert len(instances) == min(pwbench.SIZE, pwbench.MAX_SEEDS * len(pool)), category
        assert len(set(instances)) == len(instances)
        for task_id, seed in instances:
            task = REGISTRY.template(task_id)
            assert "zh-CN" in task.locales and not task.infeasible
            assert pwbench.category_of(task, REGISTRY) == category, task_id
            assert ZH.split_of(task_id) == "test" and 0 <= seed < 10_000
    assert ZH.suite("all") == tuple(i for c in pwbench.CATEGORIES for i in ZH.suite(c))


def test_the_zh_data_file_is_the_rule_applied_to_the_zh_templates() -> None:
    again = pwbench.draw_from(DATA["drawn_from"], DATA["version"], partial=True)
    assert json.loads(json.dumps(again)) == {k: v for k, v in DATA.items()
                                             if k not in ("name", "locale")}
    now = pwbench.draw(REGISTRY, pwbench.ZH_VERSION, "zh-CN")["drawn_from"]
    for category in pwbench.CATEGORIES:  # templates added since are train ones
        assert set(DATA["drawn_from"][category]) <= set(now[category]), category
        assert all("zh-CN" in REGISTRY.template(t).locales for t in now[category])
    with pytest.raises(ValueError, match="needs at least 13"):  # v1.0 allows no short suite
        pwbench.draw_from({"single": ["A"] * 3, "cross": [], "mini": []})


def test_zh_citation_and_v1_citation_stay_apart() -> None:
    text = ZH.citation()
    assert text.startswith(f"PhoneWorld-Bench zh v{pwbench.ZH_VERSION} (pwbench_zh_v")
    assert ZH.sha256[:16] in text
    assert pwbench.load().citation().startswith(f"PhoneWorld-Bench v{pwbench.VERSION} "
                                                f"(pwbench_v{pwbench.VERSION}.json")


def test_zh_suites_run_on_a_zh_phone(capsys: pytest.CaptureFixture[str]) -> None:
    for name, category in (("pwbench-zh-single", "single"), ("pwbench-zh-cross", "cross"),
                           ("pwbench-zh", "all")):
        suite = resolve_suite(name)
        assert suite.env_kwargs == {"locale": "zh-CN"} and suite.instances == ZH.suite(category)
    assert resolve_suite("pwbench-cross").env_kwargs == {}
    assert main(["tasks", "--suite", "pwbench-zh-cross"]) == 0
    assert ZH.citation() in capsys.readouterr().out


def test_zh_split_holds_the_zh_suites_out_of_training() -> None:
    test: Any = gym.make("PhoneWorld-v0", locale="zh-CN", split="test").unwrapped
    train: Any = gym.make("PhoneWorld-v0", locale="zh-CN", split="train").unwrapped
    assert {t.id for t in test.templates} == set(ZH.test_templates)
    held = set(ZH.test_templates) | set(pwbench.load().test_templates)
    assert train.templates and not {t.id for t in train.templates} & held


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_every_zh_instance_is_solved_by_its_oracle(tmp_path: Path) -> None:
    summary = run_bench("pwbench-zh", "oracle", out_dir=tmp_path, workers=2, frames=False,
                        progress=False)
    assert summary["episodes"] == len(ZH.suite("all"))
    assert summary["success_rate"] == 1.0, summary
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {(r["task"], r["seed"]) for r in lines} == set(ZH.suite("all"))
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["env_kwargs"] == {"locale": "zh-CN"}


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_the_random_agent_runs_the_zh_suites(tmp_path: Path) -> None:
    summary = run_bench("pwbench-zh", "random", out_dir=tmp_path, workers=2, frames=False,
                        progress=False)
    assert summary["episodes"] == len(ZH.suite("all")) and summary["crashes"] == 0
    assert summary["success_rate"] < 0.5, summary  # far below the oracle's 100%
