"""The mini-program runtime: a mini-program (an app whose manifest names a host) is not on
the launcher, ``open_app`` of it is an error naming its host, its host opens it, its screens
carry the capsule bar, back at its root and the capsule's close return to the host, and
payments go through the system wallet with the PIN."""

from __future__ import annotations

import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.world import Device
from phone_gym.world.app import App, Route
from phone_gym.world.kit import PaySheet, PayState, pay, wallet_pin, with_capsule, yuan
from phone_gym.world.kit.capsule import PIN_SETTING
from phone_gym.world.manifest import AppManifest
from phone_gym.world.system import SystemState
from phone_gym.world.widgets import Button, ListItem, Screen, TopBar


class Host(App):
    manifest = AppManifest("Host", "com.example.host", label="Super", order=1)

    def view(self, route: Route) -> Screen:
        if route.name == "list":
            return Screen(top_bar=TopBar("Mini programs", on_back=self.back),
                          content=[ListItem("Shop", id="mini_shop",
                                            on_click=lambda: self.open_app("Shop"))])
        return Screen(top_bar=TopBar("Super"),
                      content=[Button("Programs", lambda: self.go("list"), id="programs")])


class Shop(App):
    manifest = AppManifest("Shop", "com.example.host.shop", label="Tiny Shop", host="Host",
                           entry="Programs")

    def initial_ui(self) -> dict[str, PayState | None]:
        return {"paying": None}

    def view(self, route: Route) -> Screen:
        paying = self.ui["paying"]
        dialog = None
        if paying is not None:
            def set_pin(v: str) -> None:
                paying.pin = v

            def confirm() -> None:
                if pay(self.system, paying) is None:
                    self.ui["paying"] = None
            dialog = PaySheet(paying, on_pin=set_pin, on_pay=confirm,
                              on_cancel=lambda: self.ui.update(paying=None))
        if route.name == "item":
            screen = Screen(top_bar=TopBar("Item", on_back=self.back), content=[
                Button("Buy", lambda: self.ui.update(paying=PayState(1250, "Tiny Shop")),
                       id="buy")], dialog=dialog, on_dismiss=lambda: self.ui.update(paying=None))
        else:
            screen = Screen(top_bar=TopBar("Tiny Shop"),
                            content=[Button("Item", lambda: self.go("item"), id="item")])
        return with_capsule(self, screen)


@pytest.fixture
def device() -> Device:
    dev = Device([Host, Shop])
    dev.system.wallet.balance = 10_000
    dev.system.settings.put(*PIN_SETTING, "246810")
    return dev


def into_shop(device: Device) -> None:
    open_app(device, "Host")
    tap(device, id="programs")
    tap(device, id="mini_shop")
    assert device.foreground == "Shop"


def test_the_manifest_marks_a_mini_program() -> None:
    assert Shop.manifest.mini_program and not Host.manifest.mini_program


def test_a_mini_program_is_not_on_the_launcher_and_open_app_says_how_to_reach_it(
        device: Device) -> None:
    error = device.step(PhoneAction("open_app", app="Tiny Shop"))
    assert error == "Tiny Shop is a mini-program in Super: open Super, Programs"
    assert device.foreground is None
    assert device.step(PhoneAction("open_app", app="Super")) is None


def test_the_drawer_lists_hosts_only(device: Device) -> None:
    screen = device.launcher.drawer_screen(device)
    texts: list[str] = []
    stack = list(screen.content)
    while stack:
        node = stack.pop()
        texts.append(node.text)
        stack.extend(node.children)
    assert "Super" in texts and "Tiny Shop" not in texts


def test_the_host_opens_it_and_back_at_its_root_returns_to_the_host(device: Device) -> None:
    into_shop(device)
    assert shown(device, id="capsule_more") and shown(device, id="capsule_close")
    tap(device, id="item")
    press(device, "back")
    press(device, "back")  # at the root: back to the host, on the screen it opened from
    assert device.foreground == "Host" and shown(device, id="mini_shop")
    tap(device, id="mini_shop")
    assert device.foreground == "Shop"


def test_the_capsule_menu_and_close(device: Device) -> None:
    into_shop(device)
    tap(device, id="item")
    tap(device, id="capsule_more")
    assert shown(device, "Back to Super") and shown(device, "Share")
    tap(device, "Back to Super")
    assert device.foreground == "Host"
    tap(device, id="mini_shop")
    assert shown(device, id="buy")  # resumed where it was
    tap(device, id="capsule_close")
    assert device.foreground == "Host"
    tap(device, id="mini_shop")
    assert shown(device, id="item")  # closed: it starts over


def test_paying_needs_the_pin_and_records_a_transaction(device: Device) -> None:
    into_shop(device)
    tap(device, id="item")
    tap(device, id="buy")
    fill(device, "pay_pin", "111111")
    press(device, "back")
    tap(device, id="button_pay")
    assert shown(device, "Incorrect PIN") and device.system.wallet.balance == 10_000
    fill(device, "pay_pin", "246810")
    press(device, "back")
    tap(device, id="button_pay")
    assert device.system.wallet.balance == 10_000 - 1250
    [tx] = list(device.system.wallet.transactions)
    assert (tx.amount, tx.counterparty) == (-1250, "Tiny Shop")


def test_pay_refuses_more_than_the_balance() -> None:
    system = SystemState()
    system.wallet.balance = 500
    state = PayState(1000, "X", pin=wallet_pin(system))
    assert pay(system, state) == "Insufficient balance" and system.wallet.balance == 500
    assert yuan(1250) == "¥12.50" and yuan(-5) == "-¥0.05"
