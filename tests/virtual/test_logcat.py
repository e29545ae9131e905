"""``logcat`` and ``log`` on the virtual phone (AOSP ``logcat.cpp`` and ``logprint.cpp``; the
buffers: ``phone_gym.virtual.logd``), and ``pm install``'s one-line refusal."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import adbutils
import pytest

from phone_gym.virtual.logd import DEFAULT_SIZE, MIN_SIZE
from phone_gym.virtual.phone import VirtualPhone
from phone_gym.virtual.server import VirtualAdbServer

NOTES = "com.example.notes"
THREADTIME = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +(\d+) +(\d+) ([VDIWEF]) (.+?) *: (.*)$")
REFUSED = ("Failure [INSTALL_FAILED_USER_RESTRICTED: the virtual device runs PhoneWorld's "
           "apps only; it installs no APKs]")


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode(), err.decode()


def lines(phone: VirtualPhone, command: str) -> list[str]:
    code, out, err = run(phone, command)
    assert code == 0, (command, out, err)
    return [x for x in out.splitlines() if not x.startswith("--------- ")]


def said(phone: VirtualPhone, command: str) -> list[str]:
    """The messages of ``logcat`` lines (threadtime)."""
    return [m.group(5) for x in lines(phone, command) if (m := THREADTIME.match(x))]


# --- what is logged ---------------------------------------------------------------------------
def test_activity_starts_and_stops_are_logged(phone: VirtualPhone) -> None:
    assert run(phone, "logcat -d") == (0, "", "")  # a fresh boot: nothing yet
    run(phone, f"am start -n {NOTES}/.MainActivity")
    run(phone, "input keyevent 3")
    run(phone, "monkey -p com.google.android.deskclock 1")
    run(phone, f"am force-stop {NOTES}")
    out = run(phone, "logcat -d")[1]
    assert out.startswith("--------- beginning of system\n")
    parsed = [THREADTIME.match(x) for x in out.splitlines()[1:]]
    assert all(parsed), out
    tags = [(m.group(3), m.group(4)) for m in parsed if m]
    assert set(tags) == {("I", "ActivityTaskManager"), ("I", "ActivityManager")}
    messages = [m.group(5) for m in parsed if m]
    assert messages[0] == (f"START u0 {{flg=0x10000000 cmp={NOTES}/.MainActivity}} with "
                           "LAUNCH_MULTIPLE from uid 2000 (BAL_ALLOW_PERMISSION) result code=0")
    assert messages[1] == f"Displayed {NOTES}/.MainActivity for user 0: +312ms"
    assert ("START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
            "flg=0x10200000 cmp=com.google.android.deskclock/.MainActivity}") in messages[2]
    assert re.fullmatch(rf"Force stopping {NOTES} appid=\d+ user=0: from pid \d+", messages[-1])
    assert not [x for x in messages if "crash" in x.lower()]


def test_a_launch_from_the_launcher_is_logged_from_its_uid(phone: VirtualPhone) -> None:
    phone.device.open_app("Clock")  # as a tap on its icon does
    start = [x for x in lines(phone, "logcat -d -v brief") if "START" in x]
    assert len(start) == 1 and "cmp=com.google.android.deskclock/.MainActivity" in start[0]
    assert re.search(r"from uid 10\d{3} \(BAL_ALLOW_VISIBLE_WINDOW\)", start[0])
    run(phone, "input keyevent 3")
    assert len([x for x in lines(phone, "logcat -d") if "START" in x]) == 1  # home: no start


def test_log_and_the_filters_as_logcat_reads_them(phone: VirtualPhone) -> None:
    for pri, tag, text in (("v", "Alpha", "verbose"), ("d", "Alpha", "debug one"),
                           ("w", "Alpha", "warn two"),
                           ("e", "Beta", "error three"), ("i", "Gamma", "info four")):
        assert run(phone, f"log -p {pri} -t {tag} '{text}'") == (0, "", "")
    assert len(lines(phone, "logcat -d")) == 5
    assert said(phone, "logcat -d -s Alpha") == ["verbose", "debug one", "warn two"]
    assert said(phone, "logcat -d Alpha:W '*:S'") == ["warn two"]
    assert len(lines(phone, "logcat -d '*:E'")) == 1
    assert len(lines(phone, "logcat -d Beta:S")) == 4
    assert len(lines(phone, "logcat -d '*'")) == 4  # '*' alone is '*:D': not the verbose line
    assert len(lines(phone, "ANDROID_LOG_TAGS='Gamma:V *:S' logcat -d")) == 1
    assert len(lines(phone, "ANDROID_LOG_TAGS='Gamma:V *:S' logcat -d Beta '*:S'")) == 1
    assert said(phone, "logcat -d -t 2") == ["error three", "info four"]
    assert said(phone, "logcat -d -m 1") == ["verbose"]
    assert said(phone, "logcat -d -e 'two|four'") == ["warn two", "info four"]
    pid = THREADTIME.match(lines(phone, "logcat -d -t 1")[0])
    assert pid is not None and len(lines(phone, f"logcat -d --pid={pid.group(1)}")) == 1
    assert lines(phone, "logcat -d -b system") == []
    assert len(lines(phone, "logcat -d -b all")) == 5
    assert run(phone, "logcat -c") == (0, "", "")
    assert run(phone, "logcat -d") == (0, "", "")


def test_formats(phone: VirtualPhone) -> None:
    run(phone, "log -p w -t Tag 'two\nlines'")
    expect = {
        "brief": "W/Tag     ({pid}): two\nW/Tag     ({pid}): lines\n",
        "tag": "W/Tag     : two\nW/Tag     : lines\n",
        "process": "W({pid}) two  (Tag)\nW({pid}) lines  (Tag)\n",
        "raw": "two\nlines\n",
        "thread": "W({pid}:{pid}) two\nW({pid}:{pid}) lines\n",
        "time": "{when} W/Tag     ({pid}): two\n{when} W/Tag     ({pid}): lines\n",
        "long": "[ {when} {pid}:{pid} W/Tag      ]\ntwo\nlines\n\n",
    }
    line = THREADTIME.match(lines(phone, "logcat -d")[0])
    assert line is not None
    pid = f"{int(line.group(1)):5d}"
    when = line.group(0)[:18]
    for fmt, text in expect.items():
        out = run(phone, f"logcat -d -v {fmt}")[1]
        assert out == "--------- beginning of main\n" + text.format(pid=pid, when=when), fmt
    year = run(phone, "logcat -d -v time,year")[1].splitlines()[1]
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} W/Tag", year)
    epoch = run(phone, "logcat -d -v epoch")[1].splitlines()[1]
    assert re.match(r" *\d{9,}\.\d{3} +\d+ +\d+ W Tag", epoch)
    run(phone, f"am start -n {NOTES}/.MainActivity")
    run(phone, "log -t Tag again")
    plain = [x for x in run(phone, "logcat -d -v raw")[1].splitlines() if x.startswith("---")]
    assert plain == ["--------- beginning of main", "--------- beginning of system"]
    with_d = [x for x in run(phone, "logcat -d -D -v raw")[1].splitlines() if x[:3] == "---"]
    assert with_d == plain + ["--------- switch to main"]


def test_logcat_refuses_what_logcat_refuses(phone: VirtualPhone) -> None:
    for args, error in (("-x", "logcat: Unknown option '-x'."),
                        ("-d -t", "logcat: Option '-t' needs an argument."),
                        ("-d -b nope", "logcat: Unknown -b buffer 'nope'."),
                        ("-d -v nope", "logcat: Invalid -v 'nope'."),
                        ("-d Tag:Q", "logcat: Invalid filter expression 'Tag:Q'."),
                        ("-t 3 -m 1", "logcat: Cannot use -m (--max-count) and -t together."),
                        ("-G 1K", "logcat: failed to set the 'main,system,crash,kernel' log "
                                  "sizes."),
                        ("-d -B", "logcat: -B (binary output) is not modelled by the virtual "
                                  "device")):
        assert run(phone, f"logcat {args}") == (1, "", error + "\n"), args


def test_the_buffers_are_bounded_and_a_reboot_empties_them(phone: VirtualPhone) -> None:
    sizes = run(phone, "logcat -g")[1].splitlines()
    assert sizes[0].startswith("main: ring buffer is 256 KiB (0 B consumed, 0 B readable), "
                               "max entry is 5120 B, max payload is 4068 B")
    assert run(phone, "logcat -b main -G 64K") == (0, "", "")
    big = "x" * 3000
    for k in range(40):  # 40 entries of 3 KB: more than 64 KiB
        run(phone, f"log -t Fill {k}{big}")
    kept = lines(phone, "logcat -d -v raw")
    assert 15 < len(kept) < 40 and kept[-1].startswith("39x")  # the oldest went first
    assert phone.logd.used["main"] <= MIN_SIZE
    run(phone, "log -t Long " + "y" * 5000)
    assert len(lines(phone, "logcat -d -v raw -t 1")[0]) == 4068 - len("Long") - 3
    phone.reboot()
    assert run(phone, "logcat -d") == (0, "", "") and phone.logd.sizes["main"] == DEFAULT_SIZE


def test_logcat_to_a_file(phone: VirtualPhone) -> None:
    run(phone, "log -t A one")
    assert run(phone, "logcat -d -f /sdcard/Download/log.txt -v tag") == (0, "", "")
    assert run(phone, "cat /sdcard/Download/log.txt")[1] == \
        "--------- beginning of main\nI/A       : one\n"


def test_logcat_without_d_returns_in_process_and_follows_a_connection() -> None:
    """In process nothing can come while it runs, so it returns; over adb (adbutils'
    ``logcat``, which streams ``logcat -v time``) it prints each entry as it comes."""
    phone = VirtualPhone()
    run(phone, "log -t Early x")
    assert lines(phone, "logcat -v tag") == ["I/Early   : x"]
    os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"
    with VirtualAdbServer([phone], idle_timeout=10.0) as server:
        device = adbutils.AdbClient("127.0.0.1", server.port, socket_timeout=10).device(
            phone.serial)
        path = Path(f"/tmp/phone-gym-logcat-{os.getpid()}.txt")
        event = device.logcat(str(path), clear=True)
        time.sleep(0.3)
        device.shell(["am", "start", "-n", f"{NOTES}/.MainActivity"])
        device.shell(["log", "-t", "Late", "after"])
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "Late" not in path.read_text():
            time.sleep(0.05)
        event.stop_nowait()  # adbutils' reader sees the stop after its next line: log one
        device.shell(["log", "-t", "Wake", "up"])
        event.stop(timeout=5)
        text = path.read_text()
        path.unlink()
    assert "Early" not in text  # cleared first
    assert re.search(rf"I/ActivityTaskManager\( *\d+\): START u0 .*cmp={NOTES}/", text)
    assert re.search(r"\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} I/Late +\( *\d+\): after", text)


@pytest.fixture
def adb_device(phone: VirtualPhone) -> Iterator[adbutils.AdbDevice]:
    os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"
    with VirtualAdbServer([phone], idle_timeout=10.0) as server:
        yield adbutils.AdbClient("127.0.0.1", server.port, socket_timeout=10).device(
            phone.serial)


def test_a_follower_ends_when_its_client_goes(phone: VirtualPhone,
                                              adb_device: adbutils.AdbDevice) -> None:
    stream = adb_device.shell("logcat", stream=True)
    time.sleep(0.2)
    stream.close()
    done = threading.Event()

    def other() -> None:  # the phone is free for others meanwhile, and after
        adb_device.shell("log -t Other hi")
        done.set()

    threading.Thread(target=other, daemon=True).start()
    assert done.wait(5)
    assert "Other" in run(phone, "logcat -d")[1]


# --- pm install -------------------------------------------------------------------------------
def test_pm_install_says_no_apk_is_installed(phone: VirtualPhone) -> None:
    assert run(phone, "pm install -r -t /data/local/tmp/app.apk") == (1, REFUSED + "\n", "")
    assert run(phone, "pm install /nowhere.apk") == (1, REFUSED + "\n", "")
    code, out, err = phone.shell("cmd package install -S 5", stdin=b"12345")  # adb install
    assert (code, out.decode(), err) == (1, REFUSED + "\n", b"")
    assert run(phone, "pm install") == (
        1, "", "Error: must either specify a package size or an APK file\n")


def test_adbutils_install_fails_with_that_line(adb_device: adbutils.AdbDevice,
                                               tmp_path: Path) -> None:
    apk = tmp_path / "app.apk"
    apk.write_bytes(b"PK\x03\x04" + os.urandom(2_000_000))
    with pytest.raises(adbutils.AdbInstallError, match=re.escape(REFUSED)):
        adb_device.install(str(apk), silent=True)


# --- what the apps log -------------------------------------------------------------------------
def test_what_an_app_logs_is_in_main_under_its_uid_and_pid(phone: VirtualPhone) -> None:
    """An app's ``App.log`` (``android.util.Log``) reaches ``logcat`` in ``main``: the
    Camera's capture line under the camera's own pid, with its tag and priority."""
    package = phone.device.apps["Camera"].package
    run(phone, f"monkey -p {package} 1")
    run(phone, "logcat -c")
    phone.device.apps["Camera"].shutter()  # what a tap on the shutter calls
    saved = [f.path for f in phone.device.system.files if f.path.endswith(".jpg")]
    out = lines(phone, "logcat -d -b main -v threadtime")
    pid = run(phone, f"pidof {package}")[1].strip()
    got = [m for x in out if (m := THREADTIME.match(x)) and m.group(4) == "CameraCapture"]
    assert len(got) == 1, out
    assert got[0].group(1) == pid and got[0].group(3) == "I"
    assert got[0].group(5) == f"Saved image to {saved[-1]}"
    assert said(phone, "logcat -d -s CameraCapture:W") == []  # below W: filtered out


def test_app_log_is_bounded_and_refuses_bad_priorities(phone: VirtualPhone) -> None:
    from phone_gym.world.device import APP_LOG_LINES

    app = phone.device.apps["Notes"]
    for i in range(APP_LOG_LINES + 10):
        app.log(f"line {i}")
    assert len(phone.device.app_log) == APP_LOG_LINES  # nobody read: the oldest dropped
    assert said(phone, "logcat -d -s Notes")[-1] == f"line {APP_LOG_LINES + 9}"
    assert not phone.device.app_log  # read into logd's bounded buffer
    with pytest.raises(ValueError, match="accepted: one of V, D, I, W, E, F"):
        app.log("x", priority="X")
