"""Real phones over adb: backends (adbutils, uiautomator2), the action-to-adb mapping, the
safety guard (default deny), keeping the phone usable (``upkeep``) and device-state queries
(``AdbState``). Tasks are the mock apps' (``real = True`` ones); ``phone_gym.virtual``
serves PhoneWorld phones to the same client libraries."""

from __future__ import annotations

from .backend import AdbBackend, U2Backend
from .base import Backend, DeviceError, SetupRefused, ShellResult
from .guard import Decision, SafetyGuard
from .packages import STOCK_PACKAGES
from .state import AdbState
from .upkeep import PhoneLocked

__all__ = ["STOCK_PACKAGES", "AdbBackend", "AdbState", "Backend", "Decision", "DeviceError",
           "PhoneLocked", "SafetyGuard", "SetupRefused", "ShellResult", "U2Backend"]
