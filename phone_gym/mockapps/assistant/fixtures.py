"""Public fixtures of Yuanbao (元宝): seeding conversations, the reply generator other
tasks check against, and the vocabulary of prompts."""

from __future__ import annotations

from typing import Any

from .app import ASSISTANT, USER, AssistantApp, Message, ask, generate

CONVOS = "apps.Yuanbao.convos"
MESSAGES = "apps.Yuanbao.messages"
REASONS = ("发烧需要去医院", "家里有事需要回老家", "要参加孩子的家长会", "搬家",
           "陪家人做体检", "办理房产过户手续")
PLACES = ("三楼会议室", "大会议室", "一号报告厅", "十二楼小会议室")
TOPICS = ("季度总结会", "项目启动会", "安全培训会", "部门例会")
PEOPLE = ("王芳", "李娜", "张伟", "刘洋", "陈静", "赵磊", "孙梅", "周涛")
QUESTIONS = ("怎么提高睡眠质量", "周末去哪里玩比较好", "怎么学好英语口语", "如何开始健身")

__all__ = ["ASSISTANT", "USER", "Message", "generate", "reply_to", "ask_assistant",
           "leave_prompt", "CONVOS", "MESSAGES"]


def assistant_app(state: Any) -> AssistantApp:
    app = state.app("Yuanbao")
    assert isinstance(app, AssistantApp)
    return app


def ask_assistant(state: Any, prompt: str) -> Message:
    """A past conversation: ``prompt`` and the assistant's reply (returned)."""
    return ask(assistant_app(state).data, prompt)


def reply_to(prompt: str) -> str:
    """The text the assistant replies to ``prompt``."""
    return generate(prompt)[1]


def md(month: int, day: int) -> str:
    return f"{month}月{day}日"


def leave_prompt(start: str, end: str, reason: str) -> str:
    """How the tasks ask for a leave request."""
    return f"帮我写一张请假条：{start}至{end}，因为{reason}"
