"""The virtual phone's clock answers ``SHOW_ALARMS`` with its alarm list, whose
``uiautomator dump`` shows each row's time, switch and label as a real clock's does."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from phone_gym.mockapps.clock.app import add_alarm
from phone_gym.real.alarms import parse_alarm_page
from phone_gym.virtual import VirtualPhone
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState

CLOCK = "com.google.android.deskclock"


def shell(phone: VirtualPhone, command: str) -> str:
    code, out, err = phone.shell(command)
    assert code == 0, (command, out, err)
    return out.decode()


def test_show_alarms_opens_the_alarm_tab() -> None:
    phone = VirtualPhone()
    clock = phone.device.app("Clock")
    shell(phone, f"monkey -p {CLOCK} 1")
    clock.ui.tab = "Stopwatch"
    out = shell(phone, "am start -a android.intent.action.SHOW_ALARMS")
    assert "Starting: Intent { act=android.intent.action.SHOW_ALARMS }" in out
    assert phone.device.current_app is clock and clock.ui.tab == "Alarm"
    assert clock.route.name == "main"


def test_the_dump_shows_time_switch_and_label_of_each_row() -> None:
    phone = VirtualPhone()
    alarms = phone.device.system.alarms
    gym = add_alarm(alarms, 7, 30, "Gym", enabled=False, days=("Mon", "Tue"))
    plain = add_alarm(alarms, 8, 0)
    shell(phone, "am start -a android.intent.action.SHOW_ALARMS")
    shell(phone, "uiautomator dump /data/local/tmp/d.xml")
    xml = shell(phone, "cat /data/local/tmp/d.xml")
    nodes = {n.get("resource-id", "").split(":id/")[-1]: n
             for n in ET.fromstring(xml[xml.index("<hierarchy"):]).iter("node")}
    row = nodes[f"alarm_{gym.id}"]
    assert row.get("text") == "07:30" and row.get("long-clickable") == "true"
    children = {c.get("resource-id", "").split(":id/")[-1]: c for c in row}
    switch = children[f"alarm_switch_{gym.id}"]
    assert (switch.get("class"), switch.get("checkable"), switch.get("checked")) == (
        "android.widget.Switch", "true", "false")
    assert children["label"].get("text") == "Gym"
    assert children["label"].get("class") == "android.widget.TextView"
    assert children["days_of_week"].get("text") == "Mon, Tue"
    plain_row = {c.get("resource-id", "").split(":id/")[-1] for c in nodes[f"alarm_{plain.id}"]}
    assert "label" not in plain_row  # no label: no label view, as in DeskClock
    page = parse_alarm_page(xml, CLOCK)
    assert [r.alarm for r in page.rows] == WorldState(phone.device).alarms()
    elements = ui_elements(phone.device.frame())  # agents in PhoneWorld see the parts too
    assert [e.text for e in elements if e.short_id == "label"] == ["Gym"]
    item = next(e for e in elements if e.short_id == f"alarm_{gym.id}")
    assert item.hint == "Gym · Mon, Tue"  # the subtitle the row draws
