"""Settings: Android 14's settings pages for the radios, the display and Do Not Disturb.

The app has no data of its own: every switch reads and writes the shared
``system.settings`` under Android's namespaces and keys (the notification shade's quick
toggles write the same ones), so verifiers read ``system.settings.<namespace>.<key>`` and a
real phone's ``settings get`` reads the same. Labels follow Android 14, so a script that
taps "Network & internet", "Internet", "Wi-Fi" on a phone works here too.

Screens: the main list; "Network & internet" (the "Internet" row, the "Airplane mode"
switch); "Internet" (the "Wi-Fi" switch); "Connected devices" (the "Bluetooth" switch);
"Display" (the "Brightness level" slider, the "Dark theme" switch); "Sound & vibration"
(the "Do Not Disturb" switch). "Battery", "Storage" and "About phone" rows are inert.
Turning airplane mode on turns Wi-Fi and Bluetooth off; turning it off leaves them off.
The dark theme (``secure.ui_night_mode``) turns every app whose look follows the system
(``AppLook.dark == "system"``, Settings itself included) dark, as Android's DayNight themes do.

A switch reads every value Android stores for its state: ``wifi_on`` is 1 or 2 when Wi-Fi is
on and 0 or 3 when it is off (AOSP ``WifiSettingsStore``: 2 is ``WIFI_ENABLED_AIRPLANE_OVERRIDE``,
on in airplane mode; 3 is ``WIFI_DISABLED_AIRPLANE_ON``, switched off by airplane mode);
``bluetooth_on`` 2 is ``BluetoothManagerService.BLUETOOTH_ON_AIRPLANE`` (off, switched off by
airplane mode).

The brightness slider and the percentage the Display page shows are on Android's gamma
curve, as SystemUI's slider and Settings' "Brightness level" summary are (AOSP SettingsLib
``display/BrightnessUtils.convertLinearToGammaFloat`` / ``convertGammaToLinearFloat``, the
hybrid log-gamma curve, over ``GAMMA_SPACE_MAX`` slider steps): the slider's value is the
gamma position, the setting ``screen_brightness`` the linear level 1..255
(``BrightnessSynchronizer``: the float 0..1 as the int 1..255), so 50% is level 22 and
level 128 shows 87%, as on a phone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...world.app import App, Route
from ...world.manifest import Intent
from ...world.system import SystemState
from ...world.widgets import ListItem, ListView, Node, Screen, Slider, Text, Toggle, TopBar
from .manifest import MANIFEST


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Switch:
    """A setting shown as an on/off switch: where it lives and what "on" and "off" are."""

    namespace: str
    key: str
    on: str = "1"
    off: str = "0"
    #: Other stored values that mean on, and off (see the module doc).
    more_on: tuple[str, ...] = ()
    more_off: tuple[str, ...] = ()

    def reads_on(self, value: str | None) -> bool | None:
        """Whether the stored ``value`` means on (None: a value the switch does not know)."""
        if value == self.on or value in self.more_on:
            return True
        if value == self.off or value in self.more_off:
            return False
        return None


WIFI = Switch("global", "wifi_on", more_on=("2",), more_off=("3",))
BLUETOOTH = Switch("global", "bluetooth_on", more_off=("2",))
AIRPLANE = Switch("global", "airplane_mode_on")
DARK_THEME = Switch("secure", "ui_night_mode", on="2", off="1")  # UiModeManager's modes
DO_NOT_DISTURB = Switch("global", "zen_mode")  # 1: priority only, Android's usual "on"
BRIGHTNESS = ("system", "screen_brightness")  # 0..255, a decimal string
BRIGHTNESS_MAX = 255
#: ``screen_brightness_mode``: 0 manual, 1 automatic (adaptive) brightness.
BRIGHTNESS_MODE = ("system", "screen_brightness_mode")
#: The lowest level a slider sets (``BrightnessSynchronizer``: brightness 0.0 is level 1).
BRIGHTNESS_MIN = 1
#: The slider's steps (``BrightnessUtils.GAMMA_SPACE_MAX``).
GAMMA_SPACE_MAX = 65535
#: The hybrid log-gamma constants of ``BrightnessUtils``.
HLG_R, HLG_A, HLG_B, HLG_C = 0.5, 0.17883277, 0.28466892, 0.55991073

#: The pages of the app: route name -> title (also the label of the row that opens it).
PAGES = {
    "network": "Network & internet",
    "internet": "Internet",
    "connected": "Connected devices",
    "display": "Display",
    "sound": "Sound & vibration",
}


# --- updates -------------------------------------------------------------------------------
def is_on(system: SystemState, switch: Switch) -> bool:
    return bool(switch.reads_on(system.get_setting(switch.namespace, switch.key)))


def set_switch(system: SystemState, switch: Switch, on: bool) -> None:
    if switch == AIRPLANE:
        system.set_airplane_mode(on)
    elif switch == WIFI and on and is_on(system, AIRPLANE):  # WIFI_ENABLED_AIRPLANE_OVERRIDE
        system.put_setting(switch.namespace, switch.key, "2")
    else:
        system.put_setting(switch.namespace, switch.key, switch.on if on else switch.off)


def brightness(system: SystemState) -> int:
    """The brightness level 0..255 (a malformed value reads as 0)."""
    value = system.get_setting(*BRIGHTNESS) or "0"
    return max(0, min(BRIGHTNESS_MAX, int(value))) if value.isdigit() else 0


def set_brightness(system: SystemState, level: int) -> None:
    system.put_setting(*BRIGHTNESS, str(max(0, min(BRIGHTNESS_MAX, level))))


def level_to_gamma(level: int) -> int:
    """A level 0..255 as the slider's position 0..``GAMMA_SPACE_MAX``
    (``BrightnessUtils.convertLinearToGammaFloat`` over the levels 1..255)."""
    share = min(1.0, max(0.0, (level - BRIGHTNESS_MIN) / (BRIGHTNESS_MAX - BRIGHTNESS_MIN)))
    hlg = share * 12  # HLG normalizes to [0, 12]
    ret = math.sqrt(hlg) * HLG_R if hlg <= 1 else HLG_A * math.log(hlg - HLG_B) + HLG_C
    return round(ret * GAMMA_SPACE_MAX)


def gamma_to_level(gamma: int) -> int:
    """A slider position 0..``GAMMA_SPACE_MAX`` as the level 1..255 it sets
    (``BrightnessUtils.convertGammaToLinearFloat``)."""
    share = min(1.0, max(0.0, gamma / GAMMA_SPACE_MAX))
    ret = (share / HLG_R) ** 2 if share <= HLG_R else math.exp((share - HLG_C) / HLG_A) + HLG_B
    ret = min(12.0, max(0.0, ret))
    return round(BRIGHTNESS_MIN + (BRIGHTNESS_MAX - BRIGHTNESS_MIN) * ret / 12)


def percent(level: int) -> int:
    """A brightness level as the percentage the Display page shows (gamma: see the module
    doc)."""
    return round(level_to_gamma(level) * 100 / GAMMA_SPACE_MAX)


def level_of_percent(share: float) -> int:
    """The level the slider sets at ``share`` percent of its track."""
    return gamma_to_level(round(share * GAMMA_SPACE_MAX / 100))


# --- the app -------------------------------------------------------------------------------
#: Settings intents (``android.settings.*``) and the page each opens.
INTENT_PAGES = {
    "android.settings.WIRELESS_SETTINGS": "network",
    "android.settings.AIRPLANE_MODE_SETTINGS": "network",
    "android.settings.WIFI_SETTINGS": "internet",
    "android.settings.BLUETOOTH_SETTINGS": "connected",
    "android.settings.DISPLAY_SETTINGS": "display",
    "android.settings.SOUND_SETTINGS": "sound",
    "android.settings.ZEN_MODE_SETTINGS": "sound",
}


class SettingsApp(App):
    manifest = MANIFEST

    def handle_intent(self, intent: Intent) -> bool:
        """``android.settings.*``: open the matching page over the main list."""
        page = INTENT_PAGES.get(intent.action)
        self.stack = [Route("main")] + ([Route(page)] if page else [])
        return True

    def flip(self, switch: Switch) -> None:
        set_switch(self.system, switch, not is_on(self.system, switch))

    def switch(self, label: str, switch: Switch, id: str) -> Node:
        return Toggle(self.t(label), is_on(self.system, switch), lambda: self.flip(switch), id=id)

    # views
    def view(self, route: Route) -> Screen:
        page = {"network": self.network, "internet": self.internet,
                "connected": self.connected, "display": self.display,
                "sound": self.sound}.get(route.name)
        if page is None:
            return self.main()
        return Screen(top_bar=TopBar(self.t(PAGES[route.name]), on_back=self.back),
                      content=page())

    def page_row(self, route: str, subtitle: str, glyph: str, id: str) -> Node:
        return ListItem(self.t(PAGES[route]), self.t(subtitle), on_click=lambda: self.go(route),
                        id=id, glyph=glyph, color=self.color)

    def main(self) -> Screen:
        rows = [
            self.page_row("network", "Mobile, Wi-Fi, hotspot", "📶", "network_internet"),
            self.page_row("connected", "Bluetooth, pairing", "ᛒ", "connected_devices"),
            self.page_row("display", "Dark theme, font size, brightness", "☀", "display"),
            self.page_row("sound", "Volume, haptics, Do Not Disturb", "🔔", "sound"),
            ListItem(self.t("Battery"), "100%", id="battery", glyph="🔋", color=self.color),
            ListItem(self.t("Storage"), self.t("27% used - 93 GB free"), id="storage",
                     glyph="☰", color=self.color),
            ListItem(self.t("About phone"), self.t("Pixel 8"), id="about_phone", glyph="ℹ",
                     color=self.color),
        ]
        return Screen(top_bar=TopBar(self.t("Settings")),
                      content=[ListView(rows, id="settings_list")])

    def network(self) -> list[Node]:
        wifi = self.t("Wi-Fi on" if is_on(self.system, WIFI) else "Off")
        return [
            ListItem(self.t("Internet"), wifi, on_click=lambda: self.go("internet"), id="internet",
                     glyph="📶", color=self.color),
            self.switch("Airplane mode", AIRPLANE, "airplane_mode"),
            Text(self.t("Turning on airplane mode turns off Wi-Fi and Bluetooth."),
                 style="caption", id="airplane_summary"),
        ]

    def internet(self) -> list[Node]:
        note = ("Wi-Fi is on" if is_on(self.system, WIFI)
                else "To see available networks, turn Wi-Fi on")
        return [self.switch("Wi-Fi", WIFI, "wifi"),
                Text(self.t(note), style="caption", id="wifi_summary")]

    def connected(self) -> list[Node]:
        note = ("Bluetooth is on" if is_on(self.system, BLUETOOTH)
                else "Turn on Bluetooth to pair new devices")
        return [self.switch("Bluetooth", BLUETOOTH, "bluetooth"),
                Text(self.t(note), style="caption", id="bluetooth_summary")]

    def display(self) -> list[Node]:
        level = brightness(self.system)
        return [
            Text(self.t("Brightness level"), id="brightness_title"),
            Text(f"{percent(level)}%", style="caption", id="brightness_summary"),
            Slider(self.t("Brightness level"), level_to_gamma(level), 0, GAMMA_SPACE_MAX,
                   lambda v: set_brightness(self.system, gamma_to_level(v)), id="brightness"),
            self.switch("Dark theme", DARK_THEME, "dark_theme"),
        ]

    def sound(self) -> list[Node]:
        return [self.switch("Do Not Disturb", DO_NOT_DISTURB, "do_not_disturb"),
                Text(self.t("Only get notified by important people and apps"),
                     style="caption", id="dnd_summary")]
