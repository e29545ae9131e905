"""PhoneWorld-Bench: the frozen suites (50 instances each, held-out templates only, every
oracle solves its instances), the train / test split in the env and the CLI, and the runner
taking a suite's fixed instances."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from phone_gym.bench import resolve_suite, run_bench
from phone_gym.cli import main
from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.suites import pwbench
from phone_gym.tasks.task import Episode
from phone_gym.world import Device

BENCH = pwbench.load()
#: Each frozen instance's params and instruction (a SHA-256 prefix): a template change that
#: alters a frozen instance must be deliberate (``instance_digest``; refresh the file with
#: ``python tests/bench/test_pwbench.py``). Issue 26's AndroidWorld parity changed
#: ``TasksCompletedTasksForDate`` 6884 (20 decoys, as AndroidWorld's) and, in its setup only
#: (not pinned here), ``SimpleCalendarEventsInTimeRange`` 4395 (75 random events).
PINNED = Path(__file__).with_name("pwbench_v1.0_params.json")


def instance_digest(task_id: str, seed: int, device: Device) -> str:
    """The SHA-256 prefix of an instance's params and instruction."""
    ep = Episode(REGISTRY.template(task_id), device, np.random.default_rng(seed))
    blob = json.dumps([ep.params, ep.instruction], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def digests() -> dict[str, str]:
    """``"<template>:<seed>"`` -> ``instance_digest`` of every frozen instance."""
    device = Device(APPS)
    return {f"{t}:{s}": instance_digest(t, s, device) for t, s in BENCH.suite("all")}


def test_three_suites_of_fifty_instances_from_held_out_templates() -> None:
    assert BENCH.version == pwbench.VERSION
    for category in pwbench.CATEGORIES:
        instances = BENCH.suite(category)
        assert len(instances) == pwbench.SIZE == 50
        assert len(set(instances)) == 50, f"{category}: an instance twice"
        for task_id, seed in instances:
            task = REGISTRY.template(task_id)  # still registered
            assert not task.infeasible
            assert pwbench.category_of(task, REGISTRY) == category, task_id
            assert BENCH.split_of(task_id) == "test"
            assert 0 <= seed < 10_000
        # no template fills a suite alone: at least 13 held-out templates per suite
        assert len({t for t, _ in instances}) >= 50 / pwbench.MAX_SEEDS
    assert len(BENCH.suite("all")) == 150


def test_the_split_holds_out_about_a_third_of_each_category() -> None:
    data = json.loads(pwbench.DATA.read_text())
    for category in pwbench.CATEGORIES:
        pool = data["drawn_from"][category]
        held = [t for t in pool if BENCH.split_of(t) == "test"]
        assert len(held) == max(-(-3 * len(pool) // 10), 13), category  # 30%, at least 13
    # every later template is a train template of this version
    assert BENCH.split_of("NoSuchTemplateAddedLater") == "train"
    assert set(BENCH.test_templates) <= set(REGISTRY.templates)


def test_the_data_file_is_the_rule_applied_to_its_templates() -> None:
    """The rule is kept, not only its output: applied again to the templates the version
    was drawn from, it gives the same data; templates added since are all train ones."""
    data = json.loads(pwbench.DATA.read_text())
    again = json.loads(json.dumps(pwbench.draw_from(data["drawn_from"], data["version"])))
    assert again == data
    now = pwbench.draw(REGISTRY)["drawn_from"]
    for category in pwbench.CATEGORIES:
        assert set(data["drawn_from"][category]) <= set(now[category]), category


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_frozen_instances_keep_their_params() -> None:
    pinned, now = json.loads(PINNED.read_text()), digests()
    assert set(pinned) == set(now)
    changed = sorted(k for k in pinned if pinned[k] != now[k])
    assert not changed, f"frozen PhoneWorld-Bench instances changed: {changed}"


def test_citation_names_the_version_and_the_data_hash() -> None:
    text = BENCH.citation()
    assert f"v{pwbench.VERSION}" in text and BENCH.sha256[:16] in text


def test_unknown_suite_category_names_the_accepted() -> None:
    with pytest.raises(ValueError, match="single, cross, mini, all"):
        BENCH.suite("hard")


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_every_instance_is_solved_by_its_oracle(tmp_path: Path) -> None:
    summary = run_bench("pwbench", "oracle", out_dir=tmp_path, workers=2, frames=False,
                        progress=False)
    assert summary["episodes"] == 150
    assert summary["success_rate"] == 1.0, summary
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {(r["task"], r["seed"]) for r in lines} == set(BENCH.suite("all"))
    categories = {r["category"] for r in lines}
    assert categories <= {"single", "cross-app", "mini-app", "safety"}


def test_instance_suites_take_no_seeds(tmp_path: Path) -> None:
    suite = resolve_suite("pwbench-mini")
    assert suite.instances == BENCH.suite("mini")
    assert set(suite.task_ids) == {t for t, _ in suite.instances}
    with pytest.raises(ValueError, match="fixed .template, seed. instances"):
        run_bench("pwbench-mini", "oracle", seeds=3, out_dir=tmp_path, progress=False)


def test_env_split_samples_only_that_split() -> None:
    test_env = gym.make("PhoneWorld-v0", split="test").unwrapped
    train_env = gym.make("PhoneWorld-v0", split="train").unwrapped
    test_ids = {t.id for t in test_env.templates}
    train_ids = {t.id for t in train_env.templates}
    assert test_ids == set(BENCH.test_templates)
    assert not test_ids & train_ids
    assert test_ids | train_ids == set(REGISTRY.templates)
    apps_env = gym.make("PhoneWorld-v0", split="train", apps="Chat").unwrapped
    assert {t.id for t in apps_env.templates} <= train_ids
    with pytest.raises(ValueError, match="accepted: 'train', 'test'"):
        gym.make("PhoneWorld-v0", split="dev")
    test_env.close()
    train_env.close()


def test_cli_lists_a_suite_and_a_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--suite", "pwbench-cross"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 52 and out[-1].startswith("50 instances; PhoneWorld-Bench v")
    first_task, first_seed = BENCH.suite("cross")[0]
    assert out[1].split()[1:3] == [first_task, str(first_seed)]
    assert main(["tasks", "--split", "test"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith(f"{len(BENCH.test_templates)} templates")


def test_the_page_lists_the_instances() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "bench.md").read_text()
    assert pwbench.with_instances(page, REGISTRY) == page, (
        "docs/bench.md is out of date: run `python -m phone_gym.suites --pwbench "
        "docs/bench.md`")
    assert BENCH.citation() in page


if __name__ == "__main__":  # refresh PINNED (only for a deliberate change)
    PINNED.write_text(json.dumps(digests(), indent=1) + "\n")
