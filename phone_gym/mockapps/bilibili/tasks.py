"""哔哩哔哩 (Bilibili) tasks: 一键三连 on a video, follow an UP主, add a video to 稍后再看,
how many 弹幕 a video has, which video of an UP主 is in 稍后再看, and following an UP主 who is not
there. Chinese instructions (in both locales: the app is Chinese)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver, OracleError
from ...tasks.families import EditRecord, Infeasible, Lookup
from ...tasks.task import Task
from ...verifiers import Allowed, Becomes, Criterion, Value
from .fixtures import (
    COINS,
    UPS,
    VIDEOS,
    open_space,
    open_video,
    sample_channel,
    search,
    to_tab,
    write_channel,
)

ZH = ("en-US", "zh-CN")


class BiliTask(Task):
    """Four UP主 with two videos each (plain data in ``channel``), three of them in the
    history (untracked); the task is about video ``index`` (``title``) by UP主 ``up``.
    Nothing may change but what the task asks."""

    apps: ClassVar[tuple[str, ...]] = ("Bilibili",)
    collection: ClassVar[str] = VIDEOS
    locales = ZH

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.instructions = {"zh-CN": cls.template}  # the instruction is Chinese in both

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        channel = sample_channel(rng, 4)
        index = int(rng.integers(len(channel["videos"])))
        v = channel["videos"][index]
        watched = [int(i) + 1 for i in rng.choice(len(channel["videos"]), 3, replace=False)]
        return {"channel": channel, "index": index, "title": v["title"],
                "up": channel["ups"][v["up"] - 1]["name"], "up_id": v["up"],
                "watched": watched}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        write_channel(state, params["channel"], params["watched"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": p["title"]}

    @staticmethod
    def video(p: Mapping[str, Any]) -> Mapping[str, Any]:
        return p["channel"]["videos"][p["index"]]


class BiliTripleAction(BiliTask, EditRecord):
    template = "在哔哩哔哩给{up}的视频《{title}》一键三连（点赞、投币、收藏）。"
    complexity, max_steps = 3, 14

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        v = self.video(p)
        return {"liked": True, "coined": True, "faved": True, "likes": v["likes"] + 1,
                "coins": v["coins"] + 1, "favs": v["favs"] + 1}

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [*super().criteria(params, initial),
                Value(COINS, params["channel"]["coins"] - 1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial),
                Becomes(COINS, params["channel"]["coins"] - 1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["title"])
        if ui.must(id="up").text != p["up"]:
            raise OracleError(f"《{p['title']}》 is not {p['up']}'s")
        for button, done in (("like", "已赞"), ("coin", "已投币"), ("fav", "已收藏")):
            if not ui.must(id=button).text.startswith(done):
                yield from ui.tap(id=button)
        yield from ui.finish()


class BiliFollowUp(BiliTask, EditRecord):
    template = "在哔哩哔哩关注UP主“{up}”。"
    complexity, max_steps = 2, 10
    collection = UPS

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["up"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"followed": True, "fans": p["channel"]["ups"][p["up_id"] - 1]["fans"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_space(ui, p["up"])
        if ui.must(id="follow").text != "已关注":
            yield from ui.tap(id="follow")
        yield from ui.finish()


class BiliWatchLater(BiliTask, EditRecord):
    template = "把哔哩哔哩上{up}的《{title}》加到“稍后再看”。"
    complexity, max_steps = 2, 10

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"later": True}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["title"])
        if ui.must(id="watch_later").text == "稍后再看":
            yield from ui.tap(id="watch_later")
        yield from ui.finish()


class BiliDanmakuCount(BiliTask, Lookup):
    template = "哔哩哔哩上{up}的视频《{title}》现在有多少条弹幕？"
    complexity, max_steps = 2, 10
    answer_type = "count"

    def expected(self, p: Mapping[str, Any]) -> Any:
        return self.video(p)["danmaku"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return sorted({v["danmaku"] for v in p["channel"]["videos"]} - {self.expected(p)})

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_video(ui, p["title"])
        yield from ui.answer(ui.must(id="danmaku").text.removesuffix("条弹幕"))


class BiliWatchLaterTitle(BiliTask, Lookup):
    template = "我在哔哩哔哩的“稍后再看”里存了一个{up}的视频，它叫什么？"
    complexity, max_steps = 2, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        later = [p["index"]]  # and one video of each of two other UP主
        for up in rng.permutation([u for u in range(1, 5) if u != p["up_id"]])[:2]:
            later.append(next(i for i, v in enumerate(p["channel"]["videos"])
                              if v["up"] == int(up)))
        for i in later:
            p["channel"]["videos"][i]["later"] = True
        return {**p, "later": later}

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["title"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [p["channel"]["videos"][i]["title"] for i in p["later"] if i != p["index"]]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from to_tab(ui, "我的")
        yield from ui.tap(id="later")
        rows = [e for e in ui.find_all(kind="list_item") if e.short_id.startswith("later_")
                and e.hint == f"UP主：{p['up']}"]
        if len(rows) != 1:
            raise OracleError(f"{len(rows)} videos of {p['up']} in 稍后再看")
        yield from ui.answer(rows[0].text)


class BiliFollowUpInfeasible(Infeasible, BiliFollowUp):
    """The UP主 the task names is not on the phone: the search lists no such UP主."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = super().sample_params(rng)
        names = [u["name"] for u in p["channel"]["ups"]]
        missing = [n for n in sample_channel(rng, 8)["ups"] if n["name"] not in names]
        return {**p, "up": missing[0]["name"]}

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from search(ui, params["up"])
        ui.why(f"搜不到UP主“{params['up']}”")


TEMPLATES: list[Task] = [
    BiliTripleAction(), BiliFollowUp(), BiliWatchLater(), BiliDanmakuCount(),
    BiliWatchLaterTitle(), BiliFollowUpInfeasible(),
]
__all__ = ["TEMPLATES"]
