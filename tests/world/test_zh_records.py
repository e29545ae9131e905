"""The rest of the phone in zh-CN (issue 31): the record kit's words and date picker, CJK
text measured by its width, and seeded data in Chinese where en-US stays as it was."""

from __future__ import annotations

import numpy as np

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.bank.fixtures import account_id, bank_app, seed_accounts
from phone_gym.mockapps.expense.fixtures import write_expense
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.layout import text_units
from phone_gym.world.state import WorldState

LUNCH = {"name": "Sushi lunch", "amount": 4250, "category": "Food", "note": "Paid by card",
         "date": "2023-10-05"}


def texts(device: Device) -> list[str]:
    return [e.text for e in ui_elements(device.frame()) if e.text]


def tap(device: Device, rid: str) -> None:
    e = next(e for e in ui_elements(device.frame()) if e.resource_id.endswith(f"/{rid}"))
    device.step(PhoneAction("click", x=e.center_norm[0], y=e.center_norm[1]))


def test_cjk_text_measures_a_full_em_and_latin_as_before() -> None:
    assert text_units("Thai") == 4 and text_units("Add to cart") == 11
    assert text_units("泰国菜") > 1.7 * 3  # three full-width characters, not three letters


def test_a_record_app_writes_money_days_and_categories_in_the_locale() -> None:
    zh, en = Device(APPS, locale="zh-CN"), Device(APPS)
    for device in (zh, en):
        write_expense(WorldState(device), LUNCH)
        device.open_app("Expense")
    shown = " ".join(texts(zh))
    assert "¥42.50" in shown and "2023年10月5日" in shown and "餐饮" in shown
    assert "寿司午餐" in shown and "合计：¥42.50" in shown  # the seeded name in Chinese
    shown = " ".join(texts(en))
    assert "$42.50" in shown and "Oct 5, 2023" in shown and "Sushi lunch" in shown
    tap(zh, "new_expense")
    tap(zh, "date")
    assert {"选择日期", "10月15日周四", "2026年10月 ▾", "确定", "取消"} <= set(texts(zh))
    tap(en, "new_expense")
    tap(en, "date")
    assert {"Select date", "Thu, Oct 15", "October 2026 ▾"} <= set(texts(en))


def test_bank_seeds_chinese_names_and_finds_them_by_the_english_key() -> None:
    zh, en = WorldState(Device(APPS, locale="zh-CN")), WorldState(Device(APPS))
    for state in (zh, en):
        seed_accounts(state, np.random.default_rng(0))
    names = [a.name for a in bank_app(zh).data.accounts]
    assert names == ["活期账户", "储蓄账户", "旅行基金", "信用卡"]
    en_names = [a.name for a in bank_app(en).data.accounts]
    assert en_names[0] == "Total Checking"
    assert account_id(zh, "Savings") == account_id(en, "Savings") == 2
    zh_balances = [a.balance for a in bank_app(zh).data.accounts]
    assert zh_balances == [a.balance for a in bank_app(en).data.accounts]
