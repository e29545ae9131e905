"""The virtual phone's file system, as Android's ``shell`` user sees it.

Shared storage is one tree under ``/sdcard`` (also ``/storage/emulated/0``): UTF-8 files live
in ``device.system.files`` (so apps see them), other bytes in a private dict. Only ``/sdcard``
and ``/data/local/tmp`` are writable; the system image shows a few read-only folders and the
special files ``/dev/null`` and ``/system/build.prop``. Paths given to ``Storage`` methods are
absolute and normal (``abspath``), except where a method says it normalizes them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from datetime import datetime, timezone

from ..world.device import Device
from ..world.state import sdcard_path
from ..world.system import File

FILE_MODE = 0o100644
DIR_MODE = 0o040755
#: Folders of shared storage on a fresh phone.
DEFAULT_DIRS = ("/sdcard", "/sdcard/Download", "/sdcard/Documents", "/sdcard/Pictures",
                "/sdcard/DCIM", "/data/local/tmp")
#: Read-only folders of the system image.
SYSTEM_DIRS = ("/", "/system", "/system/bin", "/vendor", "/data", "/data/local", "/storage",
               "/storage/emulated", "/proc", "/dev")
#: Read-only files of the system image (their contents are made when read).
SPECIAL_FILES = ("/dev/null", "/system/build.prop")
WRITABLE = ("/sdcard/", "/data/local/tmp/")
READ_ONLY_ROOTS = ("/system", "/vendor", "/product", "/apex")


def epoch(when: datetime) -> int:
    """Seconds since 1970 of the phone's clock (which runs in UTC)."""
    return int(when.replace(tzinfo=timezone.utc).timestamp())


