"""What the virtual device shows over its apps, each as the cited AOSP behaviour: screen
power and the lock screen (``virtual.power``), ``pm grant`` and permission prompts
(``virtual.permissions``), first-run screens and ``FLAG_SECURE`` (``virtual.overlays``), a
foldable's displays, Do Not Disturb on Android 15, Settings' dangerous screens
(``virtual.system_screens``)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from phone_gym.virtual import VirtualPhone
from phone_gym.virtual.commands.screen import FOLD_INNER, FOLD_OUTER

NOTIFY = "android.permission.POST_NOTIFICATIONS"
CLOCK = "com.google.android.deskclock"


def out(phone: VirtualPhone, command: str) -> str:
    code, stdout, stderr = phone.shell(command)
    assert code == 0, (command, stderr)
    return stdout.decode()


def dump(phone: VirtualPhone) -> str:
    return out(phone, "uiautomator dump /dev/tty")


def shot(phone: VirtualPhone, command: str = "screencap -p") -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(phone.shell(command)[1])).convert("RGB"))


# --- power ----------------------------------------------------------------------------------
def test_wake_sleep_and_power_keys() -> None:
    phone = VirtualPhone()
    assert "mWakefulness=Awake" in out(phone, "dumpsys power")
    out(phone, "input keyevent KEYCODE_SLEEP")
    assert "mWakefulness=Asleep" in out(phone, "dumpsys power")
    assert shot(phone).max() == 0  # a screen that is off captures black
    out(phone, "monkey -p com.android.settings 1")  # an app may start; the screen stays off
    out(phone, "input tap 540 600")
    out(phone, "input keyevent KEYCODE_HOME")  # not a wake key: dropped
    assert "mWakefulness=Asleep" in out(phone, "dumpsys power")
    assert phone.device.foreground == "Settings"
    out(phone, "input keyevent KEYCODE_WAKEUP")
    assert "Display Power: state=ON" in out(phone, "dumpsys power")
    out(phone, "input keyevent KEYCODE_WAKEUP")  # waking an awake phone changes nothing
    out(phone, "input keyevent KEYCODE_POWER")
    assert not phone.overlays.power.awake
    out(phone, "input keyevent KEYCODE_POWER")
    assert phone.overlays.power.awake


def test_the_timeout_and_stay_on_while_plugged_in() -> None:
    phone = VirtualPhone()
    phone.overlays.power.sleeps = True
    out(phone, "settings put system screen_off_timeout 15000")
    phone.device.wait(10)
    out(phone, "true")
    assert phone.overlays.power.awake
    phone.device.wait(10)
    out(phone, "true")
    assert not phone.overlays.power.awake
    out(phone, "input keyevent KEYCODE_WAKEUP")
    out(phone, "svc power stayon usb")  # PowerCommand: the USB bit; the phone is on USB
    assert out(phone, "settings get global stay_on_while_plugged_in") == "2\n"
    assert "mStayOn=true" in out(phone, "dumpsys power")
    phone.device.wait(3600)
    out(phone, "true")
    assert phone.overlays.power.awake
    out(phone, "svc power stayon ac")  # not plugged into AC: not kept on
    out(phone, "true")
    assert not phone.overlays.power.awake
    out(phone, "svc power stayon true")
    assert out(phone, "settings get global stay_on_while_plugged_in") == "15\n"
    assert phone.shell("svc power stayon maybe")[0] == 1


def test_keyguard_with_and_without_a_credential() -> None:
    phone = VirtualPhone()
    assert "showing=false" in out(phone, "dumpsys window policy")
    phone.overlays.power.set_lock("swipe")
    out(phone, "input keyevent KEYCODE_POWER")
    out(phone, "input keyevent KEYCODE_WAKEUP")
    policy = out(phone, "dumpsys window policy")
    assert "      showing=true" in policy and "      secure=false" in policy
    assert "mCurrentFocus=Window{" in out(phone, "dumpsys window displays")
    assert "NotificationShade" in out(phone, "dumpsys window displays")
    assert 'package="com.android.systemui"' in dump(phone)
    out(phone, "input swipe 540 2000 540 600")  # swipe up: a swipe lock opens
    assert "showing=false" in out(phone, "dumpsys window policy")
    phone.overlays.power.set_lock("pin")
    out(phone, "input keyevent KEYCODE_POWER")
    out(phone, "input keyevent KEYCODE_WAKEUP")
    assert "      secure=true" in out(phone, "dumpsys window policy")
    out(phone, "wm dismiss-keyguard")  # a PIN lock shows its bouncer, and stays
    assert "Enter PIN" in dump(phone)
    assert "showing=true" in out(phone, "dumpsys window policy")
    out(phone, "input keyevent KEYCODE_HOME")  # keys do not reach the apps below
    assert phone.overlays.power.keyguard
    phone.reboot()  # a locked phone boots to its lock screen
    assert phone.overlays.power.awake and phone.overlays.power.keyguard


# --- permissions ----------------------------------------------------------------------------
def test_pm_grant_checks_as_the_permission_manager_does() -> None:
    phone = VirtualPhone(profile="pixel-fresh")
    assert f"{NOTIFY}: granted=false" in out(phone, f"dumpsys package {CLOCK}")
    cases = {
        f"pm grant com.nope {NOTIFY}": "IllegalArgumentException: Unknown package: com.nope",
        f"pm grant {CLOCK} android.permission.NOPE":
            "IllegalArgumentException: Unknown permission: android.permission.NOPE",
        f"pm grant {CLOCK} android.permission.CAMERA":
            f"SecurityException: Package {CLOCK} has not requested permission "
            "android.permission.CAMERA",
        f"pm grant {CLOCK} android.permission.INTERNET":
            "SecurityException: Permission android.permission.INTERNET requested by "
            f"{CLOCK} is not a changeable permission type",
    }
    for command, error in cases.items():
        code, stdout, stderr = phone.shell(command)
        assert code == 255 and stdout == b"" and error in stderr.decode(), command
        assert stderr.decode().startswith("\nException occurred while executing 'grant':")
    assert phone.shell(f"pm grant {CLOCK} {NOTIFY}") == (0, b"", b"")
    assert f"{NOTIFY}: granted=true" in out(phone, f"dumpsys package {CLOCK}")
    out(phone, f"pm revoke {CLOCK} {NOTIFY}")
    assert f"{NOTIFY}: granted=false" in out(phone, f"dumpsys package {CLOCK}")
    # before Android 13 the permission does not exist
    phone.properties["ro.build.version.sdk"] = "32"
    assert "Unknown permission" in phone.shell(f"pm grant {CLOCK} {NOTIFY}")[2].decode()
    # other profiles: the apps were installed with their permissions
    assert f"{NOTIFY}: granted=true" in out(VirtualPhone(), f"dumpsys package {CLOCK}")


def test_a_fresh_app_asks_for_notifications_until_granted_or_denied_twice() -> None:
    phone = VirtualPhone(profile="pixel-fresh")
    out(phone, f"monkey -p {CLOCK} 1")
    xml = dump(phone)
    assert "Allow Clock to send you notifications?" in xml
    assert 'package="com.google.android.permissioncontroller"' in xml
    assert "GrantPermissionsActivity" in out(phone, "dumpsys window displays")
    out(phone, "input tap 540 1420")  # Don't allow
    assert "notifications?" not in dump(phone)
    out(phone, "input keyevent KEYCODE_HOME")
    out(phone, f"monkey -p {CLOCK} 1")
    assert "notifications?" in dump(phone)  # asks again at the next launch
    out(phone, "input keyevent KEYCODE_BACK")  # a second denial
    out(phone, "input keyevent KEYCODE_HOME")
    out(phone, f"monkey -p {CLOCK} 1")
    assert "notifications?" not in dump(phone)  # no longer asks
    contacts = "com.google.android.contacts"
    out(phone, f"monkey -p {contacts} 1")
    out(phone, "input tap 540 1280")  # Allow
    assert f"{NOTIFY}: granted=true" in out(phone, f"dumpsys package {contacts}")
    out(phone, f"pm clear {contacts}")  # its permissions as installed again
    assert f"{NOTIFY}: granted=false" in out(phone, f"dumpsys package {contacts}")


def test_a_first_run_screen_until_it_is_passed() -> None:
    phone = VirtualPhone(profile="pixel-fresh")
    out(phone, "monkey -p net.gsantner.markor 1")
    assert "Welcome to Markor" in dump(phone)
    out(phone, "input tap 540 600")  # not a button: the screen stays
    out(phone, "input keyevent KEYCODE_BACK")  # back leaves the app, the intro to come
    assert phone.device.foreground is None
    out(phone, "monkey -p net.gsantner.markor 1")
    assert "net.gsantner.markor:id/skip" in dump(phone)
    out(phone, "input tap 190 2240")  # SKIP
    assert "Welcome to Markor" not in dump(phone) and "Markor" in phone.overlays.onboarded
    assert "Welcome to Markor" not in dump(VirtualPhone(profile="pixel"))  # no first run


# --- frames and displays ---------------------------------------------------------------------
def test_a_flag_secure_window_captures_black_and_says_so() -> None:
    phone = VirtualPhone()
    phone.overlays.secure_packages.add("com.android.settings")
    out(phone, "monkey -p com.android.settings 1")
    assert shot(phone).max() == 0 and "Network &amp; internet" in dump(phone)
    windows = out(phone, "dumpsys window windows")
    assert "fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED SECURE" \
        in windows
    out(phone, "input keyevent KEYCODE_HOME")
    assert shot(phone).max() > 0 and " SECURE" not in out(phone, "dumpsys window windows")


def test_a_foldable_lists_two_displays_and_captures_the_one_asked() -> None:
    phone = VirtualPhone(profile="foldable")
    display = out(phone, "dumpsys display")
    assert f'uniqueId="local:{FOLD_OUTER}", 1080 x 2092' in display and "state OFF" in display
    assert f"isActive=true, displayId=0, uniqueId='local:{FOLD_INNER}'" in display
    code, _, err = phone.shell("screencap -p")
    assert code == 0 and err.startswith(b"[Warning] Multiple displays were found")
    assert shot(phone).max() == 0  # the first display found: the cover screen, off
    assert shot(phone, f"screencap -p -d {FOLD_INNER}").std() > 5
    assert shot(phone, f"screencap -p -d {FOLD_OUTER}").max() == 0
    assert "Display Devices: size=1" in out(VirtualPhone(), "dumpsys display")


# --- Do Not Disturb --------------------------------------------------------------------------
def test_set_dnd_off_on_android_15_clears_only_the_shells_own_rule() -> None:
    for sdk, after in (("34", "0"), ("35", "1")):
        phone = VirtualPhone()
        phone.properties["ro.build.version.sdk"] = sdk
        phone.device.system.put_setting("global", "zen_mode", "1")  # the owner's DND
        out(phone, "cmd notification set_dnd off")
        assert out(phone, "settings get global zen_mode") == f"{after}\n", sdk
    phone = VirtualPhone()
    phone.properties["ro.build.version.sdk"] = "35"
    out(phone, "cmd notification set_dnd alarms")  # the shell's own rule: it can clear it
    assert out(phone, "settings get global zen_mode") == "3\n"
    out(phone, "cmd notification set_dnd off")
    assert out(phone, "settings get global zen_mode") == "0\n"


# --- Settings' own screens -------------------------------------------------------------------
def test_settings_dangerous_screens_do_what_they_say() -> None:
    phone = VirtualPhone()
    phone.device.system.accounts.new(kind="com.google", name="owner@example.com")
    out(phone, "am start -a android.settings.SYNC_SETTINGS")
    out(phone, "input tap 540 500")  # the account
    out(phone, "input tap 540 760")  # Remove account
    assert "Remove account?" in dump(phone)
    out(phone, "input tap 790 1290")  # the dialog's Remove account
    assert not phone.device.system.accounts.values()
    out(phone, f"am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:{CLOCK}")
    out(phone, "input tap 860 600")  # Force stop: am force-stop, its alarms cancelled
    assert CLOCK in phone.alarms_cancelled
    out(phone, "input tap 530 600")  # Uninstall: PackageInstaller's dialog
    assert "Do you want to uninstall this app?" in dump(phone)
    out(phone, "input tap 840 1290")  # OK: nothing is removed from a PhoneWorld phone
    assert CLOCK in out(phone, "pm list packages")
    code, _, err = phone.shell("am start -a android.intent.action.DELETE -d package:no.such")
    assert code != 0 and b"unable to resolve Intent" in err
    out(phone, "am start -n 'com.android.settings/.Settings$FactoryResetActivity'")
    assert "Settings$FactoryResetActivity" in out(phone, "dumpsys window displays")
    phone.device.system.add_contact("Owner Marker", "555-0199")
    out(phone, "input tap 790 2200")  # Erase all data
    assert "Erase all data?" in dump(phone)
    out(phone, "input tap 790 2200")  # MainClearConfirm: the phone is wiped
    assert phone.device.system.find_contact("Owner Marker") is None
