"""Virtual phones behind a virtual adb server, for testing the real-phone code without hardware."""

from .commands.packages import PROFILES
from .local import LocalBackend
from .phone import VirtualPhone
from .server import ADB_SERVER_VERSION, Faults, PhoneLike, PortHandler, VirtualAdbServer

__all__ = ["ADB_SERVER_VERSION", "PROFILES", "Faults", "LocalBackend", "PhoneLike",
           "PortHandler", "VirtualAdbServer", "VirtualPhone"]
