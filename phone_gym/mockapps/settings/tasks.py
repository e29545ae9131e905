"""Settings tasks: switches (Wi-Fi, Bluetooth, airplane mode, dark theme, Do Not Disturb) and
the brightness slider, checked at ``settings.<namespace>.<key>``: exactly what ``settings get``
reads on a phone (a switch accepts every value Android stores for its state: Wi-Fi on is
``wifi_on`` 1 or 2). PhoneWorld setups scramble the settings a task is not about and post a
few notifications (bystanders that must survive); ``real`` tasks run on real phones too, where
``AdbState.put_setting`` switches each setting with the command Android honours and waits
until it reads back (``phone_gym.real.settings``). Brightness targets are the percentages
Settings shows, on Android's gamma curve (``app.percent``)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START
from ...tasks.driver import Driver, OracleError
from ...tasks.families import Infeasible, SetSetting
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allowed, Becomes, Criterion, Matcher, NearMiss
from ...verifiers.criteria import lookup
from ...world import theme as T
from ...world.app import app_strings
from ...world.device import to_px
from ...world.widgets import Node, slider_value_at, slider_x
from .app import (
    AIRPLANE,
    BLUETOOTH,
    BRIGHTNESS,
    BRIGHTNESS_MAX,
    BRIGHTNESS_MIN,
    DARK_THEME,
    DO_NOT_DISTURB,
    GAMMA_SPACE_MAX,
    PAGES,
    WIFI,
    SettingsApp,
    Switch,
    level_of_percent,
    percent,
)
from .fixtures import put_switch, scramble

BRIGHTNESS_TOLERANCE = 3  # percentage points either way


def shown(ui: Driver, label: str) -> str:
    """How Settings shows the English ``label`` in the phone's locale (``ui.locale``)."""
    return app_strings(SettingsApp, ui.locale).t(label)


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
        return switch_value(self.switch, self.on(params))

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        if not (self.switch.more_on or self.switch.more_off):
            return super().criteria(params, initial)
        return [SwitchIs(self.switch, self.on(params))]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        """For a switch Android stores in several values (``SwitchIs``): each value of the
        other state."""
        if not (self.switch.more_on or self.switch.more_off):
            return []
        on = self.on(params)
        out = []
        for value in ((self.switch.off, *self.switch.more_off) if on
                      else (self.switch.on, *self.switch.more_on)):
            state = copy.deepcopy(final)
            state["settings"][self.switch.namespace][self.switch.key] = value
            out.append(NearMiss(state, answer, f"{self.switch.key} left at {value}"))
        return out

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        for page in self.path:
            yield from ui.tap(shown(ui, page), kind="list_item")
        yield from ui.set_switch(shown(ui, self.label), self.on(params))
        yield from ui.finish()


class SettingsTurnOffWifi(SwitchTask):
    template = "In Settings, turn off Wi-Fi."
    complexity, max_steps = 1, 10
    turn_on, path, label = False, ("Network & internet", "Internet"), "Wi-Fi"

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        state = perturb_settings(final, airplane_mode_on="1", wifi_on="0", bluetooth_on="0")
        return [*super().declared_near_misses(initial, final, params, answer),
                NearMiss(state, answer, "airplane mode switched on instead")]


class SettingsSetDarkTheme(SwitchTask):
    template = "In Settings, turn {state} the dark theme."
    complexity, max_steps = 1, 10
    switch, path, label = DARK_THEME, ("Display",), "Dark theme"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        on = bool(rng.random() < 0.5)
        return {"on": on, "state": "on" if on else "off"}

    def on(self, params: Mapping[str, Any]) -> bool:
        return bool(params["on"])

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        return {**params, "state": "打开" if params["on"] else "关闭"}


@dataclass(frozen=True)
class SwitchIs:
    """``switch`` reads ``on`` (or off) in any value Android stores for that state
    (``Switch.reads_on``: ``wifi_on`` 1 or 2 is on). Not a ``Value``: the near miss derived
    for a value (its digits shifted: ``wifi_on`` 1 to 2) may be the same state, so
    ``SwitchTask.declared_near_misses`` lists the other state's values instead."""

    switch: Switch
    on: bool

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        path = f"settings.{self.switch.namespace}.{self.switch.key}"
        value = lookup(state, path)
        got = self.switch.reads_on(None if value is None else str(value))
        want = "on" if self.on else "off"
        if got is self.on:
            return True, f"{path} is {value!r} ({want})"
        return False, f"{path} is {value!r}, expected {switch_value(self.switch, self.on)!r}"


