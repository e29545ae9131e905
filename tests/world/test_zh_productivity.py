"""The productivity apps in zh-CN (Calendar, Gmail, Notes, Tasks, Joplin, Clipper): their
formatted strings in the locale's forms, the Calendar's seeded data in Chinese, and English
unchanged."""

from __future__ import annotations

import re

import numpy as np

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.tasks.task import Episode
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.layout import chip_width
from phone_gym.world.widgets import Node

HAN = re.compile(r"[\u4e00-\u9fff]")


def shown(device: Device) -> dict[str, str]:
    return {e.resource_id.rsplit("/", 1)[-1]: e.text for e in ui_elements(device.frame())
            if e.text}


def tap(device: Device, rid: str) -> None:
    e = next(e for e in ui_elements(device.frame()) if e.resource_id.endswith(f"/{rid}"))
    device.step(PhoneAction("click", x=e.center_norm[0], y=e.center_norm[1]))


def calendar_on(locale: str) -> Device:
    device = Device(APPS, locale=locale)
    now = device.system.now
    device.system.events.new(title="项目周会", start=now.replace(hour=10).isoformat(),
                             end=now.replace(hour=11).isoformat(), location="", description="",
                             rrule="", all_day=False)
    device.open_app("Calendar")
    return device


def test_the_calendar_writes_dates_as_the_locale_does() -> None:
    zh, en = calendar_on("zh-CN"), calendar_on("en-US")
    assert "2026年10月15日 星期四" in shown(zh).values()
    assert "Thursday, October 15, 2026" in shown(en).values()
    for device in (zh, en):
        tap(device, "tab_month")
    assert shown(zh)["month_title"] == "2026年10月" and shown(en)["month_title"] == "October 2026"
    for device in (zh, en):
        tap(device, "event_1")
        tap(device, "start_date")
    picker = shown(zh)
    assert picker["mtrl_picker_header_selection_text"] == "10月15日周四"
    assert picker["month_navigation_fragment_toggle"] == "2026年10月 ▾"
    assert shown(en)["mtrl_picker_header_selection_text"] == "Thu, Oct 15"
    assert shown(zh)["start_date_value"] == "2026年10月15日"


def test_a_zh_calendar_task_seeds_chinese_events() -> None:
    device = Device(APPS, locale="zh-CN")
    Episode(REGISTRY.template("SimpleCalendarAddOneEvent"), device, np.random.default_rng(3))
    titles = [e.title for e in device.system.events]
    assert titles and all(HAN.search(t) for t in titles), titles
    places = [e.location for e in device.system.events if e.location]
    assert all(HAN.search(p) for p in places), places
    en = Device(APPS)
    Episode(REGISTRY.template("SimpleCalendarAddOneEvent"), en, np.random.default_rng(3))
    # the same draws: as many events, at the same times
    assert [e.start for e in en.system.events] == [e.start for e in device.system.events]


def test_a_chip_is_as_wide_as_its_chinese_label() -> None:
    latin, han = chip_width(Node("chip", text="abcd")), chip_width(Node("chip", text="高优先级"))
    assert han > latin
