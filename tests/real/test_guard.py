"""The safety guard: blocked packages and keys, text length, the confirm hook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from phone_gym.actions import PhoneAction
from phone_gym.real.guard import SafetyGuard

CTX: dict[str, Any] = {"task_id": "T", "step": 1, "package": "", "serial": "s"}


def test_defaults_block_money_and_people_apps_only() -> None:
    guard = SafetyGuard()
    store = PhoneAction("open_app", app="Play Store")
    assert "not allowed" in (guard.check(store, "com.android.vending", CTX) or "")
    assert guard.check(PhoneAction("open_app", app="Settings"), "com.android.settings",
                       CTX) is None
    for button in ("back", "home", "enter", "recents"):
        assert guard.check(PhoneAction("press", button=button), None, CTX) is None


def test_tightened_guard() -> None:
    guard = SafetyGuard(allowed_packages={"com.android.settings"}, allowed_keys=("back",),
                        max_text_length=5)
    assert guard.check(PhoneAction("open_app", app="Clock"), "com.google.android.deskclock",
                       CTX) is not None
    assert "key 'home'" in (guard.check(PhoneAction("press", button="home"), None, CTX) or "")
    assert "longer" in (guard.check(PhoneAction("type", text="123456"), None, CTX) or "")
    assert guard.check(PhoneAction("type", text="12345"), None, CTX) is None
    assert guard.foreground_allowed("com.google.android.apps.nexuslauncher")
    assert not guard.foreground_allowed("com.google.android.deskclock")


def test_confirm_hook_sees_the_action_and_can_veto() -> None:
    seen: list[tuple[str, Mapping[str, Any]]] = []

    def confirm(action: PhoneAction, context: Mapping[str, Any]) -> bool | str | None:
        seen.append((action.type, context))
        if action.type == "long_press":
            return False
        return "no typing today" if action.type == "type" else None

    guard = SafetyGuard(confirm=confirm)
    assert guard.check(PhoneAction("click", x=1, y=1), None, CTX) is None
    assert "vetoed" in (guard.check(PhoneAction("long_press", x=1, y=1), None, CTX) or "")
    assert "no typing today" in (guard.check(PhoneAction("type", text="x"), None, CTX) or "")
    assert [s[0] for s in seen] == ["click", "long_press", "type"] and seen[0][1] is CTX


def test_bad_guard_arguments() -> None:
    with pytest.raises(ValueError, match="accepted: back, home, enter, recents"):
        SafetyGuard(allowed_keys=("power",))
    with pytest.raises(ValueError, match="max_text_length"):
        SafetyGuard(max_text_length=-1)
