"""Templates that run in zh-CN: each passes ``check_task`` on a zh-CN phone (20 seeds) and
the grounding audit there (seeds 0-2: the oracle types and answers only what the Chinese
screen or instruction showed), and its zh instruction is Chinese with its params filled."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

import numpy as np
import pytest

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_task
from phone_gym.testing import grounding as grounding_module
from phone_gym.testing.grounding import GroundingReport
from phone_gym.world import Device

HAN = re.compile(r"[\u4e00-\u9fff]")

#: Apps the sweep must reach; it sweeps every template that declares zh-CN.
ZH_APPS = ("TencentDocs", "Yuanbao", "Chat", "FoodOrder", "Pay", "NeteaseMusic", "DingTalk",
           "Hotel", "Train", "RideMini", "Contacts", "Clock", "Messages", "Meituan", "Taobao",
           "Xiaohongshu", "Amap", "Douyin", "Settings", "Weibo", "Zhihu",
           "Bilibili", "Dianping", "Ctrip", "Tongcheng",
           "Pinduoduo", "Luckin", "Music", "OpenTracks", "Parcel", "Movie",
           "Bills", "Bank", "Expense", "Delivery", "Shop", "Broccoli",
           "Calendar", "Notes", "Todo", "Joplin", "Mail", "Camera",
           "Recorder", "Draw", "Gallery", "VLC", "Files", "Markor", "Video",
           "Weather", "OsmAnd", "Bike", "Ride", "Travel", "Maps",
           "News", "Chrome", "Social", "Spotify", "Meet", "WebView")
ZH_IDS = sorted(t.id for t in REGISTRY.templates.values() if "zh-CN" in t.locales)


def zh_grounding(template_id: str, monkeypatch: pytest.MonkeyPatch,
                 seeds: Sequence[int] = (0, 1, 2)) -> GroundingReport:
    """``audit_grounding`` on a zh-CN phone (the audit builds its own en-US device)."""
    monkeypatch.setattr(grounding_module, "Device", partial(Device, locale="zh-CN"))
    return grounding_module.audit_grounding(template_id, seeds)


def test_the_sweep_covers_the_chinese_apps() -> None:
    assert len(ZH_IDS) >= 16
    for app in ZH_APPS:
        assert any(app in REGISTRY.template(i).apps for i in ZH_IDS), app


@pytest.mark.parametrize("template_id", ZH_IDS)
def test_zh_instruction_is_chinese_and_filled(template_id: str) -> None:
    device = Device(APPS, locale="zh-CN")
    for seed in range(3):
        ep = Episode(REGISTRY.template(template_id), device, np.random.default_rng(seed))
        assert HAN.search(ep.instruction) and "{" not in ep.instruction, ep.instruction


@pytest.mark.slow
@pytest.mark.parametrize("template_id", ZH_IDS)
def test_zh_template_passes_check_task(template_id: str) -> None:
    check_task(template_id, 20, locale="zh-CN", processes=False)


@pytest.mark.slow
@pytest.mark.parametrize("template_id", ZH_IDS)
def test_zh_template_is_grounded(template_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    report = zh_grounding(template_id, monkeypatch)
    assert report.ok, report.summary()


def test_a_zh_instruction_belongs_to_the_task_it_states() -> None:
    """A template that restates its parent's task (its own English ``template``) states its
    own zh-CN instruction too: inheriting the parent's would leave part of the task out
    (CrossFoodOrderToExpense read as the plain food order)."""
    wrong = []
    for template in REGISTRY.templates.values():
        if "zh-CN" not in template.locales:
            continue
        mro = type(template).__mro__
        says = next(c for c in mro if "template" in vars(c))
        zh = next(c for c in mro if "instructions" in vars(c))
        if mro.index(zh) > mro.index(says):
            wrong.append(f"{template.id}: {says.__name__} restates the task, the zh-CN "
                         f"instruction is {zh.__name__}'s")
    assert not wrong, "\n".join(wrong)
