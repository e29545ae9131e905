"""Backends: the ``Backend`` protocol over adbutils (``AdbBackend``) and uiautomator2
(``U2Backend``).

Every call has a timeout, and every failure (adb server gone, phone unplugged, a reply that
is not adb protocol) becomes a ``DeviceError`` that names the phone and what to check. The
adb backend never starts an adb server by itself after it has connected once, so a dropped
server is reported instead of hidden behind a 20-second ``adb start-server``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import shlex
import socket
import struct
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from PIL import Image, UnidentifiedImageError

from .base import Backend, DeviceError, ShellResult

T = TypeVar("T")

#: Where UI dumps go: the shell's own folder, not shared storage (uiautomator's default,
#: ``/sdcard/window_dump.xml``, is a file that the snapshots of a task watching shared storage
#: would see change). Each dump gets a fresh file there (``fresh_dump_path``), removed after.
DUMP_DIR = "/data/local/tmp"
#: How long one ``uiautomator dump`` may take (seconds), apart from the per-call ``timeout``:
#: AOSP ``DumpCommand`` (cmds/uiautomator) first waits for the UI to be idle,
#: ``UiAutomation.waitForIdle(1000, 1000 * 10)`` (up to 10 s on an animated screen), then
#: dumps; with the start of its ``app_process`` that is more than the default 10 s.
DUMP_TIMEOUT = 20.0
#: How many times a dump is tried before ``DeviceError``.
DUMP_ATTEMPTS = 3
#: What ``DumpCommand`` prints to stderr when the UI never went idle (it then exits 0 and
#: writes no file: ``uiautomator dump FILE && cat FILE`` would read an older dump).
IDLE_ERROR = "ERROR: could not get idle state."
#: What ``DumpCommand`` prints once the file is written (AOSP's spelling).
DUMPED = "UI hierchary dumped to:"
#: The PNG signature (RFC 2083, 3.1): where ``screencap -p``'s image starts.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: ``screencap`` without ``-p`` (AOSP ``frameworks/base/cmds/screencap/screencap.cpp``)
#: writes a header of little-endian 32-bit words, width, height and pixel format (12
#: bytes), to which newer releases add the colour space (``dataSpaceToInt``: 0 unknown, 1
#: sRGB, 2 Display P3; 16 bytes), then the rows of pixels, unpadded. The header sizes, the
#: longer first.
RAW_HEADERS = (16, 12)
#: The pixel formats ``screencap`` writes that are read here (AOSP ``ui/PixelFormat.h``,
#: ``system/graphics.h``): format -> (bytes per pixel, Pillow's raw mode into RGB).
RAW_FORMATS: dict[int, tuple[int, str]] = {
    1: (4, "RGBX"),  # PIXEL_FORMAT_RGBA_8888 (the alpha byte is dropped)
    2: (4, "RGBX"),  # PIXEL_FORMAT_RGBX_8888
    3: (3, "RGB"),   # PIXEL_FORMAT_RGB_888
    5: (4, "BGRX"),  # PIXEL_FORMAT_BGRA_8888
}
#: How far into a raw capture its header may start: AOSP ``screencap`` prints a warning
#: (three lines) first when a phone has several displays and no ``-d`` was given, and
#: ``adb shell`` puts stderr in the same stream (see ``png_of``).
RAW_PREFIX_LIMIT = 1024
_DUMP_IDS = itertools.count(1)
#: What a failed adb call can raise, besides adbutils' own errors.
_IO_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, struct.error, ValueError, UnicodeDecodeError, AssertionError,
)


def _adbutils() -> Any:
    try:
        import adbutils
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            "the adb backend needs adbutils: pip install 'phone-gym[real]'") from exc
    return adbutils


def _direct_client(adbutils: Any, host: str, port: int, timeout: float) -> Any:
    """An ``AdbClient`` whose connections fail fast instead of running ``adb start-server``."""
    from adbutils._adb import AdbConnection

    class _Connection(AdbConnection):  # type: ignore[misc]
        def _safe_connect(self) -> socket.socket:
            return self._create_socket()

        def close(self) -> None:  # adbutils sleeps 10 ms here; shutting down is enough
            # (the socket lives in AdbConnection's private ``__conn``)
            if self.closed:
                return
            sock = self.conn
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_WR)
            sock.close()
            self._AdbConnection__conn = None

    class _Client(adbutils.AdbClient):  # type: ignore[misc, name-defined]
        _version: int | None = None

        def make_connection(self, timeout: float | None = None) -> Any:
            conn = _Connection(self.host, self.port)
            conn.conn.settimeout(timeout or self._timeout)
            return conn

        def server_version(self) -> int:  # asked before every device call: ask once
            if self._version is None:
                self._version = super().server_version()
            return self._version

    client = _Client(host=host, port=port, socket_timeout=timeout)
    client._timeout = timeout
    return client


class AdbBackend:
    """A phone over adb, through an adb server at ``host:port`` (adbutils).

    ``serial`` None picks the only attached phone. ``timeout`` bounds every socket read of
    every call, except UI dumps: ``dump_timeout`` (default ``DUMP_TIMEOUT``) bounds each
    try of those. ``start_server=True`` lets adbutils start a local adb server once, at
    construction, if none listens (never afterwards).
    """

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                 timeout: float = 10.0, start_server: bool = False,
                 dump_timeout: float = DUMP_TIMEOUT) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout={timeout!r}; accepted: seconds > 0")
        if dump_timeout <= 0:
            raise ValueError(f"dump_timeout={dump_timeout!r}; accepted: seconds > 0")
        adbutils = _adbutils()
        self._adbutils = adbutils
        self.host, self.port, self.timeout = host, port, float(timeout)
        #: The time limit of one UI dump (see ``DUMP_TIMEOUT``), at least ``timeout``.
        self.dump_timeout = max(float(dump_timeout), self.timeout)
        self._errors: tuple[type[BaseException], ...] = (adbutils.AdbError, *_IO_ERRORS)
        if start_server:
            self._call("connect to the adb server",
                       lambda: adbutils.AdbClient(host=host, port=port).server_version())
        self.client = _direct_client(adbutils, host, port, self.timeout)
        self.serial = serial or self._only_device()
        self._device = self.client.device(self.serial)
        self._v2: bool | None = None
        self._size: tuple[int, int] | None = None
        #: Whether ``screencap`` without ``-p`` gives raw frames (None: not tried yet).
        self.raw_frames: bool | None = None
        #: The physical display ``screenshot`` captures (``screencap -d``; None: the
        #: phone's only one). ``RealPhoneEnv`` sets it from ``frames.choose_display``.
        self.display: str | None = None
        #: The size each ``shell_bytes`` command's output had last time (``read_all``).
        self._output_sizes: dict[str, int] = {}

    def _where(self) -> str:
        return f"adb server {self.host}:{self.port}"

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except self._errors as exc:
            name = getattr(self, "serial", None) or "phone"
            raise DeviceError(
                f"{what} on {name} via {self._where()} failed: {type(exc).__name__}: {exc}. "
                "Check that the phone is plugged in and listed by `adb devices`, or that "
                "the virtual device (`phone-gym virtual-device`) is running."
            ) from exc

    def _only_device(self) -> str:
        infos = self._call("list devices", lambda: self.client.list())
        ready = [i.serial for i in infos if i.state == "device"]
        if len(ready) != 1:
            listed = ", ".join(f"{i.serial} ({i.state})" for i in infos) or "none"
            raise DeviceError(
                f"pass serial=...: expected exactly one attached phone at {self._where()}, "
                f"found {listed}")
        return str(ready[0])

    # --- Backend ---------------------------------------------------------------------------
    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        limit = self.timeout if timeout is None else timeout
        if self._v2 is None:
            features = self._call("read features", self._device.get_features)
            self._v2 = "shell_v2" in features.split(",")
        result = self._call(f"shell {command[:60]!r}", lambda: self._device.shell2(
            command, timeout=limit, v2=bool(self._v2)))
        return ShellResult(int(result.returncode), str(result.output),
                           str(result.stdout) if self._v2 else None)

    def shell_bytes(self, command: str, timeout: float | None = None) -> bytes | bytearray:
        """Raw output of ``command`` (for binary output such as ``screencap``), as ``adb
        exec-out`` reads it: the ``exec:`` service (AOSP adb ``client/commandline.cpp``),
        read in large chunks (adbutils' ``read_until_close`` grows one bytes object 4 KiB
        at a time, which is quadratic in a 10 MB raw frame), into one buffer the size the
        same command's output had last time (``read_all``: a frame is read without a
        joining copy)."""
        limit = self.timeout if timeout is None else timeout

        def run() -> bytes | bytearray:
            conn = self._device.open_transport(timeout=limit)
            try:
                conn.send_command("exec:" + command)
                conn.check_okay()
                data = read_all(conn.conn, size_hint=self._output_sizes.get(command, 0))
            finally:
                conn.close()
            if len(self._output_sizes) >= 16:
                self._output_sizes.clear()
            self._output_sizes[command] = len(data)
            return data
        return self._call(f"exec-out {command[:60]!r}", run)

    def pull(self, path: str) -> bytes | None:
        def read() -> bytes | None:
            if self._device.sync.stat(path).mtime is None:
                return None
            return bytes(self._device.sync.read_bytes(path))
        return self._call(f"pull {path}", read)

    def push(self, data: bytes, path: str) -> None:
        self._call(f"push {path}", lambda: self._device.sync.push(data, path, mode=0o644))

    def list_dir(self, path: str) -> list[str]:
        def names() -> list[str]:
            return [e.path for e in self._device.sync.list(path)
                    if e.mode & 0o170000 == 0o100000]
        return self._call(f"list {path}", names)

    def screenshot(self) -> Image.Image:
        """``screencap`` raw (``-d DISPLAY`` when ``display`` is set; see ``raw_image``),
        which spares the phone a PNG encoding and this side a decoding; a phone whose
        output is not raw is asked for ``screencap -p`` from then on (see ``capture``)."""
        return capture(self, self.display)

    def frame(self) -> Image.Image:
        """``screenshot`` without the conversion to RGB: a raw RGBA/RGBX frame is an
        ``"RGBX"`` image over the bytes received (``raw_frame``), for a caller that
        reduces or samples it first (``RealPhoneEnv``)."""
        return capture(self, self.display, rgb=False)

    def dump_ui(self) -> str:
        """``uiautomator dump`` to a fresh file, checked, read and removed (``shell_dump``)."""
        return shell_dump(self, self.dump_timeout)

    def window_size(self) -> tuple[int, int]:
        """The screen's size as it is turned now (see ``ROTATION_COMMAND``); the natural
        size (``wm size``) is read once, the rotation every time."""
        return turned_size(self.natural_size(), self.shell(ROTATION_COMMAND).output)

    def natural_size(self) -> tuple[int, int]:
        """The screen's size unturned (``wm size``, read once)."""
        if self._size is None:
            self._size = parse_wm_size(self.shell("wm size").output)
        return self._size


