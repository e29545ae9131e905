"""``VirtualPhone``: a PhoneWorld phone that answers like an Android device's shell.

The adb protocol server (``server.py``) and the in-process ``LocalBackend`` call it through
``shell``, ``stat``, ``list_dir``, ``read_file`` and ``write_file``. The phone only wires the
parts together, each in its own module:

- ``sh_syntax.py`` and ``sh.py``: a small POSIX-like shell (quotes, escapes, ``;``/``&&``/
  ``||``/``|``, ``$?``, ``$VAR``, ``$(...)`` and backticks executed like a real shell,
  redirections) that knows nothing of phones;
- ``fs.py``: the file system (shared storage under ``/sdcard`` lives in
  ``device.system.files``, so apps see it; only ``/sdcard`` and ``/data/local/tmp`` are
  writable, as for Android's ``shell`` user);
- ``commands/``: the Android commands (``input``, ``am``, ``pm``, ``monkey``, ``screencap``,
  ``wm``, ``dumpsys``, ``uiautomator``, ``getprop``, ``settings``, ``content``) and
  toybox-like text and file commands.

Nothing is ever evaluated by Python or run on the host: every command is a method.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import timedelta

import numpy as np

from ..mockapps import APPS
from ..world import theme as T
from ..world.app import App
from ..world.device import Device
from ..world.render import Renderer
from .commands import commands_of
from .commands.system import build_prop, default_properties
from .fs import FILE_MODE, Storage, epoch
from .sh import IO, SH, Command, Shell, Stream

__all__ = ["ENV", "FEATURES", "FILE_MODE", "VirtualPhone", "epoch"]

FEATURES = ["shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "abb_exec"]
#: The environment of ``adb shell``.
ENV = {"HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
       "SHELL": SH, "USER": "shell", "HOSTNAME": "phoneworld", "TMPDIR": "/data/local/tmp",
       "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
       "IFS": " \t\n"}
#: What adbutils appends to a v1 (pty) shell's command line to learn its exit status.
V1_EXIT = re.compile(r";\s*echo X4EXIT:\$\?\s*$")


class VirtualPhone:
    """A PhoneWorld phone behind an Android-like shell and file system (see the module doc).

    ``shell_log`` holds the argv of every simple command run, in order; ``last_input_error``
    the device's complaint about the last ``input`` command (``input`` still exits 0, as on
    Android); ``reboots`` counts ``reboot`` commands (which reset nothing).
    """

    def __init__(self, serial: str = "emulator-5554", *, device: Device | None = None,
                 apps: Sequence[type[App]] | None = None) -> None:
        self.serial = serial
        self.device = device if device is not None else Device(list(APPS if apps is None
                                                                     else apps))
        self.properties: dict[str, str] = default_properties(serial)
        self.features: list[str] = list(FEATURES)
        self.shell_log: list[list[str]] = []
        self.last_input_error: str | None = None
        self.reboots = 0
        self.lock = threading.RLock()
        self._renderer: Renderer | None = None
        self.boot = self.device.system.now - timedelta(hours=1)
        self.fs = Storage(self.device, self.boot, lambda: build_prop(self.properties))
        self._commands = commands_of(self)

    def reset(self) -> None:
        """Factory reset: a fresh device, storage, log and properties."""
        with self.lock:
            self.device.reset()
            self.properties = default_properties(self.serial)
            self.shell_log = []
            self.last_input_error = None
            self.reboots = 0
            self.boot = self.device.system.now - timedelta(hours=1)
            self.fs.clear(self.boot)

    def command(self, name: str) -> Command | None:
        """The shell command ``name`` (None: not found)."""
        return self._commands.get(name)

    # --- the server's interface ---------------------------------------------------------
    def shell(self, command: str) -> tuple[int, bytes, bytes]:
        """Run a command line: ``(exit status, stdout, stderr)``.

        A line ending in adbutils' ``; echo X4EXIT:$?`` comes from a v1 (pty) shell, where
        stderr and stdout are one stream: it gets both merged in time order, as stdout.
        """
        with self.lock:
            merged = bytearray()
            io = IO(out=Stream(merged), err=Stream(merged))
            status = Shell(self, ENV).run(command, io) & 0xFF
            if V1_EXIT.search(command):
                return status, bytes(merged), b""
            return status, bytes(io.out), bytes(io.err)

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """``(st_mode, size, mtime)`` or None when nothing is there."""
        with self.lock:
            return self.fs.stat(path)

    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None:
        """``(name, mode, size, mtime)`` of a folder's entries (no ``.``/``..``), or None
        when ``path`` is not a folder."""
        with self.lock:
            return self.fs.list_dir(path)

    def read_file(self, path: str) -> bytes | None:
        with self.lock:
            return self.fs.read(path)

    def write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None:
        """Sync push: create the file (and missing folders); an error message or None."""
        with self.lock:
            return self.fs.push(path, data, mtime)

    def screenshot(self) -> np.ndarray:
        """The current frame as a ``2400 x 1080 x 3`` uint8 array."""
        if self._renderer is None:
            self._renderer = Renderer(T.SCREEN_W, T.SCREEN_H)
        return self._renderer.render(self.device.frame())
