"""Cross-app templates on WeChat's 拼多多 and 瑞幸咖啡 mini-programs: a WeChat friend's coffee
request ordered in 瑞幸 and its 取餐码 sent back in the chat; a 拼多多 group buy started and
its price told to a WeChat group; the last 瑞幸 order's 取餐码 written into a new 腾讯文档
(TencentDocs) document. Chinese instructions; the apps through their public ``fixtures``
only."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ..mockapps.chat.fixtures import (
    open_mini_program,
    pay_with_pin,
    sample_pin,
    say,
    seed_social,
    set_wallet,
)
from ..mockapps.docs import fixtures as docs
from ..mockapps.luckin import fixtures as luckin
from ..mockapps.pinduoduo import fixtures as pdd
from ..tasks.driver import Driver, OracleError
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allow, Criterion, Matcher, Record
from ..verifiers.answers import match_answer
from .families.consistency import Ask, made
from .families.handoff import Read, ToDoc
from .families.wechat import GROUPS, NAMES, Tell, ZhTask, asked, paid, to_chat

DOC_TITLES = ("取餐码", "咖啡取餐", "今天的咖啡", "备忘")
TAGS = frozenset({"mini_program", "handoff"})
CODE = re.compile(r"(?<!\d)\d{4}(?!\d)")
NEGATIONS = re.compile(r"不是|不对|没有|并非|\bnot\b|n't|\bno\b|wrong", re.I)
#: A friend's request, as the chat shows it ("帮我带1杯冰生椰拿铁（超大杯，少甜）...").
ITEM = r"(\d+)杯(冰|热)(.+?)（(.+?)，(.+?)）"


def says_only(code: str) -> Matcher:
    """A message text holding the 4-digit ``code``, no other number, and denying
    nothing."""
    def test(v: Any) -> bool:
        return (isinstance(v, str) and CODE.findall(v) == [code]
                and not re.search(r"\d", CODE.sub(" ", v)) and not NEGATIONS.search(v))
    return Matcher(test, f"a text stating {code} (and no other number, denying nothing)")


def same_items(items: Sequence[Sequence[Any]]) -> Matcher:
    want = luckin.normal_items(items)
    return Matcher(lambda v: isinstance(v, (list, tuple)) and luckin.normal_items(v) == want,
                   f"items {want}")


class CrossLuckinFriendOrder(Tell):
    """A WeChat friend asks for a coffee from the nearest 瑞幸: order it there (their options,
    no coupon) and send them the 取餐码 in the chat."""

    apps = ("Chat", "Luckin")
    tags = TAGS
    template = ("{friend}在微信上让我帮忙点杯瑞幸咖啡。按他说的在瑞幸咖啡小程序下单"
                "（支付密码{pin}），再把取餐码回复给他。")
    complexity, max_steps = 5, 50
    derivations = {"store": "the nearest of the stores listed with their distances"}

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        names = [str(n) for n in pick(rng, NAMES, 4)]
        item = luckin.sample_items(rng, 1)[0]
        item[4] = 1
        return {"names": names, "friend": names[int(rng.integers(len(names)))],
                "items": [item], "stores": luckin.sample_stores(rng), "pin": sample_pin(rng),
                "balance": int(rng.integers(10, 50)) * 10_000}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        luckin.write_menu(state)
        luckin.write_stores(state, params["stores"])
        chats = seed_social(state, rng, params["names"])
        say(state, chats[params["friend"]], params["friend"],
            f"帮我带{luckin.items_text(params['items'])}，去离你最近的那家瑞幸自提，"
            "付好了把取餐码发我，谢谢！", time="15:40")

    def total(self, p: Mapping[str, Any]) -> int:
        return sum(luckin.item_price(i) for i in p["items"])

    def code(self, p: Mapping[str, Any]) -> str:
        return luckin.pickup_code(1, self.total(p))  # the first order on the phone

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        nearest = min(p["stores"], key=lambda s: s["distance"])["name"]
        return [made(luckin.ORDERS, {"items": same_items(p["items"])},
                     {"store": nearest, "total": self.total(p), "coupon": "",
                      "code": self.code(p)}),
                paid(p["balance"], self.total(p))]

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        return Record(CHAT_MESSAGES, {**mine, "text": says_only(self.code(p))}, count=1)

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        code = self.code(p)
        other = f"{(int(code) + 1111 - 1000) % 9000 + 1000}"
        return [(f"取餐码{other}", "replied with another code"),
                (f"取餐码{code}，或者{other}", "replied with two codes")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        found = yield from asked(ui, p["friend"], f"帮我带{ITEM}", via=to_chat)
        qty, temp, drink, size, sugar = found.groups()
        ui.why(f"{p['friend']}要{qty}杯{temp}{drink}，{size}，{sugar}")
        for _ in range(4):  # back to WeChat's tabs
            if ui.find(id="tab_discover") is not None:
                break
            yield from ui.press("back")
        yield from open_mini_program(ui, "Luckin", launch=False)
        yield from luckin.choose_nearest_store(ui)
        yield from luckin.add_items(ui, [[drink, temp, sugar, size, int(qty)]])
        yield from luckin.pay(ui, p["pin"])
        code = ui.must(id="pickup_code").text.split()[-1]
        ui.why(f"取餐码是{code}，回复{p['friend']}")
        yield from ui.tap(id="capsule_close")
        return f"取餐码{code}"

    def reach(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        return to_chat(ui, p[self.to])


class CrossPddGroupPriceToWeChat(Tell):
    """Start a 拼多多 group buy and tell a WeChat group its price: the group's new message
    must state the 拼单价 (and no other amount)."""

    apps = ("Chat", "Pinduoduo")
    tags = TAGS
    template = ("在微信的拼多多小程序发起拼单买一件“{product}”（支付密码{pin}），"
                "然后在微信群“{group}”里告诉大家拼单价是多少，喊大家来拼。")
    complexity, max_steps = 4, 36
    to = "group"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        products = pdd.sample_products(rng, 6)
        groups = [str(g) for g in pick(rng, GROUPS, 3)]
        return {"products": products, "product": pick(rng, [x["name"] for x in products]),
                "names": [str(n) for n in pick(rng, NAMES, 3)], "groups": groups,
                "group": groups[int(rng.integers(len(groups)))], "pin": sample_pin(rng),
                "balance": int(rng.integers(10, 50)) * 10_000}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        set_wallet(state, params["balance"], params["pin"])
        pdd.write_products(state, params["products"])
        seed_social(state, rng, params["names"], params["groups"])

    def product(self, p: Mapping[str, Any]) -> tuple[int, int]:
        """The product's id and 拼单价."""
        return next((i + 1, int(x["group"])) for i, x in enumerate(p["products"])
                    if x["name"] == p["product"])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        pid, price = self.product(p)
        return [Ask((Record(pdd.ORDERS, {"product": pid, "kind": pdd.GROUP},
                            {"price": price, "status": "待成团"}, count=1),
                     Record(pdd.GROUPS, {"product": pid}, {"members": 1}, count=1)),
                    (Allow(pdd.ORDERS, "added"),)),
                paid(p["balance"], price),
                Ask((), (Allow(pdd.GROUPS, "added", where={"product": pid}),
                         Allow(pdd.PRODUCTS_AT, "modified", where={"id": pid},
                               fields=("sold",))))]

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        _, price = self.product(p)
        states = Matcher(lambda v: isinstance(v, str) and
                         match_answer("money", price / 100, v)[0], f"a text stating {price}")
        return Record(CHAT_MESSAGES, {**mine, "text": states}, count=1)

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        solo = next(int(x["solo"]) for x in p["products"] if x["name"] == p["product"])
        _, price = self.product(p)
        return [(f"拼单价{solo / 100:.2f}元，快来拼", "told the group the solo price"),
                (f"拼单{price / 100:.2f}元，单买{solo / 100:.2f}元", "told the group two prices")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from pdd.open_product(ui, p["product"])
        shown = ui.must(id="group_price").text  # 拼单价 ¥29.90
        ui.why(f"{shown}：发起拼单")
        yield from ui.tap(id="start_group")
        yield from pay_with_pin(ui, p["pin"], submit="submit_order")
        yield from ui.tap(id="capsule_close")
        return shown

    def reach(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        return to_chat(ui, p[self.to])


class CrossLuckinCodeToDocs(ZhTask, ToDoc):
    """The 取餐码 of the last 瑞幸 order written into a new 腾讯文档 document: its body must
    be exactly the code."""

    apps = ("Luckin", "TencentDocs")
    tags = TAGS
    template = ("把我在瑞幸咖啡小程序最近一单的取餐码记到腾讯文档：新建一篇标题为"
                "“{doc_title}”的文档，正文只写取餐码。")
    complexity, max_steps = 3, 24

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        stores = luckin.sample_stores(rng)
        codes = [str(c) for c in rng.choice(np.arange(1000, 10000), size=3, replace=False)]
        past = [{"store": s["name"], "items": luckin.sample_items(rng, 1), "code": c}
                for s, c in zip(pick(rng, stores, 3), codes, strict=True)]
        return {"stores": stores, "past": past, "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        luckin.write_menu(state)
        luckin.write_stores(state, params["stores"])
        for i, o in enumerate(params["past"]):
            luckin.add_past_order(state, o["store"], o["items"], o["code"],
                                  status="制作中" if i == len(params["past"]) - 1 else "已取餐")
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        return str(p["past"][-1]["code"])

    def wrong(self, p: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        return [(p["past"][0]["code"], "an older order's code"),
                (f"取餐码 {p['past'][-1]['code']} 瑞幸", "words beside the code")]

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from luckin.open_luckin(ui)
        yield from ui.tap(id="tab_list")
        orders = sorted((e for e in ui.find_all(kind="list_item")
                         if e.short_id.startswith("order_")), key=lambda e: e.bounds[1])
        if not orders:
            raise OracleError("no order listed")
        yield from ui.tap(id=orders[0].short_id)
        code = ui.must(id="pickup_code").text.split()[-1]
        ui.why(f"最近一单的取餐码是{code}，记到腾讯文档")
        return str(code)


TEMPLATES: list[Task] = [CrossLuckinFriendOrder(), CrossPddGroupPriceToWeChat(),
                         CrossLuckinCodeToDocs()]