#: Reads how the screen is turned: ``dumpsys window displays`` prints each display's
#: ``DisplayContent`` (AOSP ``DisplayContent.dump``: ``cur=WxH``, the size as turned, and
#: ``DisplayRotation.dump``: ``mRotation=N``, or ``mCurrentRotation=ROTATION_N`` on some
#: versions). ``wm size`` prints the natural size whatever the rotation, but ``input tap``
#: takes coordinates on the turned screen.
ROTATION_COMMAND = "dumpsys window displays"
_ROTATION = re.compile(r"\bm(?:Current)?Rotation=(?:ROTATION_)?(0|90|180|270|[0-3])\b")
_CUR_SIZE = re.compile(r"\bcur=(\d+)x(\d+)\b")


def turned_size(natural: tuple[int, int], output: str) -> tuple[int, int]:
    """The natural ``(width, height)`` as ``ROTATION_COMMAND``'s output says the first
    display is turned: by its rotation (a quarter or three quarters: width and height
    swap), else by the orientation of its ``cur=WxH``; unchanged when it says neither."""
    width, height = natural
    found = _ROTATION.search(output)
    if found:
        value = int(found.group(1))
        quarter_turns = value // 90 if value >= 90 else value
        return (height, width) if quarter_turns % 2 else (width, height)
    cur = _CUR_SIZE.search(output)
    if cur is not None and (int(cur.group(1)) > int(cur.group(2))) != (width > height):
        return height, width
    return width, height


