"""Localized params (``Task.data``, ``Task.sample_in``): on a zh-CN phone WeChat's templates
draw their params exactly as in en-US, then their data (names, groups, messages, notes,
places) becomes Chinese through ``chat/strings/zh-CN.data.json``; setup seeds Chinese data,
the verifier checks the Chinese values, and en-US is untouched."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.mockapps.chat.app import ChatApp, send
from phone_gym.mockapps.chat.fixtures import DATA, datum
from phone_gym.mockapps.pay.tasks import DATA as PAY
from phone_gym.mockapps.pay.tasks import person_in
from phone_gym.tasks.task import Episode, data_catalogue, localize_data
from phone_gym.world import Device
from phone_gym.world.locale import MissingString

ZH = DATA["zh-CN"]
CHAT_ZH = sorted(t.id for t in REGISTRY.templates.values()
                 if t.apps == ("Chat",) and "zh-CN" in t.locales)
#: What may stay Latin in Chinese seeded data: times, codes, amounts, a file's extension,
#: a WeChat ID.
NOT_WORDS = re.compile(r"\.(pdf|docx|xlsx|pptx|zip)$|^[\d:.,\s¥-]*$")
HAN = re.compile(r"[\u4e00-\u9fff]")
#: Params a template composes from others (``sample_in`` writes them anew in zh-CN).
COMPOSED = {"to", "what"}


def test_localize_data_maps_strings_inside_params_and_nothing_else() -> None:
    table = {"Li Na": "李娜", "rent": "房租"}
    params = {"name": "Li Na", "names": ("Li Na", "Tom"), "Li Na": 3, "notes": ["rent"],
              "nested": {"k": "rent"}, "cents": 500, "text": "Li Na paid rent"}
    assert localize_data(params, table) == {
        "name": "李娜", "names": ("李娜", "Tom"), "Li Na": 3, "notes": ["房租"],
        "nested": {"k": "房租"}, "cents": 500, "text": "Li Na paid rent"}


def test_a_data_catalogue_keeps_distinct_data_distinct(tmp_path: Any) -> None:
    (tmp_path / "strings").mkdir()
    (tmp_path / "strings" / "zh-CN.data.json").write_text(
        json.dumps({"Li Na": "李娜", "Lina": "李娜"}), encoding="utf-8")
    with pytest.raises(ValueError, match="several data become 李娜"):
        data_catalogue(str(tmp_path / "tasks.py"), "zh-CN")
    assert data_catalogue(str(tmp_path / "tasks.py"), "en-US") == {}


def test_wechat_data_catalogue_is_chinese() -> None:
    assert len(ZH) >= 90
    for english, chinese in ZH.items():
        assert HAN.search(chinese), english


def test_the_wechat_templates_run_in_zh() -> None:
    assert len(CHAT_ZH) == 9


@pytest.mark.parametrize("template_id", CHAT_ZH)
def test_zh_params_are_the_en_draw_localized(template_id: str) -> None:
    template = REGISTRY.template(template_id)
    for seed in range(3):
        en = Episode(template, Device(APPS), np.random.default_rng(seed))
        zh = Episode(template, Device(APPS, locale="zh-CN"), np.random.default_rng(seed))
        drawn = localize_data(en.params, ZH)
        assert {k: v for k, v in zh.params.items() if k not in COMPOSED} == \
            {k: v for k, v in drawn.items() if k not in COMPOSED}
        assert all(HAN.search(zh.params[k]) for k in COMPOSED & set(zh.params))
        assert zh.params != en.params
        assert en.instruction == template.instruction(en.params)  # en-US as before


def chat_strings(device: Device) -> list[str]:
    app = device.app("Chat")
    assert isinstance(app, ChatApp)
    d = app.data
    return [*(m.text for m in d.messages), *(c.title for c in d.chats if c.group),
            *(f.name for f in d.friends), *(f.region for f in d.friends),
            *(p.text for p in d.posts), *(p.time for p in d.posts),
            *(c.text for c in d.comments)]


@pytest.mark.parametrize("template_id", CHAT_ZH)
def test_zh_setup_seeds_chinese_data(template_id: str) -> None:
    for seed in range(3):
        device = Device(APPS, locale="zh-CN")
        Episode(REGISTRY.template(template_id), device, np.random.default_rng(seed))
        english = [s for s in chat_strings(device)
                   if re.search(r"[A-Za-z]", NOT_WORDS.sub("", s)) and not HAN.search(s)]
        assert not english, english


def test_the_verifier_checks_the_chinese_values() -> None:
    template = REGISTRY.template("ChatSendMessage")
    results = {}
    for text in ("english", "chinese"):
        device = Device(APPS, locale="zh-CN")
        ep = Episode(template, device, np.random.default_rng(4))
        english = next(k for k, v in ZH.items() if v == ep.params["text"])
        app = device.app("Chat")
        assert isinstance(app, ChatApp)
        chat = template.chat_id(ep.params, ep.params["title"])  # type: ignore[attr-defined]
        send(app.data, chat, english if text == "english" else ep.params["text"])
        device.invalidate()
        results[text] = ep.verify().success
    assert results == {"english": False, "chinese": True}


def test_datum_refuses_english_data_on_a_chinese_phone() -> None:
    device = Device(APPS, locale="zh-CN")
    state: Any = type("S", (), {"locale": "zh-CN"})()
    assert datum(state, "Let's meet at {time} at the {place}", time="19:30",
                 place="北门") == "我们19:30在北门集合吧"
    with pytest.raises(MissingString, match="no zh-CN datum for 'Bonjour'"):
        datum(state, "Bonjour")
    assert Device(APPS).locale == "en-US" and device.locale == "zh-CN"


def test_alipay_people_and_merchants_are_chinese() -> None:
    assert person_in("Maria Garcia", "zh-CN") == "高丽娜"
    assert person_in("Maria Garcia", "en-US") == "Maria Garcia"
    assert PAY["zh-CN"]["Luckin Coffee"] == "瑞幸咖啡"
    for seed in range(3):
        template = REGISTRY.template("PayTransferWithNote")
        en = Episode(template, Device(APPS), np.random.default_rng(seed))
        device = Device(APPS, locale="zh-CN")
        zh = Episode(template, device, np.random.default_rng(seed))
        assert zh.params["people"] == [person_in(n, "zh-CN") for n in en.params["people"]]
        assert zh.params["note"] == PAY["zh-CN"][en.params["note"]]
        assert zh.params["amount"] == en.params["amount"] and zh.params["pin"] == en.params["pin"]
        shown = [c.name for c in device.system.contacts] + \
            [t.counterparty for t in device.system.wallet.transactions]
        assert shown and all(HAN.search(n) for n in shown), shown
