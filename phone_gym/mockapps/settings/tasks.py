"""Settings tasks: switches (Wi-Fi, Bluetooth, airplane mode, dark theme, Do Not Disturb) and
the brightness slider, checked at ``settings.<namespace>.<key>``: exactly what ``settings get``
reads on a phone. PhoneWorld setups scramble the settings a task is not about and post a few
notifications (bystanders that must survive); ``real`` tasks run on real phones too."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Matcher, NearMiss
from ...world import theme as T
from ...world.device import to_px
from ...world.widgets import Node, slider_value_at, slider_x
from ..driver import Driver, OracleError
from ..families import Infeasible, SetSetting
from ..task import Task
from ..vocab import pick
from .app import (
    AIRPLANE,
    BLUETOOTH,
    BRIGHTNESS,
    BRIGHTNESS_MAX,
    DARK_THEME,
    DO_NOT_DISTURB,
    PAGES,
    WIFI,
    Switch,
    percent,
)
from .fixtures import put_switch, scramble

BRIGHTNESS_TOLERANCE = 3  # percentage points either way


def slide_to(ui: Driver, value: int, maximum: int = BRIGHTNESS_MAX,
             **query: Any) -> Iterator[PhoneAction]:
    """Drag a slider's thumb to ``value`` (as near as a touch point can). Its range is read
    from PhoneWorld's element hint (``"0-255"``), else ``0..maximum`` (a dump from a phone
    gives the position as the text, ``"128.0"``, but not the range)."""
    yield from ui.reveal(kind="slider", **query)
    e = ui.must(kind="slider", **query)
    lo, _, hi = e.hint.partition("-") if e.hint else ("0", "", str(maximum))
    try:
        node = Node("slider", range_info=(int(lo), int(hi), round(float(e.text or lo))))
    except ValueError as exc:
        raise OracleError(f"slider {e.short_id} reads {e.text!r} over {e.hint!r}") from exc
    x0, y0, x1, y1 = e.full_bounds or e.bounds
    y = ((y0 + y1) // 2 * 1000 + T.SCREEN_H - 1) // T.SCREEN_H

    def touch(px: float) -> int:
        """The [0, 1000] x whose pixel sets the value nearest to the one at ``px``."""
        n = int(px * 1000 / T.SCREEN_W)
        want = slider_value_at(node, x0, x1, round(px))
        return min((n - 1, n, n + 1, n + 2),
                   key=lambda c: abs(slider_value_at(node, x0, x1, to_px(c, 0)[0]) - want))

    start = touch(slider_x(node, x0, x1, node.range_info[2]))  # type: ignore[index]
    yield PhoneAction("drag", x=start, y=y, x2=touch(slider_x(node, x0, x1, value)), y2=y)


class SwitchTask(SetSetting):
    """Turn one switch to ``turn_on``: the setup sets the opposite first."""

    apps = ("Settings",)
    max_steps = 12
    switch: ClassVar[Switch] = WIFI
    turn_on: ClassVar[bool] = True
    #: Settings pages to open, in order, and the switch's label.
    path: ClassVar[tuple[str, ...]] = ()
    label: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.namespace, cls.key = cls.switch.namespace, cls.switch.key

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        put_switch(state, self.switch, not self.on(params))

    def on(self, params: Mapping[str, Any]) -> bool:
        return self.turn_on

    def value(self, params: Mapping[str, Any]) -> Any:
        return self.switch.on if self.on(params) else self.switch.off

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        for page in self.path:
            yield from ui.tap(page, kind="list_item")
        yield from ui.set_switch(self.label, self.on(params))
        yield from ui.finish()


class SettingsTurnOffWifi(SwitchTask):
    template = "In Settings, turn off Wi-Fi."
    complexity, max_steps = 1, 10
    turn_on, path, label = False, ("Network & internet", "Internet"), "Wi-Fi"

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        state = perturb_settings(final, airplane_mode_on="1", wifi_on="0", bluetooth_on="0")
        return [NearMiss(state, answer, "airplane mode switched on instead")]


class SettingsSetDarkTheme(SwitchTask):
    template = "In Settings, turn {state} the dark theme."
    complexity, max_steps = 1, 10
    switch, path, label = DARK_THEME, ("Display",), "Dark theme"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        on = bool(rng.random() < 0.5)
        return {"on": on, "state": "on" if on else "off"}

    def on(self, params: Mapping[str, Any]) -> bool:
        return bool(params["on"])


def perturb_settings(final: Any, **values: str) -> dict[str, Any]:
    """A copy of the snapshot ``final`` with these ``global`` settings."""
    state = copy.deepcopy(final)
    state["settings"]["global"].update(values)
    return state


def brightness_near(target: int) -> Matcher:
    """A brightness level (0..255 as text) within ``BRIGHTNESS_TOLERANCE`` points of
    ``target`` percent."""
    def test(value: Any) -> bool:
        text = str(value)
        return text.isdigit() and abs(percent(int(text)) - target) <= BRIGHTNESS_TOLERANCE
    return Matcher(test, f"brightness {target}% (±{BRIGHTNESS_TOLERANCE})")


class SettingsSetBrightness(SetSetting):
    apps = ("Settings",)
    template = "In Settings, set the brightness level to {percent}%."
    complexity, max_steps = 2, 10
    namespace, key = BRIGHTNESS
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        target = 10 * int(rng.integers(1, 11))
        start = pick(rng, [p for p in range(5, 96, 5) if abs(p - target) >= 20])
        return {"percent": target, "start": round(start * BRIGHTNESS_MAX / 100)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        state.put_setting(*BRIGHTNESS, str(params["start"]))

    def value(self, params: Mapping[str, Any]) -> Any:
        return brightness_near(params["percent"])

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(PAGES["display"], kind="list_item")
        yield from slide_to(ui, round(params["percent"] * BRIGHTNESS_MAX / 100), id="brightness")
        yield from ui.finish()


class SettingsSetBrightnessInfeasible(Infeasible, SettingsSetBrightness):
    """A level above 100%: the slider stops at 100."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"percent": pick(rng, (110, 120, 125, 150, 200)),
                "start": round(10 * int(rng.integers(1, 10)) * BRIGHTNESS_MAX / 100)}

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(PAGES["display"], kind="list_item")


