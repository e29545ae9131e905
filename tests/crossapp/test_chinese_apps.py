"""The paper's 元宝 -> 腾讯文档 handoff: the document must hold the leave request 元宝 wrote
for this request, not what the clipboard held before (the weaker model's mistake), and a
leave request typed by hand (元宝 never asked) fails too."""

from __future__ import annotations

import copy

import numpy as np

from phone_gym.crossapp.chinese_apps import CrossYuanbaoLeaveToDocs
from phone_gym.mockapps import APPS, Episode
from phone_gym.mockapps.docs.fixtures import COLLECTION
from phone_gym.verifiers import lookup
from phone_gym.world import Device


def solved(seed: int) -> tuple[Episode, dict]:
    ep = Episode(CrossYuanbaoLeaveToDocs(), Device(APPS), np.random.default_rng(seed))
    ep.solve()
    final = ep.host.snapshot(ep.template)
    assert ep.template.verify(ep.initial, final, ep.params, None).success
    return ep, final


def test_the_stale_clipboard_pasted_into_the_document_fails() -> None:
    ep, final = solved(4)
    stale = ep.initial["clipboard"]
    assert "请假条" in stale and ep.params["reason"] not in stale  # an older leave request
    wrong = copy.deepcopy(final)
    [doc] = [d for d in lookup(wrong, COLLECTION).values() if d["title"] == ep.params["title"]]
    doc["body"] = stale
    assert not ep.template.verify(ep.initial, wrong, ep.params, None).success


def test_the_document_holds_exactly_the_reply_of_this_request() -> None:
    ep, final = solved(5)
    [doc] = [d for d in lookup(final, COLLECTION).values() if d["title"] == ep.params["title"]]
    assert f"因{ep.params['reason']}，" in doc["body"]
    edited = copy.deepcopy(final)
    [doc] = [d for d in lookup(edited, COLLECTION).values() if d["title"] == ep.params["title"]]
    doc["body"] += "谢谢！"
    assert not ep.template.verify(ep.initial, edited, ep.params, None).success
