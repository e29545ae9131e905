"""A virtual uiautomator2 server for ``VirtualPhone``: what ``uiautomator2.connect`` reaches.

uiautomator2 (3.x) pushes ``u2.jar`` to ``/data/local/tmp``, asks ``GET /ping`` on device
port 9008 (through adb ``tcp:9008``) and, if nothing answers, launches the server with a
streaming shell ``CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p
9008`` that runs until the client closes it; then it polls ``/ping`` until ``pong`` and
talks JSON-RPC 2.0 (``POST /jsonrpc/0``). ``attach_u2(phone)`` gives a phone all of that::

    phone = attach_u2(VirtualPhone())
    with VirtualAdbServer([phone]) as server:
        device = uiautomator2.connect(server.client().device(phone.serial))
        device.click(540, 1200)

The launch command is claimed through the adb server's ``open_shell`` hook: it needs the
jar on the phone, serves its port while the stream stays open, and stops (the port then
refuses connections) when the client closes the stream or ``U2Server.stop`` is called.

HTTP: ``GET /ping`` (``pong``), ``GET /version``, ``GET /info`` (``deviceInfo`` as JSON) and
``POST /jsonrpc/0``, the JSON-RPC methods of the real server (``openatx/android-uiautomator-
server-jar``, ``stub/AutomatorServiceImpl.java``, which uiautomator2 3.7 ships as ``u2.jar``
0.4.1) with its result shapes:

- the device: ``deviceInfo``, ``windowSize``, ``takeScreenshot(scale, quality)`` (base64
  JPEG), ``dumpWindowHierarchy(compressed, maxDepth[, rootInActive])`` (the ``uiautomator
  dump`` XML; the flags change nothing), ``click(x, y[, ms])`` (a long press from 500 ms),
  ``swipe``/``drag(x1, y1, x2, y2, steps)`` (a tap or long press within the touch slop, 5
  ms a step), ``swipePoints``, ``injectInputEvent`` (touch down/move/up: u2's ``d.touch``
  and ``double_click``), ``pressKey(name)``, ``pressKeyCode(code[, meta])``,
  ``openNotification``/``openQuickSettings`` (the shade), ``getLastToast``/
  ``clearLastToast``, ``makeToast(text, ms)`` (a toast on the screen, as the APK server
  ``openatx/android-uiautomator-server`` shows one: uiautomator2's ``d.toast.show``),
  ``launchApp``, ``executeShellCommand``, ``wakeUp``, ``sleep`` (``UiDevice.sleep``: the
  power key when the screen is on: uiautomator2's ``screen_off``) and ``isScreenOn`` (the
  phone's ``power``), and the no-ops of a phone that is always idle and
  upright (``waitForIdle``, ``freezeRotation``...). The dump, the screenshot and the taps
  go through ``overlays``: a lock screen or a dialog over the app shows and takes them;
- UI objects by selector (``u2_selector``: what ``d(text=...)`` sends): ``exist``,
  ``objInfo`` (``ObjInfo``), ``objInfoOfAllInstances``, ``count``, ``waitForExists``/
  ``waitUntilGone(selector, ms)`` (polled; the phone stays free for other clients),
  ``click``/``longClick(selector[, corner])``, ``getText``, ``setText`` (a tap, then the
  field's text is replaced), ``clearTextField``, ``swipe(selector, dir[, percent], steps)``,
  ``dragTo``, and ``UiScrollable``'s ``scroll*``/``fling*``/``scrollTo``, all acting on the
  phone through PhoneWorld actions so that its state really changes;
- named UiObjects (u2's ``child_by_text``/``child_by_description``/``child_by_instance``):
  ``childByText``/``childByDescription``/``childByInstance`` (``UiCollection``, or
  ``UiScrollable`` when the collection scrolls: it scrolls the text into view first) answer
  a UUID that the ``String`` overloads of ``exist``, ``objInfo``, ``click``, ``getText``,
  ``setText``... take for a minute; ``getUiObject``, ``removeUiObject``, ``getUiObjects``;
- typing without an input method (uiautomator2's ``send_keys`` and ``clear_text`` when its
  AdbKeyboard is not installed): ``setClipboard``/``getClipboard`` (the phone's clipboard),
  ``pasteClipboard`` (Ctrl+V: the focused field types the clipboard, over a selection, as
  the device's ``type`` does) and ``clearInputText`` (Ctrl+A, DEL). Where the real server's
  Ctrl+V would type nothing without a word (no focused text field, a lock screen or dialog
  in front, characters no font of the phone draws), ``pasteClipboard`` fails with
  ``java.lang.IllegalStateException`` and the reason, so ``send_keys`` never types nothing
  silently (uiautomator2 then falls back to installing its AdbKeyboard, which the device
  refuses: the ``AdbInstallError`` it raises carries this error as its ``__context__``).

Pointer methods answer ``false`` off screen, as UiDevice does. A selector that finds nothing
gets the server's error: code ``-32001``, message ``androidx.test.uiautomator.
UiObjectNotFoundException`` (uiautomator2 raises ``UiObjectNotFoundError``), data the
``UiSelector`` string. Other failures are JSON-RPC error objects (``-32601`` method not
found, ``-32602`` invalid params, ``-32700`` parse error), always with HTTP 200 so that
uiautomator2 raises ``RPCUnknownError`` instead of restarting. ``setOrientation`` accepts
natural (where the phone stays) and refuses left and right. Not served: the server's own
watchers (``registerClickUiObjectWatcher``...; uiautomator2 3.x watches from the client,
which works), ``getChild``/``getFromParent`` of a named object, ``clickAndWaitForNewWindow``,
``gesture``/``pinchIn``/``pinchOut`` and the configurator.
"""

from __future__ import annotations

import base64
import contextlib
import inspect
import json
import logging
import math
import re
import select
import shlex
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from io import BytesIO
from typing import TYPE_CHECKING, Any

from PIL import Image

from ..actions import MAX_TEXT_LENGTH, PhoneAction
from ..world import theme as T
from ..world.a11y import to_xml
from ..world.device import LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE
from ..world.glyphs import typing_error
from ..world.layout import Placed
from .u2_selector import (
    MASKS,
    Node,
    SelectorError,
    Tree,
    describe,
    is_by_selector,
    resolve,
)

if TYPE_CHECKING:
    from .phone import VirtualPhone

