"""The Settings app driven through actions: its pages, the switches writing Android's
settings keys, airplane mode, the brightness slider (by drag and by tap), agreement with
the notification shade's quick toggles; and its task helpers."""

from __future__ import annotations

import pytest
from driving import Driver, act, drive, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps import Driver as OracleDriver
from phone_gym.mockapps.settings import APP, TEMPLATES, SettingsApp
from phone_gym.mockapps.settings.app import (
    GAMMA_SPACE_MAX,
    gamma_to_level,
    level_of_percent,
    level_to_gamma,
    percent,
)
from phone_gym.mockapps.settings.tasks import brightness_near, slide_to
from phone_gym.suites.aw_system import MAPPED as AW_MAPPED
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState
from phone_gym.world.widgets import slider_x


@pytest.fixture
def device() -> Device:
    d = Device(APPS)
    open_app(d, "Settings")
    return d


def setting(device: Device, namespace: str, key: str) -> str | None:
    return device.system.get_setting(namespace, key)


def route(device: Device) -> str:
    app = device.current_app
    assert app is not None
    return app.route.name


def toggle_checked(device: Device, label: str) -> bool:
    found = Driver(device).find(label, kind="toggle")
    assert found is not None, label
    return bool(found.node.checked)


def subtitle(device: Device, title: str) -> str:
    found = Driver(device).find(title, kind="list_item")
    assert found is not None, title
    return found.node.hint


def test_registration() -> None:
    assert APP is SettingsApp
    assert (SettingsApp.name, SettingsApp.package) == ("Settings", "com.android.settings")
    ids = [t.id for t in TEMPLATES]
    aw = {task_id for task_id, _ in AW_MAPPED.values()}  # AndroidWorld's names
    assert len(ids) >= 2 and all(i.startswith("Settings") or i in aw for i in ids)
    assert all(t.apps == ("Settings",) for t in TEMPLATES)


def test_main_list_has_android_14_rows(device: Device) -> None:
    assert shown(device, "Settings", kind="top_bar")
    rows = [p.node.text for p in device.frame().items if p.node.kind == "list_item"]
    assert rows == ["Network & internet", "Connected devices", "Display", "Sound & vibration",
                    "Battery", "Storage", "About phone"]
    assert subtitle(device, "Network & internet") == "Mobile, Wi-Fi, hotspot"
    tap(device, "Battery", kind="list_item")  # inert
    assert route(device) == "main"
    press(device, "back")
    assert device.current_app is None  # back from the main list goes home


def test_each_row_opens_its_page_and_back_returns(device: Device) -> None:
    for title, route_name in (("Network & internet", "network"),
                              ("Connected devices", "connected"), ("Display", "display"),
                              ("Sound & vibration", "sound")):
        tap(device, title, kind="list_item")
        assert route(device) == route_name and shown(device, title, kind="top_bar")
        tap(device, id="navigate_up")
        assert route(device) == "main"


def test_wifi_switch_on_the_internet_page(device: Device) -> None:
    tap(device, "Network & internet", kind="list_item")
    assert subtitle(device, "Internet") == "Wi-Fi on"
    tap(device, "Internet", kind="list_item")
    assert toggle_checked(device, "Wi-Fi")
    tap(device, "Wi-Fi", kind="toggle")
    assert setting(device, "global", "wifi_on") == "0"
    assert not toggle_checked(device, "Wi-Fi")
    assert shown(device, "To see available networks, turn Wi-Fi on")
    status = next(p.node for p in device.frame().items if p.node.kind == "status_bar")
    assert "WiFi" not in status.hint
    press(device, "back")
    assert subtitle(device, "Internet") == "Off"
    tap(device, "Internet", kind="list_item")
    tap(device, "Wi-Fi", kind="toggle")
    assert setting(device, "global", "wifi_on") == "1"


def test_airplane_mode_turns_the_radios_off_and_not_back_on(device: Device) -> None:
    device.system.put_setting("global", "bluetooth_on", "1")
    tap(device, "Network & internet", kind="list_item")
    assert not toggle_checked(device, "Airplane mode")
    tap(device, "Airplane mode", kind="toggle")
    assert setting(device, "global", "airplane_mode_on") == "1"
    assert setting(device, "global", "wifi_on") == "0"
    assert setting(device, "global", "bluetooth_on") == "0"
    assert subtitle(device, "Internet") == "Off"
    tap(device, "Airplane mode", kind="toggle")
    assert setting(device, "global", "airplane_mode_on") == "0"
    assert (setting(device, "global", "wifi_on"), setting(device, "global", "bluetooth_on")) == (
        "0", "0")
    tap(device, "Internet", kind="list_item")  # Wi-Fi may be turned on again by hand
    tap(device, "Wi-Fi", kind="toggle")
    assert setting(device, "global", "wifi_on") == "1"


def test_the_shade_and_settings_write_the_same_keys(device: Device) -> None:
    tap(device, "Network & internet", kind="list_item")
    act(device, PhoneAction("drag", x=500, y=10, x2=500, y2=600))
    assert device.shade_open
    tap(device, "Airplane mode", kind="toggle")  # the quick toggle: same rule as Settings
    assert setting(device, "global", "wifi_on") == "0"
    assert not toggle_checked(device, "Wi-Fi")
    tap(device, "Airplane mode", kind="toggle")
    tap(device, "Wi-Fi", kind="toggle")
    press(device, "back")
    assert not device.shade_open and route(device) == "network"
    assert subtitle(device, "Internet") == "Wi-Fi on"
    assert not toggle_checked(device, "Airplane mode")


