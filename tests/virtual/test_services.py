"""The virtual phone's system services as AOSP's behave: ``cmd wifi|bluetooth_manager|
connectivity|uimode|notification`` and ``svc`` switch the phone and persist its setting; a
plain ``settings put`` of a service-owned key switches nothing (``WifiSettingsStore``,
``BluetoothManagerService``, ``UiModeManagerService`` read those keys at boot), a
``zen_mode`` write is reverted (``ZenModeHelper``), and adaptive brightness moves
``screen_brightness`` by itself (``DisplayPowerController``)."""

from __future__ import annotations

import pytest

from phone_gym.mockapps.settings.app import BLUETOOTH, DARK_THEME, WIFI, Switch, is_on
from phone_gym.virtual import VirtualPhone


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode(), err.decode()


def get(phone: VirtualPhone, namespace: str, key: str) -> str:
    code, out, _ = run(phone, f"settings get {namespace} {key}")
    assert code == 0
    return out.strip()


def world(phone: VirtualPhone, namespace: str, key: str) -> str | None:
    """What the phone really is (the Settings app's switch), not what the table says."""
    return phone.device.system.get_setting(namespace, key)


@pytest.mark.parametrize(("namespace", "key", "value", "switch"), [
    ("global", "wifi_on", "0", WIFI), ("global", "bluetooth_on", "1", BLUETOOTH),
    ("secure", "ui_night_mode", "2", DARK_THEME)])
def test_settings_put_of_a_service_owned_key_switches_nothing(
        phone: VirtualPhone, namespace: str, key: str, value: str, switch: Switch) -> None:
    before = world(phone, namespace, key)
    was_on = is_on(phone.device.system, switch)
    assert run(phone, f"settings put {namespace} {key} {value}") == (0, "", "")
    assert get(phone, namespace, key) == value  # SettingsProvider stores it...
    assert world(phone, namespace, key) == before  # ...and nothing switches
    assert is_on(phone.device.system, switch) == was_on
    assert f"{key}={value}\n" in run(phone, f"settings list {namespace}")[1]


def test_the_next_service_switch_wins_and_a_reboot_applies_a_stored_value(
        phone: VirtualPhone) -> None:
    run(phone, "settings put global wifi_on 0")
    assert run(phone, "cmd wifi set-wifi-enabled enabled") == (0, "", "")  # already on
    assert get(phone, "global", "wifi_on") == "1" and world(phone, "global", "wifi_on") == "1"
    run(phone, "settings put global wifi_on 0")
    phone.reboot()  # WifiSettingsStore reads wifi_on at boot
    assert world(phone, "global", "wifi_on") == "0" and get(phone, "global", "wifi_on") == "0"


def test_a_zen_mode_write_is_reverted_and_set_dnd_switches(phone: VirtualPhone) -> None:
    assert run(phone, "settings put global zen_mode 1") == (0, "", "")
    assert get(phone, "global", "zen_mode") == "0"  # ZenModeHelper: "Fixing zen mode setting"
    # NotificationShellCommand: "on" is INTERRUPTION_FILTER_NONE (total silence)
    for word, zen in (("priority", "1"), ("alarms", "3"), ("on", "2"), ("none", "2"),
                      ("all", "0"), ("priority", "1"), ("off", "0")):
        assert run(phone, f"cmd notification set_dnd {word}") == (0, "", "")
        assert get(phone, "global", "zen_mode") == zen == world(phone, "global", "zen_mode")
    code, out, _ = run(phone, "cmd notification set_dnd maybe")
    assert code == 0 and out.startswith("Error occurred.")  # the filter is refused
    assert get(phone, "global", "zen_mode") == "0"


def test_cmd_wifi(phone: VirtualPhone) -> None:
    assert run(phone, "cmd wifi set-wifi-enabled disabled") == (0, "", "")  # silent
    assert world(phone, "global", "wifi_on") == "0"
    assert run(phone, "cmd wifi status")[1].startswith("Wifi is disabled\n")
    assert run(phone, "cmd wifi set-wifi-enabled true") == (
        255, "Invalid args for set-wifi-enabled: java.lang.IllegalArgumentException: Expected "
             "'enabled' or 'disabled' as next arg but got 'true'\n", "")
    code, _, err = run(phone, "cmd wifi force-hi-perf-mode enabled")  # needs root
    assert code == 255 and "SecurityException: Uid 2000 does not have access" in err
    assert world(phone, "global", "wifi_on") == "0"


