"""``Task.conflicts``: params that would clash with what a phone already holds (a real
phone keeps its owner's data) are refused, so an episode samples others."""

from __future__ import annotations

import numpy as np

from phone_gym.mockapps import APPS, TEMPLATES, Episode
from phone_gym.world import Device


def existing(**seed: object) -> tuple[Device, dict]:
    device = Device(APPS)
    device.reset()
    system = device.system
    for name, phone in seed.get("contacts", []):  # type: ignore[attr-defined]
        system.add_contact(name, phone)
    for hour, minute, on in seed.get("alarms", []):  # type: ignore[attr-defined]
        system.add_alarm(hour, minute, enabled=on)
    for path, content in seed.get("files", []):  # type: ignore[attr-defined]
        system.write_file(path, content)
    return device, device.snapshot()


def params_of(task_id: str, seed: int = 0) -> dict:
    return Episode(TEMPLATES[task_id], Device(APPS), np.random.default_rng(seed)).params


def test_a_contact_of_the_same_name_clashes_whatever_its_number() -> None:
    p = params_of("ContactsDelete")
    _, snap = existing(contacts=[(p["name"], "+1 999-555-0000")])
    assert "named" in TEMPLATES["ContactsDelete"].conflicts(p, snap)
    _, snap = existing(contacts=[("Someone Else", p["phone"])])
    assert TEMPLATES["ContactsDelete"].conflicts(p, snap) is None


def test_an_alarm_at_the_same_time_clashes_even_when_off() -> None:
    p = params_of("ClockCreateAlarm")
    _, snap = existing(alarms=[(p["hour"], p["minute"], False)])
    assert TEMPLATES["ClockCreateAlarm"].conflicts(p, snap)
    _, snap = existing(alarms=[((p["hour"] + 1) % 24, p["minute"], True)])
    assert TEMPLATES["ClockCreateAlarm"].conflicts(p, snap) is None


def test_an_owners_file_is_never_overwritten_but_an_earlier_episodes_copy_is_fine() -> None:
    task = TEMPLATES["FilesDeleteFile"]
    p = params_of("FilesDeleteFile")
    path, content = p["files"][0]
    _, snap = existing(files=[(path, "the owner's own text")])
    assert "other content" in task.conflicts(p, snap)
    _, snap = existing(files=[(path, content)])
    assert task.conflicts(p, snap) is None


def test_the_record_an_infeasible_task_says_is_missing_clashes() -> None:
    p = params_of("ContactsDeleteContactInfeasible")
    task = TEMPLATES["ContactsDeleteContactInfeasible"]
    _, snap = existing(contacts=[(p["name"], p["phone"])])
    assert task.conflicts(p, snap)
    _, snap = existing()
    assert task.conflicts(p, snap) is None
