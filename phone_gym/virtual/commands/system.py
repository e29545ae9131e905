"""The system from the shell: properties, settings, the clock and who the shell runs as.

``getprop``/``setprop`` (``ro.`` properties are read-only), ``settings get|put|delete|list``
on the device's settings (``cmd`` and ``svc`` are in ``services``), ``sleep``
(``VirtualPhone.pause``: over adb it really sleeps; in process phone time passes at once),
``date``, ``id``, ``whoami``, ``uname``, and ``reboot`` (``VirtualPhone.reboot``).

Settings read as on a phone whose SettingsProvider filled its tables at first boot: the
world's settings, over ``PROVIDER_DEFAULTS`` for keys the world does not model. The system
services that own a setting behave as on Android (``SettingsProvider``):

- ``settings put`` of ``wifi_on``, ``bluetooth_on`` or ``ui_night_mode`` is only stored:
  ``settings get`` reads it back, but the radio or the theme does not change (AOSP
  ``WifiSettingsStore``, ``BluetoothManagerService`` and ``UiModeManagerService`` read
  these keys at boot only); the next switch by the service (``cmd wifi``, the Settings
  app, the quick settings) writes the key again, and a reboot applies the stored value;
- ``settings put global zen_mode`` is reverted at once: ``ZenModeHelper``'s settings observer
  writes its own mode back ("Fixing zen mode setting"); ``cmd notification set_dnd`` switches
  Do Not Disturb;
- with adaptive brightness on (``system.screen_brightness_mode`` 1) the system moves
  ``screen_brightness`` by itself, as ``DisplayPowerController.updatePowerState`` writes the
  automatic level back to the setting ("tell the rest of the system about the new
  brightness"): here deterministically, to the next of ``AUTO_LEVELS`` every ``AUTO_EVERY``
  shell commands (``SettingsProvider.tick``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...world.system import SystemState
from ..fs import epoch
from ..sh import IO
from .base import Commands, strip_user
from .screen import DENSITY

if TYPE_CHECKING:
    from ..phone import VirtualPhone

NAMESPACES = ("global", "system", "secure")
SETTINGS_USAGE = ("usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE "
                  "[KEY [VALUE]]\n  NAMESPACE is one of {system, secure, global}.")
#: ``reboot`` reasons that name another boot mode: the targets ``adb help`` lists for ``adb
#: reboot``, and recovery's ``fastboot``/``rescue``; the virtual phone only restarts Android.
BOOT_MODES = frozenset({"bootloader", "fastboot", "recovery", "rescue", "sideload",
                        "sideload-auto-reboot"})
#: Settings AOSP's SettingsProvider writes at first boot (``DatabaseHelper.loadSystemSettings``
#: from ``packages/SettingsProvider/res/values/defaults.xml``) that the world does not keep:
#: ``screen_brightness_mode`` from ``def_screen_brightness_automatic_mode`` (false: "0",
#: manual; a device overlay may turn it on). The world's own values win; a key deleted
#: without ever being written still reads its default here.
PROVIDER_DEFAULTS: dict[str, dict[str, str]] = {"system": {"screen_brightness_mode": "0"}}


#: Settings a system service owns and reads at boot only: a ``settings put`` stores them and
#: switches nothing (see the module doc), with the AOSP class that owns each.
SERVICE_OWNED: dict[tuple[str, str], str] = {
    ("global", "wifi_on"): "WifiSettingsStore",
    ("global", "bluetooth_on"): "BluetoothManagerService",
    ("secure", "ui_night_mode"): "UiModeManagerService",
}
#: Settings whose direct writes the owning service reverts (``ZenModeHelper``).
REVERTED: frozenset[tuple[str, str]] = frozenset({("global", "zen_mode")})
#: Adaptive brightness: every ``AUTO_EVERY`` shell commands, ``screen_brightness`` moves to
#: the next of these levels (as the ambient light changes).
AUTO_EVERY = 3
AUTO_LEVELS = (96, 150, 64, 180, 120)


def settings_table(system: SystemState, namespace: str) -> dict[str, str]:
    """One namespace's settings as the phone's SettingsProvider holds them."""
    return {**PROVIDER_DEFAULTS.get(namespace, {}), **system.settings.namespace(namespace)}


class SettingsProvider:
    """The phone's settings as ``settings`` reads and writes them, with the services that own
    some keys (see the module doc): values stored by ``settings put`` that no service acted
    on (``stored``: the value, and the world's value under it), and adaptive brightness."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.stored: dict[tuple[str, str], tuple[str, str | None]] = {}
        self.commands = 0
        #: Android 15's Do Not Disturb (``services``): the shell's own rule (None: none)
        #: and the mode in force without it.
        self.shell_zen: str | None = None
        self.owner_zen = "0"

    @property
    def system(self) -> SystemState:
        return self.phone.device.system

    def table(self, namespace: str) -> dict[str, str]:
        """One namespace as ``settings list`` shows it: stored values over the world's."""
        table = settings_table(self.system, namespace)
        for (ns, key), (value, under) in list(self.stored.items()):
            if ns != namespace:
                continue
            if self.system.get_setting(ns, key) != under:  # the service switched since
                del self.stored[(ns, key)]
            else:
                table[key] = value
        return table

    def get(self, namespace: str, key: str) -> str | None:
        return self.table(namespace).get(key)

    def put(self, namespace: str, key: str, value: str) -> None:
        """``settings put``: stored only for a service-owned key, reverted for ``zen_mode``."""
        if (namespace, key) in REVERTED:
            return
        if (namespace, key) in SERVICE_OWNED:
            self.stored[(namespace, key)] = (value, self.system.get_setting(namespace, key))
            return
        self.system.put_setting(namespace, key, value)

    def delete(self, namespace: str, key: str) -> bool:
        stored = self.stored.pop((namespace, key), None) is not None
        return self.system.settings.delete(namespace, key) or stored

    def write(self, namespace: str, key: str, value: str) -> None:
        """A service persists its state: the world's setting, over anything stored."""
        self.stored.pop((namespace, key), None)
        self.system.put_setting(namespace, key, value)

    def boot(self) -> None:
        """A reboot: the services read their keys, so stored values take effect."""
        for (namespace, key), (value, _) in list(self.stored.items()):
            self.write(namespace, key, value)

    def clear(self) -> None:
        self.stored.clear()
        self.commands = 0
        self.shell_zen, self.owner_zen = None, "0"

    def tick(self) -> None:
        """One shell command passes: with adaptive brightness on, every ``AUTO_EVERY``-th
        moves ``screen_brightness`` to the next of ``AUTO_LEVELS``."""
        if settings_table(self.system, "system").get("screen_brightness_mode") != "1":
            return
        self.commands += 1
        if self.commands % AUTO_EVERY == 0:
            level = AUTO_LEVELS[self.commands // AUTO_EVERY % len(AUTO_LEVELS)]
            self.system.put_setting("system", "screen_brightness", str(level))


def default_properties(serial: str) -> dict[str, str]:
    """``getprop`` values of a PhoneWorld phone."""
    return {
        "ro.product.model": "PhoneWorld", "ro.product.manufacturer": "phone-gym",
        "ro.product.brand": "phone-gym", "ro.product.name": "phoneworld",
        "ro.product.device": "phoneworld", "ro.build.product": "phoneworld",
        "ro.build.version.release": "14", "ro.build.version.sdk": "34",
        "ro.build.id": "UP1A.231005.007", "ro.build.type": "user",
        "ro.build.fingerprint": "phone-gym/phoneworld/phoneworld:14/UP1A.231005.007/1:user/"
                                "release-keys",
        "ro.product.cpu.abi": "x86_64", "ro.serialno": serial, "ro.boot.serialno": serial,
        "ro.sf.lcd_density": str(DENSITY), "ro.debuggable": "0", "ro.secure": "1",
        "persist.sys.timezone": "UTC", "sys.boot_completed": "1", "init.svc.adbd": "running",
    }


def build_prop(properties: Mapping[str, str]) -> str:
    """``/system/build.prop``: the read-only properties."""
    return "".join(f"{k}={v}\n" for k, v in sorted(properties.items()) if k.startswith("ro."))


class System(Commands):
    """Properties, settings, ``cmd``, the clock and the shell user."""

    # --- properties and settings -------------------------------------------------------
    def cmd_getprop(self, args: list[str], io: IO) -> int:
        if not args:
            for key, value in sorted(self.phone.properties.items()):
                io.print(f"[{key}]: [{value}]")
        else:
            io.print(self.phone.properties.get(args[0], args[1] if len(args) > 1 else ""))
        return 0

    def cmd_setprop(self, args: list[str], io: IO) -> int:
        if len(args) != 2:
            return io.fail("setprop: need 2 arguments")
        if args[0].startswith("ro."):
            return io.fail(f"Failed to set property '{args[0]}' to '{args[1]}'.")
        self.phone.properties[args[0]] = args[1]
        return 0

    def cmd_settings(self, args: list[str], io: IO) -> int:
        args = strip_user(args)
        verb = args[0] if args else ""
        if verb not in ("get", "put", "delete", "list") or len(args) < 2:
            return io.fail(SETTINGS_USAGE, 255)
        namespace, rest = args[1], args[2:]
        if namespace not in NAMESPACES:
            return io.fail(f"Invalid namespace '{namespace}'\n{SETTINGS_USAGE}", 255)
        provider = self.phone.settings_provider
        table = provider.table(namespace)
        if verb == "list":
            for key, value in sorted(table.items()):
                io.print(f"{key}={value}")
        elif verb == "get" and rest:
            setting = table.get(rest[0])
            io.print("null" if setting is None else setting)
        elif verb == "put" and len(rest) >= 2:
            provider.put(namespace, rest[0], rest[1])
        elif verb == "delete" and rest:
            io.print(f"Deleted {int(provider.delete(namespace, rest[0]))} rows")
        else:
            return io.fail(SETTINGS_USAGE, 255)
        return 0

    # --- the clock and the shell user --------------------------------------------------
    def cmd_sleep(self, args: list[str], io: IO) -> int:
        if not args:
            return io.fail("sleep: Needs 1 argument")
        m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", args[0])
        if m is None:
            return io.fail(f"sleep: bad number '{args[0]}'")
        seconds = float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
        self.phone.pause(seconds)
        return 0

    def cmd_date(self, args: list[str], io: IO) -> int:
        now = self.device.system.now
        formats = [a for a in args if a.startswith("+")]
        if any(a in ("-s", "--set") for a in args):
            return io.fail("date: cannot set date: Operation not permitted")
        fmt = formats[0][1:] if formats else "%a %b %d %H:%M:%S UTC %Y"
        io.print(now.strftime(fmt.replace("%s", str(epoch(now))).replace("%Z", "UTC")))
        return 0

    def cmd_id(self, args: list[str], io: IO) -> int:
        io.print("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),"
                 "1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),"
                 "3003(inet),3006(net_bw_stats) context=u:r:shell:s0")
        return 0

    def cmd_whoami(self, args: list[str], io: IO) -> int:
        io.print("shell")
        return 0

    def cmd_uname(self, args: list[str], io: IO) -> int:
        io.print("Linux localhost 6.1.23-android14 #1 SMP PREEMPT x86_64 Toybox"
                 if "-a" in args else "Linux")
        return 0

    def cmd_reboot(self, args: list[str], io: IO) -> int:
        """toybox ``reboot [-fn] [REASON]``: the shell user may set ``sys.powerctl``, so
        ``adb shell reboot`` restarts the phone (``-p``, power off, is refused here)."""
        if any(a.startswith("-") and "p" in a for a in args):
            return io.fail("reboot: power off is not supported by the virtual phone")
        return self.restart([a for a in args if not a.startswith("-")], io, "reboot")

    def restart(self, reason: list[str], io: IO, name: str) -> int:
        """Reboot the phone (``VirtualPhone.reboot``); a reason naming another boot mode
        fails, as the virtual phone only restarts into Android."""
        if reason and reason[0] in BOOT_MODES:
            return io.fail(f"{name}: the virtual phone cannot reboot into {reason[0]} (a "
                           "plain reboot restarts it)")
        self.phone.reboot()
        return 0
