"""The Parcel Delivery mini-program driven through phone actions: reached from WeChat,
tracking by number, My Parcels with its filters, sending a parcel (address book, weight,
size, courier, pickup slot, the WeChat Pay PIN), cancelling a pickup with a refund,
redirecting a parcel to a locker, the capsule."""

from __future__ import annotations

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.parcel.app import ParcelApp, listed, quote, tenths, tracking_number
from phone_gym.mockapps.parcel.fixtures import add_contact, add_parcel, seed_couriers
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def parcel_of(device: Device) -> ParcelApp:
    app = device.app("Parcel")
    assert isinstance(app, ParcelApp)
    return app


@pytest.fixture
def device() -> Device:
    """Two couriers, one contact, an incoming parcel in transit (SF1234567890), one out for
    delivery; ¥500 in the wallet, PIN 112233."""
    dev = Device(APPS)
    state = WorldState(dev)
    rng = np.random.default_rng(0)
    today = dev.system.now.date()
    seed_couriers(state, [("SF Express", 1_200, 300, 1), ("ZTO Express", 800, 200, 3)])
    add_contact(state, "Li Na", "13900001111", "12 Wenhua St, Hangzhou")
    add_parcel(state, rng, today, direction="incoming", status="In transit",
               courier="SF Express", sender="JD.com", eta_days=2, number="SF1234567890")
    add_parcel(state, rng, today, direction="incoming", status="Out for delivery",
               courier="EMS", sender="Xiaomi Store", eta_days=0, number="EM5550001111")
    set_wallet(state, 50_000, "112233")
    return dev


