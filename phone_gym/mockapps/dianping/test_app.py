"""大众点评 (Dianping): the authoring checks on the app and every template, and the app's
own behaviour: the search filters by 人均 and sorts by distance or rating, 收藏 toggles, a
review needs stars and text, a 团购 is paid with the PIN and becomes a voucher."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, Driver
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.dianping import APP, TEMPLATES
from phone_gym.mockapps.dianping.fixtures import (
    dianping_app,
    open_shop,
    pay_with_pin,
    sample_deals,
    sample_shops,
    search,
    shop_rows,
    write_shops,
)
from phone_gym.testing import check_app, check_task
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task(task_id: str) -> None:
    check_task(task_id, 20, processes=False)


@pytest.mark.parametrize("task_id", [t.id for t in TEMPLATES])
def test_check_task_on_a_zh_phone(task_id: str) -> None:
    check_task(task_id, 20, processes=False, locale="zh-CN", starts=(0,))


def test_check_app() -> None:
    check_app(APP, 3000)


def phone() -> tuple[Device, WorldState, Driver, list[dict]]:
    device = Device(APPS, locale="zh-CN")
    state = WorldState(device)
    rng = np.random.default_rng(4)
    shops = sample_shops(rng, ["川菜", "日料"], 4)
    for s in shops:
        s["deals"] = sample_deals(rng, s)
    set_wallet(state, 500_000, "123456")
    write_shops(state, shops, rng)
    return device, state, Driver(lambda: ui_elements(device.frame()), state,
                                 locale="zh-CN"), shops


def run(device: Device, actions: Iterable[PhoneAction]) -> None:
    for action in actions:
        assert device.step(action) is None


def test_filters_and_sorts() -> None:
    device, _, ui, shops = phone()
    run(device, search(ui, "川菜", "distance", 100))
    rows = shop_rows(ui)
    want = sorted((s for s in shops if s["cuisine"] == "川菜" and s["price"] <= 100),
                  key=lambda s: s["distance"])
    assert [r[1] for r in rows] == [s["name"] for s in want]
    run(device, ui.tap(id="sort_rating"))
    run(device, ui.tap(id="budget_0"))
    ratings = [r[2]["rating"] for r in shop_rows(ui)]
    assert len(ratings) == 4 and ratings == sorted(ratings, reverse=True)


def test_review_fav_and_deal() -> None:
    device, state, ui, shops = phone()
    data = dianping_app(state).data
    run(device, open_shop(ui, shops[1]["name"]))
    run(device, ui.tap(id="fav"))
    assert data.shops[2].faved
    run(device, ui.tap(id="write_review"))
    run(device, ui.tap(id="post_review"))  # no stars, no text: refused
    assert not any(r.author == "我" for r in data.reviews)
    run(device, ui.tap(id="star_4"))
    run(device, ui.fill("review_text", "很好吃"))
    run(device, ui.press("back"))
    run(device, ui.tap(id="post_review"))
    assert [(r.shop, r.stars, r.text) for r in data.reviews if r.author == "我"] == \
        [(2, 4, "很好吃")]
    deal = next(d for d in data.deals if d.shop == 2)
    run(device, ui.tap(id=f"deal_{deal.id}"))
    run(device, pay_with_pin(ui, "000000"))  # a wrong PIN pays nothing
    assert not list(data.vouchers) and ui.must(id="pay_error").text == "支付密码错误"
    run(device, pay_with_pin(ui, "123456"))
    assert [(v.deal, v.price) for v in data.vouchers] == [(deal.id, deal.price)]
    assert state.system.wallet.balance == 500_000 - deal.price
