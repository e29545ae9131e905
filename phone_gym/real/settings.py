"""How each setting is switched on a phone over adb, and confirmed.

``settings put`` only writes SettingsProvider's table. For most keys that is the setting
(the system observes the key), but for some a system service owns the state and a direct
write does nothing on a real phone:

- ``global.wifi_on``, ``global.bluetooth_on``, ``secure.ui_night_mode``: stored, not acted
  on (AOSP ``WifiSettingsStore``, ``BluetoothManagerService`` and ``UiModeManagerService``
  read them at boot); ``global.airplane_mode_on`` alone does not switch the radios;
- ``global.zen_mode``: reverted by ``ZenModeHelper``'s settings observer.

``put_setting`` switches those with the command each service answers (``COMMANDS``: its
shell command, with ``svc`` as the fallback on Android versions without it), then reads the
key back with ``settings get`` until it reads as asked (``reads_as``: ``wifi_on`` 1 or 2 is
on, 0 or 3 off; ``bluetooth_on`` 2 is off), for up to ``CONFIRM_SECONDS``; otherwise it
raises ``DeviceError`` naming the key, the command and what the key reads. Other keys are
written with ``settings put`` and confirmed the same way.

Do Not Disturb on Android 15 and later (API 35, the modes API): ``cmd notification set_dnd
off`` clears only the rule the shell itself set (``NotificationManager.setInterruptionFilter``
from a non-system caller sets that caller's implicit rule), so a mode the owner or a
schedule turned on stays on. When ``zen_mode`` still reads on after it there, the setup
stops at once with ``SetupRefused``, which says so (``RealPhoneEnv`` then draws another
template); waiting would not help.

Brightness: ``system.screen_brightness`` is set with adaptive brightness off
(``screen_brightness_mode`` 0: with it on, the system rewrites the level by itself); the mode
the phone had is recorded in ``AdbState.restores`` and put back by ``restore_settings``
(``RealPhoneEnv`` calls it at the next reset and at ``close``).
"""

from __future__ import annotations

import shlex
import time
from typing import TYPE_CHECKING

from ..verifiers.state import DeviceError
from .base import SetupRefused

if TYPE_CHECKING:
    from .state import AdbState

#: How long a switched setting has to read back as asked (seconds), and how often it is read.
CONFIRM_SECONDS = 5.0
POLL_SECONDS = 0.25
BRIGHTNESS = ("system", "screen_brightness")
BRIGHTNESS_MODE = ("system", "screen_brightness_mode")
MANUAL = "0"  # Settings.System.SCREEN_BRIGHTNESS_MODE_MANUAL

#: The commands that switch a service-owned setting, by key and value, in the order tried.
COMMANDS: dict[tuple[str, str], dict[str, tuple[tuple[str, ...], ...]]] = {
    # WifiShellCommand (Android 11+), then cmds/svc's WifiCommand
    ("global", "wifi_on"): {
        "1": (("cmd", "wifi", "set-wifi-enabled", "enabled"), ("svc", "wifi", "enable")),
        "0": (("cmd", "wifi", "set-wifi-enabled", "disabled"), ("svc", "wifi", "disable")),
    },
    # BluetoothShellCommand (Android 13+), then cmds/svc's BluetoothCommand
    ("global", "bluetooth_on"): {
        "1": (("cmd", "bluetooth_manager", "enable"), ("svc", "bluetooth", "enable")),
        "0": (("cmd", "bluetooth_manager", "disable"), ("svc", "bluetooth", "disable")),
    },
    # ConnectivityService.ShellCmd "airplane-mode"
    ("global", "airplane_mode_on"): {
        "1": (("cmd", "connectivity", "airplane-mode", "enable"),),
        "0": (("cmd", "connectivity", "airplane-mode", "disable"),),
    },
    # UiModeManagerService.Shell "night" (UiModeManager.MODE_NIGHT_AUTO/NO/YES)
    ("secure", "ui_night_mode"): {
        "0": (("cmd", "uimode", "night", "auto"),),
        "1": (("cmd", "uimode", "night", "no"),),
        "2": (("cmd", "uimode", "night", "yes"),),
    },
    # NotificationShellCommand "set_dnd" (Settings.Global.ZEN_MODE_*; "on" is total silence)
    ("global", "zen_mode"): {
        "0": (("cmd", "notification", "set_dnd", "off"),),
        "1": (("cmd", "notification", "set_dnd", "priority"),),
        "2": (("cmd", "notification", "set_dnd", "none"),),
        "3": (("cmd", "notification", "set_dnd", "alarms"),),
    },
}
#: Stored values that mean the same state as another (AOSP ``WifiSettingsStore``: 2 is on in
#: airplane mode, 3 off because of airplane mode; ``BluetoothManagerService``: 2 is off
#: because of airplane mode).
SAME_STATE: dict[tuple[str, str], dict[str, frozenset[str]]] = {
    ("global", "wifi_on"): {"1": frozenset({"1", "2"}), "0": frozenset({"0", "3"}),
                            "2": frozenset({"1", "2"}), "3": frozenset({"0", "3"})},
    ("global", "bluetooth_on"): {"0": frozenset({"0", "2"}), "2": frozenset({"0", "2"})},
}


