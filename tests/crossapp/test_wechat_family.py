"""The WeChat handoff family (``crossapp.families.wechat``) and ``handoff.ToDoc``: the chat
is found by its title (one chat, or a ValueError), ``Said`` counts only the owner's messages
in that chat, a reply or share sent to another chat fails, and a document's wrong bodies
(``wrong``) are declared near misses that fail."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.crossapp.chinese_maps import CrossAmapAddressToDocs, CrossAmapRouteTimeToWeChat
from phone_gym.crossapp.chinese_media import CrossBilibiliShareToWeChatGroup
from phone_gym.crossapp.families.wechat import ZH, Said, chat_id
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.chat.fixtures import ME, MESSAGES
from phone_gym.mockapps.docs.fixtures import COLLECTION as DOCS
from phone_gym.verifiers import lookup
from phone_gym.world import Device

CHATS = {"apps": {"Chat": {"chats": {
    "1": {"id": 1, "title": "李娜", "group": False},
    "2": {"id": 2, "title": "家人群", "group": True},
    "3": {"id": 3, "title": "家人群", "group": True}}}}}


def solved(template: Any, seed: int) -> tuple[Episode, dict]:
    ep = Episode(template, Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


def test_the_chat_is_the_one_titled_so() -> None:
    assert chat_id(CHATS, "李娜") == 1
    for title, count in (("家人群", 2), ("读书会", 0)):
        with pytest.raises(ValueError, match=f"{count} WeChat chats are titled"):
            chat_id(CHATS, title)


def test_said_counts_only_the_owners_messages_in_that_chat() -> None:
    said = Said(2, lambda text, _: "25分钟" in text, "states 25 minutes")
    for chat, sender, ok in ((2, ME, True), (2, "李娜", False), (1, ME, False)):
        state = {"apps": {"Chat": {"messages": {"1": {"id": 1, "chat": chat, "sender": sender,
                                                      "text": "25分钟"}}}}}
        assert said.check(state, None)[0] is ok


def test_a_reply_or_a_share_sent_to_another_chat_fails() -> None:
    for template in (CrossAmapRouteTimeToWeChat(), CrossBilibiliShareToWeChatGroup()):
        ep, final = solved(template, 1)
        assert template.locales == ZH and template.instructions["zh-CN"] == template.template
        chat = template.mine(ep.params, ep.initial)["chat"]
        new = max(lookup(ep.initial, MESSAGES).values(), key=lambda m: m["id"])["id"]
        wrong = copy.deepcopy(final)
        [sent] = [m for m in lookup(wrong, MESSAGES).values() if m["id"] > new]
        assert sent["chat"] == chat and sent["sender"] == ME
        sent["chat"] = 1 if chat != 1 else 2
        assert not template.verify(ep.initial, wrong, ep.params, None).success, template.id


def test_a_documents_wrong_bodies_are_near_misses_that_fail() -> None:
    template = CrossAmapAddressToDocs()
    ep, final = solved(template, 2)
    misses = template.declared_near_misses(ep.initial, final, ep.params, None)
    assert [m.why for m in misses] == [why for _, why in template.wrong(ep.params)]
    for miss in misses:
        [doc] = [d for d in lookup(miss.state, DOCS).values()
                 if d["title"] == ep.params["doc_title"]]
        assert doc["body"] != template.value(ep.params)
        assert not template.verify(ep.initial, miss.state, ep.params, None).success, miss.why
