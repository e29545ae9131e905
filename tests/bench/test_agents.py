"""The bench's agents: specs, the trainer ``Policy`` adapter, the seeded random agent and
``OpenAIAgent``'s requests (against the fake server of ``test_fake_server``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from test_fake_server import FakeOpenAI, completion

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.actions import PhoneAction
from phone_gym.bench import (
    CallableAgent,
    EndpointError,
    OpenAIAgent,
    OracleAgent,
    PolicyAgent,
    RandomAgent,
    make_agent,
    read_results,
    run_bench,
)
from phone_gym.bench.agents import load_format


def test_make_agent_specs() -> None:
    assert isinstance(make_agent("oracle"), OracleAgent)
    assert isinstance(make_agent("random", {"seed": 3}), RandomAgent)
    assert isinstance(make_agent("phone_gym.bench.agents:OracleAgent"), OracleAgent)
    assert isinstance(make_agent(lambda obs, info: "wait(seconds=0)"), CallableAgent)
    from phone_gym.trainer.policies import RandomPolicy

    assert isinstance(make_agent(RandomPolicy()), PolicyAgent)
    with pytest.raises(ValueError, match="has no 'Nope'"):
        make_agent("phone_gym.bench.agents:Nope")
    with pytest.raises(ValueError, match="accepted"):
        make_agent(42)


def test_a_trainer_policy_runs_with_its_history(tmp_path: Path) -> None:
    from phone_gym.trainer.policies import CallablePolicy, Generation

    seen: list[int] = []

    def fn(obs: Any, info: Any, history: Any) -> Generation:
        seen.append(len(history))
        return Generation(text="wait(seconds=0)", prompt_ids=[1, 2, 3], gen_ids=[4])

    summary = run_bench("ClockDisableAlarm", CallablePolicy(fn), out_dir=tmp_path,
                        progress=False, frames=False)
    (record,) = read_results(tmp_path)
    assert seen == list(range(record["steps"]))
    assert (summary["tokens_in"], summary["tokens_out"]) == (3 * record["steps"],
                                                             record["steps"])


def test_random_agent_is_seeded_per_episode() -> None:
    env = gym.make("PhoneWorld-v0", task="ContactsAddContact")

    def play(agent: RandomAgent, seed: int) -> list[PhoneAction]:
        agent.bind(env, seed)
        obs, info = env.reset(seed=seed)
        agent.reset(obs["instruction"], info)
        return [agent.act(obs, info)[0] for _ in range(5)]  # type: ignore[misc]

    agent = RandomAgent(seed=1)
    first = play(agent, 0)
    play(agent, 1)
    assert play(agent, 0) == first  # what ran before does not matter
    assert play(RandomAgent(seed=2), 0) != first


def test_openai_agent_request_and_usage() -> None:
    with FakeOpenAI(lambda body: (200, completion("click(x=10, y=20)", 321, 7))) as server:
        agent = OpenAIAgent(server.base_url, "m", api_key="sk-test", max_tokens=64)
        agent.reset("Do it", {})
        shot = np.zeros((40, 20, 3), np.uint8)
        text, usage = agent.act({"screenshot": shot, "instruction": "Do it"},
                                {"action_error": None})
        agent.act({"screenshot": shot}, {"action_error": "bad"})
        body, headers = server.requests[-1], server.headers[-1]
    assert text == "click(x=10, y=20)"
    assert agent.parse(text, (20, 40)) == PhoneAction("click", x=10, y=20)
    assert (usage["tokens_in"], usage["tokens_out"]) == (321, 7) and usage["latency_s"] > 0
    assert headers["Authorization"] == "Bearer sk-test"
    assert body["max_tokens"] == 64
    user = body["messages"][1]["content"][0]["text"]
    assert "Task: Do it" in user and "1. click(x=10, y=20)" in user
    assert "Your last action failed: bad" in user


def test_openai_agent_errors() -> None:
    with pytest.raises(ValueError, match="http:// or https://"):
        OpenAIAgent("localhost:8000", "m")
    with pytest.raises(ValueError, match="did you mean"):
        load_format("qwen25")
    with FakeOpenAI(lambda body: (400, b'{"error": "bad model"}')) as server:
        agent = OpenAIAgent(server.base_url, "m", retries=3, backoff_s=0.01)
        with pytest.raises(EndpointError, match="HTTP 400.*bad model"):
            agent.act({}, {})
        assert len(server.requests) == 1  # a client error is not retried


def test_run_json_keeps_no_secret(tmp_path: Path) -> None:
    with FakeOpenAI(lambda body: (200, completion('finish(status="success")'))) as server:
        run_bench("ClockDisableAlarm", "openai", out_dir=tmp_path, progress=False,
                  agent_options={"base_url": server.base_url, "model": "m",
                                 "api_key": "sk-secret"})
    assert "sk-secret" not in (tmp_path / "run.json").read_text()
    assert "sk-secret" not in (tmp_path / "results.jsonl").read_text()
