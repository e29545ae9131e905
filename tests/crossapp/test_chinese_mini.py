"""拼多多 and 瑞幸咖啡 across apps: the 取餐码 sent to a WeChat friend must be the new
order's code alone (not another number, not denied) and the order must be the friend's cup at
the nearest store; the price told to a WeChat group must be the 拼单价 (not the solo price,
not both); the 腾讯文档 document holds the last order's 取餐码 alone."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.chinese_mini import (
    CrossLuckinCodeToDocs,
    CrossLuckinFriendOrder,
    CrossPddGroupPriceToWeChat,
    says_only,
)
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.chat.fixtures import ME, MESSAGES
from phone_gym.mockapps.docs.fixtures import COLLECTION as DOCS
from phone_gym.mockapps.luckin.fixtures import ORDERS as COFFEE
from phone_gym.testing import check_task
from phone_gym.testing.grounding import audit_grounding
from phone_gym.verifiers import lookup
from phone_gym.world import Device

TEMPLATES = [CrossLuckinFriendOrder(), CrossPddGroupPriceToWeChat(), CrossLuckinCodeToDocs()]


def solved(seed: int, template: Any) -> tuple[Episode, dict]:
    ep = Episode(template, Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


def fails(ep: Episode, state: dict) -> bool:
    return not ep.template.verify(ep.initial, state, ep.params, None).success


@pytest.mark.slow
@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.id)
def test_checks_in_both_locales_and_grounding(template: Any) -> None:
    check_task(template.id, 20, processes=False, starts=(0,))
    check_task(template.id, 20, processes=False, locale="zh-CN", starts=(0,))
    report = audit_grounding(template, seeds=(0, 1, 2))
    assert not report.findings and not report.errors


@pytest.mark.parametrize(("text", "told"), [
    ("取餐码4821", True), ("4821", True), ("取餐码是 4821，记得去拿", True),
    ("取餐码4822", False), ("4821或者4822", False), ("不是4821", False),
    ("取餐码4821，共32元", False), ("", False),
])
def test_the_reply_states_the_code_alone(text: str, told: bool) -> None:
    assert says_only("4821").test(text) is told


def test_the_friend_gets_the_new_orders_code_for_their_cup() -> None:
    template = CrossLuckinFriendOrder()
    ep, final = solved(3, template)
    [order] = lookup(final, COFFEE).values()
    chat = template.mine(ep.params, ep.initial)["chat"]
    reply = max((m for m in lookup(final, MESSAGES).values()
                 if m["sender"] == ME and m["chat"] == chat),
                key=lambda m: m["id"])
    assert order["code"] in reply["text"]
    wrong = copy.deepcopy(final)
    [r] = [m for m in lookup(wrong, MESSAGES).values() if m["id"] == reply["id"]]
    r["text"] = f"取餐码{int(order['code']) % 9000 + 1001}"
    assert fails(ep, wrong)
    far = copy.deepcopy(final)  # the same cup at a store that is not the nearest
    [o] = lookup(far, COFFEE).values()
    o["store"] = max(ep.params["stores"], key=lambda s: s["distance"])["name"]
    assert fails(ep, far)


def test_the_group_is_told_the_group_price_only() -> None:
    template = CrossPddGroupPriceToWeChat()
    ep, final = solved(2, template)
    _, price = template.product(ep.params)
    solo = next(x["solo"] for x in ep.params["products"] if x["name"] == ep.params["product"])
    [msg] = [m for m in lookup(final, MESSAGES).values()
             if m["sender"] == ME and m["chat"] == template.mine(ep.params, ep.initial)["chat"]
             and m["id"] > max(lookup(ep.initial, MESSAGES).values(),
                               key=lambda m: m["id"])["id"]]
    for text in (f"拼单价{solo / 100:.2f}元", f"拼单{price / 100:.2f}元，单买{solo / 100:.2f}元"):
        wrong = copy.deepcopy(final)
        [m] = [m for m in lookup(wrong, MESSAGES).values() if m["id"] == msg["id"]]
        m["text"] = text
        assert fails(ep, wrong), text


def test_the_document_holds_the_last_code_only() -> None:
    template = CrossLuckinCodeToDocs()
    ep, final = solved(1, template)
    [doc] = [d for d in lookup(final, DOCS).values() if d["title"] == ep.params["doc_title"]]
    assert doc["body"] == ep.params["past"][-1]["code"]
    wrong = copy.deepcopy(final)
    [d] = [d for d in lookup(wrong, DOCS).values() if d["title"] == ep.params["doc_title"]]
    d["body"] = ep.params["past"][0]["code"]
    assert fails(ep, wrong)
