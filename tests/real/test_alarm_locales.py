"""Alarm lists in other locales, and alarm reads through uiautomator2.

The dumps are ``tests/real/data/deskclock_alarms.xml`` (AOSP DeskClock's alarm tab) with its
times written as DeskClock writes them in each locale: ``DateFormat.getBestDateTimePattern``
of "hma" (12-hour) or "Hm" (24-hour) with CLDR's day periods: Chinese "ah:mm" (上午7:30),
Korean "a h:mm" (오전 7:30), Japanese "aK:mm" (午前7:30, hours 0 to 11), German "h:mm a" with
"vorm."/"nachm.", Spanish "h:mm a" with "a. m."/"p. m.", Arabic with its own digits and
ص/م, French Canada's 24-hour "HH 'h' mm"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from phone_gym.real.alarms import marker_half, parse_alarm_page, time_of
from phone_gym.real.state import AdbState
from phone_gym.verifiers.state import AlarmRow

DESKCLOCK_XML = (Path(__file__).parent / "data" / "deskclock_alarms.xml").read_text()
DESKCLOCK = "com.android.deskclock"
EXPECTED = [AlarmRow(7, 30, True, "Gym"), AlarmRow(18, 5, False, "")]


def localized(first: str, second: str, am: str = "", pm: str = "") -> str:
    """The dump with its times (and its separate AM/PM nodes) as a locale writes them."""
    return (DESKCLOCK_XML.replace('text="7:30"', f'text="{first}"')
            .replace('text="6:05"', f'text="{second}"')
            .replace('text="AM"', f'text="{am}"').replace('text="PM"', f'text="{pm}"'))


@pytest.mark.parametrize(("locale", "first", "second", "am", "pm"), [
    ("zh-CN", "上午7:30", "下午6:05", "", ""),
    ("zh-CN, marker apart", "7:30", "6:05", "上午", "下午"),
    ("ko-KR", "오전 7:30", "오후 6:05", "", ""),
    ("ja-JP", "午前7:30", "午後6:05", "", ""),
    ("de-DE", "7:30\u202fvorm.", "6:05\u202fnachm.", "", ""),
    ("de-DE, marker apart", "7:30", "6:05", "vorm.", "nachm."),
    ("es-ES", "7:30\u00a0a.\u00a0m.", "6:05\u00a0p.\u00a0m.", "", ""),
    ("ar-EG", "٧:٣٠ ص", "٦:٠٥ م", "", ""),
    ("de-DE, 24-hour", "07:30", "18:05", "", ""),
    ("fr-CA, 24-hour", "07 h 30", "18 h 05", "", ""),
])
def test_alarm_lists_read_in_other_locales(locale: str, first: str, second: str, am: str,
                                           pm: str) -> None:
    page = parse_alarm_page(localized(first, second, am, pm), DESKCLOCK)
    assert [r.alarm for r in page.rows] == EXPECTED, locale


def test_twelve_oclock_and_japanese_hours_from_zero() -> None:
    assert time_of("午後0:30") == (0, 30, "p")  # aK:mm: 12:30
    page = parse_alarm_page(localized("午前0:10", "午後0:05"), DESKCLOCK)
    assert [(r.alarm.hour, r.alarm.minute) for r in page.rows] == [(0, 10), (12, 5)]
    assert [(r.alarm.hour, r.alarm.minute) for r in parse_alarm_page(
        localized("12:10", "12:05", "AM", "PM"), DESKCLOCK).rows] == [(0, 10), (12, 5)]


def test_what_is_not_a_time_or_a_marker() -> None:
    for text in ("Alarm 7:30", "7:30 Gym", "25:00", "7:60", "13:00 PM", "上午", "Tomorrow"):
        assert time_of(text) is None, text
    assert marker_half("上午") == "a" and marker_half("P.M.") == "p" and marker_half("") == ""
    assert marker_half("Gym") is None
    # a label that is a marker word is no label, but a label beside it is kept
    page = parse_alarm_page(localized("7:30", "6:05", "오전", "오후"), DESKCLOCK)
    assert [r.alarm.label for r in page.rows] == ["Gym", ""]


# --- through uiautomator2 ------------------------------------------------------------------
@pytest.fixture
def u2_phone(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[object, object]]:
    pytest.importorskip("uiautomator2")
    from phone_gym.real.backend import U2Backend
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone
    from phone_gym.virtual.u2 import attach_u2

    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server
    phone = attach_u2(VirtualPhone("u2-alarms"))
    with VirtualAdbServer([phone]) as server:
        yield phone, U2Backend("u2-alarms", port=server.port, timeout=5.0)


def test_alarms_are_read_through_uiautomator2s_own_dump(u2_phone: tuple[object, object]
                                                         ) -> None:
    """One UI-dump path per backend: with uiautomator2 the alarm list is read by its
    ``dump_hierarchy``, never the shell's ``uiautomator dump`` (which would stop the u2
    server's UiAutomation)."""
    phone, backend = u2_phone
    system = phone.device.system  # type: ignore[attr-defined]
    system.add_alarm(6, 45, label="Run")
    system.add_alarm(21, 0, enabled=False)
    state = AdbState(backend, clock_package="com.google.android.deskclock")  # type: ignore[arg-type]
    rows = state.alarms()
    assert [(a.hour, a.minute, a.enabled, a.label) for a in rows] == [
        (a.hour, a.minute, a.enabled, a.label) for a in sorted(
            system.alarms, key=lambda a: (a.hour, a.minute))]
    assert (6, 45, True, "Run") in [(a.hour, a.minute, a.enabled, a.label) for a in rows]
    log = list(phone.shell_log)  # type: ignore[attr-defined]
    assert not [cmd for cmd in log if cmd[0] == "uiautomator"], log
    assert phone.u2.running(9008)  # type: ignore[attr-defined]
