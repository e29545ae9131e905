"""The Food Order mini-program on a zh-CN phone with its restaurants seeded: every screen its
oracles pass through (a restaurant's menu, a dish's options, checkout, the address picker,
the pay sheet, my orders, an order) shows its UI from the catalogue and its data (menus,
addresses) in Chinese; en-US shows the English menu as before."""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_locale import KEYBOARD_LABELS, texts, untranslated

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.tasks.task import Episode
from phone_gym.world import Device

DATA = re.compile(r"^[\d\s×¥.,:·★/-]*$")


@pytest.mark.parametrize("template_id", ["FoodOrderDishes", "FoodReorderLast"])
def test_food_order_screens_speak_chinese(template_id: str) -> None:
    device = Device(APPS, locale="zh-CN")
    ep = Episode(REGISTRY.template(template_id), device, np.random.default_rng(1))
    bad: list[str] = []
    seen = 0
    for step in range(ep.template.max_steps):
        action = ep.oracle_action()
        if action.type in ("finish", "answer"):
            break
        device.step(action)
        ep.observe(action)
        if device.foreground == "FoodOrder":
            seen += 1
            bad += untranslated(device, f"step {step}")
            bad += [f"step {step}: {t!r}" for t in texts(device)
                    if re.search(r"[A-Za-z]", t) and not DATA.match(t)
                    and t not in KEYBOARD_LABELS and not re.search(r"[\u4e00-\u9fff]", t)]
    assert ep.verify().success and seen >= 4
    assert not bad, "\n".join(bad)


def test_food_order_in_english_is_unchanged() -> None:
    device = Device(APPS)
    ep = Episode(REGISTRY.template("FoodOrderDishes"), device, np.random.default_rng(1))
    assert ep.params["restaurant"] in ("Sichuan House", "Noodle Bar", "Green Bowl",
                                       "Dim Sum Corner", "Burger Lab")
    assert ep.instruction.startswith("Using the Food Order mini-program in WeChat, order ")
