"""Android's service front ends: ``cmd SERVICE ...`` and ``svc``.

``cmd`` (AOSP ``frameworks/native/cmds/cmd/cmd.cpp``) hands its arguments to a system
service's shell command; a service it cannot find is "cmd: Can't find service: NAME" on
stderr, exit 20. The services here, each following its AOSP shell command, switch the phone
and persist its setting as the service does (through ``SettingsProvider.write``, so a value
that ``settings put`` only stored is replaced):

- ``wifi set-wifi-enabled enabled|disabled`` and ``wifi status`` (``WifiShellCommand``;
  ``WifiServiceImpl.setWifiEnabled`` persists ``wifi_on`` as ``WifiSettingsStore
  .handleWifiToggled`` does: 1 on, 2 on while airplane mode is on, 0 off). Silent on success;
  a bad argument prints "Invalid args for ..." on stdout, exit 255; a command the shell user
  may not run is a ``SecurityException``;
- ``bluetooth_manager enable|disable`` (``BluetoothShellCommand``: prints
  "BluetoothShellCommand: ExecCMD" and "CMD: Success"; ``bluetooth_on`` 1 or 0);
- ``connectivity airplane-mode [enable|disable]`` (``ConnectivityService.ShellCmd``; no
  argument prints "enabled"/"disabled"). Turning airplane mode on stores Wi-Fi that was on as
  ``wifi_on`` 3 (``WIFI_DISABLED_AIRPLANE_ON``) and Bluetooth that was on as
  ``bluetooth_on`` 2 (``BluetoothManagerService.BLUETOOTH_ON_AIRPLANE``): both off; turning it
  off switches those back on (1), as ``WifiSettingsStore.handleAirplaneModeToggled`` and
  ``BluetoothManagerService`` do; Wi-Fi that was off stays off;
- ``uimode night [yes|no|auto]`` (``UiModeManagerService.Shell``: prints "Night mode: X";
  ``ui_night_mode`` 2, 1 or 0);
- ``notification set_dnd on|none|priority|alarms|off|all`` (``NotificationShellCommand``:
  "on" is total silence, ``zen_mode`` 2; "priority" 1, "alarms" 3, "off"/"all" 0). Up to
  Android 14 it sets the phone's manual mode; from Android 15 (API 35, the modes API) the
  shell's ``NotificationManager.setInterruptionFilter`` sets only the calling package's own
  implicit rule (``ZenModeHelper.applyGlobalZenModeAsImplicitZenRule``): "off" clears that
  rule, and a mode the owner turned on stays on (``zen_mode`` is the most restrictive
  mode in force, ``ZenModeHelper.evaluateZenModeLocked``); the other ``notification`` verbs
  are in ``notification``;
- ``statusbar expand-notifications|expand-settings|collapse``; ``package``, ``settings``,
  ``activity`` and ``input`` are the shell commands ``pm``, ``settings``, ``am``, ``input``.

``svc wifi|bluetooth|data enable|disable`` (AOSP ``cmds/svc``; on Android 12 and later a
script over the ``cmd`` services above; ``data`` is ``global.mobile_data``), ``svc power
reboot [REASON]`` (``PowerCommand``: ``IPowerManager.reboot``, allowed to the shell) and
``svc power stayon true|false|usb|ac|wireless`` (``PowerCommand``: ``setStayOnSetting``,
which writes ``global.stay_on_while_plugged_in``: "true" is AC, USB and wireless, and dock
from Android 13; see ``power``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..power import STAYON
from ..sh import IO
from .base import Commands
from .notification import cmd_notification
from .system import System

#: ``cmd`` services that are shell commands too.
CMD_SERVICES = {"package": "pm", "settings": "settings", "activity": "am", "input": "input"}
SVC_USAGE = ("usage: svc wifi|bluetooth|data enable|disable\n"
             "       svc power reboot [reason]\n"
             "       svc power stayon [true|false|usb|ac|wireless]")
#: ``WifiShellCommand.NON_PRIVILEGED_COMMANDS``: the others need root. Only ``WIFI_COMMANDS``
#: are modelled.
WIFI_NON_PRIVILEGED = frozenset({
    "add-suggestion", "add-network", "connect-network", "forget-network", "get-country-code",
    "help", "-h", "is-verbose-logging", "list-scan-results", "list-networks",
    "list-suggestions", "remove-suggestion", "remove-all-suggestions", "reset-connected-score",
    "set-connected-score", "set-scan-always-available", "set-verbose-logging",
    "set-wifi-enabled", "start-scan", "start-softap", "status", "stop-softap"})
WIFI_COMMANDS = ("set-wifi-enabled", "status", "help", "-h")
WIFI_HELP = ("Wi-Fi (wifi) commands:\n  help or -h\n    Print this help text.\n"
             "  set-wifi-enabled enabled|disabled\n    Enables/disables Wifi on this device.\n"
             "  status\n    Current wifi status")
BLUETOOTH_HELP = ("Bluetooth Manager Commands:\n  help or -h\n    Print this help text.\n"
                  "  enable\n    Enable Bluetooth on this device.\n"
                  "  disable\n    Disable Bluetooth on this device.\n"
                  "  wait-for-state:<STATE>\n    Wait until the adapter state is <STATE>. "
                  "<STATE> can be one of STATE_OFF | STATE_ON\n"
                  "    Note: This command can timeout and failed")
CONNECTIVITY_HELP = ("Connectivity service commands:\n  help\n    Print this help text.\n"
                     "  airplane-mode [enable|disable]\n    Turn airplane mode on or off.\n"
                     "  airplane-mode\n    Get airplane mode.")
UIMODE_HELP = ("UiModeManager service (uimode) commands:\n  help\n    Print this help text.\n"
               "  night [yes|no|auto|custom_schedule|custom_bedtime]\n"
               "    Set or read night mode.")
#: ``UiModeManager.MODE_NIGHT_*`` by the shell's word.
NIGHT_MODES = {"auto": "0", "no": "1", "yes": "2"}
NIGHT_ERROR = ("Error: mode must be 'yes', 'no', or 'auto', or 'custom_schedule', or "
               "'custom_bedtime'")
#: ``set_dnd`` words and the ``zen_mode`` of their interruption filter
#: (``NotificationManager.zenModeFromInterruptionFilter``).
DND_MODES = {"none": "2", "on": "2", "priority": "1", "alarms": "3", "all": "0", "off": "0"}
#: The first Android with the modes API (Android 15), and zen modes from least to most
#: restrictive (off, priority only, alarms only, total silence).
MODES_API = 35
ZEN_ORDER = ("0", "1", "3", "2")
#: ``WifiSettingsStore`` persisted states.
WIFI_DISABLED, WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE, WIFI_DISABLED_AIRPLANE_ON = (
    "0", "1", "2", "3")
#: ``BluetoothManagerService`` persisted states.
BLUETOOTH_OFF, BLUETOOTH_ON_BLUETOOTH, BLUETOOTH_ON_AIRPLANE = "0", "1", "2"


def exception(io: IO, command: str, error: str) -> int:
    """An exception out of a service's shell command (``BasicShellCommandHandler.exec``:
    printed on stderr, exit -1)."""
    io.error(f"\nException occurred while executing '{command}':\n{error}\n")
    return 255


def unknown(io: IO, command: str) -> int:
    """``BasicShellCommandHandler.handleDefaultCommands`` for an unknown command."""
    io.print(f"Unknown command: {command}")
    return 255


class Services(Commands):
    """``cmd`` and ``svc`` (see the module doc)."""

    # --- the state the services keep -------------------------------------------------------
    def setting(self, namespace: str, key: str) -> str | None:
        return self.phone.settings_provider.get(namespace, key)

    def write(self, namespace: str, key: str, value: str) -> None:
        self.phone.settings_provider.write(namespace, key, value)

    def airplane(self) -> bool:
        return self.setting("global", "airplane_mode_on") == "1"

    def set_wifi(self, on: bool) -> None:
        """``WifiSettingsStore.handleWifiToggled``."""
        if on:
            self.write("global", "wifi_on", WIFI_ENABLED_AIRPLANE_OVERRIDE if self.airplane()
                       else WIFI_ENABLED)
        else:
            self.write("global", "wifi_on", WIFI_DISABLED)

    def set_bluetooth(self, on: bool) -> None:
        self.write("global", "bluetooth_on", BLUETOOTH_ON_BLUETOOTH if on else BLUETOOTH_OFF)

    def set_airplane_mode(self, on: bool) -> None:
        """``ConnectivityService.setAirplaneMode``, then what Wi-Fi and Bluetooth do on
        ``ACTION_AIRPLANE_MODE_CHANGED``."""
        self.write("global", "airplane_mode_on", "1" if on else "0")
        wifi, bluetooth = self.setting("global", "wifi_on"), self.setting("global", "bluetooth_on")
        if on:
            if wifi == WIFI_ENABLED:
                self.write("global", "wifi_on", WIFI_DISABLED_AIRPLANE_ON)
            if bluetooth == BLUETOOTH_ON_BLUETOOTH:
                self.write("global", "bluetooth_on", BLUETOOTH_ON_AIRPLANE)
        else:
            if wifi in (WIFI_ENABLED_AIRPLANE_OVERRIDE, WIFI_DISABLED_AIRPLANE_ON):
                self.write("global", "wifi_on", WIFI_ENABLED)
            if bluetooth == BLUETOOTH_ON_AIRPLANE:
                self.write("global", "bluetooth_on", BLUETOOTH_ON_BLUETOOTH)

    # --- cmd -------------------------------------------------------------------------------
    def cmd_cmd(self, args: list[str], io: IO) -> int:
        """``cmd SERVICE ...`` (see the module doc)."""
        service, rest = (args[0], args[1:]) if args else ("", [])
        handlers: dict[str, Callable[[list[str], IO], int]] = {
            "wifi": self.wifi, "bluetooth_manager": self.bluetooth_manager,
            "connectivity": self.connectivity, "uimode": self.uimode,
            "notification": self.notification, "statusbar": self.statusbar}
        if service in handlers:
            return handlers[service](rest, io)
        name = CMD_SERVICES.get(service)
        command = self.phone.command(name) if name is not None else None
        if command is None:
            return io.fail(f"cmd: Can't find service: {service}", 20)
        return command(rest, io)

    def wifi(self, args: list[str], io: IO) -> int:
        """``WifiShellCommand.onCommand``."""
        verb = args[0] if args else "help"
        if verb not in WIFI_NON_PRIVILEGED:
            return exception(io, verb, f"java.lang.SecurityException: Uid 2000 does not have "
                                       f"access to {verb} wifi command (or such command "
                                       "doesn't exist)")
        if verb not in WIFI_COMMANDS:
            return io.fail(f"cmd wifi {verb}: not modelled by the virtual phone (it answers "
                           f"{', '.join(WIFI_COMMANDS)})", 255)
        if verb in ("help", "-h"):
            io.print(WIFI_HELP)
            return 0
        if verb == "status":
            on = self.setting("global", "wifi_on") in (WIFI_ENABLED,
                                                        WIFI_ENABLED_AIRPLANE_OVERRIDE)
            io.print(f"Wifi is {'enabled' if on else 'disabled'}")
            return 0
        if len(args) < 2:
            error = 'Argument expected after "set-wifi-enabled"'
        elif args[1] not in ("enabled", "disabled"):
            error = f"Expected 'enabled' or 'disabled' as next arg but got '{args[1]}'"
        else:
            self.set_wifi(args[1] == "enabled")
            return 0
        io.print(f"Invalid args for {verb}: java.lang.IllegalArgumentException: {error}")
        return 255

    def bluetooth_manager(self, args: list[str], io: IO) -> int:
        """``BluetoothShellCommand.onCommand``: ``enable``/``disable``."""
        verb = args[0] if args else None
        if verb in (None, "help", "-h"):
            io.print(BLUETOOTH_HELP)
            return 255
        if verb not in ("enable", "disable"):
            return unknown(io, verb)
        io.print(f"BluetoothShellCommand: Exec{verb}")
        self.set_bluetooth(verb == "enable")
        io.print(f"{verb}: Success")
        return 0

    def connectivity(self, args: list[str], io: IO) -> int:
        """``ConnectivityService.ShellCmd``: ``airplane-mode [enable|disable]``."""
        verb = args[0] if args else None
        if verb in (None, "help", "-h"):
            io.print(CONNECTIVITY_HELP)
            return 255 if verb is None else 0
        if verb != "airplane-mode":
            return unknown(io, verb)
        action = args[1] if len(args) > 1 else None
        if action is None:
            io.print("enabled" if self.airplane() else "disabled")
        elif action in ("enable", "disable"):
            self.set_airplane_mode(action == "enable")
        else:
            io.print(CONNECTIVITY_HELP)
            return 255
        return 0

    def uimode(self, args: list[str], io: IO) -> int:
        """``UiModeManagerService.Shell``: ``night [yes|no|auto]``."""
        verb = args[0] if args else None
        if verb in (None, "help", "-h"):
            io.print(UIMODE_HELP)
            return 255 if verb is None else 0
        if verb != "night":
            return unknown(io, verb)
        if len(args) > 1:
            mode = NIGHT_MODES.get(args[1])
            if mode is None:
                io.error(NIGHT_ERROR)
                return 255
            self.write("secure", "ui_night_mode", mode)
        current = self.setting("secure", "ui_night_mode")
        names = {v: k for k, v in NIGHT_MODES.items()}
        io.print(f"Night mode: {names.get(current or '', 'unknown')}")
        return 0

    def notification(self, args: list[str], io: IO) -> int:
        """``NotificationShellCommand``: ``set_dnd`` here, the rest in ``notification``."""
        if not args or args[0].replace("-", "_") != "set_dnd":
            return cmd_notification(self.phone, args, io)
        if len(args) < 2:
            io.print('Error occurred. Check logcat for details. Argument expected after '
                     f'"{args[0]}"')
            return 0
        zen = DND_MODES.get(args[1])
        if zen is None:  # INTERRUPTION_FILTER_UNKNOWN: setInterruptionFilter refuses it
            io.print("Error occurred. Check logcat for details. Invalid filter: 0")
            return 0
        if self.phone.permissions.sdk() < MODES_API:
            self.write("global", "zen_mode", zen)
            return 0
        provider = self.phone.settings_provider  # Android 15: the shell's own rule only
        if provider.shell_zen is None:
            provider.owner_zen = self.setting("global", "zen_mode") or "0"
        provider.shell_zen = None if zen == "0" else zen
        modes = [provider.owner_zen, provider.shell_zen or "0"]
        self.write("global", "zen_mode", max(modes, key=ZEN_ORDER.index))
        return 0

    def statusbar(self, args: list[str], io: IO) -> int:
        if args[:1] in (["expand-notifications"], ["expand-settings"]):
            self.device.set_shade(True)
        elif args[:1] == ["collapse"]:
            self.device.set_shade(False)
        else:
            return io.fail("usage: cmd statusbar expand-notifications|expand-settings|collapse")
        return 0

    # --- svc -------------------------------------------------------------------------------
    def cmd_svc(self, args: list[str], io: IO) -> int:
        """``svc wifi|bluetooth|data enable|disable``, ``svc power reboot [REASON]``."""
        if args[:2] == ["power", "reboot"] and len(args) <= 3:
            return System(self.phone).restart(args[2:], io, "svc power reboot")
        if args[:2] == ["power", "stayon"] and len(args) == 3:
            words = {**STAYON, "true": 15 if self.phone.permissions.sdk() >= 33 else 7}
            if args[2] not in words:
                return io.fail(SVC_USAGE, 1)
            self.write("global", "stay_on_while_plugged_in", str(words[args[2]]))
            return 0
        switches: dict[str, Callable[[bool], None]] = {
            "wifi": self.set_wifi, "bluetooth": self.set_bluetooth,
            "data": lambda on: self.write("global", "mobile_data", "1" if on else "0")}
        if len(args) != 2 or args[0] not in switches or args[1] not in ("enable", "disable"):
            return io.fail(SVC_USAGE, 1)
        switches[args[0]](args[1] == "enable")
        return 0
