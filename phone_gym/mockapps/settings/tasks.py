"""Settings tasks: switching Wi-Fi off, the dark theme on or off, and setting the brightness.

Every setup scrambles the settings a task is not about (Bluetooth, brightness, dark theme,
Do Not Disturb), so an agent cannot pass by resetting everything, and posts a few
notifications: bystander records that must survive. The verdict reads the settings at
``system.settings.<namespace>.<key>``, exactly what ``settings get`` gives on a phone.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, Matcher, Value
from ...world import Device
from ...world import theme as T
from ...world.device import to_px
from ...world.widgets import slider_value_at, slider_x
from ..oracle import Driver, OracleError
from ..task import TaskTemplate, pick
from .app import (
    BLUETOOTH,
    BRIGHTNESS_MAX,
    DARK_THEME,
    DO_NOT_DISTURB,
    PAGES,
    WIFI,
    Switch,
    percent,
    set_brightness,
    set_switch,
)

NOTIFICATIONS = (
    ("Settings", "Software update", "A security update is available"),
    ("Clock", "Upcoming alarm", "Tomorrow 07:00"),
    ("Files", "Download complete", "boarding-pass.pdf"),
    ("Notes", "Reminder", "Water the plants"),
    ("Settings", "Battery saver", "Turn on to extend battery life"),
    ("Contacts", "Birthday today", "Say happy birthday to Maria"),
)
BRIGHTNESS_TOLERANCE = 3  # percentage points either way


def path(switch: Switch) -> str:
    """Where a switch sits in a snapshot."""
    return f"system.settings.{switch.namespace}.{switch.key}"


def scramble(device: Device, rng: np.random.Generator) -> None:
    """Random values for the settings tasks are not about, and 2 or 3 notifications."""
    system = device.system
    for switch in (BLUETOOTH, DARK_THEME, DO_NOT_DISTURB):
        set_switch(system, switch, bool(rng.random() < 0.5))
    set_brightness(system, int(rng.integers(20, 236)))
    for app, title, text in pick(rng, NOTIFICATIONS, int(rng.integers(2, 4))):
        system.notify(app, title, text)


def flip(state: dict[str, Any], switch: Switch) -> None:
    """Switch ``switch`` over in a snapshot (for near misses)."""
    values = state["system"]["settings"][switch.namespace]
    values[switch.key] = switch.off if values[switch.key] == switch.on else switch.on


def open_page(ui: Driver, route: str) -> Iterator[PhoneAction]:
    """Oracle steps: open Settings and one of its pages from the main list."""
    yield from ui.open_app("Settings")
    yield from ui.tap(PAGES[route], kind="list_item")


def slide_to(ui: Driver, value: int, **query: str) -> Iterator[PhoneAction]:
    """Oracle steps: drag a slider's thumb to ``value`` (as near as a touch point can)."""
    yield from ui.reveal(kind="slider", **query)
    placed = ui.find(kind="slider", **query)
    if placed is None or placed.node.range_info is None:
        raise OracleError(f"no slider matching {query} on screen")
    node, (x0, y0, x1, y1) = placed.node, placed.full
    y = ((y0 + y1) // 2 * 1000 + T.SCREEN_H - 1) // T.SCREEN_H

    def touch(px: float) -> int:
        """The [0, 1000] x whose pixel sets the value nearest to the one at ``px``."""
        n = int(px * 1000 / T.SCREEN_W)
        want = slider_value_at(node, x0, x1, round(px))
        return min((n - 1, n, n + 1, n + 2),
                   key=lambda c: abs(slider_value_at(node, x0, x1, to_px(c, 0)[0]) - want))

    start = touch(slider_x(node, x0, x1, node.range_info[2]))
    yield PhoneAction("drag", x=start, y=y, x2=touch(slider_x(node, x0, x1, value)), y2=y)


class SettingsTask(TaskTemplate):
    """Shared parts: the scrambled settings and the notifications."""

    apps = ("Settings",)

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(device, rng)


class SettingsTurnOffWifi(SettingsTask):
    id = "SettingsTurnOffWifi"
    template = "In Settings, turn off Wi-Fi."
    complexity = 1
    max_steps = 10

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(device, params, rng)
        set_switch(device.system, WIFI, True)

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(path(WIFI), WIFI.off)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [path(WIFI)]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """Airplane mode switched on instead (it turns Wi-Fi off too, and more)."""
        state = copy.deepcopy(final)
        state["system"]["settings"]["global"].update(
            airplane_mode_on="1", wifi_on="0", bluetooth_on="0")
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_page(ui, "network")
        yield from ui.tap("Internet", kind="list_item")
        yield from ui.tap("Wi-Fi", kind="toggle")
        yield PhoneAction("finish", status="success")


class SettingsSetDarkTheme(SettingsTask):
    id = "SettingsSetDarkTheme"
    template = "In Settings, turn {state} the dark theme."
    complexity = 1
    max_steps = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        on = bool(rng.random() < 0.5)
        return {"on": on, "state": "on" if on else "off"}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(device, params, rng)
        set_switch(device.system, DARK_THEME, not params["on"])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(path(DARK_THEME), DARK_THEME.on if params["on"] else DARK_THEME.off)]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [path(DARK_THEME)]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """The switch below the right one: Do Not Disturb flipped, the theme left as it was."""
        state = copy.deepcopy(final)
        flip(state, DARK_THEME)
        flip(state, DO_NOT_DISTURB)
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_page(ui, "display")
        yield from ui.tap("Dark theme", kind="toggle")
        yield PhoneAction("finish", status="success")


def brightness_near(target: int) -> Matcher:
    """A brightness level (0..255 as text) within ``BRIGHTNESS_TOLERANCE`` points of
    ``target`` percent."""
    def test(value: Any) -> bool:
        text = str(value)
        return text.isdigit() and abs(percent(int(text)) - target) <= BRIGHTNESS_TOLERANCE
    return Matcher(test, f"brightness {target}% (±{BRIGHTNESS_TOLERANCE})")


class SettingsSetBrightness(SettingsTask):
    id = "SettingsSetBrightness"
    template = "In Settings, set the brightness level to {percent}%."
    complexity = 2
    max_steps = 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        target = 10 * int(rng.integers(1, 11))
        start = pick(rng, [p for p in range(5, 96, 5) if abs(p - target) >= 20])
        return {"percent": target, "start": round(start * BRIGHTNESS_MAX / 100)}

    def setup(self, device: Device, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(device, params, rng)
        set_brightness(device.system, params["start"])

    def criteria(self, params: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value("system.settings.system.screen_brightness",
                      brightness_near(params["percent"]))]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["system.settings.system.screen_brightness"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        """Ten points off the target."""
        state = copy.deepcopy(final)
        target = params["percent"]
        off = target - 10 if target >= 50 else target + 10
        state["system"]["settings"]["system"]["screen_brightness"] = str(
            round(off * BRIGHTNESS_MAX / 100))
        return state, answer

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from open_page(ui, "display")
        yield from slide_to(ui, round(params["percent"] * BRIGHTNESS_MAX / 100), id="brightness")
        yield PhoneAction("finish", status="success")


TEMPLATES: list[TaskTemplate] = [SettingsTurnOffWifi(), SettingsSetDarkTheme(),
                                 SettingsSetBrightness()]
