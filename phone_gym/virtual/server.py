"""A virtual adb server: the adb host protocol over TCP, serving in-process phone objects.

``VirtualAdbServer`` listens on a local port and answers exactly as a real adb server
(version 41) with some devices attached, so the real client library talks to it unchanged::

    with VirtualAdbServer([phone]) as server:
        client = adbutils.AdbClient(host="127.0.0.1", port=server.port)
        client.device(phone.serial).shell("echo hi")

Phones are duck-typed (``PhoneLike``)::

    serial: str
    properties: dict[str, str]     # ro.product.model/name/device feed `devices -l` (may be empty)
    features: list[str]            # e.g. ["shell_v2", "cmd", "stat_v2"]
    def shell(self, command: str) -> tuple[int, bytes, bytes]    # exit code, stdout, stderr
    def stat(self, path: str) -> tuple[int, int, int] | None     # st_mode, size, mtime
    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None
                                                 # (name, st_mode, size, mtime) entries
    def read_file(self, path: str) -> bytes | None
    def write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None
    def open_port(self, port: int) -> Callable[[socket.socket], None] | None   # optional
    def open_shell(self, command: str) -> Callable[[socket.socket], None] | None  # optional
    def run_shell(self, command: str, session: ShellSession) -> int    # optional
    def reboot(self) -> None       # optional: serves `adb reboot`
    boot_id: str                   # optional: its change means that the phone restarted

``write_file`` gets the st_mode the client sent (file type bits included, e.g. ``0o100644``)
and returns an error message, or None on success. Every call into a phone holds that phone's
lock, so a phone need not be thread-safe: its own ``lock`` attribute if that is a lock (best
an ``RLock``), else one the server makes. ``open_port`` is asked (under the lock) for a
handler of a device TCP port; the handler then runs on the connection's own thread *outside*
the lock, owns the socket (which still has the server's idle timeout) until it returns, and
must take the phone's ``lock`` itself if it touches the phone. It serves the device service
``tcp:<port>`` (adbutils ``create_connection``) and connections to ``forward``-ed local ports.

``open_shell`` (optional) claims long-running shell commands (a server process started with
``app_process``, say): asked under the lock before ``shell`` for every ``shell:``/``exec:``/
``shell,v2:`` command, it returns None (``shell`` runs the command as usual) or a handler
that then *is* the command: the server sends OKAY and calls it exactly once (even if the
connection already failed: its socket then reads EOF or raises), on the connection's thread
outside the lock, as for ``open_port``. What it ``sendall``s is the command's stdout (framed
for ``shell,v2``, whose exit status is then 0); ``recv`` gives what the client sends (raw v2
packets for ``shell,v2``) and b"" once it closes the stream, which a command that runs until
killed should watch for; the command ends when the handler returns.

A phone with ``run_shell(command, session) -> exit status`` (optional; ``VirtualPhone`` has
it) runs every ``shell``/``exec`` command for a live connection, as adbd's shell service
does: ``session`` (``ShellSession``) gives the client's standard input as it comes and sends
output as the command makes it (an empty command is an interactive shell reading its input),
and tells the command when its client has gone or its time limit (``command_timeout``) has
passed. A phone without ``run_shell`` gets ``shell(command)``: the whole command runs before
any output is sent, without standard input. Either way a shell's stdout and stderr come
back separately from the phone, so ``shell:`` (v1) sends stdout then stderr: a phone that
honours adbutils' ``; echo X4EXIT:$?`` suffix (shell2 without v2) must put that line last,
after its stderr.

The services are those of adb's server (``adb.cpp`` ``handle_host_request``, ``sockets.cpp``)
and of adbd (``daemon/services.cpp``): ``host:version|devices|devices-l|track-devices|
list-forward|killforward-all|host-features|kill|connect:|disconnect:``, transport selection
(``host:transport:S``, ``host:tport:serial:S``, ``host:transport-id:N``, ``-any``/``-usb``/
``-local``; a host request may follow one on the same connection, as ``adb forward`` sends
it), device queries under ``host-serial:S:``/``host-transport-id:N:``/``host:``
(``get-state``, ``get-serialno``, ``get-devpath``, ``features``, ``forward``, ``killforward``,
``list-forward``, ``wait-for-*``), and device services ``shell[,v2][,pty|,raw]:``,
``exec:``, ``sync:`` (STAT LIST RECV SEND QUIT, plus STA2 LST2 LIS2; LIST adds ``.`` and
``..`` as adbd does), ``tcp:<port>``, ``framebuffer:`` (the phone's raw ``screencap`` with
DDMS's header, as ``daemon/framebuffer_service.cpp``; adbutils' ``framebuffer()``),
``abb:``/``abb_exec:`` (the phone's ``cmd`` with the arguments, as
``daemon/abb_service.cpp``; ``adb install`` uses it), ``reboot:`` (a phone's ``reboot()``),
and ``root:``/``unroot:`` answered as a production build's adbd answers them. Other adbd
services that the virtual device does not have (``tcpip``, ``usb``, ``remount``,
``reverse``, ``jdwp``, ...) fail with a message that says so; a service adbd
does not know either fails with "closed", as adb reports a stream adbd closed. There is no
``sendrecv_v2``: phones should not advertise it. A phone method that raises is logged and
answered as a failure (shell: exit 255 with the error on stderr; sync: FAIL).

``host:kill`` (``adb kill-server``) is acknowledged and the connection closed, which is
what the adb client waits for, but by default the server keeps serving: a virtual device's
life belongs to whoever started it (``phone-gym virtual-device``, a test fixture), and a
stopped one would let the next ``adb`` command start a real adb server on its port. With
``stop_on_kill=True`` it stops, as adb's server exits; ``start()`` starts it again on the
same port.

A phone whose ``boot_id`` changed (after ``reboot()``, or any restart the phone makes) is
seen as one that went away and came back, as adb sees a rebooting device: the connections
bound to it before close, its forwards go and it gets a new transport id (checked whenever
a request selects it, after each shell command and every quarter second).

``server.faults`` (``Faults``) injects failures at run time; see that class. Malformed input
closes only the offending connection (logged at debug level).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import select
import shlex
import socket
import stat as stat_mod
import struct
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol, runtime_checkable

__all__ = ["ADB_SERVER_VERSION", "Faults", "PhoneLike", "PortHandler", "VirtualAdbServer"]

log = logging.getLogger(__name__)

ADB_SERVER_VERSION = 41
"""What ``host:version`` reports; 41 makes adbutils use ``host:tport``."""

PortHandler = Callable[[socket.socket], None]

_SYNC_DATA_MAX = 64 * 1024  # largest DATA chunk, both ways
_SYNC_PATH_MAX = 1024
_MAX_PUSH = 1 << 30  # a SEND bigger than this is refused
_DRAIN_LIMIT = 1 << 20
_STDIN_BUFFER = 1 << 20  # input a shell holds unread before the client must wait
_HOST_FEATURES = (
    "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,fixed_push_symlink_timestamp,"
    "abb_exec,remount_shell,track_app"
)
_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
#: What adbd answers ``adb root``/``adb unroot`` with on a user build (ro.debuggable=0;
#: daemon/restart_service.cpp ``restart_root_service``/``restart_unroot_service``).
_ROOT_ANSWERS = {"root": b"adbd cannot run as root in production builds\n",
                 "unroot": b"adbd not running as root\n"}
#: adbd services (daemon/services.cpp ``daemon_service_to_fd``) the virtual device lacks.
_ADBD_SERVICES = frozenset({
    "backup", "restore", "disable-verity", "enable-verity", "jdwp",
    "track-jdwp", "track-app", "remount", "reconnect", "reverse", "sideload",
    "sideload-host", "sink", "source", "spin", "tcpip", "usb", "reboot",
})
# host commands that name a device; used to split "host-serial:<serial>:<command>"
_DEVICE_COMMANDS = ("get-state", "get-serialno", "get-devpath", "features", "forward:",
                    "killforward:", "killforward-all", "list-forward", "wait-for-")


@runtime_checkable
class PhoneLike(Protocol):
    """What the server needs from a phone (``open_port`` is optional, see the module doc)."""

    serial: str
    properties: dict[str, str]
    features: list[str]

    def shell(self, command: str) -> tuple[int, bytes, bytes]: ...

    def stat(self, path: str) -> tuple[int, int, int] | None: ...

    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None: ...

    def read_file(self, path: str) -> bytes | None: ...

    def write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None: ...


@dataclass
class Faults:
    """Failures to inject, read afresh for every request; set fields at any time.

    - ``delay``: seconds a phone takes to answer. Every device request is accepted at once
      (OKAY), then the server sleeps ``delay`` before the result: shell/exec output, each
      sync reply, the hand-off of a ``tcp:`` or forwarded connection, the answer of a
      ``host-serial`` query. A client with a shorter read timeout gets ``AdbTimeout``.
    - ``drop``: phones are unplugged. Any request that selects a device (transport
      selection, ``host-serial:...``, device services) is read and then the connection is
      closed without a reply, and setting it closes the device connections in progress
      (shells, sync sessions, ``tcp:``/forwarded sockets). Connections to forwarded local
      ports are accepted and closed at once.
    - ``drop_host``: the same for host-only requests (``host:version``, ``host:devices``,
      ``host:list-forward``, ...), which ``drop`` leaves working.
    - ``garbage``: device requests are answered with random junk bytes (never starting
      with OKAY or FAIL) instead of OKAY, then closed.
    - ``offline``: serials listed as ``offline``; selecting one fails with "device offline"
      (``get-state`` answers ``offline``) and putting a serial here closes its ongoing
      connections (within 0.25 s if the set is mutated in place; at once on assignment or
      with ``VirtualAdbServer.set_offline``).
    """

    delay: float = 0.0
    drop: bool = False
    drop_host: bool = False
    garbage: bool = False
    offline: set[str] = field(default_factory=set)

    def clear(self) -> None:
        """Back to no faults."""
        self.delay = 0.0
        self.drop = False
        self.drop_host = False
        self.garbage = False
        self.offline = set()

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        hook = self.__dict__.get("_on_change")
        if hook is not None:
            hook()


class _Closed(Exception):
    """Close the connection without a reply."""


class _Fail(Exception):
    """Reply FAIL with this message, then close."""


@dataclass(eq=False)
class _Conn:
    sock: socket.socket
    peer: str
    serial: str | None = None  # the device this connection is bound to, once it selects one
    boot: Any = None  # that device's ``boot_id`` then: a reboot ends the connection
    dead: threading.Event = field(default_factory=threading.Event)

    def kill(self) -> None:
        self.dead.set()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


@dataclass(eq=False)
class _Entry:
    phone: PhoneLike
    lock: Any
    transport_id: int
    boot: Any = None  # the phone's ``boot_id`` when last seen


class ShellSession(Protocol):
    """A live shell connection, as a phone's ``run_shell`` sees it (see the module doc)."""

    #: A terminal (``shell,pty:`` or an interactive ``shell:``): adbd gives the command a
    #: pty, so a shell on it is interactive.
    pty: bool

    def read(self) -> bytes | None:
        """The next piece of standard input; None if none has come yet, b"" at its end."""
        ...

    def write(self, fd: int, data: bytes) -> None:
        """Output on stdout (1) or stderr (2), sent in order with the next ``flush``."""
        ...

    def flush(self) -> None:
        """Send what was written (errors are kept for ``killed``)."""
        ...

    def killed(self) -> int:
        """The signal that kills the command now (0: none): SIGHUP (1) once the client is
        gone, SIGPIPE (13) once output cannot be sent, SIGKILL (9) past the time limit."""
        ...


