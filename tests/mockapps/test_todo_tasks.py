"""To-do as AndroidWorld's Tasks app: due dates, priorities, completion dates, the tabs and
the high-priority filter, the editor's new fields, and the AndroidWorld templates' params."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
from driving import Driver, act, fill, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import Episode
from phone_gym.mockapps.todo.app import TodoApp, add_item, subtitle
from phone_gym.mockapps.todo.aw_tasks import AW_TEMPLATES
from phone_gym.mockapps.todo.manifest import MANIFEST
from phone_gym.world import Device


def app_of(device: Device) -> TodoApp:
    app = device.apps["Todo"]
    assert isinstance(app, TodoApp)
    return app


@pytest.fixture
def device() -> Device:
    dev = Device([TodoApp])
    data = app_of(dev).data
    add_item(data, "Pay rent", due="2023-10-20", due_time="09:30", priority=0)
    add_item(data, "Buy milk", done=True, completed="2023-10-12", due="2023-10-11")
    add_item(data, "Call mom", due="2023-10-18", priority=2)
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Todo"))
    return dev


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


def test_it_is_the_tasks_app() -> None:
    assert (MANIFEST.name, MANIFEST.package, MANIFEST.label) == ("Todo", "org.tasks", "Tasks")


def test_rows_show_due_dates_priorities_and_completion(device: Device) -> None:
    assert rows(device) == ["Call mom", "Pay rent", "Buy milk"]  # open by due date, then done
    item = app_of(device).data.items[1]
    assert subtitle(item) == "Due Oct 20, 2023 09:30 · High priority"
    assert subtitle(app_of(device).data.items[2]) == ("Due Oct 11, 2023 · Completed "
                                                      "Oct 12, 2023")


def test_tabs_and_the_priority_filter(device: Device) -> None:
    tap(device, desc="Open navigation drawer")
    tap(device, id="tab_completed")
    assert rows(device) == ["Buy milk"]
    tap(device, desc="Open navigation drawer")
    tap(device, id="tab_open")
    assert rows(device) == ["Call mom", "Pay rent"]
    tap(device, id="chip_high_priority")
    assert rows(device) == ["Pay rent"]
    tap(device, id="chip_high_priority")
    tap(device, desc="Open navigation drawer")
    tap(device, id="tab_all")
    tap(device, id="chip_next_7_days")  # the phone's day: PhoneWorld's default clock
    assert rows(device) == []


def test_filters_by_day_and_hidden_tasks() -> None:
    dev = Device([TodoApp])
    today = dev.system.now.date()
    data = app_of(dev).data
    add_item(data, "Today", due=today.isoformat())
    add_item(data, "In three days", due=(today + timedelta(days=3)).isoformat())
    add_item(data, "Later", due=(today + timedelta(days=9)).isoformat(),
             hide_until=(today + timedelta(days=2)).isoformat())
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Todo"))
    assert rows(dev) == ["Today", "In three days"]  # "Later" is hidden until a later day
    tap(dev, id="chip_show_hidden")
    assert rows(dev) == ["Today", "In three days", "Later"]
    tap(dev, id="chip_next_7_days")
    assert rows(dev) == ["Today", "In three days"]
    tap(dev, id="chip_next_7_days")
    tap(dev, id="chip_due_today")
    assert rows(dev) == ["Today"]


def test_checking_off_records_the_day(device: Device) -> None:
    tap(device, id="done_3")
    item = app_of(device).data.items[3]
    assert item.done and item.completed == device.system.now.date().isoformat()
    tap(device, id="done_3")
    item = app_of(device).data.items[3]
    assert not item.done and item.completed == ""


def test_the_editor_sets_due_date_time_and_priority(device: Device) -> None:
    tap(device, id="new_item")
    fill(device, "title", "Book flights")
    assert shown(device, "None", id="due_value")
    tap(device, id="due")  # the pencil: the date typed as on an en-US phone
    tap(device, id="mtrl_picker_header_toggle")
    fill(device, "mtrl_picker_text_input_date", "10/25/2023")
    tap(device, id="confirm_button")
    assert shown(device, "Oct 25, 2023", id="due_value")
    tap(device, id="due_time")
    tap(device, desc="18 hours")
    tap(device, desc="0 minutes")
    tap(device, id="material_timepicker_ok_button")
    tap(device, id="chip_low")
    tap(device, id="save")
    new = app_of(device).data.items[4]
    assert (new.title, new.due, new.due_time, new.priority) == ("Book flights", "2023-10-25",
                                                                "18:00", 2)
    assert shown(device, "Book flights")
    assert Driver(device).find(id="count") is not None


@pytest.mark.parametrize("template", AW_TEMPLATES, ids=lambda t: t.id)
def test_aw_templates_seed_targets_and_decoys(template: object) -> None:
    from phone_gym.mockapps.todo.aw_tasks import TasksLookup

    assert isinstance(template, TasksLookup)
    for seed in range(5):
        ep = Episode(template, Device([TodoApp]), np.random.default_rng(seed))
        p = ep.params
        assert p["answer"] and len(p["rows"]) > len(p["answer"]) + 5
        q = {k: v for k, v in p.items() if k not in ("rows", "answer")}
        hits = [r["title"] for r in p["rows"] if template.hit(r, q)]
        assert sorted(hits) == sorted(p["answer"])
        assert date.fromisoformat(p.get("day", "2023-10-15"))