def switch_value(switch: Switch, on: bool) -> Any:
    """What ``switch`` must read when it is ``on``: its one value, or a matcher of every value
    Android stores for that state (``wifi_on`` 1 or 2 is on)."""
    if not (switch.more_on if on else switch.more_off):
        return switch.on if on else switch.off
    values = (switch.on, *switch.more_on) if on else (switch.off, *switch.more_off)
    return Matcher(lambda v: switch.reads_on(None if v is None else str(v)) is on,
                   f"{switch.key} {' or '.join(values)} ({'on' if on else 'off'})",
                   frozenset(values))


def perturb_settings(final: Any, **values: str) -> dict[str, Any]:
    """A copy of the snapshot ``final`` with these ``global`` settings."""
    state = copy.deepcopy(final)
    state["settings"]["global"].update(values)
    return state


def brightness_near(target: int) -> Matcher:
    """A brightness level (0..255 as text) that Settings shows within
    ``BRIGHTNESS_TOLERANCE`` points of ``target`` percent (``app.percent``: gamma)."""
    def test(value: Any) -> bool:
        text = str(value)
        return (text.isdigit() and int(text) <= BRIGHTNESS_MAX
                and abs(percent(int(text)) - target) <= BRIGHTNESS_TOLERANCE)
    return Matcher(test, f"brightness {target}% (±{BRIGHTNESS_TOLERANCE})")


@dataclass(frozen=True)
class ShownBrightness:
    """``screen_brightness`` shows ``target`` percent in Settings (``brightness_near``). Not
    a ``Value``: the near miss derived for a value (its digits shifted, +11 levels) is only a
    few points away on the gamma curve at high levels, so the brightness near misses are
    declared instead (``SettingsSetBrightness.declared_near_misses``: 10 points off)."""

    target: int
    path: str = "settings." + ".".join(BRIGHTNESS)

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        value = lookup(state, self.path)
        shown = f"{percent(int(value))}%" if str(value).isdigit() else "no percentage"
        if brightness_near(self.target)(value):
            return True, f"{self.path} is {value!r} ({shown})"
        return False, (f"{self.path} is {value!r} ({shown}), expected {self.target}% "
                       f"(±{BRIGHTNESS_TOLERANCE})")


class SettingsSetBrightness(SetSetting):
    apps = ("Settings",)
    template = "In Settings, set the brightness level to {percent}%."
    complexity, max_steps = 2, 10
    namespace, key = BRIGHTNESS
    real = True

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        target = 10 * int(rng.integers(1, 11))
        start = pick(rng, [p for p in range(5, 96, 5) if abs(p - target) >= 20])
        return {"percent": target, "start": level_of_percent(start)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        state.put_setting(*BRIGHTNESS, str(params["start"]))

    def value(self, params: Mapping[str, Any]) -> Any:
        return brightness_near(params["percent"])

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [ShownBrightness(params["percent"])]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        """The slider left 10 points off the target (either side within 0..100%)."""
        out = []
        for off in (-10, 10):
            shown = params["percent"] + off
            if 0 <= shown <= 100 and not self.infeasible:
                state = copy.deepcopy(final)
                state["settings"][BRIGHTNESS[0]][BRIGHTNESS[1]] = str(level_of_percent(shown))
                out.append(NearMiss(state, answer, f"the slider at {shown}%"))
        return out

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(shown(ui, PAGES["display"]), kind="list_item")
        yield from slide_to(ui, round(params["percent"] * GAMMA_SPACE_MAX / 100),
                            GAMMA_SPACE_MAX, id="brightness")
        yield from ui.finish()


class SettingsSetBrightnessInfeasible(Infeasible, SettingsSetBrightness):
    """A level above 100%: the slider stops at 100."""

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"percent": pick(rng, (110, 120, 125, 150, 200)),
                "start": level_of_percent(10 * int(rng.integers(1, 10)))}

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(shown(ui, PAGES["display"]), kind="list_item")


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
    #: Airplane mode switches Wi-Fi and Bluetooth off (a phone stores ``wifi_on`` 3 and
    #: ``bluetooth_on`` 2 for "off by airplane mode": see ``app``).
    side_effects = {"global.wifi_on": switch_value(WIFI, False),
                    "global.bluetooth_on": switch_value(BLUETOOTH, False)}


class SettingsDarkThemeOn(SwitchTask):
    template, real = "Turn on the dark theme.", True
    switch, path, label = DARK_THEME, ("Display",), "Dark theme"


