"""The collector with model-free policies (no torch): records, vector envs, groups, format
penalty and error feedback, mixed sources, export and conversation formats."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phone_gym
from phone_gym.actions import parse_action
from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.cli import add_commands, run
from phone_gym.trainer.export import (
    export_episodes,
    load_episodes,
    to_conversations,
    write_conversations,
)
from phone_gym.trainer.mixing import EnvSource, EpisodeSpec, MixedSampler, as_sources
from phone_gym.trainer.policies import CallablePolicy, OraclePolicy, RandomPolicy
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory.records import RECORD_KEYS, Episode, StepRecord

TASK = "ClockDisableAlarm"
SIZE = (135, 300)


def envs(n: int, **kwargs: Any) -> list[PhoneWorldEnv]:
    return [PhoneWorldEnv(task=TASK, obs_size=SIZE, **kwargs) for _ in range(n)]


def check_episode(ep: Episode) -> None:
    assert [s.step for s in ep.steps] == list(range(len(ep)))
    assert [s.done for s in ep.steps] == [False] * (len(ep) - 1) + [True]
    for s in ep.steps:
        data = s.to_json()
        assert tuple(data) == RECORD_KEYS
        json.dumps(data)
        assert s.episode_id == ep.episode_id and s.task_id == TASK
        assert s.reward == s.env_reward + s.penalty
        assert s.frame is not None and s.frame.shape == (SIZE[1], SIZE[0], 3)
        assert s.screenshot == f"frames/{s.episode_id}/{s.step:03d}.png"


def test_oracle_on_env_list_solves_and_records() -> None:
    episodes = Collector(envs(3), OraclePolicy()).collect(6)
    assert len(episodes) == 6 and all(e.success and e.total_reward == 1.0 for e in episodes)
    for ep in episodes:
        check_episode(ep)
        assert ep.steps[-1].action == 'finish(status="success")'
        assert ep.steps[1].history == [ep.steps[0].action]
        assert all(s.valid and s.prompt_ids is None for s in ep.steps)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env_groups_share_task_and_seed(mode: str) -> None:
    vec = phone_gym.make_vec(4, "PhoneWorld-v0", vectorization_mode=mode, obs_size=SIZE,
                             task=[TASK, "NotesPinNote"])
    collector = Collector(vec, OraclePolicy(), seed=3)
    episodes = collector.collect(12, group_size=3)
    vec.close()
    assert len(episodes) == 12 and all(e.success for e in episodes)
    # the oracle's reason and step instruction come through either kind of vector env
    assert all(s.reason and s.step_instruction for e in episodes for s in e.steps)
    groups: dict[int, list[Episode]] = {}
    for ep in episodes:
        groups.setdefault(ep.group_id, []).append(ep)
    assert sorted(len(g) for g in groups.values()) == [3, 3, 3, 3]
    for group in groups.values():
        assert len({(e.steps[0].seed, e.steps[0].task_id, e.steps[0].instruction)
                    for e in group}) == 1
        assert len({tuple(s.text for s in e.steps) for e in group}) == 1


def test_random_policy_on_vector_env_ends_every_episode() -> None:
    vec = phone_gym.make_vec(4, f"PhoneWorld-{TASK}-v0", vectorization_mode="sync",
                             obs_size=SIZE, max_steps=5)
    episodes = Collector(vec, RandomPolicy(seed=0)).collect(8)
    assert len(episodes) == 8 and all(1 <= len(e) <= 5 for e in episodes)
    assert {s.valid for e in episodes for s in e.steps} == {True}


def test_parse_error_is_penalized_and_fed_back() -> None:
    script = ["tap the clock please", 'open_app(app="Clock")', 'finish(status="success")']

    def fn(obs: Any, info: dict[str, Any], history: list[Any]) -> str:
        return script[len(history)]

    [ep] = Collector(envs(1), CallablePolicy(fn), format_penalty=0.25).collect(1)
    first, second = ep.steps[0], ep.steps[1]
    assert not first.valid and first.action is None and first.action_error
    assert first.penalty == -0.25 and first.reward == -0.25
    assert second.feedback == first.action_error
    assert second.history == ["tap the clock please"]
    assert second.valid and second.penalty == 0.0
    assert len(ep) == 3 and not ep.success and ep.total_reward == pytest.approx(-0.25)


def test_sampler_weights_groups_and_seeds() -> None:
    sources = [EnvSource("a", "PhoneWorld-v0", weight=3.0),
               EnvSource("b", "PhoneWorld-v0", weight=1.0, seeds=[5, 6])]
    specs = MixedSampler(sources, group_size=2, seed=0).sample(400)
    assert len(specs) == 800
    share = Counter(s.source for s in specs)["a"] / 800
    assert 0.70 < share < 0.80
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first == second
    assert [s.seed for s in specs if s.source == "b"][::2][:4] == [5, 6, 5, 6]
    named = as_sources([("PhoneWorld-v0", {"task": TASK}, 2.0), (PhoneWorldEnv, {}, 1.0)])
    assert [s.name for s in named] == ["PhoneWorld-v0#0", "PhoneWorldEnv#1"]
    with pytest.raises(ValueError, match="unique"):
        as_sources([EnvSource("x", "PhoneWorld-v0"), EnvSource("x", "PhoneWorld-v0")])


def test_mixed_sources_run_on_their_own_envs() -> None:
    small = EnvSource("mock-small", PhoneWorldEnv, {"task": TASK, "obs_size": SIZE},
                      weight=1.0, num_envs=2)
    tall = EnvSource("mock-notes", "PhoneWorld-v0",
                     {"task": "NotesPinNote", "obs_size": (180, 400)}, weight=1.0, num_envs=1)
    sampler = MixedSampler([small, tall], group_size=2, seed=1)
    episodes = Collector(sampler, OraclePolicy()).collect(16, group_size=2)
    by_source = Counter(e.steps[0].source for e in episodes)
    assert set(by_source) == {"mock-small", "mock-notes"} and sum(by_source.values()) == 16
    for ep in episodes:
        s = ep.steps[0]
        if s.source == "mock-small":
            assert s.task_id == TASK and s.frame.shape == (300, 135, 3)
        else:
            assert s.task_id == "NotesPinNote" and s.frame.shape == (400, 180, 3)
    with pytest.raises(ValueError, match="no env for sources"):
        Collector(envs(1), OraclePolicy()).collect(specs=[EpisodeSpec("elsewhere", 0, 0)])


def test_export_round_trip_and_conversations(tmp_path: Path) -> None:
    episodes = Collector(envs(2), OraclePolicy()).collect(3)
    export_episodes(episodes, tmp_path)
    loaded = load_episodes(tmp_path)
    assert [e.episode_id for e in loaded] == [e.episode_id for e in episodes]
    for a, b in zip(episodes, loaded, strict=True):
        for x, y in zip(a.steps, b.steps, strict=True):
            assert x.to_json() == y.to_json()
            assert np.array_equal(x.frame, y.frame)
    steps = sum(len(e) for e in episodes)
    rows = to_conversations(loaded, style="llamafactory", history_images=1)
    assert len(rows) == steps
    for row, step in zip(rows, [s for e in loaded for s in e.steps], strict=True):
        system, user, assistant = row["messages"]
        assert [system["role"], user["role"], assistant["role"]] == [
            "system", "user", "assistant"]
        assert assistant["content"] == step.action
        assert parse_action(assistant["content"])
        assert user["content"].count("<image>") == len(row["images"])
        assert row["images"][-1] == step.screenshot
        assert all((tmp_path / p).exists() for p in row["images"])
        assert step.instruction in user["content"]
    trl = to_conversations(loaded, style="trl")
    user = trl[1]["messages"][1]["content"]
    assert [p["type"] for p in user] == ["text", "image"] and len(trl[1]["images"]) == 1
    assert f"Previous actions:\n1. {loaded[0].steps[0].action}" in user[0]["text"]
    n = write_conversations(loaded, tmp_path / "conv.jsonl", style="trl")
    assert n == steps and len((tmp_path / "conv.jsonl").read_text().splitlines()) == steps


def test_record_from_json_ignores_unknown_keys() -> None:
    [ep] = Collector(envs(1), OraclePolicy()).collect(1)
    data = {**ep.steps[0].to_json(), "extra": 1}
    assert StepRecord.from_json(data).to_json() == ep.steps[0].to_json()


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="phone-gym")
    add_commands(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def last_json(out: str) -> dict[str, Any]:
    return dict(json.loads(out.strip().splitlines()[-1]))


def test_collect_writes_trajectories_and_conversations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["collect", "--task", TASK, "--episodes", "3", "--num-envs", "2",
                  "--size", *map(str, SIZE), "--out", str(tmp_path), "--no-progress",
                  "--conversations", "trl"])
    assert args.func is run and run(args) == 0
    summary = last_json(capsys.readouterr().out)
    assert summary["episodes"] == summary["solved"] == 3
    episodes = load_episodes(tmp_path)
    assert len(episodes) == 3 and all(e.success for e in episodes)
    rows = (tmp_path / "conversations_trl.jsonl").read_text().splitlines()
    assert len(rows) == summary["steps"] == summary["conversations"]
