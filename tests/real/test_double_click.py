"""A double click as the phone's Android version allows: from Android 12 ``input`` is
``cmd input`` (a binder call to the running system server) and two ``input tap``s on one
shell line land well within ``ViewConfiguration``'s 300 ms double-tap timeout; up to
Android 11 each ``input`` starts its own ``app_process`` VM (AOSP ``cmds/input``), so the
second tap comes too late and apps see two taps. There uiautomator2's server taps twice
within the timeout; over plain adb the env says so instead of sending two slow taps."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("adbutils")
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"  # never start a real adb server
uiautomator2 = pytest.importorskip("uiautomator2")

from phone_gym.envs.real_phone import RealPhoneEnv  # noqa: E402
from phone_gym.real.backend import U2Backend  # noqa: E402
from phone_gym.virtual import LocalBackend, VirtualAdbServer, VirtualPhone  # noqa: E402
from phone_gym.virtual.u2 import attach_u2  # noqa: E402
from phone_gym.world.device import Device  # noqa: E402

TAP = {"action": "double_click", "x": 500, "y": 500}


def phone_at(sdk: int) -> VirtualPhone:
    phone = attach_u2(VirtualPhone("emulator-5554"))
    phone.properties["ro.build.version.sdk"] = str(sdk)
    return phone


def taps(phone: VirtualPhone) -> int:
    return sum(1 for argv in phone.shell_log if argv[:2] == ["input", "tap"])


@pytest.fixture
def clicks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, int]]]:
    """Every click the phone's world receives."""
    seen: list[tuple[int, int]] = []
    original = Device._click

    def counted(self: Device, x: int, y: int, *args: Any, **kwargs: Any) -> Any:
        seen.append((x, y))
        return original(self, x, y, *args, **kwargs)

    monkeypatch.setattr(Device, "_click", counted)
    yield seen


def env_on(backend: Any) -> RealPhoneEnv:
    return RealPhoneEnv(backend=backend, task="SettingsWifiOff", settle=0.0, screenshot=False)


def test_android_12_and_later_taps_twice_on_one_shell_line(
        clicks: list[tuple[int, int]]) -> None:
    phone = phone_at(34)
    env = env_on(LocalBackend(phone))
    env.reset(seed=0)
    before, calls = taps(phone), len(clicks)
    _, _, _, _, info = env.step(TAP)
    assert info["action_error"] is None
    assert taps(phone) - before == 2 and len(clicks) - calls == 2
    env.close()


def test_android_11_over_adb_is_an_action_error_not_two_slow_taps(
        clicks: list[tuple[int, int]]) -> None:
    phone = phone_at(30)
    env = env_on(LocalBackend(phone))
    env.reset(seed=0)
    before, calls = taps(phone), len(clicks)
    _, _, terminated, truncated, info = env.step(TAP)
    assert "Android 12" in info["action_error"] and "backend='u2'" in info["action_error"]
    assert taps(phone) == before and len(clicks) == calls  # nothing was sent
    assert not terminated and not truncated
    env.close()


def test_android_11_through_uiautomator2_taps_twice_within_the_timeout(
        clicks: list[tuple[int, int]]) -> None:
    phone = phone_at(30)
    with VirtualAdbServer([phone], idle_timeout=10.0) as server:
        env = env_on(U2Backend(phone.serial, port=server.port, timeout=10))
        env.reset(seed=0)
        before, calls = taps(phone), len(clicks)
        _, _, _, _, info = env.step(TAP)
        assert info["action_error"] is None
        assert taps(phone) == before  # not through `input`
        assert len(clicks) - calls == 2 and clicks[-1] == clicks[-2]  # one point, twice
        env.close()
