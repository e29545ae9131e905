"""Public fixtures of 知乎 (Zhihu): questions and their answers (authors and 赞同 counts),
the vocabulary they are drawn from, and the oracle steps other tasks reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.vocab import distinct_ints, pick
from .app import ME, Answer, Question, ZhihuApp

QUESTIONS = "apps.Zhihu.questions"
ANSWERS = "apps.Zhihu.answers"
#: (title, topic): every title distinct.
QUESTION_POOL: tuple[tuple[str, str], ...] = (
    ("有哪些相见恨晚的学习方法？", "学习"), ("第一次去北京旅游有什么建议？", "旅行"),
    ("如何坚持每天跑步？", "运动"), ("程序员如何保护颈椎？", "健康"),
    ("有哪些值得一读的历史书？", "读书"), ("养猫需要准备什么？", "宠物"),
    ("怎样做出好吃的红烧肉？", "美食"), ("刚工作一年应该怎么理财？", "理财"),
    ("如何提高英语口语？", "学习"), ("周末在家可以做些什么？", "生活"),
)
AUTHORS = ("张佳玮", "丁香医生", "程序员小李", "历史老师王", "猫奴一枚", "下厨房的阿强",
           "理财师陈", "旅行者木子", "跑者老周", "英语达人Amy")
ANSWER_TEXTS = ("谢邀。{q}这个问题，我的经验是先定一个小目标，然后每天坚持。",
                "说几点个人看法：第一，{t}最重要的是方法；第二，要有耐心。",
                "利益相关，答一下。关于{t}，我踩过不少坑，总结如下。",
                "看到这个问题忍不住来答。{t}真的因人而异，找到适合自己的最好。")


def zhihu_app(state: Any) -> ZhihuApp:
    app = state.app("Zhihu")
    assert isinstance(app, ZhihuApp)
    return app


def sample_site(rng: np.random.Generator, k: int = 5) -> dict[str, Any]:
    """``k`` questions (distinct heat) with three answers each by distinct authors of
    distinct 赞同 counts, as plain data (``write_site`` writes them)."""
    heats = distinct_ints(rng, 100000, 9000000, k)
    questions = []
    for (title, topic), h in zip(pick(rng, QUESTION_POOL, k), heats, strict=True):
        votes = distinct_ints(rng, 5, 20000, 3)
        questions.append({"title": title, "topic": topic, "heat": int(h),
                          "followers": int(rng.integers(100, 50000)),
                          "answers": [{"author": a, "votes": int(v),
                                       "text": pick(rng, ANSWER_TEXTS).format(q=title, t=topic)}
                                      for a, v in zip(pick(rng, AUTHORS, 3), votes,
                                                      strict=True)]})
    return {"questions": questions}


def top_answer(question: Mapping[str, Any]) -> Mapping[str, Any]:
    """The answer of a planned question with the most 赞同."""
    return max(question["answers"], key=lambda a: a["votes"])


def answer_id(plan: Mapping[str, Any], qi: int, ai: int) -> int:
    """The id ``write_site`` gives answer ``ai`` of question ``qi``."""
    return sum(len(q["answers"]) for q in plan["questions"][:qi]) + ai + 1


def write_site(state: Any, plan: Mapping[str, Any]) -> tuple[list[Question], list[Answer]]:
    """The questions of ``plan`` (``sample_site``) in order, each followed by its answers."""
    data = zhihu_app(state).data
    questions, answers = [], []
    for q in plan["questions"]:
        made = data.questions.new(title=q["title"], topic=q["topic"], heat=q["heat"],
                                  followers=q["followers"])
        questions.append(made)
        answers += [data.answers.new(question=made.id, author=a["author"], text=a["text"],
                                     votes=a["votes"]) for a in q["answers"]]
    return questions, answers


def open_question(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Launch 知乎, search ``title`` on 首页 and open that question."""
    yield from ui.open_app("Zhihu")
    for _ in range(6):
        if ui.find(id="tab_home") is not None:
            break
        yield from ui.press("back")
        if ui.find(id="toolbar") is None:
            yield PhoneAction("open_app", app="Zhihu")
    yield from ui.tap(id="tab_home")
    yield from ui.fill("search", title)
    yield from ui.press("back")
    row = next((e for e in ui.find_all(title) if e.short_id.startswith("result_")), None)
    if row is None:
        raise OracleError(f"no question {title}")
    yield from ui.tap(id=row.short_id)


def answers_shown(ui: Driver) -> list[tuple[str, str, int]]:
    """The answers a question lists, as shown: (row id, author, 赞同)."""
    out = []
    for e in reversed(ui.find_all()):  # top to bottom
        if e.short_id.startswith("answer_") and e.short_id[7:].isdigit():
            votes = ui.must(id=e.short_id.replace("answer_", "votes_")).text
            out.append((e.short_id, e.text, int(votes.split()[-1])))
    return out


__all__ = ["ANSWERS", "AUTHORS", "ME", "QUESTIONS", "QUESTION_POOL", "answer_id",
           "answers_shown", "open_question", "sample_site", "top_answer", "write_site",
           "zhihu_app"]
