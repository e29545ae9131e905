"""uiautomator2 against a VirtualPhone with the virtual u2 server, over the virtual adb server:
the real ``uiautomator2.connect`` path (jar push, ``app_process`` launch, ``/ping``, JSON-RPC)
and ``U2Backend``. No adb binary and no network: everything runs on 127.0.0.1."""

from __future__ import annotations

import base64
import io
import json
import os
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import adbutils
import numpy as np
import pytest
from adbutils import AdbError, Network

# adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"

uiautomator2 = pytest.importorskip("uiautomator2")

from PIL import Image  # noqa: E402
from uiautomator2 import Device  # noqa: E402
from uiautomator2.exceptions import RPCUnknownError, UiObjectNotFoundError  # noqa: E402

from phone_gym.real.backend import U2Backend  # noqa: E402
from phone_gym.virtual.phone import VirtualPhone  # noqa: E402
from phone_gym.virtual.server import VirtualAdbServer  # noqa: E402
from phone_gym.virtual.u2 import (  # noqa: E402
    DEFAULT_PORT,
    JAR_PATH,
    MAIN_CLASS,
    U2Server,
    attach_u2,
    parse_launch,
)
from phone_gym.world.a11y import parse_xml, to_xml, ui_elements  # noqa: E402
from phone_gym.world.device import LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE  # noqa: E402

LAUNCH = f"CLASSPATH={JAR_PATH} app_process / {MAIN_CLASS} -p {DEFAULT_PORT}"


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


def u2(phone: VirtualPhone) -> U2Server:
    server = phone.u2  # type: ignore[attr-defined]
    assert isinstance(server, U2Server)
    return server


def wait_until(cond: object, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def http(adb_device: adbutils.AdbDevice, raw: bytes) -> bytes:
    """Send raw HTTP to device port 9008; everything until the server closes."""
    sock = adb_device.create_connection(Network.TCP, DEFAULT_PORT)
    sock.settimeout(5)
    with sock:
        sock.sendall(raw)
        out = bytearray()
        while chunk := sock.recv(65536):
            out += chunk
    return bytes(out)


def icon_center(phone: VirtualPhone, name: str) -> tuple[int, int]:
    for e in ui_elements(phone.device.frame()):
        if e.text == name and e.clickable:
            x0, y0, x1, y1 = e.bounds
            return (x0 + x1) // 2, (y0 + y1) // 2
    raise AssertionError(f"no launcher icon {name!r}")


# --- connect ----------------------------------------------------------------------------------
def test_connect_pushes_jar_and_launches(phone: VirtualPhone,
                                         adb_device: adbutils.AdbDevice) -> None:
    assert not u2(phone).running()
    t0 = time.monotonic()
    d = uiautomator2.connect(adb_device)
    assert time.monotonic() - t0 < 5
    assert u2(phone).ports == [DEFAULT_PORT]
    jar = Path(uiautomator2.__file__).parent / "assets" / "u2.jar"
    assert phone.read_file(JAR_PATH) == jar.read_bytes()
    assert d._process is not None and d._process.pool() is None  # the launch shell still runs
    assert b"listening on port 9008" in bytes(d._process.output)
    d.stop_uiautomator()  # closes the launch stream: the server process ends
    assert not u2(phone).running()
    with pytest.raises(AdbError):
        adb_device.create_connection(Network.TCP, DEFAULT_PORT)
    d.start_uiautomator()  # relaunched
    assert u2(phone).running() and d.info["sdkInt"] == 34
    d.stop_uiautomator(wait=False)


def test_already_running_server_is_reused(adb_device: adbutils.AdbDevice,
                                          phone: VirtualPhone) -> None:
    attach_u2(phone, running=True)  # idempotent: the same U2Server, now started
    server = u2(phone)
    d = uiautomator2.connect(adb_device)
    assert d._process is None  # /ping answered: nothing launched
    assert server is u2(phone) and server.running()
    server.stop()
    assert not server.running()


def test_info(d: Device) -> None:
    info = d.info
    assert info["displayWidth"] == 1080 and info["displayHeight"] == 2400
    assert info["currentPackageName"] == LAUNCHER_PACKAGE
    assert info["sdkInt"] == 34 and info["screenOn"] is True
    assert info["displayRotation"] == 0 and d.orientation == "natural"
    assert d.jsonrpc.windowSize() == [1080, 2400]


def test_window_size(d: Device, phone: VirtualPhone) -> None:
    # adbutils asks the phone's shell: `wm size`, and the orientation in `dumpsys display`
    assert d.window_size() == (1080, 2400)
    d.click(0.5, 0.04)  # fractions of the screen: the clock in the status bar, nothing
    assert phone.device.current_app is None


def test_screenshot(d: Device, phone: VirtualPhone) -> None:
    image = d.screenshot()
    assert isinstance(image, Image.Image) and image.size == (1080, 2400)
    got = np.asarray(image.convert("RGB"), dtype=np.int16)
    assert np.abs(got - phone.screenshot()).mean() < 4  # the same picture, up to JPEG loss
    small = d.jsonrpc.takeScreenshot(0.5, 30)
    image = Image.open(io.BytesIO(base64.b64decode(small)))
    assert image.format == "JPEG" and image.size == (540, 1200)


def test_dump_hierarchy(d: Device, phone: VirtualPhone) -> None:
    xml = d.dump_hierarchy()
    assert xml == to_xml(phone.device.frame())
    names = {e.text for e in parse_xml(xml)}
    assert {"Contacts", "Clock", "Settings"} <= names
    assert d.xpath('//*[@text="Clock"]').exists  # u2's XPath works on the dump
    assert not d.xpath('//*[@text="No such thing"]').exists


# --- input ------------------------------------------------------------------------------------
def test_click_opens_app(d: Device, phone: VirtualPhone) -> None:
    d.click(*icon_center(phone, "Clock"))
    app = phone.device.current_app
    assert app is not None and app.name == "Clock"
    assert d.info["currentPackageName"] == app.package
    d.press("home")
    assert phone.device.current_app is None
    assert d.jsonrpc.click(5000, 10) is False  # off screen: nothing happens
    assert phone.device.current_app is None


def test_touch_mapping(d: Device, phone: VirtualPhone,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, object, object]] = []
    monkeypatch.setattr(phone.device, "step", lambda action, px=None, px2=None: seen.append(
        (action.type, px, px2)))
    d.click(100, 200)
    d.long_click(100, 200, duration=0.6)
    d.swipe(100, 200, 105, 205, steps=100)  # within the touch slop, 500 ms: a long press
    d.swipe(100, 200, 100, 900, steps=10)
    assert seen == [("click", (100, 200), None), ("long_press", (100, 200), None),
                    ("long_press", (100, 200), None), ("drag", (100, 200), (100, 900))]