def reads_as(namespace: str, key: str, asked: str, value: str | None) -> bool:
    """Whether the stored ``value`` is the state ``asked`` for (``SAME_STATE``)."""
    return value == asked or value in SAME_STATE.get((namespace, key), {}).get(asked, ())


def commands_for(namespace: str, key: str, value: str) -> tuple[tuple[str, ...], ...] | None:
    """The commands that switch ``namespace``/``key`` to ``value``, in the order to try them
    (None: ``settings put`` is the setting); ``ValueError`` for a value no command sets."""
    by_value = COMMANDS.get((namespace, key))
    if by_value is None:
        return None
    wanted = next((v for v in by_value if reads_as(namespace, key, value, v)), None)
    if wanted is None:
        raise ValueError(f"{namespace}.{key}={value!r}; accepted: "
                         f"{', '.join(map(repr, by_value))}")
    return by_value[wanted]


def put_setting(state: AdbState, namespace: str, key: str, value: str, *,
                timeout: float = CONFIRM_SECONDS) -> None:
    """Switch ``namespace``/``key`` to ``value`` on the phone and wait until it reads so (see
    the module doc); ``DeviceError`` when it does not within ``timeout`` seconds."""
    if (namespace, key) == BRIGHTNESS:
        mode = state.get_setting(*BRIGHTNESS_MODE)
        if mode not in (None, MANUAL):
            state.restores.setdefault(BRIGHTNESS_MODE, mode)
            write(state, *BRIGHTNESS_MODE, MANUAL, timeout=timeout)
    write(state, namespace, key, value, timeout=timeout)


def write(state: AdbState, namespace: str, key: str, value: str, *,
          timeout: float = CONFIRM_SECONDS) -> None:
    """Run the setting's commands (the first that the phone accepts), then ``confirm``."""
    commands = commands_for(namespace, key, value)
    if commands is None:
        argv: tuple[str, ...] = ("settings", "put", namespace, key, value)
        output = state.run(*argv)
        if output.strip():
            raise state.unexpected(argv, output)
        confirm(state, namespace, key, value, argv, timeout)
        return
    refused: list[str] = []
    for argv in commands:
        try:
            state.run_checked(*argv)
        except DeviceError as exc:
            refused.append(str(exc))
            continue
        confirm(state, namespace, key, value, argv, timeout)
        return
    raise DeviceError(f"{state.backend.serial} refused every command that switches "
                      f"{namespace}.{key} to {value!r}: " + "; ".join(refused))


def confirm(state: AdbState, namespace: str, key: str, value: str, argv: tuple[str, ...],
            timeout: float) -> None:
    """Read ``namespace``/``key`` until it reads as ``value`` (``reads_as``), for up to
    ``timeout`` seconds; ``DeviceError`` if it never does."""
    deadline = time.monotonic() + timeout
    refuse_at: float | None = None  # Android 15's Do Not Disturb: see the module doc
    while True:
        got = state.get_setting(namespace, key)
        if reads_as(namespace, key, value, got):
            return
        if refuse_at is None and (namespace, key) == ZEN and value == "0":
            refuse_at = time.monotonic() + DND_GRACE if modes_api(state) else float("inf")
        if refuse_at is not None and time.monotonic() >= refuse_at:
            raise SetupRefused(
                f"Do Not Disturb on {state.backend.serial} still reads zen_mode={got} after "
                "`cmd notification set_dnd off`: from Android 15 the shell turns off only the "
                "rule it set itself, not a mode the phone's owner or a schedule turned on; "
                "turn Do Not Disturb off on the phone (Settings > Modes)")
        if time.monotonic() >= deadline:
            break
        time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))
    command = " ".join(shlex.quote(a) for a in argv)
    raise DeviceError(f"{namespace}.{key} on {state.backend.serial} still reads {got!r}, not "
                      f"{value!r}, {timeout:g} s after `{command}`: the phone did not switch "
                      "it (is the setting locked by a policy, or the radio missing?)")


ZEN = ("global", "zen_mode")
#: How long Do Not Disturb may take to read off on Android 15 before the setup stops.
DND_GRACE = 1.0
#: The first Android whose ``set_dnd`` only sets the shell's own rule (Android 15).
MODES_API = 35


def modes_api(state: AdbState) -> bool:
    """Whether the phone runs Android 15 or later (``getprop ro.build.version.sdk``)."""
    sdk = state.run("getprop", "ro.build.version.sdk").strip()
    return sdk.isdigit() and int(sdk) >= MODES_API


def restore_settings(state: AdbState) -> None:
    """Put back what ``put_setting`` changed on the side (``state.restores``), then forget
    it."""
    while state.restores:
        (namespace, key), value = next(iter(state.restores.items()))
        write(state, namespace, key, value)
        del state.restores[(namespace, key)]