class Storage:
    """The files and folders of one phone. ``build_prop`` gives ``/system/build.prop``."""

    def __init__(self, device: Device, boot: datetime, build_prop: Callable[[], str]) -> None:
        self.device = device
        self.build_prop = build_prop
        self.clear(boot)

    def clear(self, boot: datetime) -> None:
        """A fresh phone's storage; files not written since are dated ``boot``."""
        self.blobs: dict[str, bytes] = {}
        self.dirs: set[str] = set(DEFAULT_DIRS)
        self.mtimes: dict[str, int] = {}
        self.boot_mtime = epoch(boot)

    # --- as adb's sync service sees it (paths normalized here) ---------------------------
    def stat(self, path: str) -> tuple[int, int, int] | None:
        """``(st_mode, size, mtime)`` or None when nothing is there."""
        path = sdcard_path(path)
        data = self.file_bytes(path)
        if data is not None:
            return FILE_MODE, len(data), self.mtime(path)
        return (DIR_MODE, 4096, self.mtime(path)) if self.is_dir(path) else None

    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None:
        """``(name, mode, size, mtime)`` of a folder's entries (no ``.``/``..``), or None
        when ``path`` is not a folder."""
        path = sdcard_path(path)
        if not self.is_dir(path):
            return None
        out = []
        for name in sorted(self.children(path)):
            st = self.stat(posixpath.join(path, name))
            if st is not None:
                out.append((name, *st))
        return out

    def read(self, path: str) -> bytes | None:
        """The bytes of the file at ``path`` (None if no such file)."""
        return self.file_bytes(sdcard_path(path))

    def push(self, path: str, data: bytes, mtime: int) -> str | None:
        """Create the file (and missing folders) as a sync push does; an error or None."""
        path = sdcard_path(path)
        reason = "Is a directory" if self.is_dir(path) else self.write_error(path)
        if reason is not None:
            return f"couldn't create file: {reason}"
        self.make_dirs(posixpath.dirname(path))
        self.store(path, bytes(data))
        if mtime > 0:
            self.mtimes[path] = int(mtime)
        return None

    # --- reading ---------------------------------------------------------------------------
    def abspath(self, path: str, cwd: str = "/") -> str:
        return sdcard_path(posixpath.join(cwd, path))

    def file_bytes(self, path: str) -> bytes | None:
        """The bytes of the file at ``path`` (None if no such file)."""
        if path in self.blobs:
            return self.blobs[path]
        file = self.device.system.files.get(path)
        text = None if file is None else file.content
        if text is not None:
            return text.encode("utf-8")
        if path == "/dev/null":
            return b""
        return self.build_prop().encode() if path == "/system/build.prop" else None

    def read_arg(self, arg: str, cwd: str) -> tuple[bytes | None, str]:
        """The bytes of file ``arg`` (relative to ``cwd``), or None and why not."""
        path = self.abspath(arg, cwd)
        data = self.file_bytes(path)
        if data is not None:
            return data, ""
        return None, "Is a directory" if self.is_dir(path) else "No such file or directory"

    def all_files(self) -> list[str]:
        shared = [p for p in self.device.system.files.keys() if p.startswith("/sdcard/")]
        return [*shared, *self.blobs, *SPECIAL_FILES]

    def is_dir(self, path: str) -> bool:
        if path in SYSTEM_DIRS or path in self.dirs:
            return True
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.all_files())

    def children(self, path: str) -> dict[str, bool]:
        """The entries of folder ``path``: name -> is a folder."""
        prefix = "/" if path == "/" else path + "/"
        out: dict[str, bool] = {}
        for p in self.all_files():
            if p.startswith(prefix):
                name, sep, _ = p[len(prefix):].partition("/")
                out[name] = out.get(name, False) or bool(sep)
        for p in (*SYSTEM_DIRS, *self.dirs):
            if p != path and p.startswith(prefix):
                out[p[len(prefix):].partition("/")[0]] = True
        return out

    def mtime(self, path: str) -> int:
        return self.mtimes.get(path, self.boot_mtime)

    # --- writing ---------------------------------------------------------------------------
    def write_error(self, path: str) -> str | None:
        """Why the shell user may not create, change or delete ``path`` (None: it may)."""
        if path.startswith(WRITABLE):
            return None
        if path.startswith(READ_ONLY_ROOTS) or posixpath.dirname(path) == "/":
            return "Read-only file system"
        return "Permission denied"

    def make_dirs(self, path: str) -> None:
        while not self.is_dir(path):
            self.dirs.add(path)
            path = posixpath.dirname(path)

    def store(self, path: str, data: bytes) -> None:
        """Write a file (allowed, its folder exists): UTF-8 under /sdcard goes to
        ``system.files``, anything else to the private store."""
        files = self.device.system.files
        try:
            text = data.decode("utf-8") if path.startswith("/sdcard/") else None
        except UnicodeDecodeError:
            text = None
        if text is not None:
            old = files.get(path)
            files.put(File(path, text, old.mime if old is not None else "text/plain"))
            self.blobs.pop(path, None)
        else:
            self.blobs[path] = data
            files.remove(path)
        self.mtimes[path] = epoch(self.device.system.now)

    def create_file(self, path: str, *, truncate: bool) -> str | None:
        """Open ``path`` for writing as a shell redirection does; an error or None."""
        if self.is_dir(path):
            return "Is a directory"
        reason = self.write_error(path)
        if reason is not None:
            return reason
        if not self.is_dir(posixpath.dirname(path)):
            return "No such file or directory"
        if truncate or self.file_bytes(path) is None:
            self.store(path, b"")
        return None

    def save(self, path: str, data: bytes) -> str | None:
        """Create or overwrite the file at ``path`` with ``data``; an error or None."""
        reason = self.create_file(path, truncate=True)
        if reason is None:
            self.store(path, data)
        return reason

    def append_file(self, path: str, data: bytes) -> None:
        self.store(path, (self.file_bytes(path) or b"") + data)

    def touch(self, path: str) -> None:
        """Date an existing file or folder now, if the shell user may change it."""
        if self.write_error(path) is None:
            self.mtimes[path] = epoch(self.device.system.now)

    def remove(self, path: str) -> None:
        """Delete a file, or a folder and everything in it."""
        prefix = path + "/"
        for p in [p for p in self.all_files() if p == path or p.startswith(prefix)]:
            self.device.system.files.remove(p)
            self.blobs.pop(p, None)
            self.mtimes.pop(p, None)
        self.dirs = {d for d in self.dirs if d != path and not d.startswith(prefix)}

    def copy(self, src: str, dest: str, *, move: bool, recursive: bool) -> str | None:
        """Copy (or move) a file or folder; an error or None."""
        is_dir = self.is_dir(src)
        if self.file_bytes(src) is None and not is_dir:
            return "No such file or directory"
        if is_dir and not recursive:
            return "Is a directory"
        if dest == src or dest.startswith(src + "/"):
            return "Invalid argument"
        reason = self.write_error(dest) or (self.write_error(src) if move else None)
        if reason is None and not self.is_dir(posixpath.dirname(dest)):
            reason = "No such file or directory"
        if reason is not None:
            return reason
        if is_dir:
            prefix = src + "/"
            for p in [p for p in self.all_files() if p.startswith(prefix)]:
                self.make_dirs(posixpath.dirname(dest + p[len(src):]))
                self.store(dest + p[len(src):], self.file_bytes(p) or b"")
            for d in [d for d in self.dirs if d == src or d.startswith(prefix)]:
                self.make_dirs(dest + d[len(src):])
        else:
            self.store(dest, self.file_bytes(src) or b"")
        if move:
            self.remove(src)
        return None
