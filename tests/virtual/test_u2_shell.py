"""The shell commands uiautomator2 and adbutils read apps and processes from, in the formats of
a real phone: toybox ``ps`` (Android's default fields), ``pidof``, ``pm list packages``/
``path``/``uninstall`` and ``dumpsys package`` (AOSP ``Settings.dumpPackageLPr``)."""

from __future__ import annotations

import re

import pytest

from phone_gym.virtual.phone import VirtualPhone

NOTES = "com.example.notes"
CLOCK = "com.google.android.deskclock"
#: ``ps -A`` on Android 10 to 14 (toybox: ``USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME``)
PS_HEADER = "USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def sh(phone: VirtualPhone, command: str) -> tuple[int, str]:
    code, out, _err = phone.shell(command)
    return code, out.decode()


def ps_rows(phone: VirtualPhone) -> dict[str, list[str]]:
    """``ps -A`` rows by process name, split as uiautomator2's ``_pidof_app`` splits them."""
    code, out = sh(phone, "ps -A")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].rstrip() == PS_HEADER
    rows = [line.split() for line in lines[1:]]
    assert all(len(r) == 9 and r[1].isdigit() and r[2].isdigit() for r in rows), out
    return {r[-1]: r for r in rows}


def test_ps_lists_running_apps_with_stable_pids(phone: VirtualPhone) -> None:
    rows = ps_rows(phone)
    assert {"init", "zygote64", "system_server", "com.android.systemui", "sh", "ps"} <= set(rows)
    assert NOTES not in rows
    assert rows["ps"][7] == "R" and rows["init"][0] == "root" and rows["init"][1] == "1"
    sh(phone, f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1")
    first = ps_rows(phone)[NOTES]
    assert first[0].startswith("u0_a") and first[2] == ps_rows(phone)["zygote64"][1]
    assert ps_rows(phone)[NOTES][1] == first[1]  # the same process while it runs
    sh(phone, f"am start -n {CLOCK}/.MainActivity")
    assert ps_rows(phone)[NOTES][1] == first[1]  # in recents: still running
    assert sh(phone, f"pidof {NOTES}") == (0, f"{first[1]}\n")
    sh(phone, f"am force-stop {NOTES}")
    assert NOTES not in ps_rows(phone) and sh(phone, f"pidof {NOTES}") == (1, "")
    sh(phone, f"monkey -p {NOTES} 1")
    assert ps_rows(phone)[NOTES][1] != first[1]  # a new process, a new pid


def test_ps_options(phone: VirtualPhone) -> None:
    assert sh(phone, "ps -o PID,NAME -p 1") == (0, "  PID NAME" + " " * 23 + "\n    1 init\n")
    code, out = sh(phone, "ps -A -o USER,PID,NAME")
    assert code == 0 and out.splitlines()[1].split() == ["root", "1", "init"]
    assert sh(phone, "ps -o NOPE")[0] == 1
    assert sh(phone, "ps -Q")[0] == 1


def test_pm_lists_and_paths(phone: VirtualPhone) -> None:
    code, out = sh(phone, "pm list packages")
    names = re.findall(r"^package:(\S+)$", out, re.M)
    assert code == 0 and len(names) == len(out.splitlines())
    assert {NOTES, CLOCK, "android", "com.android.systemui"} <= set(names)
    third = sh(phone, "pm list packages -3")[1]
    assert f"package:{NOTES}\n" in third and "package:android\n" not in third
    path = sh(phone, f"pm path {NOTES}")[1].strip().removeprefix("package:")
    assert path.endswith("/base.apk")
    assert f"package:{path}={NOTES}\n" in sh(phone, "pm list packages -f")[1]
    assert re.search(rf"^package:{re.escape(NOTES)} versionCode:1 uid:10\d{{3}}$",
                     sh(phone, "pm list packages -U --show-versioncode notes")[1], re.M)
    assert sh(phone, "pm path com.nope") == (1, "")
    # nothing is removed: an installed package as under a user restriction, an unknown one
    # as Android answers it
    assert sh(phone, f"pm uninstall {NOTES}") == (1, "Failure [DELETE_FAILED_USER_RESTRICTED]\n")
    assert sh(phone, "pm uninstall com.nope") == (1, "Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
    assert NOTES in sh(phone, "pm list packages")[1]


def test_dumpsys_package(phone: VirtualPhone) -> None:
    code, out = sh(phone, f"dumpsys package {NOTES}")
    assert code == 0
    assert f"  Package [{NOTES}] (" in out and f"{NOTES}/.MainActivity filter" in out
    assert re.search(r"^    versionCode=1 minSdk=\d+ targetSdk=\d+$", out, re.M)
    assert re.search(r"^    versionName=1\.0$", out, re.M)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert re.search(rf"^    lastUpdateTime={stamp}$", out, re.M)
    assert re.search(rf"^      firstInstallTime={stamp}$", out, re.M)
    assert re.search(r"pkgFlags=\[ HAS_CODE [A-Z_ ]+\]", out)
    assert re.search(r"signatures=PackageSignatures\{\w+ version:3, signatures:\[\w+\]", out)
    assert out.count("Package [") == 1
    code, out = sh(phone, "dumpsys package com.nope")
    assert code == 0 and "Unable to find package: com.nope" in out and "Package [" not in out