__all__ = ["DEFAULT_PORT", "JAR_PATH", "MAIN_CLASS", "RpcError", "U2Server", "attach_u2"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 9008
JAR_PATH = "/data/local/tmp/u2.jar"
MAIN_CLASS = "com.wetest.uia2.Main"
VERSION = "0.4.1"  # the u2.jar version uiautomator2 3.7 ships
TOUCH_SLOP = 20  # px
LONG_PRESS_MS = 500
STEP_MS = 5  # UiDevice.swipe: each step takes about 5 ms
KEY_BUTTONS = {3: "home", 4: "back", 66: "enter", 160: "enter", 111: "back", 187: "recents"}
#: pressKey names (uiautomator2's list) and their key codes.
KEY_NAMES = {"home": 3, "back": 4, "left": 21, "right": 22, "up": 19, "down": 20, "center": 23,
             "menu": 82, "search": 84, "enter": 66, "delete": 67, "del": 67, "recent": 187,
             "volume_up": 24, "volume_down": 25, "volume_mute": 164, "camera": 27, "power": 26}
SCROLL_STEPS = 55  # UiScrollable's default steps of a scroll...
FLING_STEPS = 5  # ...and of a fling
MAX_SWIPES = 30  # UiScrollable.getMaxSearchSwipes
POLL_S = 0.05  # seconds between looks while waiting for a node
CUSTOM_ERROR = -32001  # the server's ErrorResolver: this code, the exception's class
OBJECT_TTL_S = 60.0  # a named UiObject is forgotten after a minute (ClearUiObjectTimerTask)
#: Methods with a ``String`` overload that takes a named UiObject instead of a selector.
NAMED_OVERLOADS = frozenset({"clearTextField", "getText", "setText", "click", "longClick",
                             "dragTo", "exist", "objInfo", "swipe", "waitForExists",
                             "waitUntilGone"})
NOT_FOUND = "androidx.test.uiautomator.UiObjectNotFoundException"
#: The class ``pasteClipboard`` fails with when nothing could be typed (see the module doc).
PASTE_ERROR = "java.lang.IllegalStateException"
TOAST_MS = 2000  # Toast.LENGTH_SHORT
POWER_KEY = 26  # KeyEvent.KEYCODE_POWER
_MAX_HEAD = 64 * 1024
_MAX_BODY = 16 * 1024 * 1024
_SHELL_SYNTAX = re.compile(r"[;&|<>`$()\n]")
_POLL = 0.25  # seconds between checks of the stop flag
_TCP_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)

Handler = Callable[[socket.socket], None]


