"""Google's ``adb`` command-line tool against the virtual device: what a user types.

The tests point ``adb`` at the virtual server with ``-H 127.0.0.1 -P PORT`` (and
``ANDROID_ADB_SERVER_PORT``): the client then talks to it as to its own adb server, and,
since 127.0.0.1 is not "localhost" to it (``socket_spec.cpp`` ``tcp_host_is_local``), it
never starts a real adb server when it cannot connect; a module fixture checks at the end
that no adb server process was left behind. Skipped where ``adb`` is not installed
(``apt-get install adb``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import io
import os
import pty
import select
import shutil
import subprocess
import threading
import time
import tracemalloc
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import numpy as np
import pytest
from PIL import Image

from phone_gym.virtual import VirtualAdbServer, VirtualPhone
from phone_gym.virtual.phone import BOOT_ID_PATH
from phone_gym.virtual.u2 import DEFAULT_PORT, attach_u2

ADB = shutil.which("adb")
pytestmark = pytest.mark.skipif(
    ADB is None, reason="Google's adb command-line tool is not installed (apt-get install adb)")

SERIAL = "emulator-5554"


def adb_servers() -> set[int]:
    """Pids of running adb server processes (``adb ... fork-server server``, ``adb server``)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"adb" and (b"server" in argv or b"fork-server" in argv):
            found.add(int(entry.name))
    return found


@pytest.fixture(scope="module", autouse=True)
def no_stray_adb_server() -> Iterator[None]:
    before = adb_servers()
    yield
    assert adb_servers() <= before, "an adb command started a real adb server"


@pytest.fixture
def phone() -> VirtualPhone:
    return attach_u2(VirtualPhone(SERIAL), running=True)


@pytest.fixture
def server(phone: VirtualPhone) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer([phone]) as srv:
        yield srv


def command(server: VirtualAdbServer, *args: str) -> list[str]:
    assert ADB is not None
    return [ADB, "-H", "127.0.0.1", "-P", str(server.port), *args]


def environ(server: VirtualAdbServer, home: Path) -> dict[str, str]:
    return {**os.environ, "ANDROID_ADB_SERVER_PORT": str(server.port), "HOME": str(home)}


class Adb(Protocol):
    def __call__(self, *args: str, input: bytes = b"", timeout: float = 20.0,
                 target: VirtualAdbServer | None = None) -> subprocess.CompletedProcess[bytes]:
        """Run ``adb ARGS`` against ``target`` (the test's server); the finished process."""
        ...


@pytest.fixture
def adb(server: VirtualAdbServer, tmp_path: Path) -> Adb:
    def run(*args: str, input: bytes = b"", timeout: float = 20.0,
            target: VirtualAdbServer | None = None) -> subprocess.CompletedProcess[bytes]:
        target = target or server
        return subprocess.run(command(target, *args), input=input, capture_output=True,
                              env=environ(target, tmp_path), timeout=timeout, check=False)
    return run


def text(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode()


# --- devices and shell --------------------------------------------------------------------------

def test_devices_state_and_serial(adb: Adb, server: VirtualAdbServer, tmp_path: Path) -> None:
    assert text(adb("devices")) == f"List of devices attached\n{SERIAL}\tdevice\n\n"
    # the port alone, as `phone-gym virtual-device` suggests: ANDROID_ADB_SERVER_PORT=N adb ...
    plain = subprocess.run([str(ADB), "devices"], env=environ(server, tmp_path),
                           capture_output=True, timeout=20, check=False)
    assert plain.stdout == adb("devices").stdout
    long = text(adb("devices", "-l"))
    assert f"{SERIAL}          device product:phoneworld model:PhoneWorld device:phoneworld " \
           "transport_id:1\n" in long
    assert text(adb("get-state")) == "device\n"
    assert text(adb("-s", SERIAL, "get-serialno")) == f"{SERIAL}\n"
    assert adb("wait-for-device", timeout=5).returncode == 0


def test_shell_exit_status_stdout_and_stderr(adb: Adb) -> None:
    proc = adb("shell", "echo", "hi")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"hi\n", b"")
    assert adb("shell", "exit 3").returncode == 3
    proc = adb("shell", "ls", "/nope")
    assert proc.returncode == 1 and proc.stdout == b""
    assert proc.stderr == b"ls: /nope: No such file or directory\n"
    assert text(adb("-s", SERIAL, "shell", "getprop", "ro.serialno")) == f"{SERIAL}\n"
    assert text(adb("shell", "exec", "echo", "replaced")) == "replaced\n"


def test_stdin_is_piped_into_the_shell_command(adb: Adb) -> None:
    assert adb("shell", "cat", input=b"x\ny\n").stdout == b"x\ny\n"
    data = os.urandom(150_000).hex().encode() + b"\n"  # more than one packet, more than 64 KiB
    proc = adb("shell", "cat", input=data)
    assert proc.returncode == 0 and proc.stdout == data
    assert text(adb("shell", "cat > /sdcard/Download/in.txt", input=b"kept\n")) == ""
    assert text(adb("shell", "cat", "/sdcard/Download/in.txt")) == "kept\n"