def read_all(sock: socket.socket, chunk: int = 1 << 20,
             size_hint: int = 0) -> bytes | bytearray:
    """Everything ``sock`` sends until it closes, read ``chunk`` bytes at a time; with a
    ``size_hint`` (the size expected), read into one buffer of that size (``recv_into``),
    then whatever follows: the same bytes, without a copy to join the chunks."""
    if size_hint <= 0:
        parts: list[bytes] = []
        while True:
            part = sock.recv(chunk)
            if not part:
                return b"".join(parts)
            parts.append(part)
    buf = bytearray(size_hint)
    with memoryview(buf) as view:
        got = 0
        while got < size_hint:
            n = sock.recv_into(view[got:])
            if not n:
                break
            got += n
    if got < size_hint:
        del buf[got:]
        return buf
    rest = read_all(sock, chunk)
    if rest:
        buf += rest
    return buf


def screencap_command(display: str | None, png: bool = True) -> str:
    """``screencap -p`` (``png=False``: ``screencap``, raw), of the physical display
    ``display`` when given (digits only)."""
    command = "screencap -p" if png else "screencap"
    if display is None:
        return command
    if not display.isdigit():
        raise ValueError(f"display={display!r}; accepted: a physical display id (digits)")
    return f"{command} -d {display}"


