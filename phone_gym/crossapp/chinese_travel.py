"""Cross-app templates on 携程旅行 (Ctrip) and the 同程旅行 (Tongcheng) mini-program: a
WeChat friend asks for the earliest train after a time (looked up in 携程, answered in the
chat); a 同程 hotel booked and its total posted to a WeChat group; a 携程 hotel's address
written into a new 腾讯文档 document. Chinese instructions; the apps through their public
``fixtures`` only."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ..mockapps.chat.fixtures import sample_pin, say, seed_social
from ..mockapps.chat.fixtures import set_wallet as chat_wallet
from ..mockapps.ctrip import fixtures as ctrip
from ..mockapps.docs import fixtures as docs
from ..mockapps.tongcheng import fixtures as tongcheng
from ..tasks.driver import Driver, OracleError
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Criterion, Record, naming_only, same_text
from ..verifiers.answers import answer_matcher
from .common import DENIAL
from .families.consistency import Ask, made
from .families.handoff import Read, ToDoc
from .families.wechat import NAMES, Said, Tell, ZhTask, asked, paid

GROUPS = ("家人群", "项目组", "羽毛球群", "大学同学", "读书会", "出游小分队")
DOC_TITLES = ("出行备忘", "住宿信息", "旅行计划", "酒店地址")
DAY_TYPED = {"type": "the day the instruction or message names (a month and day of the "
                     "coming weeks), written YYYY-MM-DD as the date fields take them; the "
                     "check-out day: the check-in day plus the nights"}


def iso_day(text: str, year: int) -> str:
    """"10月28日" of ``year`` as an ISO day."""
    found = re.search(r"(\d+)月(\d+)日", text)
    if found is None:
        raise OracleError(f"no day in {text!r}")
    return date(year, int(found.group(1)), int(found.group(2))).isoformat()


def tells_amount(chat: int, cents: int) -> Said:
    """One of the owner's messages in ``chat`` states ``cents`` (the money answer's matcher:
    "1340元", "¥1340", "一共1340元"; a second amount fails), denying nothing."""
    match = answer_matcher("money", cents / 100, "answer")
    return Said(chat, lambda text, _: bool(match(text)) and not DENIAL.search(text),
                f"states ¥{cents / 100:.2f}")


class CrossCtripTrainForFriend(Tell):
    """A WeChat friend asks which is the earliest train of a day after a time: look it up
    in 携程旅行 and reply with its number (naming no other train)."""

    apps = ("Chat", "Ctrip")
    template = "{friend}在微信上问我坐哪趟火车。用携程旅行查一下，在微信里回复他车次。"
    complexity, max_steps = 3, 30
    derivations = DAY_TYPED

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        origin, dest = (str(s) for s in pick(rng, ctrip.STATIONS, 2))
        day, _, _ = ctrip.stay(rng, self.start.date())
        trains = ctrip.sample_trains(rng, 5)
        names = [str(n) for n in pick(rng, NAMES, 3)]
        return {"origin": origin, "dest": dest, "date": day, "day": ctrip.zh_day(day),
                "trains": trains, "after": f"{int(trains[1]['depart'][:2]):02d}:00",
                "names": names, "friend": names[int(rng.integers(3))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        ctrip.write_trains(state, params["origin"], params["dest"], params["date"],
                           params["trains"])
        chats = seed_social(state, rng, params["names"])
        say(state, chats[params["friend"]], params["friend"],
            f"{params['day']}我要从{params['origin']}去{params['dest']}，{params['after']}以后"
            "最早的一班是哪趟车？", time="15:40")

    def number(self, p: Mapping[str, Any]) -> str:
        after = [t for t in p["trains"] if t["depart"] >= p["after"]]
        return str(min(after, key=lambda t: t["depart"])["number"])

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        others = [str(t["number"]) for t in p["trains"]]
        return Record(CHAT_MESSAGES, {**mine, "text": naming_only(self.number(p), others)},
                      count=1)

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        found = yield from asked(ui, p["friend"], r"(\d+月\d+日)我要从(.+?)去(.+?)，"
                                                  r"(\d\d:\d\d)以后最早的一班是哪趟车")
        day, origin, dest, after = found.groups()
        ui.why(f"{p['friend']}问{day}{origin}到{dest}、{after}以后最早的车：在携程查")
        yield from ctrip.search_trains(ui, origin, dest, iso_day(day, self.start.year))
        later = [t for t in ctrip.trains_shown(ui) if t[2] >= after]
        if not later:
            raise OracleError("no train after the time")
        number = min(later, key=lambda t: t[2])[1]
        ui.why(f"最早的是{number}，回复{p['friend']}")
        return f"{number}"


class CrossTongchengHotelToGroup(Tell):
    """Book a named hotel in the 同程旅行 mini-program (WeChat Pay), then post the order's
    total in a WeChat group."""

    apps = ("Chat", "Tongcheng")
    tags = frozenset({"handoff", "mini_program"})
    template = ("在微信的同程旅行小程序订{city}的{hotel}，{day}入住，住{nights}晚，入住人"
                "{guest}（微信支付密码{pin}），然后把订单总价发到微信群“{group}”。")
    complexity, max_steps = 4, 50
    derivations = DAY_TYPED
    to = "group"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        city = pick(rng, sorted(tongcheng.CITIES))
        checkin, checkout, n = ctrip.stay(rng, self.start.date())
        names = tongcheng.hotel_names(rng, 4)
        groups = [str(g) for g in pick(rng, GROUPS, 3)]
        return {"city": city, "checkin": checkin, "checkout": checkout, "nights": n,
                "day": ctrip.zh_day(checkin), "hotel": names[0], "names": names,
                "prices": [int(x) * 1000 for x in rng.choice(np.arange(20, 90), 4,
                                                             replace=False)],
                "guest": pick(rng, tongcheng.TRAVELLERS), "pin": sample_pin(rng),
                "balance": int(rng.integers(40, 90)) * 10_000,
                "friends": [str(f) for f in pick(rng, NAMES, 3)], "groups": groups,
                "group": groups[int(rng.integers(3))]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        chat_wallet(state, params["balance"], params["pin"])
        seed_social(state, rng, params["friends"], params["groups"])
        mark = tongcheng.CITIES[params["city"]][0]
        for name, price in zip(params["names"], params["prices"], strict=True):
            tongcheng.add_hotel(state, name, params["city"], price, int(rng.integers(38, 50)),
                                {mark: int(rng.integers(3, 60)) * 100}, rng)

    def total(self, p: Mapping[str, Any]) -> int:
        return int(p["prices"][0]) * int(p["nights"])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        return [made(tongcheng.ORDERS, {"kind": "酒店", "status": "已支付"},
                     {"ref": 1, "start": p["checkin"], "end": p["checkout"],
                      "traveller": same_text(p["guest"]), "total": self.total(p)}),
                paid(p["balance"], self.total(p))]

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        return tells_amount(mine["chat"], self.total(p))

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from tongcheng.search_hotels(ui, p["city"], p["checkin"], p["nights"])
        yield from ui.tap(p["hotel"], kind="list_item")
        yield from ui.tap(id="book")
        total = ui.must(id="book_total").text.removeprefix("订单总额 ")
        ui.why(f"总价{total}，支付后发到{p['group']}")
        yield from ui.press("back")
        yield from tongcheng.book_and_pay(ui, p["guest"], p["pin"], "book")
        yield from ui.tap(id="capsule_close")  # back in WeChat, on its Mini Programs list
        return f"订好了，总价{total}"

    def reach(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.press("back")  # from WeChat's Mini Programs list to its tabs
        yield from ui.tap(id="tab_chats")
        yield from ui.fill("search", p["group"])
        yield from ui.tap(p["group"], kind="list_item")


class CrossCtripHotelAddressToDocs(ZhTask, ToDoc):
    """Look a hotel up in 携程旅行 and write its address in a new 腾讯文档 document: the
    body must be exactly the address."""

    apps = ("Ctrip", "TencentDocs")
    template = ("在携程旅行搜{city}{day}入住{nights}晚的酒店，找到{hotel}，把它的地址记到腾讯文档"
                "里一篇新建的标题为“{doc_title}”的文档，正文只写地址。")
    complexity, max_steps = 3, 30
    derivations = DAY_TYPED

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        city = pick(rng, sorted(ctrip.CITIES))
        checkin, checkout, n = ctrip.stay(rng, self.start.date())
        names = ctrip.hotel_names(rng, 4)
        return {"city": city, "checkin": checkin, "checkout": checkout, "nights": n,
                "day": ctrip.zh_day(checkin), "hotel": names[0], "names": names,
                "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        mark = ctrip.CITIES[params["city"]][0]
        for name in params["names"]:
            ctrip.add_hotel(state, name, params["city"], int(rng.integers(3, 6)),
                            ctrip.rooms_from(int(rng.integers(20, 90)) * 1000, rng),
                            {mark: int(rng.integers(3, 60)) * 100}, rng)
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        return next(str(h["address"]) for h in ctrip.records(initial, "hotels")
                    if h["name"] == p["hotel"])

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from ctrip.search_hotels(ui, p["city"], p["checkin"], p["nights"])
        yield from ui.tap(p["hotel"], kind="list_item")
        address = ui.must(id="hotel_address").text
        ui.why(f"地址是“{address}”，记到腾讯文档")
        return str(address)


TEMPLATES: list[Task] = [CrossCtripTrainForFriend(), CrossTongchengHotelToGroup(),
                         CrossCtripHotelAddressToDocs()]
