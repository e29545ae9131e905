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
  ``wm``, ``dumpsys``, ``uiautomator``, ``getprop``, ``settings``, ``content``, ``logcat``,
  ``ifconfig``) and toybox-like text and file commands;
- ``logd.py``: the log buffers ``logcat`` reads, and what the system logs to them.

``shell`` runs a command line to its end (what the in-process ``LocalBackend`` uses);
``run_shell`` runs one for a live adb connection (``server.ShellSession``), as adbd's shell
service runs ``/system/bin/sh -c COMMAND`` (or, for an empty command, a login shell reading
its standard input): standard input comes from the connection as the commands read it,
output goes out as it is made, ``sleep`` really sleeps, and a command blocked there dies
when its connection closes or its time limit passes. While it waits, a command lets go of
the phone's lock, so other connections use the phone meanwhile.

The phone has a boot identity, as Linux gives one (``/proc/sys/kernel/random/boot_id``, a
random UUID per boot, and ``/proc/uptime``); ``reboot()`` (the ``reboot`` command) restarts
it: a new boot id, and what lives only in memory is gone (see ``reboot``).

Nothing is ever evaluated by Python or run on the host: every command is a method.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np

from ..mockapps import APPS
from ..world import theme as T
from ..world.app import AppLike
from ..world.device import Device
from ..world.render import Renderer
from .commands import commands_of
from .commands.packages import NO_PROFILE, PROFILES, Profile, profile_apps
from .commands.system import SettingsProvider, build_prop, default_properties
from .fs import FILE_MODE, Storage, epoch
from .logd import Logd
from .overlays import Overlays
from .permissions import Permissions
from .sh import IO, SH, Command, Input, Shell, ShellKilled, Stream

if TYPE_CHECKING:
    from .server import ShellSession

__all__ = ["BOOT_ID_PATH", "ENV", "FEATURES", "FILE_MODE", "SHELL_LOG_SIZE", "UPTIME_PATH",
           "VirtualPhone", "epoch"]