class SettingsDoNotDisturbOn(SwitchTask):
    template, real = "Turn on Do Not Disturb.", True
    switch, path, label = DO_NOT_DISTURB, ("Sound & vibration",), "Do Not Disturb"


# --- AndroidWorld's system tasks (``suites.aw_system``): its device date, its budgets ------
class AwSwitchTask(SwitchTask):
    """An AndroidWorld switch task: on its device date, 10 x its complexity in steps."""

    start, complexity, max_steps, real = AW_START, 1, 10, True


class AwVerifySwitch(AwSwitchTask):
    """AndroidWorld's "...Verify" switch tasks: the switch already reads the state the task
    asks for. Doing nothing (or flipping it and back) passes; leaving it the other way, or
    changing anything else, fails. The oracle looks at the switch and flips it only if it
    is wrong."""

    done_at_start = True

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        put_switch(state, self.switch, self.on(params))

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """The switch may be flipped on the way (the criterion judges where it ends), so
        the oracle restores it after a wrong flip."""
        return [f"settings.{self.namespace}.{self.key}"]


class SystemWifiTurnOffVerify(AwVerifySwitch):
    template = "Make sure Wi-Fi is turned off."
    turn_on, path, label = False, ("Network & internet", "Internet"), "Wi-Fi"


class SystemWifiTurnOnVerify(SystemWifiTurnOffVerify):
    template, turn_on = "Make sure Wi-Fi is turned on.", True


class SystemBluetoothTurnOffVerify(AwVerifySwitch):
    template = "Make sure Bluetooth is turned off."
    turn_on, path, label = False, ("Connected devices",), "Bluetooth"
    switch = BLUETOOTH


class SystemBluetoothTurnOnVerify(SystemBluetoothTurnOffVerify):
    template, turn_on = "Make sure Bluetooth is turned on.", True


class AwBrightness(SetSetting):
    """Brightness to an end of the slider: ``screen_brightness`` 255 (max) or 1 (min), as
    AndroidWorld checks; the setup starts it at the other end (``done_at_start``: at the
    target already)."""

    apps = ("Settings",)
    namespace, key = BRIGHTNESS
    start, complexity, max_steps, real = AW_START, 1, 10, True
    to_max: ClassVar[bool] = True

    def target(self) -> int:
        return BRIGHTNESS_MAX if self.to_max else BRIGHTNESS_MIN

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        other = BRIGHTNESS_MIN if self.to_max else BRIGHTNESS_MAX
        state.put_setting(*BRIGHTNESS, str(self.target() if self.done_at_start else other))

    def value(self, params: Mapping[str, Any]) -> Any:
        return str(self.target())

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """A "...Verify" task: the slider may move on the way (the criterion judges where
        it ends), so the oracle puts it back after a wrong drag."""
        if self.done_at_start:
            return [f"settings.{self.namespace}.{self.key}"]
        return super().allowed(params, initial)

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        """The slider left one step short of the end, or at the other end."""
        out = []
        for level in (self.target() + (-1 if self.to_max else 1),
                      BRIGHTNESS_MIN if self.to_max else BRIGHTNESS_MAX):
            state = copy.deepcopy(final)
            state["settings"][BRIGHTNESS[0]][BRIGHTNESS[1]] = str(level)
            out.append(NearMiss(state, answer, f"brightness left at {level}"))
        return out

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(shown(ui, PAGES["display"]), kind="list_item")
        slider = ui.must(id="brightness", kind="slider")
        end = GAMMA_SPACE_MAX if self.to_max else 0
        if round(float(slider.text or 0)) != end:
            yield from slide_to(ui, end, GAMMA_SPACE_MAX, id="brightness")
        yield from ui.finish()


class SystemBrightnessMax(AwBrightness):
    template = "Turn the screen brightness all the way up."


class SystemBrightnessMin(AwBrightness):
    template, to_max = "Turn the screen brightness all the way down.", False


class SystemBrightnessMaxVerify(SystemBrightnessMax):
    template = "Make sure the screen brightness is at its maximum."
    done_at_start = True


class SystemBrightnessMinVerify(SystemBrightnessMin):
    template = "Make sure the screen brightness is at its minimum."
    done_at_start = True


