"""携程旅行 and 同程旅行 across apps: a WeChat friend's train question must be answered with
the earliest train after the time (not another train, not two); a 同程 booking's total posted
to a WeChat group must state that total (not another amount) and a second booking fails; a
携程 hotel's address in a 腾讯文档 document must be that hotel's address alone."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.chinese_travel import (
    CrossCtripHotelAddressToDocs,
    CrossCtripTrainForFriend,
    CrossTongchengHotelToGroup,
    tells_amount,
)
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.chat.fixtures import ME, MESSAGES
from phone_gym.mockapps.ctrip.fixtures import records
from phone_gym.mockapps.docs.fixtures import COLLECTION as DOCS
from phone_gym.mockapps.tongcheng.fixtures import ORDERS as TC_ORDERS
from phone_gym.testing import check_task
from phone_gym.testing.grounding import audit_grounding
from phone_gym.verifiers import lookup
from phone_gym.world import Device

TEMPLATES = [CrossCtripTrainForFriend(), CrossTongchengHotelToGroup(),
             CrossCtripHotelAddressToDocs()]


def solved(seed: int, template: Any) -> tuple[Episode, dict]:
    ep = Episode(template, Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


def my_last(final: dict, chat: int) -> dict:
    return max((m for m in lookup(final, MESSAGES).values()
                if m["sender"] == ME and m["chat"] == chat), key=lambda m: m["id"])


@pytest.mark.slow
@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.id)
def test_checks_in_both_locales_and_grounding(template: Any) -> None:
    check_task(template.id, 20, processes=False, starts=(0,))
    check_task(template.id, 20, processes=False, locale="zh-CN", starts=(0,))
    report = audit_grounding(template, seeds=(0, 1, 2))
    assert not report.findings and not report.errors


def test_the_reply_names_the_earliest_train_after_the_time_only() -> None:
    template = CrossCtripTrainForFriend()
    ep, final = solved(3, template)
    p = ep.params
    reply = my_last(final, template.mine(p, ep.initial)["chat"])
    assert reply["text"] == template.number(p)
    others = [t["number"] for t in p["trains"] if t["number"] != template.number(p)]
    for text in (others[0], f"{template.number(p)}或者{others[-1]}", "早上那班"):
        wrong = copy.deepcopy(final)
        [r] = [x for x in lookup(wrong, MESSAGES).values() if x["id"] == reply["id"]]
        r["text"] = text
        assert not template.verify(ep.initial, wrong, p, None).success, text


@pytest.mark.parametrize(("text", "told"), [
    ("总价1340元", True), ("¥1340", True), ("一共1340元", True), ("1340", True),
    ("总价1350元", False), ("1340元或1500元", False), ("订好了", False)])
def test_the_group_message_states_the_total(text: str, told: bool) -> None:
    state = {"apps": {"Chat": {"messages": {"1": {"id": 1, "chat": 4, "sender": ME,
                                                  "text": text}}}}}
    assert tells_amount(4, 134000).check(state, None)[0] is told


def test_the_group_gets_the_total_and_one_booking_only() -> None:
    template = CrossTongchengHotelToGroup()
    ep, final = solved(2, template)
    p = ep.params
    msg = my_last(final, template.mine(p, ep.initial)["chat"])
    wrong = copy.deepcopy(final)
    [m] = [x for x in lookup(wrong, MESSAGES).values() if x["id"] == msg["id"]]
    m["text"] = f"总价{template.total(p) // 100 + 100}元"
    assert not template.verify(ep.initial, wrong, p, None).success
    twice = copy.deepcopy(final)  # a second booking of the same stay
    orders = lookup(twice, TC_ORDERS)
    [first] = orders.values()
    orders["2"] = {**first, "id": 2}
    assert not template.verify(ep.initial, twice, p, None).success


def test_the_document_holds_the_hotels_address_only() -> None:
    template = CrossCtripHotelAddressToDocs()
    ep, final = solved(1, template)
    p = ep.params
    [doc] = [d for d in lookup(final, DOCS).values() if d["title"] == p["doc_title"]]
    assert doc["body"] == template.value(p, ep.initial)
    other = next(h["address"] for h in records(ep.initial, "hotels") if h["name"] != p["hotel"])
    for body in (other, f"{p['hotel']} {doc['body']}"):
        wrong = copy.deepcopy(final)
        [d] = [d for d in lookup(wrong, DOCS).values() if d["title"] == p["doc_title"]]
        d["body"] = body
        assert not template.verify(ep.initial, wrong, p, None).success, body
