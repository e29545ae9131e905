"""Public fixtures of TencentDocs (腾讯文档): what its tasks and cross-app tasks use to seed
documents, and the vocabulary they are drawn from."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.vocab import pick
from .app import LINK, Doc, DocsApp, add_doc

COLLECTION = "apps.TencentDocs.docs"
TITLES = ("周报", "项目计划", "会议纪要", "读书笔记", "旅行攻略", "年度总结", "采购清单",
          "培训安排", "客户回访记录", "活动方案", "家庭账本", "装修预算", "面试记录",
          "产品需求", "学习计划", "值班表")
NEW_TITLES = ("第三季度复盘", "团建方案", "新人手册", "春节安排", "数据周报", "竞品分析")
LINES = ("本周完成了接口联调。", "下周开始准备上线。", "预算控制在五千元以内。",
         "周三下午两点在三楼会议室开会。", "请大家在周五前提交材料。", "酒店已经订好了。",
         "第一天去西湖，第二天去灵隐寺。", "记得带身份证。", "已和供应商确认交货时间。",
         "客户对新版本比较满意。", "需要再补充两个测试用例。", "活动报名截止到月底。")
EXTRAS = ("下周一前完成初稿。", "费用由部门统一报销。", "如有变动会提前通知。",
          "请各位准时参加。", "负责人：王磊。", "附件稍后补上。")


def docs_app(state: Any) -> DocsApp:
    app = state.app("TencentDocs")
    assert isinstance(app, DocsApp)
    return app


def write_doc(state: Any, title: str, body: str = "") -> Doc:
    """Add a document (the newest edited)."""
    return add_doc(docs_app(state).data, title, body)


def new_doc(ui: Driver, title: str, body: str) -> Iterator[PhoneAction]:
    """The oracle's steps for a new document: open 腾讯文档, 新建, type the title and the
    body, save (the caller then finishes or goes on)."""
    yield from ui.open_app("TencentDocs")
    yield from ui.tap(id="new_doc")
    yield from ui.fill("title", title)
    yield from ui.fill("body", body)
    yield from ui.tap(id="save")


def doc_link(doc_id: int) -> str:
    """The link a shared document's chat message carries."""
    return LINK.format(id=doc_id)


def sample_body(rng: np.random.Generator, lines: int) -> str:
    return "\n".join(pick(rng, LINES, lines))


def seed_docs(state: Any, rng: np.random.Generator, k: int, *,
              avoid: Sequence[str] = ()) -> None:
    """``k`` distractor documents whose titles are not in ``avoid``."""
    for title in pick(rng, [t for t in TITLES if t not in avoid], k):
        write_doc(state, title, sample_body(rng, int(rng.integers(1, 3))))


def seed_around(state: Any, rng: np.random.Generator, params: dict[str, Any]) -> None:
    """``params["count"]`` documents, the target (``title``, ``body``) written
    ``doc_id``-th so its id follows from the params."""
    others = pick(rng, [t for t in TITLES if t != params["title"]], params["count"] - 1)
    for i in range(1, params["count"] + 1):
        if i == params["doc_id"]:
            write_doc(state, params["title"], params["body"])
        else:
            write_doc(state, others.pop(), sample_body(rng, int(rng.integers(1, 3))))
