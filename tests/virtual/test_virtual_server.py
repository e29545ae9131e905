"""The virtual adb server, driven by the real adbutils client against a tiny fake phone."""

from __future__ import annotations

import io
import os
import re
import shlex
import socket
import stat
import struct
import threading
import time
from collections.abc import Callable, Iterator

import adbutils
import pytest
from adbutils import AdbError, AdbTimeout, Network

from phone_gym.virtual import Faults, PhoneLike, VirtualAdbServer, VirtualPhone

# adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"

EMU = "emulator-5554"
TCP_SERIAL = "127.0.0.1:5555"  # a serial with a colon, as `adb connect` makes
PING_PORT = 7912
MAGIC = "; echo X4EXIT:$?"  # what adbutils' shell2(v2=False) appends


class FakePhone:
    """A dict filesystem and a shell that knows echo, both, exit N and sleep."""

    def __init__(self, serial: str, properties: dict[str, str] | None = None) -> None:
        self.serial = serial
        self.properties = properties or {}
        self.features = ["shell_v2", "cmd", "stat_v2"]
        self.files: dict[str, tuple[bytes, int, int]] = {
            "/sdcard/hello.txt": (b"hello\n", stat.S_IFREG | 0o644, 1_700_000_000),
        }
        self.dirs = {"/", "/sdcard", "/data", "/data/local", "/data/local/tmp"}
        self.busy = False
        self.overlaps = 0  # calls that ran while another was running (must stay 0)
        self.shells = 0
        self.commands: list[str] = []

    def _enter(self) -> None:
        if self.busy:
            self.overlaps += 1
        self.busy = True

    def shell(self, command: str) -> tuple[int, bytes, bytes]:
        self._enter()
        try:
            self.shells += 1
            self.commands.append(command)
            time.sleep(0.0005)  # widen the window in which unserialized calls would overlap
            magic = command.endswith(MAGIC)
            if magic:
                command = command[: -len(MAGIC)]
            code, out, err = self._run(shlex.split(command))
            if magic:  # a real sh prints the echo last, after everything else
                out, err = out + err + f"X4EXIT:{code}\n".encode(), b""
            return code, out, err
        finally:
            self.busy = False

    def _run(self, argv: list[str]) -> tuple[int, bytes, bytes]:
        if not argv:
            return 0, b"", b""
        if argv[0] == "echo":
            return 0, (" ".join(argv[1:]) + "\n").encode(), b""
        if argv[0] == "both":
            return 0, b"out\n", b"err\n"
        if argv[0] == "exit":
            return int(argv[1]), b"", f"exit {argv[1]}\n".encode()
        return 127, b"", f"/system/bin/sh: {argv[0]}: inaccessible or not found\n".encode()

    def stat(self, path: str) -> tuple[int, int, int] | None:
        if path in self.files:
            data, mode, mtime = self.files[path]
            return mode, len(data), mtime
        if path.rstrip("/") in self.dirs or path == "/":
            return stat.S_IFDIR | 0o771, 4096, 1_600_000_000
        return None

    def list_dir(self, path: str) -> list[tuple[str, int, int, int]] | None:
        path = path.rstrip("/") or "/"
        if path not in self.dirs:
            return None
        prefix = path if path.endswith("/") else path + "/"
        out = []
        for name, (data, mode, mtime) in sorted(self.files.items()):
            if name.startswith(prefix) and "/" not in name[len(prefix) :]:
                out.append((name[len(prefix) :], mode, len(data), mtime))
        return out

    def read_file(self, path: str) -> bytes | None:
        entry = self.files.get(path)
        return entry[0] if entry else None

    def write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None:
        if path.startswith("/readonly/"):
            return "Read-only file system"
        self.files[path] = (data, mode, mtime)
        return None

    def open_port(self, port: int) -> Callable[[socket.socket], None] | None:
        return _ping_handler if port == PING_PORT else None


def _ping_handler(sock: socket.socket) -> None:
    """Answer each line "x" with "pong:x" until the client goes away."""
    buf = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            sock.sendall(b"pong:" + line + b"\n")