def capture(backend: Any, display: str | None, rgb: bool = True) -> Image.Image:
    """The screen of ``backend`` (an ``AdbBackend`` or ``LocalBackend``: ``shell_bytes``,
    ``serial`` and a ``raw_frames`` flag) as an RGB image (``rgb=False``: a raw RGBA/RGBX
    frame stays an ``"RGBX"`` image over the received bytes, ``raw_frame``): raw
    ``screencap`` while the phone gives raw frames, else ``screencap -p``. The first
    capture that is not raw (a phone or a shell wrapper that only makes PNGs) turns
    ``raw_frames`` off."""
    if backend.raw_frames is not False:
        data = backend.shell_bytes(screencap_command(display, png=False))
        try:
            image = raw_image(data) if rgb else raw_frame(data)
        except ValueError:
            if backend.raw_frames:  # raw frames before: this one is broken, not PNG-only
                raise DeviceError(f"screencap on {backend.serial} returned a broken raw "
                                  f"frame ({len(data)} bytes: {data[:40]!r})") from None
            backend.raw_frames = False
        else:
            backend.raw_frames = True
            return image
    return png_image(backend.shell_bytes(screencap_command(display)), backend.serial)


def raw_layout(data: bytes | bytearray | memoryview) -> tuple[int, int, int, int, int]:
    """Where the image of raw ``screencap`` output ``data`` lies: ``(offset of the pixels,
    width, height, bytes per pixel, format)``. The header (``RAW_HEADERS``) may follow a
    warning of up to ``RAW_PREFIX_LIMIT`` bytes; its size is the one
    for which the pixels fill the rest exactly. ``ValueError`` when no header fits."""
    view = memoryview(data)
    head = bytes(view[:RAW_PREFIX_LIMIT])
    for start in _line_starts(head):
        if len(view) - start < 12:
            break
        width, height, fmt = struct.unpack_from("<3I", view, start)
        if fmt not in RAW_FORMATS or not width or not height:
            continue
        size = width * height * RAW_FORMATS[fmt][0]
        for header in RAW_HEADERS:
            if len(view) - start - header == size:
                return start + header, width, height, RAW_FORMATS[fmt][0], fmt
    words = struct.unpack_from("<3I", view) if len(view) >= 12 else ()
    raise ValueError(
        f"not a raw screencap image ({len(view)} bytes, first words {words}): accepted a "
        f"{' or '.join(map(str, RAW_HEADERS))}-byte header of little-endian width, height, "
        f"format ({', '.join(map(str, RAW_FORMATS))}) [and colour space], then exactly "
        f"width x height pixels")


