"""Real phones over adb: backends (adbutils, uiautomator2), the action-to-adb mapping, the
safety guard, device-state queries, real-device task templates, and (in ``virtual``) the
virtual adb device that serves PhoneWorld phones to the same client libraries."""

from __future__ import annotations

from .backend import AdbBackend, U2Backend
from .base import Backend, DeviceError, ShellResult
from .guard import SafetyGuard
from .packages import DEFAULT_PACKAGES
from .state import AdbState

__all__ = ["DEFAULT_PACKAGES", "AdbBackend", "AdbState", "Backend", "DeviceError",
           "SafetyGuard", "ShellResult", "U2Backend"]
