"""知乎 (Zhihu) tasks: 赞同 the answer with the most 赞同, 收藏 an author's answer, write an
answer, who wrote the top answer, and 赞同 under a question that is not there. Chinese
instructions (in both locales: the app is Chinese)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import CreateRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allowed, same_text
from .app import ME
from .fixtures import (
    ANSWERS,
    QUESTION_POOL,
    answer_id,
    answers_shown,
    open_question,
    sample_site,
    top_answer,
    write_site,
)

ZH = ("en-US", "zh-CN")
MY_ANSWERS = ("亲测有效，坚持一个月就能看到变化。", "我的建议是先从小事做起。",
              "同问，蹲一个好答案。", "多看多练，没有捷径。")


class ZhihuTask(Task):
    """Five questions of three answers each (plain data in ``site``; question ids in that
    order, answer ids following); the task is about question ``qi`` (``title``)."""

    apps: ClassVar[tuple[str, ...]] = ("Zhihu",)
    collection: ClassVar[str] = ANSWERS
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        site = sample_site(rng, 5)
        qi, ai = int(rng.integers(5)), int(rng.integers(3))
        q = site["questions"][qi]
        return {"site": site, "qi": qi, "ai": ai, "title": q["title"],
                "author": q["answers"][ai]["author"], "top": top_answer(q)["author"],
                **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_site(state, params["site"])

    def question(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return p["site"]["questions"][p["qi"]]

    def top_index(self, p: Mapping[str, Any]) -> int:
        answers = self.question(p)["answers"]
        return answers.index(top_answer(self.question(p)))


class ZhihuUpvoteTopAnswer(ZhihuTask, EditRecord):
    template = "在知乎上找到问题“{title}”，给赞同数最多的那个回答点赞同。"
    complexity, max_steps = 2, 12

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": answer_id(p["site"], p["qi"], self.top_index(p))}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"voted": True, "votes": top_answer(self.question(p))["votes"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_question(ui, p["title"])
        shown = answers_shown(ui)
        if not shown:
            raise OracleError("no answers listed")
        row, author, votes = max(shown, key=lambda a: a[2])
        ui.why(f"{author}的回答赞同最多（{votes}）")
        yield from ui.tap(id=row)
        if not ui.must(id="upvote").text.startswith("已赞同"):
            yield from ui.tap(id="upvote")
        yield from ui.finish()


class ZhihuSaveAnswer(ZhihuTask, EditRecord):
    template = "把知乎问题“{title}”下{author}的回答收藏起来。"
    complexity, max_steps = 2, 12

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": answer_id(p["site"], p["qi"], p["ai"])}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"saved": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_question(ui, p["title"])
        row = next((r for r, a, _ in answers_shown(ui) if a == p["author"]), None)
        if row is None:
            raise OracleError(f"no answer by {p['author']}")
        yield from ui.tap(id=row)
        if ui.must(id="save").text == "收藏":
            yield from ui.tap(id="save")
        yield from ui.finish()


class ZhihuWriteAnswer(ZhihuTask, CreateRecord):
    template = "在知乎问题“{title}”下写一个回答：“{text}”"
    complexity, max_steps = 2, 12

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"text": pick(rng, MY_ANSWERS)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"question": p["qi"] + 1, "author": ME, "text": same_text(p["text"]),
                "votes": 0, "voted": False, "saved": False}  # written, nothing more

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_question(ui, p["title"])
        yield from ui.tap(id="write_answer")
        yield from ui.fill("answer_text", p["text"])
        yield from ui.tap(id="publish")
        yield from ui.finish()


class ZhihuTopAnswerAuthor(ZhihuTask, Lookup):
    template = "知乎问题“{title}”下赞同最多的回答是谁写的？"
    complexity, max_steps = 2, 8
    answer_type = "name"

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["top"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [a["author"] for a in self.question(p)["answers"] if a["author"] != p["top"]]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return []

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_question(ui, p["title"])
        shown = answers_shown(ui)
        if not shown:
            raise OracleError("no answers listed")
        yield from ui.answer(max(shown, key=lambda a: a[2])[1])


class ZhihuUpvoteTopAnswerInfeasible(Infeasible, ZhihuUpvoteTopAnswer):
    """The question the task names is not on 知乎: the search finds nothing."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        there = {q["title"] for q in p["site"]["questions"]}
        missing = [t for t, _ in QUESTION_POOL if t not in there]
        return {**p, "title": pick(rng, missing)}

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": -1}  # no answer to a question the phone does not hold

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        try:
            yield from open_question(ui, params["title"])
        except OracleError:
            ui.why(f"知乎上搜不到问题“{params['title']}”")
            return
        raise OracleError(f"{params['title']} is there")


TEMPLATES: list[Task] = [
    ZhihuUpvoteTopAnswer(), ZhihuSaveAnswer(), ZhihuWriteAnswer(), ZhihuTopAnswerAuthor(),
    ZhihuUpvoteTopAnswerInfeasible(),
]
__all__ = ["TEMPLATES"]