def test_bluetooth_switch(device: Device) -> None:
    tap(device, "Connected devices", kind="list_item")
    assert not toggle_checked(device, "Bluetooth")
    tap(device, "Bluetooth", kind="toggle")
    assert setting(device, "global", "bluetooth_on") == "1"
    assert shown(device, "Bluetooth is on")


def test_dark_theme_and_do_not_disturb_use_androids_values(device: Device) -> None:
    assert setting(device, "secure", "ui_night_mode") == "1"
    assert setting(device, "global", "zen_mode") == "0"
    tap(device, "Display", kind="list_item")
    tap(device, "Dark theme", kind="toggle")
    assert setting(device, "secure", "ui_night_mode") == "2"
    assert toggle_checked(device, "Dark theme")
    tap(device, "Dark theme", kind="toggle")
    assert setting(device, "secure", "ui_night_mode") == "1"
    press(device, "back")
    tap(device, "Sound & vibration", kind="list_item")
    tap(device, "Do Not Disturb", kind="toggle")
    assert setting(device, "global", "zen_mode") == "1"
    tap(device, "Do Not Disturb", kind="toggle")
    assert setting(device, "global", "zen_mode") == "0"


def brightness_slider(device: Device):  # noqa: ANN201 - Placed
    found = Driver(device).find(id="brightness", kind="slider")
    assert found is not None
    return found


def test_brightness_slider_by_drag(device: Device) -> None:
    tap(device, "Display", kind="list_item")
    # level 128 of 255 is 87% on Android's gamma curve (SettingsLib BrightnessUtils)
    assert shown(device, "Brightness level") and shown(device, "87%")
    placed = brightness_slider(device)
    gamma = level_to_gamma(128)
    assert placed.node.text == f"{float(gamma)}"
    assert placed.node.range_info == (0, GAMMA_SPACE_MAX, gamma)
    x0, y0, x1, y1 = placed.full
    cy = (y0 + y1) // 2
    start = slider_x(placed.node, x0, x1, gamma)
    y = cy * 1000 // 2400 + 1
    act(device, PhoneAction("drag", x=round(start * 1000 / 1080), y=y, x2=0, y2=y))
    assert setting(device, "system", "screen_brightness") == "1"  # the lowest level a slider sets
    assert shown(device, "0%") and brightness_slider(device).node.text == "0.0"
    act(device, PhoneAction("drag", x=60, y=y, x2=999, y2=y + 100))
    assert setting(device, "system", "screen_brightness") == "255"
    assert shown(device, "100%")


def test_brightness_slider_by_tap(device: Device) -> None:
    tap(device, "Display", kind="list_item")
    placed = brightness_slider(device)
    x0, y0, x1, y1 = placed.full
    cy = (y0 + y1) // 2
    for gamma in (9000, 60000, 40000):
        px = round(slider_x(placed.node, x0, x1, gamma))
        assert device.step(PhoneAction("click", x=0, y=0), px=(px, cy)) is None
        level = int(setting(device, "system", "screen_brightness") or -9)
        assert abs(level - gamma_to_level(gamma)) <= 1
    assert shown(device, f"{percent(level)}%")


@pytest.mark.parametrize(("target", "level"), [(25, 6), (50, 22), (75, 68), (87, 127),
                                               (90, 149), (100, 255)])
def test_the_gamma_curve_is_androids(target: int, level: int) -> None:
    """Levels and percentages as AOSP's BrightnessUtils maps them (HLG, levels 1..255)."""
    assert level_of_percent(target) == level and abs(percent(level) - target) <= 1
    assert gamma_to_level(level_to_gamma(level)) == level
    assert percent(0) == percent(1) == 0


@pytest.mark.parametrize("share", [0, 1, 10, 25, 50, 75, 90, 99, 100])
def test_the_oracle_slides_to_a_value(device: Device, share: int) -> None:
    tap(device, "Display", kind="list_item")
    ui = OracleDriver(lambda: ui_elements(device.frame()), WorldState(device))
    drive(device, slide_to(ui, round(share * GAMMA_SPACE_MAX / 100), GAMMA_SPACE_MAX,
                           id="brightness"))
    assert abs(percent(int(setting(device, "system", "screen_brightness") or -9)) - share) <= 2


def test_settings_survive_a_force_stop_and_are_not_app_data(device: Device) -> None:
    tap(device, "Display", kind="list_item")
    tap(device, "Dark theme", kind="toggle")
    act(device, PhoneAction("close_app", app="Settings"))
    open_app(device, "Settings")
    assert route(device) == "main"
    assert setting(device, "secure", "ui_night_mode") == "2"
    snap = device.snapshot()
    assert snap["apps"]["Settings"] is None
    assert snap["settings"]["secure"]["ui_night_mode"] == "2"


def test_brightness_matcher_allows_a_few_points() -> None:
    near = brightness_near(75)  # on the gamma curve: level 68 shows 75%, 58 72%, 81 78%
    assert near("68") and near("58") and near("81")
    assert not near("57") and not near("82") and not near("") and not near("abc")
    assert not near("191")  # 75% of 255: a linear reading is 97% on a phone


def test_the_slider_reaches_both_ends_of_the_brightness_levels(device: Device) -> None:
    """AndroidWorld's brightness tasks check levels 255 and 1: the slider's ends."""
    tap(device, "Display", kind="list_item")
    ui = OracleDriver(lambda: ui_elements(device.frame()))
    for gamma, level in ((GAMMA_SPACE_MAX, "255"), (0, "1")):
        for action in slide_to(ui, gamma, GAMMA_SPACE_MAX, id="brightness"):
            assert device.step(action) is None
        assert setting(device, "system", "screen_brightness") == level
