"""The real clients end to end against the virtual device: uiautomator2's common calls
(connect, device info, screenshots, the hierarchy, apps and sessions, ``d(...)`` UI objects and
named ones, typing, toasts, watchers, keys, swipes, and the calls that fail) and adbutils'
(``app_info``, ``app_current``, ``shell``, screens and keys), over the virtual adb server and
the virtual u2 server. No adb binary, no phone: 127.0.0.1 only."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator

import adbutils
import pytest

# adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"

uiautomator2 = pytest.importorskip("uiautomator2")

from PIL import Image  # noqa: E402
from uiautomator2 import Device  # noqa: E402
from uiautomator2.exceptions import (  # noqa: E402
    AppNotFoundError,
    RPCUnknownError,
    SessionBrokenError,
    UiObjectNotFoundError,
)

from phone_gym.virtual.phone import VirtualPhone  # noqa: E402
from phone_gym.virtual.server import VirtualAdbServer  # noqa: E402
from phone_gym.virtual.u2 import attach_u2  # noqa: E402
from phone_gym.world.a11y import parse_xml, to_xml  # noqa: E402
from phone_gym.world.device import LAUNCHER_PACKAGE  # noqa: E402

CLOCK = "com.google.android.deskclock"
NOTES = "com.example.notes"
CONTACTS = "com.android.contacts"


@pytest.fixture
def phone() -> VirtualPhone:
    return attach_u2(VirtualPhone())


@pytest.fixture
def adb_device(phone: VirtualPhone) -> Iterator[adbutils.AdbDevice]:
    with VirtualAdbServer([phone], idle_timeout=10.0) as server:
        yield adbutils.AdbClient("127.0.0.1", server.port, socket_timeout=10).device(
            phone.serial)


@pytest.fixture
def d(adb_device: adbutils.AdbDevice) -> Iterator[Device]:
    device = uiautomator2.connect(adb_device)
    yield device
    device.stop_uiautomator(wait=False)


def commands(phone: VirtualPhone) -> list[str]:
    return [" ".join(argv) for argv in list(phone.shell_log)]


@contextlib.contextmanager
def fast(seconds: float = 1.0) -> Iterator[None]:
    """Fails the test when the body of the ``with`` takes longer than ``seconds``."""
    t0 = time.monotonic()
    yield
    took = time.monotonic() - t0
    assert took < seconds, f"took {took:.2f} s"


# --- the device -------------------------------------------------------------------------------
def test_device_calls(d: Device, phone: VirtualPhone) -> None:
    assert d.info["currentPackageName"] == LAUNCHER_PACKAGE and d.info["sdkInt"] == 34
    assert d.window_size() == (1080, 2400)
    image = d.screenshot()
    assert isinstance(image, Image.Image) and image.size == (1080, 2400)
    xml = d.dump_hierarchy()
    assert xml == to_xml(phone.device.frame())
    assert "Clock" in {e.text for e in parse_xml(xml)}
    d.swipe(540, 10, 540, 1500, steps=20)  # down from the status bar: the shade
    assert phone.device.shade_open
    d.press("home")
    assert not phone.device.shade_open and phone.device.at_home


# --- apps, processes and sessions ---------------------------------------------------------------
def test_apps(d: Device, phone: VirtualPhone) -> None:
    assert NOTES not in d.app_list_running()
    with fast():
        d.app_start(NOTES, wait=True)  # `monkey`, then app_wait on `ps`
    assert d.app_current()["package"] == NOTES
    with fast():
        pid = d.app_wait(NOTES, timeout=5)
    assert pid > 0 and pid == int(d.shell(["pidof", NOTES]).output)
    assert d.app_wait(NOTES, timeout=5, front=True) == pid
    d.app_start(CLOCK)
    running = d.app_list_running()
    assert {NOTES, CLOCK} <= set(running) and CONTACTS not in running
    assert d.app_info(NOTES) == {"versionName": "1.0", "versionCode": 1}
    with pytest.raises(AppNotFoundError):
        d.app_info("com.nope")
    assert NOTES in d.app_list() and NOTES in d.app_list("-3")
    assert d.app_uninstall(NOTES) is False and NOTES in d.app_list()  # nothing is removed
    d.app_stop(NOTES)
    assert NOTES not in d.app_list_running()
    assert d.app_wait(NOTES, timeout=0.5) == 0  # (u2 looks once a second)
    d.app_start(NOTES)
    assert d.app_wait(NOTES, timeout=5) not in (0, pid)  # a new process


def test_session(d: Device, phone: VirtualPhone) -> None:
    with fast():
        session = d.session(CLOCK)
    assert session.pid > 0 and session.running()
    assert session(text="Alarm").exists
    assert phone.device.current_app is not None and phone.device.current_app.package == CLOCK
    d.app_stop(CLOCK)
    with pytest.raises(SessionBrokenError):  # every call checks the app's pid first
        bool(session(text="Alarm").exists)
    session.restart()
    assert session.running() and session(text="Alarm").exists
    session.stop_uiautomator(wait=False)


def test_adbutils(adb_device: adbutils.AdbDevice, phone: VirtualPhone) -> None:
    info = adb_device.app_info(CLOCK)
    assert info is not None and info.package_name == CLOCK
    assert (info.version_name, info.version_code) == ("1.0", 1)
    assert info.first_install_time is not None and info.last_update_time is not None
    assert info.path.endswith("/base.apk") and "HAS_CODE" in info.flags
    assert adb_device.app_info("com.nope") is None
    adb_device.app_start(CLOCK)
    current = adb_device.app_current()
    assert (current.package, current.activity) == (CLOCK, f"{CLOCK}.MainActivity")
    assert adb_device.shell("echo hi") == "hi"
    assert adb_device.shell2(["pidof", CLOCK]).output.strip().isdigit()
    assert {CLOCK, NOTES} <= set(adb_device.list_packages())
    adb_device.app_stop(CLOCK)
    assert phone.device.at_home and not adb_device.shell2(["pidof", CLOCK]).output
    assert tuple(adb_device.window_size()) == (1080, 2400) and adb_device.rotation() == 0
    assert adb_device.is_screen_on() and adb_device.screenshot().size == (1080, 2400)
    assert adb_device.dump_hierarchy() == to_xml(phone.device.frame())
    x0, y0, x1, y1 = next(e.bounds for e in parse_xml(adb_device.dump_hierarchy())
                          if e.text == "Notes")
    adb_device.click((x0 + x1) // 2, (y0 + y1) // 2)
    assert adb_device.app_current().package == NOTES
    adb_device.keyevent("HOME")
    assert phone.device.at_home
    with pytest.raises(adbutils.AdbInstallError):  # nothing is installed on a PhoneWorld phone
        adb_device.install(__file__)
    assert "DELETE_FAILED" in adb_device.uninstall(NOTES) and adb_device.app_info(NOTES)


# --- UI objects ---------------------------------------------------------------------------------
def test_selectors(d: Device, phone: VirtualPhone) -> None:
    assert d(text="Clock").exists and not d(text="No such thing").exists
    assert d(description="Home").exists
    assert d(resourceId="com.android.systemui:id/home").exists
    nav = {"className": "android.widget.ImageButton", "packageName": "com.android.systemui"}
    assert d(**nav).count == 3  # the navigation bar
    assert d(className="android.widget.ImageButton").count == 4  # and the home's next page
    assert d(textContains="lock").exists and d(textMatches="C.o.k").exists
    assert not d(textMatches="lock").exists  # the whole text must match
    assert d(resourceId="com.android.systemui:id/navigation_bar").child(
        description="Home").exists
    assert d(description="Back").sibling(description="Overview").exists
    buttons = d(**nav)
    assert [buttons[k].info["contentDescription"] for k in range(3)] == [
        "Back", "Home", "Overview"]
    assert d(**nav, instance=1).info[
        "contentDescription"] == "Home"
    info = d(description="Home").info
    assert info["className"] == "android.widget.ImageButton" and info["clickable"]
    assert info["resourceName"] == "com.android.systemui:id/home"
    x0, y0, x1, y1 = d(description="Home").bounds()
    assert 0 <= x0 < x1 <= 1080 and 2200 < y0 < y1 <= 2400
    assert d(description="Home").center() == ((x0 + x1) / 2, (y0 + y1) / 2)
    assert [i["contentDescription"] for i in buttons.info_list()] == ["Back", "Home", "Overview"]
    assert d(description="Back").right(className="android.widget.ImageButton").info[
        "contentDescription"] == "Home"  # relative positions: computed by the client
    assert d.xpath('//*[@content-desc="Home"]').exists  # xpath reads the hierarchy dump
    with fast(1.5):
        assert d(text="No such thing").exists(timeout=0.3) is False
    with pytest.raises(UiObjectNotFoundError):
        d(text="No such thing").get_text(timeout=0.2)
    with pytest.raises(UiObjectNotFoundError):
        d(text="No such thing").info  # noqa: B018


def test_click_and_wait(d: Device, phone: VirtualPhone) -> None:
    d(text="Clock").click()
    app = phone.device.current_app
    assert app is not None and app.package == CLOCK
    assert d(text="Alarm").wait(timeout=1) and d(text="Clock").wait_gone(timeout=1) is False
    assert d(text="No alarms").get_text() == "No alarms"
    d.press("home")
    assert d(text="Alarm").wait_gone(timeout=1)

    def later() -> None:  # another client opens Notes while the server waits
        time.sleep(0.3)
        with phone.lock:
            phone.device.open_app("Notes")

    threading.Thread(target=later, daemon=True).start()
    t0 = time.monotonic()
    assert d(text="No notes yet").wait(timeout=5)
    assert 0.2 < time.monotonic() - t0 < 3


def test_text_fields(d: Device, phone: VirtualPhone) -> None:
    d.app_start(NOTES)
    d(description="New note").click()
    title = d(resourceId=f"{NOTES}:id/title")
    assert title.set_text("Groceries") and title.get_text() == "Groceries"
    assert phone.device.focus == "title"  # set_text taps the field first
    body = d(resourceId=f"{NOTES}:id/body")
    body.click()
    d.send_keys("milk, eggs")  # the clipboard and Ctrl+V: no input method is installed
    assert body.get_text() == "milk, eggs"
    d.send_keys(" & café ✓")
    assert body.get_text() == "milk, eggs & café ✓"
    d.clear_text()
    assert body.get_text() is None  # an empty field has no text
    d.send_keys("bread", clear=True)
    assert body.get_text() == "bread"
    title.clear_text()
    assert title.get_text() is None and body.get_text() == "bread"
    assert d(text="5 characters").exists
    log = commands(phone)  # u2 asked whether its AdbKeyboard is there (no) and used no IME
    assert "ime list -s -a" in log
    assert not any(c.startswith(("pm install", "ime set", "ime enable", "am broadcast"))
                   for c in log), log
    d.toast.reset()
    d(description="Save").click()  # saves and closes the editor: back on the list
    assert d.toast.get_message(wait_timeout=2, default=None) == "Note saved"
    assert d.app_current()["package"] == NOTES and not d(text="No notes yet").exists
    # the row shows the title (none: "Untitled"); the text is its subtitle
    row = d(resourceId=f"{NOTES}:id/notes_list").child(text="Untitled")
    assert row.exists and row.info["clickable"]
    row.click()  # reopened, the note has what was typed
    assert d(resourceId=f"{NOTES}:id/body").get_text() == "bread"
    d(resourceId=f"{NOTES}:id/title").click()
    assert d(focused=True).info["resourceName"] == f"{NOTES}:id/title"
    assert d(focused=True).set_text("Shopping") and title.get_text() == "Shopping"


def test_long_click_and_menus(d: Device, phone: VirtualPhone) -> None:
    d.app_start(NOTES)
    d.clipboard = "pasted"
    assert d.clipboard == "pasted"
    d(resourceId=f"{NOTES}:id/search").long_click()
    assert d(text="Paste").wait(timeout=1)
    d(text="Paste").click()
    assert d(resourceId=f"{NOTES}:id/search").get_text() == "pasted"


def test_scrolling(d: Device, phone: VirtualPhone) -> None:
    with phone.lock:
        for k in range(40):
            phone.device.system.add_contact(f"Person {k:02d}")
    d.app_start(CONTACTS)
    rows = d(resourceId=f"{CONTACTS}:id/contacts_list")
    assert rows.info["scrollable"] and not d(text="Person 39").exists
    assert rows.scroll.forward()
    assert rows.scroll.toEnd() and d(text="Person 39").exists
    assert not rows.scroll.forward()  # at the end
    assert rows.scroll.toBeginning() and d(text="Person 00").exists
    assert rows.scroll.to(text="Person 25") and d(text="Person 25").exists
    assert not rows.scroll.to(text="Nobody")
    d.swipe(540, 1600, 540, 600, steps=10)  # a plain swipe scrolls too
    d(text="Person 39").click()
    assert d(text="Person 39").exists and not d(text="Person 38").exists


def test_named_objects(d: Device, phone: VirtualPhone,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``child_by_text``/``_description``/``_instance``: the server names a UiObject that the
    later calls use (``AutomatorServiceImpl.childByText`` and the ``String`` overloads)."""
    nav = d(resourceId="com.android.systemui:id/navigation_bar")
    home = nav.child_by_description("Hom", className="android.widget.ImageButton")
    assert isinstance(home.selector, str) and home.exists
    assert home.info["contentDescription"] == "Home"
    assert nav.child_by_instance(2, className="android.widget.ImageButton").info[
        "contentDescription"] == "Overview"
    with pytest.raises(UiObjectNotFoundError):
        nav.child_by_text("Nobody", className="android.widget.ImageButton")
    with phone.lock:
        for k in range(40):
            phone.device.system.add_contact(f"Person {k:02d}")
    d.app_start(CONTACTS)
    rows = d(resourceId=f"{CONTACTS}:id/contacts_list")
    assert not d(text="Person 30").exists
    person = rows.child_by_text("Person 30", className="android.view.ViewGroup")  # scrolls
    assert person.get_text() == "Person 30" and d(text="Person 30").exists
    person.click()
    assert not d(text="Person 29").exists and d(text="Person 30").exists  # the contact
    monkeypatch.setattr("phone_gym.virtual.u2.OBJECT_TTL_S", 0.0)  # names last a minute
    assert not person.exists
    with pytest.raises(UiObjectNotFoundError):
        person.get_text()


def test_watchers_toasts_and_orientation(d: Device, phone: VirtualPhone) -> None:
    """uiautomator2's client-side watchers (they read the hierarchy dump), the toast it hears,
    the orientation, and the calls that fail and how."""
    d.app_start(CLOCK)
    d.watcher("leave").when('//*[@text="Alarm"]').press("home")
    d.watcher.run()  # one look: the watcher fires
    assert phone.device.at_home
    d.watcher.remove()
    assert d.orientation == "natural"
    d.set_orientation("natural")
    d.freeze_rotation()
    with pytest.raises(RPCUnknownError, match="do not rotate"):
        d.set_orientation("left")
    t0 = time.monotonic()
    with pytest.raises(adbutils.AdbInstallError):  # needs u2's AdbKeyboard: no APK installs
        d.hide_keyboard()
    assert time.monotonic() - t0 < 5
    assert "com.github.uiautomator" not in d.app_list()