def test_shell_without_a_command_runs_the_script_on_stdin(adb: Adb) -> None:
    proc = adb("shell", input=b"cd /sdcard\npwd\necho 'two\nlines'\nexit 5\necho never\n")
    assert (proc.returncode, text(proc)) == (5, "/sdcard\ntwo\nlines\n")


def test_interactive_shell_on_a_terminal(server: VirtualAdbServer, tmp_path: Path) -> None:
    """``adb shell`` typed at a terminal: mksh's prompt (``STATUS|`` after a failure), the
    terminal's echo, CR NL line ends, and ``exit N`` as adb's exit status."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(command(server, "shell"), stdin=slave, stdout=slave, stderr=slave,
                            env=environ(server, tmp_path), start_new_session=True)
    os.close(slave)
    try:
        def until(marker: bytes) -> bytes:
            seen, end = b"", time.monotonic() + 10
            while marker not in seen and time.monotonic() < end:
                if select.select([master], [], [], 0.1)[0]:
                    try:
                        seen += os.read(master, 4096)
                    except OSError:
                        break
            assert marker in seen, seen
            return seen

        assert until(b"$ ") == b"phoneworld:/ $ "
        os.write(master, b"echo hi; false\r")
        assert until(b"$ ") == b"echo hi; false\r\nhi\r\n1|phoneworld:/ $ "
        os.write(master, b"cd /sdcard && ls\r")
        assert until(b"$ ").endswith(b"Pictures\r\nphoneworld:/sdcard $ ")
        os.write(master, b"exit 4\r")
        assert proc.wait(10) == 4
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_sleep_really_sleeps_and_a_gone_client_ends_it(adb: Adb) -> None:
    start = time.monotonic()
    assert adb("shell", "sleep", "1").returncode == 0
    assert 0.9 <= time.monotonic() - start < 5
    with pytest.raises(subprocess.TimeoutExpired):  # the client's timeout fires
        adb("shell", "sleep", "30", timeout=0.5)
    start = time.monotonic()
    assert text(adb("shell", "echo", "free")) == "free\n"  # the phone is not held meanwhile
    assert time.monotonic() - start < 3
    deadline = time.monotonic() + 5  # and the killed client's command dies (SIGHUP)
    while any(t.name == "adb-shell-stdin" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the sleeping shell outlived its client"
        time.sleep(0.05)


# --- files, screen, forwards --------------------------------------------------------------------

def test_push_and_pull_round_trip(adb: Adb, phone: VirtualPhone, tmp_path: Path) -> None:
    data = os.urandom(300_000)
    local = tmp_path / "blob.bin"
    local.write_bytes(data)
    proc = adb("push", str(local), "/sdcard/Download/blob.bin")
    assert proc.returncode == 0 and b"1 file pushed" in proc.stdout
    assert phone.read_file("/sdcard/Download/blob.bin") == data
    back = tmp_path / "back.bin"
    assert adb("pull", "/sdcard/Download/blob.bin", str(back)).returncode == 0
    assert back.read_bytes() == data
    proc = adb("push", str(local), "/system/blob.bin")
    assert proc.returncode == 1 and b"Read-only file system" in proc.stdout
    proc = adb("pull", "/sdcard/nothing", str(tmp_path / "n"))
    assert proc.returncode == 1 and b"No such file or directory" in proc.stdout


def test_exec_out_screencap_is_the_phones_screen(adb: Adb, phone: VirtualPhone) -> None:
    proc = adb("exec-out", "screencap", "-p")
    assert proc.returncode == 0 and proc.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(proc.stdout))
    width, height = (int(v) for v in text(adb("shell", "wm", "size")).split()[-1].split("x"))
    assert image.size == (width, height) == (1080, 2400)
    assert np.array_equal(np.asarray(image.convert("RGB")), phone.screenshot())


def test_forward_list_and_remove(adb: Adb) -> None:
    # without -s, adb selects the device first (host:tport:any) and sends the forward on the
    # same connection; with -s, as host-serial:SERIAL:forward
    for selector in ((), ("-s", SERIAL)):
        proc = adb(*selector, "forward", "tcp:0", f"tcp:{DEFAULT_PORT}")
        assert proc.returncode == 0, proc.stderr
        port = int(proc.stdout)
        listing = text(adb("forward", "--list"))
        assert f"{SERIAL} tcp:{port} tcp:{DEFAULT_PORT}\n" in listing
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=5) as reply:
            assert reply.read() == b"pong"  # the phone's uiautomator2 server, through adb
        assert adb(*selector, "forward", "--remove", f"tcp:{port}").returncode == 0
        assert f"tcp:{port}" not in text(adb("forward", "--list"))
        proc = adb("forward", "--remove", f"tcp:{port}")
        assert proc.returncode == 1 and f"listener 'tcp:{port}' not found" in proc.stderr.decode()
    adb("forward", "tcp:0", "tcp:1")
    assert adb("forward", "--remove-all").returncode == 0
    assert text(adb("forward", "--list")).strip() == ""


def test_kill_server_is_acknowledged_and_the_device_keeps_serving(
        adb: Adb, server: VirtualAdbServer, phone: VirtualPhone) -> None:
    proc = adb("kill-server")
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert server.running
    assert text(adb("devices")) == f"List of devices attached\n{SERIAL}\tdevice\n\n"
    with VirtualAdbServer([VirtualPhone("emulator-5556")], stop_on_kill=True) as other:
        assert adb("kill-server", target=other).returncode == 0
        assert not other.running  # as adb's own server exits
        proc = adb("devices", target=other)
        assert proc.returncode == 1 and b"cannot connect to daemon" in proc.stderr
        other.start()  # on the same port again
        assert "emulator-5556\tdevice" in text(adb("devices", target=other))


# --- what phones answer --------------------------------------------------------------------------

def test_settings_and_the_legacy_contacts_uri(adb: Adb, phone: VirtualPhone) -> None:
    assert text(adb("shell", "settings", "get", "system", "screen_brightness_mode")) in (
        "0\n", "1\n")
    assert text(adb("shell", "content", "query", "--uri", "content://contacts/people")) == \
        "No result found.\n"
    phone.device.system.contacts.new(name="Grace Hopper", phone="+1 555 0100")
    proc = adb("shell", "content", "query", "--uri", "content://contacts/people",
               "--projection", "name:number")
    assert (proc.returncode, text(proc)) == (0, "Row: 0 name=Grace Hopper, number=+1 555 0100\n")


def test_reboot_gives_a_new_boot_id_and_transport(adb: Adb, phone: VirtualPhone) -> None:
    def boot_id() -> str:
        return text(adb("shell", "cat", BOOT_ID_PATH)).strip()

    first = boot_id()
    assert first == phone.boot_id
    assert adb("reboot").returncode == 0
    second = boot_id()
    assert second != first and phone.reboots == 1
    assert "transport_id:2" in text(adb("devices", "-l"))
    assert adb("shell", "svc", "power", "reboot").returncode == 0
    third = boot_id()
    assert third != second and phone.reboots == 2
    assert adb("shell", "reboot").returncode == 0
    fourth = boot_id()
    assert fourth != third and phone.reboots == 3
    proc = adb("reboot", "bootloader")
    assert proc.returncode == 1
    assert proc.stderr == (b"error: the virtual device cannot reboot into 'bootloader': only "
                           b"`adb reboot` (a plain restart) is supported\n")
    assert boot_id() == fourth and phone.reboots == 3


@pytest.mark.parametrize(("args", "code", "out", "err"), [
    (("root",), 0, "adbd cannot run as root in production builds\n", ""),
    (("unroot",), 0, "adbd not running as root\n", ""),
    (("tcpip", "5555"), 1, "", "error: the virtual device has no 'tcpip' service; it serves "
                               "shell, exec, sync (push, pull), tcp (forward), framebuffer, "
                               "reboot\n"),
])
def test_what_the_virtual_device_does_not_do_fails_clearly(
        adb: Adb, args: tuple[str, ...], code: int, out: str, err: str) -> None:
    proc = adb(*args)
    assert (proc.returncode, text(proc), proc.stderr.decode()) == (code, out, err)


def test_a_long_session_keeps_neither_its_commands_nor_its_output(adb: Adb) -> None:
    """10,000 commands in one ``adb shell`` session (6 MB of output) leave the server and the
    phone holding only the newest ``shell_log_size`` commands: memory stays bounded."""
    phone = VirtualPhone("emulator-5556", shell_log_size=100)
    script = "".join(f"getprop; echo {i}\n" for i in range(5_000)).encode()  # all properties
    with VirtualAdbServer([phone]) as other:
        adb("shell", input=script[:1000], target=other)  # warm up
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            proc = adb("shell", input=script, timeout=120, target=other)
            code, size = proc.returncode, len(proc.stdout)
            del proc  # its output is held here, not by the server
            grown = tracemalloc.get_traced_memory()[0] - base
        finally:
            tracemalloc.stop()
    assert code == 0 and size > 5_000 * len("".join(f"[{k}]: [{v}]\n" for k, v in
                                                    phone.properties.items()))
    assert len(phone.shell_log) == 100 and list(phone.shell_log)[-2:] == [["getprop"],
                                                                          ["echo", "4999"]]
    assert grown < 1_000_000, f"{grown} bytes kept after 10,000 commands"
