"""微博 (Weibo) tasks: like the post about a subject, comment on it, follow a user, post with
a #话题#, the rank of a 热搜 topic, and liking a post that is not there. Chinese
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
from ...verifiers import Allowed, Matcher, same_text
from .app import ME
from .fixtures import (
    COMMENT_TEXTS,
    COMMENTS,
    POSTS,
    USERS,
    add_comment,
    hot_rank,
    open_post,
    ranks,
    sample_world,
    search,
    to_tab,
    write_world,
)

ZH = ("en-US", "zh-CN")
MY_COMMENTS = ("说得太好了", "已转发", "支持一下", "第一次知道", "期待后续")
#: What the owner posts (the body after the #话题#).
MY_POSTS = ("今天天气真好，出门走走", "周末一起去看看吧", "这个必须支持", "终于等到了",
            "大家有什么推荐吗")


class WeiboTask(Task):
    """Four users, six posts and eight 热搜 topics (plain data in ``world``; ids in that
    order); the task is about post ``index`` (its ``subject`` and author ``author``)."""

    apps: ClassVar[tuple[str, ...]] = ("Weibo",)
    collection: ClassVar[str] = POSTS
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = sample_world(rng, 6)
        index = int(rng.integers(6))
        post = plan["posts"][index]
        return {"world": plan, "index": index, "subject": post["subject"],
                "author": plan["users"][post["author"]]["name"], **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        _, posts = write_world(state, params["world"])
        for p in pick(rng, posts, 2):
            add_comment(state, p, "路人甲", pick(rng, COMMENT_TEXTS))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["index"] + 1}

    def post(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return p["world"]["posts"][p["index"]]


class WeiboLikePost(WeiboTask, EditRecord):
    template = "在微博上给{author}那条讲“{subject}”的微博点个赞。"
    complexity, max_steps = 2, 12

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"liked": True, "likes": self.post(p)["likes"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_post(ui, p["subject"])
        if ui.must(id="author").text != p["author"]:
            raise OracleError(f"the post about {p['subject']} is not {p['author']}'s")
        if ui.must(id="like").content_desc == "赞":
            yield from ui.tap(id="like")
        yield from ui.finish()


class WeiboCommentPost(WeiboTask, CreateRecord):
    template = "在微博上讲“{subject}”的那条微博下面评论“{text}”。"
    complexity, max_steps = 2, 14
    collection = COMMENTS

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"text": pick(rng, MY_COMMENTS)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"post": p["index"] + 1, "author": ME, "text": same_text(p["text"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_post(ui, p["subject"])
        yield from ui.fill("comment", p["text"])
        yield from ui.tap(id="send_comment")
        yield from ui.finish()


class WeiboFollowUser(WeiboTask, EditRecord):
    template = "在微博上关注“{author}”。"
    complexity, max_steps = 2, 12
    collection = USERS

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": self.post(p)["author"] + 1}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        user = p["world"]["users"][self.post(p)["author"]]
        return {"followed": True, "followers": user["followers"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, p["author"])
        row = next((e for e in ui.find_all() if e.short_id.startswith("user_")
                    and e.text == p["author"]), None)
        if row is None:
            raise OracleError(f"no user {p['author']}")
        yield from ui.tap(id=row.short_id)
        if ui.must(id="follow").text != "已关注":
            yield from ui.tap(id="follow")
        yield from ui.finish()


def post_text(topic: str, body: str) -> Matcher:
    """The text of a post under ``#topic#`` saying ``body`` (the topic before or after it,
    nothing else)."""
    def ok(v: Any) -> bool:
        if not isinstance(v, str):
            return False
        rest = v.replace(f"#{topic}#", "", 1).strip(" ，,。.")
        return f"#{topic}#" in v and rest == body.strip("。.")
    return Matcher(ok, f"#{topic}# and {body!r}, nothing else")


class WeiboPostWithTopic(WeiboTask, CreateRecord):
    template = "发一条微博，带上话题#{topic}#，内容是“{body}”。"
    complexity, max_steps = 2, 12

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"body": pick(rng, MY_POSTS), "topic_pick": int(rng.integers(8))}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "topic": p["world"]["hot"][p["topic_pick"]]["title"]}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"author": ME, "topic": p["topic"], "repost_of": 0,
                "text": post_text(p["topic"], p["body"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from to_tab(ui, "首页")
        yield from ui.tap(id="compose")
        yield from ui.fill("post_text", f"#{p['topic']}# {p['body']}")
        yield from ui.tap(id="send_post")
        yield from ui.finish()


class WeiboHotRank(WeiboTask, Lookup):
    template = "微博热搜榜上，“{topic}”现在排第几？"
    complexity, max_steps = 2, 8
    answer_type = "number"

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"topic_pick": int(rng.integers(8))}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        return {**p, "topic": p["world"]["hot"][p["topic_pick"]]["title"]}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return ranks(p["world"])[p["topic"]]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r for t, r in ranks(p["world"]).items() if t != p["topic"]]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return []

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from to_tab(ui, "发现")
        rank = yield from hot_rank(ui, p["topic"])
        yield from ui.answer(str(rank))


class WeiboLikePostInfeasible(Infeasible, WeiboLikePost):
    """The post the task names is not there: the search finds nothing."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        plan = params["world"]
        write_world(state, {**plan, "posts": [q for i, q in enumerate(plan["posts"])
                                              if i != params["index"]]})

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, params["subject"])
        ui.why(f"搜不到讲“{params['subject']}”的微博")


TEMPLATES: list[Task] = [
    WeiboLikePost(), WeiboCommentPost(), WeiboFollowUser(), WeiboPostWithTopic(),
    WeiboHotRank(), WeiboLikePostInfeasible(),
]
__all__ = ["TEMPLATES"]