class RpcError(Exception):
    """A JSON-RPC error: ``code`` and ``message`` (``data`` optional)."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(f"{code} {message}")
        self.code, self.message, self.data = code, message, data

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class U2Server:
    """The uiautomator2 server of one ``VirtualPhone`` (see the module doc).

    ``start``/``stop`` run it without a launching shell; ``call`` runs one JSON-RPC method
    in-process. Every phone access holds ``lock`` (the adb server's lock of the phone).
    """

    def __init__(self, phone: VirtualPhone, lock: Any) -> None:
        self.phone = phone
        self.lock = lock
        self._ports: dict[int, threading.Event] = {}  # port -> stop flag of its server
        self._guard = threading.Lock()
        self._down: tuple[tuple[int, int], tuple[int, int], float] | None = None  # a touch
        self._toast: str | None = None  # the last toast seen
        self._seen: str | None = None  # the toast on screen at the last look
        self._objects: dict[str, tuple[dict[str, Any], float]] = {}  # name -> (selector, made)
        self.methods: dict[str, Callable[..., Any]] = {
            # the device (UiDevice)
            "ping": lambda: "pong", "deviceInfo": self.device_info,
            "windowSize": self.window_size, "takeScreenshot": self.take_screenshot,
            "dumpWindowHierarchy": self.dump_window_hierarchy, "click": self.click,
            "swipe": self.swipe, "drag": self.drag, "swipePoints": self.swipe_points,
            "injectInputEvent": self.inject_input_event, "pressKey": self.press_key,
            "pressKeyCode": self.press_key_code, "wakeUp": self.wake_up, "sleep": self.sleep,
            "isScreenOn": self.is_screen_on, "waitForIdle": self.wait_for_idle,
            "waitForWindowUpdate": self.wait_for_window_update,
            "openNotification": self.open_notification,
            "openQuickSettings": self.open_notification, "freezeRotation": self.freeze_rotation,
            "getLastTraversedText": lambda: None, "clearLastTraversedText": lambda: None,
            "getLastToast": self.get_last_toast, "clearLastToast": self.clear_last_toast,
            "makeToast": self.make_toast,
            "setClipboard": self.set_clipboard, "getClipboard": self.get_clipboard,
            "pasteClipboard": self.paste_clipboard, "clearInputText": self.clear_input_text,
            "launchApp": self.launch_app, "executeShellCommand": self.execute_shell_command,
            # UI objects by selector (UiObject, UiObject2, UiScrollable)
            "exist": self.exist, "objInfo": self.obj_info,
            "objInfoOfAllInstances": self.obj_info_of_all_instances, "count": self.count,
            "waitForExists": self.wait_for_exists, "waitUntilGone": self.wait_until_gone,
            "longClick": self.long_click, "getText": self.get_text, "setText": self.set_text,
            "clearTextField": self.clear_text_field, "dragTo": self.drag_to,
            "scrollForward": self.scroll_forward, "scrollBackward": self.scroll_backward,
            "scrollToBeginning": self.scroll_to_beginning, "scrollToEnd": self.scroll_to_end,
            "scrollTo": self.scroll_to, "flingForward": self.fling_forward,
            "flingBackward": self.fling_backward, "flingToBeginning": self.fling_to_beginning,
            "flingToEnd": self.fling_to_end,
            # named UiObjects (UiCollection/UiScrollable children; kept 60 s, as the server)
            "childByText": self.child_by_text, "childByDescription": self.child_by_description,
            "childByInstance": self.child_by_instance, "getUiObject": self.get_ui_object,
            "removeUiObject": self.remove_ui_object, "getUiObjects": self.get_ui_objects,
            "setOrientation": self.set_orientation,
        }

    # --- life cycle ----------------------------------------------------------------------------
    @property
    def ports(self) -> list[int]:
        """The device ports served now."""
        with self._guard:
            return sorted(self._ports)

    def running(self, port: int = DEFAULT_PORT) -> bool:
        return port in self.ports

    def start(self, port: int = DEFAULT_PORT) -> None:
        """Serve ``port`` until ``stop`` (as if launched earlier by a shell gone since)."""
        with self._guard:
            self._ports.setdefault(port, threading.Event())

    def stop(self, port: int | None = None) -> None:
        """Stop the server on ``port`` (all of them: None); its launching shell ends too."""
        with self._guard:
            doomed = [p for p in self._ports if port is None or p == port]
            flags = [self._ports.pop(p) for p in doomed]
        for flag in flags:
            flag.set()

    def open_port(self, port: int) -> Handler | None:
        """The adb server's ``open_port``: an HTTP handler if ``port`` is served."""
        with self._guard:
            stop = self._ports.get(port)
        if stop is None:
            return None
        return lambda sock: self._serve_http(sock, stop)

    def open_shell(self, command: str) -> Handler | None:
        """The adb server's ``open_shell`` (called under the phone's lock): claims the
        ``app_process`` launch of the server."""
        launch = parse_launch(command)
        if launch is None:
            return None
        classpath, port = launch
        if port is None:
            return _print("Error: invalid -p PORT\n")
        jars = [p for p in classpath.split(":") if p]
        found = any((self.phone.stat(p) or (0, 0, 0))[0] & 0o170000 == 0o100000 for p in jars)
        if not found:
            return _print(f"Error: Could not find class '{MAIN_CLASS}' (CLASSPATH="
                          f"{classpath})\n")
        stop = threading.Event()
        with self._guard:
            if port in self._ports:
                return _print(f"java.net.BindException: Address already in use (port {port})\n")
            self._ports[port] = stop  # served from now on: the client pings right after OKAY

        def process(sock: socket.socket) -> None:
            try:
                sock.sendall(f"uiautomator2 server (phone-gym virtual {VERSION}) listening on "
                             f"port {port}\n".encode())
                _wait_closed(sock, stop)
            except OSError:
                pass
            finally:
                with self._guard:
                    if self._ports.get(port) is stop:
                        del self._ports[port]
                stop.set()

        return process

    # --- HTTP ----------------------------------------------------------------------------------
    def _serve_http(self, sock: socket.socket, stop: threading.Event) -> None:
        buf = bytearray()
        idle = sock.gettimeout() or 60.0
        while not stop.is_set():
            request = _read_request(sock, buf, stop, idle)
            if request is None:
                return
            method, path, _headers, body, keep = request
            status, ctype, payload = self.respond(method, path, body)
            keep = keep and not stop.is_set()
            head = (f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n"
                    f"Content-Length: {len(payload)}\r\n"
                    f"Connection: {'keep-alive' if keep else 'close'}\r\n\r\n")
            sock.sendall(head.encode("latin-1") + payload)
            if not keep:
                return

    def respond(self, method: str, path: str, body: bytes) -> tuple[str, str, bytes]:
        """``(status line, content type, body)`` for one HTTP request."""
        path = path.split("?", 1)[0]
        text, json_type = "text/plain; charset=utf-8", "application/json; charset=utf-8"
        routes = {"/ping": "GET", "/version": "GET", "/info": "GET", "/jsonrpc/0": "POST"}
        if path not in routes:
            return "404 Not Found", text, b"Not Found"
        if method != routes[path]:
            return "405 Method Not Allowed", text, b"Method Not Allowed"
        if path == "/ping":
            return "200 OK", text, b"pong"
        if path == "/version":
            return "200 OK", text, VERSION.encode()
        if path == "/info":
            return "200 OK", json_type, _dumps(self.device_info())
        return "200 OK", json_type, _dumps(self.jsonrpc(body))

    def jsonrpc(self, body: bytes) -> dict[str, Any]:
        """The JSON-RPC 2.0 response object to a request body."""
        request_id: Any = None
        try:
            try:
                request = json.loads(body)
            except (ValueError, UnicodeDecodeError):
                raise RpcError(-32700, "Parse error") from None
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                raise RpcError(-32600, "Invalid Request")
            request_id = request.get("id")
            result = self.call(request["method"], request.get("params"))
        except RpcError as e:
            return {"jsonrpc": "2.0", "id": request_id, "error": e.to_json()}
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def call(self, method: str, params: Any = None) -> Any:
        """Run JSON-RPC ``method`` with ``params`` (a list, an object or None)."""
        fn = self.methods.get(method)
        if fn is None:
            raise RpcError(-32601, "Method not found", f"no method {method!r}")
        if params is not None and not isinstance(params, (list, dict)):
            raise RpcError(-32602, "Invalid params", "params must be an array or an object")
        args = list(params) if isinstance(params, list) else []
        kwargs = dict(params) if isinstance(params, dict) else {}
        if method in NAMED_OVERLOADS and args and isinstance(args[0], str):
            named = self._named(args[0])  # the String overload: a named UiObject
            if named is None:
                if method == "exist":
                    return False
                raise RpcError(CUSTOM_ERROR, NOT_FOUND, f"UiObject {args[0]} not found!")
            args[0] = named
        try:
            inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as e:
            raise RpcError(-32602, "Invalid params", f"{method}: {e}") from None
        try:
            return fn(*args, **kwargs)
        except RpcError:
            raise
        except SelectorError as e:  # the server's ErrorResolver: -32001, the Java class
            raise RpcError(CUSTOM_ERROR, e.java_class, str(e)) from None
        except (TypeError, ValueError) as e:
            raise RpcError(-32602, "Invalid params", f"{method}: {e}") from None
        except Exception as e:
            log.exception("virtual u2 server: %s%r failed", method, params)
            raise RpcError(-32000, "Server error", f"{method}: {e!r}") from None

    # --- JSON-RPC methods ----------------------------------------------------------------------
    def device_info(self) -> dict[str, Any]:
        with self.lock:
            props = dict(self.phone.properties)
            package = self._current_package()
        dpi, sdk = props.get("ro.sf.lcd_density", ""), props.get("ro.build.version.sdk", "")
        density = int(dpi) if dpi.isdigit() and int(dpi) > 0 else 420
        return {
            "currentPackageName": package, "displayWidth": T.SCREEN_W,
            "displayHeight": T.SCREEN_H, "displayRotation": 0,
            "displaySizeDpX": round(T.SCREEN_W * 160 / density),
            "displaySizeDpY": round(T.SCREEN_H * 160 / density),
            "naturalOrientation": True, "productName": props.get("ro.product.name", ""),
            "screenOn": self.phone.overlays.power.awake, "sdkInt": int(sdk) if sdk.isdigit() else 0,
        }

    def window_size(self) -> list[int]:
        return [T.SCREEN_W, T.SCREEN_H]

    def take_screenshot(self, scale: float = 1.0, quality: int = 100) -> str:
        """The screen as a base64 JPEG, ``scale``-d (0 < scale <= 1), ``quality`` 0..100."""
        scale, quality = _number(scale, "scale"), int(_number(quality, "quality"))
        if not 0 < scale <= 1:
            raise ValueError(f"scale must be in (0, 1], got {scale}")
        if not 0 <= quality <= 100:
            raise ValueError(f"quality must be in [0, 100], got {quality}")
        with self.lock:
            pixels = self.phone.screenshot()
        image = Image.fromarray(pixels)
        if scale != 1:
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            image = image.resize(size, Image.Resampling.BILINEAR)
        buf = BytesIO()
        image.save(buf, format="JPEG", quality=quality)
        return base64.b64encode(buf.getvalue()).decode("ascii")

    def dump_window_hierarchy(self, compressed: bool = False, maxDepth: int = 50,
                              rootInActive: bool | None = None) -> str:
        with self.lock:
            return self.phone.ui_xml()  # a lock screen's or a dialog's, if one covers the app

    def wake_up(self) -> None:
        """``UiDevice.wakeUp``: a ``KEYCODE_WAKEUP`` (``power``)."""
        with self.lock:
            self.phone.overlays.key(224)

    def sleep(self) -> None:
        """``UiDevice.sleep``: the power key if the screen is on (``InteractionController
        .sleepDevice``), else nothing."""
        with self.lock:
            overlays = self.phone.overlays
            overlays.tick()
            if overlays.power.awake:
                overlays.key(POWER_KEY)

    def is_screen_on(self) -> bool:
        with self.lock:
            self.phone.overlays.tick()
            return self.phone.overlays.power.awake

    def click(self, *args: Any) -> bool:
        """``click(x, y[, ms])`` (a long press from 500 ms) or ``click(selector[, corner])``."""
        if args and isinstance(args[0], dict):
            return self.click_object(*args)
        return self.click_point(*args)

    def click_point(self, x: float, y: float, duration_ms: float | None = None) -> bool:
        point = _point(x, y)
        if point is None:
            return False
        hold = duration_ms is not None and _number(duration_ms, "duration") >= LONG_PRESS_MS
        with self.lock:
            self._touch("long_press" if hold else "click", point)
        return True

    def swipe(self, *args: Any) -> bool:
        """``swipe(x1, y1, x2, y2, steps)`` or ``swipe(selector, dir[, percent], steps)``."""
        if args and isinstance(args[0], dict):
            return self.swipe_object(*args)
        return self.swipe_xy(*args)

    def swipe_xy(self, x1: float, y1: float, x2: float, y2: float, steps: int = 55) -> bool:
        start, end = _point(x1, y1), _point(x2, y2)
        steps = int(_number(steps, "steps"))
        if start is None or end is None or steps < 1:
            return False
        with self.lock:
            self._gesture(start, end, steps)
        return True

    def drag(self, x1: float, y1: float, x2: float, y2: float, steps: int) -> bool:
        """``UiDevice.drag``: a press, then a move (PhoneWorld drags like it swipes)."""
        return self.swipe_xy(x1, y1, x2, y2, steps)

    def swipe_points(self, segments: list[int], steps: int) -> bool:
        """``UiDevice.swipe(Point[], steps)``: from the first point to the last (PhoneWorld
        drags in straight lines)."""
        if not isinstance(segments, list) or len(segments) < 4 or len(segments) % 2:
            raise ValueError("segments must be x, y pairs, at least two points")
        x1, y1, x2, y2 = segments[0], segments[1], segments[-2], segments[-1]
        return self.swipe_xy(x1, y1, x2, y2,
                             int(_number(steps, "steps")) * (len(segments) // 2 - 1))

    def inject_input_event(self, action: int, x: float, y: float, meta: int = 0) -> bool:
        """``MotionEvent`` DOWN (0), MOVE (2) and UP (1): on UP the touch becomes a tap, a long
        press (held 500 ms) or a drag (moved past the touch slop)."""
        action = int(_number(action, "action"))
        point = _point(x, y)
        if action not in (0, 1, 2) or point is None:
            return False
        if action == 0:
            self._down = (point, point, time.monotonic())
            return True
        if self._down is None:
            return False
        start, _, t0 = self._down
        if action == 2:
            self._down = (start, point, t0)
            return True
        self._down = None
        with self.lock:
            if math.dist(start, point) > TOUCH_SLOP:
                self._touch("drag", start, point)
            else:
                held = (time.monotonic() - t0) * 1000 >= LONG_PRESS_MS
                self._touch("long_press" if held else "click", start)
        return True

    def press_key(self, key: str) -> bool:
        code = KEY_NAMES.get(str(key).strip().lower())
        return False if code is None else self.press_key_code(code)

    def press_key_code(self, code: int, meta: int = 0) -> bool:
        code = int(_number(code, "keyCode"))
        if code < 0:
            return False
        with self.lock:
            device = self.phone.device
            if self.phone.overlays.key(code):  # the screen is off, or a cover takes it
                pass
            elif code in KEY_BUTTONS:
                device.step(PhoneAction("press", button=KEY_BUTTONS[code]))
            elif code == 67:  # DEL: the soft keyboard's delete key, when there is a keyboard
                for placed in reversed(device.frame().items):
                    if placed.node.kind == "key" and placed.node.id == "key_delete":
                        x0, y0, x1, y1 = placed.rect
                        self._touch("click", ((x0 + x1) // 2, (y0 + y1) // 2))
                        break
            self._look()
        return True

    def wait_for_idle(self, timeout: int = 0) -> None:
        """The virtual phone is idle between calls."""

    def wait_for_window_update(self, package: str | None, timeout: int) -> bool:
        """True once the screen changes within ``timeout`` ms (False at once when ``package``
        is not the one shown, as ``UiDevice.waitForWindowUpdate``)."""
        with self.lock:
            if package is not None and package != self._current_package():
                return False
            version = self.phone.device.version
        return self._poll(lambda: self.phone.device.version != version, timeout)

    def open_notification(self) -> bool:
        """``openNotification`` and ``openQuickSettings``: PhoneWorld has one shade."""
        with self.lock:
            self.phone.device.set_shade(True)
        return True

    def freeze_rotation(self, freeze: bool = True) -> None:
        """The phone never rotates: frozen or not, it stays natural."""

    def set_orientation(self, direction: str) -> None:
        """``setOrientation``: natural (``n``) is where the phone always is; left and right
        fail (a PhoneWorld phone does not rotate); other words do nothing, as on the server."""
        way = str(direction).lower()
        if way in ("left", "l", "right", "r"):
            raise RpcError(CUSTOM_ERROR, "java.lang.UnsupportedOperationException",
                           f"setOrientation({direction}): PhoneWorld phones do not rotate")

    def get_last_toast(self) -> str | None:
        """The last toast seen (at the server's own actions and calls: the real server hears
        every toast from accessibility events, this one looks at the screen)."""
        with self.lock:
            self._look()
            return self._toast

    def clear_last_toast(self) -> None:
        with self.lock:
            self._look()
            self._toast = None

    def make_toast(self, text: str, duration: float = TOAST_MS) -> bool:
        """``makeToast(text, duration)``: a toast of ``text`` for ``duration`` ms (the APK
        server's ``AutomatorServiceImpl.makeToast`` shows ``ToastHelper.makeText(context,
        text, duration)``; the 0.4.1 jar that uiautomator2 3.7 pushes has no such method, and
        its ``d.toast.show`` then fails). Seen like any toast: ``getLastToast`` answers it."""
        with self.lock:
            device = self.phone.device
            device.toast(str(text))
            device.toast_until = device.system.now + timedelta(
                milliseconds=max(0.0, _number(duration, "duration")))
            device.invalidate()
            self._look()
            return True

    # --- clipboard and the focused field -------------------------------------------------------
    def set_clipboard(self, label: str | None, text: str | None) -> None:
        """``ClipboardManager.setPrimaryClip(ClipData.newPlainText(label, text))``."""
        with self.lock:
            self.phone.device.system.clipboard = "" if text is None else str(text)

    def get_clipboard(self) -> str | None:
        with self.lock:
            return self.phone.device.system.clipboard or None

    def paste_clipboard(self) -> None:
        """Ctrl+V: the focused field pastes the clipboard (over its selection), as uiautomator2's
        ``send_keys`` types without an input method. An empty clipboard pastes nothing; text
        that cannot be typed fails (see the module doc) and changes nothing."""
        with self.lock:
            device = self.phone.device
            text = device.system.clipboard
            if not text:
                return
            overlays = self.phone.overlays
            covered = overlays.focus()
            if overlays.key(0):  # a lock screen, the screen off or a dialog takes the keys
                where = covered[1] if covered is not None else "the sleeping screen"
                raise RpcError(CUSTOM_ERROR, PASTE_ERROR,
                               f"pasteClipboard: Ctrl+V went to {where}; nothing was typed")
            if self._focused() is None:
                raise RpcError(CUSTOM_ERROR, PASTE_ERROR,
                               "pasteClipboard: no text field has focus, nothing was typed "
                               "(click a text field first)")
            error = typing_error(text)
            if error is not None:
                raise RpcError(CUSTOM_ERROR, PASTE_ERROR, f"pasteClipboard: {error}")
            for start in range(0, len(text), MAX_TEXT_LENGTH):
                error = device.step(PhoneAction("type",
                                                text=text[start:start + MAX_TEXT_LENGTH]))
                if error is not None:
                    raise RpcError(CUSTOM_ERROR, PASTE_ERROR, f"pasteClipboard: {error}")
            self._look()

    def clear_input_text(self) -> None:
        """Ctrl+A then DEL: the focused field is emptied."""
        with self.lock:
            placed = self._focused()
            if placed is not None:
                self._set_field(placed, "")

    def launch_app(self, package: str) -> bool:
        """``launchApp``: the app's launch intent (False for a package without one)."""
        with self.lock:
            device = self.phone.device
            cls = device.apps.class_of(str(package))
            if cls is None or cls.package != package:
                return False
            self.phone.overlays.resolver.dismiss()  # the app's task comes over it
            device.open_app(cls.name)
            self._look()
        return True

    def execute_shell_command(self, command: str, timeout: int = 10_000) -> dict[str, Any]:
        """``Runtime.exec(command)`` as the shell user: the words are split at white space and
        no shell syntax is read (each word reaches the command as is)."""
        words = str(command).split()
        if not words:
            return {"stdout": "", "stderr": "Exception occurred: Empty command", "returnCode": -1}
        status, out, err = self.phone.shell(" ".join(shlex.quote(w) for w in words))
        return {"stdout": out.decode("utf-8", "replace"),
                "stderr": err.decode("utf-8", "replace"), "returnCode": status}

    # --- UI objects -----------------------------------------------------------------------------
    def exist(self, selector: dict[str, Any]) -> bool:
        with self.lock:
            return bool(self._find_all(selector))

    def obj_info(self, selector: dict[str, Any]) -> dict[str, Any]:
        """``ObjInfo`` of the first node found (``UiObjectNotFoundException`` without one)."""
        with self.lock:
            tree, found = self._must_find(selector)
            return _obj_info(tree.nodes[found[0]], is_by_selector(selector))

    def obj_info_of_all_instances(self, selector: dict[str, Any]) -> list[dict[str, Any]]:
        with self.lock:
            tree, found = self._resolve(selector)
            return [_obj_info(tree.nodes[n], False) for n in found]

    def count(self, selector: dict[str, Any]) -> int:
        with self.lock:
            return len(self._find_all(selector))

    def wait_for_exists(self, selector: dict[str, Any], timeout: int = 0) -> bool:
        self._resolve(selector)  # a bad selector fails at once
        return self._poll(lambda: self.exist(selector), timeout)

    def wait_until_gone(self, selector: dict[str, Any], timeout: int = 0) -> bool:
        self._resolve(selector)
        return self._poll(lambda: not self.exist(selector), timeout)

    def click_object(self, selector: dict[str, Any], corner: str | None = None) -> bool:
        """A tap at the center of the node's visible bounds (or near a corner: ``tl``/
        ``topleft``, ``br``/``bottomright``, ``c``/``center``)."""
        return self._press_object(selector, corner, "click")

    def long_click(self, selector: dict[str, Any], corner: str | None = None) -> bool:
        return self._press_object(selector, corner, "long_press")

    def _press_object(self, selector: dict[str, Any], corner: str | None, kind: str) -> bool:
        where = (corner or "center").lower()
        if where not in ("c", "center", "tl", "topleft", "br", "bottomright"):
            return False
        with self.lock:
            x0, y0, x1, y1 = self._bounds_of(selector)
            if where in ("tl", "topleft"):  # UiObject.clickTopLeft: 5 px inside the corner
                point = (x0 + 5, y0 + 5)
            elif where in ("br", "bottomright"):
                point = (x1 - 5, y1 - 5)
            else:
                point = ((x0 + x1) // 2, (y0 + y1) // 2)
            self._touch(kind, point)
        return True

    def get_text(self, selector: dict[str, Any]) -> str | None:
        """The node's text: null without one from a ``UiObject2``, "" from a ``UiObject``."""
        with self.lock:
            tree, found = self._must_find(selector)
            text = tree.nodes[found[0]].element.text
            return text or (None if is_by_selector(selector) else "")

    def set_text(self, selector: dict[str, Any], text: str | None) -> bool:
        """``setText``: with a ``UiObject2`` a tap on the node first (a field takes the focus),
        then ``ACTION_SET_TEXT``: an editable field's text becomes ``text``; anything else is
        left alone (false from a ``UiObject``, true from a ``UiObject2``)."""
        value = "" if text is None else str(text)
        by = is_by_selector(selector)
        with self.lock:
            tree, found = self._must_find(selector)
            node = tree.nodes[found[0]]
            if by:
                x0, y0, x1, y1 = node.bounds
                self._touch("click", ((x0 + x1) // 2, (y0 + y1) // 2))
                placed = self._focused() if node.element.editable else None
            else:
                placed = node.placed if node.element.editable else None
            if placed is None or placed.node.on_change is None:
                return by
            self._set_field(placed, value)
        return True

    def clear_text_field(self, selector: dict[str, Any]) -> None:
        """``UiObject2.clear``: ``ACTION_SET_TEXT`` with "" (no tap)."""
        with self.lock:
            tree, found = self._must_find(selector)
            node = tree.nodes[found[0]]
            if node.element.editable and node.placed.node.on_change is not None:
                self._set_field(node.placed, "")

    def swipe_object(self, selector: dict[str, Any], direction: str, *rest: Any) -> bool:
        """``swipe(selector, dir, steps)`` (``UiObject.swipeUp``...: edge to edge, 5%
        inside) or ``swipe(selector, dir, percent, steps)`` (``UiObject2.swipe``: ``percent``
        of the node, centered)."""
        if len(rest) not in (1, 2):
            raise TypeError("swipe(selector, dir[, percent], steps)")
        percent = _number(rest[0], "percent") if len(rest) == 2 else 0.9
        steps = int(_number(rest[-1], "steps"))
        way = str(direction).lower()[:1]
        if way not in "udlr" or not 0 <= percent <= 1:
            return False
        with self.lock:
            tree, found = self._must_find(selector)
            x0, y0, x1, y1 = tree.nodes[found[0]].bounds
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            dx, dy = int((x1 - x0 - 1) * percent / 2), int((y1 - y0 - 1) * percent / 2)
            start, end = {"u": ((cx, cy + dy), (cx, cy - dy)), "d": ((cx, cy - dy), (cx, cy + dy)),
                          "l": ((cx + dx, cy), (cx - dx, cy)),
                          "r": ((cx - dx, cy), (cx + dx, cy))}[way]
            self._gesture(start, end, max(1, steps))
        return True

    def drag_to(self, selector: dict[str, Any], *rest: Any) -> bool:
        """``dragTo(selector, x, y, steps)`` or ``dragTo(selector, destSelector, steps)``: from
        the node's center to the point (the other node's center)."""
        with self.lock:
            tree, found = self._must_find(selector)
            x0, y0, x1, y1 = tree.nodes[found[0]].bounds
            if len(rest) == 2 and isinstance(rest[0], dict):
                d0, e0, d1, e1 = self._bounds_of(rest[0])
                target = ((d0 + d1) // 2, (e0 + e1) // 2)
                steps = rest[1]
            elif len(rest) == 3:
                point = _point(rest[0], rest[1])
                if point is None:
                    return False
                target, steps = point, rest[2]
            else:
                raise TypeError("dragTo(selector, x, y, steps) or dragTo(selector, dest, steps)")
            self._gesture(((x0 + x1) // 2, (y0 + y1) // 2), target,
                          max(1, int(_number(steps, "steps"))))
        return True

    # --- named UiObjects (UiCollection, UiScrollable) -------------------------------------------
    def child_by_text(self, collection: dict[str, Any], child: dict[str, Any], text: str,
                      allow_scroll_search: bool | None = None) -> str:
        """``UiCollection.getChildByText``: the first ``child`` instance below ``collection``
        whose text, or a node's below it, equals ``text``; a scrollable collection (or
        ``allowScrollSearch``) first scrolls ``text`` into view (``UiScrollable``)."""
        return self._child_by(collection, child, "text", text, allow_scroll_search)

    def child_by_description(self, collection: dict[str, Any], child: dict[str, Any],
                             text: str, allow_scroll_search: bool | None = None) -> str:
        """``getChildByDescription``: as ``childByText`` with a description containing
        ``text``."""
        return self._child_by(collection, child, "descriptionContains", text,
                              allow_scroll_search)

    def child_by_instance(self, collection: dict[str, Any], child: dict[str, Any],
                          instance: int) -> str:
        """``getChildByInstance``: the ``instance``-th ``child`` below ``collection`` (found
        or not: the name stands for the pattern)."""
        if isinstance(instance, bool) or not isinstance(instance, int):
            raise ValueError(f"instance must be an int, got {instance!r}")
        self._resolve(collection)  # a bad selector fails at once
        return self._name(_nth_child(collection, child, instance))

    def get_ui_object(self, selector: dict[str, Any]) -> str:
        self._resolve(selector)
        return self._name(selector)

    def remove_ui_object(self, name: str) -> None:
        with self._guard:
            self._objects.pop(str(name), None)

    def get_ui_objects(self) -> list[str]:
        with self._guard:
            self._expire()
            return list(self._objects)

    def _child_by(self, collection: dict[str, Any], child: dict[str, Any], key: str,
                  text: str, scroll: bool | None) -> str:
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {text!r}")
        if scroll is None:  # the 3-argument call: UiScrollable if the collection scrolls
            scroll = self.exist(collection) and bool(self.obj_info(collection)["scrollable"])
        if scroll:
            self.scroll_to(collection, {"mask": MASKS[key], key: text})
        exact = key == "text"
        tree, rows = self._resolve(_with_child(collection, child))
        for k, n in enumerate(rows):  # getChildByInstance(child, k) is node n
            for m in (n, *tree.descendants(n)):
                e = tree.nodes[m].element
                if (e.text == text) if exact else (text in e.content_desc):
                    return self._name(_nth_child(collection, child, k))
        what = "text" if exact else "description"
        raise RpcError(CUSTOM_ERROR, NOT_FOUND, f'for {what}= "{text}"')

    def _name(self, selector: dict[str, Any]) -> str:
        """A new name for the UiObject of ``selector`` (``addUiObject``: a random UUID)."""
        name = str(uuid.uuid4())
        with self._guard:
            self._expire()
            self._objects[name] = (selector, time.monotonic())
        return name

    def _named(self, name: str) -> dict[str, Any] | None:
        with self._guard:
            self._expire()
            entry = self._objects.get(name)
        return entry[0] if entry is not None else None

    def _expire(self) -> None:
        """Forget the names older than a minute (the caller holds ``_guard``)."""
        now = time.monotonic()
        for name in [n for n, (_, made) in self._objects.items()
                     if now - made >= OBJECT_TTL_S]:
            del self._objects[name]

    # --- scrolling (UiScrollable) -----------------------------------------------------------------
    def scroll_forward(self, selector: dict[str, Any], vertical: bool = True,
                       steps: int = SCROLL_STEPS) -> bool:
        """A swipe across the node (10% in from its edges) that shows what follows: true if
        the screen moved, false at the end."""
        return self._scroll(selector, vertical, True, steps)

    def scroll_backward(self, selector: dict[str, Any], vertical: bool = True,
                        steps: int = SCROLL_STEPS) -> bool:
        return self._scroll(selector, vertical, False, steps)

    def fling_forward(self, selector: dict[str, Any], vertical: bool = True) -> bool:
        return self._scroll(selector, vertical, True, FLING_STEPS)

    def fling_backward(self, selector: dict[str, Any], vertical: bool = True) -> bool:
        return self._scroll(selector, vertical, False, FLING_STEPS)

    def scroll_to_beginning(self, selector: dict[str, Any], vertical: bool = True,
                            max_swipes: int = MAX_SWIPES, steps: int = SCROLL_STEPS) -> bool:
        for _ in range(max(0, int(_number(max_swipes, "maxSwipes")))):
            if not self._scroll(selector, vertical, False, steps):
                break
        return True

    def scroll_to_end(self, selector: dict[str, Any], vertical: bool = True,
                      max_swipes: int = MAX_SWIPES, steps: int = SCROLL_STEPS) -> bool:
        for _ in range(max(0, int(_number(max_swipes, "maxSwipes")))):
            if not self._scroll(selector, vertical, True, steps):
                break
        return True

    def fling_to_beginning(self, selector: dict[str, Any], vertical: bool = True,
                           max_swipes: int = MAX_SWIPES) -> bool:
        return self.scroll_to_beginning(selector, vertical, max_swipes, FLING_STEPS)

    def fling_to_end(self, selector: dict[str, Any], vertical: bool = True,
                     max_swipes: int = MAX_SWIPES) -> bool:
        return self.scroll_to_end(selector, vertical, max_swipes, FLING_STEPS)

    def scroll_to(self, selector: dict[str, Any], target: dict[str, Any],
                  vertical: bool = True) -> bool:
        """``UiScrollable.scrollIntoView``: true once a node below the scrollable matches
        ``target``, scrolling to the beginning and then forward (30 swipes at most)."""
        inside = _with_child(selector, target)
        if self.exist(inside):
            return True
        self.scroll_to_beginning(selector, vertical)
        if self.exist(inside):
            return True
        for _ in range(MAX_SWIPES):
            moved = self._scroll(selector, vertical, True, SCROLL_STEPS)
            if self.exist(inside):
                return True
            if not moved:
                return False
        return False

    def _scroll(self, selector: dict[str, Any], vertical: Any, forward: bool,
                steps: Any) -> bool:
        steps = max(1, int(_number(steps, "steps")))
        with self.lock:
            tree, found = self._must_find(selector)
            x0, y0, x1, y1 = tree.nodes[found[0]].bounds
            device = self.phone.device
            before = to_xml(device.frame())
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            if vertical:
                pad = (y1 - y0) // 10
                near, far = (cx, y1 - 1 - pad), (cx, y0 + pad)
            else:
                pad = (x1 - x0) // 10
                near, far = (x1 - 1 - pad, cy), (x0 + pad, cy)
            self._gesture(near, far, steps) if forward else self._gesture(far, near, steps)
            return to_xml(device.frame()) != before

    # --- helpers -------------------------------------------------------------------------------
    def _resolve(self, selector: Any) -> tuple[Tree, list[int]]:
        with self.lock:
            tree = Tree(self.phone.device.frame())
            return tree, resolve(tree, selector)

    def _find_all(self, selector: Any) -> list[int]:
        return self._resolve(selector)[1]

    def _must_find(self, selector: Any) -> tuple[Tree, list[int]]:
        tree, found = self._resolve(selector)
        if not found:
            raise RpcError(CUSTOM_ERROR, NOT_FOUND, describe(selector))
        return tree, found

    def _bounds_of(self, selector: Any) -> tuple[int, int, int, int]:
        tree, found = self._must_find(selector)
        return tree.nodes[found[0]].bounds

    def _poll(self, done: Callable[[], bool], timeout_ms: Any) -> bool:
        """Whether ``done()`` holds within ``timeout_ms`` (checked at once, then every 50 ms;
        the phone's lock is free in between, for other clients to act)."""
        deadline = time.monotonic() + max(0.0, _number(timeout_ms, "timeout")) / 1000
        while True:
            if done():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL_S, left))

    def _focused(self) -> Placed | None:
        """The focused text field on screen (the caller holds the lock)."""
        for placed in self.phone.device.frame().items:
            if placed.focused and placed.node.kind == "text_field":
                return placed
        return None

    def _set_field(self, placed: Placed, text: str) -> None:
        """``ACTION_SET_TEXT`` on a field: its app takes the new text (the caller holds the
        lock)."""
        if placed.node.on_change is not None:
            placed.node.on_change(text)
            self.phone.device.invalidate()
        self._look()

    def _look(self) -> None:
        """Note a toast that appeared (what ``getLastToast`` answers)."""
        shown = self.phone.device.toast_text
        if shown and shown != self._seen:
            self._toast = shown
        self._seen = shown

    def _current_package(self) -> str:
        device = self.phone.device
        if device.shade_open:
            return SYSTEMUI_PACKAGE
        app = device.current_app
        return app.package if app is not None else LAUNCHER_PACKAGE

    def _gesture(self, start: tuple[int, int], end: tuple[int, int], steps: int) -> None:
        """A swipe of ``steps`` (5 ms each) from ``start`` to ``end``: a tap or a long press
        within the touch slop, else a drag (the caller holds the lock)."""
        if math.dist(start, end) <= TOUCH_SLOP:
            self._touch("long_press" if steps * STEP_MS >= LONG_PRESS_MS else "click", start)
        else:
            self._touch("drag", start, end)

    def _touch(self, kind: str, px: tuple[int, int], px2: tuple[int, int] | None = None) -> None:
        """A pointer action at screen pixels (the action's coordinates only say the same in
        [0, 1000]), unless the system takes it (``overlays``); the caller holds the lock."""
        if self.phone.overlays.touch(px, px2 if kind == "drag" else None):
            self._look()
            return
        nx, ny = _norm(px)
        if kind == "drag":
            assert px2 is not None
            nx2, ny2 = _norm(px2)
            action = PhoneAction("drag", x=nx, y=ny, x2=nx2, y2=ny2)
            self.phone.device.step(action, px=px, px2=px2)
        else:
            self.phone.device.step(PhoneAction(kind, x=nx, y=ny), px=px)
        self._look()


def attach_u2(phone: VirtualPhone, *, running: bool = False,
              port: int = DEFAULT_PORT) -> VirtualPhone:
    """Give ``phone`` a uiautomator2 server (``phone.u2``, a ``U2Server``) and return it.

    Sets ``open_port``/``open_shell`` on the instance (chaining to any it had) and a ``lock``
    if it had none (attach before plugging it into a ``VirtualAdbServer``). ``running``
    starts the server on ``port`` at once; otherwise ``uiautomator2.connect`` launches it.
    """
    server = getattr(phone, "u2", None)
    if not isinstance(server, U2Server):
        lock = getattr(phone, "lock", None)
        if not (hasattr(lock, "acquire") and hasattr(lock, "__enter__")):
            lock = threading.RLock()
            phone.lock = lock  # type: ignore[attr-defined]
        server = U2Server(phone, lock)
        old_port: Callable[[int], Handler | None] | None = getattr(phone, "open_port", None)
        old_shell: Callable[[str], Handler | None] | None = getattr(phone, "open_shell", None)

        def open_port(p: int) -> Handler | None:
            return server.open_port(p) or (old_port(p) if old_port is not None else None)

        def open_shell(command: str) -> Handler | None:
            handler = server.open_shell(command)
            if handler is None and old_shell is not None:
                handler = old_shell(command)
            return handler

        phone.open_port = open_port  # type: ignore[attr-defined]
        phone.open_shell = open_shell  # type: ignore[attr-defined]
        phone.u2 = server  # type: ignore[attr-defined]
    if running:
        server.start(port)
    return phone


def parse_launch(command: str) -> tuple[str, int | None] | None:
    """``(CLASSPATH, port)`` if ``command`` launches the u2 server with ``app_process`` (port
    None: a bad ``-p``), else None."""
    if _SHELL_SYNTAX.search(command):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if not words or words[0].rsplit("/", 1)[-1] not in ("app_process", "app_process64"):
        return None
    rest = words[1:]
    while rest and rest[0].startswith("-"):  # VM options
        rest.pop(0)
    rest = rest[1:]  # the command directory
    while rest and rest[0].startswith("--"):  # app_process options
        rest.pop(0)
    if not rest or rest[0] != MAIN_CLASS:
        return None
    args = rest[1:]
    port: int | None = DEFAULT_PORT
    for i, arg in enumerate(args):
        if arg in ("-p", "--port"):
            value = args[i + 1] if i + 1 < len(args) else ""
            port = int(value) if value.isdigit() and 0 < int(value) < 65536 else None
    return env.get("CLASSPATH", ""), port


def _obj_info(node: Node, by: bool) -> dict[str, Any]:
    """``ObjInfo`` as Jackson writes it: from a ``UiObject2`` (``by``) a missing text or
    description is null and ``resourceName`` is set; from a ``UiObject`` they are "" and
    ``resourceName`` is null (``stub/ObjInfo.java``)."""
    e = node.element
    x0, y0, x1, y1 = node.bounds
    rect = {"top": y0, "bottom": y1, "left": x0, "right": x1}
    blank = None if by else ""
    return {
        "bounds": rect, "visibleBounds": dict(rect), "childCount": len(node.children),
        "className": e.class_name, "contentDescription": e.content_desc or blank,
        "packageName": e.package, "text": e.text or blank, "checkable": e.checkable,
        "checked": e.checked, "clickable": e.clickable, "enabled": e.enabled,
        "focusable": node.focusable, "focused": e.focused, "longClickable": e.long_clickable,
        "scrollable": e.scrollable, "selected": e.selected,
        "resourceName": (e.resource_id or None) if by else None,
    }


def _with_child(selector: Any, child: Any) -> Any:
    """``selector`` with ``child`` appended to its chain (``UiSelector.childSelector``)."""
    if not isinstance(selector, dict):
        return selector
    out = dict(selector)
    out["childOrSibling"] = [*(selector.get("childOrSibling") or []), "child"]
    out["childOrSiblingSelector"] = [*(selector.get("childOrSiblingSelector") or []), child]
    return out


def _nth_child(collection: Any, child: Any, instance: int) -> Any:
    """``UiSelector.patternBuilder(collection, patternBuilder(child).instance(n))``: the n-th
    node below ``collection`` that matches ``child``."""
    pattern = dict(child) if isinstance(child, dict) else child
    if isinstance(pattern, dict):
        mask = pattern.get("mask", 0)
        pattern["mask"] = (mask if isinstance(mask, int) else 0) | MASKS["instance"]
        pattern["instance"] = instance
    return _with_child(collection, pattern)


def _print(text: str) -> Handler:
    """A command that prints ``text`` and exits."""
    return lambda sock: sock.sendall(text.encode())


def _wait_closed(sock: Any, stop: threading.Event) -> None:
    """Until the client closes ``sock`` (stdin is discarded) or ``stop`` is set."""
    while not stop.is_set():
        readable, _, _ = select.select([sock], [], [], _POLL)
        if readable and not sock.recv(4096):
            return


def _read_request(sock: socket.socket, buf: bytearray, stop: threading.Event, idle: float,
                  ) -> tuple[str, str, dict[str, str], bytes, bool] | None:
    """One HTTP/1.x request: method, path, headers (lower-case names), body, keep-alive;
    None when the client closes, goes idle, sends junk or the server stops."""

    def fill(need: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + idle
        while not need():
            if stop.is_set() or time.monotonic() > deadline:
                return False
            readable, _, _ = select.select([sock], [], [], _POLL)
            if readable:
                _quick_ack(sock)
                chunk = sock.recv(65536)
                if not chunk:
                    return False
                buf.extend(chunk)
                deadline = time.monotonic() + idle
        return True

    if not fill(lambda: b"\r\n\r\n" in buf or len(buf) > _MAX_HEAD):
        return None
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buf[:end]).decode("latin-1").split("\r\n")
    del buf[:end + 4]
    parts = lines[0].split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        return None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return None
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        return None
    if not 0 <= length <= _MAX_BODY or not fill(lambda: len(buf) >= length):
        return None
    body = bytes(buf[:length])
    del buf[:length]
    connection = headers.get("connection", "").lower()
    keep = connection != "close" if parts[2] == "HTTP/1.1" else connection == "keep-alive"
    return parts[0].upper(), parts[1], headers, body, keep


def _quick_ack(sock: socket.socket) -> None:
    """Acknowledge at once (Linux): http.client sends a request's headers and body in two
    writes, so a delayed ACK of the first would hold the second back by ~40 ms (Nagle)."""
    if _TCP_QUICKACK is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, _TCP_QUICKACK, 1)


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


def _point(x: Any, y: Any) -> tuple[int, int] | None:
    """Screen pixels (floats truncated, as Jackson does), or None when off screen."""
    px, py = int(_number(x, "x")), int(_number(y, "y"))
    return (px, py) if 0 <= px < T.SCREEN_W and 0 <= py < T.SCREEN_H else None


def _norm(px: tuple[int, int]) -> tuple[int, int]:
    return px[0] * 1000 // T.SCREEN_W, px[1] * 1000 // T.SCREEN_H