def test_keys(d: Device, phone: VirtualPhone) -> None:
    d.click(*icon_center(phone, "Notes"))
    assert phone.device.current_app is not None
    assert d.press("back") is True
    assert d.jsonrpc.pressKeyCode(3) is True  # KEYCODE_HOME
    assert phone.device.current_app is None
    assert d.jsonrpc.pressKey("recent") is True and phone.device.show_recents
    assert d.jsonrpc.pressKey("volume_up") is True  # a key PhoneWorld ignores
    assert d.jsonrpc.pressKey("no_such_key") is False


def test_swipe(d: Device, phone: VirtualPhone) -> None:
    d.swipe(540, 10, 540, 1500, steps=20)  # down from the status bar: the shade
    assert phone.device.shade_open
    assert d.info["currentPackageName"] == SYSTEMUI_PACKAGE
    d.swipe(540, 1500, 540, 300, steps=20)  # and up again
    assert not phone.device.shade_open
    d.swipe(*icon_center(phone, "Clock"), *icon_center(phone, "Clock"), steps=10)  # a tap
    app = phone.device.current_app
    assert app is not None and app.name == "Clock"
    assert d.jsonrpc.swipe(0, 0, 99999, 0, 10) is False


# --- protocol ---------------------------------------------------------------------------------
def test_rpc_errors(d: Device) -> None:
    with pytest.raises(RPCUnknownError, match="-32601"):
        d.jsonrpc.noSuchMethod()
    with pytest.raises(RPCUnknownError, match="-32602"):
        d.jsonrpc.click([1], 3)
    with pytest.raises(UiObjectNotFoundError):  # click(String name, corner): no such object
        d.jsonrpc.click("left", 3)
    with pytest.raises(RPCUnknownError, match="-32602"):
        d.jsonrpc.click(1, 2, 3, 4)
    with pytest.raises(RPCUnknownError, match="-32602"):
        d.jsonrpc.takeScreenshot(2, 80)
    assert d.info["sdkInt"] == 34  # still serving


