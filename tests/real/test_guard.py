"""The safety guard on its own: default deny, sensitive apps and the opt-in, keys, text
length, the confirm hook, what a tap presses in a dump, bad arguments. Over the virtual
device: ``test_guard_device.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import REGISTRY
from phone_gym.real.alarms import read_tree
from phone_gym.real.guard import SafetyGuard, Screen
from phone_gym.real.screens import matching_rule, tap_target
from phone_gym.real.sensitive import CATEGORIES, SENSITIVE_PACKAGES, category_of

CTX: dict[str, Any] = {"task_id": "T", "step": 1, "package": "", "serial": "s"}
SETTINGS, CLOCK = "com.android.settings", "com.google.android.deskclock"
#: The mock apps that model a real app which spends money or reaches people, by category.
SENSITIVE_MOCKS = {
    "Phone": "messaging", "Chat": "messaging", "Messages": "messaging", "Mail": "messaging",
    "Meet": "messaging", "Shop": "shopping", "Delivery": "shopping", "Travel": "shopping",
    "Ride": "ride", "Bank": "money", "Pay": "money", "Social": "social",
    "Meituan": "shopping", "Taobao": "shopping", "Xiaohongshu": "social", "Douyin": "social",
    "DingTalk": "messaging", "Weibo": "social", "Zhihu": "social",
    "Bilibili": "social", "Dianping": "shopping", "Ctrip": "shopping",
}


def open_app(name: str) -> PhoneAction:
    return PhoneAction("open_app", app=name)


def test_every_mock_of_a_money_or_people_app_has_its_real_package_listed() -> None:
    manifests = {m.name: m for m in REGISTRY.manifests}
    for name, category in SENSITIVE_MOCKS.items():
        assert category_of(manifests[name].package) == category, name
    hosted = [m for m in REGISTRY.manifests if m.host == "Chat"]  # WeChat's mini-programs
    assert hosted and all(category_of(m.package) == "messaging" for m in hosted)
    for m in REGISTRY.manifests:
        if m.name not in SENSITIVE_MOCKS and m.host != "Chat":
            assert category_of(m.package) is None, m.name  # Settings, Contacts, Clock...
    assert set(SENSITIVE_PACKAGES.values()) == set(CATEGORIES)
    for package, category in [("com.whatsapp", "messaging"), ("org.telegram.messenger",
                              "messaging"), ("com.google.android.apps.messaging", "messaging"),
                              ("com.paypal.android.p2pmobile", "money"),
                              ("com.amazon.mShop.android.shopping", "shopping"),
                              ("me.lyft.android", "ride"), ("com.instagram.android", "social"),
                              ("com.whatsapp.w4b", "messaging")]:
        assert category_of(package) == category
    assert category_of("com.tencent.mmx") is None  # a name that only starts alike


def test_default_deny_the_tasks_apps_launcher_and_system_ui_only() -> None:
    guard = SafetyGuard()
    task = {SETTINGS}
    assert guard.check(open_app("Settings"), SETTINGS, CTX, task_packages=task) is None
    decision = guard.check(open_app("Clock"), CLOCK, CTX, task_packages=task)
    assert decision is not None and decision.verdict == "refused" and decision.rule == "app"
    assert "not one of the task's apps" in decision.reason
    assert "SafetyGuard(extra_packages={'com.google.android.deskclock'})" in decision.reason
    closing = guard.check(PhoneAction("close_app", app="Clock"), CLOCK, CTX, task_packages=task)
    assert closing is not None and closing.reason.startswith(
        "blocked by the safety guard: closing 'Clock'")  # a force-stop: its alarms would go
    for package in ("com.google.android.apps.nexuslauncher", "com.android.systemui",
                    "com.google.android.permissioncontroller", ""):
        assert guard.foreground_allowed(package, task)
    assert not guard.foreground_allowed(CLOCK, task)


def test_widening_the_guard() -> None:
    assert SafetyGuard(extra_packages={CLOCK}).refusal(CLOCK, {SETTINGS}) is None
    assert SafetyGuard(any_app=True).refusal(CLOCK, {SETTINGS}) is None
    blocked = SafetyGuard(blocked_packages={SETTINGS})
    assert blocked.refusal(SETTINGS, {SETTINGS}) == ("app", f"{SETTINGS} is in blocked_packages")


def test_a_sensitive_app_needs_the_task_and_the_opt_in() -> None:
    sms = "com.simplemobiletools.smsmessenger"
    plain, opted = SafetyGuard(), SafetyGuard(allow_sensitive={"messaging"})
    # not the task's: refused, even opted in, even named in extra_packages or any_app
    for guard in (plain, opted, SafetyGuard(extra_packages={sms}, any_app=True,
                                            allow_sensitive={"messaging"})):
        rule, reason = guard.refusal(sms, {SETTINGS}) or ("", "")
        assert rule == "sensitive app" and "blocked unless the task's own apps include it" in reason
    # the task's own: refused until opted in, by category or by package
    rule, reason = plain.refusal(sms, {sms}) or ("", "")
    assert rule == "sensitive app" and "SafetyGuard(allow_sensitive={'messaging'})" in reason
    assert plain.task_refusal({sms, "net.gsantner.markor"}) is not None
    assert opted.refusal(sms, {sms}) is None and opted.task_refusal({sms}) is None
    assert SafetyGuard(allow_sensitive={sms}).refusal(sms, {sms}) is None
    assert SafetyGuard(allow_sensitive={"money"}).refusal(sms, {sms}) is not None
    # a user's own table: nothing is sensitive
    assert SafetyGuard(sensitive={}, any_app=True).refusal(sms, {SETTINGS}) is None


def test_keys_text_length_and_the_confirm_hook() -> None:
    guard = SafetyGuard(allowed_keys=("back",), max_text_length=5)
    decision = guard.check(PhoneAction("press", button="home"), None, CTX)
    assert decision is not None and decision.rule == "key" and "key 'home'" in decision.reason
    decision = guard.check(PhoneAction("type", text="123456"), None, CTX)
    assert decision is not None and "longer" in decision.reason
    assert guard.check(PhoneAction("type", text="12345"), None, CTX) is None
    seen: list[tuple[str, Mapping[str, Any]]] = []

    def confirm(action: PhoneAction, context: Mapping[str, Any]) -> bool | str | None:
        seen.append((action.type, context))
        if action.type == "long_press":
            return False
        return "no typing today" if action.type == "type" else None

    guard = SafetyGuard(confirm=confirm)
    assert guard.check(PhoneAction("click", x=1, y=1), None, CTX) is None
    vetoed = guard.check(PhoneAction("long_press", x=1, y=1), None, CTX)
    assert vetoed is not None and "vetoed" in vetoed.reason and vetoed.rule == "confirm hook"
    assert "no typing today" in str(guard.check(PhoneAction("type", text="x"), None, CTX))
    assert [s[0] for s in seen] == ["click", "long_press", "type"] and seen[0][1] is CTX


def test_a_refusal_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="phone_gym.real.guard"):
        SafetyGuard().check(open_app("Clock"), CLOCK, CTX, task_packages={SETTINGS})
    assert any(CLOCK in r.getMessage() and r.name == "phone_gym.real.guard"
               for r in caplog.records)


# --- what a tap presses --------------------------------------------------------------------
ROW = ('<?xml version="1.0" ?><hierarchy rotation="0"><node index="0" text="" resource-id="" '
       'class="android.widget.FrameLayout" package="com.android.settings" clickable="false" '
       'bounds="[0,0][1080,2400]"><node index="0" text="" resource-id="" '
       'class="android.widget.LinearLayout" package="com.android.settings" clickable="true" '
       'bounds="[0,800][1080,1000]"><node index="0" text="Build number" '
       'resource-id="android:id/title" class="android.widget.TextView" '
       'package="com.android.settings" clickable="false" bounds="[180,840][600,900]" />'
       '<node index="1" text="UP1A.231005.007" resource-id="android:id/summary" '
       'class="android.widget.TextView" package="com.android.settings" clickable="false" '
       'bounds="[180,900][600,960]" /></node></node></hierarchy>')


def test_a_tap_on_a_rows_padding_presses_the_row_and_its_title() -> None:
    """A Preference row is a clickable LinearLayout; its title is a child TextView: a tap
    beside the title still presses the row (AOSP ``ViewGroup.dispatchTouchEvent``)."""
    target = tap_target(read_tree(ROW), 1000, 980)  # right of the texts, inside the row
    assert target is not None and "Build number" in target.texts
    rule = matching_rule(SafetyGuard().screen_rules, ROW, (1000, 980))
    assert rule is not None and rule.name == "developer options"
    assert matching_rule(SafetyGuard().screen_rules, ROW, (500, 1500)) is None  # elsewhere
    guard = SafetyGuard(allowed_screens={"developer options"})
    screen = Screen(ROW, (1080, 2400))
    assert guard.check(PhoneAction("click", x=925, y=408), None, CTX, screen=screen) is None
    decision = SafetyGuard().check(PhoneAction("click", x=925, y=408), None, CTX, screen=screen)
    assert decision is not None and decision.rule == "screen: developer options"
    assert "allowed_screens={'developer options'}" in decision.reason


def test_bad_guard_arguments() -> None:
    with pytest.raises(ValueError, match="accepted: back, home, enter, recents"):
        SafetyGuard(allowed_keys=("power",))
    with pytest.raises(ValueError, match="max_text_length"):
        SafetyGuard(max_text_length=-1)
    with pytest.raises(ValueError, match="allow_sensitive: 'banks'; accepted: a category"):
        SafetyGuard(allow_sensitive={"banks"})
    with pytest.raises(ValueError, match="allowed_screens .*accepted: account removal"):
        SafetyGuard(allowed_screens={"reset"})
    with pytest.raises(ValueError, match="extra_packages='com.x.y'; accepted: a collection"):
        SafetyGuard(extra_packages="com.x.y")