def _line_starts(head: bytes) -> Iterator[int]:
    """0, then where each line of ``head`` after the first begins (looked for lazily)."""
    yield 0
    at = head.find(b"\n")
    while at >= 0:
        yield at + 1
        at = head.find(b"\n", at + 1)


def raw_image(data: bytes | bytearray | memoryview) -> Image.Image:
    """Raw ``screencap`` output (``raw_layout``) as an RGB image; ``ValueError`` when it is
    not raw."""
    offset, width, height, _, fmt = raw_layout(data)
    return Image.frombytes("RGB", (width, height), memoryview(data)[offset:], "raw",
                           RAW_FORMATS[fmt][1])


def raw_frame(data: bytes | bytearray) -> Image.Image:
    """Raw ``screencap`` output as ``raw_image`` reads it, but unconverted where it can be:
    RGBA_8888 and RGBX_8888 frames become an ``"RGBX"`` image that shares ``data``'s
    memory (``Image.frombuffer``: no copy; the alpha byte is ignored as ``raw_image``
    drops it); other formats an RGB image (``raw_image``). ``ValueError`` when not raw."""
    offset, width, height, _, fmt = raw_layout(data)
    if RAW_FORMATS[fmt][1] != "RGBX":
        return raw_image(data)
    pixels = np.frombuffer(data, np.uint8, width * height * 4, offset)  # a view, no copy
    return Image.frombuffer("RGBX", (width, height), pixels, "raw", "RGBX", 0, 1)


def shell_dump(backend: Backend, timeout: float) -> str:
    """``uiautomator dump`` to a fresh file, checked, read and removed in one shell command
    line (see ``checked_dump``); tried ``DUMP_ATTEMPTS`` times, each within ``timeout``."""
    output = ""
    for _ in range(DUMP_ATTEMPTS):
        path = shlex.quote(fresh_dump_path())
        output = backend.shell(f"uiautomator dump {path} && cat {path}; rm -f {path}",
                               timeout=timeout).output
        xml = checked_dump(output)
        if xml is not None:
            return xml
    raise DeviceError(f"uiautomator dump on {backend.serial} failed {DUMP_ATTEMPTS} times: "
                      f"{output[:200]!r}")


def fresh_dump_path() -> str:
    """A file name no other dump used: this process, a counter and a random part."""
    return (f"{DUMP_DIR}/phone_gym_{os.getpid()}_{next(_DUMP_IDS)}_"
            f"{uuid.uuid4().hex[:8]}.xml")


def checked_dump(output: str) -> str | None:
    """The hierarchy XML in the output of ``uiautomator dump FILE`` then ``cat FILE``, or
    None when the dump failed: the idle error (``IDLE_ERROR``), no ``DUMPED`` line, or no
    whole ``<hierarchy>`` after it."""
    if IDLE_ERROR in output or DUMPED not in output:
        return None
    rest = output[output.index(DUMPED):]
    start, end = rest.find("<?xml"), rest.rfind("</hierarchy>")
    if start < 0 or end < start:
        return None
    return rest[start:end + len("</hierarchy>")]


def png_of(data: bytes | bytearray) -> bytes | bytearray:
    """``screencap -p``'s output from the PNG signature on: with several displays
    (foldables) and no ``-d``, AOSP ``cmds/screencap/screencap.cpp`` first prints "[Warning]
    Multiple displays were found, but no display id was specified! ..." (three lines, on
    stderr, which ``adb shell``/``exec-out`` put in the same stream)."""
    start = data.find(PNG_SIGNATURE)
    return data[start:] if start > 0 else data


def png_image(data: bytes | bytearray, serial: str) -> Image.Image:
    """``screencap -p``'s output as an RGB image, or ``DeviceError``."""
    try:
        return Image.open(io.BytesIO(png_of(data))).convert("RGB")
    except (UnidentifiedImageError, OSError) as exc:
        raise DeviceError(f"screencap on {serial} returned no PNG "
                          f"({len(data)} bytes: {data[:40]!r})") from exc


