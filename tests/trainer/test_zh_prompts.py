"""Issue 31: every prompt the agent and the converters write has an en-US and a zh-CN
version, the zh-CN one keeps the action grammar literal, and a zh-CN episode gets it (the
endpoint agent, SFT exports, the trainer's rollouts through ``info["locale"]``, TRL)."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.actions import ACTION_TYPES
from phone_gym.actions.formats import FORMATS
from phone_gym.actions.formats.base import PROMPT_LOCALES as FORMAT_LOCALES
from phone_gym.bench.agents import OpenAIAgent
from phone_gym.trainer.export import to_conversations
from phone_gym.trainer.prompts import (
    ACTION_DOCS_ZH,
    PROMPT_LOCALES,
    USER_LABELS,
    build_messages,
    prompt_locale,
    reasons_prompt,
    system_prompt,
    user_text,
)
from phone_gym.trajectory.records import Episode, StepRecord
from phone_gym.world.locale import LOCALES

CJK = re.compile(r"[\u4e00-\u9fff]")
ZH_TASK = "CrossYuanbaoLeaveToDocs"


def grammar(text: str) -> set[str]:
    """The literal tokens of an action grammar: call names and quoted identifiers."""
    return set(re.findall(r"\b[a-z_]+\(", text)) | set(re.findall(r'"([A-Za-z_ ]+)"', text))


def test_every_locale_of_the_phone_has_prompts() -> None:
    assert PROMPT_LOCALES == FORMAT_LOCALES == LOCALES


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_prompt_has_a_zh_version_with_the_same_grammar(name: str) -> None:
    fmt = FORMATS[name]
    en, zh = fmt.prompt(), fmt.prompt("zh-CN")
    assert not CJK.search(en) and len(CJK.findall(zh)) > 40, "zh-CN is written in Chinese"
    assert grammar(en) <= grammar(zh), grammar(en) - grammar(zh)
    for field in ("{instruction}", "{width}", "{height}"):
        assert (field in en) == (field in zh), field
    filled = fmt.system_prompt("把请假条粘贴到新文档", (540, 1200), locale="zh-CN")
    assert "把请假条粘贴到新文档" in filled and "{instruction}" not in filled
    with pytest.raises(ValueError, match="accepted: en-US, zh-CN"):
        fmt.prompt("fr-FR")


def test_trainer_prompts_have_zh_versions() -> None:
    en, zh = system_prompt(["元宝", "腾讯文档"]), system_prompt(["元宝", "腾讯文档"],
                                                              locale="zh-CN")
    assert en != zh and CJK.search(zh) and "元宝、腾讯文档" in zh
    assert set(ACTION_DOCS_ZH) == set(ACTION_TYPES)
    for name in ACTION_TYPES:  # each action's call is written as the parser reads it
        assert f"- {name}(" in zh
    assert 'finish(status="infeasible")' in zh and "[0, 1000]" in zh
    for reasons in ("reason", "reason_and_step"):
        line = reasons_prompt(reasons, "zh-CN")
        assert CJK.search(line) and "'Reason: ...'" in line and "'Action: ...'" in line
        assert line in system_prompt(reasons=reasons, locale="zh-CN")
    assert set(USER_LABELS) == set(PROMPT_LOCALES)
    assert all(set(labels) == set(USER_LABELS["en-US"]) for labels in USER_LABELS.values())
    text = user_text("发一条消息", ["click(x=1, y=2)"], "坐标越界", locale="zh-CN")
    assert text.splitlines() == ["任务：发一条消息", "之前的操作：", "1. click(x=1, y=2)",
                                 "你的上一个操作失败了：坐标越界", "当前屏幕："]
    messages, _ = build_messages("发一条消息", [], None, locale="zh-CN")
    assert messages[-1]["content"][0]["text"].startswith("任务：发一条消息")
    assert prompt_locale(None) == "en-US"
    with pytest.raises(ValueError, match="accepted: en-US, zh-CN"):
        prompt_locale("ja-JP")


def test_integration_prompts_have_zh_versions() -> None:
    from phone_gym.integrations.trl import FIRST_MESSAGES, SYSTEM_PROMPTS, TASK_LABELS

    for table in (SYSTEM_PROMPTS, FIRST_MESSAGES, TASK_LABELS):
        assert set(table) == set(PROMPT_LOCALES)
        assert CJK.search(table["zh-CN"]) and not CJK.search(table["en-US"])
    assert "finish(status='infeasible')" in SYSTEM_PROMPTS["zh-CN"]
    try:
        from phone_gym.integrations.verl import NOTES
    except ImportError:  # verl is not installed: its notes are checked where it is
        return
    assert set(NOTES) == set(PROMPT_LOCALES)
    assert all(CJK.search(note) for note in NOTES["zh-CN"])


@pytest.mark.parametrize("fmt", ["phone_gym", "qwen25vl"])
def test_the_endpoint_agent_speaks_the_episodes_locale(fmt: str) -> None:
    prompts = {}
    for locale in LOCALES:
        env = gym.make("PhoneWorld-v0", task=ZH_TASK, locale=locale)
        obs, info = env.reset(seed=0)
        assert info["locale"] == locale
        agent = OpenAIAgent("http://127.0.0.1:9/v1", "m", format=fmt)
        agent.bind(env, 0)
        agent.reset(obs["instruction"], info)
        system, user = agent.messages(obs, info)
        assert obs["instruction"] in system["content"]
        prompts[locale] = (system["content"], user["content"][0]["text"])
    assert prompts["zh-CN"][0] == FORMATS[fmt].system_prompt(
        gym.make("PhoneWorld-v0", task=ZH_TASK, locale="zh-CN").reset(seed=0)[0]["instruction"],
        (540, 1200), locale="zh-CN")
    assert prompts["zh-CN"][1].startswith("任务：") and prompts["en-US"][1].startswith("Task: ")


def _step(locale: str | None) -> StepRecord:
    return StepRecord(
        episode_id="ep", source="test", task_id=ZH_TASK, seed=0, group_id=0, step=0,
        instruction="在元宝里写一张请假条", history=[], feedback=None, prompt_ids=None,
        gen_ids=None, logprobs=None, screenshot=None, image_refs=[], text="click(x=1, y=2)",
        action="click(x=1, y=2)", valid=True, action_error=None, env_reward=1.0, penalty=0.0,
        reward=1.0, done=True, terminated=True, truncated=False, success=True, verdict="done",
        locale=locale, frame=np.zeros((4, 3, 3), np.uint8))


def test_sft_export_uses_the_recorded_locale() -> None:
    rows = {locale: to_conversations([Episode([_step(locale)])], style="trl")[0]
            for locale in ("zh-CN", "en-US", None)}
    zh, en, unrecorded = (rows[k]["messages"] for k in ("zh-CN", "en-US", None))
    assert zh[0]["content"][0]["text"] == system_prompt(locale="zh-CN")
    assert zh[1]["content"][0]["text"].startswith("任务：在元宝里写一张请假条")
    assert en[0] == unrecorded[0] and en[0]["content"][0]["text"] == system_prompt()
    assert StepRecord.from_json(_step("zh-CN").to_json()).locale == "zh-CN"


@pytest.mark.slow  # imports datasets: about 5 s
def test_trl_env_and_dataset_speak_the_locale() -> None:
    pytest.importorskip("datasets")
    from phone_gym.integrations.trl import SYSTEM_PROMPTS, PhoneToolEnv, build_dataset

    env = PhoneToolEnv(env_kwargs={"task": ZH_TASK, "locale": "zh-CN"}, image_size=None)
    first = env.reset(task=ZH_TASK, seed=0)
    assert first[-1]["text"].startswith("任务：在元宝里")
    rows = build_dataset(seeds=1, locale="zh-CN")
    assert rows[0]["prompt"][0]["content"] == SYSTEM_PROMPTS["zh-CN"]
    from phone_gym.mockapps import REGISTRY
    en_only = {t.id for t in REGISTRY.templates.values() if "zh-CN" not in t.locales}
    assert ZH_TASK in set(rows["task"]) and en_only and not en_only & set(rows["task"])
