"""The Food Order mini-program and Alipay on a zh-CN phone with their data seeded: every screen
their oracles pass through (a restaurant's menu, a dish's options, checkout, the address
picker, the pay sheet, my orders; Alipay's scan, contacts, transfer, red packet, bills) shows
its UI from the catalogue and its data (menus, addresses, people, merchants, notes) in
Chinese; en-US is as before."""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_locale import KEYBOARD_LABELS, texts, untranslated

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.tasks.task import Episode
from phone_gym.world import Device

#: What may stay Latin on a Chinese screen: numbers, amounts, times, phone numbers, train
#: numbers (G58) and e-mail addresses.
DATA = re.compile(r"^(?:[GDK]\d{1,4}|[\d\s×¥.,:·★/→+-])*$|^[\w.]+@[\w.]+$")


@pytest.mark.parametrize(("app", "template_id"), [
    ("FoodOrder", "FoodOrderDishes"), ("FoodOrder", "FoodReorderLast"),
    ("Pay", "PayMerchantByCode"), ("Pay", "PayTransferWithNote"), ("Pay", "PaySendRedPacket"),
    ("Pay", "PayLastPaymentTo"), ("Hotel", "HotelBookCheapestNear"),
    ("Hotel", "HotelCancelBooking"), ("Hotel", "HotelBookTopRated"),
    ("Train", "TrainBookEarliestArrival"), ("Train", "TrainRefundTicket"),
    ("Train", "TrainChangeToLater"), ("Train", "TrainAddPassengerAndBook"),
    ("Train", "TrainBusinessElseFirst"), ("RideMini", "RideMiniScheduleWithCoupon"),
    ("RideMini", "RideMiniBookAndTell"), ("RideMini", "RideMiniRebookLast"),
    ("RideMini", "RideMiniCancelCurrent"), ("Contacts", "ContactsNewContactDraft"),
    ("Contacts", "ContactsAddContact"), ("Contacts", "ContactsRemoveFavorite"),
    ("Contacts", "ContactsEditPhone"), ("Contacts", "ContactsDeleteContact"),
    ("Clock", "ClockAddRepeatingAlarm"), ("Clock", "ClockChangeAlarmTime"),
    ("Clock", "ClockDeleteDisabledAlarms"), ("Clock", "ClockAddAlarm"),
    ("Messages", "SimpleSmsSendReceivedAddress"), ("Messages", "SimpleSmsResend"),
    ("Messages", "SimpleSmsSend")])
def test_wallet_app_screens_speak_chinese(app: str, template_id: str) -> None:
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
        if device.foreground == app:
            seen += 1
            bad += untranslated(device, f"step {step}")
            bad += [f"step {step}: {t!r}" for t in texts(device)
                    if re.search(r"[A-Za-z]", t) and not DATA.match(t)
                    and t not in KEYBOARD_LABELS and not re.search(r"[\u4e00-\u9fff]", t)]
    assert ep.verify(answer=action.text if action.type == "answer" else None).success
    assert seen >= 4
    assert not bad, "\n".join(bad)


def test_food_order_in_english_is_unchanged() -> None:
    device = Device(APPS)
    ep = Episode(REGISTRY.template("FoodOrderDishes"), device, np.random.default_rng(1))
    assert ep.params["restaurant"] in ("Sichuan House", "Noodle Bar", "Green Bowl",
                                       "Dim Sum Corner", "Burger Lab")
    assert ep.instruction.startswith("Using the Food Order mini-program in WeChat, order ")


def test_alipay_in_english_is_unchanged() -> None:
    device = Device(APPS)
    ep = Episode(REGISTRY.template("PaySendRedPacket"), device, np.random.default_rng(0))
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", ep.params["name"])
    assert ep.instruction.endswith(f"(Alipay payment PIN: {ep.params['pin']})")


def test_a_datum_reads_in_its_context() -> None:
    from phone_gym.tasks.task import localize_datum

    table = {"Medium": "适中", "Doneness:Medium": "五分熟"}
    assert localize_datum("Medium", table) == "适中"
    assert localize_datum("Medium", table, "Spice") == "适中"
    assert localize_datum("Medium", table, "Doneness") == "五分熟"
    assert localize_datum("Rare", table, "Doneness") == "Rare"


def test_food_order_doneness_and_spice_are_different_words_in_zh() -> None:
    """"Medium" is a spice level (适中) and a burger's doneness (五分熟): the menu seeded in
    zh-CN and the params drawn for it both read the option in its dish's context."""
    from phone_gym.mockapps.foodorder.fixtures import DATA as FOOD
    from phone_gym.mockapps.foodorder.fixtures import food_app, seed_food

    device = Device(APPS, locale="zh-CN")
    seed_food(device, np.random.default_rng(0), ["Burger Lab", "Sichuan House"])
    options = {d.name: d.options for d in food_app(device).data.dishes}
    assert options["经典牛肉堡"] == ("五分熟", "全熟")
    assert "适中" in options["麻婆豆腐"]
    template = REGISTRY.template("FoodOrderDishes")
    params = {"items": [["Classic Burger", "Medium", 1], ["Mapo Tofu", "Medium", 2]],
              "past": [{"items": [["Classic Burger", "Medium", 1]]}], "restaurant": "Burger Lab"}
    zh = template.localize_params(params, FOOD["zh-CN"])
    assert zh["items"] == [["经典牛肉堡", "五分熟", 1], ["麻婆豆腐", "适中", 2]]
    assert zh["past"][0]["items"] == [["经典牛肉堡", "五分熟", 1]]
    assert zh["restaurant"] == FOOD["zh-CN"]["Burger Lab"]


def test_train_seats_read_as_a_12306_ticket_in_zh() -> None:
    """A zh-CN ticket writes its seats as 12306 does (05车03A号), the seat look-up's answer
    is that label, and a window seat is recognised in either locale."""
    from phone_gym.mockapps.train.app import Train, seat_labels, window_seat

    go = Train(id=1, number="G1", origin="", dest="", day="", depart="", arrive="")
    en = seat_labels(go, "First", 2, 2, "Window")
    zh = seat_labels(go, "First", 2, 2, "Window", "zh-CN")
    assert re.fullmatch(r"Car \d\d Seat \d\d[AF]", en[0])
    assert re.fullmatch(r"\d\d车\d\d[AF]号", zh[0]) and zh[0][:2] == en[0][4:6]
    assert re.fullmatch(r"\d\d车\d+号下铺", seat_labels(go, "Sleeper", 2, 1, "", "zh-CN")[0])
    assert all(window_seat(s) for s in (*en, *zh))
    assert not any(window_seat(s) for s in seat_labels(go, "First", 2, 2, "Aisle", "zh-CN"))
    device = Device(APPS, locale="zh-CN")
    ep = Episode(REGISTRY.template("TrainSeatLookup"), device, np.random.default_rng(0))
    assert ep.template.expected(ep.params) in zh
    assert "车" in ep.instruction or "火车" in ep.instruction
