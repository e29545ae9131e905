"""The virtual device's quirks, each as the cited AOSP source behaves: a UI dump that never
got an idle screen, ``screencap`` on a phone with two displays, ``monkey`` without hardware
keys, and ``content --bind`` escaping as Android 14 parses it."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import adbutils
import pytest
from PIL import Image

from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.virtual.commands.screen import IDLE_ERROR, MULTI_DISPLAY_WARNING

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


# --- uiautomator dump: AOSP cmds/uiautomator DumpCommand ---------------------------------
def test_idle_error_exits_0_writes_nothing_and_cat_reads_the_older_dump() -> None:
    """``DumpCommand.run``: ``waitForIdle`` times out -> "ERROR: could not get idle state."
    on stderr and return (exit 0, no file, no "dumped to" line)."""
    phone = VirtualPhone()
    path = "/data/local/tmp/dump.xml"
    code, out, _ = run(phone, f"uiautomator dump {path}")
    assert code == 0 and f"UI hierchary dumped to: {path}" in out
    home = phone.read_file(path)
    assert home is not None and b"com.android.settings" not in home
    run(phone, "monkey -p com.android.settings 1")
    phone.idle_errors = 1
    code, out, err = run(phone, f"uiautomator dump {path} && cat {path}")
    assert code == 0 and err.strip() == IDLE_ERROR and "dumped to" not in out
    assert out.encode() == home  # `&& cat` reads the previous screen's file
    code, out, err = run(phone, f"uiautomator dump {path} && cat {path}")
    assert phone.idle_errors == 0 and err == "" and "com.android.settings" in out


# --- screencap: AOSP cmds/screencap/screencap.cpp -----------------------------------------
def test_two_displays_warn_on_stderr_unless_a_display_is_named() -> None:
    phone = VirtualPhone()
    phone.displays = 2
    code, out, err = phone.shell("screencap -p")
    assert code == 0 and out.startswith(PNG_SIGNATURE)
    assert err.decode().rstrip("\n") == MULTI_DISPLAY_WARNING
    assert err.startswith(b"[Warning] Multiple displays were found, but no display id was "
                          b"specified! Defaulting to the first display found")
    for named in ("screencap -p -d 0", "screencap -d 4619827259835644672 -p"):
        code, out, err = phone.shell(named)
        assert code == 0 and err == b"" and out.startswith(PNG_SIGNATURE)
    phone.displays = 1
    assert phone.shell("screencap -p")[2] == b""


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[VirtualAdbServer, VirtualPhone]]:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server
    phone = VirtualPhone()
    with VirtualAdbServer([phone]) as srv:
        yield srv, phone


def test_the_warning_comes_before_the_png_in_the_adb_stream(
        server: tuple[VirtualAdbServer, VirtualPhone]) -> None:
    """``adb exec-out``/``adb shell`` (v1) carry stderr in the same stream: the image
    follows the warning."""
    srv, phone = server
    phone.displays = 2
    device = adbutils.AdbClient(port=srv.port).device(phone.serial)
    data = bytes(device.shell("screencap -p", encoding=None, timeout=10))
    start = data.find(PNG_SIGNATURE)
    assert start > 0 and data[:start].decode().startswith("[Warning] Multiple displays")
    assert Image.open(io.BytesIO(data[start:])).size == (1080, 2400)
    assert os.environ["ADBUTILS_ADB_PATH"] == "/bin/false"


# --- monkey: AOSP development/cmds/monkey MonkeySourceRandom.validateKeys -----------------
def test_monkey_without_hardware_keys_refuses_the_default_system_key_share() -> None:
    phone = VirtualPhone()
    phone.hardware_keys = False
    code, out, err = run(phone, "monkey -p com.android.settings "
                                "-c android.intent.category.LAUNCHER 1")
    assert code == 251 and "** SYS_KEYS has no physical keys but with factor 2.0%." in err
    assert "  bash arg: com.android.settings" in out and "Events injected" not in out
    assert phone.device.current_app is None
    code, out, err = run(phone, "monkey --pct-syskeys 0 -p com.android.settings "
                                "-c android.intent.category.LAUNCHER 1")
    assert code == 0 and "Events injected: 1" in out
    app = phone.device.current_app
    assert app is not None and app.package == "com.android.settings"
    phone.hardware_keys = True
    assert run(phone, "monkey -p com.google.android.deskclock 1")[0] == 0


# --- content --bind: AOSP cmds/content Content.java (Parser.splitWithEscaping) -------------
def system_setting(phone: VirtualPhone, name: str) -> str:
    return run(phone, f"settings get system {name}")[1].rstrip("\n")


@pytest.mark.parametrize(("bind", "stored"), [
    (r"value:s:07\:30", "07:30"), (r"value:s:C\:\\Temp", "C:\\Temp"), (r"value:s:a\b", "ab"),
    ("value:s:", "")])
def test_content_bind_unescapes_as_android_14(bind: str, stored: str) -> None:
    phone = VirtualPhone()
    code, out, err = phone.shell("content insert --uri content://settings/system "
                                 f"--bind name:s:phone_gym_test --bind '{bind}'")
    assert (code, out, err) == (0, b"", b"")
    assert system_setting(phone, "phone_gym_test") == stored


@pytest.mark.parametrize(("bind", "error"), [
    ("value:s:07:30", "Binding not well formed: value:s:07:30"),
    ("value:s:C:\\Temp", "Binding not well formed: value:s:C:\\Temp"),
    ("value:s:trailing\\", "Invalid escaping"),
    ("value:i:x", 'For input string: "x"'),
    ("value:q:1", "Unsupported type: q")])
def test_a_bad_binding_prints_usage_and_the_error_and_exits_0(bind: str, error: str) -> None:
    """``Parser.parseCommand`` catches the ``IllegalArgumentException``: usage and
    "[ERROR] ..." on stdout, no command run (``main`` then returns: exit 0)."""
    phone = VirtualPhone()
    quoted = bind.replace("'", "'\\''")
    code, out, err = run(phone, "content insert --uri content://settings/system "
                                f"--bind name:s:phone_gym_test --bind '{quoted}'")
    assert code == 0 and err == ""
    assert out.startswith("usage: adb shell content") and f"[ERROR] {error}\n" in out
    assert system_setting(phone, "phone_gym_test") == "null"
