"""The client calls issue 26 found failing on the virtual device (items 12-14), made with the
real clients over the virtual adb and u2 servers: ``adb install``'s one-line refusal,
uiautomator2's ``send_keys`` in any script (or an error), ``toast.show`` and ``screen_off``,
and adbutils' ``screenshot(display_id=...)``, ``framebuffer()`` and ``wlan_ip()``. The intents
and logcat are in ``test_intents.py`` and ``test_logcat.py``; ``compat_probe.py`` counts the
calls that work per client."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import adbutils
import numpy as np
import pytest

# adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"

uiautomator2 = pytest.importorskip("uiautomator2")

from uiautomator2 import Device  # noqa: E402

from phone_gym.virtual.phone import VirtualPhone  # noqa: E402
from phone_gym.virtual.server import VirtualAdbServer  # noqa: E402
from phone_gym.virtual.u2 import attach_u2  # noqa: E402

NOTES = "com.example.notes"
REFUSED = ("Failure [INSTALL_FAILED_USER_RESTRICTED: the virtual device runs PhoneWorld's "
           "apps only; it installs no APKs]")


@pytest.fixture
def phone() -> VirtualPhone:
    return attach_u2(VirtualPhone())


@pytest.fixture
def server(phone: VirtualPhone) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer([phone], idle_timeout=10.0) as srv:
        yield srv


@pytest.fixture
def adb_device(server: VirtualAdbServer, phone: VirtualPhone) -> adbutils.AdbDevice:
    return adbutils.AdbClient("127.0.0.1", server.port, socket_timeout=10).device(phone.serial)


@pytest.fixture
def d(adb_device: adbutils.AdbDevice) -> Iterator[Device]:
    device = uiautomator2.connect(adb_device)
    yield device
    device.stop_uiautomator(wait=False)


def note_body(d: Device) -> object:
    """A new note's body field, clicked (focused)."""
    d.app_start(NOTES, stop=True)
    d(description="New note").click()
    body = d(resourceId=f"{NOTES}:id/body")
    body.click()
    return body


def causes(exc: BaseException | None) -> str:
    """The messages of an exception and of those it was raised while handling."""
    said = []
    while exc is not None:
        said.append(str(exc))
        exc = exc.__context__
    return "\n".join(said)


# --- item 12: adb install -----------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("adb") is None,
                    reason="Google's adb command-line tool is not installed (apt-get install adb)")
def test_adb_install_says_in_one_line_why(server: VirtualAdbServer, tmp_path: Path) -> None:
    """Google's ``adb install`` streams the APK to ``cmd package install -S SIZE`` (abb_exec);
    the answer was "Can't open file: <size>" (the size taken for a path)."""
    apk = tmp_path / "app.apk"
    apk.write_bytes(b"PK\x03\x04" + os.urandom(4096))
    adb = shutil.which("adb")
    assert adb is not None
    env = {**os.environ, "HOME": str(tmp_path), "ANDROID_ADB_SERVER_PORT": str(server.port)}
    proc = subprocess.run([adb, "-H", "127.0.0.1", "-P", str(server.port), "install", str(apk)],
                          capture_output=True, env=env, timeout=30, check=False)
    said = (proc.stdout + proc.stderr).decode()
    assert proc.returncode == 1
    # adb's install_app_streamed: "Performing Streamed Install", then the one failure line
    assert said.splitlines() == ["Performing Streamed Install",
                                 f"adb: failed to install {apk}: {REFUSED}"], said


# --- item 13: uiautomator2 ----------------------------------------------------------------------
def test_send_keys_types_chinese(d: Device) -> None:
    body = note_body(d)
    d.send_keys("你好，世界")
    assert body.get_text() == "你好，世界"  # type: ignore[attr-defined]
    d.send_keys(" 안녕 こんにちは")
    assert body.get_text() == "你好，世界 안녕 こんにちは"  # type: ignore[attr-defined]


def test_send_keys_raises_where_it_cannot_type(d: Device, phone: VirtualPhone) -> None:
    """Where Ctrl+V would type nothing, ``pasteClipboard`` fails; uiautomator2 then tries its
    AdbKeyboard, whose install the device refuses: the call raises, the field unchanged."""
    body = note_body(d)
    d.send_keys("abc")
    with pytest.raises(adbutils.AdbInstallError, match="INSTALL_FAILED") as raised:
        d.send_keys("龘")  # U+9F98: no font of the phone draws it
    assert "no font of the phone draws it" in causes(raised.value)
    assert body.get_text() == "abc"  # type: ignore[attr-defined]
    d.press("home")  # no text field has focus
    with pytest.raises(adbutils.AdbInstallError) as raised:
        d.send_keys("中文")
    assert "no text field has focus" in causes(raised.value)
    assert phone.device.system.clipboard == "中文"  # send_keys went through the clipboard


def test_toast_show(d: Device, phone: VirtualPhone) -> None:
    before = phone.screenshot()
    d.toast.show("hello toast", 2)
    assert d.toast.get_message(wait_timeout=2, default=None) == "hello toast"
    assert (phone.screenshot() != before).any()  # drawn on the screen
    with pytest.raises(uiautomator2.exceptions.RPCError):
        d.jsonrpc.makeToast("x", "long")  # a duration that is not a number


def test_screen_off_and_on(d: Device, adb_device: adbutils.AdbDevice) -> None:
    d.screen_off()
    assert d.info["screenOn"] is False and adb_device.is_screen_on() is False
    d.screen_off()  # UiDevice.sleep on a sleeping screen: nothing
    assert d.info["screenOn"] is False
    d.screen_on()
    assert d.info["screenOn"] is True and adb_device.is_screen_on() is True


# --- item 14: adbutils --------------------------------------------------------------------------
def test_screenshot_of_a_display(adb_device: adbutils.AdbDevice) -> None:
    shot = adb_device.screenshot(display_id=0, error_ok=False)
    assert shot.size == (1080, 2400)
    assert np.array_equal(np.asarray(shot), np.asarray(adb_device.screenshot()))
    with pytest.raises(adbutils.AdbError, match="Invalid display_id"):
        adb_device.screenshot(display_id=1, error_ok=False)  # one display


def test_screenshot_of_each_display_of_a_foldable(tmp_path: Path) -> None:
    phone = VirtualPhone(profile="foldable")
    with VirtualAdbServer([phone], idle_timeout=10.0) as srv:
        dev = adbutils.AdbClient("127.0.0.1", srv.port, socket_timeout=10).device(phone.serial)
        cover = np.asarray(dev.screenshot(display_id=0, error_ok=False))
        inner = np.asarray(dev.screenshot(display_id=1, error_ok=False))
    assert not cover.any()  # the cover screen is off while the phone is unfolded
    assert np.array_equal(inner, phone.screenshot()[..., :3])


def test_framebuffer_is_the_screen(adb_device: adbutils.AdbDevice, phone: VirtualPhone) -> None:
    image = adb_device.framebuffer()
    assert image.size == (1080, 2400)
    assert np.array_equal(np.asarray(image.convert("RGB")), phone.screenshot()[..., :3])


def test_wlan_ip_follows_wifi(adb_device: adbutils.AdbDevice) -> None:
    assert adb_device.wlan_ip() == "10.0.2.16"  # the emulator's Wi-Fi address
    adb_device.shell("cmd wifi set-wifi-enabled disabled")
    with pytest.raises(adbutils.AdbError, match="fail to parse wlan ip"):
        adb_device.wlan_ip()  # wlan0 is down: no address, and no eth0
