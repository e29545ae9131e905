"""The network interfaces from the shell: toybox ``ifconfig`` and ``ip addr``/``ip route``.

The phone has a loopback and a Wi-Fi interface, ``wlan0``, on the Android emulator's virtual
network (10.0.2.0/24, the emulator's gateway 10.0.2.2; developer.android.com/studio/run/
emulator-networking), its Wi-Fi address ``WLAN_IP``. ``wlan0`` has that address, and is up,
while Wi-Fi is on (``settings`` ``global wifi_on``, what ``cmd wifi``/``svc wifi`` and
airplane mode change: ``commands.services``); with Wi-Fi off it is down and has none.
adbutils' ``wlan_ip()`` reads ``ifconfig wlan0`` (``inet addr:``), then ``ip addr show dev
wlan0``. Counters are zero: the phone sends no packets.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sh import IO
from .base import Commands
from .services import WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE

WLAN_IP = "10.0.2.16"
WLAN_MAC = "02:15:b2:00:00:00"


@dataclass(frozen=True)
class Interface:
    """One interface: its index, name, whether it is up, its IPv4 address and prefix."""

    index: int
    name: str
    up: bool
    address: str | None
    prefix: int
    mac: str | None = None

    @property
    def mask(self) -> str:
        bits = (0xFFFFFFFF << (32 - self.prefix)) & 0xFFFFFFFF
        return ".".join(str(bits >> s & 0xFF) for s in (24, 16, 8, 0))

    @property
    def broadcast(self) -> str:
        assert self.address is not None
        parts = [int(p) for p in self.address.split(".")]
        host = (1 << (32 - self.prefix)) - 1
        value = sum(p << (24 - 8 * k) for k, p in enumerate(parts)) | host
        return ".".join(str(value >> s & 0xFF) for s in (24, 16, 8, 0))


class Network(Commands):
    """``ifconfig`` and ``ip``."""

    def interfaces(self) -> list[Interface]:
        wifi = self.phone.settings_provider.get("global", "wifi_on") in (
            WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE)
        return [Interface(1, "lo", True, "127.0.0.1", 8),
                Interface(3, "wlan0", wifi, WLAN_IP if wifi else None, 24, WLAN_MAC)]

    def cmd_ifconfig(self, args: list[str], io: IO) -> int:
        """toybox ``ifconfig [-a] [INTERFACE]``: the interfaces that are up (``-a``: all);
        an interface that does not exist fails as toybox's ``SIOCGIFFLAGS`` ioctl does."""
        names = [a for a in args if not a.startswith("-")]
        if len(names) > 1:
            return io.fail("ifconfig: setting interfaces is not permitted for the shell user "
                           "(Operation not permitted)")
        found = self.interfaces()
        if names:
            found = [i for i in found if i.name == names[0]]
            if not found:
                return io.fail("ifconfig: ioctl 8913: No such device")
        elif "-a" not in args:
            found = [i for i in found if i.up]
        io.print("\n".join(ifconfig_block(i) for i in found))
        return 0

    def cmd_ip(self, args: list[str], io: IO) -> int:
        """iproute2 ``ip [-4|-6] addr|a [show|list] [dev] [IF]`` and ``ip route``."""
        args = [a for a in args if a not in ("-4", "-6", "-o")]
        obj, rest = (args[0], args[1:]) if args else ("", [])
        if obj in ("addr", "address", "a", "link", "l"):
            rest = [a for a in rest if a not in ("show", "list", "dev")]
            found = self.interfaces()
            if rest:
                found = [i for i in found if i.name == rest[0]]
                if not found:
                    return io.fail(f'Device "{rest[0]}" does not exist.')
            link = obj in ("link", "l")
            io.print("".join(ip_block(i, link) for i in found), end="")
            return 0
        if obj in ("route", "r", "ro"):
            wlan = self.interfaces()[1]
            if wlan.address is not None:
                io.print(f"10.0.2.0/24 dev wlan0 proto kernel scope link src {wlan.address}")
            return 0
        if not obj:
            return io.fail("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }", 255)
        return io.fail(f'Object "{obj}" is unknown, try "ip help".', 1)


def ifconfig_block(i: Interface) -> str:
    """toybox ``display_ifconfig``'s block for one interface."""
    if i.name == "lo":
        head = f"{i.name:<10}Link encap:Local Loopback "
    else:
        head = f"{i.name:<10}Link encap:Ethernet  HWaddr {i.mac}  Driver mac80211_hwsim"
    lines = [head]
    pad = " " * 10
    if i.address is not None:
        bcast = "" if i.name == "lo" else f"  Bcast:{i.broadcast}"
        lines.append(f"{pad}inet addr:{i.address}{bcast}  Mask:{i.mask} ")
    flags = ("UP LOOPBACK RUNNING" if i.name == "lo" else
             "UP BROADCAST RUNNING MULTICAST" if i.up else "BROADCAST MULTICAST")
    mtu = 65536 if i.name == "lo" else 1500
    lines += [f"{pad}{flags}  MTU:{mtu}  Metric:1",
              f"{pad}RX packets:0 errors:0 dropped:0 overruns:0 frame:0 ",
              f"{pad}TX packets:0 errors:0 dropped:0 overruns:0 carrier:0 ",
              f"{pad}collisions:0 txqueuelen:1000 ",
              f"{pad}RX bytes:0 TX bytes:0 ", ""]
    return "\n".join(lines)


def ip_block(i: Interface, link_only: bool) -> str:
    """``ip addr``'s lines for one interface (``ip link``: the first two)."""
    if i.name == "lo":
        flags, state, kind = "LOOPBACK,UP,LOWER_UP", "UNKNOWN", "loopback"
        mac, brd, mtu = "00:00:00:00:00:00", "00:00:00:00:00:00", 65536
    else:
        flags = "BROADCAST,MULTICAST,UP,LOWER_UP" if i.up else "BROADCAST,MULTICAST"
        state, kind, brd, mtu = ("UP" if i.up else "DOWN"), "ether", "ff:ff:ff:ff:ff:ff", 1500
        mac = i.mac or "00:00:00:00:00:00"
    lines = [f"{i.index}: {i.name}: <{flags}> mtu {mtu} qdisc mq state {state} group default "
             "qlen 1000", f"    link/{kind} {mac} brd {brd}"]
    if not link_only and i.address is not None:
        scope = "host" if i.name == "lo" else "global"
        brd_part = "" if i.name == "lo" else f" brd {i.broadcast}"
        lines += [f"    inet {i.address}/{i.prefix}{brd_part} scope {scope} {i.name}",
                  "       valid_lft forever preferred_lft forever"]
    return "\n".join(lines) + "\n"