class TurnOffWifiAndTurnOnBluetooth(Task):
    """Two switches, one criterion each (``info["progress"]`` 0, 0.5 or 1, as AndroidWorld
    scores it; the reward is 1 only with both)."""

    apps = ("Settings",)
    template = "Switch Wi-Fi off, then switch Bluetooth on."
    start, complexity, max_steps, real = AW_START, 2, 20, True
    #: Its first setting, as a ``SetSetting`` names its one (``real.watch`` reads these).
    namespace, key = WIFI.namespace, WIFI.key

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        scramble(state, rng)
        put_switch(state, WIFI, True)
        put_switch(state, BLUETOOTH, False)

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [SwitchIs(WIFI, False), SwitchIs(BLUETOOTH, True)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Becomes(f"settings.{WIFI.namespace}.{WIFI.key}", switch_value(WIFI, False)),
                Becomes(f"settings.{BLUETOOTH.namespace}.{BLUETOOTH.key}",
                        switch_value(BLUETOOTH, True))]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        return [NearMiss(perturb_settings(final, wifi_on="1"), answer, "Wi-Fi left on"),
                NearMiss(perturb_settings(final, bluetooth_on="0"), answer,
                         "Bluetooth left off"),
                NearMiss(perturb_settings(final, airplane_mode_on="1", wifi_on="3",
                                          bluetooth_on="1"), answer,
                         "airplane mode on instead of Wi-Fi off")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(shown(ui, PAGES["network"]), kind="list_item")
        yield from ui.tap(shown(ui, PAGES["internet"]), kind="list_item")
        yield from ui.set_switch(shown(ui, "Wi-Fi"), False)
        yield from ui.press("back")
        yield from ui.press("back")
        yield from ui.tap(shown(ui, PAGES["connected"]), kind="list_item")
        yield from ui.set_switch(shown(ui, "Bluetooth"), True)
        yield from ui.finish()


TEMPLATES: list[Task] = [
    SettingsTurnOffWifi(), SettingsSetDarkTheme(), SettingsSetBrightness(), SettingsWifiOff(),
    SettingsWifiOn(), SettingsBluetoothOn(), SettingsBluetoothOff(), SettingsAirplaneModeOn(),
    SettingsDarkThemeOn(), SettingsDoNotDisturbOn(), SettingsSetBrightnessInfeasible(),
    SystemWifiTurnOffVerify(), SystemWifiTurnOnVerify(), SystemBluetoothTurnOffVerify(),
    SystemBluetoothTurnOnVerify(), SystemBrightnessMax(), SystemBrightnessMin(),
    SystemBrightnessMaxVerify(), SystemBrightnessMinVerify(), TurnOffWifiAndTurnOnBluetooth(),
]


#: The templates' instructions in zh-CN, as a Chinese phone's user says them (Chinese
#: Android calls Wi-Fi "WLAN").
ZH_INSTRUCTIONS: dict[type[Task], str] = {
    SettingsTurnOffWifi: "在设置里把 WLAN 关掉。",
    SettingsSetDarkTheme: "在设置里{state}深色主题。",
    SettingsSetBrightness: "在设置里把亮度调到 {percent}%。",
    SettingsWifiOff: "关闭 WLAN。",
    SettingsWifiOn: "打开 WLAN。",
    SettingsBluetoothOn: "打开蓝牙。",
    SettingsBluetoothOff: "关闭蓝牙。",
    SettingsAirplaneModeOn: "开启飞行模式。",
    SettingsDarkThemeOn: "开启深色主题。",
    SettingsDoNotDisturbOn: "开启勿扰模式。",
    SettingsSetBrightnessInfeasible: "在设置里把亮度调到 {percent}%。",
    SystemWifiTurnOffVerify: "确认 WLAN 处于关闭状态。",
    SystemWifiTurnOnVerify: "确认 WLAN 已经打开。",
    SystemBluetoothTurnOffVerify: "确认蓝牙处于关闭状态。",
    SystemBluetoothTurnOnVerify: "确认蓝牙已经打开。",
    SystemBrightnessMax: "把屏幕亮度调到最高。",
    SystemBrightnessMin: "把屏幕亮度调到最低。",
    SystemBrightnessMaxVerify: "确认屏幕亮度已经调到最高。",
    SystemBrightnessMinVerify: "确认屏幕亮度已经调到最低。",
    TurnOffWifiAndTurnOnBluetooth: "先关闭 WLAN，再打开蓝牙。",
}
for _cls, _sentence in ZH_INSTRUCTIONS.items():
    _cls.locales, _cls.instructions = ("en-US", "zh-CN"), {"zh-CN": _sentence}
