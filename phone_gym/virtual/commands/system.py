"""The system from the shell: properties, settings, the clock and who the shell runs as.

``getprop``/``setprop`` (``ro.`` properties are read-only), ``settings get|put|delete|list``
and ``svc wifi|bluetooth`` on the device's settings, ``cmd SERVICE`` (Android's service
front end: package, settings, activity, input, statusbar, notification), ``sleep``
(``VirtualPhone.pause``: over adb it really sleeps; in process phone time passes at once),
``date``, ``id``, ``whoami``, ``uname``, and ``reboot``/``svc power reboot``
(``VirtualPhone.reboot``).

Settings read as on a phone whose SettingsProvider filled its tables at first boot: the
world's settings, over ``PROVIDER_DEFAULTS`` for keys the world does not model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...world.system import SystemState
from ..fs import epoch
from ..sh import IO
from .base import Commands, strip_user
from .notification import cmd_notification
from .screen import DENSITY

NAMESPACES = ("global", "system", "secure")
SETTINGS_USAGE = ("usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE "
                  "[KEY [VALUE]]\n  NAMESPACE is one of {system, secure, global}.")
#: ``cmd`` services that are shell commands too.
CMD_SERVICES = {"package": "pm", "settings": "settings", "activity": "am", "input": "input"}
#: ``reboot`` reasons that name another boot mode: the targets ``adb help`` lists for ``adb
#: reboot``, and recovery's ``fastboot``/``rescue``; the virtual phone only restarts Android.
BOOT_MODES = frozenset({"bootloader", "fastboot", "recovery", "rescue", "sideload",
                        "sideload-auto-reboot"})
SVC_USAGE = ("usage: svc wifi|bluetooth enable|disable\n"
             "       svc power reboot [reason]")
#: Settings AOSP's SettingsProvider writes at first boot (``DatabaseHelper.loadSystemSettings``
#: from ``packages/SettingsProvider/res/values/defaults.xml``) that the world does not keep:
#: ``screen_brightness_mode`` from ``def_screen_brightness_automatic_mode`` (false: "0",
#: manual; a device overlay may turn it on). The world's own values win; a key deleted
#: without ever being written still reads its default here.
PROVIDER_DEFAULTS: dict[str, dict[str, str]] = {"system": {"screen_brightness_mode": "0"}}


def settings_table(system: SystemState, namespace: str) -> dict[str, str]:
    """One namespace's settings as the phone's SettingsProvider holds them."""
    return {**PROVIDER_DEFAULTS.get(namespace, {}), **system.settings.namespace(namespace)}


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
        system = self.device.system
        table = settings_table(system, namespace)
        if verb == "list":
            for key, value in sorted(table.items()):
                io.print(f"{key}={value}")
        elif verb == "get" and rest:
            setting = table.get(rest[0])
            io.print("null" if setting is None else setting)
        elif verb == "put" and len(rest) >= 2:
            system.put_setting(namespace, rest[0], rest[1])
        elif verb == "delete" and rest:
            io.print(f"Deleted {int(system.settings.delete(namespace, rest[0]))} rows")
        else:
            return io.fail(SETTINGS_USAGE, 255)
        return 0

    def cmd_svc(self, args: list[str], io: IO) -> int:
        """``svc wifi|bluetooth enable|disable`` and ``svc power reboot [REASON]`` (AOSP
        ``cmds/svc``'s ``PowerCommand``: ``IPowerManager.reboot``, allowed to the shell)."""
        if args[:2] == ["power", "reboot"] and len(args) <= 3:
            return self.restart(args[2:], io, "svc power reboot")
        keys = {"wifi": "wifi_on", "bluetooth": "bluetooth_on"}
        if len(args) != 2 or args[0] not in keys or args[1] not in ("enable", "disable"):
            return io.fail(SVC_USAGE, 1)
        self.device.system.put_setting("global", keys[args[0]], "1" if args[1] == "enable"
                                       else "0")
        return 0

    def cmd_cmd(self, args: list[str], io: IO) -> int:
        """``cmd SERVICE ...``: package, settings, activity, input, statusbar and
        notification (``notification.py``)."""
        if args[:1] == ["statusbar"]:
            return self._statusbar(args[1:], io)
        if args[:1] == ["notification"]:
            return cmd_notification(self.phone, args[1:], io)
        name = CMD_SERVICES.get(args[0]) if args else None
        command = self.phone.command(name) if name is not None else None
        if command is None:
            return io.fail(f"cmd: Can't find service: {args[0] if args else ''}", 20)
        return command(args[1:], io)

    def _statusbar(self, args: list[str], io: IO) -> int:
        if args[:1] in (["expand-notifications"], ["expand-settings"]):
            self.device.set_shade(True)
        elif args[:1] == ["collapse"]:
            self.device.set_shade(False)
        else:
            return io.fail("usage: cmd statusbar expand-notifications|expand-settings|collapse")
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