FEATURES = ["shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "abb_exec"]
#: The environment of ``adb shell``.
ENV = {"HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
       "SHELL": SH, "USER": "shell", "HOSTNAME": "phoneworld", "TMPDIR": "/data/local/tmp",
       "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
       "IFS": " \t\n"}
#: What adbutils appends to a v1 (pty) shell's command line to learn its exit status.
V1_EXIT = re.compile(r";\s*echo X4EXIT:\$\?\s*$")
#: How many commands ``VirtualPhone.shell_log`` keeps (the newest) by default.
SHELL_LOG_SIZE = 10_000
#: Linux's boot identity: a random UUID made at each boot (``random(4)``), world-readable.
BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
#: Seconds since boot and seconds idle (``proc(5)``).
UPTIME_PATH = "/proc/uptime"
#: How often a waiting command looks at its connection (seconds).
POLL = 0.02
#: Properties a reboot keeps: the read-only ones (from the images) and ``persist.`` ones
#: (stored under /data/property); others live in init's memory.
KEPT_PROPERTIES = ("ro.", "persist.")


class _Storage(Storage):
    """The phone's files plus the two ``/proc`` files of its boot identity."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        super().__init__(phone.device, phone.boot, lambda: build_prop(phone.properties))

    def file_bytes(self, path: str) -> bytes | None:
        if path == BOOT_ID_PATH:
            return (self.phone.boot_id + "\n").encode()
        if path == UPTIME_PATH:
            up = max(0.0, (self.phone.device.system.now - self.phone.boot).total_seconds())
            return f"{up:.2f} {up:.2f}\n".encode()  # idle time is not modelled
        return super().file_bytes(path)

    def all_files(self) -> list[str]:
        return [*super().all_files(), BOOT_ID_PATH, UPTIME_PATH]


#: Settings a profile's build sets at first boot, over AOSP's defaults (a device overlay of
#: SettingsProvider's ``defaults.xml``): Pixels ship adaptive brightness on
#: (``def_screen_brightness_automatic_mode``), so the system moves ``screen_brightness``
#: by itself (``commands.system``).
PROFILE_SETTINGS: dict[str, dict[tuple[str, str], str]] = {
    "pixel": {("system", "screen_brightness_mode"): "1"},
}


def _discard(data: bytes) -> None:
    """A sink that keeps nothing."""


class VirtualPhone:
    """A PhoneWorld phone behind an Android-like shell and file system (see the module doc).

    ``shell_log`` holds the argv of the simple commands run, oldest first: the newest
    ``shell_log_size`` of them (a ``deque``); ``last_input_error`` the device's complaint
    about the last ``input`` command (``input`` still exits 0, as on Android); ``reboots``
    counts reboots, ``boot_id`` names the current boot (see ``reboot``). ``adb_keyboard``:
    the ADBKeyboard input method is installed (``ime``; it types ``am broadcast -a
    ADB_INPUT_TEXT`` once enabled and selected, see ``commands.activity``). ``profile``:
    the package names of one kind of phone ("aosp", "pixel"; ``commands.packages``).
    """

    def __init__(self, serial: str = "emulator-5554", *, device: Device | None = None,
                 apps: Sequence[AppLike] | None = None,
                 shell_log_size: int = SHELL_LOG_SIZE, adb_keyboard: bool = False,
                 profile: str | None = None) -> None:
        if shell_log_size < 0:
            raise ValueError(f"shell_log_size={shell_log_size!r}; accepted: a count >= 0")
        if profile is not None and device is not None:
            raise ValueError("profile= needs the phone to build its device: pass apps= "
                             "instead of device= (or no profile)")
        self.serial = serial
        #: The kind of phone whose package names the mock apps carry ("aosp", "pixel"; None:
        #: their manifests' own), ``commands.packages.PROFILES``.
        self.profile = profile
        classes: list[AppLike] = list(APPS if apps is None else apps)
        if profile is not None:
            classes = profile_apps(classes, profile)
        self.device = device if device is not None else Device(classes)
        self._profile_settings()
        self.properties: dict[str, str] = default_properties(serial)
        self.features: list[str] = list(FEATURES)
        self.shell_log: deque[list[str]] = deque(maxlen=shell_log_size)
        self.last_input_error: str | None = None
        self.reboots = 0
        self.adb_keyboard = adb_keyboard
        #: Quirks of real phones, off by default (``commands.screen``, ``commands.activity``):
        #: the next ``idle_errors`` UI dumps fail as on an animated screen (AOSP
        #: ``DumpCommand``: "ERROR: could not get idle state.", exit 0, no file written);
        #: ``displays`` > 1 is a foldable, whose ``screencap`` without ``-d`` warns before the
        #: image (AOSP ``screencap.cpp``); ``hardware_keys=False`` is an emulator or tablet
        #: without system keys, where ``monkey`` refuses its default event mix (AOSP
        #: ``MonkeySourceRandom.validateKeys``).
        self.idle_errors = 0
        self.displays = 2 if self.profile_info().foldable else 1
        self.hardware_keys = True
        #: ``linker_warning``: a line the dynamic linker writes to stderr before every
        #: program the shell runs, as on some vendor builds (bionic ``linker``'s
        #: ``DL_WARN``, e.g. "WARNING: linker: ...: unused DT entry: type 0x6ffffffe");
        #: None: a clean build.
        self.linker_warning: str | None = None
        #: Packages whose alarms the alarm manager dropped at ``am force-stop`` and that have
        #: not run since (``commands.dumpsys``: AOSP ``AlarmManagerService`` removes a
        #: package's alarms on ``ACTION_PACKAGE_RESTARTED``; the app sets them again when it
        #: next runs). Stored alarm records stay.
        self.alarms_cancelled: set[str] = set()
        self.lock = threading.RLock()
        self._waiter = threading.Condition(self.lock)  # waits with the lock let go
        self._local = threading.local()  # the session of the command a thread runs
        self._renderer: Renderer | None = None
        self.boot_id = str(uuid.uuid4())
        self.boot: datetime = self.device.system.now - timedelta(hours=1)
        self.fs = _Storage(self)
        #: ``settings`` as the system services keep them (``commands.system``).
        self.settings_provider = SettingsProvider(self)
        #: Runtime permissions (``permissions``: ``pm grant``, the prompts).
        self.permissions = Permissions(self)
        #: What the system shows over the apps (``overlays``): the screen's power and lock
        #: screen (``overlays.power``: ``sleeps``, ``lock``), permission prompts, first-run
        #: screens, ``FLAG_SECURE`` windows (``overlays.secure_packages``).
        self.overlays = Overlays(self)
        #: The log buffers (``logd``: ``logcat``, ``log``).
        self.logd = Logd(self)
        self._commands = commands_of(self)

    def profile_info(self) -> Profile:
        """The ``Profile`` of this phone (``NO_PROFILE`` without one)."""
        return PROFILES.get(self.profile or "", NO_PROFILE)

    def _profile_settings(self) -> None:
        """The settings the profile's build sets at first boot (``PROFILE_SETTINGS``)."""
        for (namespace, key), value in PROFILE_SETTINGS.get(self.profile or "", {}).items():
            self.device.system.put_setting(namespace, key, value)

    def reset(self) -> None:
        """Factory reset: a fresh device, storage, log and properties (and, as a factory
        reset restarts the phone, a new boot)."""
        with self.lock:
            self.device.reset()
            self._profile_settings()
            self.properties = default_properties(self.serial)
            self.shell_log.clear()
            self.last_input_error = None
            self.reboots = 0
            self.alarms_cancelled.clear()
            self.settings_provider.clear()
            self.permissions.clear()
            self.overlays.clear()
            self.logd = Logd(self)
            self.boot_id = str(uuid.uuid4())
            self.boot = self.device.system.now - timedelta(hours=1)
            self.fs.clear(self.boot)

    def reboot(self) -> None:
        """Restart the phone (``adb reboot``, the ``reboot`` command): a new ``boot_id``,
        uptime from zero, and what lives only in memory is gone: every app is stopped
        (``Device.force_stop``: its screens and scroll positions; its data stays), the home
        screen shows with the shade and any menu closed, no toast, the clipboard and the
        posted notifications are empty (Android keeps neither across a boot), and the
        properties that are neither ``ro.`` nor ``persist.`` are back to their defaults.
        Stored data (contacts, messages, files, settings, alarms) stays; an app that was
        force-stopped stays stopped, its alarms unscheduled (``alarms_cancelled``: the stopped
        state is kept in ``package-restrictions.xml`` and broadcasts such as
        ``BOOT_COMPLETED`` skip stopped packages, AOSP ``ActivityManagerService
        .broadcastIntentLocked``: ``FLAG_EXCLUDE_STOPPED_PACKAGES``). The adb server
        drops the phone's connections and forwards, as adb does when a device goes away."""
        with self.lock:
            device = self.device
            for name in list(device.apps.made()):
                device.force_stop(name)
            device.clear_recents()
            device.set_shade(False)
            device.close_menu()
            device.toast_text = None
            self.overlays.resolver.dismiss()
            device.system.clipboard = ""
            device.system.notifications.clear()
            device.invalidate()
            defaults = default_properties(self.serial)
            kept = {k: v for k, v in self.properties.items() if k.startswith(KEPT_PROPERTIES)}
            self.properties = {**defaults, **kept}
            self.settings_provider.boot()  # the services read their stored settings
            self.logd.boot()  # logd keeps its buffers in memory
            power = self.overlays.power  # it boots awake, on its lock screen if it has one
            power.wake_up()
            power.keyguard, power.bouncer = power.lock != "none", False
            self.reboots += 1
            self.boot_id = str(uuid.uuid4())
            self.boot = device.system.now

    def command(self, name: str) -> Command | None:
        """The shell command ``name`` (None: not found); each look-up is a command run, for
        adaptive brightness (``SettingsProvider.tick``)."""
        self.settings_provider.tick()
        self.overlays.tick()
        return self._commands.get(name)

    # --- the server's interface ---------------------------------------------------------
    def shell(self, command: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
        """Run a command line to its end: ``(exit status, stdout, stderr)``. ``stdin`` is
        all of its standard input; ``sleep`` lets phone time pass at once.

        A line ending in adbutils' ``; echo X4EXIT:$?`` comes from a v1 (pty) shell, where
        stderr and stdout are one stream: it gets both merged in time order, as stdout.
        """
        with self.lock:
            merged = bytearray()
            v1 = V1_EXIT.search(command) is not None
            sink = merged.extend if v1 else _discard  # kept for a v1 shell only
            io = IO(stdin, Stream(sink), Stream(sink))
            status = Shell(self, ENV).run(command, io) & 0xFF
            if v1:
                return status, bytes(merged), b""
            return status, bytes(io.out), bytes(io.err)

    def run_shell(self, command: str, session: ShellSession) -> int:
        """Run ``command`` for a live connection (see the module doc); its exit status.

        An empty command is an interactive login shell reading commands from the session's
        input until ``exit`` or its end (on a terminal, ``session.pty``, with mksh's prompt
        ``HOSTNAME:PWD $ ``, after a failure ``STATUS|HOSTNAME:PWD $ ``, as Android's mkshrc
        sets ``PS1``). A command killed while it waits exits ``128 + signal``.
        """
        with self.lock:
            self._local.session = session
            try:
                stdin = Input(more=lambda: self._read_stdin(session))
                io = IO(stdin, Stream(lambda b: session.write(1, b), keep=False),
                        Stream(lambda b: session.write(2, b), keep=False))
                shell = Shell(self, ENV)
                try:
                    if command.strip():
                        status = shell.run(command, io)
                    else:
                        prompt = self._prompt(session) if session.pty else None
                        status = shell.run_stream(stdin, io, interactive=session.pty,
                                                  prompt=prompt)
                except ShellKilled as exc:
                    status = 128 + exc.signal
                return status & 0xFF
            finally:
                self._local.session = None

    def pause(self, seconds: float) -> None:
        """``sleep``: for a live connection, really wait ``seconds`` (the lock let go, the
        session watched: a closed connection or a passed time limit kills the command);
        in process, let the phone's clock move on at once. Either way phone time passes."""
        session: ShellSession | None = getattr(self._local, "session", None)
        if session is None:
            self.device.wait(seconds)
            return
        session.flush()
        start = time.monotonic()
        end = start + seconds
        try:
            while (left := end - time.monotonic()) > 0:
                self._check(session)
                self._waiter.wait(min(left, POLL))
        finally:
            self.device.wait(min(seconds, time.monotonic() - start))

    def follow(self, more: Callable[[], bool]) -> bool:
        """Wait until ``more()`` for a live connection (the lock let go, the session
        watched, as ``pause``); True then. In process no other client can act while a
        command runs, so nothing more can come: False at once (``logcat`` then returns)."""
        session: ShellSession | None = getattr(self._local, "session", None)
        if session is None:
            return False
        session.flush()
        while not more():
            self._check(session)
            self._waiter.wait(POLL)
        return True

    def _read_stdin(self, session: ShellSession) -> bytes:
        """The session's next input (b"" at its end), waiting for it with the lock let go."""
        while True:
            chunk = session.read()
            if chunk is not None:
                return chunk
            session.flush()
            self._check(session)
            self._waiter.wait(POLL)

    @staticmethod
    def _check(session: ShellSession) -> None:
        signal = session.killed()
        if signal:
            raise ShellKilled(signal)

    def _prompt(self, session: ShellSession) -> Callable[[Shell], None]:
        def prompt(shell: Shell) -> None:
            failed = f"{shell.status}|" if shell.status else ""
            host = shell.vars.get("HOSTNAME") or self.properties.get("ro.product.device", "")
            session.write(1, f"{failed}{host}:{shell.cwd} $ ".encode())
        return prompt

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
        """The screen as a ``2400 x 1080 x 3`` uint8 array: the current frame, under what
        the system shows over it (``overlays``: black while the screen is off or for a
        ``FLAG_SECURE`` window)."""
        if self._renderer is None:
            self._renderer = Renderer(T.SCREEN_W, T.SCREEN_H)
        self.overlays.tick()
        return self.overlays.image(self._renderer.render(self.device.frame()))

    def ui_xml(self) -> str:
        """The window hierarchy as ``uiautomator dump`` writes it (a cover's, if one shows)."""
        self.overlays.tick()
        return self.overlays.xml()
