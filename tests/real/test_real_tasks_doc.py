"""``docs/real-device-tasks.md`` says what every real-device template reads from a phone and
what its reset changes: it must be what the code does now."""

from __future__ import annotations

from pathlib import Path

from phone_gym.docgen.real_tasks import describe_task, real_tasks_doc, record, shape
from phone_gym.envs.real_phone import REAL_TEMPLATES

DOC = Path(__file__).resolve().parents[2] / "docs" / "real-device-tasks.md"


def test_the_page_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == real_tasks_doc(), (
        "docs/real-device-tasks.md is out of date: run "
        "`python -m phone_gym.docgen.real_tasks docs/real-device-tasks.md`")


def test_every_real_template_has_a_row() -> None:
    text = DOC.read_text(encoding="utf-8")
    for task in REAL_TEMPLATES:
        assert f"| `{task}` |" in text


def test_the_rows_come_from_what_runs() -> None:
    reset, reads, _, _ = record(REAL_TEMPLATES["ClockDeleteAlarm"])
    assert not [argv for argv in reset if argv[:2] == ["am", "force-stop"]]  # alarms kept
    assert ["am", "kill", "com.google.android.deskclock"] in reset or any(
        "--activity-clear-task" in argv and "com.google.android.deskclock" in argv
        for argv in reset)
    assert any(argv[:2] == ["uiautomator", "dump"] for argv in reads)
    row = describe_task(REAL_TEMPLATES["ClockDeleteAlarm"])
    assert "every alarm, on or off, with its label" in row
    assert "`am start -a android.intent.action.SET_ALARM`" in row
    assert shape(["settings", "put", "global", "wifi_on", "0"]) == "settings put global wifi_on"
    assert shape(["sync", "push", "/sdcard/Download/a b.txt"]) == "sync push /sdcard/Download"
