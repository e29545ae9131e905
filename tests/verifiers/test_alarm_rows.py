"""Alarm rows and watches: switching an alarm off is a modification, deleting it a removal;
``Watch.for_stores`` covers every record of the stores named."""

from __future__ import annotations

import pytest

from phone_gym.mockapps import APPS
from phone_gym.mockapps.clock.app import add_alarm
from phone_gym.verifiers import Allow, NoRecord, check, diff, observe
from phone_gym.verifiers.state import (
    SHARED_DIRS,
    WATCHED_SETTINGS,
    AlarmRow,
    Watch,
    alarm_rows,
)
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def test_alarm_keys_do_not_depend_on_the_switch_or_the_order() -> None:
    rows = [AlarmRow(7, 30, True, "Gym"), AlarmRow(7, 30, False, "Gym"), AlarmRow(6, 0)]
    keyed = alarm_rows(rows)
    assert list(keyed) == ["06:00|", "07:30|Gym", "07:30|Gym#2"]
    assert keyed["07:30|Gym#2"] == {"hour": 7, "minute": 30, "enabled": False, "label": "Gym"}
    assert alarm_rows(reversed(rows)) == keyed
    changes = diff({"alarms": alarm_rows([AlarmRow(6, 0)])},
                   {"alarms": alarm_rows([AlarmRow(6, 0, False)])})
    assert [(c.path, c.kind) for c in changes] == [("alarms.06:00|.enabled", "modified")]


def test_switching_off_is_not_deleting_for_a_delete_task() -> None:
    state = WorldState(Device(APPS))
    alarms = state.device.system.alarms
    target = add_alarm(alarms, 7, 30, "Gym")
    add_alarm(alarms, 22, 5, enabled=False)
    watch = Watch.for_stores(["alarms"])
    initial = observe(state, watch)
    assert state.alarms() == [AlarmRow(7, 30, True, "Gym"), AlarmRow(22, 5, False, "")]
    criteria = [NoRecord("alarms", {"hour": 7, "minute": 30})]
    allowed = [Allow("alarms", "removed", where={"hour": 7, "minute": 30}, max=1)]
    alarms.update(target.id, enabled=False)
    verdict = check(initial, observe(state, watch), criteria, allowed=allowed)
    assert not verdict.success
    assert [str(c) for c in verdict.damage] == [
        "alarms.07:30|Gym.enabled changed from True to False"]
    alarms.remove(target.id)
    assert check(initial, observe(state, watch), criteria, allowed=allowed).success


def test_watch_for_stores() -> None:
    watch = Watch.for_stores(["files", "contacts", "messages", "settings"])
    assert watch.contacts and not watch.alarms and watch.stores == ("messages",)
    assert watch.dirs == SHARED_DIRS and watch.settings == WATCHED_SETTINGS
    assert watch.store_names() == ("messages", "contacts")
    assert Watch.for_stores(["alarms"], settings=[("global", "wifi_on")] * 2).settings == (
        ("global", "wifi_on"),)
    assert Watch.for_stores(["alarms"]).dirs == ()
    with pytest.raises(ValueError, match="no store 'alarm'"):
        Watch.for_stores(["alarm"])