#: Asks the window manager what is in front: AOSP ``DisplayContent.dump`` prints
#: ``mCurrentFocus=Window{HASH uUSER PACKAGE/ACTIVITY}`` (the window with input focus) and
#: ``mFocusedApp=ActivityRecord{HASH uUSER PACKAGE/.ACTIVITY tTASK}`` (the focused app).
FOCUS_COMMAND = "dumpsys window displays"
_FOCUS = re.compile(r"\bmCurrentFocus=Window\{\S+ u\d+ ([\w.]+)/")
_FOCUSED_APP = re.compile(r"\bmFocusedApp=\S*\{\S+ u\d+ ([\w.]+)/")
_FIRST_PACKAGE = re.compile(r'<node [^>]*?package="([^"]*)"')


def parse_focus(output: str) -> str | None:
    """The package in front from ``FOCUS_COMMAND``'s output: the focused window's, or, when
    that is a system window without a package (``NotificationShade``, ``StatusBar``) or
    none, the focused app's; None when the output names neither."""
    found = _FOCUS.search(output) or _FOCUSED_APP.search(output)
    return found.group(1) if found else None


def foreground_package(backend: Backend, xml: str = "") -> str:
    """The app in front, as the window manager says (``FOCUS_COMMAND``). A UI dump's first
    node is not it: uiautomator2 dumps every window (``UiDevice.getWindowRoots``, the
    status bar's often first). Only when the window manager names none (between two
    activities) is it the first node's package of ``xml``, or ''."""
    return focus_or_first_node(backend.shell(FOCUS_COMMAND).output, xml)


def focus_or_first_node(output: str, xml: str = "") -> str:
    """``parse_focus`` of ``output``, else the first node's package of ``xml``, else ''."""
    package = parse_focus(output)
    if package is None:
        found = _FIRST_PACKAGE.search(xml)
        package = found.group(1) if found else ""
    return package


#: ``adb connect HOST:PORT`` names a phone reached over the network by that address
#: (AOSP adb ``socket_spec``/``parse_tcp_socket_spec``); USB serials and ``emulator-N`` have
#: no port.
_TCP_SERIAL = re.compile(r"^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$")
#: Settings whose change cuts adb over Wi-Fi: Wi-Fi off, airplane mode on (which turns
#: Wi-Fi off).
NETWORK_SWITCHES = frozenset({("global", "wifi_on"), ("global", "airplane_mode_on")})


def over_network(serial: str | None) -> bool:
    """Whether ``serial`` is a phone reached by adb over TCP (``192.168.1.5:5555``)."""
    return bool(serial) and _TCP_SERIAL.match(str(serial)) is not None


def network_refusal(task: Any, serial: str | None) -> str | None:
    """Why ``task`` cannot run on the phone ``serial``, or None: a task that switches Wi-Fi
    or airplane mode (its setup or its goal turns Wi-Fi off) would cut adb when adb runs
    over Wi-Fi."""
    key = (getattr(task, "namespace", None), getattr(task, "key", None))
    if key not in NETWORK_SWITCHES or not over_network(serial):
        return None
    return (f"task {getattr(task, 'id', task)!r} switches {key[0]} {key[1]}, which turns Wi-Fi "
            f"off and cuts adb over Wi-Fi to {serial}; connect the phone over USB to run it")


#: What tells one boot of a phone from the next: the kernel's boot id, a random UUID made at
#: each boot (``random(4)``: ``/proc/sys/kernel/random/boot_id``, readable by the shell
#: user), and the uptime (``proc(5)``), which only a restart turns back.
BOOT_COMMAND = "cat /proc/sys/kernel/random/boot_id /proc/uptime"
_BOOT_ID = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$", re.M)
_UPTIME = re.compile(r"^(\d+(?:\.\d+)?) \d+(?:\.\d+)?$", re.M)


