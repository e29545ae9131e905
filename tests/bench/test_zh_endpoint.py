"""Acceptance of issue 31: one zh-CN cross-app task (CrossYuanbaoLeaveToDocs: a leave request
written by 元宝 pasted into a new 腾讯文档 document) played through the OpenAI-compatible
endpoint agent, against a fake server on 127.0.0.1 that answers in Chinese: a line of
Chinese reasoning, then the oracle's next action as a model of the format writes it.

The fake server answers in the shape of OpenAI's chat completions
(https://platform.openai.com/docs/api-reference/chat/object), as ``test_fake_server``'s
does. It finds the episode and the step only from what the agent sent (the instruction
after ``任务：`` and the numbered earlier actions), so the zh-CN user message is exercised
too; the test then checks the system prompt was the format's zh-CN one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from test_fake_server import FakeOpenAI, completion, render, user_text

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.actions import PhoneAction
from phone_gym.actions.formats import get_format
from phone_gym.bench import run_bench
from phone_gym.bench.agents import OpenAIAgent

TASK, SEED, LOCALE = "CrossYuanbaoLeaveToDocs", 0, "zh-CN"
#: What the scripted model says before each kind of action.
THOUGHTS = {"click": "我需要点击屏幕上对应的按钮。",
            "type": "现在在输入框里输入需要的文字。",
            "press": "先回到主屏幕，再打开下一个应用。",
            "scroll": "目标不在当前屏幕上，向下滑动查找。",
            "long_press": "长按正文输入框，调出粘贴菜单。",
            "finish": "请假条已经粘贴到新文档里，任务完成。"}


def oracle_route() -> tuple[str, list[PhoneAction]]:
    """The zh-CN instruction and the oracle's actions of the episode (run offline)."""
    env = gym.make("PhoneWorld-v0", task=TASK, locale=LOCALE)
    obs, info = env.reset(seed=SEED)
    actions, done = [], False
    while not done:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        actions.append(action)
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["success"]
    return str(obs["instruction"]), actions


def chinese_reply(fmt: str, instruction: str, route: list[PhoneAction]
                  ) -> Callable[[dict[str, Any]], tuple[int, bytes]]:
    """The server's answer: Chinese reasoning, then the oracle's next action in ``fmt``."""
    write = render(fmt)

    def reply(body: dict[str, Any]) -> tuple[int, bytes]:
        text = user_text(body)
        asked = re.search(r"^任务：(.*)$", text, re.M)
        assert asked is not None and asked.group(1) == instruction, text[:200]
        step = len(re.findall(r"^\d+\. ", text, re.M))
        action = route[step]
        thought = f"第{step + 1}步：{THOUGHTS.get(action.type, '继续按计划操作。')}"
        answer = write(action)
        content = f"Thought: {thought}\n{answer}" if fmt == "uitars" else f"{thought}\n{answer}"
        return 200, completion(content, 1500 + step, 40)

    return reply


@pytest.mark.slow  # two episodes of 20 steps, about 4 s each
@pytest.mark.parametrize("fmt", ["phone_gym", "uitars"])
def test_zh_cross_app_task_through_the_endpoint_agent(tmp_path: Path, fmt: str) -> None:
    instruction, route = oracle_route()
    assert re.search(r"[\u4e00-\u9fff]", instruction)  # the zh-CN instruction
    with FakeOpenAI(chinese_reply(fmt, instruction, route)) as server:
        agent = OpenAIAgent(server.base_url, "fake", format=fmt, retries=0)
        summary = run_bench(TASK, agent, seeds=[SEED], out_dir=tmp_path, progress=False,
                            env_kwargs={"locale": LOCALE})
        bodies = list(server.requests)
    assert summary["episodes"] == 1 and summary["success_rate"] == 1.0, summary
    assert len(bodies) == len(route)
    system = bodies[0]["messages"][0]["content"]
    expected = get_format(fmt).prompt(LOCALE).split("{instruction}")[0].split("{width}")[0]
    assert system.startswith(expected.strip()[:40])
    assert instruction in system  # the format's zh-CN template, filled in
    zh_line = "你是一个操作安卓手机的智能体" if fmt == "phone_gym" else "`Thought` 部分请使用中文"
    assert zh_line in system
    first = user_text(bodies[0])
    assert first.startswith(f"任务：{instruction}") and "之前的操作：无" in first
    assert "当前屏幕：" in first and "Task:" not in first
