"""知乎 (Zhihu): questions and answers, as in the Zhihu app.

首页 has a search field (id ``search``: questions by title, rows ``result_<id>``) over two
feeds, 推荐 (chip ``feed_recommend``: the questions, newest first) and 热榜 (chip
``feed_hot``: by heat, each row ``hot_<rank>`` with its rank ``rank_<rank>``); a question
row (``question_<id>``) opens the question. 我的 lists 我的收藏 (``saved_<id>``) and
我的回答 (``mine_<id>``).

A question shows its title (``question_title``), 写回答 (id ``write_answer``) and its
answers sorted by 赞同, most first: each row (``answer_<id>``) the author over the
excerpt, with ``votes_<id>`` ("赞同 1234"). An answer shows the author (``answer_author``),
the text (``answer_body``), 赞同 (id ``upvote``, a toggle: "赞同 N" / "已赞同 N") and 收藏
(id ``save``, a toggle). 写回答 has ``answer_text`` and 发布 (``publish``).

Questions and answers are the app's ``Store`` (``apps.Zhihu...``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import BottomNav, Chip
from ...world.widgets import (
    Button,
    ListItem,
    ListView,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

TABS = ("首页", "我的")
TAB_ICONS = ("home", "person")
FEEDS = ("推荐", "热榜")
ME = "我"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    id: int
    title: str
    topic: str
    heat: int = 0
    followers: int = 0


@dataclass(frozen=True)
class Answer:
    """An answer: ``votes`` counts every 赞同 (the owner's ``voted`` among them)."""

    id: int
    question: int
    author: str
    text: str
    votes: int = 0
    voted: bool = False
    saved: bool = False


@dataclass
class ZhihuData(Store):
    questions: Table[Question] = field(default_factory=lambda: Table(kind=Question))
    answers: Table[Answer] = field(default_factory=lambda: Table(kind=Answer))


@dataclass
class ZhihuUi:
    tab: str = "首页"
    feed: str = "推荐"
    query: str = ""
    draft: str = ""


# --- updates -------------------------------------------------------------------------------
def answers_of(data: ZhihuData, question_id: int) -> list[Answer]:
    """A question's answers, most 赞同 first."""
    return sorted((a for a in data.answers if a.question == question_id),
                  key=lambda a: (-a.votes, a.id))


def hot_list(data: ZhihuData) -> list[Question]:
    return sorted(data.questions, key=lambda q: (-q.heat, q.id))


def toggle_vote(data: ZhihuData, answer_id: int) -> None:
    a = data.answers.get(answer_id)
    if a is not None:
        data.answers.update(answer_id, voted=not a.voted, votes=a.votes + (-1 if a.voted else 1))


def toggle_save(data: ZhihuData, answer_id: int) -> None:
    a = data.answers.get(answer_id)
    if a is not None:
        data.answers.update(answer_id, saved=not a.saved)


def excerpt(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[:n] + "…"


# --- the app -------------------------------------------------------------------------------
class ZhihuApp(App):
    manifest = MANIFEST

    data: ZhihuData
    ui: ZhihuUi

    def initial_data(self) -> ZhihuData:
        return ZhihuData()

    def initial_ui(self) -> ZhihuUi:
        return ZhihuUi()

    def set_ui(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def publish(self, question_id: int) -> None:
        text = self.ui.draft.strip()
        if not text:
            self.toast(self.t("回答不能为空"))
            return
        self.data.answers.new(question=question_id, author=ME, text=text)
        self.ui.draft = ""
        self.toast(self.t("发布成功"))
        self.back()

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        if route.name in ("question", "write") and \
                self.data.questions.get(route.arg) is not None:
            return (self.question if route.name == "question" else self.write)(route.arg)
        if route.name == "answer" and self.data.answers.get(route.arg) is not None:
            return self.answer(route.arg)
        return self.home()

    def question_row(self, q: Question, prefix: str) -> Node:
        n = sum(1 for a in self.data.answers if a.question == q.id)
        return ListItem(q.title, self.t("{n} 个回答 · {topic}", n=n, topic=q.topic),
                        id=f"{prefix}_{q.id}", on_click=partial(self.go, "question", q.id))

    def answer_row(self, a: Answer, prefix: str) -> Node:
        return ListItem(a.author, parts=((f"excerpt_{a.id}", excerpt(a.text)),
                                         (f"votes_{a.id}", self.t("赞同 {n}", n=a.votes))),
                        id=f"{prefix}_{a.id}", glyph=a.author[:1],
                        on_click=partial(self.go, "answer", a.id))

    def pick_tab(self, label: str) -> None:
        self.ui.tab = next((t for t in TABS if self.t(t) == label), TABS[0])

    def home(self) -> Screen:
        tab = self.ui.tab if self.ui.tab in TABS else TABS[0]
        content: list[Node]
        if tab == "我的":
            answers = sorted(self.data.answers, key=lambda a: a.id)
            content = [Text(self.t("我的收藏"), style="title", id="saved_label"),
                       ListView([self.answer_row(a, "saved") for a in answers if a.saved],
                                id="saved", empty_text=self.t("还没有收藏")),
                       Text(self.t("我的回答"), style="title", id="mine_label"),
                       ListView([self.answer_row(a, "mine") for a in answers
                                 if a.author == ME], id="mine",
                                empty_text=self.t("还没有回答"))]
        else:
            q = self.ui.query.strip()
            content = [TextField(self.ui.query, lambda v: self.set_ui(query=v),
                                 hint=self.t("搜索问题"), id="search", label=self.t("搜索"))]
            if q:
                found = [x for x in sorted(self.data.questions, key=lambda x: x.id)
                         if q in x.title]
                content.append(ListView([self.question_row(x, "result") for x in found],
                                        id="results", empty_text=self.t("没有找到相关问题")))
            else:
                which = self.ui.feed if self.ui.feed in FEEDS else "推荐"
                content.append(Row([Chip(self.t(f), f == which, partial(self.set_ui, feed=f),
                                         id=f"feed_{'hot' if f == '热榜' else 'recommend'}")
                                    for f in FEEDS], id="feeds"))
                if which == "热榜":
                    content.append(ListView([ListItem(x.title, parts=(
                        (f"rank_{i}", str(i)), (f"heat_{i}", self.t("{n} 万热度",
                                                                    n=x.heat // 10000))),
                        id=f"hot_{i}", on_click=partial(self.go, "question", x.id))
                        for i, x in enumerate(hot_list(self.data), start=1)], id="hot",
                        empty_text=self.t("暂无热榜")))
                else:
                    content.append(ListView([self.question_row(x, "question") for x in sorted(
                        self.data.questions, key=lambda x: -x.id)], id="feed",
                        empty_text=self.t("暂无推荐")))
        return Screen(top_bar=TopBar(self.t(tab)), content=content,
                      bottom=BottomNav([self.t(t) for t in TABS], TAB_ICONS, self.t(tab),
                                       self.pick_tab, style=self.manifest.look.nav_style))

    def question(self, question_id: int) -> Screen:
        q = self.data.questions[question_id]
        answers = answers_of(self.data, question_id)
        return Screen(top_bar=TopBar(self.t("问题"), on_back=self.back), content=[
            Text(q.title, style="title", id="question_title"),
            Text(self.t("{n} 人关注 · {m} 个回答", n=q.followers, m=len(answers)),
                 style="caption", id="question_stats"),
            Button(self.t("写回答"), partial(self.go, "write", question_id), id="write_answer",
                   style="secondary"),
            Text(self.t("按赞同排序"), style="caption", id="sort_label"),
            ListView([self.answer_row(a, "answer") for a in answers], id="answers",
                     empty_text=self.t("还没有回答"))])

    def answer(self, answer_id: int) -> Screen:
        a = self.data.answers[answer_id]
        q = self.data.questions.get(a.question)
        return Screen(top_bar=TopBar(q.title if q else self.t("回答"), on_back=self.back),
                      content=[Text(a.author, style="title", id="answer_author"),
                               Text(a.text, id="answer_body")],
                      dock=Row([
                          Button(self.t("已赞同 {n}", n=a.votes) if a.voted
                                 else self.t("赞同 {n}", n=a.votes),
                                 partial(toggle_vote, self.data, answer_id), id="upvote",
                                 style="secondary" if a.voted else "primary"),
                          Button(self.t("已收藏") if a.saved else self.t("收藏"),
                                 partial(toggle_save, self.data, answer_id), id="save",
                                 style="secondary")], id="answer_actions"))

    def write(self, question_id: int) -> Screen:
        q = self.data.questions[question_id]
        return Screen(top_bar=TopBar(self.t("写回答"), on_back=self.back), content=[
            Text(q.title, style="title", id="question_title"),
            TextField(self.ui.draft, lambda v: self.set_ui(draft=v), hint=self.t("写回答..."),
                      id="answer_text", label=self.t("回答"), multiline=True),
            Button(self.t("发布"), partial(self.publish, question_id), id="publish")])
