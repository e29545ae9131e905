"""Public fixtures of 小红书 (Xiaohongshu): notes by topic (each recommending a place or a
thing), comments, the vocabulary they are drawn from, and the oracle steps other tasks
reuse."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from .app import ME, Note, XhsApp

NOTES = "apps.Xiaohongshu.notes"
COMMENTS = "apps.Xiaohongshu.comments"
AUTHORS = ("小鹿爱吃", "旅行的阿May", "猫咪日记", "好物研究所", "周末去哪儿", "吃货小分队",
           "背包客老王", "居家达人Lily")
#: Topics: titles with what each recommends (the body names it after "推荐：").
NOTES_BY_TOPIC: dict[str, tuple[tuple[str, str], ...]] = {
    "美食": (("人均50吃到撑的火锅", "蜀香记老火锅"), ("藏在巷子里的宝藏面馆", "老街牛肉面"),
           ("周末早午餐打卡", "晨光咖啡馆"), ("必吃的手工甜品", "糖水铺子")),
    "旅行": (("三天两晚杭州攻略", "西湖边的湖景民宿"), ("小众海岛旅行", "涠洲岛"),
           ("秋天一定要去的古镇", "乌镇西栅"), ("适合看日出的山", "黄山光明顶")),
    "萌宠": (("新手养猫必备清单", "豆腐猫砂"), ("狗狗爱吃的零食", "冻干鸡胸肉"),
           ("宠物医院推荐", "爱宠动物医院"), ("猫咪玩具测评", "逗猫棒")),
    "好物": (("平价好用的保温杯", "不锈钢保温杯"), ("学生党必备台灯", "护眼台灯"),
           ("租房改造好物", "折叠收纳箱"), ("通勤降噪耳机", "无线降噪耳机")),
}
LINES = ("真的太好了，强烈推荐！", "已经回购三次了。", "姐妹们冲！", "性价比超高。",
         "周末人有点多，建议早点去。", "拍照很出片。")
COMMENTS_TEXT = ("求地址！", "收藏了，下次去试试", "看起来好棒", "同款已入", "谢谢分享～",
                 "马住了")


def xhs_app(state: Any) -> XhsApp:
    app = state.app("Xiaohongshu")
    assert isinstance(app, XhsApp)
    return app


def note_body(pick_of: str, extra: str) -> str:
    return f"{extra}\n推荐：{pick_of}"


def sample_notes(rng: np.random.Generator, k: int,
                 topics: Sequence[str] = ()) -> list[dict[str, Any]]:
    """``k`` notes as plain data (``write_notes`` writes them) of ``topics`` (default:
    all), with distinct titles, authors and like counts."""
    pool = [(topic, title, thing) for topic, notes in NOTES_BY_TOPIC.items()
            for title, thing in notes if not topics or topic in topics]
    chosen = pick(rng, pool, k)
    authors = pick(rng, AUTHORS, k)
    likes = rng.choice(np.arange(20, 3000), k, replace=False)
    return [{"topic": topic, "title": title, "thing": thing, "author": author,
             "body": note_body(thing, pick(rng, LINES)), "likes": int(n),
             "collects": int(n) // 3}
            for (topic, title, thing), author, n in zip(chosen, authors, likes, strict=True)]


def write_notes(state: Any, notes: Sequence[Mapping[str, Any]]) -> dict[str, Note]:
    """The notes ``notes``, written in that order: by title."""
    data = xhs_app(state).data
    return {n["title"]: data.notes.new(title=n["title"], body=n["body"], author=n["author"],
                                       topic=n["topic"], likes=n["likes"],
                                       collects=n["collects"]) for n in notes}


def add_comment(state: Any, note: Note, author: str, text: str) -> None:
    xhs_app(state).data.comments.new(note=note.id, author=author, text=text)


def open_note(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Launch 小红书, search for ``title`` and open the note."""
    yield from ui.open_app("Xiaohongshu")
    yield from ui.fill("search", title)
    yield from ui.press("back")
    cell = next(e for e in ui.find_all() if e.short_id.startswith("note_")
                and e.text.startswith(f"{title} ♥"))
    yield from ui.tap(id=cell.short_id)


def recommended(ui: Driver) -> str:
    """On a note's page: what it recommends (the body's "推荐：" line)."""
    body = ui.must(id="note_body").text
    return next(line.removeprefix("推荐：") for line in body.splitlines()
                if line.startswith("推荐："))


__all__ = ["AUTHORS", "COMMENTS", "COMMENTS_TEXT", "LINES", "ME", "NOTES", "NOTES_BY_TOPIC",
           "add_comment", "note_body", "open_note", "recommended", "sample_notes",
           "write_notes", "xhs_app"]
