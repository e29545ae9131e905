"""小红书 (Xiaohongshu) tasks: like a note, collect the most-liked note of a topic, comment,
publish a note, what a note recommends, and a comment on a note that is not there. Chinese
instructions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import CreateRecord, EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import same_text
from .app import ME, TOPICS
from .fixtures import (
    COMMENTS,
    COMMENTS_TEXT,
    LINES,
    NOTES,
    NOTES_BY_TOPIC,
    add_comment,
    open_note,
    recommended,
    sample_notes,
    write_notes,
)

ZH = ("en-US", "zh-CN")
NEW_TITLES = ("我的周末vlog", "第一次露营记录", "一人食晚餐", "阳台种菜日记", "城市骑行路线")


class XhsTask(Task):
    """Six notes (plain data in ``notes``, ids in that order); the task is about note
    ``index`` (``title``, ``author``, ``thing``), a comment or two under others."""

    apps: ClassVar[tuple[str, ...]] = ("Xiaohongshu",)
    collection: ClassVar[str] = NOTES
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        notes = sample_notes(rng, 6)
        index = int(rng.integers(len(notes)))
        n = notes[index]
        return {"notes": notes, "index": index, "title": n["title"], "author": n["author"],
                "thing": n["thing"], **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        made = write_notes(state, params["notes"])
        for n in pick(rng, params["notes"], 2):
            add_comment(state, made[n["title"]], "路人甲", pick(rng, COMMENTS_TEXT))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["index"] + 1}


class XhsLikeNote(XhsTask, EditRecord):
    template = "在小红书搜“{title}”，给{author}的这篇笔记点个赞。"
    complexity, max_steps = 2, 10

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"liked": True, "likes": p["notes"][p["index"]]["likes"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_note(ui, p["title"])
        if ui.must(id="like").text.startswith("赞"):
            yield from ui.tap(id="like")
        yield from ui.finish()


class XhsCollectMostLiked(XhsTask, EditRecord):
    template = "在小红书搜“{topic}”，把点赞最多的那篇笔记收藏起来。"
    complexity, max_steps = 2, 12
    derivations = {"note": "the most likes among the notes listed"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        topic = pick(rng, sorted(NOTES_BY_TOPIC))
        # three notes of the topic among six: the most liked of them is the target
        notes = sample_notes(rng, 3, [topic]) + sample_notes(
            rng, 3, [t for t in NOTES_BY_TOPIC if t != topic])
        index = max(range(3), key=lambda i: notes[i]["likes"])
        n = notes[index]
        return {"notes": notes, "index": index, "title": n["title"], "author": n["author"],
                "thing": n["thing"], "topic": topic}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"collected": True, "collects": p["notes"][p["index"]]["collects"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Xiaohongshu")
        yield from ui.fill("search", p["topic"])
        yield from ui.press("back")
        cells = [e for e in ui.find_all() if e.short_id.startswith("note_")]
        if not cells:
            raise OracleError("no note listed")

        def likes(text: str) -> float:
            found = re.search(r"♥([\d.]+)(万?)$", text)
            if found is None:
                raise OracleError(f"no likes in {text!r}")
            return float(found.group(1)) * (10000 if found.group(2) else 1)
        best = max(cells, key=lambda e: likes(e.text))
        ui.why(f"点赞最多的是“{best.text}”")
        yield from ui.tap(id=best.short_id)
        if ui.must(id="collect").text.startswith("收藏"):
            yield from ui.tap(id="collect")
        yield from ui.finish()


class XhsCommentNote(XhsTask, CreateRecord):
    template = "在小红书“{title}”这篇笔记下面评论“{text}”。"
    complexity, max_steps = 2, 12
    collection = COMMENTS

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"text": pick(rng, COMMENTS_TEXT)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"note": p["index"] + 1, "author": ME, "text": same_text(p["text"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_note(ui, p["title"])
        yield from ui.fill("comment", p["text"])
        yield from ui.tap(id="send_comment")
        yield from ui.finish()


class XhsPublishNote(XhsTask, CreateRecord):
    template = "在小红书发布一篇笔记，标题“{new_title}”，正文“{body}”，话题选“{topic}”。"
    complexity, max_steps = 2, 14

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"new_title": pick(rng, NEW_TITLES), "body": pick(rng, LINES),
                "topic": pick(rng, sorted(TOPICS))}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["new_title"]), "body": same_text(p["body"]),
                "topic": p["topic"], "author": ME,
                # as posted: liking or collecting one's own note is not asked for
                "likes": 0, "liked": False, "collects": 0, "collected": False}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Xiaohongshu")
        yield from ui.tap("发布")
        yield from ui.fill("title", p["new_title"])
        yield from ui.fill("body", p["body"])
        yield from ui.press("back")
        yield from ui.tap(p["topic"], kind="chip")
        yield from ui.tap(id="post")
        yield from ui.finish()


class XhsWhatRecommended(XhsTask, Lookup):
    template = "小红书上{author}发的“{title}”推荐的是什么？"
    complexity, max_steps = 2, 10

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["thing"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [n["thing"] for n in p["notes"] if n["thing"] != p["thing"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_note(ui, p["title"])
        yield from ui.answer(recommended(ui))


class XhsCommentNoteInfeasible(Infeasible, XhsCommentNote):
    """The note the task names is not on the phone: the search finds nothing."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_notes(state, [n for n in params["notes"] if n["title"] != params["title"]])

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Xiaohongshu")
        yield from ui.fill("search", params["title"])
        yield from ui.press("back")
        ui.why(f"搜不到“{params['title']}”这篇笔记")


TEMPLATES: list[Task] = [
    XhsLikeNote(), XhsCollectMostLiked(), XhsCommentNote(), XhsPublishNote(),
    XhsWhatRecommended(), XhsCommentNoteInfeasible(),
]
