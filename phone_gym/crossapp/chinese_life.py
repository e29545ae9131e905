"""Cross-app templates on the everyday Chinese apps of the paper's world: a 美团 (Meituan)
order a friend asked for in WeChat, answered in the chat with the order's arrival time; a
淘宝 (Taobao) product found by its sales, shared to a WeChat group; what a 小红书
(Xiaohongshu) note recommends, saved into a new 腾讯文档 (TencentDocs) document.
Chinese instructions; the apps through their public ``fixtures`` only.

The arrival check reads the order the agent placed in the final state: the reply must name
that order's 预计送达 time, so a time made up, or read from another order, fails.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.chat.fixtures import (
    BALANCE,
    ME,
    TRANSACTIONS,
    open_chat,
    sample_pin,
    say,
    seed_social,
    set_wallet,
)
from ..mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ..mockapps.docs import fixtures as docs
from ..mockapps.meituan import fixtures as meituan
from ..mockapps.taobao import fixtures as taobao
from ..mockapps.xiaohongshu import fixtures as xhs
from ..tasks.driver import Driver, OracleError
from ..tasks.families import read_rows
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import (
    Allow,
    Allowed,
    Becomes,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    Value,
    same_text,
)
from ..verifiers.criteria import matching

NAMES = ("李娜", "张伟", "王芳", "刘洋", "陈静", "赵磊", "孙梅", "周涛")
DOC_TITLES = ("种草清单", "想去的地方", "周末计划", "待买好物")
GROUPS = ("家人群", "项目组", "羽毛球群", "大学同学", "读书会", "业主群")
ZH = ("en-US", "zh-CN")


def holding(*parts: str) -> Matcher:
    return Matcher(lambda v: all(p in str(v) for p in parts), f"a text holding {parts}")


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


@dataclass(frozen=True)
class NamesOrderEta:
    """A message of ``chat`` from the owner names the 预计送达 time of an order matching
    ``where`` in the same state (the order the agent placed), and nothing else (``tells_time``)."""

    where: Mapping[str, Any]
    chat: int

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        etas = {str(o.get("eta", "")) for o in matching(state, meituan.ORDERS, self.where)
                if o.get("status") == "配送中"}
        if not etas:
            return False, "no order placed that the reply could name"
        for m in matching(state, CHAT_MESSAGES, {"chat": self.chat, "sender": ME}):
            if any(tells_time(str(m.get("text", "")), eta) for eta in etas):
                return True, "the reply names the order's arrival time"
        return False, f"no reply in chat {self.chat} names the arrival time {sorted(etas)}"


class CrossMeituanOrderForFriend(Task):
    """A WeChat friend asks for a dish from a named shop, delivered to the office; order it
    in 美团, pay, and reply in the chat with the order's arrival time."""

    apps = ("Chat", "Meituan")
    tags = frozenset({"handoff"})
    locales = ZH
    template = ("{friend}在微信上找我帮忙点外卖。照他说的在美团外卖下单并付款（支付密码是{pin}），"
                "然后在微信里告诉他预计几点送到。")
    instructions = {"zh-CN": template}
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

    def chat(self, p: Mapping[str, Any]) -> int:
        return list(p["names"]).index(p["friend"]) + 1

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        total = self.total(params)
        mine = {"chat": self.chat(params), "sender": ME}
        before = len(matching(initial, CHAT_MESSAGES, mine))
        return [Record(meituan.ORDERS, self.where(params), {"total": total}, count=1),
                Record(TRANSACTIONS, {"amount": -total}, count=1),
                Value(BALANCE, params["balance"] - total),
                Record(CHAT_MESSAGES, mine, count=before + 1),
                NamesOrderEta(self.where(params), self.chat(params))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(meituan.ORDERS, "added", max=1), Allow(TRANSACTIONS, "added", max=1),
                Becomes(BALANCE, params["balance"] - self.total(params)),
                Allow(CHAT_MESSAGES, "added", max=1)]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        wrong = copy.deepcopy(dict(final))
        for m in matching(wrong, CHAT_MESSAGES, {"chat": self.chat(p), "sender": ME}):
            m["text"] = "已经帮你点好了，大概半小时到。"  # type: ignore[index]
        return [NearMiss(wrong, None, "replied without the order's arrival time")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_chat(ui, p["friend"])
        asks = [e.text for e in ui.find_all() if "帮我在美团点一份" in e.text]
        found = re.search(r"点一份(.+?)吗.*“(.+?)”", asks[0]) if asks else None
        if found is None:
            raise OracleError("the friend's request is not on screen")
        dish, shop = found.group(1), found.group(2)
        ui.why(f"{p['friend']}要“{shop}”的{dish}，送到公司")
        yield from meituan.open_shop(ui, shop)
        yield from meituan.order_dishes(ui, [[dish, 1]], "公司")
        yield from meituan.pay(ui, p["pin"])
        eta = ui.must(id="order_eta").text.removeprefix("预计送达 ")
        ui.why(f"订单预计{eta}送达，回复{p['friend']}")
        yield from ui.open_app("Chat")
        if ui.find(id="composer", kind="text_field") is None:  # WeChat left elsewhere
            yield from open_chat(ui, p["friend"])
        yield from ui.fill("composer", f"预计送达 {eta}")
        yield from ui.tap(id="send")
        yield from ui.finish()


class CrossTaobaoShareBestSeller(Task):
    """Search 淘宝, find the product most people paid for, and share its link to a WeChat
    group (淘宝's 分享): the group's message must carry that product's link."""

    apps = ("Taobao", "Chat")
    tags = frozenset({"handoff"})
    locales = ZH
    template = "在淘宝搜“{word}”，把付款人数最多的那件宝贝分享到微信群“{group}”。"
    instructions = {"zh-CN": template}
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

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        pid, best = max(((i + 1, x) for i, x in enumerate(params["products"])
                         if x["word"] == params["word"]), key=lambda t: t[1]["sales"])
        chat = len(params["names"]) + list(params["groups"]).index(params["group"]) + 1
        return [Record(CHAT_MESSAGES, {"chat": chat, "sender": ME, "kind": "link",
                                       "text": best["title"],
                                       "content": taobao.product_link(pid)}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CHAT_MESSAGES, "added", max=1)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from taobao.search(ui, p["word"])
        yield from ui.tap(id="sort_1")  # 销量: the most sold first
        rows = yield from read_rows(ui, "item")
        row, title, hint = max(rows, key=lambda r: int(re.findall(r"(\d+)人付款", r[2])[0]))
        ui.why(f"付款人数最多的是“{title}”（{hint}）")
        yield from ui.tap(id=row)
        yield from ui.tap(id="share")
        yield from ui.tap(p["group"], kind="list_item")
        yield from ui.tap(id="button_send")
        yield from ui.finish()


class CrossXhsRecommendationToDocs(Task):
    """Read what a 小红书 note recommends and write it down in a new 腾讯文档 document: the
    document's body must be exactly the recommended place or thing."""

    apps = ("Xiaohongshu", "TencentDocs")
    tags = frozenset({"handoff"})
    locales = ZH
    template = ("看看小红书上{author}的“{title}”推荐了什么，在腾讯文档新建一篇标题为“{doc_title}”"
                "的文档，正文只写推荐的名字。")
    instructions = {"zh-CN": template}
    complexity, max_steps = 3, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        notes = xhs.sample_notes(rng, 6)
        n = notes[int(rng.integers(len(notes)))]
        return {"notes": notes, "title": n["title"], "author": n["author"],
                "thing": n["thing"], "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        xhs.write_notes(state, params["notes"])
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(docs.COLLECTION, {"title": same_text(params["doc_title"]),
                                         "body": same_text(params["thing"])}, count=1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(docs.COLLECTION, "added", max=1)]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        whole = copy.deepcopy(dict(final))
        for d in matching(whole, docs.COLLECTION, {"title": same_text(p["doc_title"])}):
            d["body"] = next(n["body"] for n in p["notes"]  # type: ignore[index]
                             if n["title"] == p["title"])
        return [NearMiss(whole, None, "the whole note pasted, not the name")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from xhs.open_note(ui, p["title"])
        thing = xhs.recommended(ui)
        ui.why(f"笔记推荐的是“{thing}”，记到腾讯文档")
        yield from docs.new_doc(ui, p["doc_title"], thing)
        yield from ui.finish()


TEMPLATES: list[Task] = [CrossMeituanOrderForFriend(), CrossTaobaoShareBestSeller(),
                         CrossXhsRecommendationToDocs()]
