"""Cross-app templates on the everyday Chinese apps of the paper's world: a 美团 (Meituan)
order a friend asked for in WeChat, answered in the chat with the order's arrival time; a
淘宝 (Taobao) product found by its sales, shared to a WeChat group; what a 小红书
(Xiaohongshu) note recommends, saved into a new 腾讯文档 (TencentDocs) document.
Chinese instructions; the apps through their public ``fixtures`` only."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.chat.fixtures import sample_pin, say, seed_social, set_wallet
from ..mockapps.docs import fixtures as docs
from ..mockapps.meituan import fixtures as meituan
from ..mockapps.taobao import fixtures as taobao
from ..mockapps.xiaohongshu import fixtures as xhs
from ..tasks.driver import Driver
from ..tasks.families import read_rows
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Criterion, matching
from .families.consistency import Ask, made
from .families.handoff import Read, ToDoc
from .families.wechat import GROUPS, NAMES, Said, ShareToGroup, Tell, ZhTask, asked, paid

DOC_TITLES = ("种草清单", "想去的地方", "周末计划", "待买好物")


TIME = re.compile(r"(?<![\d:：])(\d{1,2})\s*[:：点]\s*(\d{2})(?![\d:：])")


def times_in(text: str) -> set[str]:
    """The times of day a text names ("10:08", "10：08", "10点08分"), as "HH:MM"."""
    return {f"{int(h):02d}:{m}" for h, m in TIME.findall(text)}


NEGATIONS = re.compile(r"\bnot\b|n't|不是|不会|没有|并非", re.I)


def tells_time(text: str, eta: str) -> bool:
    """Whether ``text`` names the time ``eta`` and nothing else: no second time or number,
    no negation."""
    if times_in(text) != {eta}:
        return False
    rest = TIME.sub(" ", text)
    return not re.search(r"\d", rest) and not NEGATIONS.search(rest)


class CrossMeituanOrderForFriend(Tell):
    """A WeChat friend asks for a dish from a named shop, delivered to the office; order it
    in 美团, pay, and reply in the chat with the order's arrival time: the 预计送达 time of
    the order placed, in the final state (a time made up, or another order's, fails), and
    nothing else (``tells_time``)."""

    apps = ("Chat", "Meituan")
    template = ("{friend}在微信上找我帮忙点外卖。照他说的在美团外卖下单并付款（支付密码是{pin}），"
                "然后在微信里告诉他预计几点送到。")
    complexity, max_steps = 4, 40

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        shops = meituan.sample_shops(rng, pick(rng, sorted(meituan.MENUS), 2), 2)
        shop = pick(rng, shops)
        dish = pick(rng, [d for d, _ in meituan.MENUS[shop["category"]]])
        shop["minimum"] = min(shop["minimum"], dict(shop["prices"])[dish])
        names = [str(n) for n in pick(rng, NAMES, 4)]
        return {"shops": shops, "shop_name": shop["name"], "dish": dish, "names": names,
                "friend": names[int(rng.integers(len(names)))], "pin": sample_pin(rng),
                "balance": int(rng.integers(20, 80)) * 1000}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        meituan.write_shops(state, params["shops"], addresses=len(meituan.ADDRESSES))
        chats = seed_social(state, rng, params["names"])
        say(state, chats[params["friend"]], params["friend"],
            f"能帮我在美团点一份{params['dish']}吗？要“{params['shop_name']}”家的，"
            "送到公司就行，谢谢！", time="11:20")

    def total(self, p: Mapping[str, Any]) -> int:
        shop = next(s for s in p["shops"] if s["name"] == p["shop_name"])
        return meituan.order_total(shop, [[p["dish"], 1]])

    def where(self, p: Mapping[str, Any]) -> dict[str, Any]:
        office = dict((a[0], a[1]) for a in meituan.ADDRESSES)["公司"]
        return {"shop_name": p["shop_name"], "address": office,
                "items": meituan.same_items([[p["dish"], 1]])}

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [made(meituan.ORDERS, self.where(p), {"total": self.total(p)}),
                paid(p["balance"], self.total(p))]

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        where = self.where(p)

        def names_eta(text: str, state: Mapping[str, Any]) -> bool:
            etas = {str(o.get("eta", "")) for o in matching(state, meituan.ORDERS, where)
                    if o.get("status") == "配送中"}
            return any(tells_time(text, eta) for eta in etas)
        return Said(mine["chat"], names_eta, "names the arrival time of the order placed")

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        return [("已经帮你点好了，大概半小时到。", "replied without the order's arrival time")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        found = yield from asked(ui, p["friend"], r"帮我在美团点一份(.+?)吗.*“(.+?)”")
        dish, shop = found.groups()
        ui.why(f"{p['friend']}要“{shop}”的{dish}，送到公司")
        yield from meituan.open_shop(ui, shop)
        yield from meituan.order_dishes(ui, [[dish, 1]], "公司")
        yield from meituan.pay(ui, p["pin"])
        eta = ui.must(id="order_eta").text.removeprefix("预计送达 ")
        ui.why(f"订单预计{eta}送达，回复{p['friend']}")
        return f"预计送达 {eta}"


class CrossTaobaoShareBestSeller(ShareToGroup):
    """Search 淘宝, find the product most people paid for, and share its link to a WeChat
    group (淘宝's 分享): the group's message must carry that product's link."""

    apps = ("Taobao", "Chat")
    template = "在淘宝搜“{word}”，把付款人数最多的那件宝贝分享到微信群“{group}”。"
    complexity, max_steps = 3, 18
    derivations = {"product": "the most sales among the results listed"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        words = pick(rng, sorted(taobao.CATALOGUE), 2)
        groups = [str(g) for g in pick(rng, GROUPS, 3)]
        return {"word": words[0], "products": taobao.sample_products(rng, words),
                "names": [str(n) for n in pick(rng, NAMES, 3)], "groups": groups,
                "group": groups[int(rng.integers(len(groups)))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        taobao.write_products(state, params["products"])
        seed_social(state, rng, params["names"], params["groups"])

    def link(self, p: Mapping[str, Any]) -> tuple[str, str]:
        pid, best = max(((i + 1, x) for i, x in enumerate(p["products"])
                         if x["word"] == p["word"]), key=lambda t: t[1]["sales"])
        return best["title"], taobao.product_link(pid)

    def share(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from taobao.search(ui, p["word"])
        yield from ui.tap(id="sort_1")  # 销量: the most sold first
        rows = yield from read_rows(ui, "item")
        row, title, hint = max(rows, key=lambda r: int(re.findall(r"(\d+)人付款", r[2])[0]))
        ui.why(f"付款人数最多的是“{title}”（{hint}）")
        yield from ui.tap(id=row)
        yield from ui.tap(id="share")


class CrossXhsRecommendationToDocs(ZhTask, ToDoc):
    """Read what a 小红书 note recommends and write it down in a new 腾讯文档 document: the
    document's body must be exactly the recommended place or thing."""

    apps = ("Xiaohongshu", "TencentDocs")
    template = ("看看小红书上{author}的“{title}”推荐了什么，在腾讯文档新建一篇标题为“{doc_title}”"
                "的文档，正文只写推荐的名字。")
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        notes = xhs.sample_notes(rng, 6)
        n = notes[int(rng.integers(len(notes)))]
        return {"notes": notes, "title": n["title"], "author": n["author"],
                "thing": n["thing"], "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        xhs.write_notes(state, params["notes"])
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        return str(p["thing"])

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        body = next(n["body"] for n in p["notes"] if n["title"] == p["title"])
        return [(body, "the whole note pasted, not the name")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from xhs.open_note(ui, p["title"])
        thing = xhs.recommended(ui)
        ui.why(f"笔记推荐的是“{thing}”，记到腾讯文档")
        return str(thing)


TEMPLATES: list[Task] = [CrossMeituanOrderForFriend(), CrossTaobaoShareBestSeller(),
                         CrossXhsRecommendationToDocs()]