@dataclass(eq=False)
class _Forward:
    serial: str
    local: str
    remote: str
    listener: socket.socket | None = None
    closed: threading.Event = field(default_factory=threading.Event)


class VirtualAdbServer:
    """An adb server on ``host:port`` (port 0: any free port) serving ``phones`` by serial.

    ``start()`` runs it on daemon threads (one per connection); ``stop()`` ends it; it is
    also a context manager. ``faults`` injects failures (``Faults``). ``idle_timeout``: the
    seconds a connection may keep the server waiting for its next bytes.
    ``command_timeout``: the seconds a shell command may run while it waits (``sleep``,
    standard input) before it is killed (SIGKILL, exit 137; None: no limit).
    ``stop_on_kill``: ``adb kill-server`` stops the server, as it stops adb's (by default it
    is acknowledged and the server keeps serving; see the module doc). ``start()`` after
    ``stop()`` serves again on the same port.
    """

    def __init__(
        self,
        phones: Sequence[PhoneLike] = (),
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        idle_timeout: float = 60.0,
        command_timeout: float | None = 600.0,
        stop_on_kill: bool = False,
        faults: Faults | None = None,
    ) -> None:
        self.host = host
        self.idle_timeout = idle_timeout
        self.command_timeout = command_timeout
        self.stop_on_kill = stop_on_kill
        self._requested_port = port
        self._lock = threading.Lock()  # guards the tables below
        self._entries: dict[str, _Entry] = {}
        self._next_transport_id = 1
        self._conns: set[_Conn] = set()
        self._forwards: dict[str, _Forward] = {}
        self._listener: socket.socket | None = None
        self._port: int | None = None
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._faults_changed = threading.Event()
        self._faults = Faults()
        self.faults = faults if faults is not None else Faults()
        for phone in phones:
            self.add_phone(phone)

    # ---- public API ----------------------------------------------------------------------

    @property
    def faults(self) -> Faults:
        return self._faults

    @faults.setter
    def faults(self, value: Faults) -> None:
        object.__setattr__(value, "_on_change", self._faults_changed.set)
        self._faults = value
        self._faults_changed.set()

    @property
    def port(self) -> int:
        """The port the server listens (or last listened) on; known once started."""
        if self._port is None:
            raise RuntimeError("VirtualAdbServer is not started")
        return self._port

    @property
    def serials(self) -> list[str]:
        with self._lock:
            return list(self._entries)

    def phone(self, serial: str) -> PhoneLike:
        with self._lock:
            return self._entries[serial].phone

    def add_phone(self, phone: PhoneLike) -> int:
        """Plug a phone in; returns its transport id."""
        with self._lock:
            if phone.serial in self._entries:
                raise ValueError(f"duplicate serial {phone.serial!r}")
            lock = getattr(phone, "lock", None)
            if not (hasattr(lock, "acquire") and hasattr(lock, "__enter__")):
                lock = threading.RLock()
            entry = _Entry(phone, lock, self._next_transport_id, getattr(phone, "boot_id", None))
            self._next_transport_id += 1
            self._entries[phone.serial] = entry
            return entry.transport_id

    def remove_phone(self, serial: str) -> None:
        """Unplug a phone: it disappears, its forwards go and its connections are closed."""
        with self._lock:
            self._entries.pop(serial, None)
            forwards = [f for f in self._forwards.values() if f.serial == serial]
            for f in forwards:
                del self._forwards[f.local]
            victims = [c for c in self._conns if c.serial == serial]
        for f in forwards:
            self._close_forward(f)
        for c in victims:
            c.kill()

    def set_offline(self, serial: str, offline: bool = True) -> None:
        """Mark a serial offline (or back online); see ``Faults.offline``."""
        current = set(self.faults.offline)
        if offline:
            current.add(serial)
        else:
            current.discard(serial)
        self.faults.offline = current

    @property
    def running(self) -> bool:
        """Whether the server listens (False before ``start`` and after ``stop``/kill)."""
        return self._listener is not None

    def start(self) -> VirtualAdbServer:
        """Bind and serve on background daemon threads; returns self. A server started
        before binds the port it had again (the port asked for, or the one it got)."""
        if self._listener is not None:
            return self
        self._stopping.clear()
        port = self._requested_port or self._port or 0
        try:
            self._listener = self._bind(port)
        except OSError:
            if self._requested_port or not port:
                raise
            self._listener = self._bind(0)  # the old port was taken meanwhile
        self._port = self._listener.getsockname()[1]
        self._spawn(self._accept_loop, "virtual-adb-accept")
        self._spawn(self._watch_faults, "virtual-adb-faults")
        log.debug("virtual adb server listening on %s:%d", self.host, self.port)
        return self

    def stop(self) -> None:
        """Stop accepting, remove forwards and close every connection."""
        self._stopping.set()
        self._faults_changed.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            _close_listener(listener)
        with self._lock:
            forwards = list(self._forwards.values())
            self._forwards.clear()
            conns = list(self._conns)
            threads, self._threads = self._threads, []
        for f in forwards:
            self._close_forward(f)
        for c in conns:
            c.kill()
        for t in threads:
            if t is not threading.current_thread():
                t.join(timeout=2.0)

    def serve_forever(self) -> None:
        """Serve in the foreground until ``stop()`` (from another thread) or Ctrl-C."""
        self.start()
        try:
            while not self._stopping.wait(1.0):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def client(self, socket_timeout: float | None = None) -> Any:
        """An ``adbutils.AdbClient`` for this server (adbutils is imported lazily)."""
        import adbutils

        return adbutils.AdbClient(host=self.host, port=self.port, socket_timeout=socket_timeout)

    def __enter__(self) -> VirtualAdbServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- threads ---------------------------------------------------------------------------

    def _bind(self, port: int) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if os.name != "nt":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, port))
            sock.listen(128)
            sock.settimeout(0.25)  # accept loops poll their stop flag
        except OSError:
            sock.close()
            raise
        return sock

    def _spawn(self, target: Callable[..., None], name: str, *args: Any) -> None:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        t.start()
        if name.startswith("virtual-adb-"):
            with self._lock:
                self._threads.append(t)

    def _accept_loop(self) -> None:
        listener = self._listener
        while listener is not None and not self._stopping.is_set():
            try:
                sock, addr = listener.accept()
            except TimeoutError:
                continue
            except OSError as e:
                if not self._stopping.is_set():
                    log.debug("accept failed: %s", e)
                    self._stopping.wait(0.05)
                continue
            conn = _Conn(sock, f"{addr[0]}:{addr[1]}")
            self._register(conn)
            try:
                self._spawn(self._handle, "adb-conn", conn)
            except RuntimeError as e:  # cannot start a thread
                log.debug("dropping %s: %s", conn.peer, e)
                self._finish(conn)

    def _watch_faults(self) -> None:
        while not self._stopping.is_set():
            self._faults_changed.wait(0.25)
            self._faults_changed.clear()
            self._check_reboots()
            f = self.faults
            drop, offline = f.drop, set(f.offline)
            with self._lock:
                victims = [c for c in self._conns
                           if c.serial is not None and (drop or c.serial in offline)]
            for c in victims:
                log.debug("fault: dropping %s (%s)", c.peer, c.serial)
                c.kill()

    def _register(self, conn: _Conn) -> None:
        conn.sock.settimeout(self.idle_timeout)
        with contextlib.suppress(OSError):  # small request/reply messages: no Nagle delays
            conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            self._conns.add(conn)

    def _finish(self, conn: _Conn) -> None:
        """Unregister and close gracefully: FIN, then drain what the client still sends, so
        that unread bytes never turn the close into a reset that loses our last reply."""
        with self._lock:
            self._conns.discard(conn)
        sock = conn.sock
        if not conn.dead.is_set():
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_WR)
                sock.settimeout(1.0)
                total = 0
                while total < _DRAIN_LIMIT:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    total += len(chunk)
        with contextlib.suppress(OSError):
            sock.close()

    def _handle(self, conn: _Conn) -> None:
        try:
            self._serve(conn)
        except _Closed as e:
            log.debug("%s: closing: %s", conn.peer, e)
        except _Fail as e:
            log.debug("%s: FAIL %s", conn.peer, e)
            with contextlib.suppress(OSError):
                conn.sock.sendall(_fail_bytes(str(e)))
        except OSError as e:  # includes timeouts and resets
            log.debug("%s: connection error: %r", conn.peer, e)
        except Exception:
            log.exception("virtual adb server: unexpected error on %s", conn.peer)
        finally:
            self._finish(conn)

    # ---- host protocol ---------------------------------------------------------------------

    def _serve(self, conn: _Conn) -> None:
        """The requests of one connection, as adb's smart socket (``sockets.cpp``
        ``smart_socket_enqueue``) reads them: host requests (``host:``, ``host-serial:S:``,
        ``host-transport-id:N:``, ``host-usb:``, ``host-local:``) are answered and end the
        connection, except a transport selection, which binds the connection to a device
        and reads the next request: a device service, or a host request that then uses
        that device (``adb forward`` sends ``host:tport:any`` then ``host:forward:...``,
        as ``handle_host_request``'s ``s->transport`` serves it)."""
        entry: _Entry | None = None
        while True:
            req = _read_request(conn, first=True)
            if req is None:
                return
            where = f" [{entry.phone.serial}]" if entry is not None else ""
            log.debug("%s:%s %s", conn.peer, where, req)
            host = self._host_request(req)
            if host is None:  # a device service
                if entry is None:
                    raise _Fail("device offline (no transport)")
                self._gate(conn, entry)
                self._device_service(conn, entry, req)
                return
            selector, cmd = host
            if cmd == "kill":
                self._kill(conn)
                return
            switch = _transport_selector(cmd)
            if switch is None:
                self._host_service(conn, selector, cmd, entry)
                return
            entry = self._resolve(switch)
            self._gate(conn, entry)
            reply = b"OKAY"
            if cmd.startswith("tport:"):
                reply += struct.pack("<Q", entry.transport_id)
            conn.sock.sendall(reply)

    def _host_request(self, req: str) -> tuple[tuple[str, str], str] | None:
        """``(device selector, command)`` of a host request; None for a device service."""
        if req.startswith("host-serial:"):
            serial, cmd = self._split_serial(req[len("host-serial:") :])
            return ("serial", serial), cmd
        if req.startswith("host-transport-id:"):
            tid, _, cmd = req[len("host-transport-id:") :].partition(":")
            return ("id", tid), cmd
        if req.startswith(("host-usb:", "host-local:", "host:")):
            return ("any", ""), req.partition(":")[2]
        return None

    def _split_serial(self, rest: str) -> tuple[str, str]:
        """Split "<serial>:<command>"; serials may contain colons ("127.0.0.1:5555")."""
        for serial in sorted(self.serials, key=len, reverse=True):
            if rest.startswith(serial + ":"):
                return serial, rest[len(serial) + 1 :]
        for i, ch in enumerate(rest):
            if ch == ":" and rest[i + 1 :].startswith(_DEVICE_COMMANDS):
                return rest[:i], rest[i + 1 :]
        serial, _, cmd = rest.partition(":")
        return serial, cmd

    def _host_service(self, conn: _Conn, selector: tuple[str, str], cmd: str,
                      entry: _Entry | None) -> None:
        """A host request other than kill and transport selection; ``entry`` is the device
        the connection selected before, if any (it wins over ``selector``, as in adb)."""
        if cmd.startswith("wait-for-"):
            self._wait_for(conn, selector, cmd[len("wait-for-") :])
        elif cmd.startswith(_DEVICE_COMMANDS) and cmd not in ("list-forward", "killforward-all"):
            self._device_command(conn, selector, cmd, entry)
        else:
            self._host_command(conn, cmd)

    def _kill(self, conn: _Conn) -> None:
        """``host:kill`` (adb.cpp ``handle_host_request``): OKAY, then the connection closes
        (``adb_kill_server`` in the client waits for that); the server stops only with
        ``stop_on_kill`` (adb's exits), see the module doc."""
        conn.sock.sendall(b"OKAY")
        if self.stop_on_kill:
            log.info("virtual adb server on port %s: stopped by `adb kill-server`", self._port)
            self.stop()
        else:
            log.info("virtual adb server on port %s: `adb kill-server` acknowledged; still "
                     "serving (stop it where it was started)", self._port)

    def _host_command(self, conn: _Conn, cmd: str) -> None:
        if self.faults.drop_host:
            raise _Closed("fault: drop_host")
        send = conn.sock.sendall
        if cmd == "version":
            send(b"OKAY" + _block(f"{ADB_SERVER_VERSION:04x}"))
        elif cmd in ("devices", "devices-l"):
            send(b"OKAY" + _block(self._device_list(long=cmd == "devices-l")))
        elif cmd in ("track-devices", "track-devices-l"):
            self._track_devices(conn, long=cmd.endswith("-l"))
        elif cmd == "list-forward":
            send(b"OKAY" + _block(self._forward_listing()))
        elif cmd == "killforward-all":  # every listener, whichever device (remove_all_listeners)
            self._kill_forwards(None)
            send(b"OKAYOKAY")
        elif cmd == "host-features":
            send(b"OKAY" + _block(_HOST_FEATURES))
        elif cmd.startswith("connect:"):
            addr = cmd[len("connect:") :]
            known = addr in self.serials
            msg = f"already connected to {addr}" if known else f"failed to connect to '{addr}'"
            send(b"OKAY" + _block(msg))
        elif cmd.startswith("disconnect:"):
            raise _Fail(f"no such device '{cmd[len('disconnect:') :]}'")
        else:
            log.debug("%s: no host service %r in the virtual adb server", conn.peer, cmd)
            raise _Fail(f"unknown host service '{cmd}'")

    def _device_command(self, conn: _Conn, selector: tuple[str, str], cmd: str,
                        entry: _Entry | None = None) -> None:
        """A host command about one device: the connection's selected one, else the one
        ``selector`` names (``host-serial:S:cmd`` and friends)."""
        send = conn.sock.sendall
        if entry is None:
            entry = self._resolve(selector)
        self._gate(conn, entry, allow_offline=cmd == "get-state")
        serial = entry.phone.serial
        if cmd == "get-state":
            self._answer(conn, "offline" if self._is_offline(serial) else "device")
        elif cmd == "get-serialno":
            self._answer(conn, serial)
        elif cmd == "get-devpath":
            self._answer(conn, "unknown")
        elif cmd == "features":
            with entry.lock:
                features = list(getattr(entry.phone, "features", None) or ())
            self._answer(conn, ",".join(features))
        elif cmd.startswith("forward:"):
            self._forward(conn, serial, cmd[len("forward:") :])
        elif cmd.startswith("killforward:"):
            local = cmd[len("killforward:") :]
            with self._lock:
                fwd = self._forwards.pop(local, None)
            if fwd is None:
                raise _Fail(f"listener '{local}' not found")
            self._close_forward(fwd)
            send(b"OKAY")
            self._delay(conn)
            send(b"OKAY")
        else:
            raise _Fail(f"unknown host service '{cmd}'")

    def _answer(self, conn: _Conn, text: str) -> None:
        conn.sock.sendall(b"OKAY")
        self._delay(conn)
        conn.sock.sendall(_block(text))

    def _resolve(self, selector: tuple[str, str]) -> _Entry:
        kind, value = selector
        with self._lock:
            if kind == "serial":
                entry = self._entries.get(value)
                if entry is None:
                    raise _Fail(f"device '{value}' not found")
                return entry
            if kind == "id":
                for entry in self._entries.values():
                    if str(entry.transport_id) == value:
                        return entry
                raise _Fail(f"no device with transport id '{value}'")
            entries = list(self._entries.values())
        if not entries:
            raise _Fail("no devices/emulators found")
        if len(entries) > 1:
            raise _Fail("more than one device/emulator")
        return entries[0]

    def _is_offline(self, serial: str) -> bool:
        return serial in self.faults.offline

    def _gate(self, conn: _Conn, entry: _Entry, allow_offline: bool = False) -> None:
        """Apply the device faults to a request that selected ``entry``."""
        serial = entry.phone.serial
        f = self.faults
        if f.drop:
            raise _Closed("fault: drop")
        if f.garbage:
            conn.sock.sendall(_junk())
            raise _Closed("fault: garbage")
        if not allow_offline and self._is_offline(serial):
            raise _Fail("device offline")
        self._check_reboots(entry)
        with self._lock:
            if self._entries.get(serial) is not entry:
                raise _Fail(f"device '{serial}' not found")
            if conn.serial is None:
                conn.serial, conn.boot = serial, entry.boot
        if conn.dead.is_set():
            raise _Closed(f"{serial} rebooted")

    def _delay(self, conn: _Conn) -> None:
        delay = self.faults.delay
        if delay > 0 and conn.dead.wait(delay):
            raise _Closed("dropped while delayed")

    def _device_list(self, long: bool) -> str:
        with self._lock:
            entries = list(self._entries.values())
        lines = []
        for entry in entries:
            serial = entry.phone.serial
            state = "offline" if self._is_offline(serial) else "device"
            if not long:
                lines.append(f"{serial}\t{state}\n")
                continue
            line = f"{serial:<22} {state}"
            if state == "device":
                with entry.lock:
                    props = dict(getattr(entry.phone, "properties", None) or {})
                for tag, key in (("product", "name"), ("model", "model"), ("device", "device")):
                    value = _sanitize(props.get(f"ro.product.{key}", ""))
                    if value:
                        line += f" {tag}:{value}"
            lines.append(f"{line} transport_id:{entry.transport_id}\n")
        return "".join(lines)

    def _track_devices(self, conn: _Conn, long: bool) -> None:
        conn.sock.sendall(b"OKAY")
        last = None
        while not self._stopping.is_set():
            listing = self._device_list(long)
            if listing != last:
                conn.sock.sendall(_block(listing))
                last = listing
            readable, _, _ = select.select([conn.sock], [], [], 0.25)
            if readable and not conn.sock.recv(4096):
                return

    def _wait_for(self, conn: _Conn, selector: tuple[str, str], spec: str) -> None:
        """``wait-for-<transport>-<state>``: OKAY OKAY once it holds (polled)."""
        state = spec.rpartition("-")[2]
        if state not in ("device", "any", "disconnect", "recovery", "rescue", "sideload",
                         "bootloader"):
            raise _Fail(f"invalid state '{spec}'")
        while not self._stopping.is_set():
            with self._lock:
                if selector[0] == "serial":
                    serials = [selector[1]] if selector[1] in self._entries else []
                else:
                    serials = list(self._entries)
            online = [s for s in serials if not self._is_offline(s)]
            done = {
                "device": bool(online),
                "any": bool(serials),
                "disconnect": not online,
            }.get(state, False)
            if done:
                conn.sock.sendall(b"OKAYOKAY")
                return
            readable, _, _ = select.select([conn.sock], [], [], 0.1)
            if readable and not conn.sock.recv(4096):
                return

    # ---- forwards ---------------------------------------------------------------------------

    def _forward_listing(self) -> str:
        with self._lock:
            forwards = list(self._forwards.values())
        return "".join(f"{f.serial} {f.local} {f.remote}\n" for f in forwards)

    def _forward(self, conn: _Conn, serial: str, spec: str) -> None:
        norebind = spec.startswith("norebind:")
        if norebind:
            spec = spec[len("norebind:") :]
        local, sep, remote = spec.partition(";")
        if not sep or not local or not remote or remote.startswith("*"):
            raise _Fail(f"bad forward: forward:{spec}")
        resolved = 0
        with self._lock:
            existing = self._forwards.get(local)
            if existing is not None:
                if norebind:
                    raise _Fail("cannot rebind existing socket")
                existing.serial, existing.remote = serial, remote
        if existing is None:
            fwd = _Forward(serial, local, remote)
            if local.startswith("tcp:"):
                try:
                    port = int(local[len("tcp:") :])
                    fwd.listener = self._bind(port)
                except (ValueError, OSError) as e:
                    raise _Fail(f"cannot bind listener: {e}") from None
                bound = fwd.listener.getsockname()[1]
                if port == 0:
                    resolved = bound
                fwd.local = f"tcp:{bound}"
            with self._lock:
                if fwd.local in self._forwards:  # a concurrent forward won the race
                    self._close_forward(fwd)
                    raise _Fail("cannot rebind existing socket")
                self._forwards[fwd.local] = fwd
            if fwd.listener is not None:
                self._spawn(self._forward_loop, f"adb-forward-{fwd.local}", fwd)
        conn.sock.sendall(b"OKAY")
        self._delay(conn)
        conn.sock.sendall(b"OKAY" + (_block(str(resolved)) if resolved else b""))

    def _kill_forwards(self, serial: str | None) -> None:
        with self._lock:
            doomed = [f for f in self._forwards.values() if serial is None or f.serial == serial]
            for f in doomed:
                del self._forwards[f.local]
        for f in doomed:
            self._close_forward(f)

    @staticmethod
    def _close_forward(fwd: _Forward) -> None:
        fwd.closed.set()
        if fwd.listener is not None:
            _close_listener(fwd.listener)

    def _forward_loop(self, fwd: _Forward) -> None:
        listener = fwd.listener
        assert listener is not None
        while not fwd.closed.is_set() and not self._stopping.is_set():
            try:
                sock, addr = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                if fwd.closed.is_set():
                    return
                self._stopping.wait(0.05)
                continue
            conn = _Conn(sock, f"{addr[0]}:{addr[1]}->{fwd.local}")
            self._register(conn)
            try:
                self._spawn(self._forwarded, "adb-forwarded", conn, fwd.serial, fwd.remote)
            except RuntimeError:
                self._finish(conn)

    def _forwarded(self, conn: _Conn, serial: str, remote: str) -> None:
        try:
            with self._lock:
                entry = self._entries.get(serial)
            if entry is None:
                raise _Closed(f"device '{serial}' is gone")
            self._gate(conn, entry)
            if not remote.startswith("tcp:"):
                raise _Closed(f"cannot connect to {remote}")
            handler = self._port_handler(entry, remote[len("tcp:") :])
            if handler is None:
                raise _Closed(f"nothing listens on {remote}")
            self._delay(conn)
            self._run_handler(conn, handler)
        except _Fail as e:  # offline and such: a forwarded socket just closes
            log.debug("%s: %s", conn.peer, e)
        except (_Closed, OSError) as e:
            log.debug("%s: closing: %r", conn.peer, e)
        except Exception:
            log.exception("virtual adb server: unexpected error on %s", conn.peer)
        finally:
            self._finish(conn)

    def _port_handler(self, entry: _Entry, port_text: str) -> PortHandler | None:
        try:
            port = int(port_text)
        except ValueError:
            raise _Fail(f"bad port '{port_text}'") from None
        open_port = getattr(entry.phone, "open_port", None)
        if open_port is None:
            return None
        with entry.lock:
            return open_port(port)

    def _run_handler(self, conn: _Conn, handler: PortHandler, sock: Any = None) -> None:
        try:
            handler(conn.sock if sock is None else sock)
        except OSError as e:
            log.debug("%s: port handler: %r", conn.peer, e)
        except Exception:
            log.exception("virtual adb server: port handler failed on %s", conn.peer)

    # ---- device services ---------------------------------------------------------------------

    def _device_service(self, conn: _Conn, entry: _Entry, req: str) -> None:
        name, _, arg = req.partition(":")
        base, *options = name.split(",")
        if base == "shell":  # shell[,v2][,raw|,pty][,TERM=...]:[command] (ShellService)
            pty = "pty" in options or (not arg and "raw" not in options)
            self._shell(conn, entry, arg, v2="v2" in options, pty=pty)
        elif name == "exec":  # raw, no protocol
            self._shell(conn, entry, arg, v2=False, pty=False)
        elif name in ("abb", "abb_exec"):  # daemon/abb_service.cpp: `cmd` with \0-split args
            command = shlex.join(["cmd", *arg.split("\0")])
            self._shell(conn, entry, command, v2=name == "abb", pty=False)
        elif name == "sync":
            self._sync(conn, entry)
        elif name == "tcp":
            handler = self._port_handler(entry, arg)
            if handler is None:
                raise _Fail(f"closed: nothing listens on tcp:{arg} on {entry.phone.serial}")
            conn.sock.sendall(b"OKAY")
            self._delay(conn)
            self._run_handler(conn, handler)
        elif name == "framebuffer":
            self._framebuffer(conn, entry)
        elif name == "reboot" and callable(getattr(entry.phone, "reboot", None)):
            self._reboot(conn, entry, arg)
        elif name in _ROOT_ANSWERS:  # daemon/restart_service.cpp on a user build
            conn.sock.sendall(b"OKAY" + _ROOT_ANSWERS[name])
        elif name in _ADBD_SERVICES:
            served = "shell, exec, sync (push, pull), tcp (forward), framebuffer"
            if callable(getattr(entry.phone, "reboot", None)):
                served += ", reboot"
            raise _Fail(f"the virtual device has no '{name}' service; it serves {served}")
        else:  # adbd has no such service and closes the stream: the server says "closed"
            log.debug("%s: no device service %r in the virtual adb server", conn.peer, name)
            raise _Fail("closed")

    def _framebuffer(self, conn: _Conn, entry: _Entry) -> None:
        """``framebuffer:`` (daemon/framebuffer_service.cpp): adbd runs ``screencap`` (raw:
        width, height, format, color space, pixels) and sends DDMS's ``fbinfo`` header
        (version 2: bpp, colorSpace, size, width, height, then offset and length of red,
        blue, green and alpha) and the pixels; it closes the stream after OKAY when
        ``screencap`` gives no image it knows (only RGBA_8888 is made here)."""
        conn.sock.sendall(b"OKAY")
        code, raw, _ = self._run_shell(entry, "screencap")
        if code != 0 or len(raw) < 16:
            raise _Closed("framebuffer: screencap gave no image")
        w, h, fmt, space = struct.unpack("<4I", raw[:16])
        size = w * h * 4
        if fmt != 1 or len(raw) < 16 + size:  # RGBA_8888
            raise _Closed(f"framebuffer: screencap format {fmt}")
        header = struct.pack("<14I", 2, 32, space, size, w, h, 0, 8, 16, 8, 8, 8, 24, 8)
        conn.sock.sendall(header)
        conn.sock.sendall(raw[16:16 + size])

    def _reboot(self, conn: _Conn, entry: _Entry, target: str) -> None:
        """``reboot:[TARGET]`` (daemon/services.cpp ``reboot_device``): adbd sets
        ``sys.powerctl`` and the device goes away; only a plain reboot is modelled."""
        if target:
            raise _Fail(f"the virtual device cannot reboot into '{target}': only `adb reboot` "
                        "(a plain restart) is supported")
        conn.sock.sendall(b"OKAY")
        with entry.lock:
            entry.phone.reboot()  # type: ignore[attr-defined]
        self._check_reboots(entry)

    def _run_shell(self, entry: _Entry, command: str) -> tuple[int, bytes, bytes]:
        try:
            with entry.lock:
                code, out, err = entry.phone.shell(command)
            return int(code), bytes(out), bytes(err)
        except Exception as e:
            log.exception("virtual phone %s: shell(%r) failed", entry.phone.serial, command)
            return 255, b"", f"virtual phone error: {e!r}\n".encode()

    def _long_shell(self, conn: _Conn, entry: _Entry, command: str, v2: bool) -> bool:
        """Run ``command`` as the handler the phone's ``open_shell`` gives, if it gives one
        (see the module doc); True if it did."""
        open_shell = getattr(entry.phone, "open_shell", None)
        if open_shell is None:
            return False
        try:
            with entry.lock:
                handler = open_shell(command)
        except Exception as e:  # answered as a failed shell, as when ``shell`` raises
            log.exception("virtual phone %s: open_shell(%r) failed", entry.phone.serial, command)
            err = f"virtual phone error: {e!r}\n".encode()
            conn.sock.sendall(b"OKAY")
            conn.sock.sendall(_v2_packet(2, err) + _v2_packet(3, b"\xff") if v2 else err)
            return True
        if handler is None:
            return False
        try:
            conn.sock.sendall(b"OKAY")
            self._delay(conn)
        finally:  # the handler runs even if the connection failed: it may hold resources
            self._run_handler(conn, handler, _V2Stdout(conn.sock) if v2 else None)
        if v2:
            conn.sock.sendall(_v2_packet(3, b"\0"))
        return True

    def _shell(self, conn: _Conn, entry: _Entry, command: str, *, v2: bool, pty: bool) -> None:
        """A shell service: shell protocol v2 (framed streams and exit status) or raw."""
        if self._long_shell(conn, entry, command, v2=v2):
            return
        conn.sock.sendall(b"OKAY")
        self._delay(conn)
        run_shell = getattr(entry.phone, "run_shell", None)
        if run_shell is None:  # a phone without sessions: whole output, no stdin
            code, out, err = self._run_shell(entry, command)
            if v2:
                packets = [_v2_packet(1, chunk) for chunk in _chunks(out)]
                packets += [_v2_packet(2, chunk) for chunk in _chunks(err)]
                packets.append(_v2_packet(3, bytes([code & 0xFF])))
                conn.sock.sendall(b"".join(packets))
            else:
                conn.sock.sendall(out + err)
            return
        session = _Session(conn, v2=v2, pty=pty, limit=self.command_timeout)
        try:
            with entry.lock:
                code = int(run_shell(command, session))
        except Exception as e:  # answered as a failed shell, as when ``shell`` raises
            log.exception("virtual phone %s: run_shell(%r) failed", entry.phone.serial, command)
            session.write(2, f"virtual phone error: {e!r}\n".encode())
            code = 255
        finally:
            session.close()
        session.flush()
        if session.killed() in (1, 13):  # the client is gone: nothing to say
            raise _Closed(f"shell {command[:40]!r}: client gone")
        if v2:
            conn.sock.sendall(_v2_packet(3, bytes([code & 0xFF])))
        self._check_reboots(entry)

    # ---- reboots --------------------------------------------------------------------------------

    def _check_reboots(self, only: _Entry | None = None) -> None:
        """Notice phones whose ``boot_id`` changed (they rebooted): as when a device goes
        away and comes back, the connections bound to it before close, its forwards go
        (adb removes a transport's listeners with it) and it gets a new transport id.
        Connections bound since the reboot stay."""
        with self._lock:
            entries = [only] if only is not None else list(self._entries.values())
            rebooted: dict[str, Any] = {}
            for entry in entries:
                boot = getattr(entry.phone, "boot_id", None)
                if boot != entry.boot and self._entries.get(entry.phone.serial) is entry:
                    entry.boot = boot
                    entry.transport_id = self._next_transport_id
                    self._next_transport_id += 1
                    rebooted[entry.phone.serial] = boot
            forwards = [f for f in self._forwards.values() if f.serial in rebooted]
            for f in forwards:
                del self._forwards[f.local]
            victims = [c for c in self._conns
                       if c.serial in rebooted and c.boot != rebooted[c.serial]]
        for f in forwards:
            self._close_forward(f)
        for c in victims:
            log.debug("%s: %s rebooted", c.peer, c.serial)
            c.kill()

    # ---- sync ---------------------------------------------------------------------------------

    def _sync(self, conn: _Conn, entry: _Entry) -> None:
        conn.sock.sendall(b"OKAY")
        while True:
            header = _recv_exact(conn, 8, allow_eof=True)
            if not header:
                return
            sid, length = header[:4], struct.unpack("<I", header[4:])[0]
            if sid == b"QUIT":
                return
            if sid not in (b"STAT", b"LIST", b"RECV", b"SEND", b"STA2", b"LST2", b"LIS2"):
                _sync_fail(conn, f"unknown sync command {sid!r}")
            if length > _SYNC_PATH_MAX:
                _sync_fail(conn, "path too long")
            try:
                path = _recv_exact(conn, length).decode("utf-8")
            except UnicodeDecodeError:
                _sync_fail(conn, "path is not valid UTF-8")
            self._gate(conn, entry)
            self._delay(conn)
            if sid == b"STAT":
                mode, size, mtime = self._phone_call(conn, entry, "stat", path) or (0, 0, 0)
                conn.sock.sendall(b"STAT" + _u32s(mode, size, mtime))
            elif sid in (b"STA2", b"LST2"):
                st = self._phone_call(conn, entry, "stat", path)
                conn.sock.sendall(sid + _stat_v2(st))
            elif sid in (b"LIST", b"LIS2"):
                self._sync_list(conn, entry, path, v2=sid == b"LIS2")
            elif sid == b"RECV":
                data = self._phone_call(conn, entry, "read_file", path)
                if data is None:
                    _sync_fail(conn, f"open failed: No such file or directory: {path}")
                for chunk in _chunks(bytes(data)):
                    conn.sock.sendall(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
                conn.sock.sendall(b"DONE\0\0\0\0")
            else:
                self._sync_send(conn, entry, path)

    def _phone_call(self, conn: _Conn, entry: _Entry, method: str, *args: Any) -> Any:
        try:
            with entry.lock:
                return getattr(entry.phone, method)(*args)
        except Exception as e:
            log.exception("virtual phone %s: %s%r failed", entry.phone.serial, method, args)
            _sync_fail(conn, f"virtual phone error: {e!r}")

    def _sync_list(self, conn: _Conn, entry: _Entry, path: str, v2: bool) -> None:
        items = self._phone_call(conn, entry, "list_dir", path)
        if items is not None:
            names = {name for name, *_ in items}
            extra = []
            if "." not in names or ".." not in names:  # readdir lists them, so adbd does
                st = self._phone_call(conn, entry, "stat", path)
                st = st or (stat_mod.S_IFDIR | 0o755, 0, 0)
                extra = [(n, *st) for n in (".", "..") if n not in names]
            items = extra + list(items)
        out = []
        for name, mode, size, mtime in items or ():
            raw = name.encode("utf-8")
            if v2:
                out.append(b"DNT2" + _stat_v2((mode, size, mtime)) + struct.pack("<I", len(raw)))
            else:
                out.append(b"DENT" + _u32s(mode, size, mtime, len(raw)))
            out.append(raw)
        out.append(b"DONE" + bytes(len(_stat_v2(None)) + 4 if v2 else 16))
        conn.sock.sendall(b"".join(out))

    def _sync_send(self, conn: _Conn, entry: _Entry, spec: str) -> None:
        path, comma, mode_text = spec.rpartition(",")
        if not comma:
            _sync_fail(conn, "missing , in ID_SEND")
        try:
            mode = _c_int(mode_text)
        except ValueError:
            _sync_fail(conn, f"bad mode in ID_SEND: {mode_text!r}")
        parts: list[bytes] = []
        total = 0
        while True:
            header = _recv_exact(conn, 8)
            kind, length = header[:4], struct.unpack("<I", header[4:])[0]
            if kind == b"DONE":
                mtime = length
                break
            if kind != b"DATA":
                _sync_fail(conn, f"invalid data message {kind!r}")
            if length > _SYNC_DATA_MAX:
                _sync_fail(conn, "oversize data message")
            total += length
            if total > _MAX_PUSH:
                _sync_fail(conn, "file too large for the virtual phone")
            parts.append(_recv_exact(conn, length))
        error = self._phone_call(conn, entry, "write_file", path, b"".join(parts), mode, mtime)
        if error:
            _sync_fail(conn, str(error))
        conn.sock.sendall(b"OKAY\0\0\0\0")


# ---- wire helpers ------------------------------------------------------------------------------


class _V2Stdout:
    """A socket whose ``sendall`` sends shell v2 stdout packets (for ``open_shell``)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def sendall(self, data: bytes) -> None:
        for chunk in _chunks(bytes(data)):
            self._sock.sendall(_v2_packet(1, chunk))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _Session:
    """A running shell command's connection (``ShellSession``), as adbd's shell service
    (``daemon/shell_service.cpp``) serves it. A thread reads the client: with the shell
    protocol (``shell_protocol.h``), ``kIdStdin`` packets are input, ``kIdCloseStdin`` ends
    it, ``kIdWindowSizeChange`` is ignored, and the stream closing is a hang-up (adbd
    sends the process SIGHUP); raw, the bytes are input and the stream closing ends it
    (adbd closes the process's stdin; the command runs on). On a pty, the line discipline
    turns typed CR into NL and echoes it, a ^D at the start of a line ends the input, and
    output NL goes out as CR NL. Output waits for ``flush``: v2 packets, or raw bytes with
    stdout and stderr in the order written."""

    def __init__(self, conn: _Conn, *, v2: bool, pty: bool, limit: float | None) -> None:
        self.conn, self.v2, self.pty = conn, v2, pty
        self._deadline = None if limit is None else time.monotonic() + limit
        self._lock = threading.Lock()  # guards the fields below
        self._send_lock = threading.Lock()
        self._input = bytearray()
        self._eof = False
        self._gone = False  # the client closed the stream (v2, pty: a hang-up)
        self._broken = False  # output could not be sent
        self._pending: list[tuple[int, bytes]] = []
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()  # close() wakes the reader at once
        self._reader = threading.Thread(target=self._read_loop, daemon=True,
                                        name="adb-shell-stdin")
        self._reader.start()

    # --- ShellSession
    def read(self) -> bytes | None:
        with self._lock:
            if self._input:
                data = bytes(self._input)
                self._input.clear()
                return data
            return b"" if self._eof or self._gone else None

    def write(self, fd: int, data: bytes) -> None:
        if data:
            with self._lock:
                self._pending.append((fd, bytes(data)))

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        if not pending or self._broken:
            return
        if self.pty:
            pending = [(fd, data.replace(b"\n", b"\r\n")) for fd, data in pending]
        if self.v2:
            wire = b"".join(_v2_packet(fd, chunk) for fd, data in pending
                            for chunk in _chunks(data))
        else:
            wire = b"".join(data for _, data in pending)
        self._send(wire)

    def killed(self) -> int:
        if self._gone or self.conn.dead.is_set():
            return 1
        if self._broken:
            return 13
        if self._deadline is not None and time.monotonic() > self._deadline:
            return 9
        return 0

    def close(self) -> None:
        """Stop reading the client (the command ended)."""
        self._stop.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        if self._reader is not threading.current_thread():
            self._reader.join(timeout=1.0)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    # --- the client's side
    def _send(self, wire: bytes) -> None:
        with self._send_lock:
            try:
                self.conn.sock.sendall(wire)
            except OSError as e:
                log.debug("%s: shell output lost: %r", self.conn.peer, e)
                self._broken = True

    def _read_loop(self) -> None:
        sock, packet = self.conn.sock, bytearray()
        while not self._stop.is_set():
            with self._lock:
                full = len(self._input) >= _STDIN_BUFFER
            if full:  # nobody reads: let TCP hold the client back, as a full pipe would
                self._stop.wait(0.05)
                continue
            try:
                readable, _, _ = select.select([sock.fileno(), self._wake_r], [], [], 0.5)
                if self._wake_r in readable:
                    return
                data = sock.recv(65536) if readable else None
            except (OSError, ValueError):
                data = b""
            if data is None:
                continue
            if not data:
                with self._lock:
                    if self.v2 or self.pty:
                        self._gone = True
                    else:
                        self._eof = True
                return
            if not self.v2:
                self._take(data)
                continue
            packet += data
            while len(packet) >= 5:
                kind, length = packet[0], struct.unpack("<I", packet[1:5])[0]
                if len(packet) < 5 + length:
                    break
                body = bytes(packet[5 : 5 + length])
                del packet[: 5 + length]
                if kind == 0:  # kIdStdin
                    self._take(body)
                elif kind == 4:  # kIdCloseStdin
                    with self._lock:
                        self._eof = True

    def _take(self, data: bytes) -> None:
        """Input from the client (through the pty's line discipline on a terminal)."""
        if self.pty:
            data = data.replace(b"\r", b"\n")  # ICRNL
            with self._lock:
                at_line_start = not self._input or self._input.endswith(b"\n")
            cut = data.find(b"\x04")
            if cut >= 0 and (cut == 0 and at_line_start or data[cut - 1 : cut] == b"\n"):
                data, ended = data[:cut], True  # VEOF at the start of a line
            else:
                ended = False
            echo = data.replace(b"\n", b"\r\n")
            if echo:
                self._send(b"".join(_v2_packet(1, c) for c in _chunks(echo)) if self.v2
                           else echo)
            with self._lock:
                self._input += data
                self._eof = self._eof or ended
            return
        with self._lock:
            if not self._eof:
                self._input += data


def _recv_exact(conn: _Conn, n: int, allow_eof: bool = False) -> bytes:
    """Exactly ``n`` bytes; b"" if ``allow_eof`` and the peer closed before the first one."""
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.sock.recv(min(n - len(buf), 65536))
        if not chunk:
            if allow_eof and not buf:
                return b""
            raise _Closed(f"peer closed after {len(buf)} of {n} bytes")
        buf += chunk
    return bytes(buf)


def _read_request(conn: _Conn, first: bool = False) -> str | None:
    """One length-prefixed request; None if the peer closed cleanly before sending one."""
    head = _recv_exact(conn, 4, allow_eof=first)
    if not head:
        return None
    if not _HEX4.fullmatch(head):
        raise _Closed(f"bad length prefix {head!r}")
    length = int(head, 16)
    if length == 0:
        raise _Fail("empty request")
    payload = _recv_exact(conn, length)
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        raise _Fail("request is not valid UTF-8") from None


def _transport_selector(cmd: str) -> tuple[str, str] | None:
    """The device a ``host:transport*``/``host:tport:*`` request selects, else None."""
    for prefix in ("transport:", "tport:serial:"):
        if cmd.startswith(prefix):
            return ("serial", cmd[len(prefix) :])
    if cmd.startswith("transport-id:"):
        return ("id", cmd[len("transport-id:") :])
    if cmd in ("transport-any", "transport-usb", "transport-local", "tport:any", "tport:usb",
               "tport:local"):
        return ("any", "")
    return None


def _close_listener(sock: socket.socket) -> None:
    """Close a listening socket; shutdown first wakes a thread blocked in accept (Linux)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def _block(text: str) -> bytes:
    data = text.encode("utf-8")[:0xFFFF]
    return b"%04x" % len(data) + data


def _fail_bytes(message: str) -> bytes:
    return b"FAIL" + _block(message)


def _sync_fail(conn: _Conn, message: str) -> NoReturn:
    """Send a sync FAIL and end the session."""
    data = message.encode("utf-8")
    with contextlib.suppress(OSError):
        conn.sock.sendall(b"FAIL" + struct.pack("<I", len(data)) + data)
    raise _Closed(f"sync: {message}")


def _v2_packet(kind: int, data: bytes) -> bytes:
    return bytes([kind]) + struct.pack("<I", len(data)) + data


def _stat_v2(st: tuple[int, int, int] | None) -> bytes:
    """The stat_v2 body after the id: error dev ino mode nlink uid gid size atime mtime ctime."""
    if st is None:
        return struct.pack("<IQQIIIIQqqq", 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)  # ENOENT
    mode, size, mtime = st
    return struct.pack("<IQQIIIIQqqq", 0, 0, 0, mode & 0xFFFFFFFF, 1, 2000, 2000, size,
                       mtime, mtime, mtime)


def _u32s(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}I", *(v & 0xFFFFFFFF for v in values))


def _chunks(data: bytes) -> Iterable[bytes]:
    for i in range(0, len(data), _SYNC_DATA_MAX):
        yield data[i : i + _SYNC_DATA_MAX]


def _c_int(text: str) -> int:
    """strtoul(text, 0): decimal, 0x hex or 0-prefixed octal."""
    text = text.strip()
    if text.lower().startswith("0x"):
        return int(text[2:], 16)
    if len(text) > 1 and text.startswith("0"):
        return int(text[1:], 8)
    return int(text, 10)


def _sanitize(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", value)


def _junk() -> bytes:
    junk = os.urandom(32)
    return b"\x00" + junk if junk[:4] in (b"OKAY", b"FAIL") else junk