def test_airplane_mode_stores_wifi_and_bluetooth_as_android_does(phone: VirtualPhone) -> None:
    run(phone, "cmd bluetooth_manager enable")
    assert run(phone, "cmd connectivity airplane-mode") == (0, "disabled\n", "")
    assert run(phone, "cmd connectivity airplane-mode enable") == (0, "", "")
    # WifiSettingsStore.WIFI_DISABLED_AIRPLANE_ON, BluetoothManagerService.BLUETOOTH_ON_AIRPLANE
    assert (get(phone, "global", "wifi_on"), get(phone, "global", "bluetooth_on")) == ("3", "2")
    assert not is_on(phone.device.system, WIFI) and not is_on(phone.device.system, BLUETOOTH)
    run(phone, "cmd wifi set-wifi-enabled enabled")  # WIFI_ENABLED_AIRPLANE_OVERRIDE
    assert get(phone, "global", "wifi_on") == "2" and is_on(phone.device.system, WIFI)
    assert run(phone, "cmd wifi status")[1].startswith("Wifi is enabled")
    run(phone, "cmd connectivity airplane-mode disable")
    assert (get(phone, "global", "wifi_on"), get(phone, "global", "bluetooth_on")) == ("1", "1")
    run(phone, "cmd wifi set-wifi-enabled disabled; cmd connectivity airplane-mode enable; "
               "cmd connectivity airplane-mode disable")
    assert get(phone, "global", "wifi_on") == "0"  # off stays off
    code, out, _ = run(phone, "cmd connectivity airplane-mode maybe")
    assert code == 255 and out.startswith("Connectivity service commands:")


def test_bluetooth_and_uimode_print_what_aosp_prints(phone: VirtualPhone) -> None:
    assert run(phone, "cmd bluetooth_manager enable") == (
        0, "BluetoothShellCommand: Execenable\nenable: Success\n", "")
    assert world(phone, "global", "bluetooth_on") == "1"
    run(phone, "cmd bluetooth_manager disable")
    assert world(phone, "global", "bluetooth_on") == "0"
    assert run(phone, "cmd uimode night yes") == (0, "Night mode: yes\n", "")
    assert world(phone, "secure", "ui_night_mode") == "2"
    assert run(phone, "cmd uimode night") == (0, "Night mode: yes\n", "")
    code, _, err = run(phone, "cmd uimode night maybe")
    assert code == 255 and err.startswith("Error: mode must be 'yes', 'no', or 'auto'")
    assert run(phone, "cmd uimode night no") == (0, "Night mode: no\n", "")
    assert world(phone, "secure", "ui_night_mode") == "1"


def test_unknown_services_and_svc(phone: VirtualPhone) -> None:
    # frameworks/native/cmds/cmd/cmd.cpp
    assert run(phone, "cmd nosuchservice x") == (20, "", "cmd: Can't find service: "
                                                       "nosuchservice\n")
    assert run(phone, "svc wifi disable") == (0, "", "")
    assert world(phone, "global", "wifi_on") == "0"
    run(phone, "svc bluetooth enable; svc data disable")
    assert world(phone, "global", "bluetooth_on") == "1"
    assert get(phone, "global", "mobile_data") == "0"
    assert run(phone, "svc wifi maybe")[0] == 1


def test_adaptive_brightness_moves_the_level_by_itself(phone: VirtualPhone) -> None:
    levels = {get(phone, "system", "screen_brightness") for _ in range(12)}
    assert levels == {"128"}  # manual (the AOSP default): the level stays
    run(phone, "settings put system screen_brightness_mode 1")
    levels = {get(phone, "system", "screen_brightness") for _ in range(12)}
    assert len(levels) >= 3  # the system rewrites it as the light changes
    run(phone, "settings put system screen_brightness_mode 0; settings put system "
               "screen_brightness 40")
    assert {get(phone, "system", "screen_brightness") for _ in range(12)} == {"40"}
