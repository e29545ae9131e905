"""``WorldState`` and ``AdbState`` (over the virtual phone) read and write a phone alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phone_gym.mockapps import APPS
from phone_gym.real.base import ShellResult
from phone_gym.real.state import AdbState, parse_alarms, parse_rows
from phone_gym.verifiers.state import AlarmRow, ContactRow, DeviceError, DeviceState, observe
from phone_gym.virtual import LocalBackend, VirtualPhone
from phone_gym.world import Device
from phone_gym.world.device import CONTACTS_PROVIDER
from phone_gym.world.state import WorldState

CLOCK_PACKAGE = "com.google.android.deskclock"

CONTACTS = "com.android.contacts"


def world() -> WorldState:
    return WorldState(Device(APPS))


def adb() -> AdbState:
    return AdbState(LocalBackend(VirtualPhone()))


def reads(state: DeviceState) -> tuple[object, ...]:
    return (state.get_setting("global", "wifi_on"), state.get_setting("secure", "nope"),
            state.contacts(), state.alarms(), sorted(state.list_dir("/sdcard/Download")),
            state.read_file("/sdcard/Download/a.txt"), state.read_file("/sdcard/Download/no"),
            observe(state))


STEPS: list[Callable[[DeviceState], None]] = [
    lambda s: s.put_setting("global", "wifi_on", "0"),
    lambda s: s.put_setting("secure", "ui_night_mode", "2"),
    lambda s: s.add_contact("Ada Lovelace", "555-0100"),
    lambda s: s.add_contact("Alan Turing"),
    lambda s: s.add_contact("O'Brien; rm -rf / #", "+1 (555) 0199"),
    lambda s: s.add_contact("Ada Lovelace", "555-0100"),
    lambda s: s.add_alarm(7, 30, "Wake $(reboot)"),
    lambda s: s.add_alarm(22, 5),
    lambda s: s.add_alarm(22, 5),  # the clock app re-enables an identical alarm
    lambda s: s.write_file("/sdcard/Download/a.txt", b"hello\n"),
    lambda s: s.write_file("/sdcard/Download/sub/b.txt", b"nested"),
    lambda s: s.write_file("/sdcard/Documents/c d.txt", "h\u00e9llo".encode()),
    lambda s: s.force_stop(CONTACTS),
    lambda s: s.home(),
    lambda s: s.remove_file("/sdcard/Download/a.txt"),
    lambda s: s.remove_file("/sdcard/Download/never.txt"),
    lambda s: s.clear_app(CLOCK_PACKAGE),
    lambda s: s.clear_app(CONTACTS),  # the app's data; contacts stay in the provider
    lambda s: s.clear_app(CONTACTS_PROVIDER),
]


def test_both_states_implement_the_protocol() -> None:
    assert isinstance(world(), DeviceState) and isinstance(adb(), DeviceState)


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_the_same_calls_give_the_same_reads() -> None:
    w, a = world(), adb()
    assert reads(w) == reads(a)
    for step in STEPS:
        step(w)
        step(a)
        assert reads(w) == reads(a), step
    phone = a.backend.phone  # type: ignore[attr-defined]
    assert phone.reboots == 0 and ["reboot"] not in phone.shell_log


def test_reads_after_setup() -> None:
    for state in (world(), adb()):
        for step in STEPS[:12]:
            step(state)
        assert state.contacts() == [ContactRow("Ada Lovelace", "555-0100"),
                                    ContactRow("Alan Turing"),
                                    ContactRow("O'Brien; rm -rf / #", "+1 (555) 0199"),
                                    ContactRow("Ada Lovelace", "555-0100")]
        assert state.alarms() == [AlarmRow(7, 30, True, "Wake $(reboot)"), AlarmRow(22, 5)]
        snap = observe(state)
        assert [c["name"] for c in snap["contacts"].values()].count("Ada Lovelace") == 2
        assert [c["phone"] for c in snap["contacts"].values()] == [
            "555-0100", "", "+1 (555) 0199", "555-0100"]
        assert snap["settings"]["global"]["wifi_on"] == "0"
        assert sorted(snap["files"]) == ["/sdcard/Documents/c d.txt", "/sdcard/Download/a.txt"]
        assert state.get_setting("global", "wifi_on") == "0"


def test_adb_state_quotes_every_argument() -> None:
    state = adb()
    phone = state.backend.phone  # type: ignore[attr-defined]
    state.put_setting("system", "k", "a b; reboot")
    state.add_contact("$(reboot) `reboot`", "1")
    assert state.get_setting("system", "k") == "a b; reboot"
    assert state.contacts() == [ContactRow("$(reboot) `reboot`", "1")]
    assert phone.reboots == 0
    assert ["settings", "put", "system", "k", "a b; reboot"] in phone.shell_log


def test_world_state_edges() -> None:
    state = world()
    with pytest.raises(DeviceError, match="text files only"):
        state.write_file("/sdcard/Download/x.bin", b"\xff\xfe")
    with pytest.raises(DeviceError, match="no such package"):
        state.clear_app("com.nope")
    state.force_stop("com.nope")  # as `am force-stop`: nothing to stop, no error
    binary = adb()
    binary.write_file("/sdcard/Download/x.bin", b"\xff\xfe")
    assert binary.read_file("/sdcard/Download/x.bin") == b"\xff\xfe"
    assert binary.list_dir("/sdcard/Download") == ["x.bin"]
    with pytest.raises(DeviceError, match="pm clear com.nope"):
        binary.clear_app("com.nope")


# --- AdbState against a phone that answers badly -------------------------------------------
class FakeBackend:
    """Answers every shell command with one scripted result and records the commands."""

    serial = "fake"

    def __init__(self, output: str, code: int = 0) -> None:
        self.result = ShellResult(code, output)
        self.commands: list[str] = []

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        self.commands.append(command)
        return self.result


@pytest.mark.parametrize(("call", "output", "code"), [
    (lambda s: s.get_setting("global", "wifi_on"), "", 0),
    (lambda s: s.get_setting("global", "wifi_on"), "1\n", 1),
    (lambda s: s.get_setting("bogus", "x"), "Invalid namespace 'bogus'\n", 0),
    (lambda s: s.put_setting("global", "wifi_on", "1"), "usage: settings ...\n", 0),
    (lambda s: s.contacts(), "something else\n", 0),
    (lambda s: s.contacts(), "Row: 0 _id=1\n", 0),  # not the projection asked for
    (lambda s: s.add_contact("A"), "Error while accessing provider:com.android.contacts\n", 0),
    (lambda s: s.alarms(), "Can't find service: alarm\n", 0),
    (lambda s: s.add_alarm(7, 0), "Starting: Intent { act=android.intent.action.SET_ALARM }\n"
                                  "Error: Activity not started, unable to resolve Intent\n", 0),
    (lambda s: s.add_alarm(7, 0), "", 0),
    (lambda s: s.clear_app("com.x"), "Failed\n", 0),
    (lambda s: s.clear_app("com.x"), "", 0),
    (lambda s: s.force_stop("com.x"), "/system/bin/sh: am: inaccessible or not found\n", 127),
    (lambda s: s.home(), "", 255),
    (lambda s: s.remove_file("/system/x"), "rm: /system/x: Read-only file system\n", 1),
])
def test_adb_state_raises_on_bad_output(call: Callable[[AdbState], object], output: str,
                                        code: int) -> None:
    backend = FakeBackend(output, code)
    with pytest.raises(DeviceError) as info:
        call(AdbState(backend))  # type: ignore[arg-type]
    assert backend.commands[-1] in str(info.value)  # the message names the command...
    assert repr(output[:20])[1:-1] in str(info.value)  # ...and the output


def test_parse_rows() -> None:
    assert parse_rows("No result found.\n", ["_id"]) == []
    assert parse_rows("Row: 0 _id=3, display_name=Doe, Jane\nRow: 1 _id=4, display_name=NULL\n",
                      ["_id", "display_name"]) == [{"_id": "3", "display_name": "Doe, Jane"},
                                                   {"_id": "4", "display_name": None}]
    assert parse_rows("Row: 0 _id=3, display_name=two\nlines\n", ["_id", "display_name"]) == [
        {"_id": "3", "display_name": "two\nlines"}]
    assert parse_rows("Warning\nRow: 0 _id=3\n", ["_id"]) is None


def test_parse_alarms_of_older_androids() -> None:
    """Android 11 and older: batches, ``when=`` instead of ``origWhen=``."""
    dump = """Current Alarm Manager state:
  Pending alarm batches: 2
Batch{6f2a1 num=1 start=123 end=123 flgs=0x1}:
    RTC_WAKEUP #0: Alarm{8c5b0 type 0 when 1697355000000 com.google.android.deskclock}
      tag=*walarm*:com.android.deskclock.ALARM_ALERT
      type=0 whenElapsed=+4h0m0s0ms when=2023-10-15 07:30:00.000
    RTC #0: Alarm{1d2e3 type 1 when 1697360000000 com.android.systemui}
      type=1 whenElapsed=+5h0m0s0ms when=2023-10-15 08:53:20.000
    ELAPSED_WAKEUP #1: Alarm{4a4b4 type 2 when 99 com.google.android.deskclock}
      type=2 whenElapsed=+1m0s0ms when=+1m0s0ms
"""
    assert parse_alarms(dump, "com.google.android.deskclock") == [AlarmRow(7, 30)]
    assert parse_alarms(dump, "com.android.deskclock") == []
