"""高德地图 and 抖音 across apps: a WeChat friend's question about a trip must be answered
with 高德's time for the friend's mode (not another mode's, not two times, not a guess); a
抖音 video shared to a WeChat group must carry that video's link, and sharing also to a
second chat fails; a 高德 address in a 腾讯文档 document must be the address alone."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.chinese_maps import (
    MODE_SAID,
    CrossAmapAddressToDocs,
    CrossAmapRouteTimeToWeChat,
    CrossDouyinShareToWeChatGroup,
    tells_minutes,
)
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.chat.fixtures import ME, MESSAGES
from phone_gym.mockapps.docs.fixtures import COLLECTION as DOCS
from phone_gym.mockapps.douyin.fixtures import VIDEOS, video_link
from phone_gym.testing import check_task
from phone_gym.testing.grounding import audit_grounding
from phone_gym.verifiers import lookup
from phone_gym.world import Device

TEMPLATES = [CrossAmapRouteTimeToWeChat(), CrossDouyinShareToWeChatGroup(),
             CrossAmapAddressToDocs()]


def solved(seed: int, template: Any) -> tuple[Episode, dict]:
    ep = Episode(template, Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


@pytest.mark.slow
@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.id)
def test_checks_in_both_locales_and_grounding(template: Any) -> None:
    check_task(template.id, 20, processes=False, starts=(0,))
    check_task(template.id, 20, processes=False, locale="zh-CN", starts=(0,))
    report = audit_grounding(template, seeds=(0, 1, 2))
    assert not report.findings and not report.errors


@pytest.mark.parametrize(("text", "told"), [
    ("25分钟", True), ("开车大概25分钟吧", True), ("25分", True), ("1小时5分钟", False),
    ("25分钟或者35分钟", False), ("不到25分钟", False), ("25", False), ("半小时", False),
    ("25分钟x", False), ("not 25分钟", False),
])
def test_the_reply_tells_the_minutes_and_nothing_else(text: str, told: bool) -> None:
    assert tells_minutes(text, 25) is told
    assert tells_minutes("1小时5分钟", 65)


def test_a_reply_with_another_modes_time_fails() -> None:
    template = CrossAmapRouteTimeToWeChat()
    ep, final = solved(4, template)
    p = ep.params
    want = template.minutes(p, p["mode"])
    chat = template.mine(p, ep.initial)["chat"]
    reply = max((m for m in lookup(final, MESSAGES).values()
                 if m["sender"] == ME and m["chat"] == chat), key=lambda m: m["id"])
    assert tells_minutes(reply["text"], want)
    for mode in MODE_SAID:
        other = template.minutes(p, mode)
        if other == want:
            continue
        wrong = copy.deepcopy(final)
        [r] = [x for x in lookup(wrong, MESSAGES).values() if x["id"] == reply["id"]]
        r["text"] = f"{other}分钟"
        assert not template.verify(ep.initial, wrong, p, None).success


def test_sharing_another_video_or_to_two_chats_fails() -> None:
    template = CrossDouyinShareToWeChatGroup()
    ep, final = solved(2, template)
    [msg] = [m for m in lookup(final, MESSAGES).values() if m["kind"] == "link"]
    assert msg["content"] == video_link(ep.params["index"] + 1)
    wrong = copy.deepcopy(final)
    [m] = [m for m in lookup(wrong, MESSAGES).values() if m["kind"] == "link"]
    other = (ep.params["index"] + 1) % 6
    m["content"] = video_link(other + 1)
    m["text"] = ep.params["feed"]["videos"][other]["caption"]
    assert not template.verify(ep.initial, wrong, ep.params, None).success
    liked = copy.deepcopy(final)  # a like on the way: collateral
    [v] = [v for v in lookup(liked, VIDEOS).values() if v["id"] == ep.params["index"] + 1]
    v["liked"], v["likes"] = True, v["likes"] + 1
    assert not template.verify(ep.initial, liked, ep.params, None).success


def test_the_document_holds_the_address_only() -> None:
    template = CrossAmapAddressToDocs()
    ep, final = solved(1, template)
    [doc] = [d for d in lookup(final, DOCS).values() if d["title"] == ep.params["doc_title"]]
    assert doc["body"] == template.value(ep.params)
    wrong = copy.deepcopy(final)
    [d] = [d for d in lookup(wrong, DOCS).values() if d["title"] == ep.params["doc_title"]]
    d["body"] = f"地址：{template.value(ep.params)}"
    assert not template.verify(ep.initial, wrong, ep.params, None).success