def test_http_endpoints(d: Device, adb_device: adbutils.AdbDevice) -> None:
    out = http(adb_device, b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n"
                           b"GET /version HTTP/1.1\r\nConnection: close\r\n\r\n")
    first, _, second = out.partition(b"pong")  # two answers on one kept-alive connection
    assert first.startswith(b"HTTP/1.1 200 OK") and b"Content-Length: 4" in first
    assert second.startswith(b"HTTP/1.1 200 OK") and second.endswith(b"\r\n\r\n0.4.1")
    info = http(adb_device, b"GET /info HTTP/1.0\r\n\r\n")
    assert json.loads(info.partition(b"\r\n\r\n")[2])["displayWidth"] == 1080
    assert http(adb_device, b"GET /nope HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 404")
    assert http(adb_device, b"POST /ping HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 405")
    body = b"{not json"
    out = http(adb_device, b"POST /jsonrpc/0 HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s"
               % (len(body), body))
    reply = json.loads(out.partition(b"\r\n\r\n")[2])
    assert reply["error"]["code"] == -32700 and reply["id"] is None
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "windowSize", "params": []}).encode()
    out = http(adb_device, b"POST /jsonrpc/0 HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s"
               % (len(body), body))
    assert json.loads(out.partition(b"\r\n\r\n")[2]) == {
        "jsonrpc": "2.0", "id": 7, "result": [1080, 2400]}
    assert http(adb_device, b"junk\r\n\r\n") == b""  # not HTTP: closed


def test_call_in_process(phone: VirtualPhone) -> None:
    server = u2(phone)
    assert server.call("windowSize") == [1080, 2400]
    assert server.call("deviceInfo", {})["productName"] == "phoneworld"
    assert server.jsonrpc(b'{"id": 1, "params": []}')["error"]["code"] == -32600


def test_parse_launch() -> None:
    assert parse_launch(LAUNCH) == (JAR_PATH, 9008)
    assert parse_launch(f"CLASSPATH=/x.jar /system/bin/app_process / {MAIN_CLASS}") == (
        "/x.jar", 9008)
    assert parse_launch(f"app_process / {MAIN_CLASS} -p 7000") == ("", 7000)
    assert parse_launch(f"app_process / {MAIN_CLASS} -p nope") == ("", None)
    assert parse_launch("app_process / com.other.Main") is None
    assert parse_launch(f"{LAUNCH}; echo hi") is None
    assert parse_launch("echo app_process") is None


# --- the launch shell ---------------------------------------------------------------------------
def test_launch_without_jar_fails(adb_device: adbutils.AdbDevice, phone: VirtualPhone) -> None:
    out = adb_device.shell(LAUNCH, timeout=5)
    assert "Could not find class" in out and not u2(phone).running()


def test_launch_twice_fails_to_bind(adb_device: adbutils.AdbDevice,
                                    phone: VirtualPhone) -> None:
    phone.write_file(JAR_PATH, b"PK jar", 0o100644, 0)
    stream = adb_device.shell(LAUNCH, stream=True)
    try:
        assert b"listening" in stream.conn.recv(100) and u2(phone).running()
        assert "BindException" in adb_device.shell(LAUNCH, timeout=5)
        assert u2(phone).running()
    finally:
        stream.close()
    assert wait_until(lambda: not u2(phone).running())


def test_launch_over_shell_v2_ends_with_stop(adb_device: adbutils.AdbDevice,
                                             phone: VirtualPhone) -> None:
    phone.write_file(JAR_PATH, b"PK jar", 0o100644, 0)
    conn = adb_device.open_transport()
    try:
        conn.send_command("shell,v2:" + LAUNCH)
        conn.check_okay()
        kind, length = struct.unpack("<BI", conn.read(5))
        assert kind == 1 and b"listening" in conn.read(length)
        u2(phone).stop()
        assert struct.unpack("<BI", conn.read(5)) == (3, 1) and conn.read(1) == b"\0"
    finally:
        conn.close()


def test_unplugging_ends_the_server(server: VirtualAdbServer, d: Device,
                                    phone: VirtualPhone) -> None:
    assert u2(phone).running()
    server.faults.drop = True
    assert wait_until(lambda: not u2(phone).running())
    assert wait_until(lambda: d._process.pool() is not None)  # the launch stream ended too


def test_open_shell_errors_are_answered(server: VirtualAdbServer, phone: VirtualPhone,
                                        adb_device: adbutils.AdbDevice) -> None:
    def broken(command: str) -> None:
        raise RuntimeError("boom")

    phone.open_shell = broken  # type: ignore[attr-defined]
    result = adb_device.shell2("anything", v2=True, timeout=5)
    assert result.returncode == 255 and "boom" in result.output
    assert "boom" in adb_device.shell("anything", timeout=5)


# --- U2Backend ------------------------------------------------------------------------------------
def test_u2_backend(server: VirtualAdbServer, phone: VirtualPhone) -> None:
    backend = U2Backend(phone.serial, port=server.port, timeout=10)
    try:
        image = backend.screenshot()
        assert image.mode == "RGB" and image.size == (1080, 2400)
        elements = parse_xml(backend.dump_ui())
        assert "Clock" in {e.text for e in elements}
        assert backend.shell("echo hi").output.strip() == "hi"
    finally:
        backend._u2.stop_uiautomator(wait=False)