def to_parcel(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_parcel")


def test_track_by_number(device: Device) -> None:
    to_parcel(device)
    fill(device, "tracking_number", "SF0000000000")
    press(device, "back")
    tap(device, id="track")
    assert shown(device, id="track")  # unknown number: still on the form
    fill(device, "tracking_number", "sf1234567890")
    press(device, "back")
    tap(device, id="track")
    assert shown(device, id="loading") and not shown(device, id="parcel_status")
    assert device.step(PhoneAction("wait", seconds=5)) is None
    assert shown(device, "In transit", id="parcel_status") and shown(device, id="parcel_eta")


def test_my_parcels_filters(device: Device) -> None:
    to_parcel(device)
    tap(device, id="tab_my_parcels")
    assert shown(device, "SF1234567890", kind="list_item")
    tap(device, "Out for delivery", kind="chip")
    assert not shown(device, "SF1234567890", kind="list_item")
    assert shown(device, "EM5550001111", kind="list_item")
    tap(device, "Sent", kind="chip")
    assert shown(device, "No parcels")
    assert [p.number for p in listed(parcel_of(device).data, "Incoming", "")] == [
        "EM5550001111", "SF1234567890"]


def test_redirect_to_a_locker_only_before_it_is_out(device: Device) -> None:
    to_parcel(device)
    tap(device, id="tab_my_parcels")
    tap(device, "EM5550001111", kind="list_item")
    assert shown(device, id="no_redirect") and not shown(device, id="redirect")
    press(device, "back")
    tap(device, "SF1234567890", kind="list_item")
    tap(device, id="redirect")
    tap(device, "Hive Box, Building 5", kind="chip")
    tap(device, id="confirm_redirect")
    parcel = parcel_of(device).data.parcels.get(1)
    assert parcel is not None and parcel.locker == "Hive Box, Building 5"
    assert "Redirected to Hive Box, Building 5" in parcel.events[0]


def test_send_pay_then_cancel_the_pickup(device: Device) -> None:
    to_parcel(device)
    tap(device, id="tab_send")
    tap(device, "Li Na", kind="chip")
    fill(device, "weight", "2.5")
    press(device, "back")
    tap(device, "Medium", kind="chip")
    tap(device, id="choose_courier")
    tap(device, id="courier_2")  # ZTO: 800 + 3 kg x 200 + 500 = ¥19.00
    tap(device, id="pay")  # no slot yet
    assert parcel_of(device).ui.paying is None
    tap(device, "Tomorrow 09:00-11:00", kind="chip")
    tap(device, id="pay")
    fill(device, "pay_pin", "112233")
    press(device, "back")
    tap(device, id="button_pay")
    sent = listed(parcel_of(device).data, "Sent", "")
    assert len(sent) == 1
    p = sent[0]
    assert (p.recipient, p.phone, p.courier, p.weight, p.size, p.price, p.slot, p.status) == (
        "Li Na", "13900001111", "ZTO Express", 25, "Medium", 1_900, "Tomorrow 09:00-11:00",
        "Awaiting pickup")
    assert p.number == tracking_number("ZTO Express", 3)
    assert device.system.wallet.balance == 50_000 - 1_900
    tap(device, id="cancel_pickup")
    tap(device, id="button_cancel_pickup")
    assert parcel_of(device).data.parcels.get(p.id).status == "Cancelled"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 50_000


def test_the_capsule_closes_back_to_wechat(device: Device) -> None:
    to_parcel(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_parcel")


def test_weights_and_quotes() -> None:
    assert tenths("2.5") == 25 and tenths("3 kg") == 30
    assert tenths("x") is None and tenths("0") is None
    app = ParcelApp(WorldState(Device(APPS)).device.system)
    c = app.data.couriers.new(name="EMS", base=1000, per_kg=200, days=2)
    assert quote(c, 21, "Large", True) == 1000 + 3 * 200 + 1500 + 300


def test_check_app() -> None:
    assert check_app("Parcel", 1500).steps == 1500


def test_nearest_lockers_ask_for_the_location(device: Device) -> None:
    to_parcel(device)
    tap(device, id="tab_my_parcels")
    tap(device, "SF1234567890", kind="list_item")
    tap(device, id="redirect")
    tap(device, id="near_me")
    tap(device, id="button_dont_allow")
    assert parcel_of(device).data.location == "denied" and not shown(device, id="locker_m_0")
    tap(device, id="near_me")
    tap(device, id="button_allow")
    assert parcel_of(device).data.location == "allowed"
    assert shown(device, "Hive Box, North Gate: 350 m away", id="locker_m_0")


# --- verifier regressions (red-team review) ----------------------------------------------
def episode(task_id: str, seed: int = 0) -> Episode:
    return Episode(TEMPLATES[task_id], Device(REGISTRY.apps), np.random.default_rng(seed))


def solve_typing(ep: Episode, old: str, text: str) -> None:
    """Run the template's oracle on the device, typing ``text`` where it types something
    starting with ``old`` (no answer, no finish)."""
    ui = ep.driver()
    for action in ep.template.oracle(ui, ep.params):
        if action.type in ("answer", "finish"):
            continue
        if action.type == "type" and str(action.text).startswith(old):
            action = PhoneAction("type", text=text)
        ep.device.step(action)


@pytest.mark.parametrize("seed", [0, 1])
def test_send_takes_the_phone_number_in_any_spacing(seed: int) -> None:
    phone = episode("ParcelSendCheapest", seed).params["phone"]
    for typed in (f"{phone[:3]} {phone[3:7]} {phone[7:]}", f"+86 {phone}",
                  f"{phone[:3]}-{phone[3:7]}-{phone[7:]}"):
        ep = episode("ParcelSendCheapest", seed)
        solve_typing(ep, phone, typed)
        assert ep.verify().success, (typed, ep.verify().reason)
    wrong = episode("ParcelSendCheapest", seed)
    solve_typing(wrong, phone, phone[:-1] + str((int(phone[-1]) + 1) % 10))
    assert not wrong.verify().success


@pytest.mark.parametrize("seed", [0, 1])
def test_send_and_share_refuses_every_tracking_number_dumped(seed: int) -> None:
    ep = episode("ParcelSendAndShare", seed)
    p = ep.params
    right = tracking_number(p["specs"][0][0], len(ep.initial["apps"]["Parcel"]["parcels"]) + 1)
    every = [str(r["number"]) for r in ep.initial["apps"]["Parcel"]["parcels"].values()]
    mine = f"{p['name']}, the parcel tracking number"  # the oracle's message starts so
    solve_typing(ep, mine, "Tracking: " + " or ".join([*every, right]))
    assert not ep.verify().success
    fine = episode("ParcelSendAndShare", seed)
    solve_typing(fine, mine, f"{right} is your tracking number")
    assert fine.verify().success, fine.verify().reason
