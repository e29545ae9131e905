"""抖音 (Douyin) tasks: like the video about a subject, follow its creator, comment on it,
collect it, share it to a WeChat friend (with WeChat), and like a video that is not there.
Chinese instructions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, EditRecord, Infeasible
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allow, Allowed, Criterion, Record, same_text
from ..chat.fixtures import ME as CHAT_ME
from ..chat.fixtures import MESSAGES as CHAT_MESSAGES
from ..chat.fixtures import seed_social
from .app import ME
from .fixtures import (
    COMMENTS,
    COMMENTS_TEXT,
    CREATORS,
    VIDEOS,
    add_comment,
    open_video,
    sample_feed,
    video_link,
    write_feed,
)

ZH = ("en-US", "zh-CN")
#: What the owner comments (others' comments are ``COMMENTS_TEXT``).
MY_COMMENTS = ("拍得真好", "收藏了慢慢看", "这个我也想试试", "博主太有才了", "下次一定去")
#: WeChat friends a video may be shared to.
FRIENDS = ("李娜", "张伟", "王芳", "刘洋", "陈静", "赵磊", "孙梅", "周涛")


class DouyinTask(Task):
    """Four creators and six videos (plain data in ``feed``; ids in that order); the task is
    about video ``index`` (its ``subject``), a comment or two under others."""

    apps: ClassVar[tuple[str, ...]] = ("Douyin",)
    collection: ClassVar[str] = VIDEOS
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = sample_feed(rng, 6)
        index = int(rng.integers(6))
        return {"feed": plan, "index": index,
                "subject": plan["videos"][index]["subject"], **self.more(rng)}

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        _, videos = write_feed(state, params["feed"])
        for v in pick(rng, videos, 2):
            add_comment(state, v, "路人甲", pick(rng, COMMENTS_TEXT))

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["index"] + 1}

    def video(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return p["feed"]["videos"][p["index"]]


class DouyinLikeVideo(DouyinTask, EditRecord):
    template = "在抖音上找到讲“{subject}”的那个视频，给它点个赞。"
    complexity, max_steps = 2, 12

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"liked": True, "likes": self.video(p)["likes"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["subject"])
        if ui.must(id="like").content_desc == "点赞":
            yield from ui.tap(id="like")
        yield from ui.finish()


class DouyinCollectVideo(DouyinTask, EditRecord):
    template = "把抖音上讲“{subject}”的视频收藏起来。"
    complexity, max_steps = 2, 12

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"collected": True, "collects": self.video(p)["collects"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["subject"])
        if ui.must(id="collect").content_desc == "收藏":
            yield from ui.tap(id="collect")
        yield from ui.finish()


class DouyinFollowCreator(DouyinTask, EditRecord):
    template = "在抖音上关注发“{subject}”视频的那个博主。"
    complexity, max_steps = 2, 12
    collection = CREATORS

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": self.video(p)["creator"] + 1}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        creator = p["feed"]["creators"][self.video(p)["creator"]]
        return {"followed": True, "followers": creator["followers"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["subject"])
        ui.why("点头像进入博主主页")
        yield from ui.tap(id="creator")
        if ui.must(id="follow").text == "关注":
            yield from ui.tap(id="follow")
        yield from ui.finish()


class DouyinCommentVideo(DouyinTask, CreateRecord):
    template = "在抖音讲“{subject}”的视频下面评论“{text}”。"
    complexity, max_steps = 2, 14
    collection = COMMENTS

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"text": pick(rng, MY_COMMENTS)}

    def fields(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"video": p["index"] + 1, "author": ME, "text": same_text(p["text"])}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["subject"])
        yield from ui.tap(id="open_comments")
        yield from ui.fill("comment", p["text"])
        yield from ui.tap(id="send_comment")
        yield from ui.finish()


class DouyinShareToFriend(DouyinTask):
    """Share the video to a WeChat friend: one link message in that chat, the video's share
    count up by one."""

    tags = frozenset({"handoff"})
    apps = ("Douyin", "Chat")
    template = "把抖音上讲“{subject}”的视频分享给微信好友{friend}。"
    complexity, max_steps = 2, 14

    def more(self, rng: np.random.Generator) -> dict[str, Any]:
        names = [str(n) for n in pick(rng, FRIENDS, 4)]
        return {"names": names, "friend": names[int(rng.integers(4))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        seed_social(state, rng, params["names"], ["家人群"])

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        chat = list(params["names"]).index(params["friend"]) + 1
        v = self.video(params)
        return [Record(CHAT_MESSAGES, {"chat": chat, "sender": CHAT_ME, "kind": "link",
                                       "text": v["caption"],
                                       "content": video_link(params["index"] + 1)}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CHAT_MESSAGES, "added", max=1),
                Allow(VIDEOS, "modified", where={"id": params["index"] + 1},
                      fields=("shares",))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["subject"])
        yield from ui.tap(id="share")
        yield from ui.tap(p["friend"], kind="list_item")
        yield from ui.tap(id="button_send")
        yield from ui.finish()


class DouyinLikeVideoInfeasible(Infeasible, DouyinLikeVideo):
    """The video the task names is not in the app: the search finds nothing."""

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        plan = params["feed"]
        write_feed(state, {**plan, "videos": [v for i, v in enumerate(plan["videos"])
                                              if i != params["index"]]})

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Douyin")
        if ui.find(id="search_button") is None:
            yield from ui.tap("首页")
        yield from ui.tap(id="search_button")
        yield from ui.fill("query", params["subject"])
        yield from ui.press("back")
        ui.why(f"搜不到讲“{params['subject']}”的视频")


TEMPLATES: list[Task] = [
    DouyinLikeVideo(), DouyinCollectVideo(), DouyinFollowCreator(), DouyinCommentVideo(),
    DouyinShareToFriend(), DouyinLikeVideoInfeasible(),
]
