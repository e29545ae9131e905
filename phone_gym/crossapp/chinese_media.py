"""Cross-app templates on 哔哩哔哩 (Bilibili) and 大众点评 (Dianping): a WeChat friend
asks for the best-rated restaurant of a cuisine within a 人均 budget (the reply must name
the shop 大众点评 ranks first, alone or in quotes, no other shop, denying nothing); a
哔哩哔哩 video shared to a WeChat group; a 大众点评 shop's address written into a new
腾讯文档 (TencentDocs) document. Chinese instructions; the apps through their public
``fixtures`` only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.bilibili import fixtures as bili
from ..mockapps.chat.fixtures import say, seed_social
from ..mockapps.dianping import fixtures as dianping
from ..mockapps.docs import fixtures as docs
from ..tasks.driver import Driver, OracleError
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allow, Allowed, Criterion
from .families.handoff import Read, ToDoc
from .families.wechat import GROUPS, NAMES, Said, ShareToGroup, Tell, ZhTask, asked

DOC_TITLES = ("聚餐地点", "周末吃什么", "团建餐厅", "想去的店")
BUDGETS = (100, 200)


def shops_plan(rng: np.random.Generator) -> dict[str, Any]:
    """Four shops of each of two cuisines (the first is the task's), the best-rated of the
    first over a 人均 budget (one of 大众点评's chips) and at least one other within it."""
    cuisines = [str(c) for c in pick(rng, sorted(dianping.CUISINES), 2)]
    shops = dianping.sample_shops(rng, cuisines, 4)
    mine = sorted(shops[:4], key=lambda s: -s["rating"])
    budget = int(pick(rng, BUDGETS))
    mine[0]["price"] = budget + int(rng.integers(10, 80))
    if all(s["price"] > budget for s in mine[1:]):
        mine[1 + int(rng.integers(3))]["price"] = budget - int(rng.integers(5, 40))
    best = max((s for s in mine if s["price"] <= budget), key=lambda s: s["rating"])
    return {"shops": shops, "cuisine": cuisines[0], "budget": budget, "best": best["name"]}


NEGATIONS = re.compile(r"不是|不要|不行|别去|没有|并非|\bnot\b|n't|\bno\b", re.I)
PUNCTUATION = re.compile(r"[\s，。！？、,.!?~～]+")


def recommends(text: str, name: str, others: Sequence[str]) -> bool:
    """Whether ``text`` names the shop ``name`` alone: the whole reply (punctuation aside)
    or the name in quotes (“名”, 「名」, "名") in a sentence that denies nothing and names
    none of ``others``."""
    if any(o in text for o in others) or NEGATIONS.search(text):
        return False
    if PUNCTUATION.sub("", text) == name:
        return True
    return any(f"{a}{name}{b}" in text for a, b in ("“”", "「」", '""', "《》"))


class CrossDianpingRecommendToWeChat(Tell):
    """A WeChat friend asks for the best-rated restaurant of a cuisine within a 人均 budget:
    find it in 大众点评 and reply in the chat with its name (``recommends``: alone, no other
    shop; a list of shops is not a recommendation)."""

    apps = ("Chat", "Dianping")
    template = ("{friend}在微信上让我推荐一家餐厅。按他说的要求在大众点评里找评分最高的那家，"
                "在微信里把店名回复给他。")
    complexity, max_steps = 3, 26
    derivations = {"shop": "the best-rated listed shop of the friend's cuisine within the "
                           "friend's budget"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = [str(n) for n in pick(rng, NAMES, 4)]
        return {**shops_plan(rng), "names": names,
                "friend": names[int(rng.integers(len(names)))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        dianping.write_shops(state, params["shops"], rng)
        chats = seed_social(state, rng, params["names"])
        say(state, chats[params["friend"]], params["friend"],
            f"周末想吃{params['cuisine']}，人均{params['budget']}元以内，"
            "帮我推荐一家评分最高的？", time="18:20")

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        best = p["best"]
        others = tuple(s["name"] for s in p["shops"] if s["name"] != best)
        return Said(mine["chat"], lambda text, _: recommends(text, best, others),
                    f"recommends {best} alone")

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        mine = [s for s in p["shops"] if s["cuisine"] == p["cuisine"]]
        top = max(mine, key=lambda s: s["rating"])["name"]  # over the budget
        return [(top, "replied with the best-rated shop over the budget"),
                (f"{p['best']}或者{top}", "replied with two shops")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        found = yield from asked(ui, p["friend"], r"想吃(.+?)，人均(\d+)元以内，帮我推荐一家")
        cuisine, budget = found.group(1), int(found.group(2))
        ui.why(f"{p['friend']}要人均{budget}元以内的{cuisine}")
        yield from dianping.search(ui, cuisine, "rating", 0)
        if ui.find(id=f"budget_{budget}") is not None:
            yield from ui.tap(id=f"budget_{budget}")
        rows = [r for r in dianping.shop_rows(ui) if r[2]["price"] <= budget]
        if not rows:
            raise OracleError("no shop within the budget")
        ui.why(f"评分最高的是“{rows[0][1]}”，回复{p['friend']}")
        return str(rows[0][1])


class CrossBilibiliShareToWeChatGroup(ShareToGroup):
    """Share an UP主's 哔哩哔哩 video to a WeChat group: the group's message must carry that
    video's link (the video's share count goes up by one)."""

    apps = ("Bilibili", "Chat")
    template = "把哔哩哔哩上{up}的视频《{title}》分享到微信群“{group}”。"
    complexity, max_steps = 2, 16

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = bili.sample_channel(rng, 4)
        index = int(rng.integers(len(plan["videos"])))
        v = plan["videos"][index]
        groups = [str(g) for g in pick(rng, GROUPS, 3)]
        return {"channel": plan, "index": index, "title": v["title"],
                "up": plan["ups"][v["up"] - 1]["name"],
                "names": [str(n) for n in pick(rng, NAMES, 3)], "groups": groups,
                "group": groups[int(rng.integers(len(groups)))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        bili.write_channel(state, params["channel"])
        seed_social(state, rng, params["names"], params["groups"])

    def link(self, p: Mapping[str, Any]) -> tuple[str, str]:
        return p["title"], bili.video_link(p["index"] + 1)

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*super().allowed(params, initial),
                Allow(bili.VIDEOS, "modified", where={"id": params["index"] + 1},
                      fields=("shares",))]

    def share(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from bili.open_video(ui, p["title"])
        if ui.must(id="up").text != p["up"]:
            raise OracleError(f"《{p['title']}》 is not {p['up']}'s")
        yield from ui.tap(id="share")


class CrossDianpingAddressToDocs(ZhTask, ToDoc):
    """Look a shop up in 大众点评 and write its address down in a new 腾讯文档 document: the
    document's body must be exactly the address."""

    apps = ("Dianping", "TencentDocs")
    template = ("在大众点评查一下“{shop}”的地址，在腾讯文档新建一篇标题为“{doc_title}”的文档，"
                "正文只写这个地址。")
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = shops_plan(rng)
        index = int(rng.integers(len(plan["shops"])))
        return {**plan, "index": index, "shop": plan["shops"][index]["name"],
                "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        dianping.write_shops(state, params["shops"], rng)
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any] | None = None) -> str:
        return str(p["shops"][p["index"]]["address"])

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        return [(next(s["address"] for s in p["shops"] if s["name"] != p["shop"]),
                 "another shop's address"),
                (f"{p['shop']} {self.value(p)}", "the name beside the address")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from dianping.open_shop(ui, p["shop"])
        address = ui.must(id="address").text.removeprefix("地址：")
        ui.why(f"地址是“{address}”，记到腾讯文档")
        return address


TEMPLATES: list[Task] = [CrossDianpingRecommendToWeChat(), CrossBilibiliShareToWeChatGroup(),
                         CrossDianpingAddressToDocs()]
