"""Settings tasks: switches and the brightness slider, checked with ``settings get``."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...verifiers import Criterion, DeviceState, Matcher, Value
from .base import RealTaskTemplate, ScreenDriver

SETTINGS = "com.android.settings"


class SwitchTask(RealTaskTemplate):
    """Turn one on/off setting to a value: set the opposite first, then ask for the flip."""

    apps = ("Settings",)
    packages = data_packages = (SETTINGS,)
    max_steps = 12
    namespace: ClassVar[str] = "global"
    key: ClassVar[str] = ""
    on_value: ClassVar[str] = "1"
    off_value: ClassVar[str] = "0"
    turn_on: ClassVar[bool] = True
    #: Settings pages to open, in order, before the switch shows.
    path: ClassVar[tuple[str, ...]] = ()
    switch: ClassVar[str] = ""
    #: Other keys the phone itself changes along with this one.
    also_changes: ClassVar[tuple[str, ...]] = ()

    def target(self) -> str:
        return self.on_value if self.turn_on else self.off_value

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        start = self.off_value if self.turn_on else self.on_value
        state.put_setting(self.namespace, self.key, start)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(f"settings.{self.namespace}.{self.key}", self.target())]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return [f"settings.{self.namespace}.{self.key}", *self.also_changes]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)
        start = self.off_value if self.turn_on else self.on_value
        wrong["settings"][self.namespace][self.key] = start
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Settings")
        for page in self.path:
            yield from ui.tap(page)
        yield from ui.set_switch(self.switch, self.turn_on)
        yield PhoneAction("finish", status="success")


class SettingsWifiOff(SwitchTask):
    id = "SettingsWifiOff"
    template = "Turn off Wi-Fi."
    key = "wifi_on"
    turn_on = False
    path = ("Network & internet", "Internet")
    switch = "Wi-Fi"


class SettingsWifiOn(SettingsWifiOff):
    id = "SettingsWifiOn"
    template = "Turn on Wi-Fi."
    turn_on = True


class SettingsBluetoothOn(SwitchTask):
    id = "SettingsBluetoothOn"
    template = "Turn on Bluetooth."
    key = "bluetooth_on"
    turn_on = True
    path = ("Connected devices",)
    switch = "Bluetooth"


class SettingsBluetoothOff(SettingsBluetoothOn):
    id = "SettingsBluetoothOff"
    template = "Turn off Bluetooth."
    turn_on = False


class SettingsAirplaneModeOn(SwitchTask):
    id = "SettingsAirplaneModeOn"
    template = "Turn on airplane mode."
    key = "airplane_mode_on"
    path = ("Network & internet",)
    switch = "Airplane mode"
    also_changes = ("settings.global.wifi_on", "settings.global.bluetooth_on")


class SettingsDarkThemeOn(SwitchTask):
    id = "SettingsDarkThemeOn"
    template = "Turn on the dark theme."
    namespace = "secure"
    key = "ui_night_mode"
    on_value, off_value = "2", "1"
    path = ("Display",)
    switch = "Dark theme"


class SettingsDoNotDisturbOn(SwitchTask):
    id = "SettingsDoNotDisturbOn"
    template = "Turn on Do Not Disturb."
    key = "zen_mode"
    path = ("Sound & vibration",)
    switch = "Do Not Disturb"


def brightness_near(percent: int, tolerance: int = 10) -> Matcher:
    """``screen_brightness`` (0..255) within ``tolerance`` percentage points of ``percent``."""
    def test(value: Any) -> bool:
        try:
            level = int(str(value)) * 100 / 255
        except ValueError:
            return False
        return abs(level - percent) <= tolerance
    return Matcher(test, f"brightness {percent}% +- {tolerance}")


class SettingsSetBrightness(RealTaskTemplate):
    id = "SettingsSetBrightness"
    apps = ("Settings",)
    packages = data_packages = (SETTINGS,)
    template = "Set the screen brightness to about {percent}%."
    complexity = 2
    max_steps = 12

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"percent": int(rng.choice([10, 25, 75, 90]))}

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        state.put_setting("system", "screen_brightness", "128")

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value("settings.system.screen_brightness", brightness_near(params["percent"]))]

    def allowed(self, params: Mapping[str, Any]) -> Sequence[str]:
        return ["settings.system.screen_brightness"]

    def near_miss(self, final: dict[str, Any], params: Mapping[str, Any],
                  answer: str | None) -> tuple[dict[str, Any], str | None]:
        wrong = copy.deepcopy(final)
        off = params["percent"] + (20 if params["percent"] < 50 else -20)
        wrong["settings"]["system"]["screen_brightness"] = str(round(off * 255 / 100))
        return wrong, answer

    def oracle(self, ui: ScreenDriver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield PhoneAction("open_app", app="Settings")
        yield from ui.tap("Display")
        yield from ui.reveal(cls="SeekBar")
        bar = ui.must(cls="SeekBar")
        x0, _, x1, _ = bar.bounds_norm
        y = bar.center_norm[1]
        x = x0 + (x1 - x0) * params["percent"] // 100
        yield PhoneAction("drag", x=bar.center_norm[0], y=y, x2=max(0, min(1000, x)), y2=y)
        yield PhoneAction("finish", status="success")


TEMPLATES: list[RealTaskTemplate] = [
    SettingsWifiOff(), SettingsWifiOn(), SettingsBluetoothOn(), SettingsBluetoothOff(),
    SettingsAirplaneModeOn(), SettingsDarkThemeOn(), SettingsDoNotDisturbOn(),
    SettingsSetBrightness(),
]
