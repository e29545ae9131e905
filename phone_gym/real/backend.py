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
import re
import shlex
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image, UnidentifiedImageError

from .base import Backend, DeviceError, ShellResult

T = TypeVar("T")

#: Where ``dump_ui`` has ``uiautomator`` write: the shell's own folder, not shared storage
#: (uiautomator's default, ``/sdcard/window_dump.xml``, is a file that the snapshots of a
#: task watching shared storage would see change).
DUMP_PATH = "/data/local/tmp/phone_gym_window_dump.xml"
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
    every call. ``start_server=True`` lets adbutils start a local adb server once, at
    construction, if none listens (never afterwards).
    """

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                 timeout: float = 10.0, start_server: bool = False) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout={timeout!r}; accepted: seconds > 0")
        adbutils = _adbutils()
        self._adbutils = adbutils
        self.host, self.port, self.timeout = host, port, float(timeout)
        self._errors: tuple[type[BaseException], ...] = (adbutils.AdbError, *_IO_ERRORS)
        if start_server:
            self._call("connect to the adb server",
                       lambda: adbutils.AdbClient(host=host, port=port).server_version())
        self.client = _direct_client(adbutils, host, port, self.timeout)
        self.serial = serial or self._only_device()
        self._device = self.client.device(self.serial)
        self._v2: bool | None = None
        self._size: tuple[int, int] | None = None

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
        return ShellResult(int(result.returncode), str(result.output))

    def shell_bytes(self, command: str, timeout: float | None = None) -> bytes:
        """Raw stdout of ``command`` (for binary output such as ``screencap -p``)."""
        limit = self.timeout if timeout is None else timeout
        data = self._call(f"shell {command[:60]!r}", lambda: self._device.shell(
            command, timeout=limit, encoding=None))
        return bytes(data)

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
        data = self.shell_bytes("screencap -p")
        try:
            return Image.open(io.BytesIO(data)).convert("RGB")
        except (UnidentifiedImageError, OSError) as exc:
            raise DeviceError(f"screencap on {self.serial} returned no PNG "
                              f"({len(data)} bytes: {data[:40]!r})") from exc

    def dump_ui(self) -> str:
        path = shlex.quote(DUMP_PATH)
        result = self.shell(f"uiautomator dump {path} >/dev/null && cat {path}")
        start = result.output.find("<?xml")
        if not result.ok or start < 0:
            raise DeviceError(f"uiautomator dump on {self.serial} failed: {result.output[:200]}")
        return result.output[start:]

    def window_size(self) -> tuple[int, int]:
        if self._size is None:
            self._size = parse_wm_size(self.shell("wm size").output)
        return self._size


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
    output = backend.shell(BOOT_COMMAND).output
    boot, up = _BOOT_ID.search(output), _UPTIME.search(output)
    return BootIdentity(boot.group(1) if boot else None, float(up.group(1)) if up else None)


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

    def dump_ui(self) -> str:
        return str(self._call("u2 dump_hierarchy", lambda: self._u2.dump_hierarchy()))


#: Backend names accepted by ``RealPhoneEnv(backend=...)``.
BACKENDS: dict[str, type[AdbBackend]] = {"adb": AdbBackend, "u2": U2Backend}