@pytest.fixture
def phones() -> list[FakePhone]:
    props = {"ro.product.model": "Pixel 8", "ro.product.name": "husky",
             "ro.product.device": "husky"}
    return [FakePhone(EMU, props), FakePhone(TCP_SERIAL)]


@pytest.fixture
def server(phones: list[FakePhone]) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer(phones, idle_timeout=5.0) as srv:
        yield srv


@pytest.fixture
def client(server: VirtualAdbServer) -> adbutils.AdbClient:
    return adbutils.AdbClient(host="127.0.0.1", port=server.port, socket_timeout=5)


def _raw(server: VirtualAdbServer) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    return s


def _req(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % len(data) + data


def _read_all(s: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def _recv_n(s: socket.socket, n: int) -> bytes:
    """``n`` bytes (fewer if the stream ends first)."""
    data = b""
    while len(data) < n and (chunk := s.recv(n - len(data))):
        data += chunk
    return data


def _ping(sock: socket.socket, text: str = "ping") -> bytes:
    sock.sendall(text.encode() + b"\n")
    want = len("pong:") + len(text) + 1
    got = b""
    while len(got) < want:
        chunk = sock.recv(want - len(got))
        if not chunk:
            break
        got += chunk
    return got


# ---- host services --------------------------------------------------------------------------


def test_fake_phone_is_phone_like(phones: list[FakePhone]) -> None:
    assert all(isinstance(p, PhoneLike) for p in phones)


def test_server_version_and_devices(client: adbutils.AdbClient) -> None:
    assert client.server_version() == 41
    assert [(d.serial, d.state) for d in client.list()] == [(EMU, "device"), (TCP_SERIAL, "device")]
    assert [d.serial for d in client.device_list()] == [EMU, TCP_SERIAL]
    long = {d.serial: d for d in client.list(extended=True)}
    assert long[EMU].tags == {"product": "husky", "model": "Pixel_8", "device": "husky",
                              "transport_id": "1"}
    assert long[TCP_SERIAL].tags == {"transport_id": "2"}
    assert long[TCP_SERIAL].transport_id == 2


def test_track_devices_and_wait_for(server: VirtualAdbServer,
                                    client: adbutils.AdbClient) -> None:
    events = client.track_devices()
    try:
        assert {next(events), next(events)} == {
            adbutils.DeviceEvent(True, EMU, "device"),
            adbutils.DeviceEvent(True, TCP_SERIAL, "device"),
        }
        client.wait_for(EMU, state="device", timeout=2)
        server.set_offline(EMU)
        assert [next(events), next(events)] == [adbutils.DeviceEvent(False, EMU, "absent"),
                                                adbutils.DeviceEvent(True, EMU, "offline")]
        client.wait_for(EMU, state="disconnect", timeout=2)
    finally:
        events.close()


def test_idle_client_is_dropped(phones: list[FakePhone]) -> None:
    with VirtualAdbServer(phones, idle_timeout=0.2) as srv, _raw(srv) as s:
        s.sendall(b"000c")  # a length, then silence
        t0 = time.monotonic()
        assert _read_all(s) == b""
        assert time.monotonic() - t0 < 3.0


def test_port_before_start_and_duplicate_serials(phones: list[FakePhone]) -> None:
    srv = VirtualAdbServer(phones)
    with pytest.raises(RuntimeError):
        _ = srv.port
    with pytest.raises(ValueError):
        VirtualAdbServer([phones[0], phones[0]])


def test_stop_refuses_connections(phones: list[FakePhone]) -> None:
    srv = VirtualAdbServer(phones).start()
    port = srv.port
    c = adbutils.AdbClient(host="127.0.0.1", port=port, socket_timeout=2)
    assert c.server_version() == 41
    t0 = time.monotonic()
    srv.stop()
    assert time.monotonic() - t0 < 2.0
    with pytest.raises(AdbError):
        c.server_version()


# ---- shell ----------------------------------------------------------------------------------


def test_shell_v1_merges_stdout_and_stderr(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    assert d.shell("echo hello world") == "hello world"
    assert d.shell("both") == "out\nerr"
    assert d.shell(["echo", "a b"]) == "a b"  # list form is quoted by adbutils
    assert client.device(TCP_SERIAL).shell("echo other") == "other"


def test_shell2_v2_separates_streams(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    r = d.shell2("both", v2=True)
    assert (r.returncode, r.stdout, r.stderr, r.output) == (0, "out\n", "err\n", "out\nerr\n")
    r = d.shell2("exit 3", v2=True)
    assert (r.returncode, r.stdout, r.stderr) == (3, "", "exit 3\n")
    assert d.shell2("nosuchcmd", v2=True).returncode == 127


def test_shell2_v1_exit_code_trick(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    r = d.shell2("both", v2=False)
    assert (r.returncode, r.output) == (0, "out\nerr\n")
    assert d.shell2("exit 5").returncode == 5


def test_device_by_transport_id(client: adbutils.AdbClient) -> None:
    d = client.device(transport_id=2)
    assert d.shell("echo by-id") == "by-id"
    assert d.get_serialno() == TCP_SERIAL


def test_get_state_serialno_devpath_features(client: adbutils.AdbClient) -> None:
    for serial in (EMU, TCP_SERIAL):
        d = client.device(serial)
        assert d.get_state() == "device"
        assert d.get_serialno() == serial
        assert d.get_devpath() == "unknown"
        assert d.get_features() == "shell_v2,cmd,stat_v2"


# ---- sync -----------------------------------------------------------------------------------


def test_sync_push_pull_stat_list(client: adbutils.AdbClient, phones: list[FakePhone],
                                  tmp_path) -> None:
    d = client.device(EMU)
    assert d.sync.push(b"abc", "/sdcard/a.txt", mode=0o644) == 3
    assert phones[0].files["/sdcard/a.txt"][:2] == (b"abc", stat.S_IFREG | 0o644)
    big = bytes(range(256)) * 800  # 204800 bytes: several 64k DATA chunks each way
    assert d.sync.push(io.BytesIO(big), "/sdcard/big.bin") == len(big)
    assert d.sync.read_bytes("/sdcard/big.bin") == big
    assert d.sync.read_text("/sdcard/a.txt") == "abc"
    assert d.sync.pull("/sdcard/hello.txt", tmp_path / "h.txt") == 6
    assert (tmp_path / "h.txt").read_bytes() == b"hello\n"

    st = d.sync.stat("/sdcard/hello.txt")
    assert (st.mode, st.size, int(st.mtime.timestamp())) == (stat.S_IFREG | 0o644, 6,
                                                             1_700_000_000)
    assert stat.S_ISDIR(d.sync.stat("/sdcard").mode)
    missing = d.sync.stat("/sdcard/nope")
    assert (missing.mode, missing.size, missing.mtime) == (0, 0, None)
    assert not d.sync.exists("/sdcard/nope")

    entries = {f.path: f for f in d.sync.list("/sdcard")}
    assert set(entries) == {".", "..", "a.txt", "big.bin", "hello.txt"}
    assert entries["big.bin"].size == len(big)
    assert d.sync.list("/no/such/dir") == []


def test_sync_errors(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    with pytest.raises(AdbError, match="No such file"):
        d.sync.read_bytes("/sdcard/nope")
    with pytest.raises(AdbError):
        d.sync.push(b"x", "/readonly/x")
    assert d.sync.read_text("/sdcard/hello.txt") == "hello\n"  # still fine afterwards


# ---- forwarding and device TCP --------------------------------------------------------------


def test_create_connection_reaches_port_handler(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    sock = d.create_connection(Network.TCP, PING_PORT)
    try:
        assert _ping(sock, "a") == b"pong:a\n"
        assert _ping(sock, "b") == b"pong:b\n"
    finally:
        sock.close()
    with pytest.raises(AdbError, match="closed"):
        d.create_connection(Network.TCP, 1234)
    with pytest.raises(AdbError, match="^closed$"):  # adbd has no such service: it closes
        d.create_connection(Network.LOCAL_ABSTRACT, "minicap")


def test_forward_list_connect_remove(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    local = d.forward_port(PING_PORT)
    assert d.forward_port(PING_PORT) == local  # reused
    item = adbutils.ForwardItem(EMU, f"tcp:{local}", f"tcp:{PING_PORT}")
    assert d.forward_list() == [item]
    assert client.forward_list() == [item]
    with socket.create_connection(("127.0.0.1", local), timeout=5) as s:
        assert _ping(s, "fwd") == b"pong:fwd\n"

    with pytest.raises(AdbError, match="cannot rebind"):
        d.forward(f"tcp:{local}", "tcp:1", norebind=True)
    d.forward_remove(f"tcp:{local}")
    assert d.forward_list() == []
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", local), timeout=2).close()
    with pytest.raises(AdbError, match="not found"):
        d.forward_remove(f"tcp:{local}")


def test_forward_to_port_without_handler_closes(client: adbutils.AdbClient) -> None:
    d = client.device(TCP_SERIAL)
    local = d.forward_port(4321)
    with socket.create_connection(("127.0.0.1", local), timeout=5) as s:
        assert _read_all(s) == b""
    d.forward_remove_all()
    assert client.forward_list() == []


def test_forward_tcp0_reports_port(server: VirtualAdbServer) -> None:
    with _raw(server) as s:
        s.sendall(_req(f"host-serial:{TCP_SERIAL}:forward:tcp:0;tcp:{PING_PORT}"))
        reply = _read_all(s)
    assert reply[:8] == b"OKAYOKAY"
    port = int(reply[12 : 12 + int(reply[8:12], 16)])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        assert _ping(c) == b"pong:ping\n"


# ---- errors and malformed input ---------------------------------------------------------------


def test_unknown_serial(client: adbutils.AdbClient) -> None:
    d = client.device("nope")
    with pytest.raises(AdbError, match="device 'nope' not found"):
        d.shell("echo hi")
    with pytest.raises(AdbError, match="device 'nope' not found"):
        d.get_state()
    with pytest.raises(AdbError, match="device 'nope' not found"):
        d.sync.read_bytes("/sdcard/hello.txt")


def test_unknown_services_fail(client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    with d.open_transport() as c:
        c.send_command("frobnicate:now")
        with pytest.raises(AdbError, match="^closed$"):  # as the real server answers
            c.check_okay()
    with client.make_connection() as c:
        c.send_command("host:frobnicate")
        with pytest.raises(AdbError, match="^unknown host service 'frobnicate'$"):
            c.check_okay()
    with client.make_connection() as c:  # a device service without a transport (sockets.cpp)
        c.send_command("shell:echo hi")
        with pytest.raises(AdbError, match=r"^device offline \(no transport\)$"):
            c.check_okay()


def test_malformed_input_closes_only_that_connection(server: VirtualAdbServer,
                                                     client: adbutils.AdbClient) -> None:
    bystander = client.device(EMU).create_connection(Network.TCP, PING_PORT)
    try:
        assert _ping(bystander, "before") == b"pong:before\n"
        junk_inputs = [
            b"zzzz",  # not hex
            b"0x12host:version",  # not hex either
            b"ffff" + b"host:ver",  # claims 65535 bytes, then closes mid-request
            b"00",  # closes inside the length prefix
            b"",  # connects and closes at once
        ]
        for junk in junk_inputs:
            with _raw(server) as s:
                s.sendall(junk)
                s.shutdown(socket.SHUT_WR)
                assert _read_all(s) == b""
        with _raw(server) as s:
            s.sendall(b"0000")
            assert _read_all(s).startswith(b"FAIL")
        with _raw(server) as s:
            s.sendall(b"0004\xff\xfe\xfd\xfc")
            assert _read_all(s).startswith(b"FAIL")

        sync_junk = [
            b"JUNK" + struct.pack("<I", 4) + b"abcd",  # unknown sync id
            b"STAT" + struct.pack("<I", 0xFFFFFFFF),  # huge path length
            b"SEND" + struct.pack("<I", 8) + b"/x,33188" + b"DATA" + struct.pack("<I", 1 << 24),
            b"SEND" + struct.pack("<I", 8) + b"/x,33188" + b"WHAT" + struct.pack("<I", 0),
            b"SEND" + struct.pack("<I", 2) + b"/x",  # no ",mode"
            b"STAT" + struct.pack("<I", 2) + b"\xff\xfe",  # not UTF-8
        ]
        for junk in sync_junk:
            with _raw(server) as s:
                s.sendall(_req(f"host:transport:{EMU}"))
                assert s.recv(4) == b"OKAY"
                s.sendall(_req("sync:"))
                assert s.recv(4) == b"OKAY"
                s.sendall(junk)
                assert _read_all(s).startswith(b"FAIL")
        with _raw(server) as s:  # sync closed mid-packet
            s.sendall(_req(f"host:transport:{EMU}") + _req("sync:") + b"STA")
            s.shutdown(socket.SHUT_WR)
            assert _read_all(s) == b"OKAYOKAY"

        assert _ping(bystander, "after") == b"pong:after\n"
    finally:
        bystander.close()
    assert client.device(EMU).shell("echo still fine") == "still fine"
    assert client.server_version() == 41


def test_many_concurrent_clients(client: adbutils.AdbClient, phones: list[FakePhone]) -> None:
    errors: list[BaseException] = []

    def work(i: int) -> None:
        d = client.device(EMU if i % 2 else TCP_SERIAL)
        try:
            for j in range(20):
                assert d.shell(f"echo {i}-{j}") == f"{i}-{j}"
        except BaseException as e:  # noqa: B036 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert sum(p.shells for p in phones) == 160
    assert [p.overlaps for p in phones] == [0, 0]


def test_phone_errors_are_answered_not_fatal(phones: list[FakePhone]) -> None:
    class Broken(FakePhone):
        def shell(self, command: str) -> tuple[int, bytes, bytes]:
            raise RuntimeError("boom")

        def read_file(self, path: str) -> bytes | None:
            raise RuntimeError("disk on fire")

    broken = Broken("broken")
    broken.lock = threading.RLock()  # the phone's own lock is used when it has one
    with VirtualAdbServer([broken]) as srv:
        assert srv._entries["broken"].lock is broken.lock
        d = srv.client(socket_timeout=5).device("broken")
        r = d.shell2("echo hi", v2=True)
        assert (r.returncode, r.stdout) == (255, "")
        assert "boom" in r.stderr
        with pytest.raises(AdbError, match="disk on fire"):
            d.sync.read_bytes("/sdcard/hello.txt")
        assert d.get_state() == "device"


# ---- faults ---------------------------------------------------------------------------------


def test_fault_delay_times_out_then_recovers(server: VirtualAdbServer) -> None:
    fast = adbutils.AdbClient(host="127.0.0.1", port=server.port, socket_timeout=0.3)
    d = fast.device(EMU)
    d.get_features()  # cached, so shell2(v2=True) below need not ask (slowly) again
    server.faults.delay = 0.8
    with pytest.raises(AdbTimeout):
        d.shell("echo slow", timeout=0.3)
    with pytest.raises(AdbTimeout):
        d.shell2("echo slow", timeout=0.3, v2=True)
    with pytest.raises(AdbTimeout):
        d.sync.read_bytes("/sdcard/hello.txt")
    assert fast.server_version() == 41  # host services are not slowed
    server.faults.delay = 0.0
    assert d.shell("echo fast", timeout=2) == "fast"


def test_fault_drop_errors_fast_and_cuts_ongoing(server: VirtualAdbServer,
                                                 client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    ongoing = d.create_connection(Network.TCP, PING_PORT)
    ongoing.settimeout(5)
    local = d.forward_port(PING_PORT)
    assert _ping(ongoing) == b"pong:ping\n"
    t0 = time.monotonic()
    server.faults.drop = True
    assert _read_all(ongoing) == b""  # the unplugged phone's socket closes
    ongoing.close()
    with pytest.raises(AdbError):
        d.shell("echo hi")
    with pytest.raises(AdbError):
        d.get_state()
    with pytest.raises(AdbError):
        d.sync.read_bytes("/sdcard/hello.txt")
    with socket.create_connection(("127.0.0.1", local), timeout=5) as s:
        assert _read_all(s) == b""
    assert time.monotonic() - t0 < 3.0
    assert client.server_version() == 41  # drop leaves host services up
    server.faults.drop = False
    assert d.shell("echo back") == "back"


def test_fault_drop_host(server: VirtualAdbServer, client: adbutils.AdbClient) -> None:
    server.faults.drop_host = True
    with pytest.raises(AdbError):
        client.server_version()
    with pytest.raises(AdbError):
        client.list()
    server.faults = Faults()
    assert client.server_version() == 41


def test_fault_garbage(server: VirtualAdbServer, client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    server.faults.garbage = True
    with pytest.raises(AdbError, match="Unknown data"):
        d.shell("echo hi")
    with pytest.raises(AdbError, match="Unknown data"):
        d.get_state()
    server.faults.clear()
    assert d.shell("echo clean") == "clean"


def test_fault_offline(server: VirtualAdbServer, client: adbutils.AdbClient) -> None:
    d = client.device(EMU)
    ongoing = d.create_connection(Network.TCP, PING_PORT)
    ongoing.settimeout(5)
    server.set_offline(EMU)
    assert _read_all(ongoing) == b""
    ongoing.close()
    assert {i.serial: i.state for i in client.list()} == {EMU: "offline", TCP_SERIAL: "device"}
    assert [x.serial for x in client.device_list()] == [TCP_SERIAL]
    assert d.get_state() == "offline"
    with pytest.raises(AdbError, match="device offline"):
        d.shell("echo hi")
    assert client.device(TCP_SERIAL).shell("echo up") == "up"
    server.set_offline(EMU, False)
    assert d.get_state() == "device"
    assert d.shell("echo online") == "online"


def test_remove_phone(server: VirtualAdbServer, client: adbutils.AdbClient) -> None:
    server.remove_phone(TCP_SERIAL)
    assert [i.serial for i in client.list()] == [EMU]
    with pytest.raises(AdbError, match="not found"):
        client.device(TCP_SERIAL).shell("echo")
    assert client.device().shell("echo only") == "only"  # single device: no serial needed


# ---- kill-server, requests after a transport, adbd services -------------------------------------


def test_kill_server_is_acknowledged_and_serving_goes_on(server: VirtualAdbServer,
                                                         client: adbutils.AdbClient) -> None:
    with _raw(server) as s:  # adb kill-server: OKAY, then the client waits for the close
        s.sendall(_req("host:kill"))
        assert _read_all(s) == b"OKAY"
    assert server.running and client.server_version() == 41
    assert client.device(EMU).shell("echo alive") == "alive"


def test_stop_on_kill_stops_like_adbs_server(phones: list[FakePhone]) -> None:
    with VirtualAdbServer(phones, stop_on_kill=True) as srv:
        port = srv.port
        client = adbutils.AdbClient(host="127.0.0.1", port=port, socket_timeout=2)
        client.server_kill()
        assert not srv.running
        with pytest.raises(AdbError):
            client.server_version()
        srv.start()
        assert srv.port == port and client.server_version() == 41


def test_host_requests_after_a_transport_use_that_device(server: VirtualAdbServer) -> None:
    """``adb forward`` without -s sends ``host:tport:any`` and then ``host:forward:...`` on
    the same connection (adb.cpp ``handle_host_request`` serves it with ``s->transport``)."""
    with _raw(server) as s:  # the selected device wins over the request's own "any"
        s.sendall(_req(f"host:transport:{EMU}") + _req("host:get-serialno"))
        assert _read_all(s) == b"OKAYOKAY" + _req(EMU)
    server.remove_phone(TCP_SERIAL)  # one device, so that "any" finds it
    with _raw(server) as s:
        s.sendall(_req("host:tport:any"))
        assert _recv_n(s, 12) == b"OKAY" + struct.pack("<Q", 1)
        s.sendall(_req(f"host:forward:tcp:0;tcp:{PING_PORT}"))
        reply = _read_all(s)
    assert reply[:8] == b"OKAYOKAY"
    port = int(reply[12 : 12 + int(reply[8:12], 16)])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        assert _ping(c, "via tport") == b"pong:via tport\n"


def test_adbd_services_the_virtual_device_answers(client: adbutils.AdbClient,
                                                  phones: list[FakePhone]) -> None:
    d = client.device(EMU)
    for service, answer in (("root:", b"adbd cannot run as root in production builds\n"),
                            ("unroot:", b"adbd not running as root\n")):
        with d.open_transport() as c:
            c.send_command(service)
            c.check_okay()
            assert c.read_until_close(encoding=None) == answer
    with d.open_transport() as c:  # abb_exec (adb install, uninstall): `cmd` with its args
        c.send_command("abb_exec:package\0list\0packages")
        c.check_okay()
        assert c.read_until_close() == "/system/bin/sh: cmd: inaccessible or not found\n"
    assert phones[0].commands[-1] == "cmd package list packages"
    served = "shell, exec, sync (push, pull), tcp (forward), framebuffer"  # no reboot
    for service, error in (("tcpip:5555", f"the virtual device has no 'tcpip' service; it "
                                          f"serves {served}"),
                           ("reboot:", f"the virtual device has no 'reboot' service; it "
                                       f"serves {served}")):
        with d.open_transport() as c:
            c.send_command(service)
            with pytest.raises(AdbError, match=f"^{re.escape(error)}$"):
                c.check_okay()


class RebootingPhone(FakePhone):
    """A fake phone with a boot id, as ``VirtualPhone`` has."""

    def __init__(self, serial: str) -> None:
        super().__init__(serial)
        self.boot_id = "boot-1"
        self.reboots = 0

    def reboot(self) -> None:
        self.reboots += 1
        self.boot_id = f"boot-{self.reboots + 1}"


def test_a_rebooted_phone_drops_its_connections_and_forwards() -> None:
    phone = RebootingPhone(EMU)
    with VirtualAdbServer([phone], idle_timeout=5.0) as srv:
        client = adbutils.AdbClient(host="127.0.0.1", port=srv.port, socket_timeout=5)
        d = client.device(EMU)
        before = d.create_connection(Network.TCP, PING_PORT)
        local = d.forward_port(PING_PORT)
        assert _ping(before, "up") == b"pong:up\n"
        phone.reboot()  # as if the phone restarted by itself
        assert d.shell("echo new boot") == "new boot"  # a new connection works at once
        before.settimeout(2)
        assert _read_all(before) == b""  # one from before the reboot is gone
        assert client.forward_list() == []
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", local), timeout=2).close()
        assert client.list(extended=True)[0].transport_id == 2
        with d.open_transport() as c:  # adb reboot: the reboot: service
            c.send_command("reboot:")
            c.check_okay()
            assert c.read_until_close() == ""
        assert phone.reboots == 2 and phone.boot_id == "boot-3"
        assert client.list(extended=True)[0].transport_id == 3
        with d.open_transport() as c:
            c.send_command("reboot:bootloader")
            with pytest.raises(AdbError, match="cannot reboot into 'bootloader'"):
                c.check_okay()
        assert phone.reboots == 2


# ---- live shell sessions (VirtualPhone.run_shell) -----------------------------------------------


def _v2(kind: int, data: bytes = b"") -> bytes:
    return bytes([kind]) + struct.pack("<I", len(data)) + data


def _v2_read(s: socket.socket) -> tuple[bytes, bytes, int | None]:
    """stdout, stderr and the exit status of a ``shell,v2`` stream (None: closed early)."""
    return _v2_parse(_read_all(s))


def _v2_parse(data: bytes) -> tuple[bytes, bytes, int | None]:
    streams: dict[int, bytes] = {1: b"", 2: b""}
    while len(data) >= 5:
        kind, length = data[0], struct.unpack("<I", data[1:5])[0]
        body, data = data[5 : 5 + length], data[5 + length :]
        if kind == 3:
            return streams[1], streams[2], body[0]
        streams[kind] += body
    return streams[1], streams[2], None


@pytest.fixture
def live() -> Iterator[tuple[VirtualAdbServer, VirtualPhone]]:
    phone = VirtualPhone(EMU)
    with VirtualAdbServer([phone], idle_timeout=5.0, command_timeout=3.0) as srv:
        yield srv, phone


def _shell_conn(srv: VirtualAdbServer, service: str) -> socket.socket:
    s = _raw(srv)
    s.sendall(_req(f"host:transport:{EMU}") + _req(service))
    assert _recv_n(s, 8) == b"OKAYOKAY"
    return s


def test_stdin_reaches_a_live_shell(live: tuple[VirtualAdbServer, VirtualPhone]) -> None:
    srv, _ = live
    with _shell_conn(srv, "shell,v2,raw:cat; echo done >&2; exit 4") as s:
        s.sendall(_v2(0, b"line one\n") + _v2(0, b"line two\n") + _v2(4))  # kIdCloseStdin
        assert _v2_read(s) == (b"line one\nline two\n", b"done\n", 4)
    with _shell_conn(srv, "exec:cat") as s:  # raw: the stream's end is stdin's end
        s.sendall(b"raw bytes\x00\xff")
        s.shutdown(socket.SHUT_WR)
        assert _read_all(s) == b"raw bytes\x00\xff"
    with _shell_conn(srv, "shell,v2,raw:") as s:  # no command: sh reads its script on stdin
        s.sendall(_v2(0, b"cd /sdcard\npwd\nexit 5\necho never\n"))
        assert _v2_read(s) == (b"/sdcard\n", b"", 5)


def test_a_pty_shell_is_interactive(live: tuple[VirtualAdbServer, VirtualPhone]) -> None:
    """mksh on a terminal: a prompt before each line (``STATUS|`` after a failure), typed
    lines echoed with CR NL, ``exit N`` as the status."""
    srv, _ = live
    with _shell_conn(srv, "shell,v2,TERM=xterm-256color,pty:") as s:
        seen = b""
        for line, prompt in ((b"", b"phoneworld:/ $ "), (b"false\r", b"1|phoneworld:/ $ "),
                             (b"cd /sdcard\r", b"phoneworld:/sdcard $ ")):
            s.sendall(_v2(0, line))
            while not seen.endswith(prompt):
                chunk = s.recv(4096)
                assert chunk, seen
                seen += chunk
        s.sendall(_v2(0, b"exit 3\r"))
        out, err, code = _v2_read(s)
    assert _v2_parse(seen) == (b"phoneworld:/ $ false\r\n1|phoneworld:/ $ cd /sdcard\r\n"
                               b"phoneworld:/sdcard $ ", b"", None)
    assert (out, err, code) == (b"exit 3\r\n", b"", 3)


def test_sleep_waits_for_real_and_dies_with_its_client(
        live: tuple[VirtualAdbServer, VirtualPhone]) -> None:
    srv, phone = live
    d = srv.client(socket_timeout=5).device(EMU)
    start = time.monotonic()
    assert d.shell2("sleep 0.5; echo woke").output == "woke\n"
    assert 0.45 <= time.monotonic() - start < 3
    with pytest.raises(AdbTimeout):  # the client's timeout fires while the phone sleeps
        d.shell("sleep 30", timeout=0.3)
    start = time.monotonic()
    assert d.shell("echo meanwhile") == "meanwhile"  # the phone is not held by the sleeper
    assert time.monotonic() - start < 2
    deadline = time.monotonic() + 5
    while any(t.name == "adb-shell-stdin" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the sleeping command outlived its client"
        time.sleep(0.05)
    with _shell_conn(srv, "shell,v2,raw:sleep 60") as s:  # past command_timeout: SIGKILL
        start = time.monotonic()
        assert _v2_read(s) == (b"", b"", 137)
        assert 2.5 < time.monotonic() - start < 6
