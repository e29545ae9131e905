"""``LocalBackend``: the ``Backend`` protocol over a ``VirtualPhone`` in this process.

No sockets and no adb server: shell commands go straight to ``VirtualPhone.shell`` and
files to its sync methods, so tests drive the real-phone code (``AdbState``, envs) fast.
"""

from __future__ import annotations

import stat

from PIL import Image

from ..real.backend import DUMP_TIMEOUT, capture, parse_wm_size, shell_dump
from ..real.base import DeviceError, ShellResult
from .fs import epoch
from .phone import VirtualPhone


class LocalBackend:
    """A ``VirtualPhone`` (default: a fresh one) as a ``Backend``."""

    def __init__(self, phone: VirtualPhone | None = None) -> None:
        self.phone = phone if phone is not None else VirtualPhone()
        self.serial = self.phone.serial
        #: The physical display screenshots are taken of (``screencap -d``; None: any).
        self.display: str | None = None
        self.dump_timeout = DUMP_TIMEOUT
        #: Whether ``screencap`` gives raw frames (None: not tried yet; ``capture``).
        self.raw_frames: bool | None = None

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        """Run ``command``; stdout then stderr as one text (as adb's v2 shell joins them)."""
        code, out, err = self.phone.shell(command)
        return ShellResult(code, (out + err).decode("utf-8", "replace"),
                           out.decode("utf-8", "replace"))

    def shell_bytes(self, command: str, timeout: float | None = None) -> bytes:
        """Raw stdout of ``command`` (for ``screencap``)."""
        return self.phone.shell(command)[1]

    def pull(self, path: str) -> bytes | None:
        return self.phone.read_file(path)

    def push(self, data: bytes, path: str) -> None:
        error = self.phone.write_file(path, bytes(data), 0o100644,
                                      epoch(self.phone.device.system.now))
        if error is not None:
            raise DeviceError(f"push {path} to {self.serial} failed: {error}")

    def list_dir(self, path: str) -> list[str]:
        entries = self.phone.list_dir(path) or []
        return [name for name, mode, _, _ in entries if stat.S_ISREG(mode)]

    def screenshot(self) -> Image.Image:
        """As ``AdbBackend.screenshot``: raw ``screencap``, else ``-p`` (``capture``)."""
        return capture(self, self.display)

    def frame(self) -> Image.Image:
        """As ``AdbBackend.frame``: the screen unconverted (``raw_frame``)."""
        return capture(self, self.display, rgb=False)

    def dump_ui(self) -> str:
        """As ``AdbBackend.dump_ui``: a checked dump to a fresh file (``shell_dump``)."""
        return shell_dump(self, self.dump_timeout)

    def window_size(self) -> tuple[int, int]:
        return parse_wm_size(self.shell("wm size").output)