# --- the stock-Android switches, written for real phones first ---------------------------------
class SettingsWifiOff(SwitchTask):
    template, real = "Turn off Wi-Fi.", True
    turn_on, path, label = False, ("Network & internet", "Internet"), "Wi-Fi"


class SettingsWifiOn(SettingsWifiOff):
    template, turn_on = "Turn on Wi-Fi.", True


class SettingsBluetoothOn(SwitchTask):
    template, real = "Turn on Bluetooth.", True
    switch, path, label = BLUETOOTH, ("Connected devices",), "Bluetooth"


class SettingsBluetoothOff(SettingsBluetoothOn):
    template, turn_on = "Turn off Bluetooth.", False


class SettingsAirplaneModeOn(SwitchTask):
    template, real = "Turn on airplane mode.", True
    switch, path, label = AIRPLANE, ("Network & internet",), "Airplane mode"
    side_effects = {"global.wifi_on": "0", "global.bluetooth_on": "0"}


class SettingsDarkThemeOn(SwitchTask):
    template, real = "Turn on the dark theme.", True
    switch, path, label = DARK_THEME, ("Display",), "Dark theme"


class SettingsDoNotDisturbOn(SwitchTask):
    template, real = "Turn on Do Not Disturb.", True
    switch, path, label = DO_NOT_DISTURB, ("Sound & vibration",), "Do Not Disturb"


TEMPLATES: list[Task] = [
    SettingsTurnOffWifi(), SettingsSetDarkTheme(), SettingsSetBrightness(), SettingsWifiOff(),
    SettingsWifiOn(), SettingsBluetoothOn(), SettingsBluetoothOff(), SettingsAirplaneModeOn(),
    SettingsDarkThemeOn(), SettingsDoNotDisturbOn(), SettingsSetBrightnessInfeasible(),
]
