"""Robust observation of a real phone, against the virtual device configured as Android
behaves: UI dumps that hit the idle error (AOSP ``DumpCommand``), screenshots of a phone
with two displays (AOSP ``screencap.cpp``), the foreground app from the window manager
(uiautomator2 dumps every window, the status bar's first), ``monkey`` without hardware keys,
``content --bind`` escaping, rotation and adb over Wi-Fi."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from phone_gym.envs.real_phone import RealPhoneEnv
from phone_gym.real.backend import (
    DUMP_ATTEMPTS,
    DUMP_TIMEOUT,
    AdbBackend,
    checked_dump,
    over_network,
    png_of,
    turned_size,
)
from phone_gym.real.base import DeviceError, ShellResult
from phone_gym.real.guard import SafetyGuard
from phone_gym.real.state import AdbState
from phone_gym.tasks.task import SetupError
from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.virtual.local import LocalBackend

SETTINGS = "com.android.settings"
CLOCK = "com.google.android.deskclock"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


@pytest.fixture
def adb(phone: VirtualPhone, monkeypatch: pytest.MonkeyPatch) -> Iterator[AdbBackend]:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server
    with VirtualAdbServer([phone]) as server:
        yield AdbBackend(phone.serial, port=server.port, timeout=5.0)


def tmp_files(phone: VirtualPhone) -> list[str]:
    return [name for name, *_ in phone.list_dir("/data/local/tmp") or []]


# --- UI dumps ----------------------------------------------------------------------------
def test_adb_dump_retries_the_idle_error_and_never_reads_an_older_dump(
        adb: AdbBackend, phone: VirtualPhone) -> None:
    assert 'package="com.android.settings"' not in adb.dump_ui()  # the home screen
    phone.shell(f"monkey -p {SETTINGS} 1")
    phone.idle_errors = DUMP_ATTEMPTS - 1  # the screen animates for a while
    xml = adb.dump_ui()
    assert phone.idle_errors == 0 and f'package="{SETTINGS}"' in xml
    assert xml.startswith("<?xml") and xml.endswith("</hierarchy>")
    assert tmp_files(phone) == []  # every dump's file removed
    dumps = [cmd[2] for cmd in phone.shell_log if cmd[:2] == ["uiautomator", "dump"]]
    assert len(dumps) == DUMP_ATTEMPTS + 1 and len(set(dumps)) == len(dumps)  # fresh paths


def test_adb_dump_gives_up_with_the_phones_words(adb: AdbBackend, phone: VirtualPhone) -> None:
    phone.idle_errors = DUMP_ATTEMPTS
    with pytest.raises(DeviceError, match="could not get idle state"):
        adb.dump_ui()
    assert tmp_files(phone) == []


def test_a_dump_has_its_own_longer_time_limit(phone: VirtualPhone,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``DumpCommand`` waits up to 10 s for an idle screen: the default per-call limit."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    with VirtualAdbServer([phone]) as server:
        backend = AdbBackend(phone.serial, port=server.port, timeout=2.0)
        assert backend.dump_timeout == DUMP_TIMEOUT > 10.0
        limits: list[float | None] = []
        shell = backend.shell

        def spy(command: str, timeout: float | None = None) -> ShellResult:
            limits.append(timeout)
            return shell(command, timeout)

        monkeypatch.setattr(backend, "shell", spy)
        backend.dump_ui()
        assert limits == [DUMP_TIMEOUT]
    with pytest.raises(ValueError, match="dump_timeout"):
        AdbBackend(phone.serial, port=1, dump_timeout=0)


class Spy(LocalBackend):
    """A ``LocalBackend`` that keeps each shell command with its time limit."""

    def __init__(self, phone: VirtualPhone) -> None:
        super().__init__(phone)
        self.calls: list[tuple[str, float | None]] = []

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        self.calls.append((command, timeout))
        return super().shell(command, timeout)


def test_adb_state_dump_retries_within_the_dump_time_limit(phone: VirtualPhone) -> None:
    backend = Spy(phone)
    state = AdbState(backend)
    phone.shell(f"monkey -p {SETTINGS} 1")
    phone.idle_errors = DUMP_ATTEMPTS - 1
    assert f'package="{SETTINGS}"' in state.dump_ui()
    dumps = [limit for command, limit in backend.calls if command.startswith("uiautomator")]
    assert dumps == [DUMP_TIMEOUT] * DUMP_ATTEMPTS
    assert tmp_files(phone) == []
    phone.idle_errors = DUMP_ATTEMPTS
    with pytest.raises(DeviceError, match="could not get idle state"):
        state.dump_ui()


def test_checked_dump_needs_the_dumped_line_and_a_whole_hierarchy() -> None:
    xml = "<?xml version='1.0' ?><hierarchy rotation=\"0\"></hierarchy>"
    assert checked_dump(f"UI hierchary dumped to: /x.xml\n{xml}") == xml
    assert checked_dump(f"ERROR: could not get idle state.\n{xml}") is None  # a stale file
    assert checked_dump(xml) is None
    assert checked_dump("UI hierchary dumped to: /x.xml\n<?xml version='1.0' ?><hier") is None


# --- screenshots ---------------------------------------------------------------------------
def test_a_foldables_screenshot_is_cut_at_the_png_signature(adb: AdbBackend,
                                                           phone: VirtualPhone) -> None:
    phone.displays = 2
    assert adb.screenshot().size == (1080, 2400)
    assert png_of(b"[Warning] two displays\n\x89PNG\r\n\x1a\nrest") == b"\x89PNG\r\n\x1a\nrest"
    assert png_of(b"no image") == b"no image"


# --- the foreground app ------------------------------------------------------------------
class WindowsTopFirst(LocalBackend):
    """UI dumps as uiautomator2 makes them: every window's root, the system windows (status
    and navigation bar, whose layer is higher) before the app's (``UiDevice.getWindowRoots``
    over ``UiAutomation.getWindows``, top layer first)."""

    def dump_ui(self) -> str:
        root = ET.fromstring(super().dump_ui())
        windows = list(root)
        for node in windows:
            root.remove(node)
        for node in sorted(windows, key=lambda n: n.get("package") != "com.android.systemui"):
            root.append(node)
        return ET.tostring(root, encoding="unicode")


def test_a_blocked_app_behind_a_status_bar_first_dump_is_caught(phone: VirtualPhone) -> None:
    backend = WindowsTopFirst(phone)
    first = ET.fromstring(backend.dump_ui())[0]
    assert first.get("package") == "com.android.systemui"
    env = RealPhoneEnv(backend=backend, task="SettingsWifiOff", settle=0.0,
                       guard=SafetyGuard(blocked_packages={CLOCK}))
    env.reset(seed=0)
    phone.shell(f"monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1")
    _, _, _, _, info = env.step("wait(seconds=1)")
    assert info["guard"] == {"verdict": "sent home", "rule": "app", "package": CLOCK,
                             "reason": f"left {CLOCK}: the safety guard blocks it"}
    assert phone.device.current_app is None  # sent home
    _, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["package"] == SETTINGS and info["guard"] is None


# --- opening apps ----------------------------------------------------------------------------
def test_open_app_works_on_a_phone_without_hardware_keys(phone: VirtualPhone) -> None:
    phone.hardware_keys = False
    env = RealPhoneEnv(backend=LocalBackend(phone), task="SettingsWifiOff", settle=0.0)
    env.reset(seed=0)
    _, _, _, _, info = env.step('open_app(app="Settings")')
    assert info["action_error"] is None and info["package"] == SETTINGS


# --- content --bind ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Dr: Who", "C:\\Users\\Ann", "Ann\\:Lee", "Bo"])
def test_contact_values_with_colons_and_backslashes_arrive_literally(
        phone: VirtualPhone, name: str) -> None:
    state = AdbState(LocalBackend(phone))
    state.add_contact(name, phone="555-0100", email="a:b@example.com")
    (row,) = [c for c in state.contacts() if c.phone == "555-0100"]
    assert (row.name, row.email) == (name, "a:b@example.com")


# --- rotation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("output", "size"), [
    ("  mCurrentRotation=ROTATION_90\n", (2400, 1080)),  # Android 10+ DisplayRotation.dump
    ("    mRotation=3 mDeferredRotationPauseCount=0\n", (2400, 1080)),
    ("    mRotation=2\n", (1080, 2400)),
    ("  init=1080x2400 420dpi cur=2400x1080 app=2400x1017\n", (2400, 1080)),
    ("  init=1080x2400 420dpi cur=1080x2400 app=1080x2268\n", (1080, 2400)),
    ("", (1080, 2400))])
def test_the_size_follows_the_rotation(output: str, size: tuple[int, int]) -> None:
    assert turned_size((1080, 2400), output) == size


def test_window_size_reads_the_rotation_every_time(adb: AdbBackend, phone: VirtualPhone) -> None:
    assert adb.window_size() == (1080, 2400)
    assert adb.window_size() == (1080, 2400)
    ran = [cmd[:2] for cmd in phone.shell_log]
    assert ran.count(["wm", "size"]) == 1 and ran.count(["dumpsys", "window"]) == 2


# --- adb over Wi-Fi ------------------------------------------------------------------------
@pytest.mark.parametrize(("serial", "network"), [
    ("192.168.1.5:5555", True), ("[fe80::1]:5555", True), ("phone.local:37001", True),
    ("emulator-5554", False), ("R58M123ABC", False), ("", False)])
def test_a_serial_with_a_port_is_adb_over_the_network(serial: str, network: bool) -> None:
    assert over_network(serial) is network


@pytest.mark.parametrize("task", ["SettingsWifiOff", "SettingsWifiOn", "SettingsAirplaneModeOn"])
def test_wifi_and_airplane_tasks_are_refused_over_adb_over_wifi(task: str) -> None:
    phone = VirtualPhone("192.168.1.5:5555")
    env = RealPhoneEnv(backend=LocalBackend(phone), task=task, settle=0.0)
    with pytest.raises(SetupError, match="cuts adb over Wi-Fi to 192.168.1.5:5555.*USB"):
        env.reset(seed=0)
    switched = {"wifi", "connectivity", "wifi_on", "airplane_mode_on"}
    assert not any(switched & set(cmd) for cmd in phone.shell_log)  # nothing of the task ran


def test_other_tasks_run_over_wifi_and_wifi_tasks_over_usb() -> None:
    ok: list[Any] = [
        RealPhoneEnv(backend=LocalBackend(VirtualPhone("192.168.1.5:5555")),
                     task="SettingsBluetoothOn", settle=0.0),
        RealPhoneEnv(backend=LocalBackend(VirtualPhone("emulator-5554")),
                     task="SettingsWifiOff", settle=0.0)]
    for env in ok:
        _, info = env.reset(seed=0)
        assert info["instruction"]
