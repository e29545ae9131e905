"""Cross-app templates on 高德地图 (Amap) and 抖音 (Douyin): a WeChat friend asks how long
the trip to a place takes (the reply must state 高德's route time for the friend's mode); a
抖音 video shared to a WeChat group; a 高德 place's address written into a new 腾讯文档
(TencentDocs) document. Chinese instructions; the apps through their public ``fixtures``
only."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.amap import fixtures as amap
from ..mockapps.chat.fixtures import say, seed_social
from ..mockapps.docs import fixtures as docs
from ..mockapps.douyin import fixtures as douyin
from ..tasks.driver import Driver
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allow, Allowed, Criterion
from .families.handoff import Read, ToDoc
from .families.wechat import GROUPS, NAMES, Said, ShareToGroup, Tell, ZhTask, asked

DOC_TITLES = ("周末去哪", "聚会地点", "出行备忘", "要去的地方")
#: How a friend says each of 高德's route modes.
MODE_SAID = {"驾车": "开车", "公交": "坐公交", "步行": "走路", "骑行": "骑车"}

MINUTES = r"(?:分钟|分(?!钟))"
DURATION = re.compile(rf"(?<![A-Za-z\d.])(?:(\d+)\s*个?小时\s*(?:(\d+)\s*{MINUTES})?"
                      rf"|()(\d+)\s*{MINUTES})(?![A-Za-z\d])")
NEGATIONS = re.compile(r"不是|不会|不到|没有|并非|不用|\bnot\b|n't|\bno\b", re.I)


def minutes_stated(text: str) -> set[int]:
    """The durations a text states, in minutes ("25分钟", "1小时5分钟", "2小时")."""
    found = set()
    for m in DURATION.finditer(text):
        hours, minutes = m.group(1) or 0, m.group(2) or m.group(4) or 0
        found.add(int(hours) * 60 + int(minutes))
    return found


def tells_minutes(text: str, minutes: int) -> bool:
    """Whether ``text`` states the duration ``minutes`` and no other number, denying
    nothing."""
    if minutes_stated(text) != {minutes}:
        return False
    rest = DURATION.sub(" ", text)
    return not re.search(r"\d", rest) and not NEGATIONS.search(rest)


class CrossAmapRouteTimeToWeChat(Tell):
    """A WeChat friend asks how long the trip from here to a place takes by a mode: look
    the route up in 高德地图 and reply in the chat with its time."""

    apps = ("Chat", "Amap")
    template = ("{friend}在微信上问我过去要多久。用高德地图查一下他说的出行方式要多长时间，"
                "在微信里回复他。")
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        places = amap.sample_places(rng, 6)
        index = int(rng.integers(len(places)))
        names = [str(n) for n in pick(rng, NAMES, 4)]
        return {"places": places, "place": places[index]["name"], "index": index,
                "mode": pick(rng, tuple(MODE_SAID)), "names": names,
                "friend": names[int(rng.integers(len(names)))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        amap.write_places(state, params["places"])
        chats = seed_social(state, rng, params["names"])
        say(state, chats[params["friend"]], params["friend"],
            f"我打算{MODE_SAID[params['mode']]}去{params['place']}，从你那儿过去要多久？",
            time="15:40")

    def minutes(self, p: Mapping[str, Any], mode: str) -> int:
        place = p["places"][p["index"]]
        return amap.route_minutes(abs(place["x"]) + abs(place["y"]), mode)

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        want = self.minutes(p, p["mode"])
        return Said(mine["chat"], lambda text, _: tells_minutes(text, want),
                    f"states the route's {want} minutes")

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        want = self.minutes(p, p["mode"])
        other = next((m for m in MODE_SAID if self.minutes(p, m) != want), None)
        return [*([(f"{self.minutes(p, other)}分钟", "replied with another mode's time")]
                  if other else []),
                (f"{want}分钟或者{want + 10}分钟", "replied with two times"),
                ("大概半小时吧", "replied with no time read from 高德")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        said = {v: k for k, v in MODE_SAID.items()}
        found = yield from asked(ui, p["friend"],
                                 f"我打算({'|'.join(said)})去(.+?)，从你那儿过去要多久")
        mode, place = said[found.group(1)], found.group(2)
        ui.why(f"{p['friend']}要{found.group(1)}去{place}：在高德地图查{mode}路线")
        yield from amap.search_place(ui, place)
        yield from amap.route_time(ui, mode)
        time = ui.must(id="route_summary").text.split(" · ")[0].split(" ")[-1]
        ui.why(f"{mode}要{time}，回复{p['friend']}")
        return time


class CrossDouyinShareToWeChatGroup(ShareToGroup):
    """Share the 抖音 video about a subject to a WeChat group: the group's message must
    carry that video's link (the video's share count goes up by one)."""

    apps = ("Douyin", "Chat")
    template = "把抖音上讲“{subject}”的视频分享到微信群“{group}”。"
    complexity, max_steps = 2, 16

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = douyin.sample_feed(rng, 6)
        index = int(rng.integers(6))
        groups = [str(g) for g in pick(rng, GROUPS, 3)]
        return {"feed": plan, "index": index, "subject": plan["videos"][index]["subject"],
                "names": [str(n) for n in pick(rng, NAMES, 3)], "groups": groups,
                "group": groups[int(rng.integers(len(groups)))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        douyin.write_feed(state, params["feed"])
        seed_social(state, rng, params["names"], params["groups"])

    def link(self, p: Mapping[str, Any]) -> tuple[str, str]:
        return p["feed"]["videos"][p["index"]]["caption"], douyin.video_link(p["index"] + 1)

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial),
                Allow(douyin.VIDEOS, "modified", where={"id": params["index"] + 1},
                      fields=("shares",))]

    def share(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from douyin.open_video(ui, p["subject"])
        yield from ui.tap(id="share")


class CrossAmapAddressToDocs(ZhTask, ToDoc):
    """Look a place up in 高德地图 and write its address down in a new 腾讯文档 document:
    the document's body must be exactly the address."""

    apps = ("Amap", "TencentDocs")
    template = ("在高德地图查一下“{place}”的地址，在腾讯文档新建一篇标题为“{doc_title}”的文档，"
                "正文只写这个地址。")
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        places = amap.sample_places(rng, 6)
        index = int(rng.integers(len(places)))
        return {"places": places, "place": places[index]["name"], "index": index,
                "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        amap.write_places(state, params["places"])
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any] | None = None) -> str:
        return str(p["places"][p["index"]]["address"])

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        return [(next(q["address"] for q in p["places"] if q["name"] != p["place"]),
                 "another place's address"),
                (f"{p['place']} {self.value(p)}", "the name beside the address")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from amap.search_place(ui, p["place"])
        address = ui.must(id="place_address").text.removeprefix("地址：")
        ui.why(f"地址是“{address}”，记到腾讯文档")
        return address


TEMPLATES: list[Task] = [CrossAmapRouteTimeToWeChat(), CrossDouyinShareToWeChatGroup(),
                         CrossAmapAddressToDocs()]
