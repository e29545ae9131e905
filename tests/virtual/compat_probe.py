"""Which client calls work against the virtual device: a probe over the real clients.

``python tests/virtual/compat_probe.py`` serves a ``VirtualPhone`` (with uiautomator2's server)
on a local port, tries a fixed list of calls with Google's ``adb`` (if installed), adbutils and
uiautomator2, and prints one line per call and the totals per client: ``works`` (the call does
what it does on a phone), ``refused`` (it cannot work on a PhoneWorld phone, and the answer says
so in one clear line) or ``fails`` (anything else: an error that misleads, nothing, a wrong
result). ``--json`` prints the results as JSON. It is a report, not a test: the tests of each
call are in this folder (``test_adb_cli.py``, ``test_virtual_server.py``,
``test_u2_clients.py``, ``test_client_calls.py``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"  # adbutils must never start a real adb server

import adbutils  # noqa: E402
from PIL import Image  # noqa: E402

from phone_gym.virtual import VirtualAdbServer, VirtualPhone  # noqa: E402
from phone_gym.virtual.u2 import attach_u2  # noqa: E402

SERIAL = "emulator-5554"
NOTES = "com.example.notes"
PNG = b"\x89PNG\r\n\x1a\n"
#: A call's verdict: True works, "refused" (one clear line saying it cannot), False fails.
Verdict = bool | str


class Probe:
    """A fresh phone and server; ``run(name, check)`` records one call's verdict."""

    def __init__(self) -> None:
        self.phone = attach_u2(VirtualPhone(SERIAL), running=True)
        self.server = VirtualAdbServer([self.phone], idle_timeout=10.0).start()
        self.results: list[tuple[str, str, str]] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="phone-gym-compat-"))

    def close(self) -> None:
        self.server.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self, client: str, name: str, check: Callable[[], Verdict]) -> None:
        try:
            got = check()
            verdict: Verdict = got if isinstance(got, str) else bool(got)
        except Exception as exc:  # a call that raises where a phone answers fails
            verdict = False
            name += f"  [{type(exc).__name__}: {str(exc).splitlines()[0][:70] if str(exc) else ''}]"
        word = "refused" if verdict == "refused" else "works" if verdict is True else "fails"
        self.results.append((client, word, name))

    # --- Google's adb ------------------------------------------------------------------------
    def adb(self, *args: str, input: bytes = b"", timeout: float = 20) -> tuple[int, str, str]:
        adb = shutil.which("adb")
        assert adb is not None
        env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(self.server.port),
               "HOME": str(self.tmp)}
        proc = subprocess.run([adb, "-H", "127.0.0.1", "-P", str(self.server.port), *args],
                              input=input, capture_output=True, env=env, timeout=timeout,
                              check=False)
        return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"))

    def adb_calls(self) -> None:
        a = self.adb

        def out(*args: str) -> str:
            return a(*args)[1]

        def started(*args: str, package: str) -> Verdict:
            code, text, err = a("shell", "am", "start", *args)
            shown = out("shell", "dumpsys", "window")
            a("shell", "input", "keyevent", "4")  # leave a chooser, if one shows
            a("shell", "input", "keyevent", "3")
            return code == 0 and "Error" not in text + err and package in shown

        src = self.tmp / "up.txt"
        src.write_bytes(b"payload")
        apk = self.tmp / "app.apk"
        apk.write_bytes(b"PK\x03\x04 not really an apk")
        checks: list[tuple[str, Callable[[], Verdict]]] = [
            ("devices", lambda: SERIAL in out("devices")),
            ("devices -l", lambda: "model:PhoneWorld" in out("devices", "-l")),
            ("get-state", lambda: out("get-state") == "device\n"),
            ("get-serialno", lambda: out("get-serialno") == f"{SERIAL}\n"),
            ("wait-for-device", lambda: a("wait-for-device", timeout=5)[0] == 0),
            ("shell echo", lambda: out("shell", "echo", "hi") == "hi\n"),
            ("shell exit status", lambda: a("shell", "false")[0] == 1),
            ("shell with stdin (echo x | adb shell cat)",
             lambda: a("shell", "cat", input=b"x\n")[1] == "x\n"),
            ("exec-out screencap -p",
             lambda: Image.open(io.BytesIO(self._exec_out_png())).size == (1080, 2400)),
            ("push", lambda: a("push", str(src), "/sdcard/Download/up.txt")[0] == 0),
            ("pull", lambda: a("pull", "/sdcard/Download/up.txt", str(self.tmp / "down.txt"))[0]
             == 0 and (self.tmp / "down.txt").read_bytes() == b"payload"),
            ("forward + forward --list", lambda: a("forward", "tcp:0", "tcp:9008")[0] == 0
             and "tcp:9008" in out("forward", "--list")),
            ("root (a production build's answer)",
             lambda: "cannot run as root in production builds" in out("root")),
            ("shell pm list packages", lambda: f"package:{NOTES}" in out(
                "shell", "pm", "list", "packages")),
            ("shell dumpsys window | grep", lambda: "mCurrentFocus" in out(
                "shell", "dumpsys window | grep mCurrentFocus")),
            ("shell input tap", lambda: a("shell", "input", "tap", "540", "1200")[0] == 0),
            ("shell am start -n (explicit)", lambda: started(
                "-n", f"{NOTES}/.MainActivity", package=NOTES)),
            ("shell uiautomator dump + pull", lambda: a("shell", "uiautomator", "dump")[0] == 0
             and a("pull", "/sdcard/window_dump.xml", str(self.tmp / "w.xml"))[0] == 0),
            ("shell settings get", lambda: out("shell", "settings", "get", "system",
                                               "screen_brightness_mode").strip() in ("0", "1")),
            ("shell content query (contacts)", lambda: a(
                "shell", "content", "query", "--uri", "content://contacts/people")[0] == 0),
            ("get-devpath", lambda: a("get-devpath")[0] == 0),
            ("features", lambda: "shell_v2" in out("features")),
            ("ls /sdcard", lambda: "Download" in out("ls", "/sdcard")),
            ("am start VIEW https://", lambda: started(
                "-a", "android.intent.action.VIEW", "-d", "https://example.com",
                package="com.android.chrome")),
            ("am start DIAL tel:", lambda: started(
                "-a", "android.intent.action.DIAL", "-d", "tel:5551234",
                package="com.google.android.dialer")),
            ("am start SENDTO smsto:", lambda: started(
                "-a", "android.intent.action.SENDTO", "-d", "smsto:5551234",
                package="com.simplemobiletools.smsmessenger")),
            ("am start VIEW geo: (a chooser: Maps, OsmAnd)", lambda: started(
                "-a", "android.intent.action.VIEW", "-d", "geo:47.14,9.52?q=Vaduz",
                package="ResolverActivity")),
            ("am start SEND text/plain (a chooser)", lambda: started(
                "-a", "android.intent.action.SEND", "-t", "text/plain", "--es",
                "android.intent.extra.TEXT", "hello", package="ResolverActivity")),
            ("logcat -d", self._logcat_dump),
            ("logcat -c", lambda: a("logcat", "-c")[0] == 0 and "START u0" not in out(
                "logcat", "-d")),
            ("logcat -t N and a tag filter", self._logcat_filter),
            ("install APK (refused: no APK installs)", lambda: self._install(apk)),
            ("shell ifconfig wlan0 / ip addr", lambda: "inet addr:" in out(
                "shell", "ifconfig", "wlan0") and "inet " in out(
                "shell", "ip", "addr", "show", "dev", "wlan0")),
            ("shell for-loop", lambda: out("shell", "for i in 1 2; do echo $i; done") ==
             "1\n2\n"),
            ("bugreport", lambda: "refused" if "the virtual device" in "".join(
                a("bugreport", str(self.tmp / "bug.zip"))[1:]) else False),
            ("reverse", lambda: "refused" if "the virtual device has no" in a(
                "reverse", "tcp:1", "tcp:1")[2] else False),
            ("tcpip", lambda: "refused" if "the virtual device has no" in a(
                "tcpip", "5555")[2] else False),
            ("reboot", lambda: a("reboot", timeout=20)[0] == 0 and a(
                "wait-for-device", timeout=10)[0] == 0 and SERIAL in out("devices")),
        ]
        for name, check in checks:
            self.run("adb", name, check)

    def _exec_out_png(self) -> bytes:
        adb = shutil.which("adb")
        assert adb is not None
        proc = subprocess.run([adb, "-H", "127.0.0.1", "-P", str(self.server.port), "exec-out",
                               "screencap", "-p"], capture_output=True, timeout=20, check=False,
                              env={**os.environ, "HOME": str(self.tmp)})
        return proc.stdout

    def _logcat_dump(self) -> Verdict:
        self.adb("shell", "am", "start", "-n", f"{NOTES}/.MainActivity")
        code, text, _ = self.adb("logcat", "-d")
        return code == 0 and "START u0" in text and NOTES in text

    def _logcat_filter(self) -> Verdict:
        self.adb("shell", "log", "-t", "ProbeTag", "hello probe")
        code, text, _ = self.adb("logcat", "-d", "-t", "5", "-s", "ProbeTag")
        lines = [x for x in text.splitlines() if not x.startswith("---------")]
        return code == 0 and len(lines) == 1 and "ProbeTag" in lines[0]

    def _install(self, apk: Path) -> Verdict:
        code, text, err = self.adb("install", str(apk))
        said = (text + err).strip().splitlines()
        failure = [x for x in said if "INSTALL_FAILED" in x]
        return "refused" if code != 0 and failure and "Can't open file" not in text + err \
            else False

    # --- adbutils ----------------------------------------------------------------------------
    def adbutils_calls(self) -> None:
        client = adbutils.AdbClient("127.0.0.1", self.server.port, socket_timeout=10)
        d = client.device(SERIAL)
        src = self.tmp / "a.txt"
        src.write_text("abc")
        apk = self.tmp / "b.apk"
        apk.write_bytes(b"PK\x03\x04 not really an apk")

        def install() -> Verdict:
            try:
                d.install(str(apk), silent=True)
            except adbutils.AdbInstallError as exc:
                return "refused" if "INSTALL_FAILED" in str(exc) and \
                    "Can't open" not in str(exc) else False
            return False

        def logcat() -> Verdict:
            path = self.tmp / "logcat.txt"
            event = d.logcat(str(path), clear=True)
            time.sleep(0.3)
            d.shell(["am", "start", "-n", f"{NOTES}/.MainActivity"])
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and "START u0" not in path.read_text():
                time.sleep(0.1)
            event.stop_nowait()  # adbutils' reader sees the stop after its next line
            d.shell(["log", "-t", "Probe", "stop"])
            event.stop(timeout=5)
            return "START u0" in path.read_text()

        checks: list[tuple[str, Callable[[], Verdict]]] = [
            ("server_version", lambda: client.server_version() == 41),
            ("device_list", lambda: [x.serial for x in client.device_list()] == [SERIAL]),
            ("shell", lambda: d.shell("echo hi") == "hi"),
            ("shell2 (exit code)", lambda: d.shell2("false").returncode == 1),
            ("get_state", lambda: d.get_state() == "device"),
            ("get_serialno", lambda: d.get_serialno() == SERIAL),
            ("sync.push / pull", lambda: (d.sync.push(str(src), "/sdcard/a.txt"),
                                          d.sync.read_text("/sdcard/a.txt"))[1] == "abc"),
            ("forward / forward_list", lambda: (d.forward("tcp:0", "tcp:9008") or True) and any(
                f.remote == "tcp:9008" for f in d.forward_list())),
            ("app_info", lambda: d.app_info(NOTES) is not None),
            ("app_start", lambda: (d.app_start(NOTES), d.app_current().package)[1] == NOTES),
            ("app_current", lambda: d.app_current().package == NOTES),
            ("app_stop", lambda: (d.app_stop(NOTES), d.app_current().package)[1] != NOTES),
            ("list_packages", lambda: NOTES in d.list_packages()),
            ("window_size", lambda: tuple(d.window_size()) == (1080, 2400)),
            ("rotation", lambda: d.rotation() == 0),
            ("is_screen_on", lambda: d.is_screen_on() is True),
            ("screenshot()", lambda: d.screenshot().size == (1080, 2400)),
            ("screenshot(display_id=0)", lambda: d.screenshot(display_id=0, error_ok=False).size
             == (1080, 2400)),
            ("framebuffer()", lambda: d.framebuffer().size == (1080, 2400)),
            ("dump_hierarchy", lambda: "<hierarchy" in d.dump_hierarchy()),
            ("click", lambda: (d.click(540, 1200), True)[1]),
            ("keyevent", lambda: (d.keyevent("HOME"), True)[1]),
            ("wlan_ip", lambda: d.wlan_ip().count(".") == 3),
            ("logcat(file) streaming", logcat),
            ("install (refused: no APK installs)", install),
            ("uninstall (refused: nothing is removed)", lambda: "refused" if "DELETE_FAILED" in
             d.uninstall(NOTES) else False),
            ("reverse", lambda: self._refused(lambda: d.reverse("tcp:1", "tcp:1"))),
        ]
        for name, check in checks:
            self.run("adbutils", name, check)

    @staticmethod
    def _refused(call: Callable[[], Any]) -> Verdict:
        try:
            call()
        except adbutils.AdbError as exc:
            return "refused" if "the virtual device has no" in str(exc) else False
        return False

    # --- uiautomator2 ------------------------------------------------------------------------
    def u2_calls(self) -> None:
        import uiautomator2

        holder: dict[str, Any] = {}

        def connect() -> Verdict:
            client = adbutils.AdbClient("127.0.0.1", self.server.port, socket_timeout=10)
            holder["d"] = uiautomator2.connect(client.device(SERIAL))
            return bool(holder["d"].info)

        def d() -> Any:
            return holder["d"]

        def field() -> Any:
            d().app_start(NOTES, stop=True)  # a fresh start: the list of notes
            d()(description="New note").click()
            body = d()(resourceId=f"{NOTES}:id/body")
            body.click()
            return body

        def typed(text: str) -> Verdict:
            body = field()
            d().send_keys(text)
            ok = body.get_text() == text
            d().press("back")
            d().press("back")
            return ok

        def no_field() -> Verdict:
            d().press("home")
            try:
                d().send_keys("中文")
            except Exception:  # noqa: BLE001 - any error says it did not type
                return True
            return False

        def toast_show() -> Verdict:
            d().toast.show("hello toast", 2)
            return d().toast.get_message(wait_timeout=2, default=None) == "hello toast"

        def screen_off() -> Verdict:
            d().screen_off()
            off = d().info["screenOn"] is False
            d().screen_on()
            return off and d().info["screenOn"] is True

        def hide_keyboard() -> Verdict:
            try:
                d().hide_keyboard()
            except adbutils.AdbInstallError as exc:
                return "refused" if "INSTALL_FAILED" in str(exc) else False
            return False

        def orientation() -> Verdict:
            try:
                d().set_orientation("left")
            except Exception as exc:  # noqa: BLE001 - the server's refusal
                return "refused" if "do not rotate" in str(exc) else False
            return False

        checks: list[tuple[str, Callable[[], Verdict]]] = [
            ("connect", connect),
            ("d.info", lambda: d().info["sdkInt"] == 34),
            ("window_size", lambda: d().window_size() == (1080, 2400)),
            ("screenshot", lambda: d().screenshot().size == (1080, 2400)),
            ("dump_hierarchy", lambda: "<hierarchy" in d().dump_hierarchy()),
            ("click", lambda: (d().click(540, 1200), True)[1]),
            ("swipe", lambda: (d().swipe(540, 1800, 540, 600), True)[1]),
            ("press home", lambda: (d().press("home"), True)[1]),
            ("shell", lambda: d().shell("echo hi").output == "hi\n"),
            ("clipboard", lambda: (setattr(d(), "clipboard", "x"), d().clipboard)[1] == "x"),
            ("app_start / app_current", lambda: (d().app_start(NOTES, stop=True),
                                                 d().app_current()["package"])[1] == NOTES),
            ("d(text=...).exists", lambda: d()(text="No notes yet").exists),
            ("d(...).click", lambda: (d()(description="New note").click(), True)[1]),
            ("set_text / get_text", lambda: d()(resourceId=f"{NOTES}:id/title").set_text("T")
             and d()(resourceId=f"{NOTES}:id/title").get_text() == "T"),
            ("send_keys (ASCII)", lambda: typed("milk")),
            ("send_keys (Chinese)", lambda: typed("你好，世界")),
            ("send_keys with no text field raises", no_field),
            ("clear_text", lambda: (field(), d().send_keys("abc"), d().clear_text(),
                                    d()(resourceId=f"{NOTES}:id/body").get_text())[3] is None),
            ("app_stop", lambda: (d().app_stop(NOTES), d().app_current()["package"])[1] != NOTES),
            ("app_list", lambda: NOTES in d().app_list()),
            ("app_info", lambda: d().app_info(NOTES)["versionName"] == "1.0"),
            ("session", lambda: d().session(NOTES).running()),
            ("toast.get_message", lambda: d().toast.get_message(wait_timeout=0.2,
                                                                default="none") is not None),
            ("toast.show", toast_show),
            ("screen_off / screen_on", screen_off),
            ("xpath", lambda: d().xpath("//*").exists),
            ("watcher", lambda: (d().watcher("w").when("Allow").click(), d().watcher.run(),
                                 d().watcher.remove("w"), True)[3]),
            ("orientation", lambda: d().orientation == "natural"),
            ("set_orientation('left') (refused: the phone does not rotate)", orientation),
            ("hide_keyboard (refused: it installs u2's AdbKeyboard)", hide_keyboard),
        ]
        for name, check in checks:
            self.run("uiautomator2", name, check)
        if "d" in holder:
            holder["d"].stop_uiautomator(wait=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--client", choices=("adb", "adbutils", "uiautomator2"), action="append",
                        help="probe only this client (repeatable; default: all)")
    args = parser.parse_args()
    results: list[tuple[str, str, str]] = []
    runs = {"adb": Probe.adb_calls, "adbutils": Probe.adbutils_calls,
            "uiautomator2": Probe.u2_calls}
    if not shutil.which("adb"):
        del runs["adb"]
    for client, run in runs.items():
        if args.client and client not in args.client:
            continue
        probe = Probe()  # each client gets a fresh phone
        try:
            run(probe)
        finally:
            probe.close()
        results += probe.results
    if args.json:
        print(json.dumps([{"client": c, "verdict": v, "call": n} for c, v, n in results],
                         indent=1, ensure_ascii=False))
        return 0
    for client, word, name in results:
        print(f"{client:13} {word:8} {name}")
    print()
    for client in dict.fromkeys(c for c, _, _ in results):
        words = [w for c, w, _ in results if c == client]
        print(f"{client}: {words.count('works')}/{len(words)} work, "
              f"{words.count('refused')} refused in one clear line, "
              f"{words.count('fails')} fail")
    return 0


if __name__ == "__main__":
    sys.exit(main())
