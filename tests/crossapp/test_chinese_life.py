"""A 美团 order a WeChat friend asked for: the reply in the chat must name the arrival time of
the order placed (not the shop's delivery minutes, not another order's time, nothing more);
the order must be the friend's dish from the friend's shop, to the office. A 淘宝 best
seller shared to a WeChat group: the link must be the best seller's. A 小红书 note's
recommendation in a 腾讯文档 document: the name itself, not the whole note."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.chinese_life import (
    CrossMeituanOrderForFriend,
    CrossTaobaoShareBestSeller,
    CrossXhsRecommendationToDocs,
    tells_time,
)
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.chat.fixtures import ME, MESSAGES
from phone_gym.mockapps.docs.fixtures import COLLECTION as DOCS
from phone_gym.mockapps.meituan.fixtures import ORDERS
from phone_gym.mockapps.taobao.fixtures import product_link
from phone_gym.verifiers import lookup
from phone_gym.world import Device


def solved(seed: int, template: Any = None) -> tuple[Episode, dict]:
    template = template or CrossMeituanOrderForFriend()
    ep = Episode(template, Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


@pytest.mark.parametrize(("text", "told"), [
    ("预计送达 12:35", True), ("帮你点好了，预计12:35送到公司。", True), ("大约12点35分到", True),
    ("12:351", False), ("12:35或者12:50", False), ("不是12:35", False), ("大概30分钟到", False),
])
def test_the_reply_tells_the_time_and_nothing_else(text: str, told: bool) -> None:
    assert tells_time(text, "12:35") is told


def test_a_reply_with_another_time_or_for_another_dish_fails() -> None:
    ep, final = solved(3)
    [order] = [o for o in lookup(final, ORDERS).values()]
    [reply] = [m for m in lookup(final, MESSAGES).values()
               if m["sender"] == ME and order["eta"] in m["text"]]
    h, m = map(int, order["eta"].split(":"))
    late = copy.deepcopy(final)
    [r] = [x for x in lookup(late, MESSAGES).values() if x["id"] == reply["id"]]
    r["text"] = f"预计送达 {h:02d}:{(m + 10) % 60:02d}"
    assert not ep.template.verify(ep.initial, late, ep.params, None).success
    other = copy.deepcopy(final)
    [o] = lookup(other, ORDERS).values()
    o["items"] = [[n, q + 1] for n, q in o["items"]]
    assert not ep.template.verify(ep.initial, other, ep.params, None).success


def test_sharing_the_second_best_seller_fails() -> None:
    ep, final = solved(2, CrossTaobaoShareBestSeller())
    ranked = sorted(((i + 1, x) for i, x in enumerate(ep.params["products"])
                     if x["word"] == ep.params["word"]), key=lambda t: -t[1]["sales"])
    [msg] = [m for m in lookup(final, MESSAGES).values() if m["kind"] == "link"]
    assert msg["content"] == product_link(ranked[0][0])
    wrong = copy.deepcopy(final)
    [m] = [m for m in lookup(wrong, MESSAGES).values() if m["kind"] == "link"]
    m["text"], m["content"] = ranked[1][1]["title"], product_link(ranked[1][0])
    assert not ep.template.verify(ep.initial, wrong, ep.params, None).success


def test_the_document_holds_the_recommended_name_only() -> None:
    ep, final = solved(1, CrossXhsRecommendationToDocs())
    [doc] = [d for d in lookup(final, DOCS).values() if d["title"] == ep.params["doc_title"]]
    assert doc["body"] == ep.params["thing"]
    for body in (f"推荐：{ep.params['thing']}", ep.params["notes"][0]["thing"]
                 if ep.params["notes"][0]["thing"] != ep.params["thing"]
                 else ep.params["notes"][1]["thing"]):
        wrong = copy.deepcopy(final)
        [d] = [d for d in lookup(wrong, DOCS).values() if d["title"] == ep.params["doc_title"]]
        d["body"] = body
        assert not ep.template.verify(ep.initial, wrong, ep.params, None).success
