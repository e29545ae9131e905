"""The safety guard over the virtual device, with the real package names: every blocked app
and every screen rule refused before anything reaches the phone (no ``monkey``, no ``input
tap``), the task's own apps allowed, and an opt-in that widens it.

The dangerous screens are the virtual device's models of Android's own (``virtual
.system_screens``: AOSP Settings' factory reset, About phone, Developer options, accounts,
App info; PackageInstaller's uninstall dialog) and a mock shop's "Buy it now", each live: a
tap the guard let through would wipe the phone, turn developer options on, remove the
account, stop the app or buy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phone_gym.envs.real_phone import RealPhoneEnv
from phone_gym.mockapps import REGISTRY
from phone_gym.mockapps.shop import fixtures as shop
from phone_gym.real.guard import SafetyGuard
from phone_gym.real.sensitive import CATEGORIES, category_of
from phone_gym.virtual import LocalBackend, VirtualPhone
from phone_gym.world.state import WorldState

SETTINGS = "com.android.settings"
COMMON = {"WhatsApp": "com.whatsapp", "Telegram": "org.telegram.messenger",
          "WeChat": "com.tencent.mm", "Google Messages": "com.google.android.apps.messaging",
          "Signal": "org.thoughtcrime.securesms", "PayPal": "com.paypal.android.p2pmobile",
          "Google Wallet": "com.google.android.apps.walletnfcrel", "Revolut": "com.revolut.revolut",
          "Amazon": "com.amazon.mShop.android.shopping", "Temu": "com.einnovation.temu",
          "Lyft": "me.lyft.android", "Bolt": "ee.mtakso.client", "Instagram":
          "com.instagram.android", "Play Store": "com.android.vending"}


def make(phone: VirtualPhone, task: str = "SettingsWifiOff", **kwargs: Any) -> RealPhoneEnv:
    kwargs.setdefault("max_steps", 60)
    env = RealPhoneEnv(backend=LocalBackend(phone), task=task, settle=0.0, screenshot=False,
                       **kwargs)
    env.reset(seed=0)
    return env


def sent(phone: VirtualPhone, start: int, *names: str) -> list[list[str]]:
    """The commands named ``names`` run since ``start`` (the shell log's length then)."""
    return [cmd for cmd in list(phone.shell_log)[start:] if cmd[0] in names]


def tap(env: RealPhoneEnv, text: str) -> dict[str, Any]:
    """Click the element showing ``text`` in the last observation."""
    found = [e for e in env._elements if e.text == text]
    assert found, f"{text!r} not on screen: {[e.text for e in env._elements]}"
    x, y = found[-1].center_norm
    return env.step({"action": "click", "x": x, "y": y})[4]


# --- apps ----------------------------------------------------------------------------------
def test_every_money_and_people_app_is_refused_by_its_real_package() -> None:
    phone = VirtualPhone()
    env = make(phone, packages=COMMON, guard=SafetyGuard(any_app=True))
    start = len(phone.shell_log)
    manifests = {m.name: m.package for m in REGISTRY.manifests}
    mocks = [m.name for m in REGISTRY.manifests if category_of(m.package) and not m.host]
    assert len(mocks) == 22  # tests/real/test_guard.py names them
    for name in [*mocks, *COMMON]:
        package = COMMON.get(name) or manifests[name]
        info = env.step({"action": "open_app", "app": name})[4]
        assert info["action_error"] and package in info["action_error"], name
        assert info["guard"]["rule"] == "sensitive app" and info["guard"]["package"] == package
    assert not sent(phone, start, "monkey", "am") and phone.device.current_app is None


def test_the_tasks_own_apps_are_allowed_and_others_refused() -> None:
    phone = VirtualPhone()
    env = make(phone)
    info = env.step({"action": "open_app", "app": "Settings"})[4]
    assert info["action_error"] is None and info["package"] == SETTINGS
    start = len(phone.shell_log)
    info = env.step({"action": "open_app", "app": "Clock"})[4]
    assert info["guard"]["rule"] == "app" and not sent(phone, start, "monkey")
    # an app reached another way (a link, a notification): the guard sends the phone home
    phone.shell("monkey -p com.chase.sig.android -c android.intent.category.LAUNCHER 1")
    info = env.step("wait(seconds=1)")[4]
    assert info["guard"] == {"verdict": "sent home", "rule": "app",
                             "package": "com.chase.sig.android",
                             "reason": "left com.chase.sig.android: the safety guard blocks it"}
    assert phone.device.current_app is None


def test_an_opt_in_widens_the_guard() -> None:
    phone = VirtualPhone()
    clock = "com.google.android.deskclock"
    env = make(phone, guard=SafetyGuard(extra_packages={clock}))
    info = env.step({"action": "open_app", "app": "Clock"})[4]
    assert info["action_error"] is None and info["package"] == clock
    # the SMS tasks: left out without the opt-in, run with it
    plain = RealPhoneEnv(backend=LocalBackend(VirtualPhone()), settle=0.0, screenshot=False)
    plain.read_profile()
    sms = {t for t in plain.skipped if "Sms" in t}
    assert sms and all("allow_sensitive={'messaging'}" in plain.skipped[t] for t in sms)
    with pytest.raises(ValueError, match="opt in with SafetyGuard"):
        make(VirtualPhone(), task="SimpleSmsSend")
    env = make(VirtualPhone(), task="SimpleSmsSend",
               guard=SafetyGuard(allow_sensitive={"messaging"}), privileged_info=True)
    assert env.skipped == {}
    for _ in range(env.episode.template.max_steps if env.episode else 0):
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        assert info["action_error"] is None, info["action_error"]
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"]
    # opted in, but not the task's app: still refused
    env = make(VirtualPhone(), guard=SafetyGuard(allow_sensitive=set(CATEGORIES)))
    assert env.step({"action": "open_app", "app": "Messages"})[4]["guard"]["rule"] == \
        "sensitive app"


# --- screens -------------------------------------------------------------------------------
def at(env: RealPhoneEnv, phone: VirtualPhone, command: str) -> None:
    """Bring the phone to a screen (as if the agent had navigated there) and observe it."""
    code, _, err = phone.shell(command)
    assert code == 0, err
    env.step("wait(seconds=0)")


def refused(env: RealPhoneEnv, phone: VirtualPhone, text: str, rule: str) -> None:
    start = len(phone.shell_log)
    info = tap(env, text)
    assert info["guard"] is not None and info["guard"]["rule"] == f"screen: {rule}", info
    assert info["action_error"] == info["guard"]["reason"]
    assert not sent(phone, start, "input"), "the tap reached the phone"


def test_factory_reset_is_refused_before_the_tap_lands() -> None:
    phone = VirtualPhone()
    phone.device.system.add_contact("Owner Marker", "555-0199")
    env = make(phone)
    at(env, phone, "am start -n 'com.android.settings/.Settings$FactoryResetActivity'")
    refused(env, phone, "Erase all data", "factory reset")
    assert phone.device.system.find_contact("Owner Marker") is not None
    # allowed by name, the same two taps wipe the phone: the screen is live
    env = make(phone, guard=SafetyGuard(allowed_screens={"factory reset"}))
    at(env, phone, "am start -n 'com.android.settings/.Settings$FactoryResetActivity'")
    tap(env, "Erase all data")
    tap(env, "Erase all data")
    assert phone.device.system.find_contact("Owner Marker") is None


def test_developer_options_are_refused() -> None:
    phone = VirtualPhone()
    env = make(phone)
    at(env, phone, "am start -a android.settings.DEVICE_INFO_SETTINGS")
    for _ in range(7):
        refused(env, phone, "Build number", "developer options")
    assert phone.shell("settings get global development_settings_enabled")[1] == b"null\n"
    at(env, phone, "am start -a android.settings.APPLICATION_DEVELOPMENT_SETTINGS")
    refused(env, phone, "USB debugging", "developer options")
    info = env.step('press(button="back")')[4]  # leaving is fine
    assert info["action_error"] is None
    env = make(phone, guard=SafetyGuard(allowed_screens={"developer options"}))
    at(env, phone, "am start -a android.settings.DEVICE_INFO_SETTINGS")
    for _ in range(7):
        tap(env, "Build number")
    assert phone.shell("settings get global development_settings_enabled")[1] == b"1\n"


def test_account_removal_is_refused() -> None:
    phone = VirtualPhone()
    phone.device.system.accounts.new(kind="com.google", name="owner@example.com")
    env = make(phone)
    at(env, phone, "am start -a android.settings.SYNC_SETTINGS")
    assert tap(env, "owner@example.com")["action_error"] is None  # looking is fine
    refused(env, phone, "Remove account", "account removal")
    assert [a.name for a in phone.device.system.accounts.values()] == ["owner@example.com"]


def test_uninstall_and_force_stop_are_refused() -> None:
    phone = VirtualPhone()
    env = make(phone)
    at(env, phone, "am start -a android.settings.APPLICATION_DETAILS_SETTINGS "
                   "-d package:com.google.android.deskclock")
    refused(env, phone, "Uninstall", "uninstall")
    refused(env, phone, "Force stop", "uninstall")
    # the uninstall dialog of PackageInstaller: an app the guard sends home from unless
    # widened; widened, its OK is still refused, Cancel goes through
    installer = "com.google.android.packageinstaller"
    env = make(phone, guard=SafetyGuard(extra_packages={installer}))
    at(env, phone, "am start -a android.intent.action.DELETE -d package:com.android.settings")
    assert env._package == installer
    refused(env, phone, "OK", "uninstall")
    assert tap(env, "Cancel")["action_error"] is None
    assert not phone.overlays.screens.stack


def test_a_payment_is_refused_even_with_every_app_allowed() -> None:
    phone = VirtualPhone()
    state = WorldState(phone.device)
    shop.seed_account(state, np.random.default_rng(0))
    shop.seed_catalog(state, np.random.default_rng(0))
    # the user declares nothing sensitive and allows every app: the screen rule still holds
    env = make(phone, guard=SafetyGuard(sensitive={}, any_app=True))
    assert env.step({"action": "open_app", "app": "Shop"})[4]["action_error"] is None
    texts = [e.text for e in env._elements]
    tap(env, texts[texts.index("Recommended for you") + 1])  # the first item
    refused(env, phone, "Buy it now", "payment")
    assert "Buy it now" in [e.text for e in env._elements]  # still on the item