@dataclass(frozen=True)
class BootIdentity:
    """Which boot of a phone is running: its boot id, and its uptime in seconds (either
    None when the phone does not show it)."""

    boot_id: str | None
    uptime: float | None

    def restarted_since(self, earlier: BootIdentity) -> bool:
        """Whether the phone restarted between ``earlier`` and this reading: another boot
        id, or (without boot ids) less uptime than before."""
        if self.boot_id and earlier.boot_id:
            return self.boot_id != earlier.boot_id
        if self.uptime is not None and earlier.uptime is not None:
            return self.uptime < earlier.uptime
        return False

    def __str__(self) -> str:
        return self.boot_id or f"uptime {self.uptime}s"


def boot_identity(backend: Backend) -> BootIdentity:
    """Read the phone's ``BootIdentity`` (``BOOT_COMMAND``); ``DeviceError`` as the backend
    raises it."""
    return parse_boot(backend.shell(BOOT_COMMAND).output)


def parse_boot(output: str) -> BootIdentity:
    """The ``BootIdentity`` in an output that holds ``BOOT_COMMAND``'s."""
    boot, up = _BOOT_ID.search(output), _UPTIME.search(output)
    return BootIdentity(boot.group(1) if boot else None, float(up.group(1)) if up else None)


#: One shell call per observation: how the screen is turned and what is in front
#: (``dumpsys window displays``: ``ROTATION_COMMAND`` and ``FOCUS_COMMAND`` are the same
#: command) and which boot is running (``BOOT_COMMAND``).
STATUS_COMMAND = f"{ROTATION_COMMAND}; {BOOT_COMMAND}"


def parse_wm_size(output: str) -> tuple[int, int]:
    """``(width, height)`` from ``wm size`` (an override size wins over the physical one)."""
    sizes: dict[str, tuple[int, int]] = {}
    for line in output.splitlines():
        label, _, value = line.partition(":")
        w, sep, h = value.strip().partition("x")
        if sep and w.isdigit() and h.isdigit():
            sizes[label.strip().lower()] = (int(w), int(h))
    size = sizes.get("override size") or sizes.get("physical size")
    if size is None:
        raise DeviceError(f"cannot read the screen size from `wm size`: {output[:200]!r}")
    return size


class U2Backend(AdbBackend):
    """A phone over uiautomator2 (its server must run on the phone: ``python -m
    uiautomator2 init``): screenshots and UI dumps through u2's JSON-RPC, which is faster
    and more reliable than ``screencap``/``uiautomator dump``; shell and files over adb."""

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                 timeout: float = 10.0, start_server: bool = False) -> None:
        super().__init__(serial, host=host, port=port, timeout=timeout,
                         start_server=start_server)
        try:
            import uiautomator2
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError("the u2 backend needs uiautomator2: "
                              "pip install 'phone-gym[real]'") from exc
        self._errors = (Exception,)  # u2 raises many kinds (HTTP, RPC, adb): report them all
        self._u2 = self._call("connect uiautomator2",
                              lambda: uiautomator2.connect(self._device))

    def screenshot(self) -> Image.Image:
        image = self._call("u2 screenshot", lambda: self._u2.screenshot())
        return image.convert("RGB")

    def frame(self) -> Image.Image:
        """The screen through u2's RPC (``screenshot``), not ``screencap``."""
        return self.screenshot()

    def dump_ui(self) -> str:
        return str(self._call("u2 dump_hierarchy", lambda: self._u2.dump_hierarchy()))

    def send_keys(self, text: str) -> None:
        """Type ``text`` (any script) through uiautomator2 (it pastes via the clipboard)."""
        self._call("u2 send_keys", lambda: self._u2.send_keys(text))

    def double_click(self, x: int, y: int, gap: float) -> None:
        """Tap twice at pixel ``(x, y)``, ``gap`` seconds apart, from uiautomator2's server
        (within a double-tap timeout where separate ``input`` processes are not)."""
        self._call("u2 double_click", lambda: self._u2.double_click(x, y, gap))


#: Backend names accepted by ``RealPhoneEnv(backend=...)``.
BACKENDS: dict[str, type[AdbBackend]] = {"adb": AdbBackend, "u2": U2Backend}
