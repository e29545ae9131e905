"""Public fixtures of Settings: scrambling the settings a task is not about."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...tasks.vocab import pick
from ...verifiers.state import DeviceState
from ...world.state import WorldState
from .app import BLUETOOTH, BRIGHTNESS, DARK_THEME, DO_NOT_DISTURB, Switch
from .app import PAGES as PAGES
from .app import WIFI as WIFI

NOTIFICATIONS = (
    ("Settings", "Software update", "A security update is available"),
    ("Clock", "Upcoming alarm", "Tomorrow 07:00"),
    ("Files", "Download complete", "boarding-pass.pdf"),
    ("Notes", "Reminder", "Water the plants"),
    ("Settings", "Battery saver", "Turn on to extend battery life"),
    ("Contacts", "Birthday today", "Say happy birthday to Maria"),
)
#: The same notifications as a zh-CN phone shows them (same order: the same picks).
NOTIFICATIONS_ZH = (
    ("Settings", "系统更新", "有可用的安全更新"),
    ("Clock", "即将响铃的闹钟", "明天 07:00"),
    ("Files", "下载完成", "登机牌.pdf"),
    ("Notes", "提醒", "给花浇水"),
    ("Settings", "省电模式", "开启后可延长电池续航时间"),
    ("Contacts", "今天过生日", "祝李娜生日快乐"),
)


def put_switch(state: DeviceState, switch: Switch, on: bool) -> None:
    state.put_setting(switch.namespace, switch.key, switch.on if on else switch.off)


def scramble(state: DeviceState, rng: np.random.Generator) -> None:
    """PhoneWorld: random values for the settings a task is not about (Bluetooth, dark
    theme, Do Not Disturb, brightness) and 2 or 3 notifications, so an agent cannot pass by
    resetting everything. On a real phone nothing is touched."""
    if not isinstance(state, WorldState):
        return
    for switch in (BLUETOOTH, DARK_THEME, DO_NOT_DISTURB):
        put_switch(state, switch, bool(rng.random() < 0.5))
    state.put_setting(*BRIGHTNESS, str(int(rng.integers(20, 236))))
    shown = NOTIFICATIONS_ZH if state.locale == "zh-CN" else NOTIFICATIONS
    for app, title, text in pick(rng, shown, int(rng.integers(2, 4))):
        state.post_notification(title, text, app=app)


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"SwitchIs", "perturb_settings", "switch_value"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
